"""The plain data of the pictures a recap draws (:mod:`yarnlog.render.diagrams`): a relationship
map and each participant's drama tokens through an episode. A ruleset's read models build them;
the renderer draws them without knowing the ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass

#: A node's kind: a player character, or a recurring character (the GM plays it).
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


@dataclass(frozen=True)
class TokenLine:
    """One participant's drama tokens: ``balances[0]`` at the episode's start (before its first
    scene opened), then ``balances[i]`` after the ``i``-th scene of :attr:`TokenSeries.scenes`."""

    participant: str
    character: str | None  # the PC the participant plays; None for the GM
    balances: tuple[int, ...]


@dataclass(frozen=True)
class TokenSeries:
    """Drama tokens through ``episode``: ``scenes`` are its scene numbers in order, and every line
    has ``len(scenes) + 1`` balances (the start, then one after each scene)."""

    episode: int
    scenes: tuple[int, ...]
    lines: tuple[TokenLine, ...]
