"""Shared plumbing of the command line: options, output, and the journal a command works on.

Kept free of heavy imports: the storage stack is imported inside the functions that need it.
"""

import json
import sys
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

if TYPE_CHECKING:
    from yarnlog.journal import Journal

JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON on stdout.")]
CampaignOpt = Annotated[
    Optional[str],
    typer.Option("--campaign", "-c", envvar="YARNLOG_CAMPAIGN",
                 help="Campaign id (default: the only campaign in the journal)."),
]
ByOpt = Annotated[Optional[str], typer.Option("--by", help="Who records this (default: the campaign's GM).")]
Many = Optional[list[str]]
VisibilityOpt = Annotated[
    str, typer.Option("--visibility", help="Who may read it: everyone, gm, or participant:NAME.")
]


class Settings:
    db: str | None = None


SETTINGS = Settings()


def open_journal(*, create: bool = False) -> "Journal":
    from yarnlog.journal import Journal
    from yarnlog.store import EventStore, database_url

    return Journal(EventStore(database_url(SETTINGS.db), create=create))


def pick_campaign(journal: "Journal", campaign: str | None) -> str:
    from yarnlog.rules import InvalidCommand

    if campaign:
        return campaign
    ids = journal.store.campaigns()
    if len(ids) == 1:
        return ids[0]
    if not ids:
        raise InvalidCommand("this journal holds no campaign yet: create one with 'yarnlog init'")
    raise InvalidCommand(f"this journal holds several campaigns ({', '.join(ids)}): name one with --campaign")


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
    return {
        "sequence": recorded.sequence,
        "event_id": recorded.event_id,
        "event_type": recorded.event_type,
        "schema_version": recorded.schema_version,
        "recorded_at": recorded.recorded_at,
        "recorded_by": recorded.recorded_by,
        "visibility": recorded.visibility,
        "episode": recorded.episode,
        "scene": recorded.scene,
        "payload": recorded.payload.to_data(),
    }


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


def execute_command(campaign: str | None, command, *, by: str | None = None, visibility: str = "everyone",
                    override_reason: str | None = None) -> list:
    """Execute a journal command (the GM's override, if a reason is given) and return what it recorded."""
    from yarnlog.rules import Override

    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    override = None
    if override_reason is not None:
        override = Override(by=by or journal.state(cid).table.gm, reason=override_reason)
    return journal.execute(cid, command, by=by, visibility=visibility, override=override)


def run_command(campaign: str | None, command, *, by: str | None = None, visibility: str = "everyone",
                override_reason: str | None = None, as_json: bool = False) -> list:
    """Execute a journal command and show what it recorded."""
    recorded = execute_command(campaign, command, by=by, visibility=visibility, override_reason=override_reason)
    show_recorded(recorded, as_json)
    return recorded


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


def parse_faces(text: str | None, what: str = "dice faces") -> tuple[int, ...] | None:
    """Dice faces as typed at the table, ``6,3,2`` (commas or spaces); ``None`` when none were given."""
    from yarnlog.rules import InvalidCommand

    if text is None:
        return None
    try:
        return tuple(int(x) for x in text.replace(",", " ").split())
    except ValueError:
        raise InvalidCommand(f"{what} are whole numbers like 6,3,2, not {text!r}") from None


OverrideOpt = Annotated[
    Optional[str],
    typer.Option("--override", help="GM only: record the move although a rule forbids it, with this reason."),
]


def resolve_as_of(journal: "Journal", cid: str, as_of: int | None, end_of_scene: int | None) -> int | None:
    """The last sequence to replay for --as-of N or --end-of-scene N."""
    from yarnlog.rules import InvalidCommand

    if as_of is not None and end_of_scene is not None:
        raise InvalidCommand("give --as-of or --end-of-scene, not both")
    if as_of is not None and as_of < 1:
        raise InvalidCommand("--as-of counts events from 1")
    if end_of_scene is None:
        return as_of
    in_scene = [r.sequence for r in journal.history(cid) if r.scene == end_of_scene]
    if not in_scene:
        raise InvalidCommand(f"there is no scene {end_of_scene} in this campaign")
    return in_scene[-1]


AsOfOpt = Annotated[Optional[int], typer.Option("--as-of", help="Replay up to event N only.")]
EndOfSceneOpt = Annotated[Optional[int], typer.Option("--end-of-scene", help="Replay up to the end of scene N.")]


def campaign_state(campaign: str | None, as_of: int | None = None, end_of_scene: int | None = None):
    """The campaign's state at its end, or as of event N, or as of the end of scene N."""
    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    return journal.state(cid, upto=resolve_as_of(journal, cid, as_of, end_of_scene))


def working(message: str):
    """A spinner on stderr while long work runs (shown on a terminal only, never in --json output)."""
    return console(stderr=True).status(message, spinner="dots")
