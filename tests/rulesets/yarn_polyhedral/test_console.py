"""``yarnlog play`` on a polyhedral Yarn campaign in a real terminal (tmux): the status line shows
each character's fortune, effort and severity and the narrator's trouble (``Words.seats``), and
the completer offers the characters' names."""

from __future__ import annotations

import os

import pytest
from test_console_tmux import Terminal, pytestmark, yarnlog_command  # noqa: F401  (skipped without tmux)

from yarnlog.cli.context import close_journal


@pytest.fixture
def campaign(table, tmp_path) -> str:
    """The table of conftest: Iris (level 4, Ana's) and the Orc (Ben's), the first session begun."""
    assert table("scene", "open", "--caller", "Ana", "--title", "The gate", "--cast", "Iris,Orc")[0] == 0
    close_journal()
    return str(tmp_path / "journal.db")


def test_the_status_line_shows_fortune_effort_and_the_narrators_trouble(campaign, tmp_path):
    env = {"TERM": "xterm-256color", "HOME": str(tmp_path), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    terminal = Terminal([*yarnlog_command(), "--db", campaign, "play"], env)
    try:
        # "you get your level in fortune each session" (P7, line 48):
        # Iris is level 4, the Orc level 1; effort is the health rank (P19); the narrator holds none.
        screen = terminal.wait_for("Maya 0 trouble")
        assert "Ana/Iris 4 fortune 6/6 effort | Ben/Orc 1 fortune 6/6 effort | Maya 0 trouble" in screen

        terminal.type("feat Ir", enter=False)  # tab completes the character's name
        terminal.key("Tab")
        terminal.wait_for("poly> feat Iris")
        # A fortune point spent to keep a third die gives the narrator one trouble (P26, line 754).
        terminal.type(" --primary strength --secondary dexterity --skill sword --fortune-keep 1 --challenge 9 "
                      "--faces 5,4,2")
        screen = terminal.wait_for("Maya 1 trouble")
        assert "Ana/Iris 3 fortune 6/6 effort" in screen
    finally:
        terminal.close()
