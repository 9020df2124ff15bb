"""Combat in the journal: gestalt and detailed fights, who fights, initiative and rounds.

The ``combat`` part of the Yarn ruleset. Implements, as events over the pure rules of
:mod:`.combat`, Yarn 0.1 "Combat" from "Gestalt Combat" through "Rounds" and the "Optional Rules
for Combat"; an attack's dice and damage are derived in :mod:`.attacks`, and what a fight records
(its events and state) is in :mod:`.fight_records`. Hit points, recovery and healing are in
:mod:`.wounds`, whose slice this part holds.

Every roll is stored as :class:`~.dice_facts.DiceFacts` (faces entered from the table, or rolled
once by the tool), and every die of every roll is accounted for by a
:class:`~.fight_records.DiceEntry` citing its rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from yarnlog.core.composition import Part
from yarnlog.core.events import Payload, Recorded
from yarnlog.core.referee import Referee, Rule, invalid
from yarnlog.core.state import advance
from yarnlog.core.table import RESERVED_NAMES
from yarnlog.rulesets.yarn.parts.combat import fight_records, fight_validation
from yarnlog.rulesets.yarn.parts.combat import wounds as wounds_module
from yarnlog.rulesets.yarn.parts.combat.attacks import (
    AttackDice,
    attack_made,
    trait_dice_entries,
    wound_entries,
)
from yarnlog.rulesets.yarn.parts.combat.fight_records import (
    DETAILED,
    GESTALT,
    ROLL_NAMES,
    ArmorWorn,
    AttackDeclaration,
    CombatantLeft,
    CombatantRegistered,
    CombatantsJoined,
    CombatEnded,
    CombatStarted,
    DiceEntry,
    Fights,
    GestaltRolled,
    InitiativeSet,
    RoundStarted,
    TakenRoll,
    evolve,
    fight_in_play,
    take_roll,
)
from yarnlog.rulesets.yarn.parts.combat.fight_validation import (
    check_gestalt_rollers,
    check_initiative_rollers,
    validate_ended,
    validate_gestalt,
    validate_initiative,
    validate_joined,
    validate_left,
    validate_registered,
    validate_round,
    validate_started,
)
from yarnlog.rulesets.yarn.parts.procedure.dice_facts import take_dice
from yarnlog.rulesets.yarn.rules.arsenal import armor_named
from yarnlog.rulesets.yarn.rules.combat import (
    GESTALT_COMBAT,
    GESTALT_ROLLS,
    INITIATIVE,
    INITIATIVE_DICE_WITHOUT_TRAIT,
    GestaltResult,
    Side,
    gestalt_combat,
    initiative_order,
    seating_order,
)
from yarnlog.rulesets.yarn.rules.dice import BONUS_DIE, PENALTY_DIE, RollOptions
from yarnlog.rulesets.yarn.state import YarnCampaign

# -- commands ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fighter:
    """A combatant as the fight starts: a PC, a registered combatant, or a new one with ``hit_points``."""

    name: str
    hit_points: int | None = None
    description: str = ""


@dataclass(frozen=True)
class RegisterCombatant:
    name: str
    hit_points: int
    description: str = ""


@dataclass(frozen=True)
class StartCombat:
    combatants: tuple[Fighter, ...]
    mode: Literal["gestalt", "detailed"] = GESTALT


@dataclass(frozen=True)
class JoinCombat:
    combatants: tuple[Fighter, ...]


@dataclass(frozen=True)
class LeaveCombat:
    name: str
    reason: str = ""


@dataclass(frozen=True)
class WearArmor:
    character: str
    armor: tuple[str, ...]


@dataclass(frozen=True)
class RollInput:
    """One roll at the table: ``dice`` the GM sets (else the trait's, else two), ``faces`` as rolled
    (None: the tool rolls), and the GM's bonus and penalty dice where the rules leave them to her."""

    roller: str
    dice: int | None = None
    trait: str | None = None
    faces: tuple[int, ...] | None = None
    top_off: tuple[int, ...] = ()
    bonus: int = 0
    penalty: int = 0


@dataclass(frozen=True)
class RollGestalt:
    """The players' rolls, or (recorded with visibility "gm") the GMCs' secret rolls."""

    side: Side
    rolls: tuple[RollInput, ...]
    rolled: Mapping[str, Any] = field(default_factory=dict, compare=False)  # the shell's dice


@dataclass(frozen=True)
class RollInitiative:
    """Initiative rolls; ``GMCs`` rolls once for every GMC not named. ``tie_order``: the GM's order of ties."""

    rolls: tuple[RollInput, ...]
    tie_order: tuple[str, ...] = ()
    rolled: Mapping[str, Any] = field(default_factory=dict, compare=False)  # the shell's dice


@dataclass(frozen=True)
class SeatingOrder:
    """"act in the order they are seated around the table, with the GM acting first or last"."""

    players_around_table: tuple[str, ...]
    gm_first: bool


@dataclass(frozen=True)
class NextRound:
    pass


@dataclass(frozen=True)
class Attack:
    """An attack: the declaration, and faces by roll ("attack", "defense", "regular_armor",
    "bullet_proof_armor", "damage"); a roll without faces is rolled by the tool before deciding (``rolled``)."""

    declared: AttackDeclaration
    faces: Mapping[str, Sequence[int]] = field(default_factory=dict)
    top_off: Mapping[str, Sequence[int]] = field(default_factory=dict)
    rolled: Mapping[str, Any] = field(default_factory=dict, compare=False)  # the shell's dice


@dataclass(frozen=True)
class EndCombat:
    summary: str = ""


def _fighters(campaign: YarnCampaign, fighters: Sequence[Fighter],
              already: Sequence[str]) -> tuple[list[Payload], list[str]]:
    """Registrations needed for ``fighters``, and their names; refuses anyone who cannot fight."""
    rules = campaign.rules
    names = [f.name for f in fighters]
    invalid(bool(names), "name at least one combatant")
    invalid(len(set(names)) == len(names), "each combatant is named once")
    registrations: list[Payload] = []
    for f in fighters:
        invalid(f.name not in already, f"{f.name} is already in the fight")
        invalid(f.name not in rules.combat.wounds.dead, f"{f.name} is dead")
        sheet = rules.characters.pcs.get(f.name)
        if f.hit_points is None:
            invalid(wounds_module.maximum_hit_points(rules, f.name) is not None,
                    f"{f.name} has no hit points: give them ({f.name}=HIT_POINTS) or create the PC")
            invalid(sheet is None or sheet.active, f"{f.name} has left play")
            continue
        invalid(sheet is None, f"{f.name} is a PC: hit points come from the sheet")
        registered = rules.combat.wounds.registered.get(f.name)
        if registered is None or registered.hit_points != f.hit_points:
            registrations.append(_registration(campaign, RegisterCombatant(f.name, f.hit_points, f.description)))
    return registrations, names


def _registration(campaign: YarnCampaign, command: RegisterCombatant) -> CombatantRegistered:
    rules = campaign.rules
    name = " ".join(command.name.split())
    invalid(bool(name), "a combatant needs a name")
    invalid(name not in rules.characters.pcs, f"{name} is a PC: hit points come from the sheet")
    invalid(name.casefold() not in {n.casefold() for n in campaign.table.roles} | RESERVED_NAMES,
            f"{name} is a participant's name (or a reserved word): name the character otherwise")
    invalid(command.hit_points >= 1, "a combatant has at least 1 hit point")
    return CombatantRegistered(name=name, hit_points=command.hit_points, description=command.description,
                               supporting=name in rules.characters.supporting)


def _taken_roll(campaign: YarnCampaign, roll: RollInput, kind: str, rule: Rule | None, options: RollOptions,
                rolled: Any,
                base: list[DiceEntry] | None = None) -> TakenRoll:
    entries = base if base is not None else trait_dice_entries(campaign, roll.roller, roll.trait, roll.dice, kind)[0]
    invalid(roll.bonus >= 0 and roll.penalty >= 0, "bonus and penalty dice are counted as 0 or more")
    if roll.bonus:
        entries = entries + [DiceEntry.of(kind, rule or BONUS_DIE, "the GM's ruling", bonus=roll.bonus)]
    if roll.penalty:
        entries = entries + [DiceEntry.of(kind, rule or PENALTY_DIE, "the GM's ruling", penalty=roll.penalty)]
    if wounds_module.maximum_hit_points(campaign.rules, roll.roller) is not None:
        entries = entries + wound_entries(campaign, roll.roller, kind)
    dice = take_roll(entries, kind, lambda spec: take_dice(spec, roll.faces, options, top_off=roll.top_off,
                                                           rolled=rolled, name=f"{kind} of {roll.roller}"))
    return TakenRoll(roller=roll.roller, trait=roll.trait, entries=entries, dice=dice)


def _gestalt(command: RollGestalt, campaign: YarnCampaign) -> GestaltRolled:
    options = RollOptions.from_campaign(campaign.table.options)
    invalid(bool(command.rolls), "record at least one roll")
    check_gestalt_rollers(campaign, command.side, [r.roller for r in command.rolls])  # before any die is rolled
    rolls = [_taken_roll(campaign, r, "gestalt", GESTALT_ROLLS, options, command.rolled) for r in command.rolls]
    return GestaltRolled(side=command.side, rolls=rolls, total=sum(r.dice.total for r in rolls))


def _initiative(command: RollInitiative, campaign: YarnCampaign) -> InitiativeSet:
    check_initiative_rollers(campaign, [r.roller for r in command.rolls])  # before any die is rolled
    options = RollOptions.from_campaign(campaign.table.options)
    rolls = []
    for r in command.rolls:
        base = None
        if r.trait is None and r.dice is None:
            base = [
                DiceEntry.of("initiative", INITIATIVE, f"{r.roller}: no such trait", dice=INITIATIVE_DICE_WITHOUT_TRAIT)
            ]
        rolls.append(_taken_roll(campaign, r, "initiative", None, options, command.rolled, base))
    order = initiative_order({r.roller: r.dice.total for r in rolls}, gm_tie_order=command.tie_order)
    return InitiativeSet(method="rolls", order=list(order), rolls=rolls, tie_order=list(command.tie_order))


def decide(command: Any, campaign: YarnCampaign, referee: Referee) -> list[Payload] | None:
    rules = campaign.rules
    if isinstance(command, RegisterCombatant):
        return [validate_registered(_registration(campaign, command), campaign, referee)]
    if isinstance(command, StartCombat):
        invalid(rules.combat.in_play is None, f"fight {rules.combat.fought} is in play: end it first")
        invalid(command.mode in (GESTALT, DETAILED), f"combat is gestalt or detailed, not {command.mode!r}")
        registrations, names = _fighters(campaign, command.combatants, ())
        started = CombatStarted(number=rules.combat.fought + 1, mode=command.mode, combatants=names)
        return [*registrations, validate_started(started, advance(campaign, registrations), referee)]
    if isinstance(command, JoinCombat):
        registrations, names = _fighters(campaign, command.combatants, fight_in_play(campaign).combatants)
        joined = CombatantsJoined(names=names)
        return [*registrations, validate_joined(joined, advance(campaign, registrations), referee)]
    if isinstance(command, LeaveCombat):
        return [validate_left(CombatantLeft(name=command.name, reason=command.reason), campaign, referee)]
    if isinstance(command, WearArmor):
        invalid(wounds_module.maximum_hit_points(rules, command.character) is not None,
                f"{command.character} has no hit points: not a PC, nor a registered combatant")
        worn = ArmorWorn(character=command.character, armor=[armor_named(a).name for a in command.armor])
        return [fight_validation.validate_armor(worn, campaign, referee)]
    if isinstance(command, RollGestalt):
        return [validate_gestalt(_gestalt(command, campaign), campaign, referee)]
    if isinstance(command, RollInitiative):
        return [validate_initiative(_initiative(command, campaign), campaign, referee)]
    if isinstance(command, SeatingOrder):
        fight_in_play(campaign, DETAILED)
        for name in command.players_around_table:
            invalid(name in campaign.table.players, f"{name} is not a player at the table")
        order = seating_order(command.players_around_table, gm=campaign.table.gm, gm_first=command.gm_first)
        seated = InitiativeSet(method="seating", order=list(order), gm_first=command.gm_first)
        return [validate_initiative(seated, campaign, referee)]
    if isinstance(command, NextRound):
        return [validate_round(RoundStarted(number=fight_in_play(campaign, DETAILED).round + 1), campaign, referee)]
    if isinstance(command, Attack):
        unknown = sorted(set(command.faces) - set(ROLL_NAMES))
        invalid(not unknown, f"unknown roll(s) {', '.join(unknown)}; rolls are {', '.join(ROLL_NAMES)}")
        dice = AttackDice(command.faces, command.top_off, command.rolled)
        payload = attack_made(campaign, command.declared, dice, referee)
        extra = sorted(set(command.faces) - dice.taken)
        invalid(not extra, f"this attack rolls no {' nor '.join(extra)} dice")
        return [payload]
    if isinstance(command, EndCombat):
        ended = CombatEnded(number=fight_in_play(campaign).number, summary=command.summary)
        return [validate_ended(ended, campaign, referee)]
    return wounds_module.decide(command, campaign, referee)


# -- audit ------------------------------------------------------------------------------------


def audit(campaign: YarnCampaign, recorded: Recorded) -> list[str]:
    """The GMCs' gestalt total is the GM's secret: a rule on the envelope, which no validator sees."""
    p = recorded.payload
    if isinstance(p, GestaltRolled) and p.side is Side.GMCS and recorded.visibility != "gm":
        return [
            f"the GMCs' gestalt total is recorded for {recorded.visibility}, not kept secret ({GESTALT_COMBAT.cite()})"
        ]
    return []


# -- projections ------------------------------------------------------------------------------


def gestalt_outcome(campaign: YarnCampaign) -> GestaltResult | None:
    """The gestalt fight in play as the GM sees it: both sides' totals and who wins (None until both rolled)."""
    combat = campaign.rules.combat.in_play
    if combat is None or combat.mode != GESTALT or combat.gmcs_total is None or not combat.player_rolls:
        return None
    return gestalt_combat(list(combat.player_rolls.values()), combat.gmcs_total)


PART = Part(name="combat", initial=Fights, evolve=evolve, folds=fight_records.FOLDS, decide=decide, audit=audit,
            validators={**fight_validation.VALIDATORS, **wounds_module.VALIDATORS},
            # A replay folds it in place; the wounds read the sheets and the fight before the event.
            thaw=fight_records.FightsBuilder, reads=frozenset({"characters", "combat"}))
