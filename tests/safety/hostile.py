"""The hostile campaign: a Yarn campaign recorded through the command line (in-process, as a GM
types it) with a string of the XSS corpus in every text field a user can type: the campaign's
title, the participants' and characters' names, every field of the sheets, relationships and
wants, the supporting cast and locations, precedence notes, the episode's title and theme, scene
titles, settings, situations and time breaks, notes (for everyone and for the GM only), rolls'
reasons, scene summaries, a scene's move of place, a caller's revised narration, the next episode's
theme, and the reasons of overrides, corrections, retractions and departures.

Names are free text too (only a few words are reserved), but hold no control character and are at
most 80 characters long; those that go into a list on the command line (``--cast A,B``) take the
corpus strings without a comma, colon or equals sign (``NAMES``).
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from collections.abc import Iterator
from itertools import cycle
from pathlib import Path

import pytest
from corpus import CORPUS, NAMES

from yarnlog.cli.context import close_journal
from yarnlog.cli.main import main

CAMPAIGN = "hostile"
GM = f"Maya {NAMES[4]}"
ANA = f"Ana {NAMES[0]}"
BEN = f"Ben {NAMES[5]}"
CY = f"Cy {NAMES[3]}"
IRIS = f"Iris {NAMES[2]}"
TOMAS = f"Tomas {NAMES[2]} {NAMES[4]}"
OLD_TOM = f"Old Tom {NAMES[1]}"
PIER = f"Pier {NAMES[3]}"
QUAY = f"Quay {NAMES[1]}"
TOUGH = f"Tough {NAMES[0]}"
PLAYERS = (ANA, BEN, CY)
PCS = (IRIS, TOMAS)


def run(db: Path, *args: str) -> tuple[int, str, str]:
    """``yarnlog --db DB ARGS`` in this process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    argv = sys.argv
    sys.argv = ["yarnlog", "--db", str(db), *args]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
                code = 0
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else 1
    finally:
        sys.argv = argv
    return code, out.getvalue(), err.getvalue()


class Recorder:
    """Runs the commands, each of which must succeed; ``text()`` hands out the corpus in turn."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self._texts: Iterator[str] = cycle(CORPUS)
        self.typed: list[str] = []

    def text(self) -> str:
        value = next(self._texts)
        self.typed.append(value)
        return value

    def __call__(self, *args: str) -> list[dict]:
        code, out, err = run(self.db, *args, "--json")
        assert code == 0, f"yarnlog {' '.join(args)!r} failed ({code}): {err}"
        return json.loads(out)


def _sheet(rec: Recorder, name: str, player: str, relationships: dict[str, str]) -> dict:
    return {
        "name": name, "player": player, "role": rec.text(), "desire": rec.text(),
        "poles": [rec.text(), rec.text()],
        "central": f"{TOUGH}:standard" if name == IRIS else "Brawler:standard",
        "sides": ["Agile:standard", "Sly:standard"],
        "superior": TOUGH if name == IRIS else "Brawler",
        "flaw": {"name": "Reckless", "signs": [rec.text()]},
        "signs": {TOUGH if name == IRIS else "Brawler": rec.text(), "Agile": rec.text(), "Sly": rec.text()},
        "descriptions": {"Agile": rec.text()},
        "relationships": relationships,
        "hit_point_basis": [{"trait": TOUGH if name == IRIS else "Brawler", "faces": [6, 5, 4, 3, 1, 1, 1, 1]}],
        "hit_point_descriptor": rec.text(), "finances": rec.text(), "equipment": [rec.text(), rec.text()],
        "story": rec.text(), "gm_approved": True,
    }


def record_hostile_campaign(db: Path, workdir: Path) -> list[str]:
    """Record the hostile campaign in the SQLite file ``db``; the free texts typed, in order."""
    rec = Recorder(db)
    try:
        rec("init", CAMPAIGN, "--title", rec.text(), "--gm", GM)
        for player in PLAYERS:
            rec("join", player)
        rec("precedence", "draw", "--purpose", "creation", "--order", ",".join(PLAYERS), "--note", rec.text())
        sheets = (_sheet(rec, IRIS, ANA, {}), _sheet(rec, TOMAS, BEN, {IRIS: rec.text()}))
        for sheet in sheets:
            path = workdir / f"{sheet['player'][:3]}.json"
            path.write_text(json.dumps(sheet), encoding="utf-8")
            rec("character", "create", "--from-file", str(path))
        rec("character", "relate", IRIS, TOMAS, "--nature", rec.text())
        rec("character", "want", IRIS, "--from", TOMAS, "--want", rec.text(), "--why-not", rec.text())
        rec("character", "want", TOMAS, "--from", IRIS, "--want", rec.text(), "--why-not", rec.text())
        rec("episode", "start", "--title", rec.text(), "--theme", rec.text(), "--theme-by", GM)
        rec("precedence", "draw", "--purpose", "calling-order", "--order", ",".join(PLAYERS))
        rec("call", GM, "--cast", f"{IRIS},{TOMAS}", "--mode", "procedural", "--title", rec.text(),
            "--setting", rec.text(), "--situation", rec.text(), "--time-break", rec.text())
        rec("supporting", "add", OLD_TOM, "--description", rec.text())
        rec("supporting", "detail", OLD_TOM, rec.text())
        rec("location", "add", PIER, "--description", rec.text())
        rec("location", "detail", PIER, rec.text())
        rec("shift", QUAY, "--describe", rec.text(), "--time", rec.text(), "--by", BEN)
        rec("challenge", "location", ANA, QUAY, "--ground", "tone", "--not-allowed")
        rec("note", rec.text())
        rec("note", rec.text(), "--visibility", "gm")
        rec("roll", IRIS, "--trait", TOUGH, "--difficulty", "hard", "--faces", "5,4,3,2,1", "--xp", "1",
            "--why", rec.text(), "--for", rec.text())
        rec("roll", TOMAS, "--trait", "Brawler", "--against", "9", "--faces", "6,4,3,2", "--for", rec.text())
        mistaken = rec("note", rec.text())[-1]["sequence"]
        rec("retract", str(mistaken), "--reason", rec.text(), "--yes")
        corrected = rec("note", rec.text())[-1]["sequence"]
        rec("correct", str(corrected), "--set", f"text={rec.text()}", "--reason", rec.text(), "--yes")
        rec("call", ANA, "--cast", f"{IRIS},{TOMAS}", "--mode", "dramatic", "--title", rec.text(),
            "--setting", rec.text(), "--situation", rec.text())
        rec("supporting", "promote", OLD_TOM, "--pc", IRIS, "--need", rec.text())
        rec("challenge", "narration", BEN, "--for-challenger", f"{BEN},{CY}", "--revised", rec.text())
        rec("petition", "refused", "-p", IRIS, "-g", TOMAS)
        rec("note", rec.text())
        rec("call", GM, "--cast", f"{TOMAS},{OLD_TOM}", "--mode", "dramatic", "--title", rec.text(),
            "--override", rec.text())
        rec("petition", "granted", "-p", TOMAS, "-g", OLD_TOM)
        rec("theme", "choose", rec.text(), "--chooser", BEN)
        rec("leave", CY, "--reason", rec.text())
        rec("episode", "end", "--override", rec.text())
        rec("xp", "award", "1")
    finally:
        close_journal()
    return rec.typed


@pytest.fixture(scope="session", name="hostile_db")
def hostile_db_fixture(tmp_path_factory) -> tuple[Path, list[str]]:
    """A SQLite journal holding the hostile campaign, recorded once per test session: (its path, the
    free texts typed into it). Test modules import this fixture (a conftest.py here would shadow the
    one in tests/, which other tests import from)."""
    workdir = tmp_path_factory.mktemp("hostile")
    db = workdir / "hostile.db"
    return db, record_hostile_campaign(db, workdir)


if __name__ == "__main__":  # record it by hand: python tests/safety/hostile.py /tmp/hostile.db
    import tempfile

    target = Path(sys.argv[1])
    typed = record_hostile_campaign(target, Path(tempfile.mkdtemp()))
    print(f"{len(typed)} texts typed into {target}")
