"""Campaigns for the players' page tests, recorded through the command line as a GM types them, with
secrets planted that no player may see: a GM-only note, a hidden roll, the bennie vote's scores
(Yarn) and the GM's secret token before its reveal (DramaSystem). Each marker is a text the GM's
pages show, so a test that finds it in no player's page could have found it."""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
from pathlib import Path

from starlette.testclient import TestClient

from yarnlog.app.bootstrap import bootstrap
from yarnlog.cli.context import close_journal
from yarnlog.cli.main import main
from yarnlog.web.server import make_app

SHEETS = Path(__file__).resolve().parents[2] / "journals" / "sheets"
#: What the GM's note says (recorded for the GM only).
GM_NOTE = "The harbourmaster is the father of Ana"
#: What the hidden roll was for (recorded for the GM only).
HIDDEN_ROLL = "the smuggler spots the tail"
#: What only the GM's recap says under the bennie vote's arithmetic ("Only the GM ever sees the low score").
VOTE_ARITHMETIC = "minus the drama tokens in hand"


def run(db: Path | str, *args: str) -> str:
    """``yarnlog --db DB ARGS`` in this process; its stdout (a failure raises, with stderr)."""
    out, err = io.StringIO(), io.StringIO()
    argv = sys.argv
    sys.argv = ["yarnlog", "--db", str(db), *args]
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else 1
    finally:
        sys.argv = argv
        close_journal()
    assert code == 0, (args, err.getvalue())
    return out.getvalue()


def invite(db: Path | str, name: str, campaign: str) -> str:
    """A new link for ``name``: its path (``/c/CAMPAIGN/SECRET/``)."""
    link = json.loads(run(db, "--campaign", campaign, "invite", name, "--json"))["link"]
    return link[link.index("/c/"):]


YARN = (
    ("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"),
    ("join", "Ana"), ("join", "Ben"),
    ("character", "create", "Iris", "--from-file", str(SHEETS / "iris.json")),
    ("character", "create", "Tomas", "--from-file", str(SHEETS / "tomas.json")),
    ("episode", "start", "--title", "Fog", "--theme", "trust", "--theme-by", "Ana"),
    ("precedence", "draw", "--purpose", "calling-order", "--order", "Ana,Ben"),
    ("call", "Ana", "--cast", "Iris,Tomas", "--mode", "dramatic", "--setting", "the docks", "--role", "opener"),
    ("note", GM_NOTE, "--visibility", "gm"),
    ("petition", "refused", "-p", "Iris", "-g", "Tomas"),
    ("call", "Maya", "--cast", "Tomas", "--mode", "procedural", "--setting", "the warehouse"),
    ("roll", "Tomas", "--trait", "Brawler", "--difficulty", "hard", "--faces", "6,4,3,1", "--secret",
     "--for", HIDDEN_ROLL),
    ("roll", "Tomas", "--trait", "Brawler", "--difficulty", "easy", "--faces", "5,4,3,1"),
    ("call", "Ben", "--cast", "Tomas,Iris", "--mode", "dramatic"),
    ("petition", "granted", "-p", "Tomas", "-g", "Iris"),
    ("theme", "choose", "debts", "--chooser", "Ben"),
    ("ballot", "--voter", "Ana", "Ben"), ("ballot", "--voter", "Ben", "Ana"),
    ("ballot", "--voter", "Maya", "Ana", "Ben"),
    ("episode", "end"),
    ("episode", "start", "--title", "Debts", "--theme", "debts"),
    ("precedence", "draw", "--purpose", "calling-order", "--order", "Ben,Ana"),
    ("call", "Maya", "--cast", "Tomas", "--mode", "procedural", "--role", "opener"),
)


def yarn_table(db: Path) -> dict[str, str]:
    """The Yarn campaign ``harbor`` in ``db``; the links of Ana, Ben and the GM (Maya), by name."""
    for args in YARN:
        run(db, *args)
    return {name: invite(db, name, "harbor") for name in ("Ana", "Ben", "Maya")}


#: What only the GM's ledger says of her secret token before its reveal.
SECRET_TOKEN = "spent in secret"


def dramasystem_table(db: Path) -> dict[str, str]:
    """The DramaSystem campaign ``storm`` in ``db``: a simple resolution open, the GM's secret token
    (yellow) set aside for her eyes only, the target drawn, two players' draws; the links of Ana, Ben
    and Maya."""
    from rulesets.dramasystem.storm_table import want_args

    setup = (
        ("init", "storm", "--title", "Storm", "--gm", "Maya", "--ruleset", "dramasystem"),
        ("join", "Ana"), ("join", "Ben"), ("join", "Cy"),
        ("character", "create", "Iris", "--player", "Ana", "--strong", "Fighting,Talking", "--weak",
         "Knowing,Making"),
        ("character", "create", "Tomas", "--player", "Ben", "--strong", "Moving,Sneaking", "--weak",
         "Talking,Enduring"),
        ("character", "create", "Vel", "--player", "Cy", "--custom", "Lockpicking", "--strong", "Making",
         "--weak", "Fighting,Moving,Talking"),
        *want_args(),
        ("episode", "start", "--title", "Fog", "--theme", "trust"),
        ("scene", "open", "--caller", "Ana", "--cast", "Iris,Tomas", "--mode", "procedural"),
        ("note", GM_NOTE, "--visibility", "gm"),
        ("oppose", "yellow"),
        ("target", "--card", "KC", "--order", "Ana,Ben,Cy"),
        ("draw", "Ana", "--token", "green", "--cards", "QH,3C"),
        ("draw", "Ben", "--token", "yellow", "--cards", "5D"),
    )
    for args in setup:
        run(db, *args)
    return {name: invite(db, name, "storm") for name in ("Ana", "Ben", "Maya")}


def client(db: Path | str) -> TestClient:
    """The players' page over the journal ``db``, in this process (use it as a context manager)."""
    return TestClient(make_app(bootstrap(str(db))))


def every_page(c: TestClient, link: str) -> dict[str, str]:
    """Every page a link opens, by path: the board and its fragment, each page the navigation names
    (and each episode's recap), and ``explain`` for every event number, found or not."""
    board = c.get(link)
    assert board.status_code == 200, board.text
    pages = {link: board.text, link + "board": c.get(link + "board").text}
    for target in re.findall(r'<li><a href="([^"]+)">', board.text):
        r = c.get(target)
        assert r.status_code == 200, (target, r.text)
        pages[target] = r.text
    head = int(re.search(r"As of event (\d+)", board.text).group(1))
    for n in range(1, head + 1):
        for target in (f"{link}explain/{n}", f"{link}recap?episode={n}", f"{link}?end_of_scene={n}"):
            r = c.get(target)
            if r.status_code == 200:
                pages[target] = r.text
    return pages
