"""The relationship map as plain data, for pictures (Yarn 0.1, "Creating Characters":
"Defining Relationships", "What You Want From Others"; "Supporting Characters › Recurring
Characters").

"Represent each character as a name with a box or circle around it. [...] Draw a line from your
character to each other PC. Label the line with the nature of the relationship." And: "The first
and second PCs you name as your withholders of emotional reward are your fraught relationships
[...] mark your fraught relationships by circling or highlighting them on your relationship map."

:func:`relationship_graph` reads the characters part's slice into :class:`RelationshipGraph`:
characters as nodes (with their player), the labelled relationships as directed edges (from
the character who defined it), and the wants as directed edges (from the character who wants to
the one who withholds), those to the first two withholders marked ``fraught``. The renderers in
:mod:`yarnlog.render.diagrams` draw it; nothing here knows about drawing.
"""

from __future__ import annotations

from dataclasses import dataclass

from yarnlog.rulesets.yarn.parts.characters import supporting_cast as cast_module
from yarnlog.rulesets.yarn.parts.characters.sheets import Characters, in_definition_order
from yarnlog.rulesets.yarn.state import YarnCampaign

PC = "pc"
RECURRING = "recurring"


@dataclass(frozen=True)
class CharacterNode:
    """A character on the map. ``player`` is None for a recurring character (the GM plays it)."""

    name: str
    player: str | None
    kind: str  # PC or RECURRING


@dataclass(frozen=True)
class RelationshipEdge:
    """A labelled line: ``source`` defined the relationship to ``target`` as ``nature``."""

    source: str
    target: str
    nature: str


@dataclass(frozen=True)
class WantEdge:
    """``source`` wants ``want`` from ``target``; ``fraught`` when ``target`` is one of the first two
    PCs ``source`` named as withholders. A recurring character's ``need`` (the emotional need that
    promoted it) is a want too, never fraught (the book's fraught relationships are with PCs)."""

    source: str
    target: str
    want: str
    fraught: bool


@dataclass(frozen=True)
class RelationshipGraph:
    """The whole map, every sequence in a stable order (PCs as created, then recurring characters
    as introduced; relationships as defined; wants by character in the order of ``nodes``, each
    character's as declared, then the needs of recurring characters), so a drawing is stable too."""

    nodes: tuple[CharacterNode, ...] = ()
    relationships: tuple[RelationshipEdge, ...] = ()
    wants: tuple[WantEdge, ...] = ()


def graph_of(characters: Characters) -> RelationshipGraph:
    """The map of the PCs in play and the recurring characters, from the characters part's slice."""
    in_play = [s for s in characters.pcs.values() if s.active]
    recurring = [c for c in characters.cast.supporting_in_order() if c.kind == cast_module.RECURRING]
    nodes = tuple([CharacterNode(s.name, s.player, PC) for s in in_play]
                  + [CharacterNode(c.name, None, RECURRING) for c in recurring])
    shown = {node.name for node in nodes}
    # A relationship is kept once per pair (the later definition replaces the earlier): order them
    # as they were defined, which is also the order of their sequence numbers.
    relationships = tuple(RelationshipEdge(r.character, r.other, r.nature)
                          for r in sorted(in_definition_order(characters.relationships), key=lambda r: r.sequence)
                          if r.character in shown and r.other in shown)
    wants = [WantEdge(s.name, w.withholder, w.want, w.withholder in s.fraught)
             for s in in_play for w in s.wants if w.withholder in shown]
    wants += [WantEdge(c.promoted_by, c.name, c.need, False) for c in recurring
              if c.promoted_by is not None and c.promoted_by in shown]
    return RelationshipGraph(nodes=nodes, relationships=relationships, wants=tuple(wants))


def relationship_graph(campaign: YarnCampaign) -> RelationshipGraph:
    """The campaign's relationship map as of ``campaign`` (replay to any point for the map then)."""
    return graph_of(campaign.rules.characters)
