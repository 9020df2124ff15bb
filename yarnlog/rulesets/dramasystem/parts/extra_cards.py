"""An additional card: a bennie's (DS76, line 732) or the GM's ruling for a "How I Do It" specialty (149).

"Cash in a bennie for any one of the following: ... to draw an additional card in a procedural
scene" (lines 726-732). The digest's reading 5 says what that card is in each procedure:

- a simple resolution: one more card for that player, drawn at once (it may meet a knock-out
  waiting for a match, and brings no face-card consequence: no token was spent with it);
- an advanced resolution: one redraw of the active card;
- a simple contest or a solo action: one more draw for the player's side, taken in turn;
- an advanced contest: one more redraw for the player's side, taken in turn.

A "How I Do It" specialty gives "an additional advantage" the book does not number (149;
reading 7): the GM grants the same extra card or redraw as a ruling, with her reason, and nothing
happens by itself. Either way it is one ``dramasystem.procedure.extra_card`` event: the bennie (and
its one-a-scene rule, DS77) is paid in it, and the card, where it is drawn at once, is recorded
in it, so replay never draws again. The procedures' parts fold it into their open resolution.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from pydantic import Field

from yarnlog.core.events import Payload, event
from yarnlog.core.referee import Referee, Rule, invalid, present
from yarnlog.rulesets.dramasystem.parts.cards_needed import CardsNeeded
from yarnlog.rulesets.dramasystem.parts.drama import DRAMASYSTEM
from yarnlog.rulesets.dramasystem.rules import BOOK
from yarnlog.rulesets.dramasystem.rules.advanced_resolution import (
    AdvancedResolution,
    Band,
    Redraw,
    RedrawMeans,
    redraw,
)
from yarnlog.rulesets.dramasystem.rules.cards import Card, Deck
from yarnlog.rulesets.dramasystem.rules.simple_resolution import Draw, Match, SimpleResolution, extra_card, match
from yarnlog.rulesets.scenes_and_tokens.parameters import SHARED_BOOK
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_spends import BennieSpendLine, bennie_paid
from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import drama_of
from yarnlog.rulesets.scenes_and_tokens.parts.economy import BENNIE, Economy, TransferLine
from yarnlog.rulesets.scenes_and_tokens.rules.bennies import BennieOption, BennieSpend, spend_bennie

if TYPE_CHECKING:
    from yarnlog.core.ruleset import CampaignState


class HoldsExtraCards(Protocol):
    """The slices of a campaign's state this part reads (the state composes every part's slice)."""

    @property
    def procedure(self) -> Any: ...
    @property
    def advanced(self) -> Any: ...
    @property
    def contests(self) -> Any: ...
    @property
    def economy(self) -> Economy: ...


#: A campaign as this part sees it.
DramaSystemCampaign: TypeAlias = "CampaignState[HoldsExtraCards]"

#: The bennie's option, cited with DramaSystem's numbers (DS76).
EXTRA_CARD = DRAMASYSTEM.cite(Rule(SHARED_BOOK, "Spending Bennies", BennieOption.EXTRA_CARD.effect))
HOW_I_DO_IT = Rule(f"{BOOK} (line 149; digest reading 7)", "How You Do It",
                   "In a situation where it fits to describe yourself as employing your distinctive talent, "
                   "you gain an additional advantage.")
IN_A_PROCEDURAL_SCENE = Rule(f"{BOOK} (DS76, line 732; digest reading 5)", "Spending Bennies",
                             "to draw an additional card in a procedural scene")

SIMPLE, ADVANCED, CONTEST, ADVANCED_CONTEST = "simple", "advanced", "contest", "advanced contest"
#: What the extra card is in each procedure (reading 5), in the words the answers use.
WHAT_IT_IS = {SIMPLE: "one more card", ADVANCED: "one redraw", CONTEST: "one more draw",
              ADVANCED_CONTEST: "one more redraw"}


@event("dramasystem.procedure.extra_card")
class ExtraCard(Payload):
    """An additional card or redraw, bought with a bennie (DS76, line 732) or granted by the GM (149)."""

    scene: int = Field(ge=1)
    player: str
    ruling: str | None = None  # the GM's reason when she grants it; None: a bennie pays for it
    procedure: str = ""  # derived: simple, advanced, contest or advanced contest
    side: str | None = None  # a contest: the contestant (character, or GM for a solo action) it serves
    card: str | None = None  # drawn at once in a resolution; in a contest it is drawn in turn
    drawn_by_tool: bool = False
    match: Match | None = None  # simple resolution
    knocked_out: bool = False  # simple resolution: taken by a knock-out waiting for a match
    waiting_knock_outs: int = 0
    band: Band | None = None  # advanced resolution: the new active card's band
    bennie_spends: list[BennieSpendLine] = Field(default_factory=list, max_length=1)
    transfers: list[TransferLine] = Field(default_factory=list)


@dataclass(frozen=True)
class DrawExtraCard:
    """``player`` draws an additional card (``ruling``: the GM's reason, else a bennie pays)."""

    player: str
    card: str | None = None
    ruling: str | None = None
    rolled: Mapping[str, Any] = field(default_factory=dict)


def procedure_in(campaign: DramaSystemCampaign, scene: int) -> str | None:
    """Which procedure is open in ``scene``: a contest first (it is the player's own), then a resolution."""
    rules = campaign.rules
    contest = rules.contests.open.get(scene)
    if contest is not None:
        return ADVANCED_CONTEST if contest.duel is not None else CONTEST
    if scene in rules.advanced.open:
        return ADVANCED
    if scene in rules.procedure.open:
        return SIMPLE
    return None


def decide(command: Any, campaign: DramaSystemCampaign, referee: Referee) -> list[Payload] | None:
    if not isinstance(command, DrawExtraCard):
        return None
    scene = present(campaign.timeline.scene, "no scene is in play: an additional card is drawn in a procedural "
                                             "scene (DS76, line 732)")
    which = procedure_in(campaign, scene)
    card = command.card or next(iter(command.rolled.get("extra card") or ()), None)
    if which in (SIMPLE, ADVANCED) and card is None:
        deck: Deck = (campaign.rules.procedure.open[scene].deck if which == SIMPLE
                      else campaign.rules.advanced.open[scene].deck)
        raise CardsNeeded("extra card", 1, deck.left)
    ruling = command.ruling.strip() if command.ruling is not None else None
    drawn = ExtraCard(scene=scene, player=command.player, ruling=ruling,
                      card=str(Card.parse(card)) if card else None,
                      drawn_by_tool=command.card is None and card is not None)
    return [validate(drawn, campaign, referee)]


def validate(p: ExtraCard, campaign: DramaSystemCampaign, referee: Referee) -> ExtraCard:
    """The procedure open in the scene takes the extra card as reading 5 says; the bennie is paid (one a
    scene, DS77) or the GM's ruling names its reason (reading 7)."""
    invalid(campaign.timeline.scene == p.scene, f"scene {p.scene} is not the scene in play")
    opened = campaign.timeline.scenes.get(p.scene)
    referee.require(opened is not None and opened.mode == "procedural", IN_A_PROCEDURAL_SCENE,
                    f"scene {p.scene} is a dramatic scene: no card is drawn in it")
    which = present(procedure_in(campaign, p.scene), (
        "no resolution or contest is open in this scene: an additional card is drawn in a procedural "
        "scene (DS76, line 732)"))
    table = campaign.table
    invalid(p.player in table.players, f"{p.player} is not a player at the table")
    invalid(p.ruling is None or bool(p.ruling), "a GM ruling needs a reason (How I Do It, line 149)")
    update: dict[str, Any] = {"procedure": which, "side": None, "match": None, "knocked_out": False,
                              "waiting_knock_outs": 0, "band": None}
    rules = campaign.rules
    if which == SIMPLE:
        resolution: SimpleResolution = rules.procedure.open[p.scene]
        invalid(p.player in resolution.order, f"{p.player} is not in this resolution's precedence order")
        card = Card.parse(present(p.card, "an additional card in a simple resolution is drawn at once: "
                                          "enter it (--card QH) or let the tool draw"))
        after = extra_card(resolution, p.player, card)
        new = after.draws[-1]
        update.update(card=str(card), match=new.match, knocked_out=new.knocked_out,
                      waiting_knock_outs=after.pending_knock_outs)
    elif which == ADVANCED:
        resolution_a: AdvancedResolution = rules.advanced.open[p.scene]
        card = Card.parse(present(p.card, "an additional card in an advanced resolution is a redraw: "
                                          "enter it (--card QH) or let the tool draw"))
        means = RedrawMeans.RULING if p.ruling is not None else RedrawMeans.BENNIE
        after_a = redraw(resolution_a, p.player, means, None, card, None, referee)
        update.update(card=str(card), band=after_a.band(card))
    else:
        open_ = rules.contests.open[p.scene]
        invalid(open_.outright is None, "the contest was won outright: no card is drawn")
        sides = [side for side, player in open_.players.items() if player == p.player]
        invalid(bool(sides), f"{p.player} plays neither side of this contest: the additional draw goes to "
                             "a contestant's own side")
        invalid(p.card is None, "in a contest the additional card is drawn in turn (yarnlog contest draw, or "
                                "contest redraw): it adds one to the side's draws")
        update["side"] = sides[0]
    if p.ruling is None:
        update.update(_bennie_paid(campaign, referee, p.player, p.scene))
    else:
        update.update(bennie_spends=[], transfers=[])
    return p.model_copy(update=update)


def _bennie_paid(campaign: DramaSystemCampaign, referee: Referee, spender: str, scene: int) -> dict[str, Any]:
    """The bennie leaving the player's sheet, checked against "You may spend only one bennie per scene"."""
    economy = campaign.rules.economy
    spent = spend_bennie(DRAMASYSTEM.referee(referee), BennieSpend(spender, BennieOption.EXTRA_CARD, scene),
                         held=economy.holding(spender, BENNIE), history=drama_of(campaign).spends_in(scene),
                         balances_now=economy.tokens, gm=campaign.table.gm)
    return {"bennie_spends": [BennieSpendLine.of(spent.spend)], "transfers": [bennie_paid(spender, EXTRA_CARD)]}


# -- folds: each procedure's part folds the event into its open resolution (a fold never refuses) --


def folded_simple(resolution: SimpleResolution, p: ExtraCard) -> SimpleResolution:
    """One more card in the player's hand, knocked out if a waiting knock-out took it (recorded)."""
    if p.card is None:
        return resolution
    card = Card.parse(p.card)
    draw = Draw(p.player, card, None, match(card, resolution.target), p.knocked_out)
    return replace(resolution, draws=resolution.draws + (draw,), pending_knock_outs=p.waiting_knock_outs,
                   deck=Deck(resolution.deck.drawn + (card,)))


def folded_advanced(resolution: AdvancedResolution, p: ExtraCard) -> AdvancedResolution:
    """The redraw replaces the active card."""
    if p.card is None:
        return resolution
    card = Card.parse(p.card)
    means = RedrawMeans.RULING if p.ruling is not None else RedrawMeans.BENNIE
    return replace(resolution, active=card, redraws=resolution.redraws + (Redraw(p.player, means, None, card),),
                   deck=Deck(resolution.deck.drawn + (card,)))


VALIDATORS: dict[type, Any] = {ExtraCard: validate}
