"""``yarnlog play``: the time from Enter to the updated status line, on long campaigns (not a test).

For each size, a generated Yarn campaign (``bench/generate.py``) is imported into a fresh SQLite
journal and a console is opened on it as ``yarnlog play`` opens one (start-up and the first read
are not timed). Then, one line at a time:

- **move**: ``Console.dispatch`` of a move typed at the table (a note, or a drama token paid
  under an override), which reads what other writers added, decides on the remembered state,
  appends durably (INSERT + COMMIT), prints what was recorded (to memory) and works out the
  status line (the stored views are left to their next reader, and brought to the head when the
  console is left: ``Console.close``); then the prompt's bottom toolbar is
  rendered by prompt_toolkit, as at the next redraw;
- beside it, two baselines measured in the same run on the same database: **floor**, a raw
  ``INSERT`` + ``COMMIT`` of one sealed event through ``sqlite3`` (the disk's price of durability),
  and **toolbar**, prompt_toolkit rendering a constant toolbar of the same length.

Usage: python bench/console.py [--sizes 10K,100K] [--moves 40]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402

SIZES = {"1K": 1_000, "10K": 10_000, "100K": 100_000, "1M": 1_000_000}
COLUMNS = ("campaign_id", "sequence", "event_id", "event_type", "schema_version", "recorded_at", "recorded_by",
           "visibility", "payload", "prev_hash", "hash")


def _ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"median": statistics.median(ordered) * 1000, "p95": ordered[int(0.95 * (len(ordered) - 1))] * 1000,
            "max": ordered[-1] * 1000}


def _timed(samples: list[float], step: Callable[[], object]) -> None:
    start = time.perf_counter()
    step()
    samples.append(time.perf_counter() - start)


def _journal_of(size: int, scratch: Path) -> tuple[str, str]:
    """A fresh SQLite journal holding a generated campaign of ``size`` events: (path, campaign id)."""
    from yarnlog.app.bootstrap import bootstrap
    from yarnlog.app.interchange import parse_lines

    path = generate.campaign_file(size)
    db = str(scratch / f"console-{size}.db")
    journal = bootstrap(db, create=True)
    records = parse_lines(path.read_text(encoding="utf-8").splitlines())
    journal.import_events(records)
    journal.close()
    return db, records[0].campaign_id


def _floor(db: str, campaign: str, moves: int) -> list[float]:
    """Raw INSERT + COMMIT of one sealed note each, through sqlite3 on the same file."""
    from yarnlog.core.chain import seal
    from yarnlog.core.envelope import NewEvent
    from yarnlog.persistence.sqlite import HASH_ARGUMENTS, HASH_FUNCTION, _row_hash

    conn = sqlite3.connect(db, isolation_level=None)
    # The insert trigger recomputes each row's hash with the store's SQL function: the floor pays it too.
    conn.create_function(HASH_FUNCTION, len(HASH_ARGUMENTS), _row_hash, deterministic=True)
    sql = f"INSERT INTO events ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"
    samples: list[float] = []
    for i in range(moves):
        last, prev = conn.execute("SELECT sequence, hash FROM events WHERE campaign_id = ? ORDER BY sequence DESC "
                                  "LIMIT 1", (campaign,)).fetchone()
        new = NewEvent(str(uuid.uuid4()), "note", 1, "2026-11-21T20:00:00.000000Z", "Maya", "everyone",
                       {"text": f"floor {i}"})
        row = tuple(getattr(seal(campaign, last + 1, new, prev), c) for c in COLUMNS)

        def insert() -> None:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute(sql, row)
            conn.execute("COMMIT")

        _timed(samples, insert)
    conn.close()
    return samples


def measure(size: int, moves: int, scratch: Path) -> dict:
    from prompt_toolkit.formatted_text import to_formatted_text
    from prompt_toolkit.input import DummyInput

    from yarnlog.cli.console import Console, unanswered_files
    from yarnlog.cli.context import close_journal, open_journal
    from yarnlog.cli.options import SETTINGS
    from yarnlog.cli.prompt import history_file, make_session

    db, campaign = _journal_of(size, scratch)
    floor = _floor(db, campaign, moves)
    SETTINGS.db, SETTINGS.campaign = db, None
    sink = io.StringIO()
    console = Console(open_journal(), db, campaign, out=sink, err=sink)
    # As in play: each move is noted beside the history until it is answered (its command id kept).
    console.unanswered_file = unanswered_files(history_file(db, campaign), campaign)[0]
    # The boards a GM reads (``yarnlog tokens``...) are stored as views: the CLI brings them to the
    # head after each of its moves (costly on a long campaign); the console leaves them to their reader.
    for view in ("tokens", "bennies", "calling-order", "scene-casts"):
        console.journal.view(campaign, view)
    session = make_session(console, history=None, input=DummyInput())
    toolbar = session.bottom_toolbar
    constant = "x" * len(console.status_text)
    lines = [f"note 'a note from the table, {i}'" for i in range(moves)]
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        console.dispatch("note 'warm-up: reads what the floor wrote'")  # not timed
        move: list[float] = []
        for line in lines:
            def enter(line: str = line) -> None:
                code = console.dispatch(line)
                assert code == 0, sink.getvalue()[-500:]
                to_formatted_text(toolbar)  # the next redraw's toolbar: the status line just worked out

            _timed(move, enter)
            sink.seek(0), sink.truncate()
        still: list[float] = []
        for _ in range(moves):
            _timed(still, lambda: to_formatted_text(lambda: constant))
    status = console.status_text
    leaving: list[float] = []
    _timed(leaving, console.close)  # the views brought to the head, once, as the console is left
    close_journal()
    return {"events": size, "move": _ms(move), "floor": _ms(floor), "toolbar": _ms(still), "status": status,
            "leave_ms": leaving[0] * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10K,100K", help="comma-separated: 1K, 10K, 100K, 1M")
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory(prefix="yarnlog-console-bench-") as scratch:
        for name in args.sizes.split(","):
            results.append(measure(SIZES[name.strip()], args.moves, Path(scratch)))
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"Enter -> status line in `yarnlog play` (SQLite, {args.moves} moves; ms: median / p95 / max)")
    print(f"{'events':>8}  {'move':>25}  {'floor INSERT+COMMIT':>25}  {'toolbar (constant)':>25}  {'move/floor':>10}")
    for r in results:
        def cell(d: dict) -> str:
            return f"{d['median']:6.3f} / {d['p95']:6.3f} / {d['max']:6.3f}"

        print(f"{r['events']:>8}  {cell(r['move']):>25}  {cell(r['floor']):>25}  {cell(r['toolbar']):>25}  "
              f"{r['move']['median'] / r['floor']['median']:>9.1f}x")
    print(f"status line at the end: {results[-1]['status']}")
    print("leaving the console (the stored views brought to the head): "
          + ", ".join(f"{r['leave_ms']:.0f} ms at {r['events']:,} events" for r in results))


if __name__ == "__main__":
    main()
