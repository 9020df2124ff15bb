"""The calling order of a Yarn episode, against "Calling Order" and the queue jump of "Spending Bennies"."""

from __future__ import annotations

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.referee import Override
from yarnlog.core.timeline import EndEpisode, OpenScene, StartEpisode
from yarnlog.rulesets.scenes_and_tokens.parts.calling_order import CALLING_ORDER, calling_order
from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import DrawPrecedence
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import Purpose
from yarnlog.rulesets.scenes_and_tokens.rules import bennies as bn
from yarnlog.rulesets.yarn.parts.drama.calling_order import calling_view
from yarnlog.rulesets.yarn.parts.drama.scene_calls import CallScene

from .drama_table import GM, bennies, give, seat_characters
from .refusals import refused, rejected


def ok(journal, cid) -> bool:
    return verify(journal.store.read(cid), cid).ok


def test_the_calling_order_puts_the_theme_chooser_first_and_the_gm_in_her_place():
    """ "The player choosing the episode's theme always calls first. Then comes the player who actually
    appeared first, in your precedence order. The GM inserts herself into the order, usually replacing
    the player who chose the theme." """
    assert calling_order(("Ben", "Ana", "Cy"), gm=GM, theme_chooser="Ana") == ("Ana", "Ben", GM, "Cy")
    assert calling_order(("Ana", "Ben", "Cy"), gm=GM, theme_chooser="Ana") == ("Ana", GM, "Ben", "Cy")
    # No player chose the theme: the GM frames the initial scene.
    assert calling_order(("Ben", "Ana"), gm=GM, theme_chooser=None) == (GM, "Ben", "Ana")


@pytest.fixture
def episode_two(journal, campaign):
    """Episode 2, theme chosen by Ana, calling-order precedence Ben, Ana, Cy: Ana, Ben, Maya, Cy."""
    table = campaign
    seat_characters(journal, table)
    journal.execute(table, EndEpisode(), override=Override(by=GM, reason="the bennie vote is not tested here"))
    journal.execute(table, StartEpisode(title="Debts", theme="debts", theme_chosen_by="Ana"))
    journal.execute(table, DrawPrecedence(Purpose.CALLING_ORDER, ("Ben", "Ana", "Cy")))
    return table


def test_scenes_are_called_in_the_calling_order_which_rolls_over(journal, episode_two):
    """ "Scenes are then called according to this altered order. Once you reach the end of a calling
    order, it rolls over" """
    view = calling_view(journal.state(episode_two))
    assert (view["calling_order"], view["next_caller"]) == (["Ana", "Ben", GM, "Cy"], "Ana")
    refused(journal, episode_two, OpenScene(caller="Ben", cast=("Jon",)), CALLING_ORDER)
    for caller, pc in (("Ana", "Iris"), ("Ben", "Jon"), (GM, "Kit"), ("Cy", "Kit")):
        journal.execute(episode_two, OpenScene(caller=caller, cast=(pc,)))
    assert calling_view(journal.state(episode_two))["next_caller"] == "Ana"
    # A GM override lets Cy call out of turn; the order then goes on as before.
    journal.execute(episode_two, OpenScene(caller="Cy", cast=("Kit",)), override=Override(by=GM, reason="urgent"))
    assert calling_view(journal.state(episode_two))["next_caller"] == "Ana"
    assert ok(journal, episode_two)


def test_jumping_the_queue_costs_a_bennie_and_skips_the_jumpers_next_turn(journal, episode_two):
    """ "the right to jump the queue and call a scene immediately after any other scene. The
    queue-jumper's next scene is skipped, after which the existing calling order is observed as per
    usual." """
    give(journal, episode_two, "Cy", 1, currency="bennie")
    journal.execute(episode_two, OpenScene(caller="Ana", cast=("Iris",)))
    rejected(journal, episode_two, CallScene(caller="Ben", cast=("Jon",), jump_queue=True), "without jumping")
    jumped = journal.execute(episode_two, CallScene(caller="Cy", cast=("Kit",), jump_queue=True))[-1]
    assert jumped.payload.bennie_spends[0].option == "jump_the_queue"
    assert calling_view(journal.state(episode_two))["scenes"][-1] == {
        "scene": jumped.payload.scene, "caller": "Cy", "in_turn": True, "kind": None, "mode": None}
    assert bennies(journal, episode_two) == {}
    for caller, pc in (("Ben", "Jon"), (GM, "Jon")):
        journal.execute(episode_two, OpenScene(caller=caller, cast=(pc,)))
    # Cy's turn is skipped: Ana calls next.
    assert calling_view(journal.state(episode_two))["may_call_next"] == ["Ana"]
    refused(journal, episode_two, CallScene(caller="Cy", cast=("Kit",), jump_queue=True), bn.HAVE_A_BENNIE)
    assert ok(journal, episode_two)


def test_verify_flags_a_call_forced_in_out_of_turn(journal, episode_two):
    from yarnlog.core.decide import audit
    from yarnlog.core.timeline import Note, SceneOpened

    number = journal.state(episode_two).timeline.last_scene + 1
    journal.commands.append(episode_two, journal.store.last_sequence(episode_two),
                            [SceneOpened(number=number, caller="Cy", cast=["Kit"]), Note(text="Cy pushes in")], by=GM,
                            visibility="everyone")
    assert [f.problem for f in audit(journal.history(episode_two))] == [
        f"scene {number}: Cy called out of turn ({CALLING_ORDER.cite()})"]
