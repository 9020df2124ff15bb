"""The relationship map, shared by Yarn and DramaSystem ("Creating Characters": "Defining
Relationships", "What You Want From Others"; "Supporting Characters › Recurring Characters"; the
SRD's lines 23-115 and 665-675 in the same words).

"Represent each character as a name with a box or circle around it. [...] Draw a line from your
character to each other PC. Label the line with the nature of the relationship." And: "The first
and second PCs you name as your withholders of emotional reward are your fraught relationships
[...] mark your fraught relationships by circling or highlighting them on your relationship map."

:func:`graph_of` reads a ruleset's roster (Yarn's ``Characters``, DramaSystem's ``Sheets``: both
keep PCs with their wants, the labelled relationships and the supporting cast) into a
:class:`RelationshipGraph`: characters as nodes (with their player), the labelled relationships as
directed edges (from the character who defined it), and the wants as directed edges (from the
character who wants to the one who withholds), those to the first two withholders marked
``fraught``. :func:`relationship_map` is the same map as the plain data of a report.
:mod:`yarnlog.render.diagrams` draws the graph; nothing here knows about drawing.

Step 14 of character creation is a condition on the whole map: "Repeat steps 9-12 until all
characters are named as objects of at least two other characters' wants" (Yarn 273; SRD 51, DS9).
:func:`wanted_by_too_few` lists the PCs it is not yet true of, and :func:`check_wants_before_play`
holds the first episode to it where the ruleset makes it a condition of play
(:attr:`~yarnlog.rulesets.scenes_and_tokens.parameters.Dramatic.wants_before_play`).
"""

from __future__ import annotations

from typing import Any

from yarnlog.core.charts import PC, CharacterNode, RelationshipEdge, RelationshipGraph, WantEdge
from yarnlog.core.referee import Referee, Rule
from yarnlog.rulesets.scenes_and_tokens.parameters import SHARED_BOOK, Dramatic, Roster
from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import Campaign
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import RECURRING

#: Step 14 of "Creating Characters › Step By Step" (Yarn 273; DramaSystem's DS9, line 51).
TWO_WANTS = Rule(
    SHARED_BOOK, "Creating Characters › Step By Step",
    "Repeat steps 9-12 until all characters are named as objects of at least two other characters' wants. "
    "(Any unaddressed relationships are defined during play.)",
)


def _in_play(roster: Roster) -> list[Any]:
    return [s for s in roster.pcs.values() if s.active]


def _recurring(roster: Roster) -> list[Any]:
    return [c for c in roster.cast.supporting_in_order() if c.kind == RECURRING]


def graph_of(roster: Roster) -> RelationshipGraph:
    """The map of the PCs in play and the recurring characters, from a ruleset's roster."""
    in_play, recurring = _in_play(roster), _recurring(roster)
    nodes = tuple([CharacterNode(s.name, s.player, PC) for s in in_play]
                  + [CharacterNode(c.name, None, RECURRING) for c in recurring])
    shown = {node.name for node in nodes}
    # A relationship is kept once per pair (the later definition replaces the earlier): order them
    # as they were defined, which is also the order of their sequence numbers.
    relationships = tuple(RelationshipEdge(r.character, r.other, r.nature)
                          for r in sorted(in_definition_order(roster.relationships), key=lambda r: r.sequence)
                          if r.character in shown and r.other in shown)
    wants = [WantEdge(s.name, w.withholder, w.want, w.withholder in s.fraught)
             for s in in_play for w in s.wants if w.withholder in shown]
    wants += [WantEdge(c.promoted_by, c.name, c.need, False) for c in recurring
              if c.promoted_by is not None and c.promoted_by in shown]
    return RelationshipGraph(nodes=nodes, relationships=relationships, wants=tuple(wants))


def in_definition_order(relationships: Any) -> list[Any]:
    """The relationships in the order their pairs were first defined: by the ``position`` a persistent
    map keeps (Yarn's), else a dict's own insertion order (a redefinition keeps its place in both)."""
    lines = list(relationships.values())
    if lines and hasattr(lines[0], "position"):
        return sorted(lines, key=lambda r: r.position)
    return lines


def wants_needed(pcs_in_play: int) -> int:
    """How many other PCs' wants each PC must be the object of: two, or every other PC when fewer
    than two others are in play (the book's table of five to eight has at least four PCs; with two
    PCs "two other characters" cannot be met, and the step is read as asking all there is)."""
    return min(2, max(pcs_in_play - 1, 0))


def wanted_by_too_few(roster: Roster) -> dict[str, int]:
    """Each PC in play that is the object of fewer than :func:`wants_needed` other PCs' wants, with
    how many want something of it now (Step 14: Yarn 273, DS9)."""
    in_play = _in_play(roster)
    wanted_by: dict[str, set[str]] = {s.name: set() for s in in_play}
    for sheet in in_play:
        for want in sheet.wants:
            if want.withholder in wanted_by:
                wanted_by[want.withholder].add(sheet.name)
    needed = wants_needed(len(in_play))
    return {name: len(by) for name, by in wanted_by.items() if len(by) < needed}


def shortfall_text(short: dict[str, int], needed: int) -> str:
    """``play waits for two wants on each PC: Iris 1, Tomas 0`` (``needed``: :func:`wants_needed`)."""
    return (f"play waits for {'two wants' if needed == 2 else 'one want'} on each PC: "
            + ", ".join(f"{name} {n}" for name, n in short.items()))


def check_wants_before_play(dramatic: Dramatic, campaign: Campaign, referee: Referee, episode: int) -> None:
    """The first episode starts once every PC is the object of two other PCs' wants (Step 14), where
    the ruleset makes that a condition of play; the GM may override it with a reason. Later episodes
    are not held to it: "Any unaddressed relationships are defined during play"."""
    if episode != 1 or not dramatic.wants_before_play:
        return
    roster = dramatic.roster(campaign)
    short = wanted_by_too_few(roster)
    # The rule is cited after the sentence (DS9, step 14): the names short of their wants say the rest.
    dramatic.referee(referee).require(not short, TWO_WANTS,
                                      shortfall_text(short, wants_needed(len(_in_play(roster)))))


def relationship_map(roster: Roster) -> dict[str, Any]:
    """The relationship map as a report's data: labelled lines, wants (fraught ones marked), needs
    of recurring characters, and ``wanted_by_fewer_than_two``, the PCs in play not yet "named as
    objects of at least two other characters' wants" (Step 14)."""
    in_play, recurring = _in_play(roster), _recurring(roster)
    return {
        "characters": [s.name for s in in_play] + [c.name for c in recurring],
        "relationships": [{"character": r.character, "other": r.other, "nature": r.nature}
                          for r in in_definition_order(roster.relationships)],
        "wants": [{"character": s.name, "withholder": w.withholder, "want": w.want, "why_not": w.why_not,
                   "fraught": w.withholder in s.fraught} for s in in_play for w in s.wants],
        "needs": [{"character": c.promoted_by, "recurring": c.name, "need": c.need}
                  for c in roster.cast.supporting_in_order() if c.promoted_by],
        "wanted_by_fewer_than_two": list(wanted_by_too_few(roster)),
    }
