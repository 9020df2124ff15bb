"""The journal and campaign a command works on, and running a command against it.

Kept free of heavy imports: the storage stack is imported inside the functions that need it.
"""

from collections.abc import Callable
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from yarnlog.cli.options import SETTINGS
from yarnlog.cli.output import show_recorded

if TYPE_CHECKING:
    from yarnlog.app.journal import Journal


class _Opened:
    """The process's journal and what it was opened with (one bootstrap per process)."""

    journal: "Journal | None" = None
    db: str | None = None
    created: bool = False


_OPENED = _Opened()

#: How :func:`execute_command` runs a command: ``(journal, campaign_id, command, **execute) -> recorded``.
#: Unset, it is :func:`yarnlog.app.rolling.execute_rolling`, the stored views refreshed in the same call;
#: ``yarnlog play`` sets its own for one line, to remember what its entry recorded (for ``undo``) or to
#: count dice without recording (``dice?``), and leaves the stored views to their next reader.
EXECUTOR: ContextVar[Callable[..., list[Any]] | None] = ContextVar("yarnlog_executor", default=None)
#: The id ``yarnlog play`` sends its entry with unless the line gives ``--command-id``, and whether it is
#: new (:func:`take_command_id`): a line typed again after an answer that never came keeps its first id.
ENTRY_ID: ContextVar[tuple[str, bool] | None] = ContextVar("yarnlog_entry_id", default=None)


def open_journal(*, create: bool = False) -> "Journal":
    """The process's journal, bootstrapped on first use and shared by every helper of the command.

    Sharing it means one store and one replay per command, however many helpers ask for the
    campaign. It is opened again only if ``--db`` changed (several commands run in one process,
    as the tests do) or a command needs the database created that was opened without.
    """
    from yarnlog.app.bootstrap import bootstrap

    opened = _OPENED
    if opened.journal is None or opened.db != SETTINGS.db or (create and not opened.created):
        close_journal()
        opened.journal = bootstrap(SETTINGS.db, create=create)
        opened.db, opened.created = SETTINGS.db, create
    return opened.journal


def close_journal() -> None:
    """Close the process's journal, if one is open (the next :func:`open_journal` bootstraps anew)."""
    if _OPENED.journal is not None:
        _OPENED.journal.close()
        _OPENED.journal = None


def pick_campaign(journal: "Journal", campaign: str | None) -> str:
    from yarnlog.core.limits import check_campaign_id
    from yarnlog.core.referee import InvalidCommand

    campaign = campaign or SETTINGS.campaign
    if campaign:
        return check_campaign_id(campaign)  # an id no campaign can have is refused before any query
    ids = journal.campaigns()
    if len(ids) == 1:
        return ids[0]
    if not ids:
        raise InvalidCommand("this journal holds no campaign yet: create one with 'yarnlog init'")
    raise InvalidCommand(f"this journal holds several campaigns ({', '.join(ids)}): name one with --campaign")


def take_command_id() -> tuple[str, bool]:
    """The id of the write about to run: the one given with ``--command-id`` (taken: the next write
    gets its own), else the console's for its entry (:data:`ENTRY_ID`), else a new one; and whether
    it is new. A new id is shown on stderr with ``--verbose`` before anything is written, so that a
    crash leaves it on the screen to re-run with."""
    from yarnlog.app.command_ids import checked_command_id, new_command_id

    given, SETTINGS.command_id = SETTINGS.command_id, None
    if given is not None:
        return checked_command_id(given), False
    entry = ENTRY_ID.get()
    minted, new = entry if entry is not None else (new_command_id(), True)
    if SETTINGS.verbose:
        import sys

        sys.stderr.write(f"command id {minted}\n")
    return minted, new


def execute_command(campaign: str | None, command, *, by: str | None = None, visibility: str = "everyone",
                    override_reason: str | None = None, command_id: tuple[str, bool] | None = None) -> list:
    """Execute a journal command (the GM's override, if a reason is given) and return what it recorded;
    dice the tool must roll are rolled here, once (:mod:`yarnlog.app.rolling`). ``command_id`` is the
    write's id and whether it is new (:func:`take_command_id`)."""
    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    override = _override(journal, cid, by, override_reason)
    from yarnlog.app.rolling import execute_rolling

    given, new = command_id if command_id is not None else take_command_id()  # a verb that answers itself
    executor = EXECUTOR.get()
    if executor is not None:
        return executor(journal, cid, command, by=by, visibility=visibility, override=override,
                        command_id=given, new_command=new)
    # The boards people read after a move (tokens, bennies...) are brought to the new head in the same
    # call, from the state in memory, so that reading one stays a few rows.
    return execute_rolling(journal, cid, command, by=by, visibility=visibility, override=override,
                           command_id=given, new_command=new, refresh_views=True)


def _override(journal: "Journal", cid: str, by: str | None, reason: str | None):
    """The GM's override when a reason is given (by ``by``, else the campaign's GM)."""
    from yarnlog.core.referee import Override

    return None if reason is None else Override(by=by or journal.state(cid).table.gm, reason=reason)


def preview_command(campaign: str | None, command, *, by: str | None = None,
                    override_reason: str | None = None) -> list:
    """What ``command`` would record now (payloads), or its refusal; nothing is written."""
    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    return journal.preview(cid, command, by=by, override=_override(journal, cid, by, override_reason))


def run_command(campaign: str | None, command, *, by: str | None = None, visibility: str = "everyone",
                override_reason: str | None = None, as_json: bool = False, amended: dict | None = None) -> list:
    """Execute a journal command and show what it recorded (with the write's command id); ``amended``:
    the event an amendment names, in words (:func:`yarnlog.cli.asking.amendment_words`)."""
    command_id = take_command_id()
    recorded = execute_command(campaign, command, by=by, visibility=visibility, override_reason=override_reason,
                               command_id=command_id)
    answer(recorded, as_json, command_id=command_id[0], amended=amended)
    return recorded


def answer(recorded: list, as_json: bool, detail=None, command_id: str | None = None,
           amended: dict | None = None) -> None:
    """What a write prints: ``--json`` the envelopes (with the write's ``command_id``); ``--verbose``
    the move in ``detail`` (a function that prints it, such as an attack's every die and step), else
    the payload table; otherwise the move in words and what follows
    (:func:`~yarnlog.cli.output.show_recorded`), first saying so if it was already recorded."""
    already = bool(getattr(recorded, "already_recorded", False))
    if SETTINGS.verbose and not as_json and detail is not None and not already:
        detail()
        return
    state = None
    if recorded and not as_json and not SETTINGS.verbose:
        # In words: the state after the move, as the write answered it (no replay, no read).
        state = getattr(recorded, "state", None)
        if state is None:
            state = open_journal().state(recorded[0].campaign_id)
    show_recorded(recorded, as_json, state=state, command_id=command_id, already=already, amended=amended)


def resolve_as_of(journal: "Journal", cid: str, as_of: int | None, end_of_scene: int | None) -> int | None:
    """The last sequence to replay for --as-of N or --end-of-scene N."""
    from yarnlog.core.referee import InvalidCommand

    if as_of is not None and end_of_scene is not None:
        raise InvalidCommand("give --as-of or --end-of-scene, not both")
    if as_of is not None and as_of < 1:
        raise InvalidCommand("--as-of counts events from 1")
    from yarnlog.core.limits import MAX_NUMBER

    for option, number in (("--as-of", as_of), ("--end-of-scene", end_of_scene)):
        if number is not None and number > MAX_NUMBER:
            raise InvalidCommand(f"{option} is an event or scene number, at most {MAX_NUMBER:,}")
    if end_of_scene is None:
        return as_of
    from yarnlog.core.state import as_told
    from yarnlog.core.timeline import Note

    # A note filed under the scene afterwards belongs to it but was not recorded in it: not its end.
    # An order drawn between scenes belongs to the next one (as_told): not the end of the one closed.
    in_scene = [r.sequence for r in as_told(journal.history(cid))
                if r.scene == end_of_scene and not (isinstance(r.payload, Note) and r.payload.scene is not None)]
    if not in_scene:
        raise InvalidCommand(f"there is no scene {end_of_scene} in this campaign")
    return in_scene[-1]


def campaign_state(campaign: str | None, as_of: int | None = None, end_of_scene: int | None = None):
    """The campaign's state at its end, or as of event N, or as of the end of scene N."""
    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    return journal.state(cid, upto=resolve_as_of(journal, cid, as_of, end_of_scene))


def campaign_view(campaign: str | None, name: str, as_of: int | None = None, end_of_scene: int | None = None):
    """The ruleset's projection ``name`` (``Views.projections``) of the campaign, as JSON data.

    At the campaign's end it is the stored view (a few rows, no replay, no import of the rules:
    :meth:`Journal.view`); as of an event or the end of a scene it is computed from the replay.
    """
    from yarnlog.app.projections import projection_at

    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    upto = None if as_of is None and end_of_scene is None else resolve_as_of(journal, cid, as_of, end_of_scene)
    return projection_at(journal, cid, name, upto)


def campaign_ruleset(campaign: str | None) -> tuple[str, str]:
    """The campaign a command works on and the name of its ruleset (the command line asks this to
    know which verbs exist; the journal answers from the campaign's first event, without replay)."""
    from yarnlog.app.bootstrap import require_journal

    require_journal(SETTINGS.db)  # no journal yet: say so before importing any database code
    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    return cid, journal.ruleset_name(cid)


def participant_named(table: Any, name: str | None) -> str | None:
    """A participant's name typed in a read's option (``--as``, ``--participant``) as registered: itself,
    the one registered name equal to it ignoring case, or the one it begins (a first name, a prefix:
    ``mar`` for Maya), as a write resolves names (:mod:`yarnlog.core.names`); else one line of bad input
    naming the names it matches or the nearest ones."""
    from yarnlog.core.names import canonical, did_you_mean, starting_with, which_match
    from yarnlog.core.referee import InvalidCommand

    if name is None:
        return None
    known = list(table.roles)
    found = canonical(name, known)
    if found in table.roles:
        return found
    begun = starting_with(name, known)
    if len(begun) == 1:
        return begun[0]
    raise InvalidCommand(f"{name} is not at the table{which_match(name, known) or did_you_mean(name, known)}")


def registered_named(state: Any, name: str) -> str:
    """A name typed in a read's argument (``sheet iris``) as the campaign registered it (its characters,
    locations: the ruleset's ``Rules.names``): ignoring case, or the one registered name it begins (a first
    name: ``Iris`` for Iris Vane); else as typed, for the read to refuse."""
    from yarnlog.core.names import canonical, starting_with

    ruleset = getattr(state, "ruleset", None)
    known = list(ruleset.rules.names(state)) if ruleset is not None else []
    found = canonical(name, known)
    if found in known:
        return found
    begun = starting_with(name, known)
    return begun[0] if len(begun) == 1 else name
