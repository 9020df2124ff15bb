"""Yarn 0.1, "Armor" and the appendix "Armor Examples"."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yarnlog.core.referee import InvalidCommand
from yarnlog.rulesets.yarn.rules.armor import (
    ARMOR_ATTACK_SUMMARY,
    ARMOR_RATINGS,
    ARMORED_JACKET,
    BULLET_PROOF_SUIT,
    BULLET_PROOF_VEST,
    LEATHERS,
    MILITARY_BODY_ARMOR,
    PLATE_MAIL,
    ArmorRoll,
    ArmorType,
    AttackKind,
    Protection,
    armor_penalty_dice,
    divide_rounding_off,
    protect,
    regular_protection,
    stops_taser,
)

JACKET = (ARMORED_JACKET,)
VEST = (BULLET_PROOF_VEST,)
JACKET_OVER_VEST = (ARMORED_JACKET, BULLET_PROOF_VEST)
faces = st.integers(1, 6)
dividing_faces = st.integers(2, 6)
# Deterministic and quick: the same examples on every run.
examples = settings(derandomize=True, database=None, max_examples=40)


def test_rounding_off_follows_the_books_divisions():
    # "Six divided by 4 is one and a half, rounded off is 2 points of damage."
    assert divide_rounding_off(6, 4) == 2
    # "(Ten divided by 8 is 1.25, which rounds off to 1.)"
    assert divide_rounding_off(10, 8) == 1
    # "the 29 points of damage he did to the first character would have been divided in half to 15 points."
    assert divide_rounding_off(29, 2) == 15


def test_the_armor_attack_summary_table():
    # Table 7: Normal: full / minimum; Bullet: half / divide; Armor Piercing: minimum / minimum;
    # Hollow Point: double / divide double.
    expected = {
        AttackKind.NORMAL: (Protection.FULL, Protection.MINIMUM),
        AttackKind.BULLET: (Protection.HALF, Protection.DIVIDE),
        AttackKind.ARMOR_PIERCING: (Protection.MINIMUM, Protection.MINIMUM),
        AttackKind.HOLLOW_POINT: (Protection.DOUBLE, Protection.DIVIDE_DOUBLE),
    }
    assert {
        attack: (row[ArmorType.REGULAR], row[ArmorType.BULLET_PROOF]) for attack, row in ARMOR_ATTACK_SUMMARY.items()
    } == expected


def test_the_armor_ratings_table():
    # Table 6: Leathers 1, Armored Jacket 1, Plate Mail 2 (penalty), Bullet-proof Vest 1b,
    # Bullet-proof Suit 2b, Military Body Armor 3/2b (penalty).
    rows = {
        name: (a.dice + a.points, a.bullet_proof_dice, a.heavy) for name, a in ARMOR_RATINGS.items()
    }
    assert rows == {
        "Leathers": (1, 0, False),
        "Armored Jacket": (1, 0, False),
        "Plate Mail": (2, 0, True),
        "Bullet-proof Vest": (0, 1, False),
        "Bullet-proof Suit": (0, 2, False),
        "Military Body Armor": (3, 2, True),
    }


@examples
@given(faces)
def test_reinforced_jacket_stops_one_die_from_a_knife(face):
    # "a reinforced jacket (rating: 1) would stop 1 die of damage from a knife"
    assert protect(12, AttackKind.NORMAL, ArmorRoll(JACKET, regular_roll=face)) == 12 - face


@examples
@given(faces)
def test_reinforced_jacket_stops_one_die_divided_by_two_from_a_bullet(face):
    # "1 die divided by 2 from a bullet"; regular armor "is only half as effective (round down) versus gunfire."
    assert protect(12, AttackKind.BULLET, ArmorRoll(JACKET, regular_roll=face)) == 12 - face // 2


def test_five_points_of_protection_stop_two_against_a_gun():
    # "If you roll 5 points of protection for your reinforced jacket, it only stops two points of damage against a gun."
    assert protect(10, AttackKind.BULLET, ArmorRoll(JACKET, regular_roll=5)) == 8


def test_gunfire_example_jacket_stops_one_point():
    # "The character is wearing a reinforced jacket and rolls 3 for the armor, but it's divided by 2
    # ... so the armor stops only 1 point of damage. The character takes 29 points of damage"
    assert protect(30, AttackKind.BULLET, ArmorRoll(JACKET, regular_roll=3)) == 29


def test_reinforced_jacket_stops_one_point_from_armor_piercing_whatever_it_would_roll():
    # "1 point from an armor piercing round"; "minimum: subtract number of dice (not roll itself) from damage"
    assert regular_protection(AttackKind.ARMOR_PIERCING, ArmorRoll(JACKET)) == 1
    assert regular_protection(AttackKind.ARMOR_PIERCING, ArmorRoll(JACKET, regular_roll=6)) == 1


@examples
@given(faces)
def test_reinforced_jacket_stops_one_die_times_two_from_a_hollow_point(face):
    # "or 1 die times 2 from a hollow point shell."
    assert protect(20, AttackKind.HOLLOW_POINT, ArmorRoll(JACKET, regular_roll=face)) == 20 - 2 * face


def test_bullet_proof_vest_reduces_normal_damage_by_one_point():
    # "A bullet-proof vest (rating: 1b) would reduce normal damage by 1 point"
    # "If someone stabbed you with a knife, however, you would only subtract 1 point from the damage."
    assert protect(7, AttackKind.NORMAL, ArmorRoll(VEST)) == 6


@examples
@given(dividing_faces, st.integers(0, 60))
def test_bullet_proof_vest_divides_bullet_damage_by_its_roll(face, damage):
    # "would divide bullet or shotgun damage by the number rolled on 1 die"
    divided = divide_rounding_off(damage, face)
    assert protect(damage, AttackKind.BULLET, ArmorRoll(VEST, bullet_proof_roll=face)) == divided


def test_gunfire_example_vest_divides_six_by_four():
    # "she rolls 4 on her one die. Six divided by 4 is one and a half, rounded off is 2 points of damage."
    assert protect(6, AttackKind.BULLET, ArmorRoll(VEST, bullet_proof_roll=4)) == 2


def test_a_roll_of_five_divides_by_five():
    # "if you rolled a 5 for your bullet-proof vest, you would divide the incoming damage by 5."
    assert protect(25, AttackKind.BULLET, ArmorRoll(VEST, bullet_proof_roll=5)) == 5


@pytest.mark.parametrize("attack", [AttackKind.BULLET, AttackKind.HOLLOW_POINT])
def test_bullet_proof_roll_of_one_has_no_effect(attack):
    # "(On a roll of a 1, the armor has no effect, meaning that the bullet hit an area not protected by the armor.)"
    assert protect(9, attack, ArmorRoll(VEST, bullet_proof_roll=1)) == 9


def test_bullet_proof_vest_reduces_armor_piercing_by_one_point():
    # "would reduce damage from an armor-piercing round by 1 point"
    assert protect(6, AttackKind.ARMOR_PIERCING, ArmorRoll(VEST)) == 5


def test_bullet_proof_vest_divides_safety_slugs_by_double_the_roll():
    # "would divide safety slug damage by double the roll on a die."
    # "her roll of 4 would have been doubled to 8, so the bullet would have only done 1 point of damage."
    assert protect(10, AttackKind.HOLLOW_POINT, ArmorRoll(VEST, bullet_proof_roll=4)) == 1
    assert protect(24, AttackKind.HOLLOW_POINT, ArmorRoll(VEST, bullet_proof_roll=3)) == 4


@examples
@given(faces)
def test_jacket_over_vest_stops_one_die_plus_one_point_from_normal_attacks(face):
    # "A reinforced jacket over a bullet-proof vest would stop 1 die +1 point from normal attacks."
    assert protect(15, AttackKind.NORMAL, ArmorRoll(JACKET_OVER_VEST, regular_roll=face)) == 15 - face - 1


@examples
@given(faces, faces, st.integers(0, 80))
def test_jacket_over_vest_against_a_bullet(jacket, vest, damage):
    # "Against a bullet, it would first stop 1 die divided by two (for the jacket), and then divide
    # the remaining damage by a roll on 1 die (for the vest)."
    armor = ArmorRoll(JACKET_OVER_VEST, regular_roll=jacket, bullet_proof_roll=vest)
    remaining = max(0, damage - jacket // 2)
    assert protect(damage, AttackKind.BULLET, armor) == divide_rounding_off(remaining, vest)


def test_jacket_over_vest_against_armor_piercing():
    # "Against an armor-piercing round, it would reduce damage by 2 points, one for the jacket and the other for
    # the vest."
    assert protect(12, AttackKind.ARMOR_PIERCING, ArmorRoll(JACKET_OVER_VEST)) == 10


@examples
@given(faces, dividing_faces, st.integers(0, 80))
def test_jacket_over_vest_against_a_hollow_point(jacket, vest, damage):
    # "Against a hollow-point round, it would first subtract double the roll on one die (the jacket),
    # and then divide the result by double the roll on one die (for the vest)."
    armor = ArmorRoll(JACKET_OVER_VEST, regular_roll=jacket, bullet_proof_roll=vest)
    remaining = max(0, damage - 2 * jacket)
    assert protect(damage, AttackKind.HOLLOW_POINT, armor) == divide_rounding_off(remaining, 2 * vest)


def test_armor_piercing_against_suit_and_military_armor():
    # "a bullet-proof suit would provide 2 points of protection, while a military armor would provide
    # 5 points of protection, 3 for its regular armor component and 2 for its bullet-proof component."
    assert protect(20, AttackKind.ARMOR_PIERCING, ArmorRoll((BULLET_PROOF_SUIT,))) == 18
    assert protect(20, AttackKind.ARMOR_PIERCING, ArmorRoll((MILITARY_BODY_ARMOR,))) == 15


def test_leathers_stop_one_point_of_normal_damage_without_a_roll():
    # "Very light armor (generally leather clothes and the like) has a rating of “1 pt.” It stops only
    # one point of damage versus normal attacks."
    assert protect(5, AttackKind.NORMAL, ArmorRoll((LEATHERS,))) == 4


def test_thick_leathers_under_plate_mail():
    # "someone wearing thick leathers under their plate mail would roll 2 dice and add 1 point for
    # protection, but they would also suffer two penalty dice on agility-related actions"
    worn = (LEATHERS, PLATE_MAIL)
    assert protect(20, AttackKind.NORMAL, ArmorRoll(worn, regular_roll=7)) == 12
    assert armor_penalty_dice(worn) == 2


def test_one_light_layer_has_no_penalty_and_heavy_armor_has_one():
    # Table 6 "Penalty?": Armored Jacket No, Plate Mail Yes.
    assert armor_penalty_dice(JACKET) == 0
    assert armor_penalty_dice((PLATE_MAIL,)) == 1
    # "causes a penalty die for each extra layer of armor worn"
    assert armor_penalty_dice(JACKET_OVER_VEST) == 1


def test_armor_encumbrance_does_not_affect_firearm_attacks():
    # "Note that encumbrance from armor does not affect firearm attack rolls."
    assert armor_penalty_dice((LEATHERS, PLATE_MAIL), firearm_attack=True) == 0


def test_taser_is_stopped_when_armor_dice_match_the_margin():
    # "If the dice match or exceed the number by which the attack roll exceeded the defense roll, the
    # armor has prevented the taser from penetrating ... If the roll is less ... the taser does full damage."
    assert stops_taser(4, ArmorRoll(JACKET, regular_roll=4))
    assert not stops_taser(5, ArmorRoll(JACKET, regular_roll=4))
    assert not stops_taser(1, ArmorRoll())


def test_taser_is_tested_as_a_normal_attack_against_bullet_proof_armor():
    # "Roll the dice for armor as if for a normal (non-bullet) attack." — a vest counts its 1 point.
    assert stops_taser(1, ArmorRoll(VEST))
    assert not stops_taser(2, ArmorRoll(VEST))


def test_impossible_and_missing_rolls_are_refused():
    with pytest.raises(InvalidCommand):
        ArmorRoll(JACKET, regular_roll=7)
    with pytest.raises(InvalidCommand):
        ArmorRoll(VEST, regular_roll=3)
    with pytest.raises(InvalidCommand):
        protect(10, AttackKind.BULLET, ArmorRoll(VEST))


_layers = st.lists(st.sampled_from(list(ARMOR_RATINGS.values())), max_size=3).map(tuple)


@st.composite
def armor_rolls(draw):
    worn = draw(_layers)
    dice = sum(a.dice for a in worn)
    b_dice = sum(a.bullet_proof_dice for a in worn)
    regular = draw(st.integers(dice, 6 * dice)) if dice else None
    bullet_proof = draw(st.integers(b_dice, 6 * b_dice)) if b_dice else None
    return ArmorRoll(worn, regular, bullet_proof)


@examples
@given(st.integers(0, 200), st.sampled_from(list(AttackKind)), armor_rolls())
def test_armor_never_makes_damage_negative_nor_larger(damage, attack, armor):
    # "Only the points in excess of the armor's rating can do damage."
    assert 0 <= protect(damage, attack, armor) <= damage
