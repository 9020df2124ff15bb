"""Fringe powers and spells in the journal: psychic pools, shots, learning powers and spells.

Commands and deciders of the ``powers`` part for "Appendix: Fringe Powers", "Appendix: Magic" and
the psychic pool of "Creating Characters" (the rules are :mod:`.fringe_powers` and :mod:`.magic`;
the events and the slice are :mod:`.power_records`). Rolls that
take shots (using, pushing, resisting a power) and rolls resisting a spell are ``yarn.roll.made``
events built with :mod:`.procedure`, their shots in ``psychic``; this part folds them into the
pools. Experience dice given up here are ``experience_spent`` of the event, which the characters
part takes from the sheet's pool for good.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from yarnlog.core.composition import Part
from yarnlog.core.events import Payload
from yarnlog.core.frozen import replace
from yarnlog.core.referee import InvalidCommand, Referee, invalid, present
from yarnlog.rulesets.yarn.parts.procedure import part as procedure
from yarnlog.rulesets.yarn.parts.procedure.dice_facts import take_dice
from yarnlog.rulesets.yarn.parts.procedure.part import Validator, redecided, roll_command
from yarnlog.rulesets.yarn.parts.procedure.roll_making import (
    Roller,
    hands_dice,
    participant_for,
    record_roll,
    roll_spec,
    roller_of,
)
from yarnlog.rulesets.yarn.parts.procedure.roll_records import (
    Hands,
    MakeRoll,
    RollMade,
    ShotUse,
    SpellLevel,
    TraitUse,
    payload_as,
)
from yarnlog.rulesets.yarn.rules import fringe_powers, magic
from yarnlog.rulesets.yarn.rules.dice import RollSpec
from yarnlog.rulesets.yarn.rules.experience import Training
from yarnlog.rulesets.yarn.rules.fringe_powers import PUSH_SHOTS, Resistance
from yarnlog.rulesets.yarn.state import YarnCampaign

if TYPE_CHECKING:
    from yarnlog.rulesets.yarn.parts.characters.sheets import Sheet

from yarnlog.rulesets.yarn.parts.powers.power_records import (
    FOLDS,
    POOL,
    FringePowerStudied,
    Pool,
    PowerDice,
    Powers,
    PowersBuilder,
    PsychicPoolGained,
    ShotsBought,
    ShotsRecovered,
    SpellCast,
    SpellStudied,
    evolve,
)

# -- commands -------------------------------------------------------------------------------


@dataclass(frozen=True)
class GainPsychicPool:
    """The GM gives a character a psychic pool for ``powers`` (a PC's traits; a GMC's with ``gmc_dice``).

    ``take_three``: 3 shots instead of rolling; otherwise ``faces`` (one die per power at most) or
    one die per power rolled by the tool.
    """

    character: str
    powers: tuple[str, ...]
    gmc_dice: Mapping[str, int] = field(default_factory=dict)
    take_three: bool = False
    faces: tuple[int, ...] | None = None
    pool_name: str = POOL
    rolled: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)  # the shell's dice


@dataclass(frozen=True)
class UsePower:
    """Use a fringe power (``roll.hands.trait``) for 1 shot, or push it for 2."""

    roll: MakeRoll
    push: bool = False


@dataclass(frozen=True)
class ResistPower:
    """Spend a shot to resist a psychic power; ``roll.hands`` is the ordinary resistance (two dice by default)."""

    roll: MakeRoll
    countering: str | None = None
    knows: bool = True


@dataclass(frozen=True)
class ResistSpell:
    """A target's roll against the spell cast at event ``cast``."""

    roll: MakeRoll
    cast: int


@dataclass(frozen=True)
class RecoverShots:
    """``hours`` and ``rate`` as numbers, or as the table says them ("8", "1.5", "1/2")."""

    character: str
    hours: Fraction | str
    rate: Fraction | str = Fraction(1)


@dataclass(frozen=True)
class BuyShots:
    character: str
    shots: int


@dataclass(frozen=True)
class LearnFringePower:
    """Close a month of study: ``dice`` experience dice given up and rolled (usually by the GM, in secret).

    ``success_face`` is the GM's ruling on the odds (6 by the book). The optional psi-mute die is
    rolled at the first attempt only: ``psi_mute_roll`` entered, or ``roll_psi_mute`` for the tool.
    """

    character: str
    power: str
    dice: int
    faces: tuple[int, ...] | None = None
    months: float = 1
    full_time: bool = True
    teacher: bool = True
    success_face: int = fringe_powers.LEARNING_SUCCESS_FACE
    psi_mute_roll: int | None = None
    roll_psi_mute: bool = False
    rolled: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)  # the shell's dice


@dataclass(frozen=True)
class StudySpell:
    """Close a week of study of ``spell``; ``level`` is the GM's (a sample spell's by default)."""

    character: str
    spell: str
    level: int | None = None
    hours_per_day: float = magic.STUDY_HOURS_PER_DAY
    faces: tuple[int, ...] | None = None
    rolled: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)  # the shell's dice


@dataclass(frozen=True)
class CastSpell:
    """Cast a spell: a PC's learned spell, or a GMC's at the ``level`` the GM gives."""

    character: str
    spell: str
    level: int | None = None
    purpose: str = ""


# -- deciding -------------------------------------------------------------------------------


def _sheet(campaign: YarnCampaign, character: str) -> Sheet | None:
    return campaign.rules.characters.pcs.get(character)


def _pc(campaign: YarnCampaign, character: str) -> Sheet:
    message = f"{character} is not a player character in play: only PCs have an experience pool to give dice from"
    sheet = present(_sheet(campaign, character), message)
    invalid(sheet.active, message)
    return sheet


def _pool(campaign: YarnCampaign, character: str) -> Pool:
    return present(campaign.rules.powers.pools.get(character), f"{character} has no psychic pool")


def _named(names: Iterable[str], name: str, what: str) -> str:
    found = next((n for n in names if n.casefold() == name.strip().casefold()), None)
    return present(found, f"{name!r} is not {what}")


def power_dice(campaign: YarnCampaign, character: str, power: str) -> int:
    """A fringe power's dice: its trait's score on the sheet, or the score it was learned at."""
    dice = _pool(campaign, character).powers[power]
    if dice is not None:
        return dice
    return present(_sheet(campaign, character), f"{character} has no sheet to give {power} its dice").dice(power)


def _decide_pool(command: GainPsychicPool, campaign: YarnCampaign, referee: Referee) -> list[Payload]:
    invalid(command.character not in campaign.rules.powers.pools, f"{command.character} already has a psychic pool")
    invalid(bool(command.powers), "a psychic pool comes with at least one fringe power")
    sheet = _sheet(campaign, command.character)
    if sheet is not None:
        invalid(not command.gmc_dice, f"{command.character}'s powers take their dice from the sheet")
        powers = [PowerDice(name=_named(sheet.traits, p, f"a trait of {command.character}")) for p in command.powers]
    else:
        invalid(all(p in command.gmc_dice for p in command.powers), "give each of a GMC's powers its dice")
        powers = [PowerDice(name=p, dice=command.gmc_dice[p]) for p in command.powers]
    invalid(len({p.name for p in powers}) == len(powers), "each power is named once")
    rolls, source = None, "three shots"
    if not command.take_three:
        count = len(command.faces) if command.faces is not None else len(powers)
        facts = take_dice(RollSpec(count), command.faces, rolled=command.rolled, name="psychic pool")
        rolls, source = tuple(facts.faces), facts.source
    pool = fringe_powers.starting_psychic_pool(referee, powers=len(powers), rolls=rolls)
    invalid(bool(command.pool_name.strip()), "name the pool (psychic, ch'i, mana...)")
    return [PsychicPoolGained(character=command.character, pool_name=command.pool_name.strip(), powers=powers,
                              rolls=list(rolls or ()), source=source, shots=pool.capacity)]


def _roller(campaign: YarnCampaign, roll: MakeRoll, trait: str, dice: int) -> Roller:
    character = roll.hands.character
    who = participant_for(campaign, roll.participant, [character])
    return Roller(who, character, _sheet(campaign, character) is None, trait, TraitUse.TRAIT, dice)


def _decide_use(command: UsePower, campaign: YarnCampaign, referee: Referee) -> list[Payload]:
    hands = command.roll.hands
    unnamed = "name the fringe power used; its dice are the power's"
    trait = present(hands.trait, unnamed)
    invalid(hands.use in (None, TraitUse.TRAIT) and hands.dice is None, unnamed)
    pool = _pool(campaign, hands.character)
    power = _named(pool.powers, trait, f"a fringe power of {hands.character}")
    fringe_powers.use_fringe_power(referee, pool.psychic_pool(), pushed=command.push)
    dice = power_dice(campaign, hands.character, power)
    pushed = dice if command.push else 0  # "roll twice the normal number of dice, counting only the better half"
    psychic = ShotUse(kind="push" if command.push else "power", power=power,
                      shots=PUSH_SHOTS if command.push else 1, bonus_dice=pushed)
    spec = roll_spec(RollSpec(dice, bonus=pushed), command.roll)
    return [record_roll(campaign, referee, _roller(campaign, command.roll, power, dice), spec, command.roll,
                        psychic=psychic)]


def _decide_resist(command: ResistPower, campaign: YarnCampaign, referee: Referee) -> list[Payload]:
    roll = command.roll
    pool = _pool(campaign, roll.hands.character)
    base = hands_dice(campaign, roll.hands)
    dice = {name: power_dice(campaign, roll.hands.character, name) for name in pool.powers}
    best = max(dice, key=lambda name: dice[name])
    countering = _named(pool.powers, command.countering, "one of his powers") if command.countering else None
    resistance, _ = fringe_powers.psychic_resistance(
        referee, pool.psychic_pool(), knows_power_used=command.knows, best_power_dice=dice[best],
        countering_power_dice=dice[countering] if countering else None,
        base=Resistance(base.spec.dice, base.spec.bonus),
    )
    psychic = ShotUse(kind="resist", power=countering or best, shots=1,
                      bonus_dice=resistance.bonus_dice - base.spec.bonus, extra_dice=resistance.dice - base.spec.dice)
    roller, _ = roller_of(campaign, roll)
    spec = roll_spec(RollSpec(resistance.dice, bonus=resistance.bonus_dice, penalty=base.spec.penalty), roll)
    return [record_roll(campaign, referee, roller, spec, roll, psychic=psychic)]


def _decide_resist_spell(command: ResistSpell, campaign: YarnCampaign, referee: Referee) -> list[Payload]:
    cast = payload_as(present(campaign.rules.powers.casts.get(command.cast),
                              f"event {command.cast} is not the casting of a spell"), SpellCast)
    invalid(cast.character != command.roll.hands.character, "a caster does not resist his own spell")
    invalid(command.roll.against is None or isinstance(command.roll.against, SpellLevel),
            "a spell is resisted against its level, nothing else")
    roll = replace(command.roll, against=SpellLevel(cast.level, cast.spell, command.cast))
    roller, base = roller_of(campaign, roll)
    return [record_roll(campaign, referee, roller, roll_spec(base, roll), roll)]


def _fraction(value: Fraction | float | str) -> Fraction:
    try:
        return Fraction(value)
    except (ValueError, ZeroDivisionError, TypeError):
        raise InvalidCommand(f"{value!r} is not a number (hours and rates are like 8, 1.5 or 1/2)") from None


def _decide_recover(command: RecoverShots, campaign: YarnCampaign, referee: Referee) -> list[Payload]:
    pool = _pool(campaign, command.character)
    hours, rate = _fraction(command.hours), _fraction(command.rate)
    after = fringe_powers.recover_shots(pool.psychic_pool(), hours, rate)
    return [ShotsRecovered(character=command.character, hours=str(hours), rate=str(rate),
                           shots_before=pool.shots, shots=after.shots)]


def _decide_buy(command: BuyShots, campaign: YarnCampaign, referee: Referee) -> list[Payload]:
    sheet = _pc(campaign, command.character)
    pool = _pool(campaign, command.character)
    after, cost = fringe_powers.buy_shots(referee, pool.psychic_pool(), experience_pool=sheet.experience_pool,
                                          shots=command.shots)
    return [ShotsBought(character=command.character, shots=command.shots, experience_spent=cost,
                        capacity=after.capacity)]


def _psi_mute(command: LearnFringePower, powers: Powers) -> tuple[int | None, bool]:
    """The secret psi-mute die, rolled at a character's first attempt to learn a fringe power."""
    first = command.character not in powers.tried
    asked = command.psi_mute_roll is not None or command.roll_psi_mute
    invalid(first or not asked, "the psi-mute die is rolled at the first attempt to learn a fringe power only")
    if not asked:
        return None, powers.psi_mute.get(command.character, False)
    face = command.psi_mute_roll
    if face is None:
        face = take_dice(RollSpec(1), None, rolled=command.rolled, name="psi-mute").faces[0]
    return face, fringe_powers.is_psi_mute(face)


def _decide_learn(command: LearnFringePower, campaign: YarnCampaign, referee: Referee) -> list[Payload]:
    sheet = _pc(campaign, command.character)
    powers = campaign.rules.powers
    pool = powers.pools.get(command.character)
    power = command.power.strip()
    invalid(bool(power), "name the fringe power studied")
    known = set(pool.powers if pool else ()) | set(sheet.traits)
    invalid(power.casefold() not in {k.casefold() for k in known}, f"{command.character} already has {power}")
    invalid(command.dice >= 1, "give up at least one experience die")
    psi_mute_roll, psi_mute = _psi_mute(command, powers)
    facts = take_dice(RollSpec(command.dice), command.faces, rolled=command.rolled, name="learning")
    study = fringe_powers.learn_fringe_power(
        referee, experience_pool=sheet.experience_pool, faces=facts.faces,
        psychic_pool=pool.psychic_pool() if pool else None,
        study=Training(command.months, command.full_time), knowledgeable_teacher=command.teacher,
        psi_mute=psi_mute, success_face=command.success_face,
    )
    return [FringePowerStudied(
        character=command.character, power=power, months=command.months, full_time=command.full_time,
        teacher=command.teacher, faces=facts.faces, source=facts.source, success_face=command.success_face,
        psi_mute_roll=psi_mute_roll, psi_mute=psi_mute, learned=study.learned, dice=study.score,
        shots=study.psychic_pool.capacity if study.learned and study.psychic_pool else None,
        experience_spent=study.dice_spent,
    )]


def spell_level(campaign: YarnCampaign, character: str, spell: str, level: int | None) -> int:
    """The level studied: the one studied before, the GM's number, or a sample spell's."""
    before = campaign.rules.powers.spells.get((character, spell))
    if before is not None:
        invalid(level in (None, before.level), f"{spell} was studied at level {before.level}")
        return before.level
    if level is not None:
        return level
    return magic.sample_spell(spell).level


def _decide_study(command: StudySpell, campaign: YarnCampaign, referee: Referee) -> list[Payload]:
    sheet = _pc(campaign, command.character)
    spell = command.spell.strip()
    invalid(bool(spell), "name the spell studied")
    progress = campaign.rules.powers.spells.get((command.character, spell))
    invalid(progress is None or not progress.learned, f"{command.character} has learned {spell} already")
    level = spell_level(campaign, command.character, spell, command.level)
    before = progress.dice_rolled if progress else 0
    facts = take_dice(RollSpec(before + 1), command.faces, rolled=command.rolled, name="study")
    pool = campaign.rules.powers.pools.get(command.character)
    study = magic.study_spell(
        referee, level=level, dice_rolled_before=before, experience_pool=sheet.experience_pool,
        hours_per_day=command.hours_per_day, faces=facts.faces, psychic_pool=pool.psychic_pool() if pool else None,
    )
    gained = study.psychic_pool if study.learned and pool is None else None  # a first spell brings a pool
    return [SpellStudied(
        character=command.character, spell=spell, level=level, hours_per_day=command.hours_per_day,
        week=study.dice_rolled, faces=facts.faces, source=facts.source, total=facts.total, learned=study.learned,
        botched=study.botched, experience_spent=study.dice_spent,
        shots=gained.capacity if gained else None,
    )]


def _decide_cast(command: CastSpell, campaign: YarnCampaign, referee: Referee) -> list[Payload]:
    powers = campaign.rules.powers
    pool = powers.pools.get(command.character)
    if _sheet(campaign, command.character) is not None:
        unlearned = f"{command.character} has not learned {command.spell}"
        progress = present(powers.spells.get((command.character, command.spell.strip())), unlearned)
        invalid(progress.learned, unlearned)
        invalid(command.level in (None, progress.level), f"{command.spell} is a level {progress.level} spell")
        level = progress.level
    else:
        level = present(command.level, f"give the level of {command.character}'s spell (the GM's to say)")
    shots = 0
    if pool is not None or _sheet(campaign, command.character) is not None:
        magic.cast_spell(referee, _pool(campaign, command.character).psychic_pool())
        shots = 1
    # A GMC with no recorded pool casts at the GM's word: the book leaves GMCs' shots to her.
    return [SpellCast(character=command.character, spell=command.spell.strip(), level=level,
                      purpose=command.purpose.strip(), shots=shots)]


DECIDERS: Mapping[type, Callable[[Any, Any, Referee], list[Payload]]] = {
    GainPsychicPool: _decide_pool,
    UsePower: _decide_use,
    ResistPower: _decide_resist,
    ResistSpell: _decide_resist_spell,
    RecoverShots: _decide_recover,
    BuyShots: _decide_buy,
    LearnFringePower: _decide_learn,
    StudySpell: _decide_study,
    CastSpell: _decide_cast,
}


def decide(command: object, campaign: YarnCampaign, referee: Referee) -> list[Payload] | None:
    decider = DECIDERS.get(type(command))
    return decider(command, campaign, referee) if decider else None


def _command_of(campaign: YarnCampaign, p: Payload) -> Any:
    """The command a recorded event came from, its dice entered (for :func:`.procedure.part.redecided`)."""
    if isinstance(p, RollMade):
        if p.psychic is not None and p.psychic.kind in ("power", "push"):
            return UsePower(roll_command(p, Hands(p.character, p.trait)), push=p.psychic.kind == "push")
        if p.psychic is not None:
            return ResistPower(roll_command(p), countering=p.psychic.power if p.psychic.extra_dice else None)
        if p.against is not None and p.against.kind == "spell":
            cast = present(p.against.roll, "a spell resisted is recorded with its casting")
            return ResistSpell(roll_command(p), cast=cast)
        return None
    if isinstance(p, PsychicPoolGained):
        gmc = _sheet(campaign, p.character) is None
        return GainPsychicPool(p.character, tuple(x.name for x in p.powers),
                               {x.name: present(x.dice, f"a GMC's power {x.name} is recorded with its dice")
                                for x in p.powers} if gmc else {},
                               take_three=p.source == "three shots", faces=tuple(p.rolls) or None,
                               pool_name=p.pool_name)
    if isinstance(p, ShotsRecovered):
        return RecoverShots(p.character, _fraction(p.hours), _fraction(p.rate))
    if isinstance(p, ShotsBought):
        return BuyShots(p.character, p.shots)
    if isinstance(p, FringePowerStudied):
        return LearnFringePower(p.character, p.power, len(p.faces), tuple(p.faces), p.months, p.full_time, p.teacher,
                                p.success_face, p.psi_mute_roll)
    if isinstance(p, SpellStudied):
        return StudySpell(p.character, p.spell, p.level, p.hours_per_day, tuple(p.faces))
    if isinstance(p, SpellCast):
        return CastSpell(p.character, p.spell, p.level, p.purpose)
    return None


def _roll_command(campaign: YarnCampaign, p: RollMade) -> Any:
    """Every recorded roll's command: with powers or spells this part's, else the procedure part's."""
    return _command_of(campaign, p) or procedure.plain_roll_command(campaign, p)


def _decide_roll(command: object, campaign: YarnCampaign, referee: Referee) -> list[Payload] | None:
    return decide(command, campaign, referee) or procedure.decide(command, campaign, referee)


VALIDATORS: Mapping[type, Validator] = {
    RollMade: redecided(_roll_command, _decide_roll),
    **{t: redecided(_command_of, decide) for t in (PsychicPoolGained, ShotsRecovered, ShotsBought,
                                                   FringePowerStudied, SpellStudied, SpellCast)},
}


PART = Part(name="powers", initial=Powers, evolve=evolve, folds=FOLDS, decide=decide, validators=VALIDATORS,
            thaw=PowersBuilder)


# -- projections ----------------------------------------------------------------------------


def psychic_data(campaign: YarnCampaign, character: str | None = None, *, gm_view: bool = True) -> list[dict[str, Any]]:
    """Each pool: shots left of its capacity, the powers it fuels with their dice, the spells known.

    The psi-mute die is the GM's secret: shown only in her view.
    """
    powers = campaign.rules.powers
    names = sorted(set(powers.pools) | {c for c, _ in powers.spells} | (set(powers.psi_mute) if gm_view else set()))
    rows: list[dict[str, Any]] = []
    for name in names:
        if character is not None and name != character:
            continue
        pool = powers.pools.get(name)
        row: dict[str, Any] = {
            "character": name,
            "pool": pool.name if pool else None,
            "shots": pool.shots if pool else 0,
            "capacity": pool.capacity if pool else 0,
            "powers": {power: power_dice(campaign, name, power) for power in pool.powers} if pool else {},
            "spells": [{"spell": spell, "level": s.level, "learned": s.learned, "dice_rolled": s.dice_rolled}
                       for (who, spell), s in powers.spells.items() if who == name],
        }
        if gm_view and name in powers.psi_mute:
            row["psi_mute"] = powers.psi_mute[name]
        rows.append(row)
    return rows
