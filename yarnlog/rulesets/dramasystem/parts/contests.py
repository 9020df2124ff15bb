"""Simple player-versus-player contests in the journal, solo actions and assisting (SRD 579-635).

- ``dramasystem.contest.started``: the two contestants (a character each; for a solo action the
  GM opposes, 613), the action types and tokens; Strong against Weak wins outright (581), else each
  side's draws follow its token and grade (587-589) or, for the GM, her token and a formidable
  opposition (613);
- ``dramasystem.contest.assisted``: another player's token adds draws to a side (629);
- ``dramasystem.contest.drew``: one card, in turn (593-601); ``dramasystem.contest.stopped``: a
  side chooses not to draw any more (601);
- ``dramasystem.contest.ended``: the best card in hand wins, suits breaking ties (603-605; reading
  1), and face cards drawn with green or red bring consequences (607-609).

The advanced contest (915-975) has pure rules (:mod:`yarnlog.rulesets.dramasystem.rules.contests`)
but is not recordable yet.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from pydantic import BaseModel, ConfigDict, Field

from yarnlog.core.composition import Part, folds
from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.referee import Referee, invalid, present
from yarnlog.rulesets.dramasystem.parts.card_procedure import HoldsCardProcedure, colour
from yarnlog.rulesets.dramasystem.parts.cards_needed import CardsNeeded
from yarnlog.rulesets.dramasystem.parts.extra_cards import CONTEST, ExtraCard
from yarnlog.rulesets.dramasystem.parts.procedural_piles import ProceduralSpend, spends_for
from yarnlog.rulesets.dramasystem.rules.action_types import Grade
from yarnlog.rulesets.dramasystem.rules.cards import Card, Deck
from yarnlog.rulesets.dramasystem.rules.contests import (
    ALLOWANCE,
    INTERFERE,
    AdvancedContest,
    ContestDraw,
    SimpleContest,
    advanced_allowance,
    advanced_draw,
    advanced_pass,
    advanced_result,
    assist,
    assist_allowance,
    contest_consequences,
    outright_winner,
    simple_allowance,
    simple_draw,
    simple_result,
    simple_stop,
    solo_allowance,
)
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour

if TYPE_CHECKING:
    from yarnlog.core.ruleset import CampaignState


class HoldsContests(HoldsCardProcedure, Protocol):
    """The slices of a campaign's state this part reads (the state composes every part's slice)."""

    @property
    def contests(self) -> Contests: ...


#: A campaign as this part sees it.
DramaSystemCampaign: TypeAlias = "CampaignState[HoldsContests]"

GM_SIDE = "GM"


class ContestConsequence(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    player: str
    card: str
    kind: str


@event("dramasystem.contest.started")
class ContestStarted(Payload):
    scene: int = Field(ge=1)
    first: str
    first_type: str
    first_token: Colour
    second: str  # a character, or "GM" for a solo action
    second_type: str | None = None
    second_token: Colour
    formidable: bool = False
    goals: list[str] = Field(default_factory=list, max_length=2)
    advanced: bool = False  # the advanced contest (SRD 915-975): redraws replace the current card
    grades: list[Grade | None] = Field(default_factory=list)
    outright_winner: str | None = None
    allowance: list[int] = Field(default_factory=list)
    procedural_spends: list[ProceduralSpend] = Field(default_factory=list)


@event("dramasystem.contest.assisted")
class ContestAssisted(Payload):
    scene: int = Field(ge=1)
    assistant: str  # a player
    side: str
    action_type: str
    token: Colour
    extra: int = 0
    procedural_spends: list[ProceduralSpend] = Field(default_factory=list)


@event("dramasystem.contest.drew")
class ContestDrew(Payload):
    scene: int = Field(ge=1)
    side: str
    card: str
    drawn_by: str = ""  # the player drawing (a contestant's player, an assistant, or the GM)
    drawn_by_tool: bool = False
    token: Colour | None = None
    by_assistant: bool = False


@event("dramasystem.contest.redrew")
class ContestRedrew(Payload):
    """Advanced contest: a redraw by a contestant (on himself or forcing the other), the GM's one
    forced redraw (``actor`` "GM") or an interfering player's, with a green token (SRD 947-959)."""

    scene: int = Field(ge=1)
    actor: str
    target: str
    card: str
    drawn_by_tool: bool = False
    procedural_spends: list[ProceduralSpend] = Field(default_factory=list)


@event("dramasystem.contest.stopped")
class ContestStopped(Payload):
    scene: int = Field(ge=1)
    side: str


@event("dramasystem.contest.ended")
class ContestEnded(Payload):
    scene: int = Field(ge=1)
    winner: str = ""
    winning_card: str | None = None
    losing_card: str | None = None
    by_suit: bool = False
    surprise: str | None = None  # equal values: the surprise outcome both agreed on (SRD 969)
    consequences: list[ContestConsequence] = Field(default_factory=list)


@dataclass(frozen=True)
class OpenContest:
    contest: SimpleContest
    tokens: Mapping[str, Colour | None]  # side -> the token that side's contestant spent
    players: Mapping[str, str]  # side -> the player who draws for it (the GM for her side)
    grades: Mapping[str, Grade | None]  # side -> the grade of the action type it uses (None: the GM)
    duel: AdvancedContest | None = None  # the advanced contest's current cards and redraws
    assistants: Mapping[str, Colour] = field(default_factory=dict)  # assisting player -> token
    outright: str | None = None


@dataclass(frozen=True)
class Contests:
    open: Mapping[int, OpenContest] = field(default_factory=dict)
    ended: frozenset[int] = frozenset()


# -- commands -------------------------------------------------------------------------------


@dataclass(frozen=True)
class StartContest:
    first: str
    first_type: str
    first_token: str
    second: str
    second_token: str
    second_type: str | None = None
    formidable: bool = False
    goals: tuple[str, ...] = ()
    advanced: bool = False


@dataclass(frozen=True)
class RedrawInContest:
    """Advanced contest: ``actor`` (a contestant, "GM", or an interfering player) makes
    ``contestant`` redraw."""

    actor: str
    contestant: str
    card: str | None = None
    rolled: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class AssistContest:
    assistant: str
    contestant: str
    action_type: str
    token: str


@dataclass(frozen=True)
class DrawInContest:
    contestant: str
    card: str | None = None
    drawn_by: str | None = None
    rolled: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StopDrawing:
    contestant: str


@dataclass(frozen=True)
class EndContest:
    surprise: str | None = None


def _scene(campaign: DramaSystemCampaign) -> int:
    return present(campaign.timeline.scene, "no scene is in play")


def _open(campaign: DramaSystemCampaign, scene: int) -> OpenContest:
    return present(campaign.rules.contests.open.get(scene), "no contest is open in this scene: start one first")


def decide(command: Any, campaign: DramaSystemCampaign, referee: Referee) -> list[Payload] | None:
    if isinstance(command, StartContest):
        started = ContestStarted(scene=_scene(campaign), first=command.first, first_type=command.first_type,
                                 first_token=colour(command.first_token), second=command.second,
                                 second_type=command.second_type, second_token=colour(command.second_token),
                                 formidable=command.formidable, goals=list(command.goals),
                                 advanced=command.advanced)
        return [validate_started(_normalized(started, campaign), campaign, referee)]
    if isinstance(command, AssistContest):
        sheet = _sheet_of_player(campaign, command.assistant)
        assisted = ContestAssisted(scene=_scene(campaign), assistant=command.assistant, side=command.contestant,
                                   action_type=sheet.action_type_named(command.action_type),
                                   token=colour(command.token))
        return [validate_assisted(assisted, campaign, referee)]
    if isinstance(command, DrawInContest):
        scene = _scene(campaign)
        card = command.card or next(iter(command.rolled.get("contest card") or ()), None)
        if card is None:
            raise CardsNeeded("contest card", 1, _open(campaign, scene).contest.deck.left)
        drew = ContestDrew(scene=scene, side=command.contestant, card=str(Card.parse(card)),
                           drawn_by=command.drawn_by or "", drawn_by_tool=command.card is None)
        return [validate_drew(drew, campaign, referee)]
    if isinstance(command, RedrawInContest):
        scene = _scene(campaign)
        card = command.card or next(iter(command.rolled.get("contest card") or ()), None)
        if card is None:
            raise CardsNeeded("contest card", 1, _open(campaign, scene).contest.deck.left)
        redrew = ContestRedrew(scene=scene, actor=command.actor, target=command.contestant,
                               card=str(Card.parse(card)), drawn_by_tool=command.card is None)
        return [validate_redrew(redrew, campaign, referee)]
    if isinstance(command, StopDrawing):
        return [validate_stopped(ContestStopped(scene=_scene(campaign), side=command.contestant), campaign, referee)]
    if isinstance(command, EndContest):
        return [validate_ended(ContestEnded(scene=_scene(campaign), surprise=command.surprise), campaign, referee)]
    return None


def _sheet_of_player(campaign: DramaSystemCampaign, player: str) -> Any:
    name = present(campaign.rules.sheets.of_player.get(player), f"{player} plays no character")
    return campaign.rules.sheets.pcs[name]


def _normalized(p: ContestStarted, campaign: DramaSystemCampaign) -> ContestStarted:
    """The action types spelled as on the sheets."""
    first = present(campaign.rules.sheets.pcs.get(p.first), f"{p.first} is not a player character")
    update: dict[str, Any] = {"first_type": first.action_type_named(p.first_type)}
    if p.second != GM_SIDE:
        second = present(campaign.rules.sheets.pcs.get(p.second), f"{p.second} is not a player character")
        update["second_type"] = second.action_type_named(present(p.second_type, "name the second contestant's "
                                                                              "action type"))
    return p.model_copy(update=update)


# -- validators -----------------------------------------------------------------------------


def validate_started(p: ContestStarted, campaign: DramaSystemCampaign, referee: Referee) -> ContestStarted:
    """Two contestants in the scene, their grades, the outright win or each side's draws (581-589, 613)."""
    invalid(campaign.timeline.scene == p.scene, f"scene {p.scene} is not the scene in play")
    invalid(p.scene not in campaign.rules.contests.open, "a contest is already open in this scene")
    opened = campaign.timeline.scenes.get(p.scene)
    cast = set(opened.cast) if opened is not None else set()
    first = present(campaign.rules.sheets.pcs.get(p.first), f"{p.first} is not a player character")
    invalid(p.first in cast, f"{p.first} is not in scene {p.scene}")
    first_grade = first.grade(p.first_type)
    spends = [(first.player, p.first_token)]
    if p.second == GM_SIDE:
        invalid(not p.advanced, "a solo action is played with the simple contest's rules (SRD 613)")
        invalid(p.second_type is None, "the GM's side of a solo action uses no action type")
        second_grade = None
        allowance = [ALLOWANCE[p.first_token], solo_allowance(p.second_token, p.formidable)]
        spends.append((campaign.table.gm, p.second_token))
        winner = None
    else:
        invalid(not p.formidable, "a formidable opposition is the GM's, in a solo action")
        second = present(campaign.rules.sheets.pcs.get(p.second), f"{p.second} is not a player character")
        invalid(p.second in cast and p.second != p.first, f"{p.second} is not another character in scene {p.scene}")
        second_grade = second.grade(present(p.second_type, "name the second contestant's action type"))
        winner = outright_winner(p.first, first_grade, p.second, second_grade)
        if p.advanced:  # redraws: 3/2/1, one more for any better grade (SRD 931, 939)
            allowance = [advanced_allowance(p.first_token, first_grade, second_grade),
                         advanced_allowance(p.second_token, second_grade, first_grade)]
        else:
            allowance = [simple_allowance(p.first_token, first_grade, second_grade),
                         simple_allowance(p.second_token, second_grade, first_grade)]
        spends.append((second.player, p.second_token))
    if winner is not None:
        # "the Strong character automatically wins, no resolution system required" (581): no tokens.
        spends, allowance = [], [0, 0]
    return p.model_copy(update={"grades": [first_grade, second_grade], "outright_winner": winner,
                                "allowance": allowance,
                                "procedural_spends": spends_for(campaign.rules.piles, spends, referee)})


def validate_assisted(p: ContestAssisted, campaign: DramaSystemCampaign, referee: Referee) -> ContestAssisted:
    """An assistant's token: 3/2/1 more draws, +1 Strong against an all-Weak other side (629)."""
    open_ = _open(campaign, p.scene)
    invalid(open_.outright is None, "the contest was won outright: there is nothing to assist")
    invalid(open_.duel is None, "in the advanced contest other players interfere with a green token "
                                "(contest redraw), they do not assist")
    contest = open_.contest
    contest.side_index(p.side)
    invalid(p.assistant not in (open_.players.get(contest.first), open_.players.get(contest.second)),
            f"{p.assistant} is a contestant, not an assistant")
    grade = _sheet_of_player(campaign, p.assistant).grade(p.action_type)
    invalid(p.assistant not in open_.assistants, f"{p.assistant} already assists in this contest")
    other = contest.second if p.side == contest.first else contest.first
    other_grade = open_.grades.get(other)
    extra = assist_allowance(p.token, grade is Grade.STRONG and other_grade is Grade.WEAK)
    spends = spends_for(campaign.rules.piles, [(p.assistant, p.token)], referee)
    return p.model_copy(update={"extra": extra, "procedural_spends": spends})


def validate_drew(p: ContestDrew, campaign: DramaSystemCampaign, referee: Referee) -> ContestDrew:
    open_ = _open(campaign, p.scene)
    invalid(open_.outright is None, "the contest was won outright: no card is drawn")
    if open_.duel is not None:
        invalid(not p.drawn_by or p.drawn_by == open_.players.get(p.side), "each contestant draws his own "
                                                                          "opening card")
        advanced_draw(open_.duel, p.side, p.side, Card.parse(p.card), referee)
        return p.model_copy(update={"drawn_by": open_.players.get(p.side, ""), "token": None,
                                    "by_assistant": False})
    drawn_by = p.drawn_by or open_.players.get(p.side, "")
    # The contestant draws with her own token; an assistant draws his extra cards with his (629).
    if drawn_by == open_.players.get(p.side):
        token = open_.tokens.get(p.side)
    else:
        invalid(drawn_by in open_.assistants, f"{drawn_by} neither plays {p.side} nor assists in this contest")
        token = open_.assistants[drawn_by]
    simple_draw(open_.contest, p.side, Card.parse(p.card), referee, drawn_by=drawn_by, token=token)
    return p.model_copy(update={"drawn_by": drawn_by, "token": token,
                                "by_assistant": drawn_by != open_.players.get(p.side)})


def validate_stopped(p: ContestStopped, campaign: DramaSystemCampaign, referee: Referee) -> ContestStopped:
    _open(campaign, p.scene).contest.side_index(p.side)
    return p


def validate_redrew(p: ContestRedrew, campaign: DramaSystemCampaign, referee: Referee) -> ContestRedrew:
    """A redraw of the advanced contest, in its stage (SRD 945-959); an interferer spends green."""
    open_ = _open(campaign, p.scene)
    duel = present(open_.duel, "redraws belong to the advanced contest: in the simple one each side draws")
    contestant_players = {open_.players.get(duel.first), open_.players.get(duel.second)}
    actor = p.actor
    interferer = actor not in (duel.first, duel.second, GM_SIDE)
    spends: list[ProceduralSpend] = []
    if interferer:
        invalid(actor in campaign.table.players and actor not in contestant_players,
                f"{actor} is neither a contestant, the GM, nor another player who may interfere")
        sheet_name = campaign.rules.sheets.of_player.get(actor)
        opened = campaign.timeline.scenes.get(p.scene)
        referee.require(opened is not None and sheet_name in opened.cast, INTERFERE,
                        f"{actor}'s character is not present to interfere")
        spends = spends_for(campaign.rules.piles, [(actor, Colour.GREEN)], referee)
    advanced_draw(duel, actor, p.target, Card.parse(p.card), referee, green_token=interferer)
    return p.model_copy(update={"procedural_spends": spends})


def validate_ended(p: ContestEnded, campaign: DramaSystemCampaign, referee: Referee) -> ContestEnded:
    open_ = _open(campaign, p.scene)
    if open_.outright is not None:
        return p.model_copy(update={"winner": open_.outright})
    if open_.duel is not None:
        result = advanced_result(open_.duel)
        tied = result.by_suit
        invalid(p.surprise is None or tied, "a surprise outcome settles equal values only (SRD 969)")
        return p.model_copy(update={"winner": "" if p.surprise else result.winner,
                                    "winning_card": str(result.winning_card),
                                    "losing_card": str(result.losing_card) if result.losing_card else None,
                                    "by_suit": tied and not p.surprise, "consequences": []})
    result = simple_result(open_.contest)
    # Face cards bring consequences to the players who drew them (607-609); the GM's side has none.
    consequences = [ContestConsequence(player=who, card=str(card), kind=kind)
                    for who, card, kind in contest_consequences(open_.contest) if who != GM_SIDE]
    return p.model_copy(update={"winner": result.winner, "winning_card": str(result.winning_card),
                                "losing_card": str(result.losing_card) if result.losing_card else None,
                                "by_suit": result.by_suit, "consequences": consequences})


# -- the fold -------------------------------------------------------------------------------


def evolve(contests: Contests, recorded: Recorded, state: Any = None) -> Contests:
    p = recorded.payload
    scene = getattr(p, "scene", 0)
    if isinstance(p, ContestStarted):
        players = {p.first: _player(state, p.first), p.second: _player(state, p.second)}
        started = OpenContest(
            contest=SimpleContest(p.first, p.second, _pair(p.allowance)),
            duel=AdvancedContest(p.first, p.second, _pair(p.allowance)) if p.advanced else None,
            tokens={p.first: p.first_token, p.second: p.second_token}, players=players,
            grades={p.first: _at(p.grades, 0), p.second: _at(p.grades, 1)}, outright=p.outright_winner)
        return replace(contests, open={**contests.open, scene: started})
    open_ = contests.open.get(scene)
    if open_ is None:
        return contests
    if isinstance(p, ContestAssisted):
        after = replace(open_, contest=assist(open_.contest, p.side, p.extra),
                        assistants={**open_.assistants, p.assistant: p.token})
    elif isinstance(p, ExtraCard):
        if p.side is None:
            return contests
        after = _one_more(open_, p.side) if p.procedure == CONTEST else _one_more_redraw(open_, p.side)
    elif isinstance(p, (ContestDrew, ContestRedrew)) and open_.duel is not None:
        actor, target = (p.side, p.side) if isinstance(p, ContestDrew) else (p.actor, p.target)
        after = replace(open_, duel=_folded_duel(open_.duel, actor, target, Card.parse(p.card)),
                        contest=replace(open_.contest, deck=Deck(open_.contest.deck.drawn + (Card.parse(p.card),))))
    elif isinstance(p, ContestStopped) and open_.duel is not None:
        after = replace(open_, duel=advanced_pass(open_.duel, p.side))
    elif isinstance(p, ContestDrew):
        card = Card.parse(p.card)
        contest = open_.contest
        draw = ContestDraw(p.side, card, p.drawn_by, p.token)
        after = replace(open_, contest=replace(contest, draws=contest.draws + (draw,),
                                               deck=Deck(contest.deck.drawn + (card,))))
    elif isinstance(p, ContestStopped):
        after = replace(open_, contest=simple_stop(open_.contest, p.side))
    elif isinstance(p, ContestEnded):
        return replace(contests, open={k: v for k, v in contests.open.items() if k != scene},
                       ended=contests.ended | {scene})
    else:
        return contests
    return replace(contests, open={**contests.open, scene: after})


def _one_more(open_: OpenContest, side: str) -> OpenContest:
    """A simple contest's extra draw for ``side`` (DS76, line 732; reading 5), taken in turn."""
    if side not in (open_.contest.first, open_.contest.second):
        return open_
    return replace(open_, contest=assist(open_.contest, side, 1))


def _one_more_redraw(open_: OpenContest, side: str) -> OpenContest:
    """An advanced contest's extra redraw for ``side`` (reading 5), used in turn."""
    duel = open_.duel
    if duel is None or side not in (duel.first, duel.second):
        return open_
    redraws = list(duel.redraws)
    redraws[duel.index(side)] += 1
    return replace(open_, duel=replace(duel, redraws=(redraws[0], redraws[1])))


def _folded_duel(duel: AdvancedContest, actor: str, target: str, card: Card) -> AdvancedContest:
    """A recorded draw folded in through the pure rules with a collecting referee (a fold never refuses)."""
    try:
        return advanced_draw(duel, actor, target, card, Referee.collecting(), green_token=True)
    except Exception:  # noqa: BLE001 - a forged draw: verify names it; the fold keeps the card
        index = 0 if target == duel.first else 1
        cards = list(duel.cards)
        cards[index] = card
        return replace(duel, cards=(cards[0], cards[1]))


def _player(state: Any, side: str) -> str:
    if side == GM_SIDE or state is None:
        return GM_SIDE
    sheet = state.sheets.pcs.get(side)
    return sheet.player if sheet is not None else side


def _pair(values: list[int]) -> tuple[int, int]:
    padded = [*values, 0, 0]
    return padded[0], padded[1]


def _at(values: list[Grade | None], index: int) -> Grade | None:
    return values[index] if index < len(values) else None


FOLDS = folds(ContestStarted, ContestAssisted, ContestDrew, ContestRedrew, ExtraCard, ContestStopped, ContestEnded)

PART = Part(name="contests", initial=Contests, evolve=evolve, folds=FOLDS, decide=decide,
            validators={ContestStarted: validate_started, ContestAssisted: validate_assisted,
                        ContestDrew: validate_drew, ContestRedrew: validate_redrew, ContestStopped: validate_stopped,
                        ContestEnded: validate_ended})
