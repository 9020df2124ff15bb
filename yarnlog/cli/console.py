"""``yarnlog play``: one process for the whole session, an interactive console on one campaign:
its session (this module), its status line (here too), its completion (:mod:`yarnlog.cli.completion`)
and its prompt (:mod:`yarnlog.cli.prompt`, built on prompt_toolkit, never on hand-rolled input
handling). Each line is split like a shell line (:func:`shlex.split`) and handed, in this process, to
**the same click command tree** as ``yarnlog WORDS`` (:func:`yarnlog.cli.commands.root_command`, the
campaign's ruleset's verbs included): the same verbs, options, validation, refusals and ``--override``.
The console adds only what a long-lived session needs:

- ``undo [REASON]``: shows the last entry this console recorded and, when confirmed, records a
  ``retract`` of it through the same command path (never a deletion);
- ``dice? VERB ...``: decides the move without recording it and says how many dice it would use
  (:meth:`Journal.preview <yarnlog.app.journal.Journal.preview>`), so the faces can be typed;
- ``help``, ``exit``/``quit`` (or Ctrl-D).

**Durability.** A line is answered only after :meth:`Journal.execute` has committed its events
(a SQLite transaction in WAL mode, synchronous): a killed console loses nothing it confirmed.
**Command ids.** Each move is sent with a command id (:mod:`yarnlog.app.command_ids`), the line's
``--command-id`` or one minted for it, as on the command line. An entry whose answer never came (the
journal failed, or the console was killed first) is noted beside the history until it is answered;
the same line typed again, in this console or the next one on the campaign, is sent with the same
id, so it is recorded once whatever became of the first attempt.
**Other writers.** Before each line the journal reads the events it has not seen (one indexed
query), so a second console or a CLI command is seen at the next entry; a race lost while
appending is decided again by :meth:`Journal.execute` on a fresh read, never dropped.
**Speed.** The one journal stays open for the session and remembers the campaign's state, so a
move decides without replaying and the status line is read from that state in memory: the time
from Enter to the new status line does not grow with the history (``bench/console.py``).

User text (names, notes) is printed by the verbs, which escape it for Rich; the console's own
lines and the status line strip control characters and never pass through Rich markup.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import json
import os
import random
import shlex
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from prompt_toolkit.utils import get_cwidth

from yarnlog.cli.completion import CONSOLE_VERBS, PlayCompleter, Vocabulary, verb_tree, vocabulary

if TYPE_CHECKING:
    from typer._click import Command

    from yarnlog.app.journal import Journal
    from yarnlog.core.events import Recorded
    from yarnlog.core.ruleset import CampaignState
    from yarnlog.core.seats import Seat

UNDO_REASON = "undone at the table (yarnlog play)"


def plain(text: str) -> str:
    """``text`` safe to write to a terminal in one line: every character that would drive it (escapes,
    bidi overrides, newlines) shown as a visible stand-in, never obeyed (:func:`yarnlog.cli.output.one_line`)."""
    from yarnlog.cli.output import one_line

    return one_line(text)


# -- the status line ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Status:
    """What the status line shows, read from the state in memory (never from the store)."""

    campaign: str
    sequence: int
    episode: int | None
    scene: int | None
    caller: str | None
    next_caller: str | None
    seats: tuple[Seat, ...] = ()
    no_next: str | None = None  # why no one is next, in the ruleset's words (the closer played)


def status_of(campaign_id: str, state: CampaignState[Any]) -> Status:
    """The status line of ``state``: lookups in the remembered state only, so its cost does not
    grow with the history (no ledger walk: the kitty's flows are not on it)."""
    timeline = state.timeline
    scene = timeline.scene
    caller = timeline.scenes[scene].caller if scene is not None and scene in timeline.scenes else None
    table = state.table
    names = [*table.players, table.gm]
    from yarnlog.core.ruleset import get_ruleset

    shown = get_ruleset(state.table.ruleset).words.seats(state, names)
    return Status(campaign_id, state.sequence, timeline.episode, scene, caller, shown.next_caller, shown.seats,
                  shown.no_next)


def render_status(status: Status) -> str:
    """The status line as plain text (user names stripped of control characters)."""
    head = [f"{status.campaign} #{status.sequence}",
            f"episode {status.episode or '-'}", f"scene {status.scene or '-'}",
            f"caller {status.caller or '-'}", f"next {status.next_caller or status.no_next or '-'}"]
    seats = []
    for seat in status.seats:
        words = [seat.name + (f"/{seat.character}" if seat.character else "")]
        if seat.drama_tokens is not None:
            words.append(f"{seat.drama_tokens}dt {seat.bennies}b")
        if seat.hit_points is not None:
            words.append(f"{seat.hit_points[0]}/{seat.hit_points[1]}hp")
        words.extend(seat.figures)
        seats.append(" ".join(words))
    return plain(" | ".join([" · ".join(head), *seats]))


def fit_status(line: str, width: int) -> str:
    """The status line (:func:`render_status`) packed into lines of at most ``width`` columns, broken
    between its parts (the head, then one seat each; the head between its own items if it must), so
    every seat stays in view at the table; an item wider than the terminal by itself is cut with an
    ellipsis."""
    width = max(width, 10)
    lines: list[str] = []
    for part in line.split(" | "):
        pieces = _packed(part.split(" · "), " · ", width) if get_cwidth(part) > width else [part]
        for piece in pieces:
            if lines and get_cwidth(lines[-1]) + 3 + get_cwidth(piece) <= width:
                lines[-1] = f"{lines[-1]} | {piece}"
            else:
                lines.append(piece)
    return "\n".join(lines)


def _packed(items: list[str], separator: str, width: int) -> list[str]:
    """``items`` joined by ``separator`` into as few lines of at most ``width`` columns as they go."""
    lines: list[str] = []
    for item in items:
        if get_cwidth(item) > width:
            while item and get_cwidth(item) > width - 1:
                item = item[:-1]
            item += "…"
        if lines and get_cwidth(lines[-1]) + get_cwidth(separator) + get_cwidth(item) <= width:
            lines[-1] = f"{lines[-1]}{separator}{item}"
        else:
            lines.append(item)
    return lines


# -- the session -------------------------------------------------------------------------------


class DiceCount(Exception):
    """``dice?``: the move was decided, not recorded; ``needs`` says each roll it takes, in words."""

    def __init__(self, needs: tuple[str, ...]):
        super().__init__("dry run")
        self.needs = needs


def count_dice(journal: Journal, campaign_id: str, command: Any, *, command_id: str | None = None,
               new_command: bool = False, **execute: Any) -> list[Any]:
    """An executor that decides ``command`` without recording and raises :class:`DiceCount`.

    Every roll the decision asks for is named (a throw from a fixed seed stands in for each, only so
    the decision can go on to the next roll); a refusal is raised as the move itself would raise it.
    Nothing is written, so the entry's command id is not used.
    """
    from yarnlog.app.rolling import with_throw
    from yarnlog.core.referee import DiceNeeded

    needs: list[str] = []
    stand_in = random.Random(0)
    while True:
        try:
            journal.preview(campaign_id, command, **execute)
        except DiceNeeded as need:
            needs.append(need.uses())
            command = with_throw(command, need.roll, need.throw(stand_in))
            continue
        raise DiceCount(tuple(needs))


@dataclass(frozen=True)
class Unanswered:
    """An entry sent to the journal with ``command_id`` whose answer never came: the journal failed
    (a storage error, the campaign kept busy, an internal error) or the console was killed first.
    Whether it was recorded is not known; typed again as it was (``words``), it is sent with the
    same id, so it is recorded once whatever became of it (:mod:`yarnlog.app.command_ids`)."""

    command_id: str
    words: tuple[str, ...]


#: The exit codes of an entry the journal answered: recorded (0), or refused with nothing written.
ANSWERED = (0, 2, 3)


def unanswered_files(history: Path | None, campaign_id: str) -> tuple[Path | None, list[Path]]:
    """Where this console notes the entry it is sending (beside its history, one file per console
    process, so two consoles on one campaign never clear each other's), and the notes left by
    consoles of this campaign that are no longer running."""
    if history is None:
        return None, []
    prefix = f".yarnlog-play-{campaign_id}."
    left = []
    for path in history.parent.glob(f"{prefix}*.unanswered"):
        pid = path.name[len(prefix):-len(".unanswered")]
        if pid.isdigit() and not _running(int(pid)):
            left.append(path)
    return history.parent / f"{prefix}{os.getpid()}.unanswered", left


def _running(pid: int) -> bool:
    """Whether process ``pid`` is running (signal 0 probes without signalling)."""
    if os.name != "posix":  # no harmless probe: another console's note is left alone
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # someone else's process: running
        return True
    with contextlib.suppress(OSError, IndexError):  # a process killed but not yet reaped is a zombie: ended
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    return True


@dataclass
class Console:
    """One campaign at the table: dispatches lines, keeps the status line, remembers its entries.

    ``out`` and ``err`` are where the console's own lines go (the verbs print to ``sys.stdout``);
    ``confirm`` asks a yes/no question (the prompt session's, in play).
    """

    journal: Journal
    db: str | None
    campaign_id: str
    confirm: Callable[[str], bool] = lambda question: False
    out: TextIO = field(default_factory=lambda: sys.stdout)
    err: TextIO = field(default_factory=lambda: sys.stderr)
    #: Every verb answers in JSON (``yarnlog play --json``), as with ``--json`` on each line.
    as_json: bool = False
    entries: list[list[Recorded]] = field(default_factory=list)
    #: How many entries recorded something in this console (a script's count).
    recorded: int = 0
    #: The entry whose answer never came, if any (see :class:`Unanswered`), and the file that keeps it
    #: across a crash (None: kept in memory only).
    unanswered: Unanswered | None = None
    unanswered_file: Path | None = None
    status_text: str = ""
    _state: Any = None  # the campaign as last read: CampaignState
    _vocabulary: Vocabulary = field(default_factory=Vocabulary)
    _verbs: dict[str, Command] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._verbs = verb_tree(self.db, self.campaign_id)
        self.refresh()

    @property
    def verbs(self) -> dict[str, Command]:
        return self._verbs

    def vocabulary(self) -> Vocabulary:
        """The campaign's names, traits and events, worked out from the state in memory when asked (a
        completion, a suggestion), never on the way from Enter to the status line: the supporting
        cast and combatants grow with the history. No I/O: completion may run on another thread."""
        if self._vocabulary.last_event != self._state.sequence:
            self._vocabulary = vocabulary(self._state)
        return self._vocabulary

    def completer(self) -> PlayCompleter:
        return PlayCompleter(self._verbs, self.vocabulary)

    def sync(self) -> None:
        """Bring the remembered campaign up to the store's head: the events of other writers, read in
        one query for what is new (none: the state already in memory)."""
        self._state = self.journal.state(self.campaign_id)

    def refresh(self) -> str:
        """:meth:`sync`, then work out the status line from the state in memory."""
        self.sync()
        self.status_text = render_status(status_of(self.campaign_id, self._state))
        return self.status_text

    def close(self) -> None:
        """Leave the session with the stored views (``yarnlog tokens`` and the like) at the campaign's
        head, worked out from the state in memory: the next one-shot read is then a few rows, not a
        state read back from a snapshot (the moves themselves leave the views to their next reader,
        which recomputes a view not taken at the head: a stored view is never served stale)."""
        try:
            self.sync()
            self.journal.refresh_views(self.campaign_id)
        except Exception as exc:  # a cache not kept must not turn leaving into an error
            self.err.write(f"error: cannot keep the campaign's views: {plain(str(exc))}\n")

    def say(self, text: str) -> None:
        self.out.write(plain(text) + "\n")
        self.out.flush()

    def fail(self, text: str) -> int:
        self.err.write("error: " + plain(text) + "\n")
        self.err.flush()
        return 2

    # -- one line -----------------------------------------------------------------------

    def dispatch(self, line: str) -> int | None:
        """Run one line; its exit code as the CLI would give it (None: leave the console)."""
        try:
            words = shlex.split(line)
        except ValueError as exc:
            return self.fail(f"cannot read that line: {exc}")
        if not words:
            return 0
        verb = words[0]
        if verb in ("exit", "quit"):
            return None
        try:
            # Whatever another console or a CLI command recorded is seen before this entry.
            self.sync()
            if verb == "help":
                return self.help(words[1:])
            if verb == "undo":
                return self.undo(words[1:])
            if verb == "dice?":
                return self.dice(words[1:])
            return self.run(words)
        finally:
            self._refresh_quietly()

    def _refresh_quietly(self) -> None:
        try:
            self.refresh()
        except Exception as exc:  # the status line must not take the console down with it
            self.err.write(f"error: cannot read the campaign: {plain(str(exc))}\n")

    def run(self, words: list[str], executor: Callable[..., list[Any]] | None = None) -> int:
        """Parse and run ``words`` through the command line's own command table, in this process.

        A write is sent with a command id, as on the command line: the line's ``--command-id``; else,
        when the line is the one whose answer never came (:attr:`unanswered`), that entry's id, so a
        retried move is recorded once; else one minted for the entry."""
        from yarnlog.app.command_ids import new_command_id
        from yarnlog.cli.context import ENTRY_ID, EXECUTOR

        if words[0] not in self._verbs:
            return self._unknown_verb(words[0])
        recorded: list[Recorded] = []
        sent: list[Unanswered] = []

        def remembering(journal: Journal, cid: str, command: Any, *, command_id: str, new_command: bool,
                        **execute: Any) -> list[Any]:
            """Execute as the CLI does, under the entry's command id (noted first, so that a crash
            before the answer leaves it to retry with), noting what the entry recorded. The stored
            views (caches for ``yarnlog tokens`` and the like in other processes) are not brought to
            the head after each move: recomputing them walks the history, and the console reads its
            state in memory; a view not at the head is recomputed by its next reader (:meth:`Journal.view`)."""
            from yarnlog.app.rolling import execute_rolling

            sent.append(Unanswered(command_id, tuple(words)))
            self._keep_unanswered(sent[-1])
            result = execute_rolling(journal, cid, command, command_id=command_id, new_command=new_command, **execute)
            recorded.extend(result)
            return result

        retried = self.unanswered is not None and self.unanswered.words == tuple(words)
        entry_id = (self.unanswered.command_id, False) if retried and self.unanswered else (new_command_id(), True)
        token, id_token = EXECUTOR.set(executor or remembering), ENTRY_ID.set(entry_id)
        code = None  # not answered: an exception (Ctrl-C while the journal waits) leaves the entry's fate unknown
        try:
            code = self._invoke(words)
            return code
        finally:
            ENTRY_ID.reset(id_token)
            EXECUTOR.reset(token)
            if recorded:
                self.entries.append(recorded)
                self.recorded += 1
            if sent:
                self._answered(sent[-1], code)

    def _keep_unanswered(self, entry: Unanswered | None) -> None:
        """Note ``entry`` as the one awaiting its answer (None: every entry is answered), in memory and
        in :attr:`unanswered_file`. A note that cannot be kept costs the retry its id, never the entry."""
        self.unanswered = entry
        if self.unanswered_file is None:
            return
        with contextlib.suppress(OSError):
            if entry is None:
                self.unanswered_file.unlink(missing_ok=True)
            else:
                self.unanswered_file.write_text(json.dumps({"command_id": entry.command_id,
                                                            "words": list(entry.words)}), encoding="utf-8")

    def _answered(self, entry: Unanswered, code: int | None) -> None:
        """After an entry sent to the journal: forget it if the journal answered (recorded or refused),
        else keep it and say how to retry it."""
        if code in ANSWERED:
            self._keep_unanswered(None)
            return
        self.say("Not confirmed. Type the same line again: it is sent as the same command")
        self.say(f"({entry.command_id}), so it is recorded once.")

    def adopt_unanswered(self, notes: Iterable[Path]) -> Unanswered | None:
        """Take over the newest entry left unanswered by a console of this campaign that stopped
        (its note is then removed); the entry, or None."""
        found = None
        for path in sorted(notes, key=lambda p: p.stat().st_mtime if p.exists() else 0):
            with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
                data = json.loads(path.read_text(encoding="utf-8"))
                found = Unanswered(str(data["command_id"]), tuple(str(word) for word in data["words"]))
            with contextlib.suppress(OSError):
                path.unlink()
        if found is not None:
            self._keep_unanswered(found)
        return found

    def _invoke(self, words: list[str]) -> int:
        from typer._click.exceptions import ClickException, NoArgsIsHelpError
        from typer.exceptions import Abort

        from yarnlog.cli.commands import root_command, usage_error
        from yarnlog.cli.options import SETTINGS
        from yarnlog.cli.output import error_line
        from yarnlog.cli.root import EXIT_CODES
        from yarnlog.core.referee import YarnlogError

        args = (["--db", self.db] if self.db else []) + ["-c", self.campaign_id, *words]
        if self.as_json and "--help" not in words:
            args.append("--json")
        try:
            code = root_command().main(args=args, prog_name="yarnlog", standalone_mode=False)
            return code if isinstance(code, int) else 0
        except DiceCount:
            raise
        except YarnlogError as exc:  # a refusal in one line naming the book's section, as on the command line
            full = self.as_json or SETTINGS.json or SETTINGS.verbose
            self.err.write(error_line(exc, full=full) + plain(self._suggestion(words, str(exc))) + "\n")
            self.err.flush()
            return exc.exit_code
        except NoArgsIsHelpError as exc:  # a bare group: its help is printed, as on the command line
            if exc.format_message().strip():
                exc.show()
            return exc.exit_code
        except ClickException as exc:  # worded as the command line words it
            message = usage_error(exc)
            self.fail(message + self._suggestion(words, message))
            return exc.exit_code
        except Abort:
            return self.fail("aborted")
        except Exception as exc:  # never a traceback at the table: the CLI's own one-line answers
            if type(exc).__module__.startswith("sqlalchemy"):
                reason = str(getattr(exc, "orig", exc)).strip().splitlines()[0]
                self.fail(f"the journal database failed: {reason}")
                return EXIT_CODES["store"]
            if os.environ.get("YARNLOG_DEBUG"):
                raise
            self.err.write(f"internal error: {type(exc).__name__}: {plain(str(exc))}\n")
            return EXIT_CODES["internal"]

    def _unknown_verb(self, verb: str) -> int:
        close = difflib.get_close_matches(verb, [*self._verbs, *CONSOLE_VERBS], n=1, cutoff=0.6)
        hint = f": did you mean {close[0]}?" if close else " (help lists them)"
        return self.fail(f"no verb {verb!r}{hint}")

    def _suggestion(self, words: Sequence[str], message: str) -> str:
        """`` (did you mean Tomas?)`` when a word of the line that the refusal names is close to a name
        or trait the campaign knows; empty otherwise."""
        if "did you mean" in message or "say which" in message:  # the journal suggested already
            return ""
        vocabulary = self.vocabulary()
        known = [*vocabulary.names(), *vocabulary.traits]
        for word in words[1:]:
            if word.startswith("-") or word in known or word not in message:
                continue
            close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
            if close:
                return f" (did you mean {close[0]}?)"
        return ""

    # -- the console's own verbs --------------------------------------------------------

    def help(self, words: list[str]) -> int:
        if words:
            return self.run([*words, "--help"])
        import textwrap

        from yarnlog.cli.output import WIDTH

        # Within 80 columns, a verb never split across lines.
        wrap = functools.partial(textwrap.wrap, width=WIDTH, break_long_words=False, break_on_hyphens=False)
        lines = ["Verbs (as on the command line; VERB --help for each):",
                 *wrap(", ".join(sorted(self._verbs)), initial_indent="  ", subsequent_indent="  ")]
        for name, what in CONSOLE_VERBS.items():
            lines += wrap(f"{name}: {what}", initial_indent="  ", subsequent_indent="    ")
        for line in lines:
            self.say(line)
        return 0

    def dice(self, words: list[str]) -> int:
        """``dice? VERB ...``: how many dice the move would use; nothing is recorded."""
        if not words:
            return self.fail("dice? takes a move: dice? roll Tomas --trait Brawler")
        try:
            code = self.run(words, executor=count_dice)
        except DiceCount as count:
            if not count.needs:
                self.say("no dice to roll: nothing recorded")
            for uses in count.needs:
                self.say(f"{uses}: type them with the move (nothing recorded)")
            return 0
        return code

    def undo(self, words: list[str]) -> int:
        """Retract the last entry of this console (its last event), after showing it in its own sentence
        and asking; ``undo REASON``, ``--json`` answers as ``retract --json`` does."""
        from yarnlog.cli.asking import amendment_words, asking_lines
        from yarnlog.core.decide import recorded_with

        if not self.entries:
            return self.fail("nothing entered in this console to undo (retract N --reason R retracts any event)")
        as_json = "--json" in words and not self.as_json
        reason = " ".join(word for word in words if word != "--json") or UNDO_REASON
        target = self.entries[-1][-1]
        shown = self.err if as_json or self.as_json else self.out  # JSON answers keep stdout to themselves
        together = set(recorded_with(target.sequence, self.entries[-1]))  # what the retraction takes back
        said = amendment_words(target, self._state, entry=tuple(r for r in self.entries[-1] if r.sequence in together))
        for line in asking_lines(target, said, retracting=True):
            shown.write(plain(line) + "\n")
        if not self.confirm(plain(f"Undo event {target.sequence}? [y/N] ")):
            self.say("not undone")
            return 0
        entry = self.entries.pop()
        code = self.run(["retract", str(target.sequence), "--reason", reason, "--yes",
                         *(["--json"] if as_json else [])])  # asked above
        if code != 0:
            self.entries.append(entry)
        else:
            self.entries.pop()  # the retraction itself is not an entry to undo
        return code
