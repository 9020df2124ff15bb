"""Yarn's recap: what happened in an episode, a range of scenes or the series, for one audience.

A pure projection (no storage, no templates): :func:`build_recap` turns the history an audience
may see into :class:`~.model.Recap` data; the command line (``yarnlog recap``) renders it
through :mod:`yarnlog.render` with the ruleset's templates.

The names below are imported when first asked for: the ruleset imports this package for the
words a move is answered in (:mod:`.words`), and a write need not build the recap's classes.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from yarnlog.core.audience import GM, PLAYERS, Audience, player, visible_history
    from yarnlog.rulesets.yarn.recap.build import Scope, build_recap
    from yarnlog.rulesets.yarn.recap.model import Recap

__all__ = ["GM", "PLAYERS", "Audience", "Recap", "Scope", "build_recap", "player", "visible_history"]

_WHERE = {"GM": "yarnlog.core.audience", "PLAYERS": "yarnlog.core.audience", "Audience": "yarnlog.core.audience",
          "player": "yarnlog.core.audience", "visible_history": "yarnlog.core.audience",
          "Scope": "yarnlog.rulesets.yarn.recap.build", "build_recap": "yarnlog.rulesets.yarn.recap.build",
          "Recap": "yarnlog.rulesets.yarn.recap.model"}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_WHERE[name]), name)
