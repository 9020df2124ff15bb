"""What the command line prints: JSON for machines, Rich tables and sentences for people."""

import json
import sys
from typing import Any


def console(stderr: bool = False):
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=False)


def emit(data: Any, as_json: bool, render=None) -> None:
    """Print ``data`` as JSON, or hand it to ``render`` for people."""
    if as_json or render is None:
        sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    else:
        render(data)


def recorded_data(recorded) -> dict:
    """A recorded event as ``--json`` prints it (the envelope's own mapper decides the fields)."""
    from yarnlog.core.envelope import recorded_data as envelope_data

    return envelope_data(recorded)


def summarize(payload: dict) -> str:
    """A one-line gist of a payload for tables."""
    parts = []
    for key, value in payload.items():
        if value in (None, "", [], {}):
            continue
        if isinstance(value, (dict, list)):
            value = json.dumps(value, ensure_ascii=False)
        parts.append(f"{key}={value}")
    text = " ".join(parts)
    return text if len(text) <= 110 else text[:107] + "..."


def show_recorded(events: list, as_json: bool, title: str = "Recorded") -> None:
    def render(rows: list[dict]) -> None:
        from rich.markup import escape
        from rich.table import Table

        table = Table(title=title)
        for col in ("#", "type", "by", "episode", "scene", "what"):
            table.add_column(col)
        for row in rows:
            table.add_row(str(row["sequence"]), row["event_type"], escape(row["recorded_by"]),
                          str(row["episode"] or ""), str(row["scene"] or ""), escape(summarize(row["payload"])))
        console().print(table)

    emit([recorded_data(r) for r in events], as_json, render)


def print_table(title: str, columns: tuple[str, ...], rows: list[tuple]) -> None:
    """A rich table of ``rows`` on the console, ``None`` cells left blank."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=escape(title))
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*(escape("" if cell is None else str(cell)) for cell in row))
    console().print(table)


def working(message: str):
    """A spinner on stderr while long work runs (shown on a terminal only, never in --json output)."""
    return console(stderr=True).status(message, spinner="dots")
