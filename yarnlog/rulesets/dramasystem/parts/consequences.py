"""Consequences noted, invoked, cashed in and faded (SRD 637-641, 891-893; digest move 21).

"When a character earns or suffers a consequence during a procedural scene, GM and player each make
a note of it." (637): the journal notes it from the event that brought it, a simple resolution's
face card (521-527), a contest's (607-609) or an advanced resolution's consequence card (877-881).
"Players should then attempt to work their consequences into an upcoming scene. If they don't, the
GM will. You can invoke a consequence in more than one scene. Eventually some new consequence will
arise, and the old one will fade into the background." (639-641): ``dramasystem.consequence.invoked``
records it worked into a later scene (as often as the table likes), ``dramasystem.consequence.faded``
its fading. A positive one cashed in for an advanced redraw (893) is marked so by that redraw.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from dataclasses import replace as dc_replace
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from pydantic import Field
from pyrsistent import PMap, pmap

from yarnlog.core.composition import Part, folds
from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.referee import Referee, Rule, invalid, present
from yarnlog.rulesets.dramasystem.parts.advanced_procedure import Redrawn
from yarnlog.rulesets.dramasystem.parts.card_procedure import ProcedureResolved
from yarnlog.rulesets.dramasystem.parts.contests import ContestEnded
from yarnlog.rulesets.dramasystem.rules import BOOK
from yarnlog.rulesets.dramasystem.rules.advanced_resolution import RedrawMeans
from yarnlog.rulesets.dramasystem.rules.cards import Card

if TYPE_CHECKING:
    from yarnlog.core.ruleset import CampaignState


class HoldsConsequences(Protocol):
    """The slices of a campaign's state this part reads (the state composes every part's slice)."""

    @property
    def consequences(self) -> Consequences: ...


#: A campaign as this part sees it.
DramaSystemCampaign: TypeAlias = "CampaignState[HoldsConsequences]"

RESOLVING = "Resolving Consequences"
UPCOMING_SCENE = Rule(f"{BOOK} (lines 639-641)", RESOLVING,
                      "Players should then attempt to work their consequences into an upcoming scene. If they "
                      "don't, the GM will. You can invoke a consequence in more than one scene. Eventually some "
                      "new consequence will arise, and the old one will fade into the background.")
#: What an advanced resolution's consequence card brings, in the words of the simple one's (877-881).
_KIND_OF_CARD = {"good": "advantage", "bad": "obstacle"}


@dataclass(frozen=True)
class Consequence:
    """One consequence as noted: who, from which event and scene, the card, and what became of it."""

    source: int
    scene: int
    player: str
    card: str
    kind: str  # "advantage" | "obstacle"
    invoked_in: tuple[int, ...] = ()
    faded: bool = False
    cashed_in: bool = False

    @property
    def live(self) -> bool:
        """Still in play: neither faded nor cashed in."""
        return not (self.faded or self.cashed_in)


@dataclass(frozen=True)
class Consequences:
    """Every consequence by (source event, card): persistent, since it grows with the campaign."""

    noted: PMap[tuple[int, str], Consequence] = field(default_factory=pmap)

    def of(self, player: str) -> list[Consequence]:
        return sorted((c for c in self.noted.values() if c.player == player), key=lambda c: (c.source, c.card))


@event("dramasystem.consequence.invoked")
class ConsequenceInvoked(Payload):
    """A consequence worked into a later scene (SRD 639)."""

    scene: int = Field(ge=1)
    player: str
    source: int = Field(ge=1)
    card: str = ""
    kind: str = ""


@event("dramasystem.consequence.faded")
class ConsequenceFaded(Payload):
    """A consequence fades into the background (SRD 641)."""

    player: str
    source: int = Field(ge=1)
    card: str = ""
    kind: str = ""
    reason: str = ""


@dataclass(frozen=True)
class InvokeConsequence:
    player: str
    source: int
    card: str | None = None


@dataclass(frozen=True)
class FadeConsequence:
    player: str
    source: int
    card: str | None = None
    reason: str = ""


def _find(campaign: DramaSystemCampaign, player: str, source: int, card: str | None) -> Consequence:
    """The player's consequence from event ``source`` (its card when that event brought them two)."""
    mine = [c for c in campaign.rules.consequences.of(player) if c.source == source]
    invalid(bool(mine), f"event {source} brought {player} no consequence")
    if card is not None:
        wanted = str(Card.parse(card))
        mine = [c for c in mine if c.card == wanted]
        invalid(bool(mine), f"event {source} brought {player} no consequence with {wanted}")
    invalid(len(mine) == 1, f"event {source} brought {player} {len(mine)} consequences: name its card (--card)")
    return mine[0]


def decide(command: Any, campaign: DramaSystemCampaign, referee: Referee) -> list[Payload] | None:
    if isinstance(command, InvokeConsequence):
        found = _find(campaign, command.player, command.source, command.card)
        scene = present(campaign.timeline.scene, "no scene is in play: a consequence is worked into a scene")
        invoked = ConsequenceInvoked(scene=scene, player=command.player, source=found.source, card=found.card)
        return [validate_invoked(invoked, campaign, referee)]
    if isinstance(command, FadeConsequence):
        found = _find(campaign, command.player, command.source, command.card)
        faded = ConsequenceFaded(player=command.player, source=found.source, card=found.card,
                                 reason=command.reason.strip())
        return [validate_faded(faded, campaign, referee)]
    return None


def _noted(campaign: DramaSystemCampaign, player: str, source: int, card: str) -> Consequence:
    found = campaign.rules.consequences.noted.get((source, card))
    invalid(found is not None and found.player == player, f"event {source} brought {player} no consequence "
                                                          f"with {card}")
    assert found is not None
    invalid(not found.cashed_in, f"{player}'s {found.kind} ({card}) was cashed in for a redraw (SRD 893)")
    invalid(not found.faded, f"{player}'s {found.kind} ({card}) has faded into the background")
    return found


def validate_invoked(p: ConsequenceInvoked, campaign: DramaSystemCampaign, referee: Referee) -> ConsequenceInvoked:
    """A live consequence of the player's, worked into an upcoming scene: a later one than it arose in."""
    invalid(campaign.timeline.scene == p.scene, f"scene {p.scene} is not the scene in play")
    found = _noted(campaign, p.player, p.source, p.card)
    referee.require(p.scene > found.scene, UPCOMING_SCENE,
                    f"{p.player}'s {found.kind} from scene {found.scene} is for an upcoming scene")
    return p.model_copy(update={"kind": found.kind})


def validate_faded(p: ConsequenceFaded, campaign: DramaSystemCampaign, referee: Referee) -> ConsequenceFaded:
    found = _noted(campaign, p.player, p.source, p.card)
    return p.model_copy(update={"kind": found.kind})


def evolve(consequences: Consequences, recorded: Recorded, _state: Any = None) -> Consequences:
    p = recorded.payload
    noted = consequences.noted
    if isinstance(p, (ProcedureResolved, ContestEnded)):
        for c in p.consequences:
            noted = noted.set((recorded.sequence, c.card), Consequence(recorded.sequence, p.scene, c.player, c.card,
                                                                       c.kind))
    elif isinstance(p, Redrawn):
        if p.consequence in _KIND_OF_CARD and p.consequence_card:
            noted = noted.set((recorded.sequence, p.consequence_card), Consequence(
                recorded.sequence, p.scene, p.player, p.consequence_card, _KIND_OF_CARD[p.consequence]))
        if p.means is RedrawMeans.CASH_IN and p.cashes_in is not None:
            # The positive consequence the advanced part cashes in: the player's first live one from that event.
            for key, held in sorted(noted.items()):
                if held.source == p.cashes_in and held.player == p.player and held.kind == "advantage" and held.live:
                    noted = noted.set(key, dc_replace(held, cashed_in=True))
                    break
    elif isinstance(p, ConsequenceInvoked):
        found = noted.get((p.source, p.card))
        if found is not None:
            noted = noted.set((p.source, p.card), dc_replace(found, invoked_in=found.invoked_in + (p.scene,)))
    elif isinstance(p, ConsequenceFaded):
        found = noted.get((p.source, p.card))
        if found is not None:
            noted = noted.set((p.source, p.card), dc_replace(found, faded=True))
    else:
        return consequences
    return Consequences(noted)


def consequence_rows(campaign: DramaSystemCampaign, player: str | None = None) -> list[dict[str, Any]]:
    """Every consequence noted (or ``player``'s), oldest first, with where it was invoked and its fate."""
    rows = []
    for one in sorted(campaign.rules.consequences.noted.values(), key=lambda c: (c.source, c.card)):
        if player is not None and one.player.casefold() != player.casefold():
            continue
        state = "cashed in" if one.cashed_in else "faded" if one.faded else "in play"
        rows.append({"player": one.player, "kind": one.kind, "card": one.card, "source": one.source,
                     "scene": one.scene, "invoked_in": list(one.invoked_in), "state": state})
    return rows


FOLDS = folds(ProcedureResolved, ContestEnded, Redrawn, ConsequenceInvoked, ConsequenceFaded)

PART = Part(name="consequences", initial=Consequences, evolve=evolve, folds=FOLDS, decide=decide,
            validators={ConsequenceInvoked: validate_invoked, ConsequenceFaded: validate_faded})
