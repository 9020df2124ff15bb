"""The prompt of ``yarnlog play``: a prompt_toolkit session with the status line as its bottom
toolbar, the completer and a history kept beside the journal, each entry held within the journal's
limit on a text before it is laid out; and ``play`` itself, which runs a file or a pipe on standard
input as a script instead (:mod:`yarnlog.cli.script`).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from yarnlog.cli.console import Console, fit_status, plain, unanswered_files

if TYPE_CHECKING:
    from prompt_toolkit import PromptSession


def history_file(db: str | None, campaign_id: str) -> Path | None:
    """Where the console keeps its input history: beside a SQLite journal, else in the user's data
    directory (XDG_DATA_HOME); None for a ``memory://`` journal."""
    if db and db.startswith("memory:"):
        return None
    name = f".yarnlog-play-{campaign_id}.history"
    if db and "://" not in db:
        return Path(db).expanduser().resolve().parent / name
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "yarnlog"
    return base / name


def make_session(console: Console, *, history: Path | None, input: Any = None, output: Any = None,
                 bound: EntryBound | None = None) -> PromptSession:
    """The prompt session: the status line as its bottom toolbar, the completer, the history."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    store: Any = InMemoryHistory()
    if history is not None:
        with contextlib.suppress(OSError):
            history.parent.mkdir(parents=True, exist_ok=True)
            store = FileHistory(str(history))
    from prompt_toolkit.application import get_app

    # The toolbar is called at every redraw (each keystroke): the line is already worked out, only
    # packed to the terminal's width (which may change between two redraws).
    def toolbar() -> str:
        return fit_status(console.status_text, get_app().output.get_size().columns)

    bound = bound or EntryBound(console)
    session: PromptSession = PromptSession(history=store, completer=console.completer(), complete_while_typing=False,
                                           bottom_toolbar=toolbar, input=input, output=output,
                                           key_bindings=bound.key_bindings())
    session.default_buffer.on_text_changed += bound.guard
    return session


class EntryBound:
    """Keeps an entry within :data:`~yarnlog.cli.script.MAX_ENTRY` characters before prompt_toolkit lays
    it out (a megabyte laid out exhausts memory): a paste that would pass it is refused whole; a line
    typed past it (or pasted by a terminal without bracketed paste) is cut back at once and, when
    entered, refused. Each refusal is one line above the prompt; the console goes on."""

    def __init__(self, console: Console):
        self.console = console
        self.overflowed = False  # the line being typed went past the limit

    def key_bindings(self) -> Any:
        from prompt_toolkit.key_binding import KeyBindings
        from prompt_toolkit.keys import Keys

        from yarnlog.cli.script import MAX_ENTRY

        bindings = KeyBindings()

        @bindings.add(Keys.BracketedPaste)
        def _paste(event: Any) -> None:
            data = event.data.replace("\r\n", "\n").replace("\r", "\n")  # as prompt_toolkit's own paste
            buffer = event.current_buffer
            if len(buffer.text) + len(data) > MAX_ENTRY:
                self._refuse(len(buffer.text) + len(data), "characters")
                return
            buffer.insert_text(data)

        return bindings

    def guard(self, buffer: Any) -> None:
        """The buffer's text-changed handler: a line past the limit is cut back to it."""
        from yarnlog.cli.script import MAX_ENTRY

        if len(buffer.text) > MAX_ENTRY:
            buffer.text = buffer.text[:MAX_ENTRY]
            if not self.overflowed:
                self._refuse(MAX_ENTRY + 1, "characters or more")
            self.overflowed = True

    def refused(self) -> bool:
        """Whether the line just entered went past the limit (then it is not sent); ready for the next."""
        overflowed, self.overflowed = self.overflowed, False
        return overflowed

    def _refuse(self, length: int, unit: str) -> None:
        from prompt_toolkit.application import run_in_terminal

        from yarnlog.cli.script import too_long

        run_in_terminal(lambda: self.console.fail(too_long(length, unit)))


def prompt_lines(session: PromptSession, campaign_id: str) -> Iterator[str]:
    """The lines typed until Ctrl-D (Ctrl-C drops the line being typed)."""
    while True:
        try:
            yield session.prompt(f"{plain(campaign_id)}> ")
        except KeyboardInterrupt:
            continue
        except EOFError:
            return


def play(db: str | None, campaign: str | None, *, as_json: bool = False, input: Any = None,
         output: Any = None, keep_going: bool = False) -> int:
    """Open the campaign once and play lines until ``exit`` or Ctrl-D; a file or a pipe on standard
    input is run as a script (:mod:`yarnlog.cli.script`). The exit code."""
    from yarnlog.cli.context import open_journal, pick_campaign

    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    console = Console(journal, db, cid, as_json=as_json)
    if input is None and not sys.stdin.isatty():
        from yarnlog.cli.script import run_script

        try:
            return run_script(console, sys.stdin.buffer, keep_going=keep_going)
        finally:
            console.close()
    bound = EntryBound(console)
    session = make_session(console, history=history_file(db, cid), input=input, output=output, bound=bound)

    def confirm(question: str) -> bool:
        try:
            return session.prompt(question, completer=None).strip().lower() in ("y", "yes")
        except (EOFError, KeyboardInterrupt):
            return False

    console.confirm = confirm
    console.say(f"yarnlog play: {cid}. Every entry is saved before the answer; help lists the verbs, "
                f"exit or Ctrl-D leaves.")
    console.unanswered_file, left = unanswered_files(history_file(db, cid), cid)
    left_over = console.adopt_unanswered(left)
    if left_over is not None:
        console.say("The last entry of a console that stopped was never answered:")
        console.say(f"  {shlex.join(left_over.words)}")
        console.say("Type it again as it is: it is sent as the same command, so it is recorded once.")
    try:
        for line in prompt_lines(session, cid):
            if bound.refused():
                console.fail("that line went past the limit: nothing sent")
                continue
            if console.dispatch(line) is None:
                return 0
    finally:
        console.close()
    return 0
