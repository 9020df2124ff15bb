"""Yarn 0.1, "How Much Damage?", "Firearms and Tasers", "Ammunition", the gunfire examples of the
appendix, and the optional "Alternate Damage" and "Serious Wounds"."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yarnlog.core.referee import InvalidCommand, Override, Referee, RuleViolation
from yarnlog.rulesets.yarn.rules.armor import (
    ARMORED_JACKET,
    BULLET_PROOF_VEST,
    UNARMORED,
    ArmorRoll,
    AttackKind,
    protect,
)
from yarnlog.rulesets.yarn.rules.combat import WEAPON_RANGES, RangeBand, RangeClass, range_band
from yarnlog.rulesets.yarn.rules.damage import (
    DAMAGE_FACTORS,
    GUNFIRE,
    GUNFIRE_TACTICS,
    Ammunition,
    Firearm,
    FireMode,
    Hit,
    SeriousWound,
    SeriousWoundKind,
    TacticEffect,
    Weapon,
    alternate_damage,
    automatic_fire,
    damage_dealt,
    damage_factor,
    single_shot_penalty_dice,
    spread_targets,
    usually_a_serious_wound,
)

examples = settings(derandomize=True, database=None, max_examples=40)
JACKET_ROLLED_3 = ArmorRoll((ARMORED_JACKET,), regular_roll=3)
VEST_ROLLED_4 = ArmorRoll((BULLET_PROOF_VEST,), bullet_proof_roll=4)
FULL_AUTO = FireMode.FULL_AUTO_ONE_TARGET


def strict() -> Referee:
    return Referee()


def test_damage_factor_table():
    # Table 4, Damage Factor.
    assert {weapon.value: factor for weapon, factor in DAMAGE_FACTORS.items()} == {
        "unarmed combat": 1,
        "knife, lead pipe": 2,
        "sword, axe": 3,
        "throwing knife, slingshot": 1,
        "crossbow, throwing axe": 2,
        "taser": 5,
        "light handgun": 3,
        "light SMG": 3,
        "medium handgun": 4,
        "medium SMG": 4,
        "large handgun": 5,
        "large SMG": 5,
        "light rifle": 6,
        "heavy rifle": 7,
        "12ga shotgun": 10,
    }


def test_damage_is_the_difference_times_the_damage_factor():
    # "Subtract the defender’s (lower) roll from your (higher) roll. Multiply this result by the damage
    # factor for the weapon you are using, and the total is the damage you have just dished out"
    assert damage_dealt(Hit(13, 9, Weapon.SWORD)).points == 12


def test_a_tie_or_a_lower_attack_does_no_damage():
    # "If your attack roll is less than or equal to the defense roll, you have failed to connect for
    # significant damage."
    assert damage_dealt(Hit(9, 9, Weapon.HEAVY_RIFLE)).points == 0
    assert damage_dealt(Hit(4, 9, Weapon.HEAVY_RIFLE)).points == 0


def test_gunfire_example_first_character():
    # "The GM rolls a 16 versus the character's 6, that's a difference of 10 points, times 3 for the damage
    # multiplier of a small caliber pistol, is 30 points of damage. The character is wearing a reinforced
    # jacket and rolls 3 for the armor ... The character takes 29 points of damage"
    damage = damage_dealt(Hit(16, 6, Weapon.LIGHT_HANDGUN), JACKET_ROLLED_3)
    assert (damage.before_armor, damage.points, damage.temporary) == (30, 29, False)


def test_gunfire_example_second_character():
    # "The GM rolls four dice and gets 17. The player rolls seven dice and takes the best three: 15. Her
    # character takes 6 points of damage. Luckily, she is secretly wearing a bullet-proof vest, and she rolls
    # 4 on her one die. Six divided by 4 is one and a half, rounded off is 2 points of damage."
    damage = damage_dealt(Hit(17, 15, Weapon.LIGHT_HANDGUN), VEST_ROLLED_4)
    assert (damage.before_armor, damage.points) == (6, 2)


def test_armor_piercing_example_first_character():
    # "if the operative in the earlier example had been using armor-piercing rounds, the 29 points of damage
    # he did to the first character would have been divided in half to 15 points."
    damage = damage_dealt(Hit(16, 6, Weapon.LIGHT_HANDGUN, Ammunition.ARMOR_PIERCING), JACKET_ROLLED_3)
    assert damage.points == 15


def test_armor_piercing_example_second_character():
    # "The second character's armor, however, would have reduced the damage only 1 point, rather than dividing
    # it by 4, so she would have taken 5 points instead of 2."
    assert protect(6, AttackKind.ARMOR_PIERCING, ArmorRoll((BULLET_PROOF_VEST,))) == 5
    # The example stops there, but the rule (stated twice) halves after armor: "Armor-piercing rounds do half
    # normal damage ... This reduction in armor protection comes off the damage before it is divided by 2."
    # and "*Divide damage from armor piercing bullets by 2 after armor points have been deducted." So 5 / 2
    # rounded off: 3. We follow the rule where the example forgot the halving.
    damage = damage_dealt(Hit(17, 15, Weapon.LIGHT_HANDGUN, Ammunition.ARMOR_PIERCING), ArmorRoll((BULLET_PROOF_VEST,)))
    assert damage.points == 3


def test_hollow_point_example_first_character():
    # "If the operative had been using hollow points, his damage factor would have been X5 instead of X3, and
    # he would have done 50 points of damage to the first character. The character's roll of 3 for his armor,
    # however, would have been doubled to 6, so he would have suffered only 44 points total"
    assert damage_factor(Weapon.LIGHT_HANDGUN, Ammunition.HOLLOW_POINT) == 5
    damage = damage_dealt(Hit(16, 6, Weapon.LIGHT_HANDGUN, Ammunition.HOLLOW_POINT), JACKET_ROLLED_3)
    assert (damage.before_armor, damage.points) == (50, 44)


def test_hollow_point_example_second_character():
    # "The bullet hitting the second character would have done 10 points of damage instead of 6, but her roll
    # of 4 would have been doubled to 8, so the bullet would have only done 1 point of damage."
    damage = damage_dealt(Hit(17, 15, Weapon.LIGHT_HANDGUN, Ammunition.HOLLOW_POINT), VEST_ROLLED_4)
    assert (damage.before_armor, damage.points) == (10, 1)


def test_shotgun_damage_is_divided_by_the_distance_dice():
    # "Divide damage by the number of defense dice rolled for distance. For example, at 10m the defender gets
    # 3 dice for distance, so you divide your damage by 3."
    dice = range_band(10, WEAPON_RANGES[RangeClass.SHOTGUN])
    assert dice == 3
    assert damage_dealt(Hit(12, 9, Weapon.SHOTGUN, distance_dice=dice)).points == 10


def test_shotgun_needs_the_distance_dice():
    # "12ga Shotgun** X10** — **Divided by “distance dice”"
    with pytest.raises(InvalidCommand):
        Hit(12, 9, Weapon.SHOTGUN)
    with pytest.raises(InvalidCommand):
        Hit(12, 9, Weapon.LIGHT_RIFLE, distance_dice=2)


def test_taser_damage_is_temporary():
    # "They have a damage factor of X5." "* All damage from a taser is temporary."
    damage = damage_dealt(Hit(10, 7, Weapon.TASER))
    assert (damage.points, damage.temporary) == (15, True)


def test_armor_either_stops_the_taser_or_it_does_not():
    # "If the dice match or exceed the number by which the attack roll exceeded the defense roll, the armor has
    # prevented the taser from penetrating, and you take no damage. If the roll is less ..., the taser does
    # full damage. In other words, either the armor stops the taser or it doesn't; there is no middle ground."
    jacket = (ARMORED_JACKET,)
    assert damage_dealt(Hit(10, 7, Weapon.TASER), ArmorRoll(jacket, regular_roll=3)).points == 0
    assert damage_dealt(Hit(10, 7, Weapon.TASER), ArmorRoll(jacket, regular_roll=2)).points == 15


def test_special_ammunition_is_for_firearms():
    # "In addition to standard rounds, most firearms can take specialized ammunition."
    with pytest.raises(InvalidCommand):
        damage_factor(Weapon.CROSSBOW, Ammunition.ARMOR_PIERCING)


def test_special_effect_attacks_do_half_damage():
    # "the attack roll is made normally, but only half the normal damage is done."
    assert damage_dealt(Hit(12, 7, Weapon.UNARMED, special_effect=True)).points == 3  # 5 / 2 rounded off


def test_gunfire_tactics_summary_table():
    # Table 5: 3 round burst b/+1 b/+1 b b b; full auto, 1 target b/+2 b/+2 b/+1 b b;
    # full auto, spread b/+1 b — p 2p.
    b = TacticEffect(bonus_dice=1)
    assert list(GUNFIRE_TACTICS[FireMode.THREE_ROUND_BURST].values()) == [
        TacticEffect(1, 0, 1), TacticEffect(1, 0, 1), b, b, b
    ]
    assert list(GUNFIRE_TACTICS[FireMode.FULL_AUTO_ONE_TARGET].values()) == [
        TacticEffect(1, 0, 2), TacticEffect(1, 0, 2), TacticEffect(1, 0, 1), b, b
    ]
    assert list(GUNFIRE_TACTICS[FireMode.FULL_AUTO_SPREAD].values()) == [
        TacticEffect(1, 0, 1), b, TacticEffect(), TacticEffect(penalty_dice=1), TacticEffect(penalty_dice=2)
    ]


def test_burst_at_close_range_adds_one_to_the_multiplier():
    # "A burst adds a bonus die to the roll to hit regardless of range. At point-blank or close range, it also
    # adds +1 to the weapon's damage multiplier"
    burst = FireMode.THREE_ROUND_BURST
    effect = automatic_fire(strict(), Firearm.SUB_MACHINE_GUN, burst, RangeBand.SHORT, rounds_in_clip=3)
    assert effect == TacticEffect(bonus_dice=1, multiplier_bonus=1)
    hit = Hit(14, 10, Weapon.MEDIUM_SMG, multiplier_bonus=effect.multiplier_bonus)
    assert damage_dealt(hit).points == 4 * (4 + 1)


def test_full_auto_needs_ten_rounds_in_the_clip():
    # "You must have at least 10 rounds in your clip to qualify as "full auto.""
    with pytest.raises(RuleViolation):
        automatic_fire(strict(), Firearm.AUTOMATIC_RIFLE, FULL_AUTO, RangeBand.MEDIUM, rounds_in_clip=9)
    effect = automatic_fire(strict(), Firearm.AUTOMATIC_RIFLE, FULL_AUTO, RangeBand.MEDIUM, rounds_in_clip=10)
    assert effect == TacticEffect(bonus_dice=1, multiplier_bonus=1)


@pytest.mark.parametrize("firearm", [Firearm.REVOLVER, Firearm.AUTOMATIC_PISTOL, Firearm.RIFLE, Firearm.SHOTGUN])
def test_only_smgs_and_automatic_rifles_fire_bursts(firearm):
    # SMGs: "Each round you can fire two single shots, one three-round burst, or one full auto shot"; rifles:
    # "You can fire one shot per round."; shotguns: "One shot per round."
    with pytest.raises(RuleViolation):
        automatic_fire(strict(), firearm, FireMode.THREE_ROUND_BURST, RangeBand.SHORT, rounds_in_clip=30)


def test_second_shot_takes_a_penalty_die_for_recoil():
    # "You can get up to two shots per round, but the second receives a penalty die due to recoil from the first."
    assert single_shot_penalty_dice(strict(), Firearm.AUTOMATIC_PISTOL, 1) == 0
    assert single_shot_penalty_dice(strict(), Firearm.AUTOMATIC_PISTOL, 2) == 1
    # "You can get one good shot per round with a revolver."
    with pytest.raises(RuleViolation):
        single_shot_penalty_dice(strict(), Firearm.REVOLVER, 2)


def test_spread_cannot_skip_the_friend_in_between():
    # "if your friend is between two enemies that you fire on, you must target the friend as well."
    line = ("thug", "friend", "boss", "bystander")
    assert spread_targets(strict(), line, first="thug", last="boss", bullets_fired=15) == ("thug", "friend", "boss")


def test_spread_targets_one_person_per_five_bullets():
    # "You can target one person for every five bullets fired."
    with pytest.raises(RuleViolation):
        spread_targets(strict(), ("a", "b", "c"), first="a", last="c", bullets_fired=14)
    overruled = Referee(Override(by="gm", reason="a drum magazine"))
    assert spread_targets(overruled, ("a", "b", "c"), first="a", last="c", bullets_fired=14) == ("a", "b", "c")


def test_alternate_damage_knife():
    # "For example, a knife does 2 dice of damage, or 2 dice times two if the attack roll is at least double
    # the defense roll."
    assert alternate_damage((3, 5), 2, attack_total=10, defense_total=6) == 8
    assert alternate_damage((3, 5), 2, attack_total=12, defense_total=6) == 16
    # "A character may not use bonus dice for damage rolls, only for the attack rolls."
    with pytest.raises(InvalidCommand):
        alternate_damage((3, 5, 6), 2, attack_total=12, defense_total=6)


def test_alternate_damage_goes_through_armor_like_any_other():
    hit = Hit(12, 6, Weapon.KNIFE, alternate_damage_faces=(3, 5))
    assert damage_dealt(hit, ArmorRoll((ARMORED_JACKET,), regular_roll=4)).points == 12


def test_serious_wound_threshold():
    # "A wound is usually a “serious wound” when at least 20 points of damage are suffered in a single blow"
    assert usually_a_serious_wound(20)
    assert not usually_a_serious_wound(19)


def test_lethal_serious_wounds_cost_one_to_fifteen_a_day():
    # "Hit points lost can be anywhere from 1 to 15 per day, depending on the wound."
    assert SeriousWound("liver", SeriousWoundKind.LETHAL, 15).daily_loss == 15
    with pytest.raises(InvalidCommand):
        SeriousWound("liver", SeriousWoundKind.LETHAL, 16)


@examples
@given(st.integers(0, 40), st.integers(0, 40), st.sampled_from(list(Weapon)))
def test_damage_is_never_negative_and_a_miss_does_none(attack, defense, weapon):
    hit = Hit(attack, defense, weapon, distance_dice=2 if weapon is Weapon.SHOTGUN else None)
    points = damage_dealt(hit, UNARMORED).points
    assert points >= 0
    assert (points == 0) or attack > defense


@examples
@given(st.integers(1, 30), st.sampled_from(sorted(GUNFIRE - {Weapon.SHOTGUN})))
def test_unarmored_armor_piercing_does_half_of_standard(margin, weapon):
    # "Armor-piercing rounds do half normal damage"
    standard = damage_dealt(Hit(margin, 0, weapon)).points
    piercing = damage_dealt(Hit(margin, 0, weapon, Ammunition.ARMOR_PIERCING)).points
    assert piercing == (standard + 1) // 2
