"""Yarn's side of the shared core (:class:`~yarnlog.rulesets.scenes_and_tokens.parameters.Dramatic`).

Yarn quotes the shared text under its own name; its characters are the characters part's, and a
precedence order is drawn by the cast around them (:data:`CAST`, "Order of Precedence").
"""

from __future__ import annotations

from typing import Any

from yarnlog.core.events import Payload
from yarnlog.core.referee import Referee
from yarnlog.core.ruleset import CampaignState
from yarnlog.rulesets.scenes_and_tokens.parameters import SHARED_BOOK, Dramatic, Roster
from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import CastEvents, DrawPrecedence, SupportingCast
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import Purpose


def _roster(campaign: CampaignState[Any]) -> Roster:
    return campaign.rules.characters


def _draw_petitioners(campaign: CampaignState[Any], referee: Referee, order: tuple[str, ...],
                      source: str) -> list[Payload]:
    draw = CAST.decide(DrawPrecedence(Purpose.PETITIONERS, order, source), campaign, referee)  # type: ignore[arg-type]
    assert draw is not None  # DrawPrecedence is a command of the cast
    return draw


YARN = Dramatic(book=SHARED_BOOK, roster=_roster, draw_petitioners=_draw_petitioners)

#: The cast around Yarn's player characters (one half of the characters part: :mod:`.characters.supporting_cast`).
#: Yarn tells a precedence order drawn between scenes with the next scene, which it was drawn for.
CAST = SupportingCast(YARN, CastEvents.under("yarn", precedence_told_with_next_scene=True))
