"""Every participant's procedural tokens, the GM's included: spent, refreshed, carried over.

"Each player, and the GM, starts the first session with three procedural tokens" (SRD 423): a
pile is full when a participant joins, and it never refreshes between sessions (425). Events
that spend tokens carry them in ``procedural_spends``; this part folds them, refreshing a pile
the moment its third token is spent (423), and keeps the ledger of each spend. The GM's token
for a resolution is spent in secret (445): only the GM's own replay sees it set aside (held for
that resolution, so she cannot spend it twice) until it is revealed at the end.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import BaseModel, ConfigDict
from pyrsistent import PVector, pvector

from yarnlog.core.composition import Part, folds
from yarnlog.core.events import Recorded
from yarnlog.core.referee import Referee
from yarnlog.core.table import CampaignCreated, ParticipantJoined
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import SPEND, Colour, TokenPile, settle


class ProceduralSpend(BaseModel):
    """One procedural token spent by one participant; ``refreshed`` when it was the pile's last."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    participant: str
    colour: Colour
    refreshed: bool = False


class ProceduralRestore(BaseModel):
    """One spent procedural token returned to its participant's unspent pile (a bennie, SRD 730; reading 5)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    participant: str
    colour: Colour


@dataclass(frozen=True)
class PileLine:
    """A line of the procedural ledger: who spent which token, in which event and scene, and why."""

    sequence: int
    scene: int | None
    participant: str
    colour: Colour
    refreshed: bool
    event_type: str
    #: The participant's unspent tokens once this spend (and any refresh it brought) is done.
    unspent_after: frozenset[Colour] = frozenset()
    restored: bool = False  # a spent token returned (a bennie), not one spent


@dataclass(frozen=True)
class Piles:
    piles: Mapping[str, TokenPile] = field(default_factory=dict)
    #: The GM's secret token held for the resolution of a scene (GM's replay only), by scene.
    held: Mapping[int, tuple[str, Colour]] = field(default_factory=dict)
    ledger: PVector[PileLine] = field(default_factory=pvector)  # persistent: a line added shares the rest

    def pile(self, participant: str) -> TokenPile:
        return self.piles.get(participant, TokenPile())

    def available(self, participant: str) -> frozenset[Colour]:
        """What ``participant`` may spend now: the unspent tokens not held for a resolution."""
        held = {colour for who, colour in self.held.values() if who == participant}
        return self.pile(participant).unspent - held


def spends_for(piles: Piles, spends: list[tuple[str, Colour]], referee: Referee) -> list[ProceduralSpend]:
    """The spends of an event, in order, each checked against the pile and marked if it refreshed."""
    current = dict(piles.piles)
    out = []
    for who, colour in spends:
        pile = current.get(who, TokenPile())
        referee.require(pile.has(colour), SPEND,
                        f"{who} has no unspent {colour.value} token (unspent: {pile.describe() or 'none'})")
        spent = settle(pile.unspent - {colour})
        current[who] = spent.pile
        out.append(ProceduralSpend(participant=who, colour=colour, refreshed=spent.refreshed))
    return out


#: Payload fields this part reacts to.
FOLDS = folds(CampaignCreated, ParticipantJoined, carrying=("procedural_spends", "gm_held", "procedural_restores"))


def evolve(piles: Piles, recorded: Recorded, _state: Any = None) -> Piles:
    p = recorded.payload
    if isinstance(p, (CampaignCreated, ParticipantJoined)):
        # The GM is seated when the campaign is created, the players as they join (SRD 423).
        name = p.gm if isinstance(p, CampaignCreated) else p.name
        return replace(piles, piles={**piles.piles, name: piles.pile(name)})
    held = getattr(p, "gm_held", None)
    scene = getattr(p, "scene", None)
    if held is not None and scene is not None:
        piles = replace(piles, held={**piles.held, scene: held})
    for back in getattr(p, "procedural_restores", None) or ():
        restored = TokenPile(piles.pile(back.participant).unspent | {back.colour})
        piles = replace(piles, piles={**piles.piles, back.participant: restored},
                        ledger=piles.ledger.append(PileLine(recorded.sequence, recorded.scene, back.participant,
                                                            back.colour, False, recorded.event_type,
                                                            restored.unspent, restored=True)))
    spends = getattr(p, "procedural_spends", None) or ()
    if not spends:
        return piles
    current, held = dict(piles.piles), dict(piles.held)
    lines = piles.ledger.evolver()
    for spend in spends:
        after = settle(current.get(spend.participant, TokenPile()).unspent - {spend.colour}).pile
        current[spend.participant] = after
        if scene is not None and held.get(scene) == (spend.participant, spend.colour):
            del held[scene]  # the secret token, revealed and spent
        lines.append(PileLine(recorded.sequence, recorded.scene, spend.participant, spend.colour,
                              spend.refreshed, recorded.event_type, after.unspent))
    return replace(piles, piles=current, ledger=lines.persistent(), held=held)


PART = Part(name="piles", initial=Piles, evolve=evolve, folds=FOLDS)
