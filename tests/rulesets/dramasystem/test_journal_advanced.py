"""The advanced procedural resolution in the journal (SRD 776-913): opened, the primary's draw,
redraws of every kind, the clincher; replayed and re-checked by ``verify``."""

from __future__ import annotations

import random

import pytest

from yarnlog.app.rolling import execute_rolling
from yarnlog.app.verify import verify
from yarnlog.core.referee import InvalidCommand, Referee, RuleViolation
from yarnlog.core.state import EVERYONE, GM_ONLY
from yarnlog.core.timeline import CloseScene, OpenScene
from yarnlog.rulesets.dramasystem.parts.advanced_procedure import (
    Clinch,
    Clinched,
    ForceRedraw,
    OpenAdvanced,
    PrimaryDraw,
    validate_clinched,
)
from yarnlog.rulesets.dramasystem.parts.card_procedure import DrawTarget, Oppose
from yarnlog.rulesets.dramasystem.rules.advanced_resolution import Band, band
from yarnlog.rulesets.dramasystem.rules.cards import Card
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour

from .storm_table import CAMPAIGN, _played_scene


def _scene(journal, cast=("Iris", "Tomas"), caller="Ana"):
    journal.execute(CAMPAIGN, OpenScene(caller=caller, cast=cast, mode="procedural"))


def test_an_advanced_resolution_from_the_opening_run_to_the_clincher(journal):
    _scene(journal)
    [opened] = journal.execute(CAMPAIGN, OpenAdvanced("Iris", "fighting", "yellow", ("3S", "KH", "4D")))
    # Iris is Strong in Fighting: the GM draws two and the better is kept (SRD 847).
    assert (opened.payload.grade.value, opened.payload.primary_player) == ("strong", "Ana")
    [drew] = journal.execute(CAMPAIGN, PrimaryDraw(("2C", "9H")))
    assert drew.payload.kept == "9H" and drew.payload.band is Band.UP_NUMBER
    [red] = journal.execute(CAMPAIGN, ForceRedraw("Ben", token="red", card="QS", consequence_card="3C"))
    assert red.payload.consequence == "bad"  # SRD 877: a down consequence card after red
    with pytest.raises(RuleViolation, match="already forced a redraw in this scene"):
        journal.execute(CAMPAIGN, ForceRedraw("Ben", token="yellow", card="2S"))
    [absent] = journal.execute(CAMPAIGN, ForceRedraw("Cy", absent_green=True, card="5D"))
    assert absent.payload.consequence_card is None
    [clinched] = journal.execute(CAMPAIGN, Clinch())
    assert (clinched.payload.clincher, clinched.payload.success, clinched.payload.outcome) == (
        "5D", False, "a heart-breaking near miss")
    piles = journal.state(CAMPAIGN).rules.piles
    assert piles.pile("Maya").unspent == {Colour.GREEN, Colour.RED}  # the GM's yellow, spent in the open
    assert piles.pile("Cy").unspent == {Colour.YELLOW, Colour.RED}
    assert verify(journal.stored_events(CAMPAIGN), CAMPAIGN).ok


def test_the_opening_run_stops_at_the_first_down_card_and_the_primary_must_be_cast(journal):
    _scene(journal)
    with pytest.raises(RuleViolation, match="until the first down card"):
        journal.execute(CAMPAIGN, OpenAdvanced("Iris", "Fighting", "green", ("3S", "KH", "4D")))
    with pytest.raises(InvalidCommand, match="Vel is not in scene 1|not a player character"):
        journal.execute(CAMPAIGN, OpenAdvanced("Vel", "Knowing", "red", ("3C",)))
    [opened] = execute_rolling(journal, CAMPAIGN, OpenAdvanced("Iris", "Talking", "green"), rng=random.Random(3))
    run = [Card.parse(c) for c in opened.payload.opening]
    assert opened.payload.drawn_by_tool and not band(run[-1], Colour.GREEN).up
    assert all(band(c, Colour.GREEN).up for c in run[:-1])


def test_one_resolution_a_scene_whichever_the_kind(journal):
    _scene(journal)
    journal.execute(CAMPAIGN, OpenAdvanced("Iris", "Fighting", "red", ("3C",)))
    journal.execute(CAMPAIGN, Oppose("green"), visibility=GM_ONLY)
    with pytest.raises(RuleViolation, match="already has its procedural resolution"):
        journal.execute(CAMPAIGN, DrawTarget("KC", ("Ana", "Ben", "Cy")))


def test_a_positive_consequence_is_cashed_in_once_for_a_redraw(journal):
    _played_scene(journal)  # scene 1: Ana's Q♥ drawn with green is an advantage
    journal.execute(CAMPAIGN, CloseScene())
    _scene(journal, cast=("Iris",))
    journal.execute(CAMPAIGN, OpenAdvanced("Iris", "Knowing", "green", ("4C",)))
    journal.execute(CAMPAIGN, PrimaryDraw(("2D", "3D"), kept="3D"))  # Weak: the worse of two down numbers
    [cashed] = journal.execute(CAMPAIGN, ForceRedraw("Ana", cash_in=True, card="AS"))
    assert cashed.payload.cashes_in is not None and cashed.payload.band is Band.UP_FACE
    with pytest.raises(RuleViolation, match="no positive consequence"):
        journal.execute(CAMPAIGN, ForceRedraw("Ana", cash_in=True, card="2S"))
    journal.execute(CAMPAIGN, Clinch())
    assert verify(journal.stored_events(CAMPAIGN), CAMPAIGN).ok


def test_a_forged_clincher_is_named_by_verify(journal):
    _scene(journal)
    journal.execute(CAMPAIGN, OpenAdvanced("Iris", "Fighting", "green", ("5H",)))
    journal.execute(CAMPAIGN, PrimaryDraw(("2C", "6D")))
    honest = validate_clinched(Clinched(scene=1), journal.state(CAMPAIGN), Referee())
    forged = honest.model_copy(update={"success": True, "outcome": "an especially impressive success"})
    journal.commands.append(CAMPAIGN, journal.store.last_sequence(CAMPAIGN), [forged], by="Maya", visibility=EVERYONE)
    problems = [f.problem for f in verify(journal.stored_events(CAMPAIGN), CAMPAIGN).faults]
    assert "success is recorded as True but the rules give False" in problems
