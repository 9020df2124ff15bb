"""Each scene's cast as it actually was: "Ducking a Scene" takes a character out, "Rushing a Scene"
puts one in ("It costs nothing to join a scene if the caller consents to your joining": how a
supporting character introduced mid-scene is brought in), and `status` shows the result."""

from __future__ import annotations

import json

import pytest

from yarnlog.app.journal import Journal
from yarnlog.core.table import AddParticipant
from yarnlog.core.timeline import OpenScene
from yarnlog.persistence.factory import open_store
from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import IntroduceSupporting
from yarnlog.rulesets.scenes_and_tokens.parts.relationships import RECURRING_RELATIONSHIP, DefineRelationship
from yarnlog.rulesets.scenes_and_tokens.parts.scene_challenges import Duck, Rush
from yarnlog.rulesets.yarn.parts.drama.scene_cast import cast_in_play, scene_cast, scene_casts

from .drama_table import GM, PLAYERS, give, seat_characters
from .refusals import refused


@pytest.fixture
def scene(journal, campaign):
    """Ana calls a dramatic scene casting Iris, Jon and Old Tom (scene 2 of episode 1)."""
    seat_characters(journal, campaign)
    journal.execute(campaign, OpenScene(caller="Ana", cast=("Iris", "Jon", "Old Tom"), mode="dramatic"))
    return campaign


def test_a_character_who_ducks_out_leaves_the_cast_and_the_call_is_remembered(journal, scene):
    ducked = journal.execute(scene, Duck("Jon", compel=False))[0]
    state = journal.state(scene)
    cast = scene_cast(state, 2)
    assert (cast.called, cast.cast, cast.left, cast.arrived) == (("Iris", "Jon", "Old Tom"), ("Iris", "Old Tom"),
                                                                  ("Jon",), ())
    assert [(c.character, c.how, c.sequence) for c in cast.changes] == [("Jon", "ducked", ducked.sequence)]
    assert cast_in_play(state) == ("Iris", "Old Tom")


def test_a_compelled_character_who_does_not_pay_stays_in_the_scene(journal, scene):
    journal.execute(scene, Duck("Jon", compel=True))
    cast = scene_cast(journal.state(scene), 2)
    assert (cast.cast, cast.changes) == (("Iris", "Jon", "Old Tom"), ())


def test_rushes_join_the_cast_and_a_blocked_rush_is_remembered_but_joins_nothing(journal, scene):
    give(journal, scene, "Cy", 1, currency="bennie")
    give(journal, scene, "Ana", 1, currency="bennie")
    journal.execute(scene, Rush("Kit", payment="bennie", blocked=True))
    assert scene_cast(journal.state(scene), 2).cast == ("Iris", "Jon", "Old Tom")
    give(journal, scene, "Cy", 1)
    journal.execute(scene, Rush("Kit", payment="token"))
    cast = scene_cast(journal.state(scene), 2)
    assert cast.cast == ("Iris", "Jon", "Old Tom", "Kit")
    assert [(c.character, c.how) for c in cast.changes] == [("Kit", "blocked"), ("Kit", "rushed")]
    assert cast.arrived == ("Kit",)


def test_a_supporting_character_introduced_mid_scene_is_listed_and_joins_when_brought_in(journal, scene):
    journal.execute(scene, IntroduceSupporting("Saul", "captain of the Black Gull", GM, recurring=True,
                                               petitioner="Iris"))
    cast = scene_cast(journal.state(scene), 2)
    assert (cast.introduced, cast.cast) == (("Saul",), ("Iris", "Jon", "Old Tom"))
    # "Players may establish relationships to recurring characters [...] during any scene featuring
    # both": not yet, Saul is not in the scene's cast.
    refused(journal, scene, DefineRelationship("Iris", "Saul", "owes him money"), RECURRING_RELATIONSHIP)
    journal.execute(scene, Rush("Saul", consent=True))
    cast = scene_cast(journal.state(scene), 2)
    assert (cast.cast[-1], [(c.character, c.how) for c in cast.changes]) == ("Saul", [("Saul", "brought in")])
    journal.execute(scene, DefineRelationship("Iris", "Saul", "owes him money"))


def test_a_relationship_with_a_recurring_character_who_ducked_out_waits_for_another_scene(journal, scene):
    journal.execute(scene, Duck("Jon", compel=False))
    refused(journal, scene, DefineRelationship("Jon", "Old Tom", "drinking companion"), RECURRING_RELATIONSHIP)


def test_scene_casts_lists_every_scene_or_one_episodes(journal, scene):
    journal.execute(scene, Duck("Jon", compel=False))
    journal.execute(scene, OpenScene(caller="Ben", cast=("Jon", "Kit"), mode="dramatic"))
    state = journal.state(scene)
    assert [(c.number, c.cast) for c in scene_casts(state)] == [(1, ()), (2, ("Iris", "Old Tom")),
                                                                 (3, ("Jon", "Kit"))]
    assert scene_casts(state, episode=2) == []
    assert scene_cast(state, 9) is None


@pytest.fixture
def table(cli, tmp_path):
    """The drama table on a journal file, for the command line: Ana's scene with Iris, Jon and Old Tom."""
    store = open_store(tmp_path / "journal.db")
    journal = Journal(store)
    journal.create_campaign("lantern", title="Lantern Harbor", gm=GM)
    for name in PLAYERS:
        journal.execute("lantern", AddParticipant(name))
    seat_characters(journal, "lantern")
    journal.execute("lantern", OpenScene(caller="Ana", cast=("Iris", "Jon", "Old Tom"), mode="dramatic"))
    store.close()
    return cli


def status_scene(cli, number: int) -> dict:
    code, out, err = cli("status", "--json")
    assert code == 0, err
    [scene] = [s for s in json.loads(out)["scenes"] if s["number"] == number]
    return scene


def test_status_lists_the_cast_after_ducks_and_rushes(table):
    assert table("challenge", "duck", "Jon")[0] == 0
    scene = status_scene(table, 2)
    assert (scene["cast"], scene["called_cast"]) == (["Iris", "Old Tom"], ["Iris", "Jon", "Old Tom"])
    assert table("challenge", "rush", "Kit", "--consent")[0] == 0
    assert status_scene(table, 2)["cast"] == ["Iris", "Old Tom", "Kit"]
    code, out, _ = table("status")
    assert code == 0 and "Iris, Old Tom, Kit" in out and "Jon, Old Tom" not in out
