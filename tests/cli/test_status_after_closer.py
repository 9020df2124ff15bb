"""Issue 26: once the episode's closer is named, no scene is called after it (Yarn 0.1, "Scenes"), so
the console's status line and a move's follow-up say no one is next instead of naming the next in
the calling order."""

from __future__ import annotations

import io
from pathlib import Path

from yarnlog.cli.console import Console, render_status, status_of
from yarnlog.cli.context import open_journal

SHEETS = Path(__file__).resolve().parents[2] / "journals" / "sheets"


def test_after_the_closer_no_one_is_next(cli, tmp_path):
    for args in (("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"), ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Iris", "--from-file", str(SHEETS / "iris.json")),
                 ("character", "create", "Tomas", "--from-file", str(SHEETS / "tomas.json")),
                 ("episode", "start", "--title", "Fog", "--theme", "trust", "--theme-by", "Ana"),
                 ("precedence", "draw", "--purpose", "calling-order", "--order", "Ana,Ben"),
                 ("call", "Ana", "--cast", "Iris,Tomas", "--mode", "dramatic")):
        assert cli(*args)[0] == 0, args
    console = Console(open_journal(), str(tmp_path / "journal.db"), "harbor", out=io.StringIO(), err=io.StringIO())
    assert "caller Ana · next Maya" in console.status_text  # the calling order: Ana, then Maya
    code, out, _ = cli("call", "Maya", "--cast", "Tomas,Iris", "--mode", "dramatic")
    assert code == 0 and "Next to call: Ben." in out
    console.sync()
    assert status_of("harbor", console._state).next_caller == "Ben"
    code, out, err = cli("scene-role", "closer")
    assert code == 0, err
    assert "No one calls next: scene 2 is the closer." in out and "Next to call" not in out
    console.sync()
    status = status_of("harbor", console._state)
    assert status.next_caller is None and status.no_next == "none: closer"
    assert "caller Maya · next none: closer" in render_status(status)
    assert "next Ben" not in console.refresh()
