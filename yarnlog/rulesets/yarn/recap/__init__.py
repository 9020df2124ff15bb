"""Yarn's recap: what happened in an episode, a range of scenes or the series, for one audience.

A pure projection (no storage, no templates): :func:`build_recap` turns the history an audience
may see into :class:`~.model.Recap` data; the command line (``yarnlog recap``) renders it
through :mod:`yarnlog.render` with the ruleset's templates.
"""

from yarnlog.core.audience import GM, PLAYERS, Audience, player, visible_history
from yarnlog.rulesets.yarn.recap.build import Scope, build_recap
from yarnlog.rulesets.yarn.recap.model import Recap

__all__ = ["GM", "PLAYERS", "Audience", "Recap", "Scope", "build_recap", "player", "visible_history"]
