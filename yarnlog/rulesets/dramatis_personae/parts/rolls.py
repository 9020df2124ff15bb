"""Rolls: challenges (and ranged attacks, finishing blows, wound rolls, retries), contests and
melee rounds, with the fights' held penalty dice (DP6-DP32, lines 73-221).

A roll's dice are entered as rolled at the table (``faces``) or rolled by the tool from a secure
source (``DiceNeeded``: deciding never rolls). Each payload keeps every source of dice, the net,
the faces, the three kept, the total, the tier and the exact prior odds, and what the roll did to
the ledger (``economy``); its validator derives all of it again from the inputs, so ``verify``
re-checks a roll with the very code that decided it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from yarnlog.core.composition import Part, folds
from yarnlog.core.events import Payload, Recorded
from yarnlog.core.referee import DiceNeeded, Referee, Rule, invalid
from yarnlog.rulesets.dramatis_personae.parts.characters import Characters
from yarnlog.rulesets.dramatis_personae.parts.ledger import DiceUse, Ledger
from yarnlog.rulesets.dramatis_personae.parts.roll_events import (
    AttributeUse,
    Beat,
    ChallengeRolled,
    ContestRolled,
    FightEnded,
    ModifierUse,
    RollFacts,
    RulingRecorded,
    TimeUse,
)
from yarnlog.rulesets.dramatis_personae.rules import BOOK
from yarnlog.rulesets.dramatis_personae.rules.advancement import OWED, SAVED, check_spend, draw_pool
from yarnlog.rulesets.dramatis_personae.rules.characters import Kind, Relevance, attribute_dice
from yarnlog.rulesets.dramatis_personae.rules.contests import (
    FINISHING,
    FINISHING_BLOW,
    MELEE_RESULTS,
    WOUND_ROLL,
    WOUNDS,
    Outcome,
    contest_result,
    pool_dice_after_roll,
    wound,
)
from yarnlog.rulesets.dramatis_personae.rules.dice import SIDES, dice_to_roll, improved, kept_three
from yarnlog.rulesets.dramatis_personae.rules.difficulty import RANGED_BASE, Tier, challenge_tier, needed
from yarnlog.rulesets.dramatis_personae.rules.modifiers import (
    CIRCUMSTANCES,
    MELEE,
    RANGED,
    RETRY,
    Band,
    modifier,
    retry_time_from,
    time_dice,
    time_step,
)

if TYPE_CHECKING:
    from yarnlog.core.ruleset import CampaignState


class HoldsRolls(Protocol):
    """The slices of a campaign's state this part reads (the state composes every part's slice)."""

    @property
    def characters(self) -> Characters: ...
    @property
    def ledger(self) -> Ledger: ...
    @property
    def rolls(self) -> Rolls: ...


#: A campaign as this part sees it.
DPCampaign: TypeAlias = "CampaignState[HoldsRolls]"

ENTERED, ROLLED = "entered", "rolled"
#: The campaign option (chosen at ``init``) that lets pool dice be added after a challenge roll, two
#: for one die as in melee (reading 8).
POOL_AFTER_ROLL = "pool_after_roll"
AFTER_ROLL = Rule(
    f"{BOOK} (DP29, line 192; reading 8: in challenges only where the campaign's option pool-after-roll is on)",
    "Common Modifiers to Melee Contests", "+1d6 For every two dice from dice pool applied after the roll.")
FINISHED = Rule(
    f"{BOOK} (DP27, line 172; re-entry is the GM's ruling, lines 196-198)", "Combat Results",
    "Critical Success: Loser is Finished. (Winner can KO, Disable or Kill opponent).")
TABLES = {"challenge": CIRCUMSTANCES, "melee": MELEE, "ranged": RANGED}
GM_MODIFIER_LIMIT = 20
#: The GM's ruling recorded with an opponent's penalty dice on a wound roll, unless the GM words it.
OPPONENT_DICE_RULING = "The GM can apply any opponent penalty dice to that roll as fits the story. (line 221)"
STANDOFF = "standoff"


@dataclass(frozen=True)
class Fight:
    held: dict[str, int] = field(default_factory=dict)
    finishing: dict[str, str] = field(default_factory=dict)  # winner -> the loser a 14+ blow may finish
    finished: tuple[str, ...] = ()


@dataclass(frozen=True)
class Attempt:
    """A challenge as a retry reads it (DP22)."""

    character: str
    taken: str | None
    time_dice: int
    success: bool


@dataclass(frozen=True)
class Rolls:
    fights: dict[str, Fight] = field(default_factory=dict)
    attempts: dict[int, Attempt] = field(default_factory=dict)


# -- commands ------------------------------------------------------------------------------


@dataclass(frozen=True)
class RollInput:
    """What a roll is made of, as typed at the table."""

    character: str
    attributes: tuple[tuple[str, str], ...] = ()  # (trait, related|precise)
    modifiers: tuple[tuple[str, str, int | None], ...] = ()  # (table, label, dice)
    band: str | None = None
    time: tuple[str, str] | None = None  # (normal, taken)
    pool: int = 0
    saved: int = 0
    bad: int = 0
    debt: int = 0
    accepted: int = 0
    after_pool: int = 0
    after_accepted: int = 0
    faces: tuple[int, ...] | None = None
    after_faces: tuple[int, ...] | None = None


@dataclass(frozen=True)
class RollChallenge:
    roll: RollInput
    difficulty: str = "Typical"
    kind: str = "challenge"
    task: str = ""
    retry_of: int | None = None
    fight: str | None = None
    target: str | None = None
    rolled: Mapping[str, Any] = field(default_factory=dict)
    lent: tuple[tuple[str, int], ...] = ()  # (character, saved bonus dice) on a wound roll (line 221)
    opposed: tuple[tuple[str, int], ...] = ()  # (opponent, penalty dice held) the GM applies (line 221)
    ruling: str = ""


@dataclass(frozen=True)
class RollContest:
    rolls: tuple[RollInput, ...]
    melee: bool = False
    fight: str | None = None
    task: str = ""
    rolled: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class EndFight:
    fight: str


@dataclass(frozen=True)
class RecordRuling:
    ruling: str
    about: str = ""
    rule: str = ""


# -- deciding ------------------------------------------------------------------------------


def _throw(dice: int) -> Any:
    def throw(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return tuple(rng.randint(1, SIDES) for _ in range(dice)), ()

    return throw


def _faces(given: tuple[int, ...] | None, rolled: Mapping[str, Any], name: str, dice: int) -> tuple[list[int], bool]:
    """The faces entered, else those the shell rolled under ``name``, else :class:`DiceNeeded`."""
    if given is not None:
        return list(given), False
    if not dice:
        return [], False
    thrown = rolled.get(name)
    if thrown is None:
        raise DiceNeeded(name, dice, SIDES, _throw(dice))
    return list(thrown[0]), True


def _facts(given: RollInput, campaign: DPCampaign, rolled: Mapping[str, Any], tag: str, fight: str | None,
           referee: Referee, time_dice_of_retry: int | None = None, shift: int = 0) -> RollFacts:
    """A roll's facts from what was typed; the faces entered or rolled once the net is known."""
    sheet = campaign.rules.characters.pcs.get(given.character)
    invalid(sheet is not None, f"no character is called {given.character}")
    assert sheet is not None
    attributes = []
    for trait, relevance in given.attributes:
        found = sheet.trait(trait)
        invalid(found is not None, f"{sheet.name} has no strength or weakness {trait!r}")
        assert found is not None
        invalid(relevance in ("related", "precise"), f"an attribute is related or precise, not {relevance!r}")
        attributes.append(AttributeUse(trait=found[1], relevance=relevance, kind=found[0]))
    modifiers = [ModifierUse(table=table, label=label, dice=dice if dice is not None else 0)
                 if table == "gm" else
                 ModifierUse(table=table, label=label, dice=modifier(_table(table), label, dice))
                 for table, label, dice in given.modifiers]
    band = None
    if given.band is not None:
        try:
            band = Band(given.band.strip().lower().replace(" ", "-"))
        except ValueError:
            invalid(False, f"no range band {given.band!r}: choose one of {', '.join(b.value for b in Band)}")
    time = TimeUse(normal=given.time[0], taken=given.time[1]) if given.time else None
    draft = RollFacts(character=sheet.name, attributes=attributes, modifiers=modifiers, band=band, time=time,
                      pool=given.pool, saved=given.saved, bad=given.bad, debt=given.debt, accepted=given.accepted,
                      after_pool=given.after_pool, after_accepted=given.after_accepted, faces=[])
    derived = derive(draft, campaign, fight, referee, time_dice_of_retry, shift)
    faces, by_tool = _faces(given.faces, rolled, f"roll{tag}", dice_to_roll(derived.net))
    after, after_by_tool = _faces(given.after_faces, rolled, f"after{tag}", _extra_dice(derived, fight))
    return draft.model_copy(update={"faces": faces, "after_faces": after,
                                    "source": ROLLED if by_tool or after_by_tool else ENTERED})


def _table(name: str) -> dict[str, Any]:
    invalid(name in TABLES, f"no modifier table {name!r}: challenge, melee, ranged or gm")
    return TABLES[name]


def _extra_dice(facts: RollFacts, fight: str | None) -> int:
    """Dice added after the roll: two pool dice for one (DP29, line 192), one per penalty die taken (line 61)."""
    return pool_dice_after_roll(facts.after_pool) + facts.after_accepted


def derive(facts: RollFacts, campaign: DPCampaign, fight: str | None, referee: Referee,
           time_dice_of_retry: int | None = None, shift: int = 0) -> RollFacts:
    """Every derived field of a roll from its inputs and the campaign before it (the validators' core);
    ``shift``: dice from others on a wound roll (line 221), counted in the net."""
    sheet = campaign.rules.characters.pcs.get(facts.character)
    invalid(sheet is not None, f"no character is called {facts.character}")
    assert sheet is not None
    attributes = []
    for use in facts.attributes:
        found = sheet.trait(use.trait)
        invalid(found is not None and found[1] == use.trait, f"{sheet.name} has no strength or weakness {use.trait!r}")
        assert found is not None
        attributes.append(use.model_copy(update={
            "kind": found[0], "dice": attribute_dice(Kind(found[0]), Relevance[use.relevance.upper()])}))
    for mod in facts.modifiers:
        if mod.table == "gm":
            invalid(mod.dice != 0 and abs(mod.dice) <= GM_MODIFIER_LIMIT,
                    f"the GM's modifier {mod.label!r} gives 1 to {GM_MODIFIER_LIMIT} dice, plus or minus")
        else:
            modifier(_table(mod.table), mod.label, mod.dice)
    time = facts.time
    if time is not None:
        dice = time_dice(time.normal, time.taken) if time_dice_of_retry is None else time_dice_of_retry
        time = time.model_copy(update={"dice": dice})
    held = 0
    if fight is not None:
        state = campaign.rules.rolls.fights.get(fight)
        held = state.held.get(sheet.name, 0) if state else 0
    ledger = campaign.rules.ledger
    balance = ledger.balance(sheet.name)
    check_spend("saved bonus dice", facts.saved, balance.good, SAVED, referee)
    check_spend("saved penalty dice", facts.bad, balance.bad, SAVED, referee)
    check_spend("dice of debt", facts.debt, balance.debt, OWED, referee)
    invalid(facts.after_pool % 2 == 0, f"pool dice after the roll go two for one die: {facts.after_pool} is odd")
    net = (sum(a.dice for a in attributes) + sum(m.dice for m in facts.modifiers)
           + (facts.band.dice if facts.band is not None else 0) + (time.dice if time is not None else 0)
           - held + facts.pool + facts.saved + facts.accepted - facts.bad - facts.debt + shift)
    kept: list[int] = []
    total = 0
    if facts.faces:
        first = kept_three(facts.faces, net)
        extra = _extra_dice(facts, fight)
        invalid(len(facts.after_faces) == extra,
                f"the dice added after the roll need {extra}d6: enter {extra} faces, not {len(facts.after_faces)}")
        final = improved(first, facts.after_faces) if extra else first
        kept, total = list(final), sum(final)
    return facts.model_copy(update={"attributes": attributes, "time": time, "held": held, "net": net,
                                    "kept": kept, "total": total})


def economy(facts: RollFacts, campaign: DPCampaign) -> DiceUse:
    """What the roll takes from the ledger: pool dice first, then borrowed ones (DP35, DP36)."""
    draw = draw_pool(campaign.rules.ledger.balance(facts.character).pool, facts.pool + facts.after_pool)
    return DiceUse(character=facts.character, pool=draw.from_pool, borrowed=draw.borrowed, saved=facts.saved,
                   bad=facts.bad, debt=facts.debt, accepted=facts.accepted + facts.after_accepted)


def _odds(net: int, number: int) -> dict[str, str]:
    from yarnlog.rulesets.dramatis_personae.rules.odds import tier_odds

    return {tier.value: str(p) for tier, p in tier_odds(net, number).items()}


def decide(command: Any, campaign: DPCampaign, referee: Referee) -> list[Payload] | None:
    if isinstance(command, RollChallenge):
        kind = command.kind
        invalid(kind in ("challenge", "ranged", "finishing-blow", "wound"), f"no kind of challenge {kind!r}")
        number = {"finishing-blow": FINISHING_BLOW, "wound": WOUND_ROLL}.get(kind) or (
            RANGED_BASE if kind == "ranged" and command.difficulty == "Typical" else needed(command.difficulty))
        retry_dice = _retry_time_dice(command.retry_of, command.roll.character, command.roll.time, campaign, referee)
        pcs = tuple(campaign.rules.characters.pcs)
        lent, opposed = _keyed_dice(command.lent, pcs), _keyed_dice(command.opposed, pcs)
        shift = sum(lent.values()) - sum(opposed.values())
        facts = _facts(command.roll, campaign, command.rolled, "", command.fight, referee, retry_dice, shift)
        payload = ChallengeRolled(kind=kind, difficulty=number, task=command.task, roll=facts,
                                  retry_of=command.retry_of, fight=command.fight, target=command.target,
                                  lent=lent, opposed=opposed,
                                  ruling=command.ruling.strip() or (OPPONENT_DICE_RULING if opposed else ""))
        return [validate_challenge(payload, campaign, referee)]
    if isinstance(command, RollContest):
        names = [r.character for r in command.rolls]
        invalid(len(names) >= 2, "a contest needs two or more participants")
        invalid(len({n.lower() for n in names}) == len(names), "each participant rolls once in a contest")
        fight = (command.fight or "melee") if command.melee else None
        rolls = [_facts(given, campaign, command.rolled, f":{given.character}", fight, referee)
                 for given in command.rolls]
        contest = ContestRolled(melee=command.melee, fight=fight, task=command.task, rolls=rolls)
        return [validate_contest(contest, campaign, referee)]
    if isinstance(command, EndFight):
        return [validate_fight_ended(FightEnded(fight=command.fight), campaign, referee)]
    if isinstance(command, RecordRuling):
        return [validate_ruling(RulingRecorded(about=command.about, ruling=command.ruling, rule=command.rule),
                                campaign, referee)]
    return None


def _retry_time_dice(retry_of: int | None, character: str, time: tuple[str, str] | None, campaign: DPCampaign,
                     referee: Referee) -> int | None:
    """A retry after a failed challenge: at least one step of the time chart later, and that time earns no
    bonus: its time dice are the failed attempt's (DP22, line 128)."""
    if retry_of is None:
        return None
    attempt = campaign.rules.rolls.attempts.get(retry_of)
    invalid(attempt is not None, f"event {retry_of} is not a challenge roll")
    assert attempt is not None
    invalid(attempt.character.lower() == character.lower(), f"event {retry_of} is {attempt.character}'s roll")
    invalid(not attempt.success, f"event {retry_of} succeeded: there is nothing to retry")
    if attempt.taken is not None:
        earliest = retry_time_from(attempt.taken)
        referee.require(time is not None and time_step(time[1]) >= time_step(earliest), RETRY,
                        f"a retry after {attempt.taken} comes at {earliest} at the earliest")
    return attempt.time_dice


def validate_challenge(p: ChallengeRolled, campaign: DPCampaign, referee: Referee) -> ChallengeRolled:
    """Derive the roll, its tier, the prior odds and the ledger's movements again (DP6-DP32)."""
    time = (p.roll.time.normal, p.roll.time.taken) if p.roll.time else None
    retry_dice = _retry_time_dice(p.retry_of, p.roll.character, time, campaign, referee)
    fight = campaign.rules.rolls.fights.get(p.fight) if p.fight is not None else None
    if p.kind in ("finishing-blow", "wound"):
        invalid(fight is not None, f"a {p.kind.replace('-', ' ')} is rolled in a fight in play: name it (--fight)")
        assert fight is not None
        invalid(p.difficulty == (FINISHING_BLOW if p.kind == "finishing-blow" else WOUND_ROLL),
                f"a {p.kind.replace('-', ' ')} is rolled against "
                f"{FINISHING_BLOW if p.kind == 'finishing-blow' else WOUND_ROLL}")
    if p.kind == "finishing-blow":
        assert fight is not None
        referee.require(fight.finishing.get(p.roll.character) == p.target, FINISHING,
                        f"{p.roll.character} has no complete success over {p.target} to finish")
    if p.kind == "wound":
        assert fight is not None
        referee.require(fight.held.get(p.roll.character, 0) > 0, WOUNDS,
                        f"{p.roll.character} holds no penalty dice from this fight: no wound roll")
    if fight is not None:
        referee.require(p.roll.character not in fight.finished or p.kind == "wound", FINISHED,
                        f"{p.roll.character} is finished in this fight")
    _check_after_roll(p.roll, melee=p.kind == "finishing-blow", campaign=campaign, referee=referee)
    shift = _others_dice(p, fight, campaign, referee)
    facts = derive(p.roll, campaign, p.fight, referee, retry_dice, shift)
    tier = challenge_tier(facts.total, p.difficulty)
    lent = [DiceUse(character=name, saved=dice) for name, dice in p.lent.items()]
    return p.model_copy(update={
        "roll": facts, "tier": tier, "odds": _odds(facts.net, p.difficulty),
        "wound": wound(facts.total).value if p.kind == "wound" else None,
        "economy": [economy(facts, campaign), *lent]})


def _keyed_dice(pairs: tuple[tuple[str, int], ...], names: tuple[str, ...]) -> dict[str, int]:
    """Dice by character, each name as its sheet spells it (matched ignoring case), each once."""
    found: dict[str, int] = {}
    for typed, dice in pairs:
        name = next((n for n in names if n.lower() == typed.strip().lower()), None)
        invalid(name is not None, f"no character is called {typed}")
        assert name is not None
        invalid(name not in found, f"{name} is named twice")
        found[name] = dice
    return found


def _others_dice(p: ChallengeRolled, fight: Fight | None, campaign: DPCampaign, referee: Referee) -> int:
    """Others' dice on a wound roll (line 221): a player's saved bonus dice, spent from that character's
    saved dice (DP37); an opponent's penalty dice held from this fight, applied by the GM's ruling."""
    if not (p.lent or p.opposed):
        invalid(not p.ruling, "a ruling goes with an opponent's penalty dice on a wound roll (line 221)")
        return 0
    invalid(p.kind == "wound", "others' dice go on a wound roll only (line 221)")
    assert fight is not None
    pcs = campaign.rules.characters.pcs
    roller = p.roll.character
    for name, dice in p.lent.items():
        invalid(name in pcs and name != roller, f"{name} is not another character: own dice go in with --saved")
        invalid(0 < dice <= 500, "a number of dice is 1 to 500")
        check_spend(f"{name}'s saved bonus dice", dice, campaign.rules.ledger.balance(name).good, SAVED, referee)
    for name, dice in p.opposed.items():
        invalid(name != roller, f"{name} rolls: an opponent's penalty dice are another's")
        invalid(0 < dice <= 500, "a number of dice is 1 to 500")
        held = fight.held.get(name, 0)
        referee.require(dice <= held, WOUNDS, f"{name}'s penalty dice: {dice} applied, {held} held")
    invalid(not p.opposed or bool(p.ruling.strip()), "the GM's ruling goes with an opponent's penalty dice")
    return sum(p.lent.values()) - sum(p.opposed.values())


def _check_after_roll(facts: RollFacts, *, melee: bool, campaign: DPCampaign, referee: Referee) -> None:
    """Pool dice after the roll: melee's rule (DP29); in a challenge only where the campaign allows (reading 8)."""
    if facts.after_pool and not melee:
        referee.require(bool(campaign.table.options.get(POOL_AFTER_ROLL)), AFTER_ROLL,
                        "pool dice after the roll only in melee, or with pool-after-roll")


def validate_contest(p: ContestRolled, campaign: DPCampaign, referee: Referee) -> ContestRolled:
    """The highest roll wins, with the tier from the difference (DP24); a melee result (DP27)."""
    fight = campaign.rules.rolls.fights.get(p.fight) if p.fight is not None else None
    invalid(p.melee == (p.fight is not None), "a melee round names its fight, a contest none")
    rolls = []
    for facts in p.rolls:
        if fight is not None:
            referee.require(facts.character not in fight.finished, FINISHED,
                            f"{facts.character} is finished in this fight")
        _check_after_roll(facts, melee=p.melee, campaign=campaign, referee=referee)
        rolls.append(derive(facts, campaign, p.fight, referee))
    invalid(len({r.character for r in rolls}) == len(rolls), "each participant rolls once in a contest")
    result = contest_result({r.character: r.total for r in rolls})
    beats = []
    for loser, tier in result.over:
        penalty, outcome = MELEE_RESULTS[tier] if p.melee else (0, None)
        beats.append(Beat(loser=loser, tier=tier, penalty=penalty, outcome=outcome))
    return p.model_copy(update={"rolls": rolls, "winner": result.winner, "beats": beats,
                                "odds": _contest_odds(rolls), "economy": [economy(r, campaign) for r in rolls]})


def _contest_odds(rolls: list[RollFacts]) -> dict[str, dict[str, str]]:
    """Each side's exact prior chance of each result from its own point of view (DP24; readings 2, 10)."""
    from yarnlog.rulesets.dramatis_personae.rules.odds import contest_odds

    return {facts.character: {outcome_label(outcome): str(chance) for outcome, chance in side.items()}
            for facts, side in zip(rolls, contest_odds([r.net for r in rolls]))}


def outcome_label(outcome: Tier | None) -> str:
    """A contest side's result in the book's words; ``standoff`` for a tie at the top (reading 2)."""
    return STANDOFF if outcome is None else outcome.value


def validate_fight_ended(p: FightEnded, campaign: DPCampaign, referee: Referee) -> FightEnded:
    invalid(p.fight in campaign.rules.rolls.fights, f"no fight called {p.fight} is in play")
    return p


def validate_ruling(p: RulingRecorded, campaign: DPCampaign, referee: Referee) -> RulingRecorded:
    return p


# -- folding -------------------------------------------------------------------------------


def evolve(rolls: Rolls, recorded: Recorded, _state: Any = None) -> Rolls:
    p = recorded.payload
    if isinstance(p, ChallengeRolled):
        attempts = {**rolls.attempts, recorded.sequence: Attempt(
            p.roll.character, p.roll.time.taken if p.roll.time else None, p.roll.time.dice if p.roll.time else 0,
            p.tier.success)}
        fights = rolls.fights
        if p.kind == "finishing-blow" and p.fight in fights and p.target is not None:
            blown = fights[p.fight]
            fights = {**fights, p.fight: replace(
                blown, finishing={k: v for k, v in blown.finishing.items() if k != p.roll.character},
                finished=(*blown.finished, p.target) if p.tier.success else blown.finished)}
        return replace(rolls, attempts=attempts, fights=fights)
    if isinstance(p, ContestRolled) and p.fight is not None:
        fight = rolls.fights.get(p.fight, Fight())
        held: dict[str, int] = dict(fight.held)
        finishing: dict[str, str] = {}  # a finishing blow follows its round: the next round ends the chance
        finished: list[str] = list(fight.finished)
        for beat in p.beats:
            held[beat.loser] = held.get(beat.loser, 0) + beat.penalty
            if beat.outcome is Outcome.FINISHING_OPTION and p.winner is not None:
                finishing[p.winner] = beat.loser
            if beat.outcome is Outcome.FINISHED:
                finished.append(beat.loser)
        return replace(rolls, fights={**rolls.fights, p.fight: Fight(held, finishing, tuple(finished))})
    if isinstance(p, FightEnded):
        return replace(rolls, fights={k: v for k, v in rolls.fights.items() if k != p.fight})
    return rolls


PART = Part(name="rolls", initial=Rolls, evolve=evolve,
            folds=folds(ChallengeRolled, ContestRolled, FightEnded, RulingRecorded), decide=decide,
            validators={ChallengeRolled: validate_challenge, ContestRolled: validate_contest,
                        FightEnded: validate_fight_ended, RulingRecorded: validate_ruling})
