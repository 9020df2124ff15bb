"""Making a roll in the journal: Yarn 0.1 "Procedural Scenes", "Mechanics" and "Basic Mechanics", the
experience die of "Your Experience Pool" and the appendix's "Optional Rules for Procedural Scenes".

Decides which rules of the pure modules (:mod:`.dice`, :mod:`.odds`, :mod:`.experience`) apply to a roll
and records it. Other parts build rolls with :func:`hands_dice`, :func:`roll_spec` and
:func:`record_roll`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from yarnlog.core.events import Payload
from yarnlog.core.frozen import replace
from yarnlog.core.referee import Referee, Rule, invalid, present
from yarnlog.rulesets.yarn.parts.characters.experience_awards import experience_dice_used
from yarnlog.rulesets.yarn.parts.combat.wounds import penalty_dice_from_wounds
from yarnlog.rulesets.yarn.parts.procedure.dice_facts import take_dice
from yarnlog.rulesets.yarn.parts.procedure.roll_records import (
    EVERYONE,
    LACKING_TECHNICAL_DICE,
    Against,
    AgainstSpec,
    BreakFacts,
    CombineDice,
    Factor,
    Hands,
    Helper,
    InertForce,
    MakeRoll,
    PriorOdds,
    ReadRoll,
    RollMade,
    RollRead,
    ShotUse,
    SpellLevel,
    TraitUse,
)
from yarnlog.rulesets.yarn.rules import dice, group_efforts, odds, personal_consequences
from yarnlog.rulesets.yarn.rules.dice import BOOK, RollOptions, RollSpec
from yarnlog.rulesets.yarn.rules.experience import JUSTIFY_USE, use_experience_dice
from yarnlog.rulesets.yarn.rules.fringe_powers import USE_SHOT
from yarnlog.rulesets.yarn.state import YarnCampaign

if TYPE_CHECKING:
    from yarnlog.rulesets.yarn.parts.characters.sheets import Sheet, SheetTrait

IN_A_SCENE = Rule(
    BOOK,
    "Procedural Scenes",
    "In procedural scenes, characters pursue practical, external goals. [...] If any participant "
    "objects, you must play out a procedural to see if your pursuit of a practical goal succeeds.",
)


TWO_OR_MORE = Rule(
    BOOK,
    "Group Efforts",
    "When working together, PCs can improve (or sometimes decrease) their chances of success. "
    "Depending on how well a given task can be accomplished by more than one person, the GM can "
    "call for one of the following resolution systems.",
)


# -- deciding a roll ------------------------------------------------------------------------


@dataclass(frozen=True)
class Roller:
    """Who rolls, for whom, and the trait behind the dice: the parts of a roll that are not dice."""

    participant: str
    character: str
    gmc: bool
    trait: str | None
    trait_use: TraitUse
    trait_dice: int


def options_of(campaign: YarnCampaign) -> RollOptions:
    return RollOptions.from_campaign(campaign.table.options)


def pcs_of(campaign: YarnCampaign) -> dict[str, Sheet]:
    """The campaign's player characters by name."""
    return campaign.rules.characters.pcs


def participant_for(campaign: YarnCampaign, participant: str | None, characters: Sequence[str]) -> str:
    """Who records the roll: a PC's player or a GM; only a GM rolls for GMCs ("that made by the GM")."""
    table, pcs = campaign.table, pcs_of(campaign)
    players = {pcs[c].player for c in characters if c in pcs}
    who = participant or (next(iter(players)) if len(players) == 1 else table.gm)
    invalid(table.knows(who) and who not in table.departed, f"{who} is not at the table")
    if table.is_gm(who):
        return who
    invalid(who in players, f"{who} does not roll for {', '.join(characters)}: the character's player or the GM does")
    return who


def _sheet_trait(sheet: Sheet, trait: str | None) -> SheetTrait | None:
    if trait is None:
        return None
    return next((t for name, t in sheet.traits.items() if name.casefold() == trait.strip().casefold()), None)


@dataclass(frozen=True)
class TraitDice:
    """The dice a character's trait gives, before the GM's bonus and penalty dice."""

    spec: RollSpec
    trait: str | None  # as written on the sheet
    use: TraitUse
    dice: int  # the trait's score (two with no trait, none for a lacking technical trait)
    gmc: bool

    def roller(self, participant: str, character: str) -> Roller:
        return Roller(participant, character, self.gmc, self.trait, self.use, self.dice)


def hands_dice(campaign: YarnCampaign, hands: Hands) -> TraitDice:
    """The dice a character rolls before the GM's bonus and penalty dice ("How Many Dice Do You Roll?").

    A PC names a trait she lacks only to roll it with no trait (two dice) or as a technical trait
    (no dice); a GMC rolls the dice the GM says.
    """
    use = hands.use or (TraitUse.TRAIT if hands.trait or hands.dice is not None else TraitUse.NO_TRAIT)
    trait = hands.trait.strip() if hands.trait else None
    if use is TraitUse.HAND_OF_FATE:
        invalid(trait is None and hands.dice is None, "the hand of fate is two dice when no trait applies")
        gmc = hands.character not in pcs_of(campaign)
        return TraitDice(dice.hand_of_fate(), None, use, dice.HAND_OF_FATE_DICE, gmc)
    sheet = pcs_of(campaign).get(hands.character)
    if sheet is None:
        return _gmc_dice(hands, trait, use)
    invalid(sheet.active, f"{hands.character} is retired from play")
    invalid(hands.dice is None, f"{hands.character}'s dice come from the sheet: name the trait, or roll with no trait")
    held = _sheet_trait(sheet, trait)
    if use in (TraitUse.TRAIT, TraitUse.TANGENTIAL):
        # One short line (the roll's --help says how a lacking trait is rolled: no trait, or technical).
        held = present(held, f"{hands.character} has no trait {trait!r} (traits: {', '.join(sheet.traits)})")
        spec = dice.tangential_trait(held.dice) if use is TraitUse.TANGENTIAL else RollSpec(held.dice)
        return TraitDice(spec, held.name, use, held.dice, False)
    invalid(held is None, f"{hands.character} has {held.name if held else ''} ({held.dice if held else 0} dice): "
                          "roll it as her trait")
    count = dice.NO_TRAIT_DICE if use is TraitUse.NO_TRAIT else LACKING_TECHNICAL_DICE
    return TraitDice(RollSpec(count), trait, use, count, False)


def _gmc_dice(hands: Hands, trait: str | None, use: TraitUse) -> TraitDice:
    if use in (TraitUse.NO_TRAIT, TraitUse.TECHNICAL):
        invalid(hands.dice is None, "a roll with no trait has no trait dice to give")
        count = dice.NO_TRAIT_DICE if use is TraitUse.NO_TRAIT else LACKING_TECHNICAL_DICE
        return TraitDice(RollSpec(count), trait, use, count, True)
    count = present(hands.dice, f"give {hands.character}'s dice: a GMC's are the GM's")
    spec = dice.tangential_trait(count) if use is TraitUse.TANGENTIAL else RollSpec(count)
    return TraitDice(spec, trait, use, count, True)


def roll_spec(base: RollSpec, command: MakeRoll) -> RollSpec:
    """``base`` with the GM's bonus and penalty dice, the experience dice and any extra actions."""
    spec = replace(base, bonus=base.bonus + command.bonus, penalty=base.penalty + command.penalty,
                   experience=command.experience_dice)
    return dice.multiple_actions(spec, command.extra_actions)


def roller_of(campaign: YarnCampaign, command: MakeRoll) -> tuple[Roller, RollSpec]:
    """Who rolls ``command``'s hands, and their dice before the GM's bonus and penalty dice."""
    hands = command.hands
    base = hands_dice(campaign, hands)
    return base.roller(participant_for(campaign, command.participant, [hands.character]), hands.character), base.spec


def _fringe_power_of(campaign: YarnCampaign, character: str, trait: str | None) -> bool:
    # Read through the powers part's slice (``pools``: character -> pool with ``powers``).
    pools = getattr(getattr(campaign.rules, "powers", None), "pools", {})
    return trait is not None and character in pools and trait in pools[character].powers


def _check_experience(campaign: YarnCampaign, referee: Referee, character: str, spec: RollSpec,
                      command: MakeRoll) -> None:
    """An experience die is a bonus die the character's pool allows this session, each one justified."""
    invalid(all(j.strip() for j in command.justifications), "a justification cannot be empty")
    if spec.experience == 0:
        invalid(not command.justifications, "justifications come with experience dice")
        return
    sheet = present(pcs_of(campaign).get(character),
                    f"{character} is not a player character: only PCs have an experience pool")
    referee.require(bool(command.purpose.strip()), JUSTIFY_USE,
                    "the GM has not said what the roll is for: no experience die")
    used = experience_dice_used(campaign.rules.characters, character)
    use_experience_dice(
        referee, pool=sheet.experience_pool, used_this_session=used,
        dice=spec.experience, justifications_accepted=len(command.justifications),
        multiple_dice_rule=campaign.table.options.get("multiple_experience_dice", False),
    )


def resolve_against(campaign: YarnCampaign, spec: AgainstSpec, character: str,
                    rolled: Mapping[str, Any]) -> tuple[dice.Target, Against]:
    """The target of a roll and how it is recorded."""
    if isinstance(spec, Factor):
        invalid(spec.value >= 0, f"a difficulty factor is 0 or more (Sample Difficulty Factors), not {spec.value}")
        return dice.DifficultyFactor(spec.value), Against(kind="difficulty", number=spec.value, label=spec.label)
    if isinstance(spec, SpellLevel):
        invalid(spec.level >= 1, "a spell's level is 1 or more")
        return dice.DifficultyFactor(spec.level), Against(kind="spell", number=spec.level, label=spec.spell,
                                                          roll=spec.cast)
    if isinstance(spec, InertForce):
        invalid(spec.dice >= 1, "the GM rolls at least one die for an inert force")
        # An inert force is no character: no optional rule (botch, top off) applies to its dice.
        facts = take_dice(RollSpec(spec.dice), spec.faces, rolled=rolled, name="inert force")
        return dice.InertForceRoll(facts.total), Against(kind="inert force", number=facts.total, dice=facts)
    opposed = present(campaign.rules.procedure.rolls.get(spec.roll), f"event {spec.roll} is not a roll")
    invalid(opposed.scene == campaign.timeline.scene, f"roll {spec.roll} was made in another scene")
    invalid(opposed.character != character, "a roll is not opposed to the same character's roll")
    target = dice.OpponentRoll.of(opposed.result(), options_of(campaign))
    shown = opposed.visibility == EVERYONE
    return target, Against(kind="opponent", roll=spec.roll, number=target.total if shown else None,
                           label=opposed.character if shown else "", botched=target.botched)


def prior_odds(campaign: YarnCampaign, spec: RollSpec, against: Against) -> PriorOdds | None:
    """Exact chances before the dice, of the roll against what it is compared to.

    Against an opponent they are the odds of the contest, both rolls unknown: the book has both
    sides roll "just like you do", under the same optional rules. None for a hidden opponent.
    """
    options = options_of(campaign)
    if against.kind == "opponent":
        if against.number is None:  # hidden: even the odds would tell how many dice the GM rolled
            return None
        other = campaign.rules.procedure.rolls[present(against.roll, "an opponent's roll names its event")]
        return PriorOdds.of(odds.opposed_odds(spec, other.spec, options))
    if against.kind == "inert force":
        force = present(against.dice, "an inert force's dice are recorded with it")
        return PriorOdds.of(odds.opposed_odds(spec, force.spec(), options, dice.NO_OPTIONS))
    number = present(against.number, f"a {against.kind} has a number")
    return PriorOdds.of(odds.outcome_odds(spec, number, options))


def resolution_fields(resolution: dice.Resolution | None, against: Against | None) -> dict[str, Any]:
    """The outcome fields; no margin against a hidden opponent (it would reveal the GM's roll)."""
    if resolution is None:
        return {}
    hidden = against is not None and against.number is None  # a hidden opponent
    return {"outcome": resolution.outcome.value, "margin": None if hidden else resolution.margin,
            "decided_by": resolution.decided_by.chapter if resolution.decided_by else None,
            "limited_success": resolution.limited_success}


def record_roll(
    campaign: YarnCampaign,
    referee: Referee,
    roller: Roller,
    spec: RollSpec,
    command: MakeRoll,
    *,
    helpers: Sequence[Helper] = (),
    psychic: ShotUse | None = None,
) -> RollMade:
    """The event of one roll of ``spec``: dice entered (checked) or rolled, resolved, with its odds.

    Checks what every roll must: it is played out in a scene, and its experience dice are the
    character's to use. ``command`` gives the target, faces and the words recorded with the roll.
    """
    referee.require(campaign.timeline.scene is not None, IN_A_SCENE,
                    "no scene is in play: a roll belongs in a procedural scene")
    _check_experience(campaign, referee, roller.character, spec, command)
    wound_penalty = penalty_dice_from_wounds(campaign, roller.character)
    spec = replace(spec, penalty=spec.penalty + wound_penalty)
    options = options_of(campaign)
    facts = take_dice(spec, command.faces, options, top_off=command.top_off, rolled=command.rolled)
    result = facts.result()
    target, against = (None, None) if command.against is None else resolve_against(
        campaign, command.against, roller.character, command.rolled)
    resolution = dice.resolve(result, target, options) if target is not None else None
    found = personal_consequences.breaks(result)
    return RollMade(
        participant=roller.participant, character=roller.character, gmc=roller.gmc, trait=roller.trait,
        trait_use=roller.trait_use, trait_dice=roller.trait_dice, bonus=command.bonus, penalty=command.penalty,
        wound_penalty=wound_penalty, extra_actions=command.extra_actions, experience_dice=spec.experience,
        justifications=list(command.justifications), purpose=command.purpose.strip(), helpers=list(helpers),
        psychic=psychic, against=against, dice=facts, botch=dice.is_botch(result, options),
        sixes=dice.unstoppable_sixes(result, options), breaks=BreakFacts(good=found.good, bad=found.bad),
        odds=prior_odds(campaign, spec, against) if against is not None else None,
        reading=command.reading.strip(), **resolution_fields(resolution, against),
    )


def decide_roll(command: MakeRoll, campaign: YarnCampaign, referee: Referee) -> list[Payload]:
    """One character's roll ("Mechanics")."""
    invalid(not isinstance(command.against, SpellLevel), "a spell is resisted against its casting (ResistSpell)")
    roller, base = roller_of(campaign, command)
    referee.require(not _fringe_power_of(campaign, roller.character, roller.trait), USE_SHOT,
                    f"{roller.trait} is a fringe power: each use takes a shot")
    return [record_roll(campaign, referee, roller, roll_spec(base, command), command)]


def decide_combined(command: CombineDice, campaign: YarnCampaign, referee: Referee) -> list[Payload]:
    """One roll of everyone's dice, the best keeping as many as she normally rolls ("Combining Dice")."""
    invalid(len(command.members) >= 2, "combining dice takes two or more characters")
    pcs = [m.character for m in command.members if m.character in pcs_of(campaign)]
    invalid(len(set(pcs)) == len(pcs), "each character joins a combined roll once")
    members = [hands_dice(campaign, m) for m in command.members]
    invalid(all(m.use is not TraitUse.HAND_OF_FATE for m in members), "the hand of fate is one roll, not combined")
    # A member's own bonus or penalty dice (a tangential trait) join the GM's on the one roll.
    spec = group_efforts.combining_dice(
        [m.spec.dice for m in members], bonus=command.roll.bonus + sum(m.spec.bonus for m in members),
        penalty=command.roll.penalty + sum(m.spec.penalty for m in members))
    best = max(range(len(members)), key=lambda i: (members[i].spec.dice, -i))
    who = participant_for(campaign, command.roll.participant, [m.character for m in command.members])
    roller = members[best].roller(who, command.members[best].character)
    helpers = [Helper(character=hands.character, trait=m.trait, trait_use=m.use, dice=m.dice)
               for i, (hands, m) in enumerate(zip(command.members, members, strict=True)) if i != best]
    spec = dice.multiple_actions(replace(spec, experience=command.roll.experience_dice), command.roll.extra_actions)
    return [record_roll(campaign, referee, roller, spec, command.roll, helpers=helpers)]


def decide_read(command: ReadRoll, campaign: YarnCampaign, referee: Referee) -> list[Payload]:
    """The GM's reading of a recorded roll."""
    invalid(command.roll in campaign.rules.procedure.rolls, f"event {command.roll} is not a roll")
    invalid(bool(command.reading.strip()), "a reading needs some words")
    return [RollRead(roll=command.roll, reading=command.reading.strip())]
