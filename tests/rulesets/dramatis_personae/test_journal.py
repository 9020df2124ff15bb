"""Dramatis Personae in the journal: characters, adventures, the dice ledger, challenges, contests and melee."""

from __future__ import annotations

from fractions import Fraction

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.referee import InvalidCommand, Override, Referee, RuleViolation
from yarnlog.rulesets.dramatis_personae.parts.characters import BuyLevel, CreateCharacter
from yarnlog.rulesets.dramatis_personae.parts.ledger import AwardDice, EndAdventure, RestorePool, StartAdventure
from yarnlog.rulesets.dramatis_personae.parts.rolls import (
    EndFight,
    RollChallenge,
    RollContest,
    RollInput,
    validate_contest,
)
from yarnlog.rulesets.dramatis_personae.rules.difficulty import Tier

from .conftest import CAMPAIGN


def balance(journal, name):
    return journal.state(CAMPAIGN).rules.ledger.balance(name)


def test_strengths_beyond_level_and_weaknesses_are_refused_and_nothing_is_written(journal):
    before = len(journal.store.read(CAMPAIGN))
    with pytest.raises(RuleViolation, match="level 1 with 0 weaknesses: at most 1 strength, not 2"):
        journal.execute(CAMPAIGN, CreateCharacter(name="Cora", player="Ben", level=1,
                                                  strengths=("Wit", "Charm")))
    assert len(journal.store.read(CAMPAIGN)) == before


def test_the_chasm(journal):
    # line 152: "a difficult task 14+ ... windy and rainy ... 3d6 of penalty ... skilled mountain climber ... +1d6
    # (net -2d6"
    recorded = journal.execute(CAMPAIGN, RollChallenge(
        RollInput("Faust", modifiers=(("challenge", "distracting", -3), ("gm", "skilled climber assisting", 1)),
                  faces=(6, 6, 5, 2, 6)), difficulty="Difficult", task="Cross the rope bridge"))
    p = recorded[0].payload
    assert (p.difficulty, p.roll.net, p.roll.kept, p.roll.total) == (14, -2, [2, 5, 6], 13)
    assert p.tier is Tier.PARTIAL_FAILURE
    assert sum(Fraction(p.odds[t.value]) for t in Tier if t.success) == Fraction(19, 972)


def test_the_pool_debt_and_saved_dice(journal):
    journal.execute(CAMPAIGN, StartAdventure("The Brocken"))
    assert (balance(journal, "Faust").pool, balance(journal, "Bryn").pool) == (4, 1)  # line 67: level²
    journal.execute(CAMPAIGN, AwardDice("Faust", "good", 2, "rescued the miller"))
    # 4 pool dice and 2 borrowed (DP36: two penalty dice of debt each), 1 saved spent: net +7
    p = journal.execute(CAMPAIGN, RollChallenge(RollInput("Faust", pool=6, saved=1, faces=(1,) * 10),
                                                difficulty="Heroic"))[0].payload
    assert p.roll.net == 7
    assert p.economy[0].borrowed == 2
    assert balance(journal, "Faust") == type(balance(journal, "Faust"))(good=1, bad=0, pool=0, debt=4)
    # the GM applies two dice of the debt to a later roll (reading 3)
    journal.execute(CAMPAIGN, RollChallenge(RollInput("Faust", debt=2, faces=(3, 3, 3, 3, 3))))
    assert balance(journal, "Faust").debt == 2
    with pytest.raises(RuleViolation, match="dice of debt: 3 spent, 2 held"):
        journal.execute(CAMPAIGN, RollChallenge(RollInput("Faust", debt=3, faces=(3,) * 6)))
    journal.execute(CAMPAIGN, RestorePool("Faust", 4, "the spring of Mimir"))
    assert balance(journal, "Faust").pool == 4
    journal.execute(CAMPAIGN, EndAdventure())
    assert balance(journal, "Faust").pool == 0
    assert verify(journal.store.read(CAMPAIGN), CAMPAIGN).ok


def test_a_level_costs_ten_times_the_new_level_between_adventures(journal):
    journal.execute(CAMPAIGN, AwardDice("Bryn", "good", 25, "many adventures"))
    journal.execute(CAMPAIGN, StartAdventure("Rats"))
    with pytest.raises(RuleViolation, match="between adventures"):
        journal.execute(CAMPAIGN, BuyLevel("Bryn"))
    journal.execute(CAMPAIGN, EndAdventure())
    journal.execute(CAMPAIGN, BuyLevel("Bryn"))  # line 65: "2nd level 20 bonus dice"
    state = journal.state(CAMPAIGN)
    assert state.rules.characters.pcs["Bryn"].level == 2 and balance(journal, "Bryn").good == 5
    with pytest.raises(RuleViolation, match="level 3 costs 30"):
        journal.execute(CAMPAIGN, BuyLevel("Bryn"))


def test_a_melee_round_and_a_finishing_blow(journal):
    # Faust (no fighting strength) against Bryn (melee combat precise, +2d6): Bryn 6,6,5 + 2 dice; Faust 2,2,1
    recorded = journal.execute(CAMPAIGN, RollContest((
        RollInput("Bryn", attributes=(("Melee combat", "precise"),), faces=(6, 6, 5, 1, 1)),
        RollInput("Faust", faces=(5, 2, 1))), melee=True, fight="cellar"))
    p = recorded[0].payload
    assert (p.winner, p.beats[0].tier) == ("Bryn", Tier.CRITICAL_SUCCESS)  # 17 is twice 8
    fight = journal.state(CAMPAIGN).rules.rolls.fights["cellar"]
    assert fight.finished == ("Faust",)
    with pytest.raises(RuleViolation, match="finished"):
        journal.execute(CAMPAIGN, RollContest((RollInput("Bryn", faces=(1, 1, 1)), RollInput("Faust", faces=(6, 6, 6))),
                                              melee=True, fight="cellar"))
    journal.execute(CAMPAIGN, EndFight("cellar"))
    # a complete success: the loser suffers 2 penalty dice, the winner may strike a 14+ blow (lines 170-171)
    p = journal.execute(CAMPAIGN, RollContest((RollInput("Bryn", faces=(5, 4, 3)), RollInput("Faust", faces=(3, 3, 2))),
                                              melee=True, fight="yard"))[0].payload
    assert (p.beats[0].tier, p.beats[0].penalty) == (Tier.COMPLETE_SUCCESS, 2)
    missed = journal.execute(CAMPAIGN, RollChallenge(RollInput("Bryn", faces=(6, 5, 2)), kind="finishing-blow",
                                                     fight="yard", target="Faust"))[0].payload
    assert missed.difficulty == 14 and missed.tier is Tier.PARTIAL_FAILURE  # 13 does not meet 14
    with pytest.raises(RuleViolation, match="no complete success over Faust"):  # the chance is spent
        journal.execute(CAMPAIGN, RollChallenge(RollInput("Bryn", faces=(6, 6, 6)), kind="finishing-blow",
                                                fight="yard", target="Faust"))
    # the next round Faust rolls with the 2 penalty dice in hand (reading 7), and loses completely again
    p = journal.execute(CAMPAIGN, RollContest((RollInput("Bryn", faces=(6, 6, 4)),
                                               RollInput("Faust", faces=(6, 6, 6, 6, 1))),
                                              melee=True, fight="yard"))[0].payload
    assert p.rolls[1].held == 2 and p.rolls[1].net == -2 and p.rolls[1].total == 13
    assert p.beats[0].tier is Tier.PARTIAL_SUCCESS  # 16 against 13
    p = journal.execute(CAMPAIGN, RollContest((RollInput("Bryn", faces=(6, 6, 5)),
                                               RollInput("Faust", faces=(6, 6, 4, 2, 1, 1))),
                                              melee=True, fight="yard"))[0].payload
    assert p.rolls[1].net == -3 and p.rolls[1].total == 4 and p.beats[0].tier is Tier.CRITICAL_SUCCESS
    assert "Faust" in journal.state(CAMPAIGN).rules.rolls.fights["yard"].finished
    # line 221: the loser rolls against 11 with the penalty dice in hand (3)
    wound = journal.execute(CAMPAIGN, RollChallenge(RollInput("Faust", faces=(6, 2, 2, 1, 6, 6)), kind="wound",
                                                    fight="yard"))[0].payload
    assert wound.roll.total == 5 and wound.wound == "disabled"  # line 221: "if the result is 5-, ... disabled"
    assert verify(journal.store.read(CAMPAIGN), CAMPAIGN).ok


def test_a_contest_tie_is_a_standoff(journal):
    p = journal.execute(CAMPAIGN, RollContest((RollInput("Bryn", faces=(5, 4, 3)),
                                               RollInput("Faust", faces=(6, 4, 2)))))[0].payload
    assert p.winner is None and p.beats == []
    # digest, section 6: "tie 361/3888"; each side's partial success is the other's partial failure
    assert p.odds["Bryn"]["standoff"] == p.odds["Faust"]["standoff"] == "361/3888"
    assert p.odds["Bryn"]["partial success"] == p.odds["Faust"]["partial failure"] == "427/1728"


def test_a_contest_of_three_keeps_each_sides_exact_odds_of_each_result(journal):
    from yarnlog.rulesets.dramatis_personae.parts.characters import CreateCharacter

    journal.execute(CAMPAIGN, CreateCharacter(name="Cora", player="Ben", level=0))
    recorded = journal.execute(CAMPAIGN, RollContest((
        RollInput("Faust", faces=(6, 5, 4)), RollInput("Bryn", faces=(4, 4, 3)), RollInput("Cora", faces=(2, 2, 1)))))
    p = recorded[0].payload
    # line 158: 15 over 11 is a complete success, 15 over 5 (three times) a critical
    assert (p.winner, [(b.loser, b.tier) for b in p.beats]) == (
        "Faust", [("Bryn", Tier.COMPLETE_SUCCESS), ("Cora", Tier.CRITICAL_SUCCESS)])
    # three plain rolls: each side's critical success 129635/10077696 (worked by hand in test_odds.py)
    assert {name: side["critical success"] for name, side in p.odds.items()} == dict.fromkeys(
        ("Faust", "Bryn", "Cora"), "129635/10077696")
    assert all(sum(map(Fraction, side.values())) == 1 and len(side) == 7 for side in p.odds.values())
    assert p.odds["Cora"]["critical failure"] == "21223/209952"
    assert verify(journal.store.read(CAMPAIGN), CAMPAIGN).ok
    tampered = p.model_copy(update={"odds": {**p.odds, "Cora": {**p.odds["Cora"], "standoff": "1/2"}}})
    state = journal.state(CAMPAIGN, upto=recorded[0].sequence - 1)
    assert validate_contest(tampered, state, Referee()) == p  # the validator derives the odds again


def test_a_retry_after_a_failure_needs_more_time_and_gets_no_bonus(journal):
    # line 128: "fails to pick a lock on the first challenge roll (taking 1 minute) ... after 5 minutes get
    # another roll. (Note this extra time does not grant any bonus)."
    first = journal.execute(CAMPAIGN, RollChallenge(RollInput("Bryn", time=("1 minute", "1 minute"),
                                                              faces=(1, 2, 3)), difficulty="Mundane"))
    with pytest.raises(RuleViolation, match="a retry after 1 minute comes at 5 minutes at the earliest"):
        journal.execute(CAMPAIGN, RollChallenge(RollInput("Bryn", time=("1 minute", "1 minute"), faces=(1, 2, 3)),
                                                difficulty="Mundane", retry_of=first[0].sequence))
    retry = journal.execute(CAMPAIGN, RollChallenge(RollInput("Bryn", time=("1 minute", "5 minutes"),
                                                              faces=(4, 4, 4)),
                                                    difficulty="Mundane", retry_of=first[0].sequence))[0].payload
    assert retry.roll.time.dice == 0 and retry.roll.net == 0  # not +2d6: the extra time grants no bonus


def test_pool_dice_after_a_challenge_need_the_campaign_option(journal):
    journal.execute(CAMPAIGN, StartAdventure())
    with pytest.raises(RuleViolation, match="pool-after-roll"):
        journal.execute(CAMPAIGN, RollChallenge(RollInput("Faust", after_pool=2, faces=(1, 1, 1), after_faces=(6,))))
    journal.execute(CAMPAIGN, RollChallenge(RollInput("Faust", after_pool=2, faces=(1, 1, 1), after_faces=(6,))),
                    override=Override("Maya", "the table agreed"))


def test_the_tool_rolls_what_was_not_entered(journal):
    from yarnlog.app.rolling import execute_rolling

    recorded = execute_rolling(journal, CAMPAIGN, RollChallenge(RollInput("Faust", attributes=(
        ("Summoning", "precise"), ("Magical ability", "related"), ("Courage", "related")))))
    p = recorded[0].payload
    # line 37: Faust's summoning, "His total adjustment is +2d6": five dice rolled, the best three kept
    assert p.roll.net == 2 and len(p.roll.faces) == 5 and p.roll.source == "rolled"
    assert p.roll.kept == sorted(p.roll.faces, reverse=True)[:3]


def test_unknown_trait_is_bad_input(journal):
    with pytest.raises(InvalidCommand, match="no strength or weakness"):
        journal.execute(CAMPAIGN, RollChallenge(RollInput("Faust", attributes=(("Swimming", "related"),),
                                                          faces=(1, 2, 3, 4))))


def test_a_haggle_won_gives_an_ongoing_advantage_and_fleeing_is_a_ruling(journal):
    from yarnlog.rulesets.dramatis_personae.parts.roll_events import RulingRecorded
    from yarnlog.rulesets.dramatis_personae.parts.rolls import RecordRuling

    # line 160: "if the contest continues the character may gain some ongoing advantage in the contest (e.g. +2d6)"
    first = journal.execute(CAMPAIGN, RollContest((RollInput("Faust", faces=(5, 4, 3)),
                                                   RollInput("Bryn", faces=(4, 4, 3)))))[0].payload
    assert (first.winner, first.beats[0].tier) == ("Faust", Tier.PARTIAL_SUCCESS)
    second = journal.execute(CAMPAIGN, RollContest((
        RollInput("Faust", modifiers=(("gm", "ongoing advantage", 2),), faces=(6, 5, 1, 1, 1)),
        RollInput("Bryn", faces=(4, 4, 3)))))[0].payload
    assert second.rolls[0].net == 2 and second.rolls[0].total == 12
    # line 158: "if both combatants in a melee flee, then no contest happens": the GM's ruling, no roll
    [ruled] = journal.execute(CAMPAIGN, RecordRuling("Both flee: no contest happens.", rule="DP26"))
    assert isinstance(ruled.payload, RulingRecorded) and ruled.payload.rule == "DP26"


def test_a_minutia_counts_only_where_precisely_appropriate(journal):
    # line 43: "Minutia are like abilities that have limited utility, specific ranges and little or no impact on
    # other task rolls except that for which they are precisely appropriate" (the digest leaves them off the roll)
    read = RollChallenge(RollInput("Faust", attributes=(("latin", "precise"),), faces=(6, 5, 4, 2, 1)),
                         task="Read the inscription")
    p = journal.execute(CAMPAIGN, read)[0].payload
    assert (p.roll.attributes[0].kind, p.roll.attributes[0].trait, p.roll.net, p.roll.total) == (
        "minutia", "Latin", 2, 15)
    with pytest.raises(InvalidCommand, match="never as related"):
        journal.execute(CAMPAIGN, RollChallenge(RollInput("Faust", attributes=(("Latin", "related"),),
                                                          faces=(6, 5, 4, 2))))
    assert verify(journal.store.read(CAMPAIGN), CAMPAIGN).ok


def test_a_character_joining_an_adventure_in_play_has_its_pool(journal):
    # line 67: "The number of such bonus dice available in an adventure is equal to the square of the level"
    journal.execute(CAMPAIGN, StartAdventure("The Brocken"))
    journal.execute(CAMPAIGN, CreateCharacter(name="Cora", player="Ben", level=3, strengths=("Wit",)))
    assert balance(journal, "Cora").pool == 9
    p = journal.execute(CAMPAIGN, RollChallenge(RollInput("Cora", pool=2, faces=(6, 5, 4, 3, 2))))[0].payload
    assert (p.economy[0].pool, p.economy[0].borrowed) == (2, 0)  # no dice debt: the pool had them
    journal.execute(CAMPAIGN, EndAdventure())
    journal.execute(CAMPAIGN, CreateCharacter(name="Dov", player="Ben", level=1))
    assert balance(journal, "Dov").pool == 0  # between adventures no pool is in play
    assert verify(journal.store.read(CAMPAIGN), CAMPAIGN).ok
