"""``correct`` and ``retract`` show the event they amend and ask first (``--yes`` skips it); correcting
a roll's faces works out its total and outcome again, and verify still holds."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from yarnlog.cli.main import EXIT_CODES

SHEETS = Path(__file__).resolve().parents[2] / "journals" / "sheets"


class Terminal(io.StringIO):
    """A stdin someone types at: the answers given."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def rolled(cli):
    """A campaign whose last event (10) is Tomas's hard Brawler roll of 6,4,3,1: 14 beats 11."""
    for args in (("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"), ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Iris", "--from-file", str(SHEETS / "iris.json")),
                 ("character", "create", "Tomas", "--from-file", str(SHEETS / "tomas.json")),
                 ("episode", "start", "--title", "Fog"), ("call", "Ana", "--cast", "Iris,Tomas"),
                 ("call", "Ben", "--cast", "Tomas", "--mode", "procedural")):
        assert cli(*args)[0] == 0, args
    code, out, err = cli("roll", "Tomas", "--trait", "Brawler", "--difficulty", "hard", "--faces", "6,4,3,1", "--json")
    assert code == 0, err
    roll = json.loads(out)[-1]
    assert roll["sequence"] == 10 and roll["payload"]["outcome"] == "beats"
    return cli


def test_without_a_terminal_and_without_yes_nothing_is_recorded(rolled):
    _, before, _ = rolled("export")
    for args in (("retract", "10", "--reason", "a mistake"), ("correct", "10", "--faces", "2,1,1,1", "--reason", "x")):
        code, out, err = rolled(*args)
        assert code == EXIT_CODES["invalid"] and out == ""
        assert err.count("\n") == 1 and "pass --yes" in err
    assert rolled("export")[1] == before


def test_a_refused_amendment_is_refused_before_anything_is_asked(rolled):
    code, _, err = rolled("retract", "10", "--reason", "x", "--by", "Ana")
    assert code == EXIT_CODES["invalid"] and err == "error: only a GM may approve a correction or retraction\n"


def test_retract_shows_the_event_and_asks(rolled, monkeypatch):
    monkeypatch.setattr(sys, "stdin", Terminal("n\n"))
    code, out, err = rolled("retract", "10", "--reason", "never happened")
    assert code == 1 and "Event 10, episode 1, scene 2, recorded by Maya:" in err and "nothing recorded" in err
    assert "  Tomas rolled 4 dice for Brawler" in err and "yarn.roll.made" not in err  # its sentence, no fields
    assert "retraction" not in rolled("log", "--json")[1]
    monkeypatch.setattr(sys, "stdin", Terminal("y\n"))
    code, out, err = rolled("retract", "10", "--reason", "never happened", "--json")
    assert code == 0 and json.loads(out)[0]["payload"]["retracts"] == 10
    assert rolled("verify")[0] == 0


def test_correcting_a_rolls_faces_works_out_its_outcome_again(rolled):
    code, out, err = rolled("correct", "10", "--faces", "2,1,1,1", "--reason", "misread the dice", "--yes", "--json")
    assert code == 0, err
    corrected = json.loads(out)[0]["payload"]["replacement"]
    assert corrected["dice"]["faces"] == [2, 1, 1, 1] and corrected["dice"]["total"] == 5
    assert corrected["outcome"] == "fails" and corrected["margin"] == -6
    assert corrected["dice"]["source"] == "entered"
    assert rolled("verify")[0] == 0
    _, out, _ = rolled("rolls", "--json")
    assert "fails" in out


def test_a_nested_field_is_corrected_by_its_dotted_name(rolled):
    code, out, err = rolled("correct", "10", "--set", "dice.faces=[6,6,6,1]", "--reason", "misread", "--yes", "--json")
    assert code == 0, err
    assert json.loads(out)[0]["payload"]["replacement"]["dice"]["total"] == 19
    code, _, err = rolled("correct", "3", "--faces", "6", "--reason", "x", "--yes")
    assert code == EXIT_CODES["invalid"] and "no dice faces to correct" in err
