"""Will & Descriptors' pure rules against the draft (shared/seeds/004), each test quoting its line."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yarnlog.core.referee import Referee, RuleViolation
from yarnlog.rulesets.will_descriptors.rules import harm, keys, opposed, scenes, will
from yarnlog.rulesets.will_descriptors.rules.keys import Change, Framework, Trigger
from yarnlog.rulesets.will_descriptors.rules.odds import opposed_odds
from yarnlog.rulesets.will_descriptors.rules.opposed import Side, resolve


def test_will_starts_at_nine():
    """book-1, line 2: "arbitrarily set to start at 9 (pending playtest)"."""
    assert will.DEFAULT_STARTING_WILL == 9
    assert will.DEFAULT_SIDES == 10  # line 3: "for now, the default is d10"


def test_refreshment_raises_will_to_start_and_keeps_extra():
    """W23, line 16: "restore your Will if it has fallen below its starting value. If you have more Will
    than the starting value, you don't lose the extra Will."."""
    assert will.refreshed_will(2, 9) == 9
    assert will.refreshed_will(11, 9) == 11
    assert will.out_of_will(0) and not will.out_of_will(1)  # W3, line 2


def test_nobody_spends_will_they_do_not_have():
    """W5, line 4, reading 8: "spend one point of your Will for each Descriptor"."""
    will.check_can_pay(1, 1, Referee(), "Bob")
    with pytest.raises(RuleViolation, match="Bob has 0 Will and cannot pay 1"):
        will.check_can_pay(0, 1, Referee(), "Bob")
    with pytest.raises(RuleViolation, match="number of dice"):
        will.check_rating(0, Referee(), "Strong")


# --- the opposed roll (W7-W11, lines 5-7) ---

def test_highest_single_die_wins_and_loser_high_die_is_the_tn():
    """W7-W8, line 5: "whoever rolls the highest number on a single die wins. The number of successes is
    the number of dice that beat the loser's highest die"."""
    out = resolve([9, 6, 2], [7, 5])
    assert (out.winner, out.successes, out.tn, out.cancelled) == (Side.A, 1, 7, 0)
    out = resolve([9, 8, 8, 7], [7, 5])
    assert (out.winner, out.successes) == (Side.A, 3)  # 7 does not beat 7: "beat" is strictly greater
    out = resolve([3], [10, 10, 4])
    assert (out.winner, out.successes, out.tn) == (Side.B, 3, 3)


def test_tied_pairs_cancel():
    """W9, line 6: "If both sides have the same highest die, ignore that pair and look at the next two
    dice." Reading 4: the TN is the loser's highest die left after cancelling."""
    out = resolve([8, 6, 5], [8, 4])
    assert (out.winner, out.cancelled, out.tn, out.successes) == (Side.A, 1, 4, 2)
    # der-3: the loser's original highest (8) as TN would give 0 successes; reading 4 gives 2.
    assert out.rule is opposed.TIED_PAIRS


def test_all_tied_more_dice_wins_with_one_success():
    """W10, line 6: "If all the dice are tied, the side who rolled more dice wins, with one success."."""
    out = resolve([7, 7], [7])
    assert (out.winner, out.successes) == (Side.A, 1)
    out = resolve([9, 3], [9, 3, 10 - 9])
    assert (out.winner, out.successes) == (Side.B, 1)
    out = resolve([], [2])  # reading 5: no dice is the degenerate all-tied case
    assert (out.winner, out.successes) == (Side.B, 1)


def test_stalemate_same_size_same_roll():
    """W11, line 7: "If both sides have the same size pools and rolled exactly the same roll then it's a
    real stalemate, and the GM shifts the situation."."""
    out = resolve([4, 9], [9, 4])
    assert out.stalemate and out.successes == 0 and out.rule is opposed.STALEMATE


# --- exact odds (digest, section 6) ---

def _brute(n: int, m: int, sides: int = 10) -> dict[tuple[str, int], Fraction]:
    counts: dict[tuple[str, int], int] = {}
    for a in itertools.product(range(1, sides + 1), repeat=n):
        for b in itertools.product(range(1, sides + 1), repeat=m):
            out = resolve(a, b)
            key = ("stalemate", 0) if out.winner is None else (out.winner.value, out.successes)
            counts[key] = counts.get(key, 0) + 1
    total = sides ** (n + m)
    return {k: Fraction(v, total) for k, v in counts.items()}


def _as_dict(n: int, m: int, sides: int = 10) -> dict[tuple[str, int], Fraction]:
    odds = opposed_odds(n, m, sides)
    got = {("a", k): p for k, p in odds.a_wins.items()} | {("b", k): p for k, p in odds.b_wins.items()}
    if odds.stalemate:
        got[("stalemate", 0)] = odds.stalemate
    return got


@pytest.mark.parametrize(("n", "m"), [(1, 1), (2, 1), (1, 2), (2, 2), (3, 1), (0, 2), (0, 0), (3, 2)])
def test_odds_equal_brute_force(n, m):
    """Every outcome's chance equals the count of the 10^(n+m) rolls that give it (resolve, W7-W11)."""
    assert _as_dict(n, m) == _brute(n, m)


def test_odds_equal_brute_force_on_other_dice():
    """d10 is "for now, the default" (line 3): a campaign may set another die (reading 15)."""
    assert _as_dict(3, 3, 6) == _brute(3, 3, 6)


@pytest.mark.parametrize(("n", "m", "p_a", "stalemate"), [
    (1, 1, Fraction(9, 20), Fraction(1, 10)), (2, 1, Fraction(143, 200), 0), (2, 2, Fraction(981, 2000),
                                                                              Fraction(19, 1000)),
    (3, 2, Fraction(31607, 50000), 0), (3, 3, Fraction(49743, 100000), Fraction(257, 50000)),
    (4, 2, Fraction(711781, 1000000), 0)])
def test_odds_match_the_digest_table(n, m, p_a, stalemate):
    """Digest 004, section 6's table; stalemate needs equal pool sizes (W10, W11)."""
    odds = opposed_odds(n, m)
    assert (odds.p_a, odds.stalemate) == (p_a, stalemate)
    assert odds.p_a + odds.p_b + odds.stalemate == 1


def test_mean_successes_of_two_dice_against_one():
    """Digest 004, section 6: 2D v 1D, mean successes when A wins 1.399."""
    assert round(float(opposed_odds(2, 1).mean_successes(Side.A)), 3) == 1.399


# --- harm (W15-W18, line 11) ---

def test_loser_crosses_the_box_equal_to_successes():
    """W15, line 11: "the loser crosses off the box on their Power track equal to the number of successes"."""
    h = harm.take_harm(2, set(), 5)
    assert (h.box, h.injury, h.collided, h.out) == (2, 0, False, False)


def test_injury_instead_has_the_successes_dice():
    """W16, line 11: "they can create an Injury for their character instead"; reading 3: its dice are the
    successes."""
    h = harm.take_harm(3, set(), 5, injury_instead=True)
    assert (h.box, h.injury) == (None, 3)


@pytest.mark.parametrize("length", [4, 5, 7])
def test_collision_crosses_next_box_and_injury_equal_to_it(length):
    """W17, line 11: "If the box is already crossed off, cross off the next highest available box AND create
    an Injury equal to the box that was crossed off!"; reading 2: the box crossed now."""
    h = harm.take_harm(2, {2, 3}, length)
    assert (h.box, h.injury, h.collided) == (4, 4, True)
    assert h.out == (length == 4)


@pytest.mark.parametrize("length", [3, 5, 6])
def test_highest_box_puts_you_out(length):
    """W18, line 11: "If the last (highest) box of the Power track is crossed off, you're out of the scene.";
    reading 3: successes beyond the track cross its highest box."""
    h = harm.take_harm(length, set(), length)
    assert (h.box, h.out) == (length, True)
    assert harm.take_harm(length + 2, {1}, length).box == length
    assert harm.is_out({length}, length) and not harm.is_out({1}, length)


def test_recovery_reduces_the_injury_die_for_die():
    """W20, line 12: "Successes reduce the severity of the Injury die for die."; reading 10: 0D is gone."""
    assert harm.recovered(4, 1) == 3
    assert harm.recovered(2, 3) == 0


# --- scene descriptors and refreshment (W13, W14, W21) ---

def test_scene_descriptor_dice_are_the_successes():
    """book-2, line 10: "if Christopher ties up Bob with 3 successes, Christopher can say 'Bob is tied up,
    3D'"."""
    scenes.check_scene_descriptor(3, 3, Referee())
    with pytest.raises(RuleViolation, match="3 successes make a Scene Descriptor of 3D, not 4D"):
        scenes.check_scene_descriptor(4, 3, Referee())
    assert scenes.STICK_COST == 1  # book-3, line 10: "pays a Will point to make the Descriptor stick"


def test_no_refreshment_in_the_middle_of_a_scene():
    """W21, line 14: "you can't get one in the middle of a scene."."""
    scenes.check_between_scenes(False, Referee())
    with pytest.raises(RuleViolation, match="middle of a scene"):
        scenes.check_between_scenes(True, Referee())


# --- keys, XP, advances (W25-W30, lines 19-29) ---

def test_dramatic_key_awards():
    """book-4, line 21: "1 XP - The dramatic issue is involved in a scene 2 XP - ... 5 XP - The motif
    progresses. Buyoff (10XP)"."""
    got = [keys.award(Framework.DRAMATIC, t, Referee(), "k") for t in
           (Trigger.INVOLVED, Trigger.CHALLENGED, Trigger.PROGRESSES, Trigger.BUYOFF)]
    assert got == [1, 2, 5, 10]


def test_motivation_key_awards():
    """book-5, line 23: "1 XP - The character expresses the motivation 3 XP - ... Buyoff (10XP)"."""
    got = [keys.award(Framework.MOTIVATION, t, Referee(), "k") for t in
           (Trigger.EXPRESSES, Trigger.DESPITE_RISK, Trigger.BUYOFF)]
    assert got == [1, 3, 10]
    with pytest.raises(RuleViolation, match="motivation Key: progresses pays it nothing"):
        keys.award(Framework.MOTIVATION, Trigger.PROGRESSES, Referee(), "Greed")


def test_every_five_xp_is_an_advance():
    """book-6, line 24: "Every 5 XP is an Advance."."""
    assert [keys.advances_earned(x) for x in (4, 5, 9, 10, 16)] == [0, 1, 1, 2, 3]


def test_one_advance_changes():
    """book-7, line 27: "1 Advance can move a 1D Descriptor to your Background (or promote a Background to a
    1D Descriptor), or promote a 1D Descriptor to 2D, or create a new 1D Descriptor ... A new Key also costs
    1 Advance."."""
    assert {keys.cost(c) for c in Change} == {1}
    assert keys.cost(Change.RAISE, 1) == 1
    with pytest.raises(RuleViolation, match="only a 1D one goes to the Background"):
        keys.check_change(Change.TO_BACKGROUND, 2, Referee(), "Sword")


def test_raising_or_lowering_costs_the_rating():
    """book-8, line 28: "It costs 2 Advances to raise or lower a 2D Descriptor one die, 3 Advances to raise
    or lower a 3D Descriptor one die, and so on."; reading 13."""
    assert [keys.cost(Change.RAISE, n) for n in (2, 3, 4)] == [2, 3, 4]
    assert [keys.cost(Change.LOWER, n) for n in (2, 3)] == [2, 3]
    assert keys.path_cost(1, 3) == 3 and keys.path_cost(3, 1) == 5  # digest, section 2
    with pytest.raises(RuleViolation, match="has 1 unspent Advances and this costs 2"):
        keys.check_can_afford(1, 2, Referee(), "Bob")


# --- properties of the resolution, over any faces ---

faces = st.lists(st.integers(1, 10), max_size=8)


@given(faces, faces)
def test_swapping_the_sides_swaps_the_winner(a, b):
    """W7-W11 name no side first: the same faces the other way round give the mirrored outcome."""
    one, other = resolve(a, b), resolve(b, a)
    assert one.successes == other.successes and one.tn == other.tn
    assert (one.winner is None and other.winner is None) or one.winner is other.winner.other  # type: ignore[union-attr]


@given(faces, faces)
def test_a_winner_has_one_success_or_more_and_no_more_than_its_dice(a, b):
    """Reading 4: every win has at least one success (the loser's highest die left is beaten)."""
    out = resolve(a, b)
    if out.winner is None:
        assert sorted(a) == sorted(b)  # W11: the same size, the same roll
    else:
        won = a if out.winner is Side.A else b
        assert 1 <= out.successes <= len(won)
