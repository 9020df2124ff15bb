"""Hit points in the journal: wounds, recovery, long-term healing, death, and the wounds projection.

Events over the pure rules of :mod:`.hit_points` and :mod:`.healing`: Yarn 0.1 "Combat › Damage
Effects" (Messed Up, Down for the Count, Character Death), "Recovery" and "Hit Point Recovery
Conventions", "Healing" (the Long-Term Healing table, applied per in-game day) and the healing side
of the optional "Serious Wounds". Attacks, which deal most damage, are in :mod:`.fight`; its part
("combat") holds this module's :class:`Wounds` slice and folds these events through :func:`evolve`.

A character's maximum comes from the PC's sheet, or from the GM's registration of a combatant
without one (a GMC, a mook, a supporting character). Only characters off full health are stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pyrsistent import PMap, pmap

from yarnlog.core.composition import folds
from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.frozen import replace
from yarnlog.core.referee import InvalidCommand, Referee, Rule, invalid, present
from yarnlog.core.ruleset import Validator
from yarnlog.rulesets.scenes_and_tokens.parts import economy
from yarnlog.rulesets.scenes_and_tokens.parts.economy import Economy
from yarnlog.rulesets.yarn.parts.procedure.dice_facts import DiceFacts, take_dice
from yarnlog.rulesets.yarn.rules.damage import SERIOUS_WOUNDS, SeriousWound, SeriousWoundKind
from yarnlog.rulesets.yarn.rules.dice import RollOptions, RollSpec
from yarnlog.rulesets.yarn.rules.healing import Activity, Condition, HealingDay, heal_one_day, healing_condition
from yarnlog.rulesets.yarn.rules.hit_points import (
    DEATH_TOKEN,
    DeathOption,
    DeathOutcome,
    HitPointState,
    action_penalty_dice,
    at_deaths_door,
    death_option_cost,
    down_for_the_count,
    face_death,
    messed_up,
    recover,
    take_damage,
)

if TYPE_CHECKING:
    from yarnlog.core.ruleset import CampaignState
    from yarnlog.rulesets.yarn.parts.characters.sheets import Characters, Sheet


class CombatWounds(Protocol):
    """The combat slice as wounds read it: the wounds, and whether a fight is in play."""

    @property
    def wounds(self) -> Wounds: ...
    @property
    def in_play(self) -> object | None: ...


class HoldsWounds(Protocol):
    """The slices of Yarn's state that wounds read (the state composes every part's slice)."""

    @property
    def characters(self) -> Characters: ...
    @property
    def economy(self) -> Economy: ...
    @property
    def combat(self) -> CombatWounds: ...


#: A campaign as wounds see it.
YarnCampaign: TypeAlias = "CampaignState[HoldsWounds]"

BOOK = "Yarn 0.1"

GM_DAMAGE = Rule(
    BOOK,
    "Combat › Gestalt Combat",
    "The GM can go into any level of detail desired, including dishing out damage to individual PCs "
    "that rolled poorly",
)
DAYS_PASS = Rule(
    BOOK,
    "Healing",
    "Whenever time moves forward in a dramatic scenes through a time jump that moves things on to "
    "another day the GM should note this and at a moment that won't interfere with dramatic play "
    "apply the healing rules.",
)


# -- stored facts -----------------------------------------------------------------------------


class SeriousWoundFacts(BaseModel):
    """A serious wound as the GM ruled it (optional "Serious Wounds")."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    description: str = Field(min_length=1)
    kind: SeriousWoundKind
    daily_loss: int = 0

    @model_validator(mode="after")
    def _a_wound(self) -> SeriousWoundFacts:
        try:
            self.wound()
        except InvalidCommand as exc:
            raise ValueError(str(exc)) from None
        return self

    def wound(self) -> SeriousWound:
        return SeriousWound(self.description, self.kind, self.daily_loss)


def serious_wound_facts(referee: Referee, options: Mapping[str, bool],
                        wound: SeriousWound | None) -> SeriousWoundFacts | None:
    """The GM's serious wound, checked, for a payload; only when the campaign uses the optional rule."""
    if wound is None:
        return None
    referee.require(bool(options.get("serious_wounds")), SERIOUS_WOUNDS,
                    "this campaign does not use this optional rule")
    return SeriousWoundFacts(description=wound.description, kind=wound.kind, daily_loss=wound.daily_loss)


# -- state ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Combatant:
    """A character the GM registered to fight without a sheet: hit points and a few words."""

    hit_points: int
    description: str = ""
    supporting: bool = False


@dataclass(frozen=True)
class Wounds:
    """Hit points of everyone who can be hurt, as far as they differ from full health."""

    # Persistent maps: the combatants a long campaign registers grow with it; a fold sets one key.
    registered: PMap[str, Combatant] = field(default_factory=pmap)
    hit_points: PMap[str, HitPointState] = field(default_factory=pmap)
    serious: PMap[str, tuple[SeriousWound, ...]] = field(default_factory=pmap)
    dead: frozenset[str] = frozenset()
    death_options: PMap[str, tuple[DeathOption, ...]] = field(default_factory=pmap)


def pcs(rules: HoldsWounds) -> Mapping[str, Sheet]:
    return rules.characters.pcs


def maximum_hit_points(rules: HoldsWounds, name: str) -> int | None:
    """A character's normal hit points: the GM's registration, else the PC's sheet; None if neither."""
    registered = rules.combat.wounds.registered.get(name)
    if registered is not None:
        return registered.hit_points
    sheet = pcs(rules).get(name)
    return None if sheet is None else int(sheet.hit_points)


def hit_points(rules: HoldsWounds, name: str) -> HitPointState:
    """``name``'s hit points now. ``rules`` is the campaign's Yarn state (the folds have no other)."""
    maximum = maximum_hit_points(rules, name)
    if maximum is None:
        raise InvalidCommand(f"{name} has no hit points: not a PC, nor a combatant registered by the GM")
    stored = rules.combat.wounds.hit_points.get(name)
    if stored is None:
        return HitPointState.unwounded(maximum)
    return _with_maximum(stored, maximum)


def _with_maximum(hp: HitPointState, maximum: int) -> HitPointState:
    """Hit points under a new normal level (e.g. after "Increasing Hit Points"): wounds stay wounds."""
    if hp.maximum == maximum:
        return hp
    last = min(hp.last_recovered, maximum)
    return replace(hp, maximum=maximum, last_recovered=last, current=min(hp.current, last - hp.temporary))


def penalty_dice_from_wounds(campaign: YarnCampaign, character: str) -> int:
    """Penalty dice the character's wounds put on every roll now: one when messed up ("Messed Up").

    For whoever records the character's next roll; 0 for anyone without hit points to speak of.
    """
    rules = campaign.rules
    if maximum_hit_points(rules, character) is None:
        return 0
    return action_penalty_dice(hit_points(rules, character))


def _stored(wounds: Wounds, name: str, hp: HitPointState) -> Wounds:
    table = wounds.hit_points
    if hp == HitPointState.unwounded(hp.maximum):
        return replace(wounds, hit_points=table.discard(name)) if name in table else wounds
    return replace(wounds, hit_points=table.set(name, hp))


def register(wounds: Wounds, name: str, combatant: Combatant) -> Wounds:
    return replace(wounds, registered=wounds.registered.set(name, combatant))


def wounded(wounds: Wounds, rules: HoldsWounds, name: str, points: int, *, temporary: bool = False,
            serious: SeriousWound | None = None) -> Wounds:
    """``wounds`` after ``name`` takes ``points`` of damage (and maybe a serious wound)."""
    if maximum_hit_points(rules, name) is None:
        return wounds  # an event about no one with hit points (forced in): verify reports it
    wounds = _stored(wounds, name, take_damage(hit_points(rules, name), points, temporary=temporary))
    if serious is not None:
        wounds = replace(wounds, serious=wounds.serious.set(name, wounds.serious.get(name, ()) + (serious,)))
    return wounds


def status(hp: HitPointState, dead: bool = False) -> str:
    """One word for the table: fine, hurt, messed up, down, at death's door, dead."""
    if dead:
        return "dead"
    if at_deaths_door(hp):
        return "at death's door"
    if down_for_the_count(hp):
        return "down"
    if messed_up(hp):
        return "messed up"
    return "hurt" if hp.lasting_level < hp.maximum or hp.temporary else "fine"


# -- events -----------------------------------------------------------------------------------


@event("yarn.wounds.damaged")
class DamageTaken(Payload):
    """Damage the GM deals outside an attack roll (gestalt combat, a fall, a blast, a kick)."""

    character: str
    points: int = Field(ge=0)
    temporary: bool = False
    reason: str = Field(min_length=1)
    dice: DiceFacts | None = None
    before: int
    after: int
    serious_wound: SeriousWoundFacts | None = None


@event("yarn.wounds.recovered")
class Recovered(Payload):
    """Hit points back after a fight: halfway from the wound to the last recovered level."""

    character: str
    fraction: str = "1/2"
    reason: str = ""
    before: int
    after: int
    temporary_restored: int = 0

    @field_validator("fraction")
    @classmethod
    def _a_share(cls, text: str) -> str:
        try:
            share = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"a recovery fraction is like 1/2 or 2/3, not {text!r}") from None
        if not 0 <= share <= 1:
            raise ValueError(f"recovery regains between none and all of the loss, not {text}")
        return text


@event("yarn.wounds.healed")
class Healed(Payload):
    """One or more in-game days of long-term healing; ``levels`` is the hit points after each day."""

    character: str
    days: int = Field(ge=1)
    activity: Activity
    critical: bool = False
    gm_loss_per_day: int = Field(default=0, ge=0)
    before: int
    levels: list[int]


@event("yarn.wounds.death_faced")
class DeathFaced(Payload):
    """The decision at the point of death: recover or let go."""

    character: str
    attempts_recovery: bool
    reason_to_live: str = ""
    gm_accepts_reason: bool = False
    medical_attention: bool = False
    outcome: DeathOutcome


@event("yarn.wounds.death_option_spent")
class DeathOptionSpent(Payload):
    """A player spends a drama token on their dead character's last words, vanishing, or sacrifice."""

    character: str
    player: str
    option: DeathOption
    transfers: list[economy.TransferLine]


# -- fold -------------------------------------------------------------------------------------


def _lenient() -> Referee:
    """A referee that refuses nothing: replay folds what was recorded, overrides included."""
    return Referee.collecting()


def heal_days(referee: Referee, hp: HitPointState, serious: tuple[SeriousWound, ...], payload: Healed
              ) -> tuple[HitPointState, tuple[SeriousWound, ...], list[int]]:
    """Hit points after each day of ``payload``; a day of medical care treats the serious wounds.

    "until proper medical attention is applied": once treated, a serious wound no longer slows
    healing nor takes hit points (its lasting impairment is the GM's to narrate).
    """
    levels = []
    for _ in range(payload.days):
        day = HealingDay(payload.activity, critical=payload.critical, gm_loss=payload.gm_loss_per_day,
                         serious_wounds=serious)
        hp = heal_one_day(referee, hp, day)
        if payload.activity is Activity.MEDICAL_CARE:
            serious = ()
        levels.append(hp.current)
    return hp, serious, levels


FOLDS = folds(DamageTaken, Recovered, Healed, DeathFaced, DeathOptionSpent)


def evolve(wounds: Wounds, recorded: Recorded, rules: HoldsWounds) -> Wounds:
    """Fold one event into the wounds slice; ``rules`` is the Yarn state before it. Never refuses."""
    p = recorded.payload
    if isinstance(p, (Recovered, Healed)) and maximum_hit_points(rules, p.character) is None:
        return wounds  # forced in about no one with hit points: verify reports it
    if isinstance(p, DamageTaken):
        return wounded(wounds, rules, p.character, p.points, temporary=p.temporary,
                       serious=p.serious_wound.wound() if p.serious_wound else None)
    if isinstance(p, Recovered):
        return _stored(wounds, p.character, recover(hit_points(rules, p.character), fraction=Fraction(p.fraction)))
    if isinstance(p, Healed):
        hp, serious, _ = heal_days(_lenient(), hit_points(rules, p.character), wounds.serious.get(p.character, ()), p)
        wounds = replace(wounds, serious=wounds.serious.set(p.character, serious))
        return _stored(wounds, p.character, hp)
    if isinstance(p, DeathFaced) and p.outcome is DeathOutcome.DIES:
        return replace(wounds, dead=wounds.dead | {p.character})
    if isinstance(p, DeathOptionSpent):
        taken = wounds.death_options.get(p.character, ()) + (p.option,)
        return replace(wounds, death_options=wounds.death_options.set(p.character, taken))
    return wounds


# -- commands ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TakeDamage:
    """The GM deals damage: ``points``, or ``dice`` rolled (``faces`` entered, else the tool rolls)."""

    character: str
    reason: str
    points: int | None = None
    dice: int | None = None
    faces: tuple[int, ...] | None = None
    temporary: bool = False
    serious_wound: SeriousWound | None = None
    rolled: Mapping[str, Any] = field(default_factory=dict, compare=False)  # the shell's dice


@dataclass(frozen=True)
class Recover:
    """The GM sees recovery as reasonable: back ``fraction`` of the way (halfway by default)."""

    character: str
    fraction: Fraction = Fraction(1, 2)
    reason: str = ""


@dataclass(frozen=True)
class Heal:
    """``days`` in-game days of one activity. ``condition`` may be given to check it, or to say
    "critical" (the GM's option); mobile and bed-ridden follow from hit points each day."""

    character: str
    days: int
    activity: Activity
    condition: Condition | None = None
    gm_loss_per_day: int = 0


@dataclass(frozen=True)
class FaceDeath:
    character: str
    attempts_recovery: bool
    reason_to_live: str = ""
    gm_accepts_reason: bool = False
    medical_attention: bool = False


@dataclass(frozen=True)
class SpendDeathOption:
    character: str
    option: DeathOption


def _living(rules: HoldsWounds, name: str) -> HitPointState:
    hp = hit_points(rules, name)
    invalid(name not in rules.combat.wounds.dead, f"{name} is dead")
    return hp


def decide(command: object, campaign: YarnCampaign, referee: Referee) -> list[Payload] | None:
    """Each command's payload is built from the facts typed at the table (nonsense refused here),
    then its validator checks the rules and derives the rest: the one check ``verify`` runs too."""
    if isinstance(command, TakeDamage):
        return [validate_damaged(_damage(command, campaign), campaign, referee)]
    if isinstance(command, Recover):
        hp = _living(campaign.rules, command.character)
        invalid(
            0 <= command.fraction <= 1, f"recovery regains between none and all of the loss, not {command.fraction}"
        )
        recovery = Recovered(character=command.character, fraction=str(command.fraction), reason=command.reason,
                            before=hp.current, after=hp.current)
        return [validate_recovered(recovery, campaign, referee)]
    if isinstance(command, Heal):
        return [validate_healed(_heal(command, campaign), campaign, referee)]
    if isinstance(command, FaceDeath):
        _living(campaign.rules, command.character)
        facing = DeathFaced(character=command.character, attempts_recovery=command.attempts_recovery,
                             reason_to_live=command.reason_to_live, gm_accepts_reason=command.gm_accepts_reason,
                             medical_attention=command.medical_attention, outcome=DeathOutcome.DIES)
        return [validate_death_faced(facing, campaign, referee)]
    if isinstance(command, SpendDeathOption):
        sheet = present(pcs(campaign.rules).get(command.character), f"{command.character} is not a player character")
        spending = DeathOptionSpent(character=command.character, player=sheet.player, option=command.option,
                                   transfers=[])
        return [validate_death_option(spending, campaign, referee)]
    return None


def _damage(command: TakeDamage, campaign: YarnCampaign) -> DamageTaken:
    """The damage as entered: the points, or the dice and their faces (rolled once, at the edge)."""
    hp = _living(campaign.rules, command.character)
    invalid(bool(command.reason.strip()), "the GM's damage needs a reason")
    one_of = "give the points of damage or the dice to roll, not both"
    invalid((command.points is None) != (command.dice is None), one_of)
    invalid(command.faces is None or command.dice is not None, "faces are entered for dice")
    dice = None
    points = command.points
    if command.dice is not None:
        options = RollOptions.from_campaign(campaign.table.options)
        dice = take_dice(RollSpec(command.dice), command.faces, options, rolled=command.rolled, name="damage")
        points = dice.total
    points = present(points, one_of)  # the dice's total, else the points given
    invalid(points >= 0, "damage is not negative")
    wound = command.serious_wound
    serious = None if wound is None else SeriousWoundFacts(description=wound.description, kind=wound.kind,
                                                            daily_loss=wound.daily_loss)
    return DamageTaken(character=command.character, points=points, temporary=command.temporary,
                       reason=command.reason, dice=dice, before=hp.current, after=hp.current, serious_wound=serious)


def _heal(command: Heal, campaign: YarnCampaign) -> Healed:
    """Days of healing as entered; the condition, when the GM names one, must be the character's."""
    rules = campaign.rules
    hp = _living(rules, command.character)
    invalid(rules.combat.in_play is None, "a combat is in play: no day passes until it ends")
    invalid(command.days >= 1, "heal for one day or more")
    invalid(command.gm_loss_per_day >= 0, "hit points lost are counted as a positive number")
    critical = command.condition is Condition.CRITICAL
    if command.condition is not None and not critical:
        actual = healing_condition(hp)
        invalid(actual is command.condition,
                f"{command.character} has {hp.current} hit points: {actual}, not {command.condition}")
    return Healed(character=command.character, days=command.days, activity=command.activity, critical=critical,
                  gm_loss_per_day=command.gm_loss_per_day, before=hp.current, levels=[])


def _death_option(command: SpendDeathOption, campaign: YarnCampaign, referee: Referee) -> DeathOptionSpent:
    rules = campaign.rules
    sheet = present(pcs(rules).get(command.character), f"{command.character} is not a player character")
    wounds = rules.combat.wounds
    referee.require(command.character in wounds.dead, DEATH_TOKEN, f"{command.character} has not died")
    invalid(command.option not in wounds.death_options.get(command.character, ()),
            f"{sheet.player} already spent a token to {command.option}")
    transfers = death_option_cost(referee, rules.economy.tokens, player=sheet.player, option=command.option)
    return DeathOptionSpent(character=command.character, player=sheet.player, option=command.option,
                            transfers=economy.lines(transfers))


# -- audit ------------------------------------------------------------------------------------


def _wounded(p: DamageTaken | Recovered | Healed | DeathFaced | DeathOptionSpent, campaign: YarnCampaign
             ) -> HitPointState:
    """The hit points of a wounds event's character, who must have some (and, but to spend a
    death option, be alive)."""
    rules = campaign.rules
    invalid(maximum_hit_points(rules, p.character) is not None,
            f"{p.character} has no hit points: not a PC, nor a registered combatant")
    if not isinstance(p, DeathOptionSpent):
        invalid(p.character not in rules.combat.wounds.dead, f"{p.character} is dead")
    return hit_points(rules, p.character)


def validate_damaged(p: DamageTaken, campaign: YarnCampaign, referee: Referee) -> DamageTaken:
    """Damage taken: its dice add up, the hit points go from where they were down by the points."""
    hp = _wounded(p, campaign)
    invalid(bool(p.reason.strip()), "the GM's damage needs a reason")
    serious_wound_facts(referee, campaign.table.options, p.serious_wound.wound() if p.serious_wound else None)
    points = p.points
    dice = p.dice
    if dice is not None:
        options = RollOptions.from_campaign(campaign.table.options)
        dice = take_dice(RollSpec(dice.dice), dice.faces, options, top_off=dice.top_off).model_copy(
            update={"source": dice.source})
        points = dice.total
    invalid(points >= 0, "damage is not negative")
    after = take_damage(hp, points, temporary=p.temporary)
    return p.model_copy(update={"points": points, "dice": dice, "before": hp.current, "after": after.current})


def validate_recovered(p: Recovered, campaign: YarnCampaign, referee: Referee) -> Recovered:
    """A recovery regains a fraction of the loss since the last one."""
    hp = _wounded(p, campaign)
    fraction = Fraction(p.fraction)
    invalid(0 <= fraction <= 1, f"recovery regains between none and all of the loss, not {fraction}")
    invalid(hp.lasting_level < hp.last_recovered or hp.temporary > 0,
            f"{p.character} has nothing to recover: no damage since the last recovery")
    after = recover(hp, fraction=fraction)
    return p.model_copy(update={"before": hp.current, "after": after.current, "temporary_restored": hp.temporary})


def validate_healed(p: Healed, campaign: YarnCampaign, referee: Referee) -> Healed:
    """Days of healing, outside combat, each day's level as the healing rules give it."""
    hp = _wounded(p, campaign)
    rules = campaign.rules
    referee.require(rules.combat.in_play is None, DAYS_PASS, "days of healing recorded while a combat is in play")
    invalid(p.days >= 1, "heal for one day or more")
    invalid(p.gm_loss_per_day >= 0, "hit points lost are counted as a positive number")
    _, _, levels = heal_days(referee, hp, rules.combat.wounds.serious.get(p.character, ()), p)
    return p.model_copy(update={"before": hp.current, "levels": levels})


def validate_death_faced(p: DeathFaced, campaign: YarnCampaign, referee: Referee) -> DeathFaced:
    """Facing death: the outcome the rules give for the hit points and the choices made."""
    hp = _wounded(p, campaign)
    outcome = face_death(referee, hp, attempts_recovery=p.attempts_recovery,
                         gm_accepts_reason_to_live=p.gm_accepts_reason, medical_attention=p.medical_attention)
    invalid(not p.attempts_recovery or bool(p.reason_to_live.strip()),
            "to attempt recovery, tell the GM your reason to live")
    return p.model_copy(update={"outcome": outcome})


def validate_death_option(p: DeathOptionSpent, campaign: YarnCampaign, referee: Referee) -> DeathOptionSpent:
    """A dead PC's player spends a drama token on one of the death options, each once."""
    _wounded(p, campaign)
    return _death_option(SpendDeathOption(p.character, p.option), campaign, referee)


VALIDATORS: Mapping[type, Validator] = {
    DamageTaken: validate_damaged,
    Recovered: validate_recovered,
    Healed: validate_healed,
    DeathFaced: validate_death_faced,
    DeathOptionSpent: validate_death_option,
}
