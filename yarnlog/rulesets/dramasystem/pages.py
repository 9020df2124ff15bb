"""DramaSystem's pages: the CLI's own projections (``tokens``, ``ledger``, ``explain``, ``sheet``,
``recap``) over what the viewer may see.

The GM's secret token for a simple resolution is recorded for her eyes only: a player's replay
never holds it, and while a resolution may be open the GM's pile is left out of a player's board
and ledger (``parts.player_views``, reading 16).
"""

from __future__ import annotations

from typing import Any

from yarnlog.web.pages import Grid, NotFound, Pages, Rendered, Report
from yarnlog.web.seen import Seen
from yarnlog.web.systems.common import calling_facts, data_grid, data_report, own_character, recap_scope


def _colours(colours: list[str] | None) -> str:
    return "hidden" if colours is None else ", ".join(colours) or "none"


def board(seen: Seen) -> Report:
    from yarnlog.rulesets.dramasystem.parts.drama import calling_view
    from yarnlog.rulesets.dramasystem.parts.token_ledger import token_board

    d = token_board(seen.state, viewer=seen.viewer)
    drama = d["drama"]
    # What the GM set aside for a resolution is in her own view only (no player's replay holds it).
    aside = any(p["set_aside"] for p in d["participants"])
    columns = ["participant", "character", "unspent", "spent"] + (["set aside"] if aside else []) \
        + (["drama tokens", "bennies"] if drama else [])
    rows = [[p["name"] + (" (GM)" if p["gm"] else ""), p["character"],
             p["hidden"] or _colours(p["unspent"]), p["hidden"] or _colours(p["spent"])]
            + ([_colours(p["set_aside"])] if aside else [])
            + ([p.get("drama_tokens", 0), p.get("bennies", 0)] if drama else []) for p in d["participants"]]
    timeline = seen.state.timeline
    return Report("Board", facts=[("Episode", d["episode"] or "none in play"),
                                  ("Scene", timeline.scene or "none in play"),
                                  *calling_facts(calling_view(seen.state))],
                  grids=[Grid("Procedural tokens", columns, rows)])


def ledger(seen: Seen) -> Report:
    from yarnlog.rulesets.dramasystem.parts.token_ledger import token_ledger

    lines = token_ledger(seen.state, seen.history, viewer=seen.viewer, participant=seen.viewer)
    return Report("Ledger" + (f" of {seen.viewer}" if seen.viewer else ""),
                  grids=[data_grid("Every token line, with its rule", lines, link="sequence")] if lines else [],
                  empty="" if lines else "No token has moved yet.")


def explain(seen: Seen, sequence: int) -> Report:
    from yarnlog.core.referee import InvalidCommand
    from yarnlog.rulesets.dramasystem.parts.explanations import explain_event

    # The campaign's creation has no state before it to explain against ('explain 1' fails in the CLI too).
    if sequence == 1 or not any(r.sequence == sequence for r in seen.history):
        raise NotFound(str(sequence))
    try:
        d: dict[str, Any] = explain_event(seen.history, seen.table, sequence, viewer=seen.viewer)
    except InvalidCommand:
        raise NotFound(str(sequence)) from None
    return data_report(f"Event {sequence}", d)


def characters(seen: Seen) -> list[str]:
    """The characters the viewer plays (the GM: every one), by ``of_player`` (player -> character)."""
    return [c for p, c in seen.state.rules.sheets.of_player.items() if c and (seen.viewer is None or p == seen.viewer)]


def sheet(seen: Seen, name: str) -> Rendered:
    from yarnlog.rulesets.dramasystem.parts.printable_sheet import printable_sheet

    own_character(seen, name, characters(seen))
    return Rendered("sheet.html.j2", {"sheet": printable_sheet(seen.state, name, viewer=seen.viewer)})


def recap(seen: Seen, episode: int | None) -> Rendered:
    from yarnlog.render.diagrams import relationship_map_picture
    from yarnlog.rulesets.dramasystem.recap import Audience, Scope, build_recap, relationship_graph

    audience = Audience("gm") if seen.viewer is None else Audience("player", seen.viewer)
    told = build_recap(seen.history, seen.table, audience, Scope(**recap_scope(seen, episode)))
    if not told["episodes"] and not told["series_notes"]:
        raise NotFound("nothing to recap")
    return Rendered("recap.html.j2", {"recap": told,
                                      "diagrams": {"relationships": relationship_map_picture(
                                          relationship_graph(told), "html")}})


PAGES = Pages(board=board, ledger=ledger, explain=explain, characters=characters, sheet=sheet, recap=recap)
