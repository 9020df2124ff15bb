"""Issue 26, "Confirmations in words": ``correct``, ``retract`` and the console's ``undo`` ask with the
event's own sentence (the ruleset's narration, the words the log and the recap use) and the change in
words ("Ben's roll: faces 6,4,3,1 → 2,1,1,1"), never raw fields or a JSON diff, every line within 80
columns; ``--json`` answers carry the same words. On Yarn and on DramaSystem (the Copper Reef sample,
with one more scene played)."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from yarnlog.cli.console import Console
from yarnlog.cli.context import open_journal

ROOT = Path(__file__).resolve().parents[2]


class Terminal(io.StringIO):
    """A stdin someone types at: the answers given."""

    def isatty(self) -> bool:
        return True


def fits(text: str) -> None:
    assert text.strip(), "nothing was shown"
    for line in text.splitlines():
        assert len(line) <= 80, line
    assert "{" not in text and not re.search(r"\w=\S", text), text  # no JSON, no field=value
    assert "yarn.roll" not in text and "dramasystem." not in text, text


@pytest.fixture
def yarn(harbor_scene):
    """The harbor table whose last event (10) is Ben's roll for Tomas: Brawler, hard, 6,4,3,1."""
    assert harbor_scene("roll", "Tomas", "--trait", "Brawler", "--difficulty", "hard", "--faces", "6,4,3,1")[0] == 0
    return harbor_scene


@pytest.fixture(scope="module")
def copper_reef(tmp_path_factory) -> Path:
    """The DramaSystem sample imported, then a fourth episode's first scene: Mara Quell petitions Otto
    Brand for his silence and is refused (the last event)."""
    db = tmp_path_factory.mktemp("copper") / "journal.db"
    for args in (("import", str(ROOT / "journals" / "copper-reef.jsonl")), ("episode", "start", "--title", "Court"),
                 ("precedence", "draw", "--purpose", "calling-order", "--order", "Ana,Ben,Cy,Dee,Eli"),
                 ("call", "Ana", "--mode", "dramatic", "--cast", "Mara Quell,Otto Brand", "--setting", "the quay"),
                 ("petition", "refused", "-p", "Mara Quell", "-g", "Otto Brand", "--sought", "his silence")):
        subprocess.run([sys.executable, "-m", "yarnlog", "--db", str(db), *args], check=True, capture_output=True)
    return db


@pytest.fixture
def dramasystem(cli, copper_reef, tmp_path):
    shutil.copy(copper_reef, tmp_path / "journal.db")
    last = json.loads(cli("log", "--json")[1])[-1]
    assert last["event_type"] == "dramasystem.petition.resolved"
    return cli, last["sequence"]


def test_correct_asks_with_the_rolls_sentence_and_the_change_in_words(yarn, monkeypatch):
    monkeypatch.setattr(sys, "stdin", Terminal("n\n"))
    code, out, err = yarn("correct", "10", "--faces", "2,1,1,1", "--reason", "misread the dice")
    assert code == 1 and out == "" and "nothing recorded" in err
    asked = err.split("Record this correction?")[0]
    fits(asked)
    assert asked.splitlines()[0] == "Event 10, episode 1, scene 2, recorded by Maya:"
    was, now = asked.split("Corrected, it reads:")
    assert "Tomas rolled 4 dice for Brawler" in was and "6 + 4 + 3 + 1 = 14" in was
    assert "Ben's roll: faces 6,4,3,1 \u2192 2,1,1,1." in was
    assert "2 + 1 + 1 + 1 = 5" in now and "14" not in now


def test_correct_json_carries_the_same_words_and_keeps_stdout_json(yarn, monkeypatch):
    monkeypatch.setattr(sys, "stdin", Terminal("y\n"))
    code, out, err = yarn("correct", "10", "--faces", "2,1,1,1", "--reason", "misread the dice", "--json")
    assert code == 0, err
    fits(err.split("Record this correction?")[0])
    [row] = json.loads(out)
    assert row["payload"]["corrects"] == 10
    words = row["amended"]
    assert words["sequence"] == 10 and words["change"] == "Ben's roll: faces 6,4,3,1 \u2192 2,1,1,1"
    assert "6 + 4 + 3 + 1 = 14" in words["said"] and "2 + 1 + 1 + 1 = 5" in words["now"]
    # Corrected again: the change starts from the event as it reads now.
    code, out, err = yarn("correct", "10", "--faces", "3,1,1,1", "--reason", "again", "--yes", "--json")
    assert json.loads(out)[0]["amended"]["change"] == "Ben's roll: faces 2,1,1,1 \u2192 3,1,1,1"


def test_correct_with_yes_says_the_change_after_the_correction(yarn):
    code, out, err = yarn("correct", "10", "--faces", "2,1,1,1", "--reason", "misread", "--yes")
    assert code == 0, err
    fits(out)
    assert out.splitlines()[:2] == ["Event 10 corrected (approved by Maya): misread.",
                                    "Ben's roll: faces 6,4,3,1 \u2192 2,1,1,1."]


def test_retract_asks_with_the_events_sentence_on_yarn(yarn, monkeypatch):
    monkeypatch.setattr(sys, "stdin", Terminal("y\n"))
    code, out, err = yarn("retract", "10", "--reason", "never happened", "--json")
    assert code == 0, err
    asked = err.split("Record this retraction?")[0]
    fits(asked)
    assert "Tomas rolled 4 dice for Brawler" in asked and "Retracted, every projection leaves it out" in asked
    [row] = json.loads(out)
    assert row["amended"]["sequence"] == 10 and "Tomas rolled 4 dice" in row["amended"]["said"]


def test_correct_and_retract_in_words_on_dramasystem(dramasystem, monkeypatch):
    cli, last = dramasystem
    monkeypatch.setattr(sys, "stdin", Terminal("n\n"))
    code, _, err = cli("correct", str(last), "--set", "sought=his help", "--reason", "misheard")
    assert code == 1
    asked = err.split("Record this correction?")[0]
    fits(asked)
    assert "Mara Quell petitioned Otto Brand for his silence: refused." in " ".join(asked.split())
    assert "Mara Quell's petition: sought \u201chis silence\u201d \u2192 \u201chis help\u201d." in asked
    assert "Mara Quell petitioned Otto Brand for his help: refused." in " ".join(asked.split("reads:")[1].split())
    monkeypatch.setattr(sys, "stdin", Terminal("y\n"))
    code, out, err = cli("correct", str(last), "--set", "sought=his help", "--reason", "misheard", "--json")
    assert code == 0, err
    words = json.loads(out)[0]["amended"]
    assert words["change"] == "Mara Quell's petition: sought \u201chis silence\u201d \u2192 \u201chis help\u201d"
    assert "for his help" in words["now"]
    monkeypatch.setattr(sys, "stdin", Terminal("n\n"))
    code, _, err = cli("retract", str(last), "--reason", "never asked")
    assert code == 1
    asked = err.split("Record this retraction?")[0]
    fits(asked)
    assert "Mara Quell petitioned Otto Brand for his help: refused." in " ".join(asked.split())


def console_on(cli, tmp_path, answers: list[bool], as_json: bool = False) -> Console:
    out, err = io.StringIO(), io.StringIO()
    campaign = json.loads(cli("campaigns", "--json")[1])[0]["campaign_id"]
    return Console(open_journal(), str(tmp_path / "journal.db"), campaign, confirm=lambda question: answers.pop(0),
                   out=out, err=err, as_json=as_json)


def test_undo_asks_with_the_entrys_sentence_on_yarn(yarn, tmp_path, capsys):
    answers = [False, True]
    console = console_on(yarn, tmp_path, answers)
    assert console.dispatch("roll Tomas --trait Brawler --faces 5,4,3,2") == 0
    assert console.dispatch("undo") == 0
    shown = console.out.getvalue()
    asked = shown.split("not undone")[0]
    fits(asked)
    assert "Tomas rolled 4 dice" in asked and "Retracted, every projection leaves it out" in asked
    capsys.readouterr()
    assert console.dispatch("undo misread --json") == 0
    [row] = json.loads(capsys.readouterr().out)
    assert row["event_type"] == "retraction" and "Tomas rolled 4 dice" in row["amended"]["said"]
    assert "Tomas rolled 4 dice" in console.err.getvalue()  # asked on stderr: stdout is the JSON answer


def test_undo_asks_with_the_entrys_sentence_on_dramasystem(dramasystem, tmp_path, capsys):
    cli, last = dramasystem
    console = console_on(cli, tmp_path, [True], as_json=True)
    assert console.dispatch("ruling tokens --from kitty --to Dee --amount 1 --reason 'a fine speech'") == 0
    capsys.readouterr()
    assert console.dispatch("undo") == 0
    fits(console.err.getvalue())
    assert "The GM rules: a fine speech. The kitty gives Dee 1 drama token (Tokens)." in console.err.getvalue()
    [row] = json.loads(capsys.readouterr().out)
    assert row["payload"]["retracts"] == last + 1
