"""User text reaches the terminal as text: every read command, on a campaign with the XSS corpus
in every text field, prints no control character a terminal would act on (ESC, BEL, CR inside a
line, the other C0 and C1 controls, bidirectional overrides), and Rich markup typed by a user is
printed literally, never applied. ``--json`` keeps every text exactly (escaped, not altered)."""

from __future__ import annotations

import json
import re

import pytest
from corpus import CORPUS, TERMINAL_UNSAFE
from hostile import ANA, BEN, IRIS, TOMAS, hostile_db_fixture, run  # noqa: F401 (the fixture hostile_db)

from yarnlog.cli.output import json_text, one_line, terminal_text

#: Every read command of the core and of Yarn (the hostile campaign plays Yarn).
READ_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("campaigns",), ("status",), ("log",), ("log", "--as", ANA), ("log", "--participant", BEN), ("verify",),
    ("tokens",), ("ledger",), ("ledger", "--participant", ANA), ("bennies",), ("bennies", "--tally"),
    ("calling-order",), ("precedence", "show"), ("xp", "status"), ("sheet", IRIS), ("sheet", TOMAS),
    ("sheet", IRIS, "--end-of-scene", "1"), ("relationships",), ("cast",), ("rolls",), ("consequences",),
    ("group", "list"), ("psychic", "show"), ("fight", "status"), ("wounds",),
    ("explain", "--scene", "1"), ("explain", "--scene", "2", "--as", BEN), ("explain", "20"), ("explain", "23"),
    ("dice-stats",), ("sheet", IRIS, "--format", "md"), ("sheet", TOMAS, "--format", "md"),
    ("recap", "--series"), ("recap", "--series", "--players"), ("recap", "--episode", "1", "--as", BEN),
)
#: Commands that fail, with the user's text in the one line of the error.
FAILING_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("sheet", "\x1b[31mNobody\x07\r[bold]x[/]\u202e"),
    ("status", "--campaign", "\x1b]8;;http://x\x1b\\y"),
    ("precedence", "draw", "--purpose", "calling-order", "--order", "Who\x1b[2J,[red]Whom[/]"),
)
SGR = re.compile(r"\x1b\[[0-9;]*m")  # Rich's own colours, on a terminal


def unsafe(text: str) -> list[str]:
    return sorted({repr(c) for c in text if c in TERMINAL_UNSAFE})


def assert_terminal_safe(out: str, what: str) -> None:
    bad = unsafe(out)
    assert not bad, f"{what}: raw control characters reach the terminal: {', '.join(bad)}"


@pytest.fixture
def wide(monkeypatch):
    """A console wide enough that no table cell wraps a corpus string; no colours unless asked."""
    monkeypatch.setenv("COLUMNS", "1000")
    for name in ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize("args", READ_COMMANDS, ids=" ".join)
def test_read_commands_print_user_text_as_text(hostile_db, wide, args):
    db, _ = hostile_db
    code, out, err = run(db, *args)
    assert code == 0, err
    assert_terminal_safe(out + err, f"yarnlog {args[0]}")
    if "--format" in args or args[0] == "recap":
        return  # a Markdown document: its escaping is tested with the render layer and in test_html_safety
    # Rich markup typed by a user is printed as typed: each word it wraps comes with its tag (the
    # rest may be cut off where a long line is shortened).
    assert out.count("loud") == out.count("[bold red]loud")
    assert out.count("click") == out.count("[link=https://evil.example]click")


@pytest.mark.parametrize("args", READ_COMMANDS, ids=" ".join)
def test_on_a_colour_terminal_user_text_applies_no_style(hostile_db, wide, monkeypatch, args):
    monkeypatch.setenv("FORCE_COLOR", "1")
    db, _ = hostile_db
    code, out, err = run(db, *args)
    assert code == 0, err
    assert "\x1b]" not in out, "an OSC sequence (a hyperlink) reached the terminal"
    assert not re.search(r"\x1b\[[0-9;]*31[;m]", out), "red was applied: Rich markup or ANSI from user text"
    # (stderr is left out here: on a terminal it carries the spinner's own cursor controls)
    assert_terminal_safe(SGR.sub("", out), f"yarnlog {args[0]} (colour)")


@pytest.mark.parametrize("args", READ_COMMANDS, ids=" ".join)
def test_json_output_is_terminal_safe_and_exact(hostile_db, wide, args):
    db, _ = hostile_db
    code, out, err = run(db, *args, "--json")
    assert code == 0, err
    assert_terminal_safe(out + err, f"yarnlog {args[0]} --json")
    json.loads(out)


def test_json_keeps_every_text_typed(hostile_db, wide):
    db, typed = hostile_db
    code, out, _ = run(db, "log", "--json")
    assert code == 0

    def strings(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for v in value.values():
                yield from strings(v)
        elif isinstance(value, list):
            for v in value:
                yield from strings(v)

    recorded = "\n".join(strings(json.loads(out)))
    missing = [text for text in set(typed) if text not in recorded]
    assert not missing, f"texts typed but not in the log as typed: {missing}"
    assert set(CORPUS) <= set(typed)


@pytest.mark.parametrize("args", FAILING_COMMANDS, ids=lambda a: a[0])
def test_errors_are_one_safe_line(hostile_db, wide, args):
    db, _ = hostile_db
    code, out, err = run(db, *args)
    assert code in (2, 3), (code, err)
    assert_terminal_safe(out + err, f"yarnlog {args[0]} (error)")
    assert err.endswith("\n") and err.count("\n") == 1 and err.startswith("error: ")


def test_a_write_command_echoes_user_text_safely(tmp_path, wide):
    db = tmp_path / "w.db"
    assert run(db, "init", "w", "--title", CORPUS[16], "--gm", "[bold red]GM[/]")[0] == 0
    code, out, err = run(db, "join", "[red]Ana[/]")
    assert code == 0, err
    assert "[red]Ana[/]" in out
    code, out, err = run(db, "note", "\x1b[31mthe fog\r\x07 [link=https://evil.example]click[/link]")
    assert code == 0, err
    assert_terminal_safe(out + err, "yarnlog note")
    assert "[link=https://evil.example]click[/link]" in out
    # A name is typed again and again, matched and listed: one with control characters is refused.
    code, out, err = run(db, "join", "\x1b[31mAna\r\x07")
    assert code == 2 and out == "" and err == "error: name: a name holds no control or text-direction characters\n"
    assert "[bold red]GM[/]" in run(db, "status")[1]


def test_terminal_text_shows_controls_instead_of_obeying_them():
    assert terminal_text("\x1b[31mred\r\x07") == "\u241b[31mred\u240d\u2407"
    assert terminal_text("a\tb\nc") == "a\tb\nc"
    assert terminal_text("\u202eabc\x9b\x7f") == "\ufffdabc\ufffd\u2421"
    assert one_line("two\nlines\t") == "two\u2424lines\u2409"
    for text in CORPUS:
        assert not unsafe(terminal_text(text))
        assert json.loads(json_text(text)) == text and not unsafe(json_text(text))


def test_writing_a_recap_to_a_file_says_so_in_one_safe_line(hostile_db, wide, tmp_path):
    db, _ = hostile_db
    code, out, err = run(db, "recap", "--series", "--as", BEN, "-o", str(tmp_path / "ben\x1b[2J.md"))
    assert code == 0, err
    assert out == "" and err.startswith("Wrote ") and err.count("\n") == 1
    assert_terminal_safe(err, "yarnlog recap -o")


@pytest.mark.parametrize("args", [("tokens",), ("ledger", "--participant", ANA)], ids=" ".join)
def test_at_80_columns_a_long_name_is_folded_never_cut(hostile_db, monkeypatch, args):
    """A table on an 80-column terminal folds a long name onto the next line: no ellipsis, and the
    ledger's move column (kept on one line for short moves) wraps rather than push the row past 80."""
    monkeypatch.setenv("COLUMNS", "80")
    db, _ = hostile_db
    code, out, err = run(db, *args)
    assert code == 0, err
    assert "\u2026" not in out
    folded = "".join(line.strip(" │┃") for line in out.splitlines())
    assert "<script>alert(1)</s" in folded and "cript>" in folded
    if args[0] == "ledger":
        assert "kitty>Ana" in out and not any(line.startswith("33/2  kitty>Ana <script>") for line in out.splitlines())
