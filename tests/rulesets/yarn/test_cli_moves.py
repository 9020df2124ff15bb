"""The moves of issue 10 at the table: each verb answers in the book's words or with --json, and a bad
or forbidden entry is one line on stderr, exit 2 or 3, with nothing written."""

from __future__ import annotations

import json

import pytest

from yarnlog.app.journal import Journal
from yarnlog.core.table import AddParticipant
from yarnlog.persistence.factory import open_store

from .drama_table import GM, PLAYERS, seat_characters


@pytest.fixture
def table(cli, tmp_path):
    """Lantern Harbor: episode 1 with the GM's opening scene in play (Iris, Jon, Kit; Old Tom, Mags)."""
    store = open_store(tmp_path / "journal.db")
    journal = Journal(store)
    journal.create_campaign("lantern", title="Lantern Harbor", gm=GM)
    for name in PLAYERS:
        journal.execute("lantern", AddParticipant(name))
    seat_characters(journal, "lantern")
    store.close()
    return cli


def recorded(result) -> list[dict]:
    code, out, err = result
    assert code == 0, err
    return json.loads(out)


def events(cli) -> int:
    return len(recorded(cli("log", "--json")))


def said(result) -> str:
    code, out, err = result
    assert code == 0, err
    return " ".join(out.split())  # the answer, unwrapped from its 80 columns


def refused(cli, args, code) -> str:
    before = events(cli)
    exit_code, out, err = cli(*args)
    assert (exit_code, out) == (code, "") and err.count("\n") == 1, err
    assert events(cli) == before
    return err


def test_each_move_answers_in_words(table):
    cli = table
    assert "Scene 1 is the episode's opener, which introduces the theme." in said(cli("scene-role", "opener"))
    shifted = said(cli("shift", "the swamp", "--describe", "reeds and mud", "--time", "at dusk"))
    assert "Maya introduced the location the swamp: reeds and mud" in shifted
    assert "Maya moves the scene to the swamp, at dusk." in shifted
    assert "Ana challenged the description of the swamp on tone: for the detail Ben, Cy, for the challenger Ana; " \
           "the detail stands." in said(cli("challenge", "location", "Ana", "the swamp", "--ground", "tone",
                                            "--allowed", "--for-challenger", "Ana"))
    assert "Scene 2 is a development scene" in said(cli("call", "Ana", "--kind", "montage", "--duration", "a week",
                                                         "--cast", "Iris", "--role", "development"))
    assert "In the montage, Jon (Ben), training: drills with the watch." in said(
        cli("montage-action", "ben", "drills with the watch", "--activity", "training"))
    assert "Ben challenged Ana's call (narration)" in said(cli("challenge", "narration", "Ben", "--for-caller",
                                                              "Ana,Cy"))
    assert "Ana chose the theme of episode 2: debts." in said(cli("theme", "choose", "debts", "--chooser", "Ana"))


def test_each_move_records_with_json(table):
    cli = table
    [named] = recorded(cli("scene-role", "opener", "--json"))
    assert (named["event_type"], named["payload"]) == ("yarn.scene.role_named", {"scene": 1, "role": "opener"})
    shifted = recorded(cli("shift", "the swamp", "--describe", "reeds", "--by", "Cy", "--json"))
    assert [e["event_type"] for e in shifted] == ["yarn.location.introduced", "yarn.scene.shifted"]
    assert shifted[1]["payload"]["by"] == "Cy"
    [upheld] = recorded(cli("challenge", "location", "Ana", "the swamp", "--ground", "tone", "--allowed",
                            "--for-challenger", "Ana,Ben", "--json"))
    assert (upheld["payload"]["for_detail"], upheld["payload"]["upheld"]) == (["Cy"], True)
    assert said(cli("cast")).count("(struck by a challenge: reeds)") == 1
    [chosen] = recorded(cli("theme", "choose", "debts", "--chooser", "Cy", "--json"))
    assert chosen["payload"] == {"episode": 2, "theme": "debts", "chosen_by": "Cy"}


def test_bad_and_forbidden_entries_write_nothing(table):
    cli = table
    assert "one of opener, development, closer" in refused(cli, ("scene-role", "prologue"), 2)
    assert refused(cli, ("scene-role", "closer"), 3).rstrip().endswith("(Scenes).")
    assert "Episodes › Scenes" in refused(cli, ("scene-role", "closer", "--json"), 3)  # the rule whole
    assert "Introducing Locations" in refused(cli, ("shift", "the lighthouse"), 3)
    assert "not a montage" in refused(cli, ("montage-action", "Iris", "trains"), 3)
    assert "the moon is not an introduced location" in refused(
        cli, ("challenge", "location", "Ana", "the moon", "--ground", "tone", "--allowed"), 2)
    assert "no theme rota is drawn" in refused(cli, ("theme", "choose", "debts"), 2)
    assert "not a consequence roll" in refused(cli, ("consequence", "3", "a favour"), 2)
