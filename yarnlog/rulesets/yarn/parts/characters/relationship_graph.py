"""Yarn's relationship map as plain data, for pictures: the shared core's
(:mod:`yarnlog.rulesets.scenes_and_tokens.parts.relationship_map`, which DramaSystem reads too), over
Yarn's characters part.
"""

from __future__ import annotations

from yarnlog.rulesets.scenes_and_tokens.parts.relationship_map import (
    RelationshipGraph,
    graph_of,
)
from yarnlog.rulesets.yarn.state import YarnCampaign

__all__ = ["relationship_graph"]


def relationship_graph(campaign: YarnCampaign) -> RelationshipGraph:
    """The campaign's relationship map as of ``campaign`` (replay to any point for the map then)."""
    return graph_of(campaign.rules.characters)
