"""Page pieces the rulesets share: the recap's pictures, an episode chosen, a sheet's owner checked."""

from __future__ import annotations

from typing import Any

from yarnlog.web.pages import Grid, Link, NotFound, Report
from yarnlog.web.seen import Seen


def episodes_started(seen: Seen) -> list[int]:
    """The episodes the viewer has seen start, in order."""
    return sorted({r.episode for r in seen.history if r.event_type == "episode.started" and r.episode is not None})


def recap_scope(seen: Seen, episode: int | None) -> dict[str, Any]:
    """The ``Scope`` fields of an episode's recap, or of the series (``None``); 404 for an unknown episode."""
    if episode is None:
        return {}
    if episode not in episodes_started(seen):
        raise NotFound(f"no episode {episode}")
    return {"episodes": (episode, episode), "label": f"episode {episode}"}


def own_character(seen: Seen, name: str, characters: list[str]) -> None:
    """A player opens only their own characters' sheets (the GM, every one)."""
    if name not in characters:
        raise NotFound(name)


def _cell(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_cell(v)) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k.replace('_', ' ')} {_cell(v)}" for k, v in value.items())
    return value


def data_grid(caption: str, rows: list[dict[str, Any]], link: str | None = None) -> Grid:
    """A list of records as a table: one column per key (in first-seen order), ``link``'s column a
    link to ``explain`` (event numbers)."""
    columns: list[str] = []
    for row in rows:
        columns += [key for key in row if key not in columns]
    return Grid(caption, [c.replace("_", " ") for c in columns],
                [[Link(str(row[c]), "explain", row[c]) if c == link and isinstance(row.get(c), int)
                  else _cell(row.get(c)) for c in columns] for row in rows])


def data_report(title: str, data: dict[str, Any], link: str | None = None) -> Report:
    """Plain data as a report: each scalar (or short list) a fact, each list of records a table."""
    facts, grids = [], []
    for key, value in data.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            grids.append(data_grid(key.replace("_", " ").capitalize(), value, link))
        elif isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            grids.append(data_grid(key.replace("_", " ").capitalize(), [{"": k, **v} for k, v in value.items()], link))
        elif value not in (None, [], {}, ""):
            facts.append((key.replace("_", " ").capitalize(), _cell(value)))
    return Report(title, facts=facts, grids=grids)


def calling_facts(order: dict[str, Any]) -> list[tuple[str, Any]]:
    """Who calls next and the episode's calling order, from a ``calling-order`` view."""
    allowed = order.get("may_call_next")
    return [("Calls next", order.get("next_caller") or (", ".join(allowed) if allowed else "-")),
            ("Calling order", ", ".join(order.get("calling_order") or []) or "not drawn yet")]
