"""One validator per fight event: who may fight, which fight is in play, what the dice give.

The combat part's decider runs these on the payloads it builds, and ``verify`` runs them on the
recorded ones (see :mod:`yarnlog.core.validation`): a round, an end or a departure recorded for a
fight that is not in play, a roll whose total is not its dice, an order of action the rolls do
not give, all are named. Gestalt and initiative rolls keep the dice the GM ruled (their
entries); what is checked is who rolls, when, and what the entered faces add up to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from yarnlog.core.referee import Referee, invalid, present
from yarnlog.core.ruleset import Validator
from yarnlog.core.table import RESERVED_NAMES
from yarnlog.rulesets.yarn.parts.combat import wounds as wounds_module
from yarnlog.rulesets.yarn.parts.combat.attacks import AttackDice, attack_made
from yarnlog.rulesets.yarn.parts.combat.fight_records import (
    DETAILED,
    GESTALT,
    GMCS,
    ArmorWorn,
    AttackMade,
    CombatantLeft,
    CombatantRegistered,
    CombatantsJoined,
    CombatEnded,
    CombatStarted,
    GestaltRolled,
    InitiativeSet,
    RoundStarted,
    TakenRoll,
    fight_in_play,
    is_pc,
    take_roll,
)
from yarnlog.rulesets.yarn.parts.procedure.dice_facts import take_dice
from yarnlog.rulesets.yarn.rules.arsenal import armor_named
from yarnlog.rulesets.yarn.rules.combat import Side, initiative_order, seating_order
from yarnlog.rulesets.yarn.rules.dice import RollOptions
from yarnlog.rulesets.yarn.state import YarnCampaign


def validate_registered(p: CombatantRegistered, campaign: YarnCampaign, referee: Referee) -> CombatantRegistered:
    """A supporting character or nameless foe given hit points; whether they are of the cast is derived."""
    rules = campaign.rules
    name = " ".join(p.name.split())
    invalid(bool(name), "a combatant needs a name")
    invalid(name not in rules.characters.pcs, f"{name} is a PC: hit points come from the sheet")
    invalid(name.casefold() not in {n.casefold() for n in campaign.table.roles} | RESERVED_NAMES,
            f"{name} is a participant's name (or a reserved word): name the character otherwise")
    invalid(p.hit_points >= 1, "a combatant has at least 1 hit point")
    return p.model_copy(update={"name": name, "supporting": name in rules.characters.supporting})


def check_fighters(campaign: YarnCampaign, names: Sequence[str], already: Sequence[str]) -> None:
    """Everyone named can fight: named once, not yet in the fight, alive, with hit points, in play."""
    rules = campaign.rules
    invalid(bool(names), "name at least one combatant")
    invalid(len(set(names)) == len(names), "each combatant is named once")
    for name in names:
        invalid(name not in already, f"{name} is already in the fight")
        invalid(name not in rules.combat.wounds.dead, f"{name} is dead")
        invalid(wounds_module.maximum_hit_points(rules, name) is not None,
                f"{name} has no hit points: not a PC, nor a registered combatant")
        sheet = rules.characters.pcs.get(name)
        invalid(sheet is None or sheet.active, f"{name} has left play")


def validate_started(p: CombatStarted, campaign: YarnCampaign, referee: Referee) -> CombatStarted:
    """A fight starts when none is in play; fights are numbered one after another."""
    combat = campaign.rules.combat
    invalid(combat.in_play is None, f"fight {combat.fought} is in play: end it first")
    check_fighters(campaign, p.combatants, ())
    return p.model_copy(update={"number": combat.fought + 1})


def validate_joined(p: CombatantsJoined, campaign: YarnCampaign, referee: Referee) -> CombatantsJoined:
    check_fighters(campaign, p.names, fight_in_play(campaign).combatants)
    return p


def validate_left(p: CombatantLeft, campaign: YarnCampaign, referee: Referee) -> CombatantLeft:
    invalid(p.name in fight_in_play(campaign).combatants, f"{p.name} is not in the fight")
    return p


def validate_armor(p: ArmorWorn, campaign: YarnCampaign, referee: Referee) -> ArmorWorn:
    """Armor is worn by someone with hit points, and named as the arsenal names it."""
    invalid(wounds_module.maximum_hit_points(campaign.rules, p.character) is not None,
            f"{p.character} has no hit points: not a PC, nor a registered combatant")
    return p.model_copy(update={"armor": [armor_named(a).name for a in p.armor]})


def _retaken(campaign: YarnCampaign, roll: TakenRoll, kind: str) -> TakenRoll:
    """A recorded roll's dice taken again from its entries and its faces as entered."""
    options = RollOptions.from_campaign(campaign.table.options)
    dice = take_roll(roll.entries, kind, lambda spec: take_dice(spec, roll.dice.faces, options,
                                                                top_off=roll.dice.top_off))
    return roll.model_copy(update={"dice": dice.model_copy(update={"source": roll.dice.source})})


def check_gestalt_rollers(campaign: YarnCampaign, side: Side, rollers: list[str]) -> None:
    """Each PC in the gestalt fight rolls once; the GMCs' total is rolled once (checked before any
    die is rolled, and again on the recorded event)."""
    combat = fight_in_play(campaign, GESTALT)
    invalid(len(set(rollers)) == len(rollers), "each roller rolls once")
    if side is Side.GMCS:
        invalid(combat.gmcs_total is None, "the GMCs' total is already rolled for this fight")
    else:
        for name in rollers:
            invalid(is_pc(campaign, name) and name in combat.combatants, f"{name} is not a PC in this fight")
            invalid(name not in combat.player_rolls, f"{name} already rolled for this fight")


def check_initiative_rollers(campaign: YarnCampaign, rollers: list[str]) -> None:
    """Everyone in the detailed fight rolls initiative once (the GM once for all GMCs), before the
    order of action is set."""
    combat = fight_in_play(campaign, DETAILED)
    invalid(not combat.order, "the order of action is already set for this fight")
    invalid(len(set(rollers)) == len(rollers), "each character rolls initiative once")
    for name in rollers:
        invalid(name == GMCS or name in combat.combatants, f"{name} is not in the fight")
    gmcs = [n for n in combat.combatants if not is_pc(campaign, n)]
    missing = [n for n in combat.combatants if n not in rollers and (n not in gmcs or GMCS not in rollers)]
    invalid(not missing, f"initiative is missing for {', '.join(missing)}")


def validate_gestalt(p: GestaltRolled, campaign: YarnCampaign, referee: Referee) -> GestaltRolled:
    """Each PC in the gestalt fight rolls once; the GMCs' total is rolled once; totals are the dice's."""
    check_gestalt_rollers(campaign, p.side, [r.roller for r in p.rolls])
    rolls = [_retaken(campaign, r, "gestalt") for r in p.rolls]
    return p.model_copy(update={"rolls": rolls, "total": sum(r.dice.total for r in rolls)})


def validate_initiative(p: InitiativeSet, campaign: YarnCampaign, referee: Referee) -> InitiativeSet:
    """The order of action, set once per detailed fight: by everyone's rolls, or by the seating."""
    combat = fight_in_play(campaign, DETAILED)
    invalid(not combat.order, "the order of action is already set for this fight")
    if p.method == "seating":
        players = [n for n in p.order if n != campaign.table.gm]
        for name in players:
            invalid(name in campaign.table.players, f"{name} is not a player at the table")
        gm_first = present(p.gm_first, "the GM acts first or last")
        order = seating_order(players, gm=campaign.table.gm, gm_first=gm_first)
        return p.model_copy(update={"order": list(order), "rolls": [], "tie_order": []})
    check_initiative_rollers(campaign, [r.roller for r in p.rolls])
    rolls = [_retaken(campaign, r, "initiative") for r in p.rolls]
    order = initiative_order({r.roller: r.dice.total for r in rolls}, gm_tie_order=p.tie_order)
    return p.model_copy(update={"rolls": rolls, "order": list(order), "gm_first": None})


def validate_round(p: RoundStarted, campaign: YarnCampaign, referee: Referee) -> RoundStarted:
    """Rounds follow one another in the detailed fight in play."""
    return p.model_copy(update={"number": fight_in_play(campaign, DETAILED).round + 1})


def validate_ended(p: CombatEnded, campaign: YarnCampaign, referee: Referee) -> CombatEnded:
    """The fight in play ends (its own number)."""
    return p.model_copy(update={"number": fight_in_play(campaign).number})


def validate_attack(p: AttackMade, campaign: YarnCampaign, referee: Referee) -> AttackMade:
    """The attack decided again from its declaration and its dice as recorded."""
    recorded = {name: facts for name, facts in (
        ("attack", p.attack), ("defense", p.defense), ("regular_armor", p.regular_armor),
        ("bullet_proof_armor", p.bullet_proof_armor), ("damage", p.damage_dice)) if facts is not None}
    return attack_made(campaign, p.declared, AttackDice({}, {}, recorded=recorded), referee)


VALIDATORS: Mapping[type, Validator] = {
    CombatantRegistered: validate_registered,
    CombatStarted: validate_started,
    CombatantsJoined: validate_joined,
    CombatantLeft: validate_left,
    ArmorWorn: validate_armor,
    GestaltRolled: validate_gestalt,
    InitiativeSet: validate_initiative,
    RoundStarted: validate_round,
    AttackMade: validate_attack,
    CombatEnded: validate_ended,
}
