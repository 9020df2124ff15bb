"""Sixteen writers at one table: every move is recorded once, none is turned away as a conflict.

Each writer is a process of its own with its own journal, as sixteen ``yarnlog roll`` commands
would be: it decides on what it last read, appends, and when another writer got there first it
decides again on a fresh read after a random wait (:func:`yarnlog.app.commands.backoff`). A
conflict that escapes the journal is what the command line reports as exit 5: there must be none.
"""

from __future__ import annotations

import multiprocessing as mp
import random
import time

import pytest

from yarnlog.app.journal import Journal
from yarnlog.app.rolling import execute_rolling
from yarnlog.persistence.factory import open_store
from yarnlog.persistence.protocol import ConcurrencyConflict
from yarnlog.rulesets.yarn.parts.procedure.roll_records import Hands, InertForce, MakeRoll

from .test_procedure import start

pytestmark = pytest.mark.slow  # sixteen writer processes

WRITERS = 16
MOVES_EACH = 40


def _roller(url: str, cid: str, writer: int, go, lost, failed) -> None:
    """One player's process: MOVES_EACH rolls of Iris's Tough against an inert force, dice rolled by the tool."""
    journal = Journal(open_store(url, create=False))
    rng = random.Random(writer)
    go.wait()
    for move in range(MOVES_EACH):
        roll = MakeRoll(Hands("Iris", "Tough"), against=InertForce(2), purpose=f"writer {writer} move {move}")
        try:
            execute_rolling(journal, cid, roll, rng=rng)
        except ConcurrencyConflict:
            with lost.get_lock():
                lost.value += 1
        except Exception:
            with failed.get_lock():
                failed.value += 1
    journal.close()


def test_sixteen_writers_of_forty_moves_each_lose_none(db_url):
    setup = Journal(open_store(db_url))
    cid = start(setup)
    before = setup.store.last_sequence(cid)
    setup.close()
    ctx = mp.get_context("spawn")
    go = ctx.Barrier(WRITERS)
    lost, failed = ctx.Value("i", 0), ctx.Value("i", 0)
    writers = [ctx.Process(target=_roller, args=(db_url, cid, w, go, lost, failed)) for w in range(WRITERS)]
    began = time.monotonic()
    for process in writers:
        process.start()
    for process in writers:
        process.join(600)
    took = time.monotonic() - began
    assert [p.exitcode for p in writers] == [0] * WRITERS
    assert (lost.value, failed.value) == (0, 0), f"{lost.value} moves lost to conflicts, {failed.value} failed"

    reader = Journal(open_store(db_url, create=False))
    try:
        records = reader.stored_events(cid)
        rolls = [r for r in records[before:] if r.event_type == "yarn.roll.made"]
        assert len(records) - before == len(rolls) == WRITERS * MOVES_EACH
        said = sorted(json_text(r.payload) for r in rolls)
        assert said == sorted(f"writer {w} move {m}" for w in range(WRITERS) for m in range(MOVES_EACH))
        assert reader.verify(cid).ok
    finally:
        reader.close()
    print(f"{WRITERS} writers x {MOVES_EACH} moves on {db_url.split(':')[0]}: {took:.1f} s")


def json_text(payload: str) -> str:
    import json

    return json.loads(payload)["purpose"]
