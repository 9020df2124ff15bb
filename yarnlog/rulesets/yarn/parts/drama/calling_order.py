"""The order in which scenes are called in a Yarn campaign: the shared core's
(:mod:`yarnlog.rulesets.scenes_and_tokens.parts.calling_order`), read from Yarn's characters part.

The precedence order is the characters part's (``yarnlog precedence draw --purpose calling-order``).
"""

from __future__ import annotations

from typing import Any

from yarnlog.rulesets.scenes_and_tokens.parts import calling_order as _core
from yarnlog.rulesets.yarn.parts.dramatic_side import YARN
from yarnlog.rulesets.yarn.state import YarnCampaign

__all__ = ["calling_view"]


def calling_view(campaign: YarnCampaign) -> dict[str, Any]:
    """The episode's calling order, who calls next, and each scene's caller."""
    return _core.calling_view(campaign, YARN)
