"""Simple player-versus-player contests, solo actions and assisting in the journal (SRD 579-635)."""

from __future__ import annotations

import random

import pytest

from yarnlog.app.rolling import execute_rolling
from yarnlog.app.verify import verify
from yarnlog.core.referee import InvalidCommand, RuleViolation
from yarnlog.core.timeline import OpenScene
from yarnlog.rulesets.dramasystem.parts.contests import (
    AssistContest,
    DrawInContest,
    EndContest,
    RedrawInContest,
    StartContest,
    StopDrawing,
)
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour

from .storm_table import CAMPAIGN


def _scene(journal, cast=("Iris", "Tomas", "Vel")):
    journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=cast, mode="procedural"))


def test_strong_against_weak_wins_outright_and_spends_nothing(journal):
    # SRD 581: Iris is Strong in Fighting, Tomas Weak in Talking.
    _scene(journal)
    [started] = journal.execute(CAMPAIGN, StartContest("iris", "fighting", "green", "tomas", "yellow", "talking"))
    assert started.payload.outright_winner == "Iris" and started.payload.procedural_spends == []
    with pytest.raises(InvalidCommand, match="won outright"):
        journal.execute(CAMPAIGN, DrawInContest("Iris", "KD"))
    [ended] = journal.execute(CAMPAIGN, EndContest())
    assert ended.payload.winner == "Iris"
    assert len(journal.state(CAMPAIGN).rules.piles.pile("Ana").unspent) == 3


def test_a_contest_drawn_in_turn_the_best_card_in_hand_winning(journal):
    _scene(journal)
    # Iris Fighting (Strong) against Tomas Moving (Strong): yellow 2 draws, red 1 (SRD 587).
    [started] = journal.execute(CAMPAIGN, StartContest("Iris", "Fighting", "yellow", "Tomas", "red", "Moving"))
    assert started.payload.allowance == [2, 1]
    # Issue 26: "red, 1 draws" read wrong: one draw is "1 draw".
    from yarnlog.rulesets.dramasystem.words import narrate

    said = narrate(started, None)  # type: ignore[arg-type]
    assert "yellow, 2 draws)" in said and "red, 1 draw)" in said, said
    journal.execute(CAMPAIGN, DrawInContest("Iris", "KD"))
    with pytest.raises(RuleViolation, match="Tomas draws the second card|Tomas's turn"):
        journal.execute(CAMPAIGN, DrawInContest("Iris", "2C"))
    journal.execute(CAMPAIGN, DrawInContest("Tomas", "KS"))
    with pytest.raises(RuleViolation, match="no card draws left"):
        journal.execute(CAMPAIGN, DrawInContest("Tomas", "AS"))
    journal.execute(CAMPAIGN, DrawInContest("Iris", "3C"))
    [ended] = journal.execute(CAMPAIGN, EndContest())
    # K♠ beats K♦ by the suit order (SRD 605).
    assert (ended.payload.winner, ended.payload.winning_card, ended.payload.by_suit) == ("Tomas", "KS", True)
    assert verify(journal.stored_events(CAMPAIGN), CAMPAIGN).ok


def test_an_assistant_adds_draws_and_his_face_cards_bring_him_consequences(journal):
    _scene(journal)
    journal.execute(CAMPAIGN, StartContest("Iris", "Talking", "red", "Tomas", "red", "Sneaking"))
    journal.execute(CAMPAIGN, DrawInContest("Iris", "5D"))
    journal.execute(CAMPAIGN, DrawInContest("Tomas", "9S"))
    # Cy (Vel) helps Iris with Knowing, Strong; Tomas uses Sneaking, Strong: no bonus (SRD 629).
    [helped] = journal.execute(CAMPAIGN, AssistContest("Cy", "Iris", "knowing", "yellow"))
    assert helped.payload.extra == 2
    with pytest.raises(InvalidCommand, match="neither plays Iris nor assists"):
        journal.execute(CAMPAIGN, DrawInContest("Iris", "QS", drawn_by="Ben"))
    [drew] = journal.execute(CAMPAIGN, DrawInContest("Iris", "QH", drawn_by="cy"))
    assert drew.payload.by_assistant and drew.payload.token is Colour.YELLOW
    journal.execute(CAMPAIGN, StopDrawing("Iris"))
    [ended] = journal.execute(CAMPAIGN, EndContest())
    assert ended.payload.winner == "Iris" and ended.payload.consequences == []  # yellow brings none
    assert verify(journal.stored_events(CAMPAIGN), CAMPAIGN).ok


def test_an_assistants_red_token_adds_1_more_draw_in_words(journal):
    # Issue 26 ("1 draws"): a red token adds one draw (SRD 629), said "1 more draw", not "1 more draws".
    from yarnlog.rulesets.dramasystem.words import narrate

    _scene(journal)
    journal.execute(CAMPAIGN, StartContest("Iris", "Talking", "red", "Tomas", "red", "Sneaking"))
    [helped] = journal.execute(CAMPAIGN, AssistContest("Cy", "Iris", "knowing", "red"))
    assert helped.payload.extra == 1
    said = narrate(helped, journal.state(CAMPAIGN))
    assert said.startswith("Cy helps Iris with Knowing (red): 1 more draw."), said


def test_a_solo_action_against_the_gm(journal):
    # SRD 613: the GM's token gives 3/2/1 draws, one more against a formidable opposition.
    _scene(journal, cast=("Iris",))
    [started] = journal.execute(CAMPAIGN, StartContest("Iris", "Fighting", "green", "GM", "red", formidable=True))
    assert started.payload.allowance == [3, 2]
    assert [(s.participant, s.colour) for s in started.payload.procedural_spends] == [
        ("Ana", Colour.GREEN), ("Maya", Colour.RED)]
    rng = random.Random(11)
    for side in ("Iris", "GM", "Iris", "GM", "Iris"):
        execute_rolling(journal, CAMPAIGN, DrawInContest(side), rng=rng)
    [ended] = journal.execute(CAMPAIGN, EndContest())
    assert ended.payload.winner in ("Iris", "GM")
    assert all(c.player != "GM" for c in ended.payload.consequences)
    assert verify(journal.stored_events(CAMPAIGN), CAMPAIGN).ok


def test_an_advanced_contest_with_every_kind_of_redraw(journal):
    # SRD 929-975. Iris Fighting (Strong) against Tomas Moving (Strong): equal grades, no extra redraw.
    _scene(journal)
    [started] = journal.execute(CAMPAIGN, StartContest("Iris", "Fighting", "yellow", "Tomas", "red", "Moving",
                                                       goals=("Iris takes the map", "Tomas escapes"),
                                                       advanced=True))
    assert started.payload.allowance == [2, 1]
    journal.execute(CAMPAIGN, DrawInContest("Iris", "5D"))
    journal.execute(CAMPAIGN, DrawInContest("Tomas", "9C"))
    journal.execute(CAMPAIGN, RedrawInContest("Iris", "Tomas", "2C"))     # Iris forces Tomas
    journal.execute(CAMPAIGN, RedrawInContest("Tomas", "Tomas", "8H"))    # Tomas redraws himself
    journal.execute(CAMPAIGN, StopDrawing("Iris"))
    journal.execute(CAMPAIGN, RedrawInContest("GM", "Tomas", "3H"))       # the GM, once (953)
    with pytest.raises(RuleViolation, match="once"):
        journal.execute(CAMPAIGN, RedrawInContest("GM", "Iris", "4H"))
    [interfered] = journal.execute(CAMPAIGN, RedrawInContest("Cy", "Iris", "4S"))  # Vel is present (957)
    assert [(s.participant, s.colour) for s in interfered.payload.procedural_spends] == [("Cy", Colour.GREEN)]
    journal.execute(CAMPAIGN, RedrawInContest("Iris", "Iris", "4C"))      # Iris's last redraw (959)
    [ended] = journal.execute(CAMPAIGN, EndContest())
    # 4♣ against 3♥: the higher card wins.
    assert (ended.payload.winner, ended.payload.winning_card) == ("Iris", "4C")
    assert verify(journal.stored_events(CAMPAIGN), CAMPAIGN).ok


def test_an_absent_player_cannot_interfere_and_equal_values_may_end_in_a_surprise(journal):
    _scene(journal, cast=("Iris", "Tomas"))
    journal.execute(CAMPAIGN, StartContest("Iris", "Fighting", "red", "Tomas", "red", "Moving", advanced=True))
    journal.execute(CAMPAIGN, DrawInContest("Iris", "7D"))
    journal.execute(CAMPAIGN, DrawInContest("Tomas", "7C"))
    with pytest.raises(RuleViolation, match="not present"):
        journal.execute(CAMPAIGN, RedrawInContest("Cy", "Iris", "4S"))
    [ended] = journal.execute(CAMPAIGN, EndContest(surprise="both reach the map, and tear it in two"))
    assert ended.payload.winner == "" and ended.payload.surprise
    with pytest.raises(InvalidCommand, match="no contest is open"):
        journal.execute(CAMPAIGN, EndContest())
