"""``yarnlog play`` on a Dramatis Personae campaign in a real terminal (tmux): completion of the
verbs, names and traits, a dice question, a roll with the faces as rolled, a refusal, the dice
after each move and the status line."""

from __future__ import annotations

import json
import os

from test_console_tmux import Terminal, pytestmark, yarnlog_command  # noqa: F401 - the skip without tmux


def test_a_scene_in_yarnlog_play(cli, tmp_path):
    from yarnlog.cli.context import close_journal

    for args in (("init", "brocken", "--title", "Walpurgis Night", "--gm", "Maya", "--ruleset", "dramatis-personae"),
                 ("join", "Ana"), ("character", "create", "Faust", "--player", "Ana", "--level", "2",
                                   "--strength", "Summoning,Magical ability", "--weakness", "Courage"),
                 ("episode", "start", "--title", "Up the Brocken"), ("adventure", "start", "Walpurgis Night"),
                 ("scene", "open", "--caller", "Maya", "--title", "The summoning")):
        assert cli(*args)[0] == 0, args
    close_journal()
    db = str(tmp_path / "journal.db")
    env = {"TERM": "xterm-256color", "HOME": str(tmp_path), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    terminal = Terminal([*yarnlog_command(), "--db", db, "play"], env)
    try:
        screen = terminal.wait_for("brocken #6")  # the status line
        assert "episode 1 · scene 1 · caller Maya" in screen
        terminal.type("challenge Fau", enter=False)
        terminal.key("Tab")
        terminal.wait_for("brocken> challenge Faust")
        terminal.type(" --precise Summ", enter=False)
        terminal.key("Tab")
        terminal.wait_for("brocken> challenge Faust --precise Summoning")
        terminal.key("C-u")
        terminal.type("dice? challenge Faust --precise Summoning --related Courage --pool 1")
        terminal.wait_for("the roll uses 5d6")
        terminal.type("challenge Faust -d Heroic --precise Summoning --related Courage --pool 1 --faces 6,5,5,2,1")
        terminal.wait_for("keeps 6-5-5 = 16 against 16+ in a")
        terminal.wait_for("challenge: partial success (odds of success 23.4%).")  # the digest: .2342
        terminal.wait_for("Dice: Faust pool 3/4.")
        terminal.wait_for("Ana/Faust L2 pool 3/4")  # the status line's seat: level and the dice held
        terminal.type("advance Faust")
        terminal.wait_for("Refused. Level 3 costs 30 saved bonus dice; 0 are saved")
    finally:
        terminal.close()
    events = json.loads(cli("--db", db, "log", "--json")[1])
    assert [e["event_type"] for e in events][-1] == "dramatis-personae.challenge.rolled"
