"""Every ``yarnlog`` example in the README runs as written, and every verb its prose names exists.

``test_readme.py`` plays the session at the table; here the other blocks run too: the sample
journal's replay and audit (in a scratch folder holding a copy of the export) and the recaps, after
the session. Commands other than ``yarnlog`` (pip, python, pytest) are the reader's to run.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

from test_readme import readme_session

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def yarnlog_commands(block: str) -> list[list[str]]:
    """The ``yarnlog`` commands of a bash block, each as its words after ``yarnlog``."""
    commands = []
    for line in block.replace("\\\n", " ").splitlines():
        words = shlex.split(line, comments=True)
        command: list[str] = []
        for word in [*words, "&&"]:
            if word != "&&":
                command.append(word)
                continue
            if command and command[0] == "yarnlog":
                commands.append(command[1:])
            command = []
    return commands


def blocks(after: str) -> list[list[str]]:
    """The ``yarnlog`` commands of the first bash block after the text ``after``."""
    return yarnlog_commands(README.split(after, 1)[1].split("```bash\n", 1)[1].split("\n```", 1)[0])


def run_all(cli, commands: list[list[str]]) -> None:
    for args in commands:
        code, _, err = cli(*args)
        assert code == 0, f"yarnlog {' '.join(args)} -> {code}: {err}"


def test_every_bash_block_with_yarnlog_is_run_by_a_test():
    ran = {"Replay and audit the sample campaign", "## A session at the table", "### Recaps",
           "## A DramaSystem session", "## Tamper evidence", "## A Will & Descriptors session",
           "## A Dramatis Personae session", "## The players' page",
           "## A polyhedral Yarn session"}
    with_yarnlog = [part for part in README.split("```bash\n")[1:] if yarnlog_commands(part.split("\n```")[0])]
    assert len(with_yarnlog) == len(ran), "a new README block with yarnlog commands needs running here"


def test_the_sample_journal_block_runs_as_written(cli, monkeypatch, tmp_path):
    (tmp_path / "journals").mkdir()
    shutil.copy(ROOT / "journals" / "lantern-harbor.jsonl", tmp_path / "journals")
    monkeypatch.chdir(tmp_path)
    commands = blocks("Replay and audit the sample campaign")
    assert [c[2] for c in commands] == ["import", "verify", "tokens", "ledger"]
    run_all(cli, commands)


def test_the_tamper_evidence_block_runs_as_written_on_the_sample(cli, monkeypatch, tmp_path):
    """The digest the README quotes is the committed sample's: verify --digest passes as written."""
    (tmp_path / "journals").mkdir()
    shutil.copy(ROOT / "journals" / "lantern-harbor.jsonl", tmp_path / "journals")
    monkeypatch.chdir(tmp_path)
    run_all(cli, blocks("Replay and audit the sample campaign")[:1])  # the import
    commands = blocks("## Tamper evidence")
    assert [c[2] for c in commands] == ["digest", "verify", "keygen", "digest"]
    run_all(cli, commands)
    code, out, _ = cli(*commands[0], "--json")
    assert code == 0 and f"verify --digest {json.loads(out)['digest']}\n" in README


def test_the_recaps_run_as_written_after_the_session(cli, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)  # the session reads its sheets from journals/sheets
    run_all(cli, readme_session())
    monkeypatch.chdir(tmp_path)  # the recaps write their files here
    commands = blocks("### Recaps")
    assert len(commands) == 4
    run_all(cli, commands)
    assert (tmp_path / "recap.md").read_text(encoding="utf-8") and (tmp_path / "ana.html").exists()


def test_the_dramasystem_session_runs_as_written(cli):
    commands = blocks("## A DramaSystem session")
    assert [c[0] for c in commands].count("scene") == 7
    assert [c[0] for c in commands][-7:] == ["procedural-tokens", "ledger", "resolutions", "explain", "tokens", "sheet",
                                             "recap"]
    run_all(cli, commands)
    explained = next(c for c in commands if c[0] == "explain")[1]
    code, out, _ = cli("explain", explained, "--json")  # the README explains Ana's draw
    assert code == 0 and json.loads(out)["event"]["payload"]["player"] == "Ana"
    code, out, _ = cli("verify")
    assert code == 0 and out.startswith("ok: storm")
    # What the block's comments say, worked out from the book: Iris's petition refused, Ben holds
    # no token, so "the petitioner gains the token [...] from the kitty" (DS21). K♣ against the GM's yellow needs a
    # club; Ana's 3♣ holds one (SRD 505). Red makes ♠♥♦ up, so K♠ is an up face card (804-808, 905).
    # Q♦ beats 10♠ (603). Each pile lost the tokens spent: Maya yellow and red, Ana green and
    # yellow, Ben red and yellow, Cy green (423, 425).
    code, out, _ = cli("log", "--json")
    payloads = {}
    for e in json.loads(out):
        payloads.setdefault(e["event_type"], []).append(e["payload"])
    assert [[(t["source"], t["destination"]) for t in p["transfers"]]
            for p in payloads["dramasystem.petition.resolved"]] == [[("kitty", "Ana")]]
    assert [p["success"] for p in payloads["dramasystem.procedure.resolved"]] == [True]
    assert [p["outcome"] for p in payloads["dramasystem.advanced.clinched"]] == ["an especially impressive success"]
    assert [p["winner"] for p in payloads["dramasystem.contest.ended"]] == ["Iris"]
    # The vote: Ana 1 + 1 + 1 = 3 less her token = 2, Ben 1 + 2 + 2 = 5, Cy 2 + 2 + 3 = 7: "The two
    # players with the lowest scores gain bennies" (DS74): Ana and Ben.
    [tallied] = payloads["dramasystem.bennie.vote_tallied"]
    assert {line["player"]: line["score"] for line in tallied["tallies"]} == {"Ana": 2, "Ben": 5, "Cy": 7}
    assert sorted(line["player"] for line in tallied["tallies"] if line["gains_bennie"]) == ["Ana", "Ben"]
    code, out, _ = cli("procedural-tokens", "--json")
    assert {p["name"]: p["unspent"] for p in json.loads(out)["participants"]} == {
        "Maya": ["green"], "Ana": ["red"], "Ben": ["green"], "Cy": ["yellow", "red"]}


def test_every_verb_the_readme_names_exists(cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert cli("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya")[0] == 0
    prose = README.split("Other moves:", 1)[1].split("yarnlog COMMAND --help", 1)[0]
    named = re.findall(r"`([a-z][a-z -]*(?:\|[a-z-]+)*)`", prose)
    verbs = []
    for item in named:
        verb, _, subs = item.partition(" ")
        verbs += [[verb, *([sub] if sub else [])] for sub in (subs.split("|") if subs else [""])]
    assert ["challenge", "plot-jump"] in verbs and ["cast"] in verbs
    for words in verbs:
        code, _, err = cli(*words, "--help")
        assert code == 0, f"the README names 'yarnlog {' '.join(words)}', which does not exist: {err}"


def test_the_players_page_block_runs_as_written(cli, monkeypatch):
    """The invitations run after the session at the table; ``serve`` is only asked for its help here
    (it serves until stopped: tests/web serve it in a process of their own)."""
    monkeypatch.chdir(ROOT)
    run_all(cli, readme_session())
    commands = blocks("## The players' page")
    assert [c[0] for c in commands] == ["invite", "invite", "invite", "serve"]
    run_all(cli, commands[:3])
    run_all(cli, [[*commands[3], "--help"]])
