"""Simple procedural resolution in the journal: the GM's secret token, the target, the draws, the result.

Each step of the SRD's simple resolution (lines 443-567) is an event, so every card is recorded
as it was drawn (entered from the table, or drawn by the tool from the cards left) and replay
never draws again:

- ``dramasystem.procedure.opposed``: the GM's token, secret (recorded for the GM only, SRD 445);
- ``dramasystem.procedure.target_drawn``: the target card and the players' fresh precedence;
- ``dramasystem.procedure.played``: one player's token and cards, and what the knock-outs took;
- ``dramasystem.procedure.resolved``: the GM's token revealed, the result and the consequences.

The pure rules are :mod:`yarnlog.rulesets.dramasystem.rules.simple_resolution`; a validator
decides each recorded step again from its facts, so ``verify`` re-checks every card.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from pydantic import BaseModel, ConfigDict, Field

from yarnlog.core.composition import Part, folds
from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.referee import DiceNeeded, Referee, Rule, invalid, present
from yarnlog.rulesets.dramasystem.parts import extra_cards
from yarnlog.rulesets.dramasystem.parts.cards_needed import CardsNeeded
from yarnlog.rulesets.dramasystem.parts.extra_cards import ExtraCard, HoldsExtraCards, folded_simple
from yarnlog.rulesets.dramasystem.parts.procedural_piles import ProceduralSpend, spends_for
from yarnlog.rulesets.dramasystem.rules import BOOK
from yarnlog.rulesets.dramasystem.rules.cards import Card, Deck, parse_cards
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour
from yarnlog.rulesets.dramasystem.rules.simple_resolution import (
    CARDS_FOR,
    Match,
    SimpleResolution,
    outcome,
    play,
    require_complete,
    start,
)

if TYPE_CHECKING:
    from random import Random

    from yarnlog.core.ruleset import CampaignState
    from yarnlog.rulesets.dramasystem.parts.procedural_piles import Piles
    from yarnlog.rulesets.dramasystem.parts.sheets import Sheets


class HoldsCardProcedure(HoldsExtraCards, Protocol):
    """The slices of a campaign's state this part reads (the state composes every part's slice)."""

    @property
    def sheets(self) -> Sheets: ...
    @property
    def piles(self) -> Piles: ...
    @property
    def procedure(self) -> Procedure: ...


#: A campaign as this part sees it.
DramaSystemCampaign: TypeAlias = "CampaignState[HoldsCardProcedure]"

ONE_A_SCENE = Rule(BOOK, "Multiple Resolutions",
                   "Scenes never include more than one procedural resolution. (line 567)")
GM_SPENDS = Rule(BOOK, "Step One: The GM Spends For the Opposition",
                 "The GM secretly spends one of her available tokens (line 445)")
PROCEDURAL_SCENE = Rule(BOOK, "Calling a Procedural Scene",
                        "To establish a procedural scene, the caller describes the basic situation "
                        "(line 435)")


class OrderNeeded(DiceNeeded):
    """The command needs a fresh precedence order: the tool shuffles the players."""

    def __init__(self, players: tuple[str, ...]):
        def shuffle(rng: Random) -> tuple[str, ...]:
            order = list(players)
            rng.shuffle(order)
            return tuple(order)

        super().__init__("order", len(players), len(players), shuffle)  # type: ignore[arg-type]
        self.args = ("a fresh precedence order is needed: enter it (--order A,B) or let the tool draw it",)

    def uses(self) -> str:
        return f"a fresh precedence order of {self.dice} players"


# -- events ---------------------------------------------------------------------------------


class ConsequenceData(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    player: str
    card: str
    kind: str


@event("dramasystem.procedure.opposed")
class OppositionSet(Payload):
    """The GM's secret token for the scene's resolution (SRD 445): recorded for the GM only."""

    scene: int = Field(ge=1)
    gm: str
    token: Colour
    gm_held: tuple[str, Colour] | None = None


@event("dramasystem.procedure.target_drawn")
class TargetDrawn(Payload):
    """The target card, shown to all, and the players' fresh precedence order (SRD 462-468)."""

    scene: int = Field(ge=1)
    target: str
    order: list[str]
    order_drawn_by_tool: bool = False
    card_drawn_by_tool: bool = False
    present: list[str] = Field(default_factory=list)


@event("dramasystem.procedure.played")
class CardsPlayed(Payload):
    """One player's turn: the token spent (none: an absent player passes) and the cards drawn."""

    scene: int = Field(ge=1)
    player: str
    token: Colour | None
    cards: list[str] = Field(default_factory=list, max_length=2)
    knock_out: str | None = None
    drawn_by_tool: bool = False
    matches: list[Match] = Field(default_factory=list)
    knocked_out: list[str] = Field(default_factory=list)
    waiting_knock_outs: int = 0
    procedural_spends: list[ProceduralSpend] = Field(default_factory=list)


@event("dramasystem.procedure.resolved")
class ProcedureResolved(Payload):
    """The GM's token revealed and the result: "On a match, the characters prevail." (SRD 515)."""

    scene: int = Field(ge=1)
    gm: str
    gm_token: Colour
    success: bool = False
    best: Match = Match.NONE
    needed: Match = Match.NONE
    consequences: list[ConsequenceData] = Field(default_factory=list)
    procedural_spends: list[ProceduralSpend] = Field(default_factory=list)


# -- state ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ResolutionResult:
    """A finished resolution, for listings and recaps."""

    sequence: int
    scene: int
    target: str
    gm_token: Colour
    success: bool
    best: Match
    needed: Match
    cards: tuple[tuple[str, str, str | None, bool], ...]  # (player, card, token, knocked out)
    consequences: tuple[tuple[str, str, str], ...]


@dataclass(frozen=True)
class Procedure:
    """The resolution open in each scene, the GM's secret tokens (her replay only), the results."""

    open: Mapping[int, SimpleResolution] = field(default_factory=dict)
    secret: Mapping[int, Colour] = field(default_factory=dict)
    resolved: frozenset[int] = frozenset()
    results: tuple[ResolutionResult, ...] = ()


# -- commands -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Oppose:
    """The GM spends her secret token for the scene in play."""

    token: str


@dataclass(frozen=True)
class DrawTarget:
    card: str | None = None  # the target card as cut (not "target": that field holds names)
    order: tuple[str, ...] = ()
    rolled: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PlayCards:
    player: str
    token: str | None
    cards: tuple[str, ...] = ()
    knock_out: str | None = None
    rolled: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Resolve:
    """The GM reveals her token: the result."""


def colour(text: str) -> Colour:
    try:
        return Colour(text.strip().lower())
    except ValueError:
        raise _bad(f"{text!r} is not a procedural token: green, yellow or red") from None


def _bad(message: str) -> Exception:
    from yarnlog.core.referee import InvalidCommand

    return InvalidCommand(message)


def _scene(campaign: DramaSystemCampaign) -> int:
    return present(campaign.timeline.scene, "no scene is in play: call a procedural scene first")


def present_players(campaign: DramaSystemCampaign, scene: int) -> list[str]:
    """Players whose characters are in the scene's cast (SRD 478)."""
    opened = campaign.timeline.scenes.get(scene)
    cast = set(opened.cast) if opened is not None else set()
    sheets = campaign.rules.sheets
    return [player for player in campaign.table.players if sheets.of_player.get(player) in cast]


def decide(command: Any, campaign: DramaSystemCampaign, referee: Referee) -> list[Payload] | None:
    if isinstance(command, Oppose):
        opposed = OppositionSet(scene=_scene(campaign), gm=campaign.table.gm, token=colour(command.token))
        return [validate_opposed(opposed, campaign, referee)]
    if isinstance(command, DrawTarget):
        scene = _scene(campaign)
        players = tuple(campaign.table.players)
        order_by_tool = not command.order
        order = tuple(command.order) or tuple(command.rolled.get("order") or ())
        if not order:
            raise OrderNeeded(players)
        target = command.card or next(iter(command.rolled.get("target card") or ()), None)
        if target is None:
            raise CardsNeeded("target card", 1, Deck().left)
        drawn = TargetDrawn(scene=scene, target=str(Card.parse(target)), order=list(order),
                            order_drawn_by_tool=order_by_tool, card_drawn_by_tool=command.card is None)
        return [validate_target(drawn, campaign, referee)]
    if isinstance(command, PlayCards):
        scene = _scene(campaign)
        resolution = present(campaign.rules.procedure.open.get(scene),
                             "no resolution is open in this scene: draw the target card first")
        token = colour(command.token) if command.token else None
        cards = tuple(command.cards) or tuple(command.rolled.get("draw") or ())
        if token is not None and not cards:
            raise CardsNeeded("draw", CARDS_FOR[token], resolution.deck.left)
        played = CardsPlayed(scene=scene, player=command.player, token=token,
                             cards=[str(c) for c in parse_cards(list(cards))],
                             knock_out=str(Card.parse(command.knock_out)) if command.knock_out else None,
                             drawn_by_tool=not command.cards and bool(cards))
        return [validate_played(played, campaign, referee)]
    if isinstance(command, Resolve):
        scene = _scene(campaign)
        token = present(campaign.rules.procedure.secret.get(scene),
                        "the GM has not spent her token for this scene's resolution")
        resolved = ProcedureResolved(scene=scene, gm=campaign.table.gm, gm_token=token)
        return [validate_resolved(resolved, campaign, referee)]
    return extra_cards.decide(command, campaign, referee)


# -- validators -----------------------------------------------------------------------------


def validate_opposed(p: OppositionSet, campaign: DramaSystemCampaign, referee: Referee) -> OppositionSet:
    """The GM, in a procedural scene with no resolution yet, spends a token she has (SRD 445, 567)."""
    invalid(p.gm == campaign.table.gm, f"{p.gm} is not the GM")
    check_procedural_scene(campaign, p.scene, referee)
    procedure = campaign.rules.procedure
    invalid(p.scene not in procedure.secret, "the GM has already spent her token for this resolution")
    referee.require(p.scene not in procedure.resolved, ONE_A_SCENE,
                    f"scene {p.scene} already had its procedural resolution")
    available = campaign.rules.piles.available(p.gm)
    referee.require(p.token in available, GM_SPENDS,
                    f"the GM has no unspent {p.token.value} token "
                    f"(unspent: {', '.join(c.value for c in Colour if c in available) or 'none'})")
    return p.model_copy(update={"gm_held": (p.gm, p.token)})


def check_procedural_scene(campaign: DramaSystemCampaign, scene: int, referee: Referee) -> None:
    invalid(campaign.timeline.scene == scene, f"scene {scene} is not the scene in play")
    opened = campaign.timeline.scenes.get(scene)
    referee.require(opened is not None and opened.mode == "procedural", PROCEDURAL_SCENE,
                    f"scene {scene} is not a procedural scene: use --mode procedural")


def validate_target(p: TargetDrawn, campaign: DramaSystemCampaign, referee: Referee) -> TargetDrawn:
    """Each player once in the order; one resolution a scene (SRD 468, 567)."""
    check_procedural_scene(campaign, p.scene, referee)
    procedure = campaign.rules.procedure
    advanced = campaign.rules.advanced
    referee.require(p.scene not in procedure.resolved and p.scene not in procedure.open
                    and p.scene not in advanced.resolved and p.scene not in advanced.open, ONE_A_SCENE,
                    f"scene {p.scene} already has its procedural resolution")
    players = campaign.table.players
    invalid(sorted(p.order) == sorted(players),
            f"the precedence order names every player once: {', '.join(players)}")
    resolution = start(Card.parse(p.target), tuple(p.order), frozenset(present_players(campaign, p.scene)))
    return p.model_copy(update={"target": str(resolution.target),
                                "present": [x for x in p.order if x in resolution.present]})


def validate_played(p: CardsPlayed, campaign: DramaSystemCampaign, referee: Referee) -> CardsPlayed:
    """One player's turn, through the pure rules: order, presence, token, cards, knock-outs."""
    resolution = present(campaign.rules.procedure.open.get(p.scene),
                         f"no resolution is open in scene {p.scene}")
    invalid(campaign.timeline.scene == p.scene, f"scene {p.scene} is not the scene in play")
    spends = spends_for(campaign.rules.piles, [(p.player, p.token)] if p.token else [], referee)
    after = play(resolution, p.player, p.token, parse_cards(p.cards), referee,
                 knock_out=Card.parse(p.knock_out) if p.knock_out else None)
    new = after.draws[len(resolution.draws):]
    before_lost = {d.card for d in resolution.draws if d.knocked_out}
    lost = [str(d.card) for d in after.draws if d.knocked_out and d.card not in before_lost]
    return p.model_copy(update={"matches": [d.match for d in new], "knocked_out": lost,
                                "waiting_knock_outs": after.pending_knock_outs, "procedural_spends": spends})


def validate_resolved(p: ProcedureResolved, campaign: DramaSystemCampaign, referee: Referee) -> ProcedureResolved:
    """The token the GM spent in secret, revealed once every present player has drawn (SRD 478, 515)."""
    resolution = present(campaign.rules.procedure.open.get(p.scene), f"no resolution is open in scene {p.scene}")
    invalid(p.gm == campaign.table.gm, f"{p.gm} is not the GM")
    secret = campaign.rules.procedure.secret.get(p.scene)
    invalid(secret is None or secret == p.gm_token,
            f"the GM spent {secret.value if secret else ''} for this resolution, not {p.gm_token.value}")
    require_complete(resolution, referee)
    result = outcome(resolution, p.gm_token)
    # Spent in secret at the start, the token leaves the GM's pile when it is revealed.
    spends = spends_for(campaign.rules.piles, [(p.gm, p.gm_token)], referee)
    return p.model_copy(update={
        "success": result.success, "best": result.best, "needed": result.needed,
        "consequences": [ConsequenceData(player=c.player, card=str(c.card), kind=c.kind) for c in result.consequences],
        "procedural_spends": spends})


def audit(campaign: DramaSystemCampaign, recorded: Recorded) -> list[str]:
    """The GM's token is secret until the end (SRD 445): its event is for the GM's eyes only."""
    if isinstance(recorded.payload, OppositionSet) and recorded.visibility != "gm":
        return ["the GM's token for a resolution is secret: it must be recorded for the GM only"]
    return []


# -- the fold -------------------------------------------------------------------------------


def evolve(procedure: Procedure, recorded: Recorded, _state: Any = None) -> Procedure:
    p = recorded.payload
    if isinstance(p, OppositionSet):
        return replace(procedure, secret={**procedure.secret, p.scene: p.token})
    if isinstance(p, TargetDrawn):
        started = SimpleResolution(Card.parse(p.target), tuple(p.order), frozenset(p.present),
                                   deck=Deck((Card.parse(p.target),)))
        return replace(procedure, open={**procedure.open, p.scene: started})
    if isinstance(p, CardsPlayed):
        playing = procedure.open.get(p.scene)
        if playing is None:
            return procedure
        return replace(procedure, open={**procedure.open, p.scene: _folded_play(playing, p)})
    if isinstance(p, ExtraCard):
        playing = procedure.open.get(p.scene)
        if playing is None or p.procedure != extra_cards.SIMPLE:
            return procedure
        return replace(procedure, open={**procedure.open, p.scene: folded_simple(playing, p)})
    if isinstance(p, ProcedureResolved):
        resolution = procedure.open.get(p.scene)
        open_ = {k: v for k, v in procedure.open.items() if k != p.scene}
        secret = {k: v for k, v in procedure.secret.items() if k != p.scene}
        results = procedure.results
        if resolution is not None:
            results += (ResolutionResult(
                recorded.sequence, p.scene, str(resolution.target), p.gm_token, p.success, p.best, p.needed,
                tuple((d.player, str(d.card), d.token.value if d.token else None, d.knocked_out)
                      for d in resolution.draws),
                tuple((c.player, c.card, c.kind) for c in p.consequences)),)
        return replace(procedure, open=open_, secret=secret, resolved=procedure.resolved | {p.scene},
                       results=results)
    return procedure


def _folded_play(resolution: SimpleResolution, p: CardsPlayed) -> SimpleResolution:
    """The recorded turn folded in, from its recorded facts (a fold never refuses)."""
    from yarnlog.rulesets.dramasystem.rules.simple_resolution import Draw, match

    lost = set(p.knocked_out)
    draws = [replace(d, knocked_out=d.knocked_out or str(d.card) in lost) for d in resolution.draws]
    deck = resolution.deck
    for text in p.cards:
        card = Card.parse(text)
        deck = Deck(deck.drawn + (card,))
        draws.append(Draw(p.player, card, p.token, match(card, resolution.target), str(card) in lost))
    return replace(resolution, draws=tuple(draws), turns=resolution.turns + ((p.player, p.token),),
                   pending_knock_outs=p.waiting_knock_outs, deck=deck)


FOLDS = folds(OppositionSet, TargetDrawn, CardsPlayed, ExtraCard, ProcedureResolved)

PART = Part(name="procedure", initial=Procedure, evolve=evolve, folds=FOLDS, decide=decide, audit=audit,
            validators={OppositionSet: validate_opposed, TargetDrawn: validate_target,
                        CardsPlayed: validate_played, ProcedureResolved: validate_resolved,
                        **extra_cards.VALIDATORS})
