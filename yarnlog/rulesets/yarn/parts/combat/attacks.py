"""An attack in detailed combat, derived from its declaration and dice: Yarn 0.1 "Combat" from
"Mechanics" through "Psychological Advantage", and "Damage".

:func:`plan_attack` lists every die of both rolls with its rule; :func:`attack_made` takes the dice and
derives the outcome and :func:`damage_steps`. ``verify`` runs the same derivation on the recorded dice
(:func:`audit_attack`) and flags any difference.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from yarnlog.core.referee import Referee, invalid, present
from yarnlog.rulesets.yarn.parts.combat import wounds as wounds_module
from yarnlog.rulesets.yarn.parts.combat.fight_records import (
    ATTACK,
    DEFENSE,
    DETAILED,
    HALF_DICE,
    RANGED_DEFENSE,
    ROUNDS,
    TACTICS,
    AttackDeclaration,
    AttackMade,
    Combat,
    DamageStep,
    DiceEntry,
    _single_shot,
    fight_in_play,
    is_pc,
    spec_of,
    take_roll,
)
from yarnlog.rulesets.yarn.parts.combat.wounds import serious_wound_facts
from yarnlog.rulesets.yarn.parts.procedure.dice_facts import DiceFacts, take_dice
from yarnlog.rulesets.yarn.rules.armor import (
    ARMOR_ATTACK_SUMMARY,
    BULLET_PROOF_ARMOR,
    HALF_AGAINST_GUNFIRE,
    HEAVY_ARMOR,
    REGULAR_ARMOR,
    STACKING,
    TASER_VERSUS_ARMOR,
    Armor,
    ArmorRoll,
    ArmorType,
    AttackKind,
    Protection,
    after_bullet_proof,
    armor_penalty_dice,
    regular_protection,
    stops_taser,
)
from yarnlog.rulesets.yarn.rules.arsenal import MISSILE_WEAPONS, armor_named
from yarnlog.rulesets.yarn.rules.combat import (
    ATTACKING_FROM_ADVANTAGE,
    ATTACKS,
    DESPERATE_DEFENSE,
    DODGING,
    GANGING_UP,
    GESTALT_ROLLS,
    PREDICTABLE_ATTACKS,
    PSYCHOLOGICAL_ADVANTAGE,
    SURPRISE,
    WEAPON_RANGES,
    WEAPON_RANGES_RULE,
    Advantage,
    RangeBand,
    advantage_bonus_dice,
    check_trait_use,
    desperate_defense_bonus_dice,
    dodge_bonus_dice,
    ganging_up_bonus,
    hit_margin,
    predictable_attack_penalty_dice,
    psychological_bonus_dice,
    range_band,
    ranged_defense,
    special_effect_succeeds,
)
from yarnlog.rulesets.yarn.rules.damage import (
    ALTERNATE_DAMAGE,
    ARMOR_PIERCING,
    FULL_AUTO_SPREAD,
    GUNFIRE,
    HOLLOW_POINT,
    HOW_MUCH_DAMAGE,
    RECOIL,
    SHOTGUNS,
    SPECIAL_EFFECT_DAMAGE,
    Ammunition,
    FireMode,
    Hit,
    Weapon,
    alternate_damage,
    attack_kind,
    automatic_fire,
    damage_dealt,
    damage_factor,
    halved,
    shotgun_damage,
    single_shot_penalty_dice,
    spread_targets,
    usually_a_serious_wound,
)
from yarnlog.rulesets.yarn.rules.dice import (
    BONUS_DIE,
    NO_OPTIONS,
    NO_TRAIT,
    NO_TRAIT_DICE,
    PENALTY_DIE,
    TRAIT_DICE,
    OpponentRoll,
    Outcome,
    RollOptions,
    RollSpec,
    resolve,
)
from yarnlog.rulesets.yarn.rules.hit_points import DOWN_FOR_THE_COUNT, MESSED_UP, take_damage
from yarnlog.rulesets.yarn.rules.odds import OutcomeOdds, opposed_odds
from yarnlog.rulesets.yarn.state import YarnCampaign


def trait_dice_entries(campaign: YarnCampaign, who: str, trait: str | None, dice: int | None, roll: str,
                gm_says_combat: bool = False) -> tuple[list[DiceEntry], bool]:
    """The dice a character rolls for ``trait``, with the rule, and whether it is combat-oriented.

    A PC's trait is read off the sheet (its fighting skill mark included); anyone else's dice and
    combat orientation are the GM's. Two dice without a trait.
    """
    sheet = campaign.rules.characters.pcs.get(who)
    if trait is not None and sheet is not None:
        invalid(trait in sheet.traits, f"{who} has no trait {trait!r}: {', '.join(sheet.traits)}")
        invalid(dice is None or dice == sheet.dice(trait), f"{who}'s {trait} is {sheet.dice(trait)} dice, not {dice}")
        entry = DiceEntry.of(roll, TRAIT_DICE, f"{who}: {trait}", dice=sheet.dice(trait))
        return [entry], sheet.traits[trait].fighting_skill
    if trait is not None:
        gm_dice = present(dice, f"{who} has no sheet: give the dice of {trait!r}")
        return [DiceEntry.of(roll, TRAIT_DICE, f"{who}: {trait} (the GM's dice)", dice=gm_dice)], gm_says_combat
    if dice is not None:
        invalid(dice >= 0, "dice are not negative")
        return [DiceEntry.of(roll, GESTALT_ROLLS if roll == "gestalt" else TRAIT_DICE, f"{who}: dice set by the GM",
                             dice=dice)], False
    return [DiceEntry.of(roll, NO_TRAIT, f"{who}: no trait applies", dice=NO_TRAIT_DICE)], False


def wound_entries(campaign: YarnCampaign, who: str, roll: str) -> list[DiceEntry]:
    penalty = wounds_module.penalty_dice_from_wounds(campaign, who)
    return [DiceEntry.of(roll, MESSED_UP, f"{who} is messed up", penalty=penalty)] if penalty else []


def _armor_entries(worn: Sequence[Armor], roll: str, who: str, *, firearm_attack: bool = False) -> list[DiceEntry]:
    total = armor_penalty_dice(tuple(worn), firearm_attack=firearm_attack)
    heavy = sum(armor_penalty_dice((a,), firearm_attack=firearm_attack) for a in worn)
    entries = []
    if heavy:
        entries.append(DiceEntry.of(roll, HEAVY_ARMOR, f"{who} wears heavy armor", penalty=heavy))
    if total - heavy:
        entries.append(DiceEntry.of(roll, STACKING, f"{who} wears {len(worn)} layers", penalty=total - heavy))
    return entries


class AttackDice:
    """Where an attack's dice come from: faces entered (checked), else rolled by the shell (``rolled``);
    ``recorded`` (for ``verify``) gives the dice as they were stored and never rolls."""

    def __init__(self, faces: Mapping[str, Sequence[int]], top_off: Mapping[str, Sequence[int]], rolled: Any = None,
                 recorded: Mapping[str, DiceFacts] | None = None):
        self.faces, self.top_offs, self.rolled, self.recorded = faces, top_off, rolled, recorded
        self.taken: set[str] = set()

    def take(self, name: str, spec: RollSpec, options: RollOptions) -> DiceFacts:
        self.taken.add(name)
        if self.recorded is not None:
            stored = present(self.recorded.get(name), f"the {name} roll ({spec.notation()}) is missing")
            facts = take_dice(spec, stored.faces, options, top_off=stored.top_off)
            return facts.model_copy(update={"source": stored.source})
        faces = self.faces.get(name)
        return take_dice(spec, None if faces is None else tuple(faces), options,
                         top_off=tuple(self.top_offs.get(name, ())), rolled=self.rolled, name=name)


def _fighting(campaign: YarnCampaign, combat: Combat, d: AttackDeclaration, referee: Referee) -> None:
    rules = campaign.rules
    invalid(d.attacker != d.defender, "a character does not attack himself")
    for who in (d.attacker, d.defender):
        invalid(who in combat.combatants, f"{who} is not in the fight")
        invalid(who not in rules.combat.wounds.dead, f"{who} is dead")
    attacker_hp = wounds_module.hit_points(rules, d.attacker)
    referee.require(attacker_hp.current > 0, DOWN_FOR_THE_COUNT, f"{d.attacker} is at {attacker_hp.current} hit points")
    referee.require(d.attacker not in combat.desperate, DESPERATE_DEFENSE,
                    f"{d.attacker} gave up attacking this round for a desperate defense")


def _round_entries(combat: Combat, d: AttackDeclaration, band: RangeBand | None, referee: Referee
                   ) -> tuple[list[DiceEntry], int, list[str]]:
    """Dice, damage multiplier bonus and spread targets from how the attacker fires this round."""
    before = combat.by(d.attacker)
    if d.fire_mode is None:
        if before:
            referee.require(all(a.single_shot for a in before) and _single_shot(d), ROUNDS,
                            f"{d.attacker} already acted this round")
            invalid(d.firearm is not None or not _single_shot(d),
                    "name the firearm (revolver, automatic pistol, ...) to fire more than one shot a round")
        recoil = single_shot_penalty_dice(referee, d.firearm, len(before) + 1) if d.firearm else 0
        return ([DiceEntry.of(ATTACK, RECOIL, "second shot", penalty=recoil)] if recoil else []), 0, []
    needs = f"a {d.fire_mode} needs the firearm, a range of the Gunfire Tactics Summary and the rounds in the clip"
    firearm, band, clip = present(d.firearm, needs), present(band, needs), present(d.rounds_in_clip, needs)
    effect = automatic_fire(referee, firearm, d.fire_mode, band, rounds_in_clip=clip)
    targets: list[str] = []
    remaining = combat.spreads.get(d.attacker)
    if d.fire_mode is FireMode.FULL_AUTO_SPREAD and remaining is not None:
        invalid(d.spread is None, "the spread was already fired this round: attack its next target")
    else:
        referee.require(not before, ROUNDS, f"{d.attacker} already acted this round")
    if d.fire_mode is FireMode.FULL_AUTO_SPREAD:
        if remaining is None:
            spread = present(d.spread, "the first attack of a spread names the line of fire, first and last target")
            targets = list(spread_targets(referee, spread.line_of_fire, first=spread.first, last=spread.last,
                                          bullets_fired=spread.bullets_fired))
            remaining = tuple(targets)
        referee.require(d.defender in remaining, FULL_AUTO_SPREAD, f"{d.defender} is not a target left in the spread")
    entries = []
    if effect.bonus_dice or effect.penalty_dice:
        why = f"{d.fire_mode} at {band.name.lower().replace('_', ' ')} range"
        entries.append(DiceEntry.of(ATTACK, TACTICS[d.fire_mode], why, bonus=effect.bonus_dice,
                                    penalty=effect.penalty_dice))
    return entries, effect.multiplier_bonus, targets


def _advantage_entries(campaign: YarnCampaign, combat: Combat, d: AttackDeclaration,
                       referee: Referee) -> list[DiceEntry]:
    entries = []
    for claim in d.advantages:
        if claim.advantage is Advantage.GANGING_UP:
            unnamed = "ganging up gives attackers a bonus die: name the defender's fighting dice"
            invalid(claim.roll == ATTACK, unnamed)
            fighting_dice = present(claim.defender_fighting_dice, unnamed)
            for who in claim.attackers:
                invalid(who in combat.combatants, f"{who} is not in the fight")
            invalid(d.attacker in claim.attackers, f"{d.attacker} is not among the attackers ganging up")
            chosen = ganging_up_bonus(referee, defender_fighting_dice=fighting_dice,
                                      attackers=claim.attackers, chosen_by_defender=claim.chosen_by_defender)
            referee.require(
                d.attacker in chosen, GANGING_UP, f"{d.defender} did not choose {d.attacker} for the bonus die"
            )
            dice, rule = 1, GANGING_UP
        elif claim.advantage is Advantage.PSYCHOLOGICAL:
            gained = present(claim.gained_round, "say in which round the psychological advantage was gained")
            dice = psychological_bonus_dice(round_gained=gained, current_round=combat.round,
                                            for_whole_combat=claim.whole_combat)
            referee.require(dice > 0, PSYCHOLOGICAL_ADVANTAGE, "the advantage gives a bonus die the next round only")
            rule = PSYCHOLOGICAL_ADVANTAGE
        else:
            dice = advantage_bonus_dice(referee, claim.advantage, gm_extra_dice=claim.extra_dice)
            rule = SURPRISE if claim.advantage is Advantage.SURPRISE else ATTACKING_FROM_ADVANTAGE
        entries.append(DiceEntry.of(claim.roll, rule, claim.why or str(claim.advantage), bonus=dice))
    for die in d.gm_dice:
        rule, kind = (BONUS_DIE, "bonus") if die.kind == "bonus" else (PENALTY_DIE, "penalty")
        entries.append(DiceEntry.of(die.roll, rule, die.why, **{kind: 1}))
    gmc = not is_pc(campaign, d.attacker)
    invalid(not (d.predictable and gmc), "the predictable attacks rule does not apply to GMCs")
    predictable = predictable_attack_penalty_dice(gm_rules_predictable=d.predictable, attacker_is_gmc=gmc)
    if predictable:
        entries.append(DiceEntry.of(ATTACK, PREDICTABLE_ATTACKS, "a predictable or boring attack", penalty=predictable))
    return entries


def _defense_entries(campaign: YarnCampaign, d: AttackDeclaration,
                     referee: Referee) -> tuple[list[DiceEntry], bool, int | None]:
    """The defense roll's dice, whether its trait is combat-oriented, and the distance dice if ranged."""
    r = d.ranged
    if r is None:
        entries, combat_trait = trait_dice_entries(campaign, d.defender, d.defense_trait, d.defense_dice, DEFENSE,
                                            d.defense_combat_trait)
        return entries, combat_trait, None
    invalid(d.defense_dice is None, "against a missile weapon the defense dice come from the Ranged Attacks table")
    invalid(d.defense_trait is None or r.dodging, "a trait serves a defense against missiles only to dodge")
    if r.gm_distance_dice is not None:
        invalid(r.distance_m is None, "give the distance or the GM's distance dice, not both")
        distance_dice, why = r.gm_distance_dice, "distance dice set by the GM"
    else:
        unplaced = "a ranged attack needs the distance and the weapon's row of the Weapon Ranges table"
        distance, range_class = present(r.distance_m, unplaced), present(d.range_class, unplaced)
        distance_dice = int(range_band(distance, WEAPON_RANGES[range_class]))
        why = f"{distance:g} m with a {range_class}"
    agility, combat_trait = r.agility_dice, False
    if d.defense_trait is not None:
        trait_entries, combat_trait = trait_dice_entries(campaign, d.defender, d.defense_trait, r.agility_dice, DEFENSE,
                                                  d.defense_combat_trait)
        agility = trait_entries[0].dice
    dodge = dodge_bonus_dice(agility, clumsy=r.clumsy) if r.dodging else 0
    total = ranged_defense(referee, distance_dice, cover=r.cover, target_moving=r.target_moving,
                           attacker_moving=r.attacker_moving, obscured=r.obscured, dodging_bonus_dice=dodge,
                           half_dice=r.half_dice)
    entries = [DiceEntry.of(DEFENSE, WEAPON_RANGES_RULE, why, dice=distance_dice)]
    for dice, what in ((r.cover, "cover"), (r.obscured, "darkness, fog, etc."), (int(r.target_moving), "target moving"),
                       (int(r.attacker_moving), "attacker moving")):
        entries += [DiceEntry.of(DEFENSE, RANGED_DEFENSE, what, dice=dice)] if dice else []
    entries += [DiceEntry.of(DEFENSE, DODGING, "dodging", bonus=dodge)] if dodge else []
    entries += [DiceEntry.of(DEFENSE, HALF_DICE, "the GM's half-dice", bonus=r.half_dice)] if r.half_dice else []
    if spec_of(entries, DEFENSE) != RollSpec(total.dice, total.bonus_dice):  # the entries retrace ranged_defense
        raise RuntimeError(f"defense entries {spec_of(entries, DEFENSE)} differ from ranged_defense's {total}")
    return entries, combat_trait, distance_dice


@dataclass(frozen=True)
class AttackPlan:
    """What an attack is before its dice: every die of both rolls with its rule, and what the damage needs."""

    combat: Combat
    entries: list[DiceEntry]
    attack_combat: bool
    defense_combat: bool
    distance_dice: int | None
    multiplier_bonus: int
    spread_targets: list[str]
    worn: list[Armor]


def plan_attack(campaign: YarnCampaign, d: AttackDeclaration, referee: Referee) -> AttackPlan:
    """Check the attack ``d`` against the state before it and count its dice ("Attacks" through
    "Attacking from Advantage", "Gunfire Options", "Armor", "Messed Up")."""
    rules = campaign.rules
    combat = fight_in_play(campaign, DETAILED)
    _fighting(campaign, combat, d, referee)
    ranged = d.ranged is not None
    invalid(ranged or d.weapon not in MISSILE_WEAPONS,
            f"a {d.weapon} is a missile weapon: its target's defense comes from the distance (Ranged Attacks table)")
    invalid(d.firearm is None or d.weapon in GUNFIRE, f"a {d.weapon} is not a firearm")
    attack_entries, attack_combat = trait_dice_entries(campaign, d.attacker, d.attack_trait, d.attack_dice, ATTACK,
                                                d.attack_combat_trait)
    defense_entries, defense_combat, distance_dice = _defense_entries(campaign, d, referee)
    band = RangeBand(distance_dice) if distance_dice in set(RangeBand) else None
    round_entries, multiplier_bonus, targets = _round_entries(combat, d, band, referee)
    worn = [armor_named(a) for a in (d.defender_armor if d.defender_armor is not None
                                     else rules.combat.armor.get(d.defender, ()))]
    attacker_worn = [armor_named(a) for a in rules.combat.armor.get(d.attacker, ())]
    entries = attack_entries + defense_entries + round_entries + _advantage_entries(campaign, combat, d, referee)
    entries += wound_entries(campaign, d.attacker, ATTACK)
    entries += _armor_entries(attacker_worn, ATTACK, d.attacker, firearm_attack=d.weapon in GUNFIRE)
    if d.ranged is None or d.ranged.dodging:  # the defender's own effort: a melee defense, or dodging missiles
        entries += wound_entries(campaign, d.defender, DEFENSE) + _armor_entries(worn, DEFENSE, d.defender)
    entries += _desperate_entries(campaign, combat, d, referee)
    _check_traits(combat, d, attack_combat, defense_combat, referee)
    invalid(d.special_effect is None or d.sufficient_margin is not None,
            "the GM judges what margin the special effect needs")
    serious_wound_facts(referee, campaign.table.options, d.serious_wound.wound() if d.serious_wound else None)
    return AttackPlan(combat, entries, attack_combat, defense_combat, distance_dice, multiplier_bonus, targets, worn)


def attack_odds(campaign: YarnCampaign, d: AttackDeclaration) -> OutcomeOdds:
    """The exact chances, before the dice, that the attack ``d`` hits (``beats``) or not."""
    plan = plan_attack(campaign, d, Referee())
    options = RollOptions.from_campaign(campaign.table.options)
    return opposed_odds(spec_of(plan.entries, ATTACK), spec_of(plan.entries, DEFENSE), options)


def attack_made(campaign: YarnCampaign, d: AttackDeclaration, dice: AttackDice, referee: Referee) -> AttackMade:
    """The attack ``d`` with its dice, derived from the state before it ("Attacks" through "Damage Effects")."""
    plan = plan_attack(campaign, d, referee)
    entries = plan.entries
    options = RollOptions.from_campaign(campaign.table.options)
    attack = take_roll(entries, ATTACK, lambda spec: dice.take("attack", spec, options))
    defense = take_roll(entries, DEFENSE, lambda spec: dice.take("defense", spec, options))
    resolution = resolve(attack.result(), OpponentRoll.of(defense.result(), options), options)
    hit = resolution.outcome is Outcome.BEATS
    effect_succeeds = None
    if d.special_effect is not None:
        margin = present(d.sufficient_margin, "the GM judges what margin the special effect needs")  # as planned
        effect_succeeds = hit and special_effect_succeeds(attack.total, defense.total, gm_sufficient_margin=margin)
    invalid(hit or d.serious_wound is None, "a miss deals no serious wound")
    damage = _damage(campaign, d, dice, attack.total, defense.total, plan, referee) if hit else _NO_DAMAGE
    hp = wounds_module.hit_points(campaign.rules, d.defender)
    return AttackMade(
        combat=plan.combat.number, round=plan.combat.round, declared=d, attack_trait_combat=plan.attack_combat,
        defense_trait_combat=plan.defense_combat, armor_worn=[a.name for a in plan.worn],
        spread_targets=plan.spread_targets, entries=entries, attack=attack, defense=defense,
        outcome=resolution.outcome, decided_by=resolution.decided_by.chapter if resolution.decided_by else None,
        margin=hit_margin(attack.total, defense.total), special_effect_succeeds=effect_succeeds,
        regular_armor=damage.regular, bullet_proof_armor=damage.bullet_proof, damage_dice=damage.dice,
        steps=damage.steps, damage=damage.points, temporary=d.weapon is Weapon.TASER,
        usually_serious=usually_a_serious_wound(damage.points), hit_points_before=hp.current,
        hit_points_after=take_damage(hp, damage.points).current,
    )


def _desperate_entries(campaign: YarnCampaign, combat: Combat, d: AttackDeclaration,
                       referee: Referee) -> list[DiceEntry]:
    if d.desperate_defense:
        referee.require(bool(campaign.table.options.get("desperate_defense")), DESPERATE_DEFENSE,
                        "this campaign does not use this optional rule")
        referee.require(not combat.by(d.defender), DESPERATE_DEFENSE, f"{d.defender} already attacked this round")
    bonus = desperate_defense_bonus_dice(gives_up_attack=d.desperate_defense or d.defender in combat.desperate)
    return [DiceEntry.of(DEFENSE, DESPERATE_DEFENSE, f"{d.defender} gives up attacking", bonus=bonus)] if bonus else []


def _check_traits(combat: Combat, d: AttackDeclaration, attack_combat: bool, defense_combat: bool,
                  referee: Referee) -> None:
    """"A non-combat trait cannot be used for both attack and defense in a single round"."""
    def combat_traits(who: str, trait: str | None, now: bool) -> set[str]:
        known = {t for w, t in combat.combat_traits if w == who}
        return known | ({trait} if trait and now else set())

    check_trait_use(referee, attack_trait=d.attack_trait,
                    defense_traits=combat.defense_traits.get(d.attacker, frozenset()),
                    combat_traits=combat_traits(d.attacker, d.attack_trait, attack_combat))
    if d.defense_trait in combat.attack_traits.get(d.defender, frozenset()):
        check_trait_use(referee, attack_trait=d.defense_trait, defense_traits={d.defense_trait},
                        combat_traits=combat_traits(d.defender, d.defense_trait, defense_combat))


@dataclass(frozen=True)
class _Damage:
    points: int = 0
    steps: list[DamageStep] = field(default_factory=list)
    regular: DiceFacts | None = None
    bullet_proof: DiceFacts | None = None
    dice: DiceFacts | None = None


_NO_DAMAGE = _Damage()


def _damage(campaign: YarnCampaign, d: AttackDeclaration, dice: AttackDice, attack_total: int, defense_total: int,
            plan: AttackPlan, referee: Referee) -> _Damage:
    """The damage of a hit, step by step ("How Much Damage?" through "Armor/Attack Summary")."""
    worn = plan.worn
    factor = damage_factor(d.weapon, d.ammunition, plan.multiplier_bonus)
    damage_roll = None
    if d.alternate_damage:
        referee.require(bool(campaign.table.options.get("alternate_damage")), ALTERNATE_DAMAGE,
                        "this campaign does not use this optional rule")
        damage_roll = dice.take("damage", RollSpec(factor), NO_OPTIONS)
    kind = attack_kind(d.weapon, d.ammunition)
    regular_dice, bullet_proof_dice = sum(a.dice for a in worn), sum(a.bullet_proof_dice for a in worn)
    rolls_regular = regular_dice and ARMOR_ATTACK_SUMMARY[kind][ArmorType.REGULAR] is not Protection.MINIMUM
    rolls_bullet_proof = bullet_proof_dice and ARMOR_ATTACK_SUMMARY[kind][ArmorType.BULLET_PROOF] in (
        Protection.DIVIDE, Protection.DIVIDE_DOUBLE)
    regular = dice.take("regular_armor", RollSpec(regular_dice), NO_OPTIONS) if rolls_regular else None
    bullet_proof = (
        dice.take("bullet_proof_armor", RollSpec(bullet_proof_dice), NO_OPTIONS) if rolls_bullet_proof else None
    )
    armor = ArmorRoll(tuple(worn), regular.total if regular else None, bullet_proof.total if bullet_proof else None)
    hit = Hit(attack_total, defense_total, d.weapon, d.ammunition, plan.multiplier_bonus,
              plan.distance_dice if d.weapon is Weapon.SHOTGUN else None, d.special_effect is not None,
              tuple(damage_roll.faces) if damage_roll else None)
    steps = damage_steps(hit, armor, kind)
    points = damage_dealt(hit, armor).points
    if steps[-1].value != points:  # the steps retrace damage_dealt; they must never tell another story
        raise RuntimeError(f"damage steps end at {steps[-1].value}, damage_dealt says {points}")
    return _Damage(points, steps, regular, bullet_proof, damage_roll)


def damage_steps(hit: Hit, armor: ArmorRoll, kind: AttackKind) -> list[DamageStep]:
    """Every step from the hit to the damage taken, in :func:`~.damage.damage_dealt`'s order, so an
    auditor can recompute each one."""
    margin = hit_margin(hit.attack_total, hit.defense_total)
    factor = damage_factor(hit.weapon, hit.ammunition, hit.multiplier_bonus)
    steps = [DamageStep(step=f"attack {hit.attack_total} - defense {hit.defense_total}", value=margin,
                        chapter=ATTACKS.chapter)]
    why = [f"{hit.weapon} X{damage_factor(hit.weapon)}"]
    why += [f"hollow point +2 ({HOLLOW_POINT.chapter})"] if hit.ammunition is Ammunition.HOLLOW_POINT else []
    why += [f"+{hit.multiplier_bonus} (Gunfire Tactics Summary)"] if hit.multiplier_bonus else []
    steps.append(DamageStep(step="damage factor: " + ", ".join(why), value=factor, chapter=HOW_MUCH_DAMAGE.chapter))
    if hit.alternate_damage_faces is None:
        value = margin * factor
        steps.append(DamageStep(step=f"{margin} x {factor}", value=value, chapter=HOW_MUCH_DAMAGE.chapter))
    else:
        value = alternate_damage(hit.alternate_damage_faces, factor, attack_total=hit.attack_total,
                                 defense_total=hit.defense_total)
        doubled = (
            " x 2 (attack roll at least twice the defense roll)" if value != sum(hit.alternate_damage_faces) else ""
        )
        steps.append(DamageStep(step=f"{factor}d6 {list(hit.alternate_damage_faces)}{doubled}", value=value,
                                chapter=ALTERNATE_DAMAGE.chapter))
    if hit.distance_dice is not None:
        value = shotgun_damage(value, hit.distance_dice)
        steps.append(DamageStep(step=f"divided by {hit.distance_dice} distance dice, rounded off", value=value,
                                chapter=SHOTGUNS.chapter))
    if hit.weapon is Weapon.TASER:
        stops = stops_taser(margin, armor)
        if armor.worn:
            value = 0 if stops else value
            steps.append(DamageStep(step=f"armor {'stops' if stops else 'does not stop'} the taser "
                                         f"(margin {margin})", value=value, chapter=TASER_VERSUS_ARMOR.chapter))
    else:
        if armor.regular_dice or armor.regular_points:
            stopped = regular_protection(kind, armor)
            method = ARMOR_ATTACK_SUMMARY[kind][ArmorType.REGULAR]
            rule = HALF_AGAINST_GUNFIRE if method is Protection.HALF else REGULAR_ARMOR
            value = max(0, value - stopped)
            steps.append(DamageStep(step=f"regular armor stops {stopped} ({method}, Armor/Attack Summary)",
                                    value=value, chapter=rule.chapter))
        if armor.bullet_proof_dice:
            method = ARMOR_ATTACK_SUMMARY[kind][ArmorType.BULLET_PROOF]
            value = after_bullet_proof(value, kind, armor)
            rolled = f", rolled {armor.bullet_proof_roll}" if armor.bullet_proof_roll is not None else ""
            steps.append(DamageStep(step=f"bullet-proof armor ({method}, Armor/Attack Summary{rolled})", value=value,
                                    chapter=BULLET_PROOF_ARMOR.chapter))
    if hit.ammunition is Ammunition.ARMOR_PIERCING:
        value = halved(value)
        steps.append(DamageStep(step="armor-piercing: halved after armor, rounded off", value=value,
                                chapter=ARMOR_PIERCING.chapter))
    if hit.special_effect:
        value = halved(value)
        steps.append(DamageStep(step="special effect attack: half damage, rounded off", value=value,
                                chapter=SPECIAL_EFFECT_DAMAGE.chapter))
    return steps
