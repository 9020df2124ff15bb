"""``yarnlog play``: the console dispatches lines through the command line's own command table.

In-process: a SQLite journal set up through the CLI, a :class:`Console` on it (or a whole prompt
session driven by prompt_toolkit's pipe input), and the journal read back through the CLI.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.utils import get_cwidth

from yarnlog.cli.console import Console, Status, fit_status, plain, render_status
from yarnlog.cli.context import open_journal
from yarnlog.cli.main import EXIT_CODES
from yarnlog.cli.prompt import history_file, play
from yarnlog.core.seats import Seat

SHEETS = Path(__file__).resolve().parents[2] / "journals" / "sheets"


@pytest.fixture
def table(cli, tmp_path):
    """A Yarn campaign in a scene: Ana plays Iris, Ben plays Tomas, Maya is the GM; the CLI runner."""
    for args in (["init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"], ["join", "Ana"], ["join", "Ben"],
                 ["character", "create", "Iris", "--from-file", str(SHEETS / "iris.json")],
                 ["character", "create", "Tomas", "--from-file", str(SHEETS / "tomas.json")],
                 ["episode", "start", "--title", "Fog", "--theme", "trust", "--theme-by", "Ana"],
                 ["precedence", "draw", "--purpose", "calling-order", "--order", "Ana,Ben"],
                 ["call", "Ana", "--cast", "Iris,Tomas", "--mode", "dramatic"]):
        code, _, err = cli(*args)
        assert code == 0, (args, err)
    return cli


@pytest.fixture
def console(table, tmp_path):
    out, err = io.StringIO(), io.StringIO()
    db = str(tmp_path / "journal.db")
    answers: list[bool] = []
    made = Console(open_journal(), db, "harbor", confirm=lambda question: answers.pop(0), out=out, err=err)
    made.answers = answers  # type: ignore[attr-defined]
    return made


@pytest.fixture
def events(table, capsys):
    """The campaign's events as ``yarnlog log --json`` lists them (what the console printed is dropped)."""

    def read() -> list[dict]:
        capsys.readouterr()
        return json.loads(table("log", "--json")[1])

    return read


def completions(console: Console, text: str) -> list[str]:
    found = console.completer().get_completions(Document(text), CompleteEvent(completion_requested=True))
    return [c.text for c in found]


def test_tab_quotes_a_name_with_a_space_and_completes_after_an_opening_quote(console, table):
    """Issue 26: ``-p Ta`` completes to ``'Tam Okafor'`` (the entry then parses), and so does ``-p "Ta``."""
    assert table("join", "Tam Okafor")[0] == 0
    console.sync()
    found = console.completer().get_completions(Document("note x --by Ta"), CompleteEvent(completion_requested=True))
    [only] = list(found)
    assert (only.text, only.start_position) == ("'Tam Okafor'", -2)
    for typed, completed, start in (('note x --by "Ta', '"Tam Okafor"', -3), ("note x --by 'Tam O", "'Tam Okafor'", -6),
                                    ("note 'a b' --by 'T", "'Tam Okafor'", -2)):
        found = console.completer().get_completions(Document(typed), CompleteEvent(completion_requested=True))
        assert [(c.text, c.start_position) for c in found] == [(completed, start)]
    assert completions(console, "call ") == ["Ana", "Ben", "'Tam Okafor'", "Maya"]
    line = "note x --by " + completions(console, "note x --by Ta")[0]
    assert console.dispatch(line) == 0
    assert table("join", "Tam Vo")[0] == 0  # two names begun by Tam: the refusal names both, nothing more
    assert console.dispatch("note x --by Tam") == EXIT_CODES["invalid"]
    assert console.err.getvalue().splitlines()[-1] == \
        "error: Tam is not at this campaign's table; Tam matches Tam Okafor and Tam Vo: say which"


def test_the_completer_offers_verbs_options_names_traits_and_events(console):
    assert {"roll", "call", "note", "undo", "dice?"} <= set(completions(console, ""))
    assert completions(console, "ro") == ["roll", "rolls"]
    assert set(completions(console, "challenge ")) >= {"duck", "rush"}
    assert "--trait" in completions(console, "roll Tomas --t")
    assert completions(console, "roll To") == ["Tomas"]
    assert completions(console, "roll Tomas --trait Bra") == ["Brawler"]
    assert "Crafty" in completions(console, "roll Tomas --trait ")  # Tomas's traits, not Iris's
    assert not set(completions(console, "roll Tomas --trait ")) & {"Agile", "Sly"}
    assert completions(console, "call ") == ["Ana", "Ben", "Maya"]
    assert completions(console, "retract ")[0] == "8"  # the newest event first
    assert completions(console, "dice? roll Tomas --trait B") == ["Brawler"]


def test_a_move_is_recorded_and_the_status_line_follows(console, table, events):
    assert "caller Ana" in console.status_text and "next Maya" in console.status_text
    assert console.dispatch("petition refused -p Iris -g Tomas") == 0
    assert "Ana/Iris 1dt 0b 22/22hp" in console.status_text
    assert events()[-1]["event_type"].startswith("yarn.petition")


def test_a_typo_is_answered_with_a_suggestion_on_one_line(console):
    assert console.dispatch("rol Tomas") == EXIT_CODES["invalid"]
    assert console.err.getvalue() == "error: no verb 'rol': did you mean roll?\n"
    console.err.truncate(0), console.err.seek(0)
    assert console.dispatch("roll Tomsa --trait Brawler --faces 6,4,3,1") == EXIT_CODES["invalid"]
    assert console.err.getvalue().endswith("did you mean Tomas?\n")
    assert console.err.getvalue().count("\n") == 1


def test_usage_errors_and_help_do_not_leave_the_console(console, capsys):
    assert console.dispatch("roll Tomas --no-such-option") == EXIT_CODES["invalid"]
    assert "no such option: --no-such-option" in console.err.getvalue() and "Traceback" not in console.err.getvalue()
    assert console.dispatch("roll --help") == 0
    assert "--faces" in capsys.readouterr().out
    assert console.dispatch("note 'unbalanced") == EXIT_CODES["invalid"]
    assert console.dispatch("play") == EXIT_CODES["invalid"]  # no console inside the console


def test_a_refused_spend_records_nothing_and_an_override_records_it_with_the_reason(console, table, events):
    console.dispatch("call Maya --cast Tomas,Iris --mode dramatic")
    before = len(events())
    assert console.dispatch("challenge duck Tomas --compel --token") == EXIT_CODES["rule"]
    # One line, as on the command line: what the rule says of this move, and the book's section.
    refusal = console.err.getvalue().splitlines()[-1]
    assert refusal.startswith("Refused. Ben") and "holds 0" in refusal and refusal.endswith("(Ducking a Scene).")
    assert len(refusal) <= 80 and "rule:" not in refusal
    assert console.dispatch("challenge duck Tomas --compel --token --json") == EXIT_CODES["rule"]
    assert "rule: Yarn 0.1" in console.err.getvalue().splitlines()[-1]  # --json keeps the rule's whole text
    assert len(events()) == before
    assert console.dispatch("challenge duck Tomas --compel --token --override 'Ben pays next session'") == 0
    recorded = events()[before:]
    assert recorded[0]["event_type"] == "override.recorded"
    assert recorded[0]["payload"]["reason"] == "Ben pays next session"


def test_undo_shows_the_entry_asks_and_records_a_retraction(console, table, events):
    assert console.dispatch("undo") == EXIT_CODES["invalid"]  # nothing entered here yet
    console.dispatch("note 'the fog rolls in'")
    note = events()[-1]
    console.answers.append(False)
    assert console.dispatch("undo") == 0
    assert "not undone" in console.out.getvalue() and events()[-1] == note
    console.answers.append(True)
    assert console.dispatch("undo the wrong scene") == 0
    last = events()[-1]
    assert last["event_type"] == "retraction"
    assert last["payload"]["retracts"] == note["sequence"] and last["payload"]["reason"] == "the wrong scene"
    assert console.dispatch("undo") == EXIT_CODES["invalid"]  # the retraction is not itself undone


def test_dice_says_how_many_dice_a_roll_uses_and_records_nothing(console, table, events):
    before = len(events())
    assert console.dispatch("dice? roll Tomas --trait Brawler --difficulty hard") == 0
    assert "uses 4d6" in console.out.getvalue()
    assert len(events()) == before
    assert console.dispatch("roll Tomas --trait Brawler --difficulty hard --faces 6,4,3,1") == 0
    roll = events()[-1]
    assert roll["payload"]["dice"]["faces"] == [6, 4, 3, 1] and roll["payload"]["dice"]["source"] == "entered"


def test_another_writer_is_seen_at_the_next_entry(console, table, tmp_path, events):
    from yarnlog.app.bootstrap import bootstrap
    from yarnlog.core.timeline import AddNote

    other = bootstrap(str(tmp_path / "journal.db"))  # another journal on the same database: a second console
    try:
        console.dispatch("note 'from the console'")
        other.execute("harbor", AddNote(text="from another terminal"))  # decided on its own read
        assert "#9 " in console.status_text
        assert console.dispatch("note 'seen after it'") == 0
        assert "#11 " in console.status_text
        other.execute("harbor", AddNote(text="a race the other journal loses, then retries"))
    finally:
        other.close()
    texts = [e["payload"].get("text") for e in events()[-4:]]
    assert texts == ["from the console", "from another terminal", "seen after it",
                     "a race the other journal loses, then retries"]
    assert table("verify")[0] == 0


def test_the_status_line_is_plain_text():
    status = Status("c", 3, 1, 2, "A\x1b[31mna", None, (Seat("B\x07en", 1, 0, "T[bold]x", (3, 9)),))
    line = render_status(status)
    assert "\x1b" not in line and "\x07" not in line and "T[bold]x 1dt 0b 3/9hp" in line
    assert "\u202e" not in plain("a\u202eb") and "\n" not in plain("a\nb")


def test_the_status_line_fits_the_terminal_with_every_seat_in_view():
    seats = tuple(Seat(name, 2, 1, character, (22, 28)) for name, character in
                  (("Anastasia", "Iris Vantongeren"), ("Benedikt", "Tomas"), ("Cordelia", "Vel"),
                   ("Dmitri", "Quill"), ("渡辺", "桜"), ("Maya", None)))
    line = render_status(Status("lantern-harbor", 1204, 3, 27, "Cordelia", "Dmitri", seats))
    for width in (80, 60, 120):
        lines = fit_status(line, width).split("\n")
        assert all(get_cwidth(one) <= width for one in lines), (width, lines)
        # Broken between parts only (the head between its items at 60): nothing lost, nothing repeated.
        shown = [p for one in lines for part in one.split(" | ") for p in part.split(" · ")]
        assert shown == [p for part in line.split(" | ") for p in part.split(" · ")]
    assert fit_status(line, 80).split("\n")[0] == line.split(" | ")[0]  # the head whole on its line
    assert len(fit_status(line, 80).split("\n")) > 1 and "\n" not in fit_status(line, 400)
    assert fit_status("x" * 100, 20) == "x" * 19 + "…"  # a part wider than the terminal is cut


def test_a_whole_prompt_session_plays_lines_typed(table, tmp_path, capsys, events):
    db = str(tmp_path / "journal.db")
    with create_pipe_input() as typed:
        typed.send_text("note 'typed at the table'\nundo\ny\nnote 'kept'\nexit\n")
        play(db, None, input=typed, output=DummyOutput())
    texts = [(e["event_type"], e["payload"].get("text")) for e in events()[-3:]]
    assert texts == [("note", "typed at the table"), ("retraction", None), ("note", "kept")]
    assert history_file(db, "harbor").read_text(encoding="utf-8").count("note ") == 2
    assert history_file("memory://", "x") is None


def test_play_json_answers_every_entry_in_json(table, tmp_path, capsys):
    capsys.readouterr()
    made = Console(open_journal(), str(tmp_path / "journal.db"), "harbor", as_json=True, out=io.StringIO())
    assert made.dispatch("note 'as data'") == 0
    assert json.loads(capsys.readouterr().out)[0]["payload"]["text"] == "as data"


def test_a_board_read_after_moves_is_never_stale_and_leaving_keeps_it_at_the_head(console, table, tmp_path, capsys):
    from yarnlog.app.snapshots import view_fingerprint, view_kind

    def held(board: dict) -> dict[str, int]:
        return {p["name"]: p["drama_tokens"] for p in board["participants"]}

    def stored() -> tuple[int, dict]:
        row = open_journal().store.load_snapshot("harbor", view_kind("tokens"), view_fingerprint("yarn", "tokens"))
        assert row is not None
        return row.sequence, json.loads(row.data)

    assert held(json.loads(table("tokens", "--json")[1]))["Ana"] == 0  # the board people read is stored
    # Yarn 0.1, "Petitions": a refused petition pays the petitioner a drama token from the kitty.
    assert console.dispatch("petition refused -p Iris -g Tomas") == 0
    capsys.readouterr()
    assert console.dispatch("tokens --json") == 0
    assert held(json.loads(capsys.readouterr().out))["Ana"] == 1  # not the board stored before the move
    assert console.dispatch("note 'a move after the board was read'") == 0
    assert stored()[0] < open_journal().store.head("harbor")[0]  # moves leave the stored board behind...
    console.close()
    sequence, board = stored()
    assert sequence == open_journal().store.head("harbor")[0] and held(board)["Ana"] == 1  # ...leaving brings it on
    capsys.readouterr()  # what the console printed
    assert held(json.loads(table("tokens", "--json")[1]))["Ana"] == 1


# -- command ids: a move retried is recorded once -------------------------------------------------


def test_each_entry_is_sent_with_a_command_id_of_its_own_as_on_the_command_line(table, tmp_path, capsys, events):
    capsys.readouterr()
    made = Console(open_journal(), str(tmp_path / "journal.db"), "harbor", as_json=True, out=io.StringIO())

    def entered(line: str) -> dict:
        assert made.dispatch(line) == 0
        [event] = json.loads(capsys.readouterr().out)
        return event

    first, second = entered("note 'first'"), entered("note 'first'")  # the same words, answered: two moves
    assert first["command_id"] != second["command_id"] and not second["already_recorded"]
    store = open_journal().store
    assert [e.sequence for e in store.recorded_command("harbor", first["command_id"]).events] == [first["sequence"]]
    typed = entered("note 'typed id' --command-id table-17")
    again = entered("note 'typed id' --command-id table-17")  # sent again by hand: nothing written
    assert (typed["command_id"], typed["already_recorded"]) == ("table-17", False)
    assert (again["command_id"], again["already_recorded"], again["sequence"]) == ("table-17", True, typed["sequence"])
    assert [e["payload"]["text"] for e in events()[-3:]] == ["first", "first", "typed id"]


def test_a_move_whose_answer_was_lost_is_recorded_once_when_typed_again(console, events, monkeypatch):
    """The database committed the move, but its answer never reached the console (a connection lost
    on the commit's acknowledgement): the same line typed again is the same command."""
    from sqlalchemy.exc import OperationalError

    store = console.journal.store
    appended = store.append

    def committed_then_lost(*args, **kwargs):
        appended(*args, **kwargs)
        raise OperationalError("COMMIT", {}, Exception("server closed the connection unexpectedly"))

    before = len(events())
    monkeypatch.setattr(store, "append", committed_then_lost)
    assert console.dispatch("note 'lost answer'") == EXIT_CODES["store"]
    monkeypatch.setattr(store, "append", appended)
    assert console.out.getvalue().splitlines()[-2:] == [
        "Not confirmed. Type the same line again: it is sent as the same command",
        f"({console.unanswered.command_id}), so it is recorded once."]
    lost = console.unanswered.command_id
    assert console.dispatch("note 'lost answer'") == 0
    assert [e["payload"]["text"] for e in events()[before:]] == ["lost answer"]
    assert console.unanswered is None
    assert console.dispatch("note 'lost answer'") == 0  # answered now: typed again, it is a new move
    assert [e["payload"]["text"] for e in events()[before:]] == ["lost answer", "lost answer"]
    assert open_journal().store.recorded_command("harbor", lost).events[0].sequence == before + 1


def test_a_refused_entry_is_answered_and_not_kept_for_a_retry(console):
    console.dispatch("call Maya --cast Tomas,Iris --mode dramatic")
    assert console.dispatch("challenge duck Tomas --compel --token") == EXIT_CODES["rule"]
    assert console.unanswered is None and "Not confirmed" not in console.out.getvalue()


def test_an_entry_left_unanswered_by_a_console_that_stopped_is_taken_over(table, tmp_path, capsys, events,
                                                                          monkeypatch):
    """A console killed between the commit of an entry and its answer leaves a note beside its
    history; the next console of the campaign takes it over, and the line typed again is the same
    command."""
    from yarnlog.cli.console import unanswered_files

    class Killed(BaseException):
        """The console's process ends here (as on SIGKILL: nothing after it runs in that console)."""

    db = str(tmp_path / "journal.db")
    note = history_file(db, "harbor").parent / f".yarnlog-play-harbor.{pid_that_ended()}.unanswered"
    crashed = Console(open_journal(), db, "harbor", out=io.StringIO(), err=io.StringIO(), unanswered_file=note)
    store = crashed.journal.store
    appended = store.append

    def committed_then_killed(*args, **kwargs):
        appended(*args, **kwargs)
        raise Killed

    monkeypatch.setattr(store, "append", committed_then_killed)
    before = len(events())
    with pytest.raises(Killed):
        crashed.dispatch("note 'before the crash'")
    monkeypatch.setattr(store, "append", appended)
    assert len(events()) == before + 1 and note.exists()
    assert unanswered_files(history_file(db, "harbor"), "harbor")[1] == [note]
    sent = json.loads(note.read_text(encoding="utf-8"))["command_id"]

    with create_pipe_input() as typed:
        typed.send_text("note 'before the crash'\nexit\n")
        play(db, None, input=typed, output=DummyOutput())
    shown, err = capsys.readouterr()
    assert err == ""
    assert "The last entry of a console that stopped was never answered:\n  note 'before the crash'\n" in shown
    assert f"Already recorded by command {sent}: nothing written." in " ".join(shown.split())
    assert [e["payload"]["text"] for e in events()[before:]] == ["before the crash"]
    assert not note.exists() and not list(note.parent.glob("*.unanswered"))


def pid_that_ended() -> int:
    """The id of a process that has ended (as a killed console's)."""
    import subprocess
    import sys

    done = subprocess.Popen([sys.executable, "-c", "pass"])
    done.wait()
    return done.pid


# -- issue 21 items 4 and 5: a long line, and a script on standard input -----------------------------


def test_a_line_typed_past_the_limit_is_refused_and_a_paste_past_it_never_reaches_the_buffer(table, tmp_path,
                                                                                              capsys, events,
                                                                                              monkeypatch):
    from yarnlog.cli import script

    db = str(tmp_path / "journal.db")
    before = len(events())
    with create_pipe_input() as typed:
        # A bracketed paste of 50,000 characters (within a pipe's buffer; tmux pastes a megabyte): refused
        # whole (laid out, 100 KB raised MemoryError).
        typed.send_text("\x1b[200~note " + "p" * 50_000 + "\x1b[201~\r")
        typed.send_text("note kept\rexit\r")
        play(db, None, input=typed, output=DummyOutput())
    _, err = capsys.readouterr()
    assert err.splitlines() == [
        f"error: an entry is at most {script.MAX_ENTRY:,} characters, not 50,005 characters: nothing sent"]
    # Typed past the limit (no bracketed paste), here a small one (prompt_toolkit takes a key in about 0.5 ms):
    # cut back at the limit as typed, refused when entered.
    monkeypatch.setattr(script, "MAX_ENTRY", 40)
    with create_pipe_input() as typed:
        typed.send_text("note " + "q" * 60 + "\rnote typed\rexit\r")
        play(db, None, input=typed, output=DummyOutput())
    _, err = capsys.readouterr()
    assert [e["payload"]["text"] for e in events()[before:]] == ["kept", "typed"]
    assert err.splitlines() == ["error: an entry is at most 40 characters, not 41 characters or more: nothing sent",
                                "error: that line went past the limit: nothing sent"]


def yarnlog_play(db: str, *args: str, stdin) -> subprocess.CompletedProcess:
    """``yarnlog --db DB play ARGS`` in its own process, ``stdin`` its standard input (a file, bytes)."""
    command = [sys.executable, "-c", "from yarnlog.cli.main import main; main()", "--db", db, "play", *args]
    if shutil.which("prlimit"):  # a regression that holds a megabyte line whole fails, not the machine
        command = ["prlimit", f"--as={2 << 30}", *command]
    env = {**os.environ, "HOME": str(Path(db).parent)}
    if isinstance(stdin, bytes):
        return subprocess.run(command, input=stdin, capture_output=True, env=env, timeout=120)
    return subprocess.run(command, stdin=stdin, capture_output=True, env=env, timeout=120)


@pytest.mark.slow
def test_a_script_file_on_standard_input_runs_as_a_pipe_does_and_stops_at_the_first_refusal(table, tmp_path,
                                                                                           events):
    db = str(tmp_path / "journal.db")
    script = tmp_path / "script.txt"
    script.write_text("note 'first'\nnote \"second\"\nchallenge duck Tomas --compel --token\nnote 'never'\n",
                      encoding="utf-8")
    before = len(events())
    with script.open("rb") as stdin:
        done = yarnlog_play(db, stdin=stdin)
    assert done.returncode == EXIT_CODES["rule"], done.stderr
    assert [e["payload"]["text"] for e in events()[before:]] == ["first", "second"]
    said = done.stderr.decode().splitlines()
    assert said[0] == "Refused. Ben must pay 1 drama token but holds 0 (Ducking a Scene)."
    assert said[1:] == ["2 entries recorded from 3 lines; stopped at line 3 "
                        "(--keep-going runs the lines after a refusal)."]
    assert b"Traceback" not in done.stdout + done.stderr

    done = yarnlog_play(db, "--keep-going", stdin=script.read_bytes())  # the same lines through a pipe
    assert done.returncode == EXIT_CODES["rule"]
    assert [e["payload"]["text"] for e in events()[before + 2:]] == ["first", "second", "never"]
    assert done.stderr.decode().splitlines()[-1] == "3 entries recorded from 4 lines."


@pytest.mark.slow
def test_a_megabyte_line_through_a_pipe_is_refused_in_one_line_and_the_next_runs(table, tmp_path, events):
    from yarnlog.cli.script import MAX_ENTRY

    db = str(tmp_path / "journal.db")
    before = len(events())
    lines = b"note " + b"q" * (1 << 20) + b"\nnote " + b"q" * 50_000 + b"\nnote fine\nexit\nnote never\n"
    done = yarnlog_play(db, "--keep-going", stdin=lines)
    assert done.returncode == EXIT_CODES["invalid"], done.stderr
    assert done.stderr.decode().splitlines() == [
        f"error: an entry is at most {MAX_ENTRY:,} characters, not {(1 << 20) + 6:,} bytes: nothing sent",
        f"error: an entry is at most {MAX_ENTRY:,} characters, not 50,005 characters: nothing sent",
        "1 entry recorded from 4 lines."]
    assert [e["payload"]["text"] for e in events()[before:]] == ["fine"]
    done = yarnlog_play(db, stdin=lines)  # without --keep-going: the first line stops it
    assert done.returncode == EXIT_CODES["invalid"] and len(events()) == before + 1
