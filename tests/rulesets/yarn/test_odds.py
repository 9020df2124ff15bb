"""Exact odds of Yarn 0.1 rolls, checked against brute force over every face and the book's words."""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yarnlog.core.referee import InvalidCommand
from yarnlog.rulesets.yarn.rules.dice import (
    NO_OPTIONS,
    Difficulty,
    DifficultyFactor,
    OpponentRoll,
    Outcome,
    RollOptions,
    RollSpec,
    is_botch,
    must_blow_top_off,
    read_roll,
    resolve_total,
)
from yarnlog.rulesets.yarn.rules.odds import (
    BreakOdds,
    OutcomeOdds,
    break_odds,
    kept_total_distribution,
    opposed_odds,
    outcome_odds,
    percent,
)
from yarnlog.rulesets.yarn.rules.personal_consequences import breaks

BOTCH = RollOptions(botch=True)
TOP_OFF = RollOptions(blowing_the_top_off=True)
BOTH = RollOptions(botch=True, blowing_the_top_off=True)
CHAIN_DEPTH = 5  # top-off chains enumerated by brute force; the rest is bounded


@st.composite
def small_specs(draw, max_rolled: int) -> RollSpec:
    """Specs rolling at most ``max_rolled`` dice, some with bonus and penalty dice that cancel."""
    dice = draw(st.integers(0, min(3, max_rolled)))
    spare = max_rolled - dice
    net = draw(st.integers(-min(spare, 3), min(spare, 3)))
    cancelling = draw(st.integers(0, 1))
    experience = draw(st.integers(0, 1)) if net > 0 else 0
    return RollSpec(
        dice, bonus=max(net, 0) - experience + cancelling, penalty=max(-net, 0) + cancelling, experience=experience
    )


options_strategy = st.builds(RollOptions, botch=st.booleans(), blowing_the_top_off=st.booleans())


def chains(depth: int):
    """Every top-off chain of fewer than ``depth`` sixes, with its chance."""
    for sixes in range(depth):
        for last in range(1, 6):
            yield (6,) * sixes + (last,), Fraction(1, 6) ** (sixes + 1)


@functools.cache
def brute_force_results(spec: RollSpec, options: RollOptions) -> tuple[Counter, Fraction]:
    """Chances of each (total, botched) over every face, through dice.py's own reading of a roll,
    and the chance left out by cutting top-off chains at CHAIN_DEPTH."""
    law: Counter = Counter()
    left_out = Fraction(0)
    each = Fraction(1, 6**spec.rolled)
    for faces in itertools.product(range(1, 7), repeat=spec.rolled):
        if must_blow_top_off(spec, faces, options):
            result = read_roll(spec, faces, options, (1,))
            for top_off, chance in chains(CHAIN_DEPTH):
                law[(result.total - 1 + sum(top_off), is_botch(result, options))] += each * chance
            left_out += each * Fraction(1, 6) ** CHAIN_DEPTH
        else:
            result = read_roll(spec, faces, options)
            law[(result.total, is_botch(result, options))] += each
    return law, left_out


def brute_force_odds(spec: RollSpec, opponent_law: Counter, options: RollOptions):
    mine, left_out = brute_force_results(spec, options)
    odds = Counter()
    for (total, botched), p in mine.items():
        for (their_total, their_botch), q in opponent_law.items():
            result_outcome = _outcome(total, botched, their_total, their_botch, options)
            odds[result_outcome] += p * q
    return odds, left_out


def _outcome(total, botched, their_total, their_botch, options):
    return resolve_total(total, OpponentRoll(their_total, their_botch), options, botched=botched).outcome


def assert_within(odds: OutcomeOdds, brute: Counter, left_out: Fraction) -> None:
    for outcome in Outcome:
        assert brute[outcome] <= odds.of(outcome) <= brute[outcome] + left_out


# --- Exact values ---------------------------------------------------------------------------


def test_two_dice_against_seven():
    """An average person at a Moderate task: 15 of 36 beat 7, 6 equal it, 15 fail."""
    odds = outcome_odds(RollSpec(2), DifficultyFactor.of(Difficulty.MODERATE))
    assert odds == OutcomeOdds(Fraction(15, 36), Fraction(6, 36), Fraction(15, 36))


def test_an_average_person_cannot_move_the_stone_alone():
    """ "The GM decides that a roll of 13 is necessary to move it. (That means an average person
    wouldn't have a chance of moving it alone.)" """
    odds = outcome_odds(RollSpec(2), 13)
    assert odds.beats == 0 and odds.equals == 0 and odds.fails == 1


def test_no_dice_never_succeed():
    """ "the average person has no skill (0 dice)": "practically no chance" against any factor. """
    assert outcome_odds(RollSpec(0), DifficultyFactor.of(Difficulty.EASY)).fails == 1
    assert kept_total_distribution(RollSpec(0, bonus=1)) == {0: 1}


def test_bonus_die_distribution():
    """ "roll four dice and take the best three" """
    dist = kept_total_distribution(RollSpec(3, bonus=1))
    assert dist[18] == Fraction(21, 1296) and dist[3] == Fraction(1, 1296)
    assert sum(dist.values()) == 1


def test_a_penalty_die_greatly_increases_botches_and_a_bonus_die_decreases_them():
    """ "Note that a penalty die greatly increases your chances of a botch, which is as it should be.
    Likewise, a bonus die greatly decreases botch frequency." Against 0 only a botch fails. """
    plain = outcome_odds(RollSpec(2), 0, BOTCH).fails
    assert plain == Fraction(1, 36)
    assert outcome_odds(RollSpec(2, penalty=1), 0, BOTCH).fails == Fraction(16, 216)
    assert outcome_odds(RollSpec(2, bonus=1), 0, BOTCH).fails == Fraction(1, 216)


def test_a_known_botched_opponent_is_beaten():
    """Their attempt "automatically failed"; only his own botch (1, 1) comes first."""
    assert outcome_odds(RollSpec(2), OpponentRoll(9, botched=True), BOTCH).beats == Fraction(35, 36)
    assert outcome_odds(RollSpec(2), OpponentRoll(13, botched=True), NO_OPTIONS).fails == 1


def test_blowing_the_top_off_has_no_upper_limit():
    """ "There is therefore no upper limit to what a character could roll." """
    assert outcome_odds(RollSpec(2), 100).beats == 0
    assert outcome_odds(RollSpec(2), 100, TOP_OFF).beats > 0
    # two sixes then a chain beating 1 (anything), or exactly 12 + 4 against 16
    assert outcome_odds(RollSpec(2), 12, TOP_OFF).beats == Fraction(1, 36)
    assert outcome_odds(RollSpec(2), 16, TOP_OFF).equals == Fraction(1, 36) * Fraction(1, 6)


def test_bonus_dice_have_a_bigger_impact_when_blowing_the_top_off():
    """ "if you use this optional rule, penalty dice and bonus dice are going to have a bigger
    impact than if you don't use this rule" """
    def gain(options):
        return outcome_odds(RollSpec(2, bonus=1), 12, options).beats - outcome_odds(RollSpec(2), 12, options).beats

    assert gain(NO_OPTIONS) == 0 and gain(TOP_OFF) > 0


def test_opposed_exploding_dice_are_symmetric():
    odds = opposed_odds(RollSpec(1), RollSpec(1), TOP_OFF)
    assert odds == OutcomeOdds(Fraction(3, 7), Fraction(1, 7), Fraction(3, 7))


def test_opposed_inert_force_without_optional_rules():
    """ "a hard task would get three dice": the GM rolls 3 dice for the inert force against an
    average person. Only if the force's dice can botch (1, 1, 1) does his 3 (1 and 2) beat them. """
    spec, inert = RollSpec(2), RollSpec(Difficulty.HARD.dice[0])
    gain = opposed_odds(spec, inert, BOTCH).beats - opposed_odds(spec, inert, BOTCH, NO_OPTIONS).beats
    assert gain == Fraction(1, 216) * Fraction(2, 36)


def test_break_odds():
    """ "2 or more 6's" on three dice: 16 of 216; the same for 1's. """
    assert break_odds(RollSpec(3)) == BreakOdds(Fraction(16, 216), Fraction(16, 216))
    assert break_odds(RollSpec(1, bonus=3)) == BreakOdds(Fraction(0), Fraction(0))


@pytest.mark.parametrize(
    ("chance", "text"),
    [
        (Fraction(12, 100), "12%"),
        (Fraction(1, 8), "13%"),
        (Fraction(5, 12), "42%"),
        (Fraction(0), "0%"),
        (Fraction(1), "100%"),
        (Fraction(1, 1000), "<1%"),
        (Fraction(999, 1000), ">99%"),
    ],
)
def test_percent(chance, text):
    assert percent(chance) == text


def test_percent_of_a_non_chance_is_invalid():
    with pytest.raises(InvalidCommand):
        percent(Fraction(3, 2))


# --- Properties -----------------------------------------------------------------------------


@settings(max_examples=20, deadline=None)
@given(small_specs(4), st.integers(0, 26), options_strategy)
def test_odds_agree_with_brute_force(spec, number, options):
    odds = outcome_odds(spec, number, options)
    brute, left_out = brute_force_odds(spec, Counter({(number, False): 1}), options)
    assert_within(odds, brute, left_out)
    if not options.blowing_the_top_off:
        assert left_out == 0


@settings(max_examples=20, deadline=None)
@given(small_specs(3), small_specs(3), options_strategy)
def test_opposed_odds_agree_with_brute_force(spec, opponent, options):
    theirs, their_left_out = brute_force_results(opponent, options)
    brute, left_out = brute_force_odds(spec, theirs, options)
    assert_within(opposed_odds(spec, opponent, options), brute, left_out + their_left_out)


@settings(max_examples=20, deadline=None)
@given(small_specs(4))
def test_break_odds_agree_with_brute_force(spec):
    good = bad = Fraction(0)
    for faces in itertools.product(range(1, 7), repeat=spec.rolled):
        found = breaks(read_roll(spec, faces))
        good += Fraction(found.good, 6**spec.rolled)
        bad += Fraction(found.bad, 6**spec.rolled)
    assert break_odds(spec) == BreakOdds(good, bad)


@settings(max_examples=40, deadline=None)
@given(small_specs(8), small_specs(8), st.integers(0, 30), options_strategy)
def test_chances_sum_to_one(spec, opponent, number, options):
    for odds in (outcome_odds(spec, number, options), opposed_odds(spec, opponent, options)):
        assert odds.beats + odds.equals + odds.fails == 1
        assert min(odds.beats, odds.equals, odds.fails) >= 0


@settings(max_examples=40, deadline=None)
@given(small_specs(6), options_strategy)
def test_same_dice_on_both_sides_are_a_fair_contest(spec, options):
    odds = opposed_odds(spec, spec, options)
    if not options.botch:
        assert odds.beats == odds.fails


def expected_total(spec: RollSpec) -> Fraction:
    return sum((total * p for total, p in kept_total_distribution(spec).items()), Fraction(0))


@settings(max_examples=40, deadline=None)
@given(small_specs(7))
def test_a_bonus_die_never_lowers_the_expected_total(spec):
    """ "Your total is still composed of the same number of dice as normal, but they're likely to be
    higher rolling dice." """
    with_bonus = RollSpec(spec.dice, spec.bonus + 1, spec.penalty, spec.experience)
    with_penalty = RollSpec(spec.dice, spec.bonus, spec.penalty + 1, spec.experience)
    assert expected_total(with_bonus) >= expected_total(spec) >= expected_total(with_penalty)


@settings(max_examples=40, deadline=None)
@given(small_specs(6), st.integers(0, 24), options_strategy)
def test_a_bonus_and_a_penalty_die_are_as_neither(spec, number, options):
    """ "If you get a bonus and a penalty die for the same roll, they cancel each other, and you
    roll normally." """
    both = RollSpec(spec.dice, spec.bonus + 1, spec.penalty + 1, spec.experience)
    assert kept_total_distribution(both) == kept_total_distribution(spec)
    assert outcome_odds(both, number, options) == outcome_odds(spec, number, options)


def _brute_group(specs, number, combine):
    """Every way the group's dice can fall, counted one by one."""
    import itertools

    from yarnlog.rulesets.yarn.rules.dice import RollResult

    counts = {"beats": 0, "equals": 0, "fails": 0}
    pools = [list(itertools.product(range(1, 7), repeat=s.rolled)) for s in specs]
    for faces in itertools.product(*pools):
        total = combine(RollResult(s, f).total for s, f in zip(specs, faces))
        counts["beats" if total > number else "equals" if total == number else "fails"] += 1
    size = sum(counts.values())
    return {k: Fraction(v, size) for k, v in counts.items()}


@settings(max_examples=8, deadline=None)
@given(st.lists(st.builds(RollSpec, st.integers(1, 2), st.integers(0, 1)), min_size=2, max_size=2),
       st.integers(2, 20))
def test_group_effort_odds_agree_with_counting_every_fall_of_the_dice(specs, number):
    """ "Simple Addition": the group's totals are added; "Worst Roller": the worst roll counts."""
    from yarnlog.rulesets.yarn.rules.odds import simple_addition_odds, worst_roller_odds

    for exact, combine in ((simple_addition_odds(specs, number), sum), (worst_roller_odds(specs, number), min)):
        brute = _brute_group(specs, number, combine)
        assert (exact.beats, exact.equals, exact.fails) == (brute["beats"], brute["equals"], brute["fails"])


def test_memoized_odds_are_the_same_however_often_asked_and_cannot_be_changed_by_a_caller():
    """Odds are memoized by spec, target and options: a caller changing what it got changes nothing."""
    from yarnlog.rulesets.yarn.rules.odds import simple_addition_odds

    spec = RollSpec(3, bonus=1)
    first = kept_total_distribution(spec)
    first.clear()
    assert kept_total_distribution(spec) == kept_total_distribution(RollSpec(3, experience=1))  # same kept dice
    assert sum(kept_total_distribution(spec).values()) == 1
    assert outcome_odds(spec, 11) == outcome_odds(RollSpec(3, bonus=1), 11)
    assert outcome_odds(spec, DifficultyFactor(11)) == outcome_odds(spec, 11)
    botched = OpponentRoll(11, botched=True)
    assert outcome_odds(spec, botched, BOTCH) != outcome_odds(spec, botched)  # the options are part of the key
    assert outcome_odds(spec, botched) == outcome_odds(spec, 11)  # botch rule off
    pair = [RollSpec(2), RollSpec(3, penalty=1)]
    assert simple_addition_odds(pair, 12) == simple_addition_odds(pair[::-1], 12)
