"""A roll is a character's: a refusal that names an unknown roller suggests a character, never a player."""

from __future__ import annotations

from pathlib import Path

import pytest

from yarnlog.cli.main import EXIT_CODES

SHEETS = Path(__file__).resolve().parents[2] / "journals" / "sheets"


@pytest.fixture
def table(cli):
    for args in (("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"), ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Iris", "--from-file", str(SHEETS / "iris.json")),
                 ("character", "create", "Tomas", "--from-file", str(SHEETS / "tomas.json")),
                 ("episode", "start", "--title", "Fog"), ("call", "Ana", "--cast", "Iris,Tomas")):
        assert cli(*args)[0] == 0, args
    return cli


def test_an_unknown_roller_near_a_players_name_is_not_offered_the_player(table):
    code, out, err = table("roll", "Ama", "--trait", "Brawler", "--faces", "3,4")
    assert code == EXIT_CODES["invalid"] and out == "" and err.count("\n") == 1
    assert "Ama" in err and "did you mean" not in err and "Ana" not in err
    code, _, err = table("roll", "Mya", "--trait", "Brawler", "--faces", "3,4")  # nor the GM
    assert code == EXIT_CODES["invalid"] and "Maya" not in err


def test_an_unknown_roller_near_a_characters_name_is_offered_the_character(table):
    code, out, err = table("roll", "Tomass", "--trait", "Brawler", "--faces", "3,4")
    assert code == EXIT_CODES["invalid"] and out == "" and err.count("\n") == 1
    assert err.rstrip().endswith("did you mean Tomas?")


def test_a_participant_named_where_a_participant_goes_is_still_offered_the_participant(table):
    code, _, err = table("note", "hi", "--by", "Mya")
    assert code == EXIT_CODES["invalid"] and "did you mean Maya?" in err
