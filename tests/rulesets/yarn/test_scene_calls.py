"""Calling scenes in a Yarn campaign, against "Calling Scenes", "Calling Order", "Calling Dramatic
Scenes", the special scenes of "Drama with Recurring Characters" and "Calling a Procedural Scene"."""

from __future__ import annotations

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.decide import audit
from yarnlog.core.referee import Override
from yarnlog.core.timeline import OpenScene, SceneOpened
from yarnlog.rulesets.scenes_and_tokens.parts.petitions import Force
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import CASTING_COST, NO_REVERSAL, NO_TWO_RECURRING
from yarnlog.rulesets.yarn.parts.drama import scene_calls as calls
from yarnlog.rulesets.yarn.parts.drama.calling_order import calling_view
from yarnlog.rulesets.yarn.parts.drama.scene_calls import CallScene, RuleOffstage

from .drama_table import GM, give, seat_characters, tokens, types
from .refusals import refused, rejected


@pytest.fixture
def table(journal, campaign):
    seat_characters(journal, campaign)
    return campaign


def ok(journal, cid) -> bool:
    return verify(journal.store.read(cid), cid).ok


def test_casting_a_scene_without_your_own_character_costs_a_drama_token(journal, table):
    """ "To cast a scene your player character is not in costs you a drama token (p . 26.)" """
    refused(journal, table, OpenScene(caller="Ana", cast=("Jon", "Old Tom"), mode="dramatic"), CASTING_COST)
    give(journal, table, "Ana", 1)
    recorded = journal.execute(table, OpenScene(caller="Ana", cast=("Jon", "Old Tom"), mode="dramatic"))
    assert types(recorded) == ["scene.closed", "scene.opened", "yarn.scene.called"]
    paid = recorded[-1].payload.transfers[0]
    assert (paid.source, paid.destination, paid.amount, paid.chapter) == ("Ana", "kitty", 1, "Calling Scenes")
    assert recorded[-1].scene == 2 and tokens(journal, table) == {}
    # Her own character in the cast costs nothing, and no Yarn event is needed.
    assert types(journal.execute(table, OpenScene(caller="Ana", cast=("Iris", "Jon"), mode="dramatic")))[-1] == \
        "scene.opened"
    assert ok(journal, table)


def test_the_gm_casts_anyone_for_free_provided_one_is_a_player_character(journal, table):
    """ "When the GM calls a dramatic scene, she may cast any participants in the scene, provided at
    least one of them is a player character." ("This requirement does not apply to the GM.") """
    assert types(journal.execute(table, OpenScene(caller=GM, cast=("Jon", "Old Tom"), mode="dramatic")))[-1] == \
        "scene.opened"
    refused(journal, table, OpenScene(caller=GM, cast=("Old Tom", "Fisher"), mode="dramatic"), calls.GM_CASTS)


def test_never_a_dramatic_scene_between_two_recurring_characters(journal, table):
    """ "Never call a dramatic scene between two recurring characters. No one wants to listen to the
    GM talk to herself, especially not the GM." """
    refused(journal, table, OpenScene(caller=GM, cast=("Old Tom", "Mags"), mode="dramatic"), NO_TWO_RECURRING)
    give(journal, table, "Ana", 1)
    refused(journal, table, OpenScene(caller="Ana", cast=("Old Tom", "Mags"), mode="dramatic"), NO_TWO_RECURRING)
    # With the GM's override the call stands, and the override says which rule was set aside.
    recorded = journal.execute(table, OpenScene(caller=GM, cast=("Old Tom", "Mags"), mode="dramatic"),
                               override=Override(by=GM, reason="a flashback the table asked for"))
    assert recorded[0].event_type == "override.recorded"
    assert recorded[0].payload.rules[0].text == NO_TWO_RECURRING.text
    assert ok(journal, table)


def test_a_dramatic_scene_has_a_petitioner_and_a_granter_and_minor_characters_do_not_count(journal, table):
    """ "a primarily dramatic scene, in which a PC or recurring character pursues an emotional reward
    from a PC or recurring character" """
    refused(journal, table, OpenScene(caller="Ana", cast=("Iris",), mode="dramatic"), calls.DRAMATIC_MODE)
    refused(journal, table, OpenScene(caller="Ana", cast=("Iris", "Fisher"), mode="dramatic"), calls.DRAMATIC_MODE)


def test_a_procedural_scene_casts_at_least_one_pc(journal, table):
    """ "a procedural scene, in which one or more PCs (possibly aided by supporting characters) pursues
    an external, practical goal." """
    refused(journal, table, OpenScene(caller=GM, cast=("Fisher",), mode="procedural"), calls.PROCEDURAL_MODE)
    journal.execute(table, OpenScene(caller=GM, cast=("Kit", "Fisher"), mode="procedural"))


def test_the_cast_names_known_characters(journal, table):
    """ "Cast: names the main or recurring characters taking part in the scene." """
    rejected(journal, table, OpenScene(caller="Ana", cast=("Iris", "Zed")), "Zed is not a character")
    rejected(journal, table, OpenScene(caller="Ana", cast=("Iris", "Iris")), "cast once")
    rejected(journal, table, OpenScene(caller="Zoe", cast=("Iris",)), "not at the table")
    rejected(journal, table, OpenScene(caller="Ana", cast=("Iris",), mode="comedy"), "dramatic or procedural")
    rejected(journal, table, OpenScene(caller="Ana", cast=("Iris",), kind="duel"), "soft open, conference")


def test_soft_opens_and_conferences_start_without_a_situation(journal, table):
    """ "You can start a scene without specifying a situation." A conference is a soft open "in which
    all or most of the main characters discuss the issues currently before them." """
    refused(journal, table, OpenScene(caller="Ana", cast=("Iris", "Jon"), kind="soft-open", situation="a storm"),
            calls.SOFT_OPEN)
    opened = journal.execute(table, OpenScene(caller="Ana", cast=("Iris", "Jon"), kind="Soft Open"))[-1]
    assert opened.payload.kind == "soft open"
    refused(journal, table, OpenScene(caller="Ana", cast=("Iris", "Old Tom"), kind="conference"), calls.CONFERENCE)
    journal.execute(table, OpenScene(caller="Ana", cast=("Iris", "Jon", "Old Tom"), kind="conference"))


def test_a_montage_has_a_duration_and_its_caller_may_call_again_but_not_another_montage(journal, table):
    """ "It is called as a scene by a player when it is their turn and they suggest a duration." "At the
    end of a montage scene the calling player may immediately call another scene so long as they don't
    call another montage." """
    refused(journal, table, OpenScene(caller="Ana", cast=("Iris",), kind="montage"), calls.MONTAGE_CALL)
    refused(journal, table, CallScene(caller=GM, cast=("Iris",), kind="montage", duration="a week"),
            calls.MONTAGE_CALL)
    called = journal.execute(table, CallScene(caller="Ana", cast=("Iris", "Jon"), kind="montage", duration="a week"))
    assert called[-1].payload.duration == "a week"
    assert calling_view(journal.state(table))["recall"] == {"caller": "Ana", "reason": "a montage ended"}
    refused(journal, table, CallScene(caller="Ana", cast=("Iris",), kind="montage", duration="a day"),
            calls.MONTAGE_END)
    journal.execute(table, OpenScene(caller="Ana", cast=("Iris",), kind="training"))
    assert ok(journal, table)


def test_a_shopping_scene_ruled_off_stage_lets_its_caller_call_again(journal, table):
    """ "If ruled to be off stage the calling player may then call another scene immediately." """
    rejected(journal, table, RuleOffstage(), "not a shopping scene")
    journal.execute(table, OpenScene(caller="Cy", cast=("Kit",), kind="shopping"))
    journal.execute(table, RuleOffstage())
    assert calling_view(journal.state(table))["recall"]["caller"] == "Cy"


# -- forces -----------------------------------------------------------------------------------


def test_the_same_characters_may_not_rerun_a_force_without_a_new_element(journal, table):
    """ "After a force occurs or is canceled, the same characters may not, for the duration of the
    episode, be called into similar scenes intended to reverse the original result. Some significant
    new element [...] must be added" """
    give(journal, table, "Ana", 2)
    journal.execute(table, OpenScene(caller="Ana", cast=("Iris", "Jon"), mode="dramatic"))
    journal.execute(table, Force("Iris", "Jon"))
    rejected(journal, table, CallScene(caller="Cy", cast=("Kit", "Jon"), reverses_force=True), "no force")
    again = CallScene(caller="Ben", cast=("Jon", "Iris"), mode="dramatic", reverses_force=True)
    refused(journal, table, again, NO_REVERSAL)
    called = journal.execute(table, CallScene(caller="Ben", cast=("Jon", "Iris"), mode="dramatic",
                                              reverses_force=True, new_element="Iris sank his boat"))
    assert called[-1].payload.new_element == "Iris sank his boat"


# -- verify -----------------------------------------------------------------------------------


def _force_in(journal, cid, *payloads):
    journal.commands.append(cid, journal.store.last_sequence(cid), list(payloads), by=GM, visibility="everyone")


def test_verify_flags_calls_forced_in_behind_the_decider(journal, table):
    state = journal.state(table)
    number = state.timeline.last_scene + 1
    _force_in(journal, table, SceneOpened(number=number, caller="Ana", cast=["Jon", "Old Tom"], mode="dramatic"))
    _force_in(journal, table, SceneOpened(number=number + 1, caller=GM, cast=["Old Tom", "Mags"], mode="dramatic"))
    problems = [f.problem for f in audit(journal.history(table))]
    # Neither forced opening closed the scene in play first, as every call does.
    assert problems == [f"scene {number - 1} is in play: close it first",
                        f"this dramatic scene is between recurring characters only ({NO_TWO_RECURRING.cite()})",
                        f"scene {number} is in play: close it first",
                        f"scene {number}: Ana paid no drama token ({CASTING_COST.cite()})"]
