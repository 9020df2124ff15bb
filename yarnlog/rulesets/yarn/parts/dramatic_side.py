"""Yarn's side of the shared core (:class:`~yarnlog.rulesets.scenes_and_tokens.parameters.Dramatic`).

Yarn quotes the shared text under its own name; its characters are the characters part's, and a
precedence order is drawn by that part ("Order of Precedence").
"""

from __future__ import annotations

from typing import Any

from yarnlog.core.events import Payload
from yarnlog.core.referee import Referee
from yarnlog.core.ruleset import CampaignState
from yarnlog.rulesets.scenes_and_tokens.parameters import SHARED_BOOK, Dramatic, Roster


def _roster(campaign: CampaignState[Any]) -> Roster:
    return campaign.rules.characters


def _draw_petitioners(campaign: CampaignState[Any], referee: Referee, order: tuple[str, ...],
                      source: str) -> list[Payload]:
    from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import DrawPrecedence
    from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import Purpose
    from yarnlog.rulesets.yarn.parts.characters import part as characters

    draw = characters.decide(DrawPrecedence(Purpose.PETITIONERS, order, source), campaign, referee)  # type: ignore[arg-type]
    assert draw is not None  # DrawPrecedence is a command of the characters part
    return draw


YARN = Dramatic(book=SHARED_BOOK, roster=_roster, draw_petitioners=_draw_petitioners)
