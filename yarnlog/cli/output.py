"""What the command line prints: JSON for machines, Rich tables and sentences for people.

User text (names, narration, notes, settings) is data, never instructions to the terminal: every
string the console prints goes through :func:`terminal_text` (the console's ``render_str``, which
Rich calls for every string it prints, table cells and titles included), JSON is printed with the
same characters escaped, and error lines through :func:`terminal_text` too. The console parses no
Rich markup at all (``markup=False``): square brackets a user typed are printed as typed, and the
command line's own emphasis is given as styles, never as markup around user text.
"""

import functools
import json
import re
import sys
from typing import Any

from yarnlog.core.visible import pictured

#: Characters a terminal acts on rather than shows: the C0 controls but tab and newline (ESC starts
#: colour, cursor and OSC 8 link sequences, CR rewrites the line, BEL rings), DEL, the C1 controls
#: (U+009B is an 8-bit CSI), the bidirectional embeddings, overrides and isolates (they reorder
#: what follows, "Trojan Source"), and the Unicode line and paragraph separators.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


#: The width a move's answer is wrapped to, and a refusal's line is made to fit.
WIDTH = 80


def terminal_text(text: str) -> str:
    """``text`` as a terminal may print it: every character that would drive the terminal (see
    :data:`_UNSAFE`) is replaced by a visible stand-in, so it is shown, never obeyed. Tabs and
    newlines are kept."""
    return pictured(_UNSAFE, text)


@functools.cache
def _safe_console_class():
    from rich.console import Console

    class SafeConsole(Console):
        """A console that prints every string through :func:`terminal_text` (and parses no markup)."""

        def render_str(self, text: str, **options: Any):
            return super().render_str(terminal_text(text), **options)

    return SafeConsole


def one_line(text: str) -> str:
    """``text`` for a one-line message (an error on stderr): :func:`terminal_text`, newlines and tabs
    shown as their control pictures too."""
    return terminal_text(text).replace("\n", "\u2424").replace("\t", "\u2409")


def citations(rule) -> list[str]:
    """How a refusal may name ``rule``'s place in its book, longest first: the heading of its
    section (``Supporting or Blocking a Force``), the rule's number where its book numbers its
    rules (``DS25``), the heading's last part where it is a sub-heading
    (``Advanced Procedural System: Player vs. Player`` -> ``Player vs. Player``)."""
    section = rule.section
    found = [section]
    if rule.number is not None:
        found.append(rule.number)
    if ": " in section:
        found.append(section.rsplit(": ", 1)[-1])
    return sorted(dict.fromkeys(found), key=len, reverse=True)


def refusal_line(message: str, rule) -> str:
    """A refusal in one line: ``Refused. Ana must pay 2 drama tokens but holds 0 (Forcing).``, what the
    rule says of this move and where the book says it. The section is named whole when the line fits
    :data:`WIDTH` columns, else by a shorter citation (:func:`citations`), else by the book and line
    of the rule (``Book 965``, :attr:`~yarnlog.core.referee.Rule.where`); the message is never cut,
    so a name typed very long may still make the line wider."""
    said = message.strip().rstrip(".")
    said = f"{said[:1].upper()}{said[1:]}"
    options = citations(rule)
    if rule.where is not None and rule.where not in options:
        options.append(rule.where)
    lines = [f"Refused. {said} ({cite})." for cite in options]
    fitting = [line for line in lines if len(line) <= WIDTH]
    return one_line(fitting[0] if fitting else min(lines, key=len))


def error_line(exc: Exception, *, full: bool = False) -> str:
    """The one line an error of the journal is told in on stderr. A move the rules refuse reads
    ``Refused. Ana must pay 2 drama tokens but holds 0 (Forcing).`` (:func:`refusal_line`): what
    the rule says of this move, and where the book says it (the section a recorded move names too);
    ``full`` (``--json``, ``--verbose``) quotes the rule's whole text instead, as the error carries
    it. Any other error reads ``error: ...``."""
    from yarnlog.core.referee import RuleViolation

    if isinstance(exc, RuleViolation) and not full:
        return refusal_line(exc.message, exc.rule)
    return f"error: {one_line(str(exc))}"


def console(stderr: bool = False):
    """A Rich console on stdout (or stderr) that prints user text as text (see the module's doc)."""
    # No markup and no emoji codes: ":lantern:" typed in a note is printed as typed, not as a picture.
    return _safe_console_class()(stderr=stderr, highlight=False, soft_wrap=False, markup=False, emoji=False)


def json_text(data: Any) -> str:
    """``data`` as indented JSON whose strings hold no character a terminal acts on: JSON escapes
    the C0 controls itself; the others of :data:`_UNSAFE` are written as ``\\uXXXX`` (the same
    JSON value)."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def emit(data: Any, as_json: bool, render=None) -> None:
    """Print ``data`` as JSON, or hand it to ``render`` for people."""
    if as_json or render is None:
        sys.stdout.write(json_text(data) + "\n")
    else:
        render(data)


def recorded_data(recorded) -> dict:
    """A recorded event as ``--json`` prints it (the envelope's own mapper decides the fields)."""
    from yarnlog.core.envelope import recorded_data as envelope_data

    return envelope_data(recorded)


def summarize(payload: dict, limit: int | None = 110) -> str:
    """A one-line gist of a payload for tables (all of it when ``limit`` is None)."""
    parts = []
    for key, value in payload.items():
        if value in (None, "", [], {}):
            continue
        if isinstance(value, (dict, list)):
            value = json.dumps(value, ensure_ascii=False)
        parts.append(f"{key}={value}")
    text = " ".join(parts)
    return text if limit is None or len(text) <= limit else text[:limit - 3] + "..."


def _payload_table(rows: list[dict], title: str) -> None:
    from rich import box
    from rich.table import Table

    # The whole payload, legible in 80 columns: light rules, the type on one line, long words folded.
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False,
                  padding=(0, 1, 0, 0))
    for col in ("#", "type", "by", "ep", "sc", "what"):
        table.add_column(col, no_wrap=col in ("#", "type"), overflow="fold")
    for row in rows:
        table.add_row(str(row["sequence"]), row["event_type"], row["recorded_by"],
                      str(row["episode"] or ""), str(row["scene"] or ""), summarize(row["payload"], None))
    console().print(table)


def wrapped(text: str, width: int = WIDTH) -> str:
    """``text`` as plain terminal text (:func:`terminal_text`, never markup) wrapped to ``width`` columns."""
    import textwrap

    return textwrap.fill(terminal_text(text), width=width, break_on_hyphens=False) or ""


def event_words(recorded, state) -> str | None:
    """A recorded event in words: its ruleset's (``Words.narrate``), else the journal's own, else ``None``."""
    from yarnlog.core.words import core_sentence

    ruleset = getattr(state, "ruleset", None)
    text = ruleset.words.narrate(recorded, state) if ruleset is not None else None
    return text if text is not None else core_sentence(recorded)


#: The journal's own events that amend an earlier one.
AMENDMENTS = ("correction", "retraction")


def show_recorded(events: list, as_json: bool, title: str = "Recorded", state=None, command_id: str | None = None,
                  already: bool = False, amended: dict | None = None) -> None:
    """What a command recorded: ``--json`` prints the envelopes; for people, given the campaign's
    ``state`` after the move, one sentence per event (a payload table for any event without one)
    and the ruleset's line on what follows (``Words.follow_up``), wrapped to :data:`WIDTH` columns;
    without ``state`` (``--verbose``, ``log``) the payload table.

    A write names its ``command_id`` in each JSON event (with ``already_recorded``), and says so
    first when the id had ``already`` recorded these events. An amendment's ``amended`` (the event it
    names, in words) is its JSON event's ``amended``, and the change it makes is said after it.
    """
    if already and not as_json:
        sys.stdout.write(wrapped(f"Already recorded by command {command_id}: nothing written.") + "\n")
    if as_json or state is None:
        rows = [recorded_data(r) for r in events]
        if command_id is not None:
            rows = [{**row, "command_id": command_id, "already_recorded": already} for row in rows]
        if amended is not None:
            rows = [{**row, "amended": amended} if row["event_type"] in AMENDMENTS else row for row in rows]
        emit(rows, as_json, lambda rows: _payload_table(rows, title))
        return
    lines: list[str] = []
    unsaid = []
    for recorded in events:
        text = event_words(recorded, state)
        if text is None:
            unsaid.append(recorded_data(recorded))
        elif text:
            lines.append(wrapped(text))
        if amended is not None and "change" in amended and recorded.event_type in AMENDMENTS:
            lines.append(wrapped(amended["change"] + "."))
    ruleset = getattr(state, "ruleset", None)
    after = ruleset.words.follow_up(state) if ruleset is not None else None
    if lines:
        sys.stdout.write("\n".join(lines) + "\n")
    if unsaid:
        _payload_table(unsaid, title)
    if after:
        sys.stdout.write(wrapped(after) + "\n")


def print_table(title: str, columns: tuple[str, ...], rows: list[tuple]) -> None:
    """A rich table of ``rows`` on the console, ``None`` cells left blank."""
    from rich.table import Table

    table = Table(title=title)
    for column in columns:
        table.add_column(column, overflow="fold")  # a long name is folded onto the next line, never cut
    for row in rows:
        table.add_row(*("" if cell is None else str(cell) for cell in row))
    console().print(table)


def working(message: str):
    """A spinner on stderr while long work runs (shown on a terminal only, never in --json output)."""
    return console(stderr=True).status(message, spinner="dots")
