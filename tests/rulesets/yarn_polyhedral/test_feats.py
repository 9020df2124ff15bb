"""Feats: dice by type, keep counts, fortune and trouble, total and margin (P16-P27)."""

import pytest

from yarnlog.core.referee import InvalidCommand, Referee, RuleViolation
from yarnlog.rulesets.yarn_polyhedral.rules.dice import die_for, effort_die, level_die, skill_die
from yarnlog.rulesets.yarn_polyhedral.rules.feats import (
    BonusType,
    Explosion,
    KeepModifier,
    Roll,
    check_roll,
    default_keep,
    keep_count,
    pool,
    trouble_earned,
)


def test_numbers_round_down_to_the_even_die():
    # P3, line 23: "always round down, including to the nearest die"; reading 1: 1 gives no die.
    assert [die_for(n) for n in range(0, 15)] == [None, None, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 12]
    # P13, lines 387-394: "1 Trainee d2 ... 6 Leading edge d12".
    assert [skill_die(r) for r in range(7)] == [None, 2, 4, 6, 8, 10, 12]
    # P19, line 183: "The die you gain is equal to the lower of your primary and secondary attributes."
    assert effort_die(7, 9) == 6 and level_die(5) == 4


def test_at_most_one_bonus_die_of_each_type():
    # P16, line 169: "no more than one of each type."
    made = pool(6, [(BonusType.LEVEL, 4), (BonusType.SKILL, 8), (BonusType.SECONDARY, 6)], Referee())
    assert made.dice == (6, 4, 6, 8)  # base, then the types in the book's order (171-183)
    with pytest.raises(RuleViolation, match="only one skill die"):
        pool(6, [(BonusType.SKILL, 4), (BonusType.SKILL, 8)], Referee())


def test_the_base_die_must_be_rolled():
    # P16, line 169: "You must roll your base die." A rank-1 primary gives none (reading 1).
    with pytest.raises(RuleViolation, match="gives no base die"):
        pool(die_for(1), [(BonusType.LEVEL, 4)], Referee())
    with pytest.raises(InvalidCommand, match="d7 is not one of the dice"):
        pool(7, [], Referee())


def test_keep_two_plus_or_minus_the_modifiers_never_below_one():
    # P20, line 193; P21 lines 195, 197, 561; P22 lines 199, 201, 515; P23 line 205; reading 2.
    assert keep_count(4) == 2
    assert keep_count(4, [KeepModifier.SPECIALTY, KeepModifier.POINT_BLANK]) == 4
    assert keep_count(4, [KeepModifier.UNFAMILIAR]) == 1
    assert keep_count(4, [KeepModifier.UNFAMILIAR, KeepModifier.EVADING_TARGET]) == 1
    assert keep_count(3, [KeepModifier.SPECIALTY], fortune=2) == 3
    assert keep_count(5, [KeepModifier.PHOBIA, KeepModifier.IMPROVED_SENSE], fortune=1) == 3


def test_the_player_keeps_the_highest_unless_trouble_forces_a_one():
    # Line 193: "you keep your choice of two"; line 756: trouble makes "you choose that as one of
    # your kept dice".
    sizes, faces = (8, 6, 4, 4), (5, 1, 4, 3)
    assert default_keep(faces, sizes, 2) == (0, 2)
    assert default_keep(faces, sizes, 2, forced_ones=1) == (0, 1)
    # Ties go to the die at its maximum, which can explode.
    assert default_keep((4, 6, 4), (8, 6, 4), 2) == (1, 2)


def test_total_margin_and_penalties():
    # P25, lines 161-165; reading 4: a penalty adds to the challenge.
    roll = Roll((8, 6, 4), (7, 2, 4), kept=(0, 2), challenge=9, penalties=1)
    assert (roll.total, roll.target, roll.margin, roll.success) == (11, 10, 1, True)
    assert Roll((8, 6), (1, 2), kept=(0, 1), challenge=4).margin == -1


def test_explosions_are_recorded_face_by_face_one_fortune_each():
    # P24, line 207: "If the die comes up maximum again, you can use another fortune to explode it
    # again, and so on." P26, line 754: each fortune gives the narrator one trouble.
    roll = Roll((8, 6, 4), (8, 3, 2), kept=(0, 1), explosions=(Explosion(0, (8, 8, 2)),), challenge=20)
    check_roll(roll, [], Referee(), fortune_held=3)
    assert (roll.total, roll.fortune_spent, trouble_earned(roll)) == (8 + 3 + 8 + 8 + 2, 3, 3)
    with pytest.raises(RuleViolation, match="explodes only on a 8, not after a 2"):
        check_roll(Roll((8, 6), (8, 3), (0, 1), (Explosion(0, (2, 5)),)), [], Referee())
    with pytest.raises(RuleViolation, match="explodes only on a 8, not after a 7"):
        check_roll(Roll((8, 6), (7, 3), (0, 1), (Explosion(0, (2,)),)), [], Referee())
    with pytest.raises(InvalidCommand, match="only a kept die can explode"):
        check_roll(Roll((8, 6, 4), (2, 3, 4), (0, 1), (Explosion(2, (2,)),)), [], Referee())
    with pytest.raises(RuleViolation, match="spends 3 fortune; 2 is held"):
        check_roll(roll, [], Referee(), fortune_held=2)


def test_keeping_the_wrong_number_of_dice_is_refused():
    with pytest.raises(RuleViolation, match="2 dice are kept here, not 3"):
        check_roll(Roll((8, 6, 4), (5, 3, 2), (0, 1, 2)), [], Referee())
    check_roll(Roll((8, 6, 4), (5, 3, 2), (0, 1, 2), fortune_keep=1), [], Referee())
    check_roll(Roll((8, 6, 4), (5, 3, 2), (0, 1, 2)), [KeepModifier.SPECIALTY], Referee())
    with pytest.raises(InvalidCommand, match="a d6 cannot show 7"):
        check_roll(Roll((8, 6), (5, 7), (0, 1)), [], Referee())


def test_trouble_needs_a_rolled_one_and_forces_it_kept():
    # P27, line 756.
    forced = Roll((8, 6, 4), (7, 1, 4), kept=(0, 1), trouble=1)
    check_roll(forced, [], Referee(), trouble_held=1)
    with pytest.raises(RuleViolation, match="must be kept"):
        check_roll(Roll((8, 6, 4), (7, 1, 4), kept=(0, 2), trouble=1), [], Referee())
    with pytest.raises(RuleViolation, match="0 were rolled"):
        check_roll(Roll((8, 6), (7, 3), kept=(0, 1), trouble=1), [], Referee())
    with pytest.raises(RuleViolation, match="spends 1 trouble; 0 is held"):
        check_roll(forced, [], Referee(), trouble_held=0)


def test_explosion_faces_are_laid_on_the_kept_maxima_largest_die_first():
    from yarnlog.rulesets.yarn_polyhedral.rules.feats import explosion_chains

    # d8 and d4 both at their maximum: the d8's chain first, running on while it comes up 8.
    chains = explosion_chains((4, 8, 6), (4, 8, 2), (0, 1), (8, 3, 2))
    assert chains == (Explosion(1, (8, 3)), Explosion(0, (2,)))
    with pytest.raises(InvalidCommand, match="only 0 follow a kept maximum"):
        explosion_chains((8, 6), (7, 6), (0,), (3,))


def test_the_tools_throw_explodes_while_the_fortune_set_aside_lasts():
    import random

    from yarnlog.rulesets.yarn_polyhedral.parts.feats import throw

    for seed in range(200):
        faces, extra = throw((4, 4), 1, 0, 3, random.Random(seed))
        kept = default_keep(faces, (4, 4), 1)
        if faces[kept[0]] != 4:
            assert extra == ()
            continue
        # At most three re-rolls; every one but the last is a 4 (P24).
        assert 1 <= len(extra) <= 3 and all(f == 4 for f in extra[:-1])
        assert len(extra) == 3 or extra[-1] != 4


def test_a_phobia_and_impaired_senses_add_to_the_penalties():
    from yarnlog.rulesets.yarn_polyhedral.rules.feats import Hindrance, hindrance_penalty

    # "When it applies, you are inhibited (keep one fewer die). Your rank is also added to
    # penalties." (line 561)
    assert hindrance_penalty(Hindrance.PHOBIA, 3) == 3
    # "For primary senses (sight and hearing), the penalty is the rank. for other senses it's twice
    # the rank." (line 549)
    assert hindrance_penalty(Hindrance.SIGHT_OR_HEARING, 3) == 3
    assert hindrance_penalty(Hindrance.OTHER_SENSE, 3) == 6
