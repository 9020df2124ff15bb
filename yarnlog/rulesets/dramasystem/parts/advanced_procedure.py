"""Advanced procedural resolution in the journal: up suits, the opening run, redraws, the clincher.

The SRD's advanced system (lines 776-913) as events, each card recorded as drawn:

- ``dramasystem.advanced.opened``: the primary, the action type used and its grade, the GM's
  token (public here: it sets the up suits everyone plays to, 796-822) and the opening run, the
  cards the GM drew up to the first down card (835);
- ``dramasystem.advanced.primary_drew``: the one or two cards drawn for the primary and the one
  kept (Strong keeps the better, Weak the worse, 847-851);
- ``dramasystem.advanced.redrawn``: who forced a redraw and how (a present player's token once a
  scene, an absent player's green, a positive consequence cashed in), the new card and any
  consequence card (871-893);
- ``dramasystem.advanced.clinched``: the last card stands; its outcome (901-913).

Positive consequences (an advantage from a simple resolution, a good consequence card) are kept
per player until cashed in for a redraw (893). The pure rules are
:mod:`yarnlog.rulesets.dramasystem.rules.advanced_resolution`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from pydantic import Field

from yarnlog.core.composition import Part, folds
from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.referee import DiceNeeded, Referee, invalid, present
from yarnlog.rulesets.dramasystem.parts.card_procedure import (
    ONE_A_SCENE,
    HoldsCardProcedure,
    ProcedureResolved,
    check_procedural_scene,
    colour,
    present_players,
)
from yarnlog.rulesets.dramasystem.parts.cards_needed import CardsNeeded
from yarnlog.rulesets.dramasystem.parts.extra_cards import ADVANCED, ExtraCard, folded_advanced
from yarnlog.rulesets.dramasystem.parts.procedural_piles import ProceduralSpend, spends_for
from yarnlog.rulesets.dramasystem.rules.action_types import Grade
from yarnlog.rulesets.dramasystem.rules.advanced_resolution import (
    AdvancedResolution,
    Band,
    Redraw,
    RedrawMeans,
    band,
    clinch,
    open_run,
    primary_acts,
    redraw,
)
from yarnlog.rulesets.dramasystem.rules.cards import Card, Deck, parse_cards
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour

if TYPE_CHECKING:
    from random import Random

    from yarnlog.core.ruleset import CampaignState


class HoldsAdvancedProcedure(HoldsCardProcedure, Protocol):
    """The slices of a campaign's state this part reads (the state composes every part's slice)."""

    @property
    def advanced(self) -> Advanced: ...


#: A campaign as this part sees it.
DramaSystemCampaign: TypeAlias = "CampaignState[HoldsAdvancedProcedure]"


class OpeningRunNeeded(DiceNeeded):
    """The tool draws the opening run: cards until the first down card (SRD 835)."""

    def __init__(self, token: Colour):
        def run(rng: Random) -> tuple[str, ...]:
            left, drawn = list(Deck().left), []
            rng.shuffle(left)
            for card in left:
                drawn.append(str(card))
                if not band(card, token).up:
                    break
            return tuple(drawn)

        super().__init__("opening run", 1, 52, run)  # type: ignore[arg-type]
        self.args = ("the opening run needs its cards: enter them as drawn (--opening 3S,KH,4D), or let the "
                     "tool draw",)

    def uses(self) -> str:
        return "the opening run uses cards until the first down card"


# -- events ---------------------------------------------------------------------------------


@event("dramasystem.advanced.opened")
class AdvancedOpened(Payload):
    scene: int = Field(ge=1)
    primary: str
    action_type: str
    gm: str
    gm_token: Colour
    opening: list[str] = Field(min_length=1, max_length=52)
    drawn_by_tool: bool = False
    grade: Grade = Grade.MIDDLING
    primary_player: str = ""
    present: list[str] = Field(default_factory=list)
    procedural_spends: list[ProceduralSpend] = Field(default_factory=list)


@event("dramasystem.advanced.primary_drew")
class PrimaryDrew(Payload):
    scene: int = Field(ge=1)
    cards: list[str] = Field(min_length=1, max_length=2)
    kept: str
    drawn_by_tool: bool = False
    band: Band = Band.DOWN_NUMBER


@event("dramasystem.advanced.redrawn")
class Redrawn(Payload):
    scene: int = Field(ge=1)
    player: str
    means: RedrawMeans
    token: Colour | None = None
    card: str
    consequence_card: str | None = None
    drawn_by_tool: bool = False
    consequence_drawn_by_tool: bool = False
    cashes_in: int | None = None  # the event whose positive consequence is used
    band: Band = Band.DOWN_NUMBER
    consequence: str | None = None
    procedural_spends: list[ProceduralSpend] = Field(default_factory=list)


@event("dramasystem.advanced.clinched")
class Clinched(Payload):
    scene: int = Field(ge=1)
    clincher: str = ""
    band: Band = Band.DOWN_NUMBER
    success: bool = False
    outcome: str = ""
    narrator: str = ""


# -- state ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Advanced:
    """Advanced resolutions open by scene, those finished, and each player's unused advantages."""

    open: Mapping[int, AdvancedResolution] = field(default_factory=dict)
    primary_player: Mapping[int, str] = field(default_factory=dict)
    resolved: frozenset[int] = frozenset()
    #: Events whose positive consequence a player has yet to gain from (SRD 893), by player.
    advantages: Mapping[str, tuple[int, ...]] = field(default_factory=dict)


# -- commands -------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpenAdvanced:
    primary: str
    action_type: str
    token: str
    opening: tuple[str, ...] = ()
    rolled: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PrimaryDraw:
    cards: tuple[str, ...] = ()
    kept: str | None = None
    rolled: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ForceRedraw:
    player: str
    token: str | None = None
    absent_green: bool = False
    cash_in: bool = False
    card: str | None = None
    consequence_card: str | None = None
    rolled: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Clinch:
    pass


def _open(campaign: DramaSystemCampaign, scene: int) -> AdvancedResolution:
    return present(campaign.rules.advanced.open.get(scene),
                   "no advanced resolution is open in this scene: open one first")


def _scene(campaign: DramaSystemCampaign) -> int:
    return present(campaign.timeline.scene, "no scene is in play: call a procedural scene first")


def decide(command: Any, campaign: DramaSystemCampaign, referee: Referee) -> list[Payload] | None:
    if isinstance(command, OpenAdvanced):
        token = colour(command.token)
        opening = tuple(command.opening) or tuple(command.rolled.get("opening run") or ())
        if not opening:
            raise OpeningRunNeeded(token)
        sheet = present(campaign.rules.sheets.pcs.get(command.primary), f"{command.primary} is not a player character")
        opened = AdvancedOpened(scene=_scene(campaign), primary=command.primary,
                                action_type=sheet.action_type_named(command.action_type),
                                gm=campaign.table.gm, gm_token=token, opening=[str(c) for c in parse_cards(opening)],
                                drawn_by_tool=not command.opening)
        return [validate_opened(opened, campaign, referee)]
    if isinstance(command, PrimaryDraw):
        scene = _scene(campaign)
        resolution = _open(campaign, scene)
        wanted = 1 if resolution.grade is Grade.MIDDLING else 2
        cards = tuple(command.cards) or tuple(command.rolled.get("primary") or ())
        if not cards:
            raise CardsNeeded("primary", wanted, resolution.deck.left)
        parsed = parse_cards(cards)
        kept = command.kept or str(_kept_by_grade(resolution, parsed))
        drew = PrimaryDrew(scene=scene, cards=[str(c) for c in parsed], kept=str(Card.parse(kept)),
                           drawn_by_tool=not command.cards)
        return [validate_primary(drew, campaign, referee)]
    if isinstance(command, ForceRedraw):
        return [_decide_redraw(command, campaign, referee)]
    if isinstance(command, Clinch):
        return [validate_clinched(Clinched(scene=_scene(campaign)), campaign, referee)]
    return None


def _kept_by_grade(resolution: AdvancedResolution, cards: tuple[Card, ...]) -> Card:
    """The card the grade keeps: Strong the better, Weak the worse (SRD 847-851)."""
    ranked = sorted(cards, key=lambda c: resolution.band(c).value)
    return ranked[-1] if resolution.grade is Grade.STRONG else ranked[0]


def _decide_redraw(command: ForceRedraw, campaign: DramaSystemCampaign, referee: Referee) -> Payload:
    scene = _scene(campaign)
    resolution = _open(campaign, scene)
    means = (RedrawMeans.CASH_IN if command.cash_in else RedrawMeans.ABSENT_GREEN if command.absent_green
             else RedrawMeans.TOKEN)
    token = Colour.GREEN if command.absent_green else (colour(command.token) if command.token else None)
    invalid(means is not RedrawMeans.TOKEN or token is not None,
            "a redraw spends a token (--token COLOUR), an absent player's green (--absent-green) or cashes in "
            "a positive consequence (--cash-in)")
    card = command.card or next(iter(command.rolled.get("redraw") or ()), None)
    if card is None:
        raise CardsNeeded("redraw", 1, resolution.deck.left)
    needs_consequence = means is RedrawMeans.TOKEN and token in (Colour.RED, Colour.GREEN)
    consequence = command.consequence_card or next(iter(command.rolled.get("consequence card") or ()), None)
    if needs_consequence and consequence is None:
        left = tuple(c for c in resolution.deck.left if str(c) != str(Card.parse(card)))
        raise CardsNeeded("consequence card", 1, left)
    cashes_in = None
    if means is RedrawMeans.CASH_IN:
        held = campaign.rules.advanced.advantages.get(command.player, ())
        cashes_in = held[0] if held else None
    payload = Redrawn(scene=scene, player=command.player, means=means, token=token, card=str(Card.parse(card)),
                      consequence_card=str(Card.parse(consequence)) if consequence else None,
                      drawn_by_tool=command.card is None,
                      consequence_drawn_by_tool=consequence is not None and command.consequence_card is None,
                      cashes_in=cashes_in)
    return validate_redrawn(payload, campaign, referee)


# -- validators -----------------------------------------------------------------------------


def validate_opened(p: AdvancedOpened, campaign: DramaSystemCampaign, referee: Referee) -> AdvancedOpened:
    """A PC of the scene as primary, with its grade; one resolution a scene; the GM's token; the run."""
    check_procedural_scene(campaign, p.scene, referee)
    referee.require(p.scene not in campaign.rules.procedure.resolved and p.scene not in campaign.rules.procedure.open
                    and p.scene not in campaign.rules.advanced.resolved and p.scene not in campaign.rules.advanced.open,
                    ONE_A_SCENE, f"scene {p.scene} already has its procedural resolution")
    invalid(p.gm == campaign.table.gm, f"{p.gm} is not the GM")
    sheet = present(campaign.rules.sheets.pcs.get(p.primary), f"{p.primary} is not a player character")
    opened = campaign.timeline.scenes.get(p.scene)
    invalid(opened is not None and p.primary in opened.cast, f"{p.primary} is not in scene {p.scene}")
    grade = sheet.grade(p.action_type)
    spends = spends_for(campaign.rules.piles, [(p.gm, p.gm_token)], referee)
    resolution = open_run(p.gm_token, sheet.player, grade, frozenset(present_players(campaign, p.scene)),
                          parse_cards(p.opening), referee)
    return p.model_copy(update={"grade": grade, "primary_player": sheet.player,
                                "present": sorted(resolution.present), "procedural_spends": spends})


def validate_primary(p: PrimaryDrew, campaign: DramaSystemCampaign, referee: Referee) -> PrimaryDrew:
    resolution = _open(campaign, p.scene)
    invalid(not resolution.primary_cards, "the primary has acted already")
    after = primary_acts(resolution, parse_cards(p.cards), Card.parse(p.kept), referee)
    assert after.active is not None
    return p.model_copy(update={"band": after.band(after.active)})


def validate_redrawn(p: Redrawn, campaign: DramaSystemCampaign, referee: Referee) -> Redrawn:
    resolution = _open(campaign, p.scene)
    unused = campaign.rules.advanced.advantages.get(p.player, ())
    if p.means is RedrawMeans.CASH_IN:
        invalid(p.cashes_in is None or p.cashes_in in unused,
                f"event {p.cashes_in} gave {p.player} no positive consequence still unused")
    spends = spends_for(campaign.rules.piles, [(p.player, p.token)], referee) \
        if p.token is not None and p.means in (RedrawMeans.TOKEN, RedrawMeans.ABSENT_GREEN) else []
    after = redraw(resolution, p.player, p.means, p.token, Card.parse(p.card),
                   Card.parse(p.consequence_card) if p.consequence_card else None, referee,
                   unused_positive_consequence=p.cashes_in is not None and p.cashes_in in unused)
    entry: Redraw = after.redraws[-1]
    return p.model_copy(update={"band": after.band(entry.card), "consequence": entry.consequence,
                                "procedural_spends": spends})


def validate_clinched(p: Clinched, campaign: DramaSystemCampaign, referee: Referee) -> Clinched:
    result = clinch(_open(campaign, p.scene))
    narrator = campaign.rules.advanced.primary_player.get(p.scene, "") if result.success else "the GM"
    return p.model_copy(update={"clincher": str(result.clincher), "band": result.band, "success": result.success,
                                "outcome": result.outcome, "narrator": narrator})


# -- the fold -------------------------------------------------------------------------------


def evolve(advanced: Advanced, recorded: Recorded, _state: Any = None) -> Advanced:
    p = recorded.payload
    if isinstance(p, ProcedureResolved):
        gained = [c.player for c in p.consequences if c.kind == "advantage"]
        return _gain(advanced, gained, recorded.sequence)
    if isinstance(p, AdvancedOpened):
        opening = parse_cards(p.opening)
        started = AdvancedResolution(p.gm_token, p.primary_player, p.grade, frozenset(p.present),
                                     opening=opening, active=opening[-1], deck=Deck(opening))
        return replace(advanced, open={**advanced.open, p.scene: started},
                       primary_player={**advanced.primary_player, p.scene: p.primary_player})
    resolution = advanced.open.get(getattr(p, "scene", 0))
    if resolution is None:
        return advanced
    if isinstance(p, ExtraCard):
        if p.procedure != ADVANCED:
            return advanced
        return replace(advanced, open={**advanced.open, p.scene: folded_advanced(resolution, p)})
    if isinstance(p, PrimaryDrew):
        cards = parse_cards(p.cards)
        after = replace(resolution, primary_cards=cards, active=Card.parse(p.kept),
                        deck=Deck(resolution.deck.drawn + cards))
        return replace(advanced, open={**advanced.open, p.scene: after})
    if isinstance(p, Redrawn):
        card = Card.parse(p.card)
        extra = (Card.parse(p.consequence_card),) if p.consequence_card else ()
        entry = Redraw(p.player, p.means, p.token, card, extra[0] if extra else None, p.consequence)
        after = replace(resolution, active=card, redraws=resolution.redraws + (entry,),
                        deck=Deck(resolution.deck.drawn + (card, *extra)))
        advanced = replace(advanced, open={**advanced.open, p.scene: after})
        if p.means is RedrawMeans.CASH_IN and p.cashes_in is not None:
            left = tuple(s for s in advanced.advantages.get(p.player, ()) if s != p.cashes_in)
            advanced = replace(advanced, advantages={**advanced.advantages, p.player: left})
        if p.consequence == "good":
            advanced = _gain(advanced, [p.player], recorded.sequence)
        return advanced
    if isinstance(p, Clinched):
        return replace(advanced, open={k: v for k, v in advanced.open.items() if k != p.scene},
                       resolved=advanced.resolved | {p.scene})
    return advanced


def _gain(advanced: Advanced, players: list[str], sequence: int) -> Advanced:
    if not players:
        return advanced
    gains = dict(advanced.advantages)
    for player in players:
        gains[player] = gains.get(player, ()) + (sequence,)
    return replace(advanced, advantages=gains)


FOLDS = folds(ProcedureResolved, AdvancedOpened, PrimaryDrew, Redrawn, ExtraCard, Clinched)

PART = Part(name="advanced", initial=Advanced, evolve=evolve, folds=FOLDS, decide=decide,
            validators={AdvancedOpened: validate_opened, PrimaryDrew: validate_primary, Redrawn: validate_redrawn,
                        Clinched: validate_clinched})
