"""The options shared by the command line's verbs, and parsing what is typed at the table.

Kept free of heavy imports: the storage stack is imported inside the functions that need it.
"""

from typing import Annotated, Optional

import typer


def _asked_for_json(value: bool) -> bool:
    """Note that the verb was asked for JSON: its errors then keep their whole text (a refusal quotes
    the rule in full, :func:`yarnlog.cli.output.error_line`)."""
    SETTINGS.json = bool(value)
    return value


JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON on stdout.",
                                       callback=_asked_for_json)]
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
    json: bool = False  # the verb's --json: what it prints, errors included, is for a program
    command_id: str | None = None  # a write's --command-id, taken (and cleared) by the write that uses it


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




COMMAND_ID_HELP = ("Record this write once: run again with the same id (after a crash, a lost connection), "
                   "it writes nothing and shows what was recorded (default: a new id, shown with --json "
                   "or --verbose).")


def _keep_command_id(value: str | None) -> None:
    SETTINGS.command_id = value


def command_id_option():
    """A ``--command-id ID`` option (typer's own click parameter) that hands its value to
    :data:`SETTINGS` rather than to the verb: every write gets it without each verb declaring it."""
    app = typer.Typer(add_completion=False)

    @app.command()
    def _write(
        command_id: Annotated[Optional[str], typer.Option("--command-id", help=COMMAND_ID_HELP, metavar="ID",
                                                          callback=_keep_command_id, expose_value=False)] = None,
    ) -> None:
        """Only its option is used."""

    return typer.main.get_command(app).params[0]


def add_command_id(command) -> None:
    """Give ``command`` (a click command or group, walked down) ``--command-id`` on every write: the
    verbs that take ``--by`` (who records it), exactly those that record something."""
    subcommands = getattr(command, "commands", None)
    if subcommands:
        for sub in subcommands.values():
            add_command_id(sub)
        return
    names = {param.name for param in command.params}
    if "by" in names and "command_id" not in names:
        command.params.append(command_id_option())


def number_range(text: str, what: str) -> tuple[int, int]:
    """``3`` or ``3-5`` as a range of numbers from 1 (``--scenes``, ``--episodes``)."""
    from yarnlog.core.limits import MAX_NUMBER
    from yarnlog.core.referee import InvalidCommand

    first, _, last = text.partition("-")
    try:
        bounds = (int(first), int(last or first))
    except ValueError:
        raise InvalidCommand(f"--{what} is a number or a range like 2-4, not {text!r}") from None
    if bounds[0] < 1 or bounds[1] < bounds[0]:
        raise InvalidCommand(f"--{what} {text}: give numbers from 1, the first no greater than the last")
    if bounds[1] > MAX_NUMBER:
        raise InvalidCommand(f"--{what} {text}: a number is at most {MAX_NUMBER:,}")
    return bounds
