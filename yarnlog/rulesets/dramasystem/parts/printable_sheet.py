"""A DramaSystem character sheet as the book lays it out, as of any point of the journal.

Name and role, desire and the two dramatic poles (SRD 31-41), the seven action types graded
Strong, Middling or Weak with any custom type and a "How I Do It" phrase for each Strong one
(117-149), the story sentence (151-157), the relationship map and "People In My Life", fraught
relationships first (73-115, DS8), and what play adds: the player's procedural pile, unspent
and spent (421-425), with drama tokens and bennies when the state keeps them. One pure projection
over a replayed campaign; the pile is read from the same board ``yarnlog tokens`` prints, so the
sheet never disagrees with it.
"""

from __future__ import annotations

from typing import Any

from yarnlog.core.referee import InvalidCommand
from yarnlog.rulesets.dramasystem.parts.token_ledger import token_board
from yarnlog.rulesets.dramasystem.rules.action_types import STANDARD_TYPES, Grade
from yarnlog.rulesets.dramasystem.state import DramaSystemCampaign

_GRADE_ORDER = {Grade.STRONG: 0, Grade.MIDDLING: 1, Grade.WEAK: 2}


def printable_sheet(campaign: DramaSystemCampaign, name: str, *, viewer: str | None = None) -> dict[str, Any]:
    """PC ``name``'s sheet as of ``campaign`` (a replay up to some event), as plain data for any renderer."""
    sheets = campaign.rules.sheets
    found = next((n for n in sheets.pcs if n.lower() == name.strip().lower()), None)
    if found is None:
        known = ", ".join(sheets.pcs) or "none yet"
        raise InvalidCommand(f"{name!r} is not a player character (characters: {known})")
    sheet = sheets.pcs[found]
    types = [t for t in STANDARD_TYPES if t in sheet.grades] + [t for t in sheet.grades if t not in STANDARD_TYPES]
    action_types = [{"name": t, "grade": sheet.grades[t].value, "custom": t == sheet.custom_type,
                     "how_i_do_it": sheet.how_i_do_it.get(t, "")}
                    for t in sorted(types, key=lambda t: (_GRADE_ORDER[sheet.grades[t]], t != sheet.custom_type))]
    lines = {line.other if line.character == found else line.character: line.nature
             for line in sheets.relationships.values() if found in (line.character, line.other)}
    # DS8, line 115: the fraught relationships are listed first in "People In My Life".
    people = sorted(({"withholder": w.withholder, "relationship": lines.get(w.withholder, ""), "want": w.want,
                      "why_not": w.why_not, "fraught": w.withholder in sheet.fraught} for w in sheet.wants),
                    key=lambda want: not want["fraught"])
    board = token_board(campaign, viewer=viewer)
    holding = next(row for row in board["participants"] if row["name"] == sheet.player)
    return {
        "name": sheet.name, "player": sheet.player, "role": sheet.role, "desire": sheet.desire,
        "poles": list(sheet.poles), "story": sheet.story, "custom_type": sheet.custom_type,
        "action_types": action_types,
        "people_in_my_life": people, "fraught": list(sheet.fraught),
        "relationships": [{"other": other, "nature": nature} for other, nature in lines.items()],
        "procedural_tokens": {"unspent": holding["unspent"], "spent": holding["spent"]},
        "drama_tokens": holding.get("drama_tokens"), "bennies": holding.get("bennies"),
        "as_of": campaign.sequence, "episode": campaign.timeline.episode, "scene": campaign.timeline.scene,
    }
