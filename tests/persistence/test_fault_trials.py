"""Fault trials: writers killed with SIGKILL at random points, on SQLite and PostgreSQL.

Each trial starts a writer process, lets it work, and kills it (``kill -9``: no clean-up runs) at
a random moment. Afterwards the journal must verify (chain, payloads, rules), hold a prefix of
what was sent (nothing reordered, nothing half-written) and every event the writer had confirmed,
and take the next write. An append writer confirms each note once its append has returned; an
import is all or nothing, confirmed by its exit.

Bounded for CI: a few trials of each kind per backend (about a minute in all on an idle
two-core machine). ``YARNLOG_FAULT_TRIALS=N`` runs N of each for a long run; ``YARNLOG_FAULT_SEED``
replays one run's random kill points (each failure names its seed).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
import uuid

import pytest

from yarnlog.app.journal import Journal
from yarnlog.core.chain import GENESIS, seal
from yarnlog.core.envelope import NewEvent, canonical, to_line
from yarnlog.core.timeline import AddNote
from yarnlog.persistence.factory import open_store

pytestmark = pytest.mark.slow  # writer processes killed at random points

TRIALS = int(os.environ.get("YARNLOG_FAULT_TRIALS", "3"))
SEED = int(os.environ.get("YARNLOG_FAULT_SEED", str(random.SystemRandom().randrange(2**32))))

#: The append writer: notes "note N", N from argv[3], one append each; prints N once it has returned.
APPENDER = """
import sys
from yarnlog.app.journal import Journal
from yarnlog.core.timeline import AddNote
from yarnlog.persistence.factory import open_store
url, cid, start = sys.argv[1], sys.argv[2], int(sys.argv[3])
journal = Journal(open_store(url, create=False))
journal.state(cid)
print("ready", flush=True)
for n in range(start, start + 100_000):
    journal.execute(cid, AddNote(text=f"note {n}"))
    print(n, flush=True)
"""


def _notes(journal: Journal, cid: str) -> list[str]:
    return [json.loads(r.payload)["text"] for r in journal.stored_events(cid) if r.event_type == "note"]


def _kill_after(proc: subprocess.Popen, seconds: float) -> None:
    time.sleep(seconds)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(30)


def _yarnlog(*args: str, db: str, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "YARNLOG_DB": db}
    # Files made here carry no trailer (the export's last line): imported as lines made by a program.
    return subprocess.Popen([sys.executable, "-m", "yarnlog", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kwargs)


def test_appends_killed_at_random_points_lose_nothing_confirmed(db_url):
    rng = random.Random(SEED)
    journal = Journal(open_store(db_url))
    cid = "harbor"
    journal.create_campaign(cid, title="Lantern Harbor", gm="Maya")
    sent = 0
    try:
        for trial in range(TRIALS):
            proc = subprocess.Popen([sys.executable, "-c", APPENDER, db_url, cid, str(sent)],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
            _kill_after(proc, rng.uniform(0.0, 0.6))
            confirmed = [int(line) for line in proc.stdout.read().split()]
            notes = _notes(journal, cid)
            where = f"seed {SEED}, trial {trial}"
            # A prefix of what was sent, each confirmed note in it, at most the one in flight beyond them.
            assert notes == [f"note {n}" for n in range(len(notes))], where
            assert confirmed == list(range(sent, sent + len(confirmed))), where
            assert sent + len(confirmed) <= len(notes) <= sent + len(confirmed) + 1, where
            report = journal.verify(cid)
            assert report.ok, (where, report.faults[:1])
            sent = len(notes)
        journal.execute(cid, AddNote(text=f"note {sent}"))  # the journal takes the next write
        assert _notes(journal, cid) == [f"note {n}" for n in range(sent + 1)]
    finally:
        journal.close()


def _export(cid: str, notes: int, after: list[dict] | None = None) -> list[dict]:
    """Export lines of a campaign: created and ``notes`` notes, or ``notes`` more notes after ``after``."""
    lines = list(after or [])
    prev = lines[-1]["hash"] if lines else GENESIS
    events = [] if lines else [NewEvent(str(uuid.uuid4()), "campaign.created", 1, "2026-11-21T20:00:00.000000Z",
                                        "Maya", "everyone", {"campaign_id": cid, "title": "Lantern Harbor",
                                                             "ruleset": "yarn", "gm": "Maya", "options": {}})]
    events += [NewEvent(str(uuid.uuid4()), "note", 1, "2026-11-21T20:00:01.000000Z", "Maya", "everyone",
                        {"text": f"imported {len(lines) + i}"}) for i in range(notes)]
    for new in events:
        record = seal(cid, len(lines) + 1, new, prev)
        prev = record.hash
        lines.append(to_line(record))
    return lines


def test_imports_killed_at_random_points_are_all_or_nothing(db_url, tmp_path):
    rng = random.Random(SEED)
    cid = "harbor"
    base = _export(cid, 50)
    (tmp_path / "base.jsonl").write_text("".join(canonical(line) + "\n" for line in base))
    done = _yarnlog("import", "--without-trailer", str(tmp_path / "base.jsonl"), db=db_url)
    assert done.wait(120) == 0, done.stderr.read()
    stored = len(base)
    journal = Journal(open_store(db_url, create=False))
    try:
        for trial in range(TRIALS):
            longer = _export(cid, 400, after=_lines(journal, cid))
            path = tmp_path / f"trial-{trial}.jsonl"
            path.write_text("".join(canonical(line) + "\n" for line in longer))
            proc = _yarnlog("import", "--without-trailer", str(path), db=db_url)
            _kill_after(proc, rng.uniform(0.3, 2.5))
            finished = proc.returncode == 0
            now = journal.store.last_sequence(cid)
            where = f"seed {SEED}, trial {trial}"
            assert now in (stored, len(longer)), (where, now)  # all or nothing
            if finished:  # confirmed: all of it is there
                assert now == len(longer), where
            assert [r.hash for r in journal.stored_events(cid)] == [line["hash"] for line in longer[:now]], where
            report = journal.verify(cid)
            assert report.ok, (where, report.faults[:1])
            stored = now
        again = _yarnlog("import", "--without-trailer", str(path), db=db_url)  # the journal takes the next write
        assert again.wait(120) == 0, again.stderr.read()
        assert journal.store.last_sequence(cid) == len(longer)
    finally:
        journal.close()


def _lines(journal: Journal, cid: str) -> list[dict]:
    return [to_line(r) for r in journal.stored_events(cid)]

