"""The README's session at the table runs as written: every command succeeds and verify is ok."""

from __future__ import annotations

import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def readme_session() -> list[list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## A session at the table", 1)[1].split("```bash\n", 1)[1].split("\n```", 1)[0]
    commands = []
    for line in block.replace("\\\n", " ").splitlines():
        words = shlex.split(line, comments=True)
        if not words or words[0] == "export":
            continue
        command: list[str] = []
        for word in words + ["&&"]:
            if word == "&&":
                assert command[0] == "yarnlog", command
                commands.append(command[1:])
                command = []
            else:
                command.append(word)
    return commands


def test_the_readme_session_runs_as_written(cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    session = readme_session()
    assert len(session) > 20
    for args in session:
        code, _, err = cli(*args)
        assert code == 0, f"yarnlog {' '.join(args)} -> {code}: {err}"
    assert session[-1] == ["verify"]
