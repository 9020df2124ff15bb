"""``yarnlog play`` with a file or a pipe on standard input: the lines run as a script.

Each line is an entry, dispatched as the console dispatches a line typed at the table; the script
stops at the first entry that is refused or fails (``--keep-going`` runs the lines after it), and
says on stderr how many entries were recorded. A line is read at most :data:`MAX_ENTRY` characters
at a time: a longer one is refused in one line, its rest skipped unread into memory.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, BinaryIO

from yarnlog.core.limits import MAX_TEXT

if TYPE_CHECKING:
    from yarnlog.cli.console import Console

#: The longest entry the console takes, typed, pasted or read from a script: the journal's own limit
#: on a text field (a note), so no entry the journal would take is cut, and no line is held whole
#: that it would refuse anyway.
MAX_ENTRY = MAX_TEXT


def too_long(length: int, unit: str = "characters") -> str:
    """The refusal of an entry of ``length`` characters (or bytes, as ``unit`` says)."""
    return f"an entry is at most {MAX_ENTRY:,} characters, not {length:,} {unit}: nothing sent"


@dataclass(frozen=True)
class Line:
    """One line of a script: its text, or why it cannot be an entry (``problem``)."""

    number: int
    text: str = ""
    problem: str | None = None


def script_lines(stream: BinaryIO, limit: int = MAX_ENTRY) -> Iterator[Line]:
    """The lines of ``stream``, each read at most ``limit`` characters' worth of bytes at a time (UTF-8
    takes at most four bytes a character); a longer line is a :class:`Line` with its problem, and the
    rest of it is read through in chunks, never held."""
    number = 0
    while True:
        raw = stream.readline(4 * limit + 1)
        if not raw:
            return
        number += 1
        length = len(raw)
        while not raw.endswith(b"\n") and length > 4 * limit:  # the rest of a long line: counted, dropped
            rest = stream.readline(1 << 16)
            if not rest:
                break
            length += len(rest)
            raw = rest
        if length > 4 * limit:
            yield Line(number, problem=too_long(length, "bytes"))
            continue
        try:
            text = raw.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError as exc:
            yield Line(number, problem=f"line {number} is not UTF-8 text (byte 0x{raw[exc.start]:02x})")
            continue
        yield Line(number, text, too_long(len(text)) if len(text) > limit else None)


def run_script(console: Console, stream: BinaryIO, *, keep_going: bool = False) -> int:
    """Run the lines of ``stream`` as entries; the exit code of the first that failed (0: none did).

    A question an entry asks (``undo``'s) is answered by the script's next line, as at the table."""
    lines = script_lines(stream)

    def confirm(question: str) -> bool:
        console.say(question)
        answer = next(lines, None)
        return answer is not None and answer.problem is None and answer.text.strip().lower() in ("y", "yes")

    console.confirm = confirm
    failed, stopped_at, count = 0, None, 0
    for line in lines:
        count += 1
        code = console.fail(line.problem) if line.problem is not None else console.dispatch(line.text)
        if code is None:  # exit, quit
            break
        if code != 0:
            failed = failed or code
            if not keep_going:
                stopped_at = line.number
                break
    said = f"{console.recorded} {'entry' if console.recorded == 1 else 'entries'} recorded from {count} " \
           f"{'line' if count == 1 else 'lines'}"
    if stopped_at is not None:
        said += f"; stopped at line {stopped_at} (--keep-going runs the lines after a refusal)"
    console.err.write(said + ".\n")
    console.err.flush()
    return failed
