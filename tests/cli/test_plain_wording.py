"""Issue 26's wording slips, each said as a person would: ``dice?`` says "the roll uses 4d6" (never "the
roll roll"), and a document written to a file is "Wrote the players' recap of episode 1 to FILE"."""

from __future__ import annotations

import io

import pytest

from yarnlog.cli.console import Console
from yarnlog.cli.context import open_journal
from yarnlog.core.referee import DiceNeeded
from yarnlog.rulesets.dramasystem.parts.cards_needed import CardsNeeded
from yarnlog.rulesets.dramasystem.rules.cards import Deck


def _never(rng):  # a throw the test never makes
    raise AssertionError("not thrown")


def test_a_roll_is_named_once_whatever_it_is_called():
    assert DiceNeeded("roll", 4, 6, _never).uses() == "the roll uses 4d6"
    assert DiceNeeded("damage", 2, 6, _never).uses() == "the damage roll uses 2d6"
    assert str(DiceNeeded("roll", 4, 6, _never)).startswith("the roll needs 4d6:")
    assert CardsNeeded("draw", 2, Deck().left).uses() == "the draw uses 2 cards"
    assert CardsNeeded("target card", 1, Deck().left).uses() == "the target card uses 1 card"


@pytest.fixture
def yarn(harbor_scene):
    return harbor_scene


def test_dice_query_says_the_roll_uses_4d6(yarn, tmp_path):
    console = Console(open_journal(), str(tmp_path / "journal.db"), "harbor", out=io.StringIO(), err=io.StringIO())
    assert console.dispatch("dice? roll Tomas --trait Brawler --difficulty hard") == 0
    said = console.out.getvalue()
    assert said.splitlines()[-1] == "the roll uses 4d6: type them with the move (nothing recorded)"
    assert "roll roll" not in said


def test_a_recap_written_to_a_file_is_named_mid_sentence(yarn, tmp_path):
    assert yarn("note", "the fog rolls in")[0] == 0
    for args, label in ((("--players",), "the players' recap"), ((), "the GM's recap"),
                        (("--as", "Ana"), "Ana's recap")):
        target = tmp_path / "recap.md"
        code, out, err = yarn("recap", *args, "-o", str(target))
        assert code == 0 and out == "", err
        assert err == f"Wrote {label} of episode 1 to {target}\n"
        assert target.read_text(encoding="utf-8").strip()


def test_the_consoles_help_fits_80_columns_and_names_every_verb_whole(yarn, tmp_path):
    console = Console(open_journal(), str(tmp_path / "journal.db"), "harbor", out=io.StringIO(), err=io.StringIO())
    assert console.dispatch("help") == 0
    lines = console.out.getvalue().splitlines()
    assert len(lines) > 5 and all(len(line) <= 80 for line in lines), [len(line) for line in lines]
    listed = " ".join(lines[1:]).replace(",", " ").split()
    assert {"calling-order", "scene-role", "montage-action", "undo:", "dice?:"} <= set(listed)


def test_the_missing_trait_error_is_one_line_within_80_columns(yarn):
    code, out, err = yarn("roll", "Tomas", "--trait", "Sailing", "--faces", "3,3")
    assert code == 2 and out == "" and err.count("\n") == 1 and len(err.rstrip("\n")) <= 80, err
    assert err.startswith("error: Tomas has no trait 'Sailing' (traits: ") and "Brawler" in err
