"""The options shared by the command line's verbs, and parsing what is typed at the table.

Kept free of heavy imports: the storage stack is imported inside the functions that need it.
"""

from typing import Annotated, Optional

import typer

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
    campaign: str | None = None  # the root's --campaign/-c, for verbs not given their own
    verbose: bool = False  # the root's --verbose: a write shows the payloads it recorded, not sentences


SETTINGS = Settings()


def parse_faces(text: str | None, what: str = "dice faces") -> tuple[int, ...] | None:
    """Dice faces as typed at the table, ``6,3,2`` (commas or spaces); ``None`` when none were given."""
    from yarnlog.core.referee import InvalidCommand

    if text is None:
        return None
    try:
        return tuple(int(x) for x in text.replace(",", " ").split())
    except ValueError:
        raise InvalidCommand(f"{what} are whole numbers like 6,3,2, not {text!r}") from None


#: The largest file of data a command reads whole (a character sheet): a sheet is a few kilobytes.
MAX_DATA_FILE_BYTES = 1 << 20


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def parse_json(text: str, what: str):
    """JSON typed or read by a command (``--set FIELD=VALUE``, a sheet file), or :class:`InvalidCommand`
    naming ``what``: NaN and Infinity are refused, and so is nesting deep enough to exhaust the parser."""
    import json

    from yarnlog.core.limits import MAX_DEPTH, check_data
    from yarnlog.core.referee import InvalidCommand

    try:
        value = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise InvalidCommand(f"{what}: data is nested at most {MAX_DEPTH} levels deep") from None
    except ValueError as exc:
        raise InvalidCommand(f"{what}: not valid JSON ({exc})") from None
    problem = check_data(value)
    if problem is not None:
        raise InvalidCommand(f"{what}: {problem}")
    return value


def read_json_file(path, what: str):
    """The JSON object in the file at ``path`` (a sheet), read whole only when it is at most
    :data:`MAX_DATA_FILE_BYTES`; any other file is :class:`InvalidCommand` naming ``what``."""
    from yarnlog.core.referee import InvalidCommand

    try:
        with open(path, "rb") as stream:
            raw = stream.read(MAX_DATA_FILE_BYTES + 1)
    except OSError as exc:
        raise InvalidCommand(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_DATA_FILE_BYTES:
        raise InvalidCommand(f"cannot read {what} {path}: a file of data is at most {MAX_DATA_FILE_BYTES:,} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidCommand(f"cannot read {what} {path}: not UTF-8 text (byte 0x{raw[exc.start]:02x} at "
                             f"position {exc.start})") from None
    value = parse_json(text, f"{what} {path}")
    if not isinstance(value, dict):
        raise InvalidCommand(f"{what} {path} holds a JSON object, not {type(value).__name__}")
    return value


OverrideOpt = Annotated[
    Optional[str],
    typer.Option("--override", help="GM only: record the move although a rule forbids it, with this reason."),
]


AsOfOpt = Annotated[Optional[int], typer.Option("--as-of", help="Replay up to event N only.")]
EndOfSceneOpt = Annotated[Optional[int], typer.Option("--end-of-scene", help="Replay up to the end of scene N.")]


