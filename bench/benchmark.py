"""The journal's figures beside their floors, on realistic campaigns of 1K to 1M events.

Each figure is printed beside a floor measured in the same run on the same machine, and the
ratio. A floor is what the database driver and the standard library do alone, with none of
yarnlog's code in the way:

- import (``read_export`` + ``import_records``, what ``yarnlog import`` does) against the same
  rows inserted by the driver alone (``executemany`` + ``COMMIT`` into the same table, indexes and
  triggers); and, when the ``eventsourcing`` package is importable (``pip install -e '.[bench]'``),
  that library's SQLite insert of the same payloads, as the rate to beat (target: 2x);
- replay (``Journal.state`` on a fresh journal that neither reads nor keeps snapshots: the whole
  log folded) against fetching the rows + ``json.loads``;
- verify (``Journal.verify``) against fetching + checking the hash chain in a few plain lines;
- export (``Journal.export_lines`` to a file) against fetching + writing the same lines;
- a durable single append, median and p99 over ``--appends`` appends, through
  ``Journal.execute`` of a note (start-up excluded) and through ``EventStore.append``, against a
  raw ``INSERT`` + ``COMMIT`` of a sealed row (the three taken in turn, so each meets the same disk);
- the board (``yarnlog tokens --json``, served by ``Journal.view`` from the stored view): its
  first read (a fresh process, no snapshot or view stored yet: the log replayed, the state
  snapshot and the view kept), a later read (a fresh process, the view stored: the whole
  process, wall and CPU) and the read after start-up (``Journal.view(cid, "tokens")`` timed
  inside a fresh process once the journal is opened: interpreter and imports excluded,
  connecting included); the later read and the read after start-up are medians of ``--repeat``
  processes. Beside them the floors, each a fresh process (medians too): one that fetches the
  payloads and sums the token transfers (the driver and the standard library alone),
  ``python -c "import sqlmodel"`` (the stack's start-up alone) and a bare ``python -c pass``.
  The curves over the sizes are printed at the end;
- the state from the state snapshot (``Journal.state`` on a fresh journal, from the snapshot
  the first read kept at the head, and from one kept ``--tail`` events before it) against the
  full replay above, and the size of the stored snapshot and view;
- the peak memory of a full replay (RSS growth of the replaying process) against the floor's;
  and of a streaming replay (``replay_stored``) and of ``verify`` (which streams) against rows
  fetched a thousand at a time and parsed, none kept (flat in the history's length);
- a streaming replay (``replay_stored``, keeping only the state) against the replay floor, and the
  state's memory per event (its RSS growth over the events); import's and verify's events a CPU second;
- issue 27's one-shot commands, each a fresh process, in ``--repeat`` rounds that each open with a fresh
  ``python -c "import sqlmodel"`` (the floor): the writes ``call`` (a dramatic scene), ``roll`` (in it),
  ``petition`` (granted) and ``note``, and the reads ``tokens``, ``sheet``, ``ledger --participant`` and
  ``recap --episode N``; and what a note, a ``tokens`` read and ``import sqlmodel`` import
  (``python -X importtime``: the self time of the imports, by package).

Every measurement runs in a subprocess killed after ``--limit`` seconds ("did not finish in N
s"). CPU time is the client process's (PostgreSQL's server time is not in it). Campaigns come
from ``bench/generate.py`` (cached under the temp dir); databases are made for the run and
removed after (PostgreSQL: databases ``yarnlog_bench_*`` on the server ``--pg`` names).

Usage: python bench/benchmark.py [--sizes 1K,10K] [--full] [--pg postgresql://...] [--limit 120]
       [--board-only] [--repeat 5] [--skip replay,state_snapshot_tail]

``--board-only`` loads the rows (the floor's import) and measures only the full replay, the
board and the snapshots; ``--skip`` leaves out named operations (the two that replay the whole
log, for a quicker run at 1M).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import resource
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402

COLUMNS = ("campaign_id", "sequence", "event_id", "event_type", "schema_version", "recorded_at", "recorded_by",
           "visibility", "payload", "prev_hash", "hash")
HASHED = tuple(c for c in COLUMNS if c not in ("payload", "prev_hash", "hash"))
SIZES = {"1K": 1_000, "10K": 10_000, "100K": 100_000, "1M": 1_000_000}
GENESIS = "0" * 64


# -- the worker: one measurement in its own process ------------------------------------------


def _rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _connect(url: str) -> Any:
    """A raw DB-API connection (autocommit: the caller says BEGIN/COMMIT) to the database ``url`` names."""
    if url.startswith("postgresql"):
        import psycopg

        return psycopg.connect(url, autocommit=True)
    from yarnlog.persistence.sqlite import HASH_ARGUMENTS, HASH_FUNCTION, _row_hash

    conn = sqlite3.connect(url, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")  # as the store opens it (synchronous stays the default, FULL)
    # The insert trigger recomputes each row's hash with the function every writer registers (the
    # store does, on each connection): without it no row goes in, the driver's alone included.
    conn.create_function(HASH_FUNCTION, len(HASH_ARGUMENTS), _row_hash, deterministic=True)
    return conn


def _placeholders(url: str) -> str:
    return ", ".join(["%s" if url.startswith("postgresql") else "?"] * len(COLUMNS))


def _fetch(conn: Any, campaign: str, url: str) -> list[tuple]:
    mark = "%s" if url.startswith("postgresql") else "?"
    cur = conn.execute(f"SELECT {', '.join(COLUMNS)} FROM events WHERE campaign_id = {mark} ORDER BY sequence",
                       (campaign,))
    return cur.fetchall()


def _rows_of(path: Path) -> Iterator[tuple]:
    for line in path.open(encoding="utf-8"):
        data = json.loads(line)
        data["payload"] = json.dumps(data["payload"], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        yield tuple(data[c] for c in COLUMNS)


def _store_url(url: str) -> str:
    return url if url.startswith("postgresql") else f"sqlite:///{url}"


def _schema(url: str) -> None:
    from yarnlog.persistence.factory import open_store

    open_store(_store_url(url), create=True).close()


def _timed(fn: Callable[[], Any]) -> tuple[dict[str, float], Any]:
    rss = _rss_mb()
    cpu, wall = time.process_time(), time.perf_counter()
    out = fn()
    figures = {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
               "peak_mb": _peak_mb(), "growth_mb": max(0.0, _peak_mb() - rss)}
    return figures, out


def op_import(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    from yarnlog.app.interchange import import_records, read_export
    from yarnlog.persistence.factory import open_store

    store = open_store(_store_url(url), create=True)

    def run() -> tuple[int, int]:
        # As ``yarnlog import`` does: the lines read once, their parsed payloads handed to the check.
        export = read_export(path.read_text(encoding="utf-8").splitlines(), require_trailer=False)
        return import_records(store, export.records, line_numbers=export.line_numbers, payloads=export.payloads)

    figures, (_, written) = _timed(run)
    assert written == args.events, written
    return figures


def op_floor_import(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    _schema(url)  # the same table, indexes and triggers as the store's
    rows = list(_rows_of(path))
    conn = _connect(url)
    sql = f"INSERT INTO events ({', '.join(COLUMNS)}) VALUES ({_placeholders(url)})"

    def run() -> None:
        conn.execute("BEGIN")
        conn.cursor().executemany(sql, rows)
        conn.execute("COMMIT")

    figures, _ = _timed(run)
    return figures


def op_eventsourcing(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    from eventsourcing.persistence import StoredEvent
    from eventsourcing.sqlite import SQLiteAggregateRecorder, SQLiteDatastore

    recorder = SQLiteAggregateRecorder(SQLiteDatastore(url))
    recorder.create_table()
    originator = uuid.uuid4()
    events = [StoredEvent(originator, row[1], row[3], row[8].encode("utf-8")) for row in _rows_of(path)]

    def run() -> None:
        for start in range(0, len(events), args.es_batch):
            recorder.insert_events(events[start:start + args.es_batch])

    figures, _ = _timed(run)
    return figures


def op_replay(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    """A full replay: ``Journal.state`` on a fresh journal that neither reads nor keeps snapshots."""
    from yarnlog.app.journal import Journal
    from yarnlog.persistence.factory import open_store

    journal = Journal(open_store(_store_url(url), create=False), snapshot_every=0)
    figures, state = _timed(lambda: journal.state(campaign))
    assert state.sequence == args.events
    return figures


def op_stream_replay(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    """A replay that keeps only the state (``replay_stored``: the store read in batches, nothing kept)."""
    from yarnlog.app.replaying import replay_stored
    from yarnlog.persistence.factory import open_store

    store = open_store(_store_url(url), create=False)
    figures, state = _timed(lambda: replay_stored(store, campaign))
    assert state.sequence == args.events
    return figures


def op_floor_stream(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    """The rows fetched a thousand at a time and parsed, none kept: the floor of a streaming read's memory."""
    conn = _connect(url)
    mark = "%s" if url.startswith("postgresql") else "?"
    sql = f"SELECT {', '.join(COLUMNS)} FROM events WHERE campaign_id = {mark} ORDER BY sequence"

    def run() -> int:
        count = 0
        if url.startswith("postgresql"):
            with conn.transaction(), conn.cursor(name="floor_stream") as cursor:
                cursor.execute(sql, (campaign,))
                while rows := cursor.fetchmany(1000):
                    count += sum(1 for row in rows if json.loads(row[8]) is not None)
        else:
            cursor = conn.execute(sql, (campaign,))
            while rows := cursor.fetchmany(1000):
                count += sum(1 for row in rows if json.loads(row[8]) is not None)
        return count

    figures, count = _timed(run)
    assert count == args.events
    return figures


def op_floor_replay(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    conn = _connect(url)
    figures, payloads = _timed(lambda: [json.loads(row[8]) for row in _fetch(conn, campaign, url)])
    assert len(payloads) == args.events
    return figures


def op_verify(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    from yarnlog.app.journal import Journal
    from yarnlog.persistence.factory import open_store

    journal = Journal(open_store(_store_url(url), create=False))
    figures, report = _timed(lambda: journal.verify(campaign))
    assert report.ok and report.events == args.events, report.faults[:3]
    return figures


def op_floor_verify(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    """The hash chain checked in plain Python: fetch, parse, re-serialize canonically, SHA-256, compare."""
    conn = _connect(url)

    def run() -> int:
        prev, bad = GENESIS, 0
        for row in _fetch(conn, campaign, url):
            body = dict(zip(HASHED, row))
            payload = json.loads(row[8])
            bad += json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False) != row[8]
            body["payload"], body["prev_hash"] = payload, row[9]
            digest = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
                                    .encode("utf-8")).hexdigest()
            bad += row[9] != prev or digest != row[10]
            prev = row[10]
        return bad

    figures, bad = _timed(run)
    assert bad == 0, bad
    return figures


def op_export(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    from yarnlog.app.journal import Journal
    from yarnlog.persistence.factory import open_store

    journal = Journal(open_store(_store_url(url), create=False))
    out = Path(args.scratch) / f"export-{os.getpid()}.jsonl"

    def run() -> None:
        with out.open("w", encoding="utf-8") as fh:
            fh.writelines(journal.export_lines(campaign))

    figures, _ = _timed(run)
    out.unlink()
    return figures


def op_floor_export(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    """The same canonical lines, built from the stored text without parsing the payloads."""
    conn = _connect(url)
    out = Path(args.scratch) / f"floor-export-{os.getpid()}.jsonl"
    order = sorted(range(len(COLUMNS)), key=lambda i: COLUMNS[i])
    dumps = json.JSONEncoder(ensure_ascii=False).encode

    def run() -> None:
        with out.open("w", encoding="utf-8") as fh:
            for row in _fetch(conn, campaign, url):
                fh.write("{" + ",".join(f'"{COLUMNS[i]}":{row[i] if i == 8 else dumps(row[i])}' for i in order)
                         + "}\n")

    figures, _ = _timed(run)
    out.unlink()
    return figures


def op_appends(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    """Single durable appends, the three kinds taken in turn so that each meets the same disk.

    Each round: a raw INSERT + COMMIT of a row sealed beforehand (the floor), the same INSERT alone
    in autocommit (one statement, its own transaction: the floor in one exchange with a server), an
    ``EventStore.append`` of a note, and a ``Journal.execute`` of a note on a journal that has
    already folded in everything before it (start-up and catching up are not timed).
    """
    from yarnlog.app.journal import Journal
    from yarnlog.core.chain import seal
    from yarnlog.core.envelope import NewEvent
    from yarnlog.core.timeline import AddNote
    from yarnlog.persistence.factory import open_store

    store = open_store(_store_url(url), create=False)
    journal = Journal(store)
    journal.state(campaign)
    conn = _connect(url)
    mark = "%s" if url.startswith("postgresql") else "?"
    sql = f"INSERT INTO events ({', '.join(COLUMNS)}) VALUES ({_placeholders(url)})"
    begin = "BEGIN" if url.startswith("postgresql") else "BEGIN IMMEDIATE"
    times: dict[str, list[float]] = {"floor": [], "floor_one": [], "store": [], "journal": []}
    cpu: dict[str, float] = {"floor": 0.0, "floor_one": 0.0, "store": 0.0, "journal": 0.0}

    def note(i: int) -> NewEvent:
        return NewEvent(str(uuid.uuid4()), "note", 1, "2026-11-21T20:00:00.000000Z", "Maya", "everyone",
                        {"text": f"a note from the table, {i}"})

    def clocked(kind: str, step: Callable[[], Any]) -> None:
        c, w = time.process_time(), time.perf_counter()
        step()
        times[kind].append(time.perf_counter() - w)
        cpu[kind] += time.process_time() - c

    for i in range(args.appends):
        last, prev = conn.execute(f"SELECT sequence, hash FROM events WHERE campaign_id = {mark} "
                                  "ORDER BY sequence DESC LIMIT 1", (campaign,)).fetchone()
        sealed = seal(campaign, last + 1, note(i), prev)  # once: each note has its own id
        row = tuple(getattr(sealed, c) for c in COLUMNS)

        def raw() -> None:
            conn.execute(begin)
            conn.execute(sql, row)
            conn.execute("COMMIT")

        clocked("floor", raw)
        last += 1
        # The other floor: the same INSERT alone in autocommit, its own transaction (one exchange with a server).
        sealed = seal(campaign, last + 1, note(i), sealed.hash)
        one = tuple(getattr(sealed, c) for c in COLUMNS)
        clocked("floor_one", lambda: conn.execute(sql, one))
        last += 1
        store.read(campaign, after=last - 1)  # the store sees the raw insert (untimed, as the journal catches up)
        clocked("store", lambda: store.append(campaign, last, [note(i)]))
        journal.state(campaign)  # fold in what the other two wrote (not timed)
        clocked("journal", lambda: journal.execute(campaign, AddNote(text=f"a note from the table, {i}")))

    def figures(kind: str) -> dict:
        ordered = sorted(times[kind])
        return {"wall": statistics.median(ordered), "p99": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
                "cpu": cpu[kind] / len(ordered)}

    return {kind: figures(kind) for kind in times}


BOARD_FLOOR = """
import json, sys, time
url, campaign = sys.argv[1], sys.argv[2]
if url.startswith("postgresql"):
    import psycopg
    rows = psycopg.connect(url).execute("SELECT payload FROM events WHERE campaign_id = %s ORDER BY sequence",
                                        (campaign,)).fetchall()
else:
    import sqlite3
    rows = sqlite3.connect(url).execute("SELECT payload FROM events WHERE campaign_id = ? ORDER BY sequence",
                                        (campaign,)).fetchall()
balances = {}
for (payload,) in rows:
    for t in json.loads(payload).get("transfers", ()):
        for who, sign in ((t.get("source"), -1), (t.get("destination"), 1)):
            key = (who, t.get("currency"))
            balances[key] = balances.get(key, 0) + sign * t.get("amount", 0)
print(json.dumps({f"{k[0]}/{k[1]}": v for k, v in balances.items()}))
"""


def _child(argv: list[str], output: bool = True, timeout: float | None = None) -> dict:
    """Wall and CPU time of a fresh process, from spawn to exit; one still running after ``timeout``
    seconds is killed, and its figures say so (``stopped``: the CPU it had used by then)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:  # run() killed and reaped it: its CPU is in RUSAGE_CHILDREN
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return {"wall": time.perf_counter() - start, "stopped": True, "peak_mb": after.ru_maxrss / 1024,
                "cpu": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime), "growth_mb": 0.0}
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise RuntimeError(f"{argv[:3]} failed: {done.stderr.strip()[-500:]}")
    if output:
        json.loads(done.stdout)
    return {"wall": wall, "cpu": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
            "peak_mb": after.ru_maxrss / 1024, "growth_mb": 0.0}


def _tokens_command(url: str, campaign: str) -> list[str]:
    yarnlog = Path(sys.executable).with_name("yarnlog")
    command = [str(yarnlog)] if yarnlog.exists() else [sys.executable, "-m", "yarnlog"]
    return [*command, "--db", _store_url(url) if url.startswith("postgresql") else url,
            "-c", campaign, "tokens", "--json"]


def op_clear_snapshots(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    """Untimed set-up: drop the campaign's snapshots and views (caches), so the next read is a first read."""
    conn = _connect(url)
    mark = "%s" if url.startswith("postgresql") else "?"
    conn.execute(f"DELETE FROM snapshots WHERE campaign_id = {mark}", (campaign,))
    return {}


def op_board(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    """A fresh ``yarnlog tokens --json`` process, whole (start-up, reading or computing the view, exit)."""
    return _child(_tokens_command(url, campaign))


def op_floor_board(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    return _child([sys.executable, "-c", BOARD_FLOOR, url, campaign])


def op_floor_sqlmodel(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    """The start-up of the stack alone: a fresh ``python -c "import sqlmodel"``."""
    return _child([sys.executable, "-c", "import sqlmodel"], output=False)


def op_floor_python(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    """A fresh bare interpreter: ``python -c pass``."""
    return _child([sys.executable, "-c", "pass"], output=False)


def op_board_view(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    """``Journal.view(cid, "tokens")`` timed inside a fresh process, after the journal is opened
    (the interpreter's and the imports' start-up excluded; connecting to the database included)."""
    from yarnlog.app.bootstrap import bootstrap

    journal = bootstrap(_store_url(url) if url.startswith("postgresql") else url)
    figures, data = _timed(lambda: journal.view(campaign, "tokens"))
    assert isinstance(data, (dict, list)), type(data)
    # The ruleset's modules (its packages' empty ``__init__`` are found, not the rules, to digest their source).
    figures["ruleset_imported"] = any(name.startswith("yarnlog.rulesets.") and name.count(".") > 2
                                      for name in sys.modules)
    return figures


#: The floor of a one-shot write: a bare interpreter that connects, inserts one sealed row and commits
#: (the driver and the standard library alone; on SQLite it registers the hash function the insert
#: trigger calls, as every writer does, in the standard library's words).
WRITE_FLOOR = """
import hashlib, json, sys
url, row = sys.argv[1], json.loads(sys.argv[2])
columns = list(row)
if url.startswith("postgresql"):
    import psycopg
    conn = psycopg.connect(url, autocommit=True)
    mark = "%s"
else:
    import sqlite3
    conn = sqlite3.connect(url, isolation_level=None, timeout=30)
    mark = "?"
    def row_hash(*values):
        *header, payload, prev_hash = values
        fields = dict(zip(sys.argv[3].split(","), header), prev_hash=prev_hash)
        canonical = lambda v: json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        body = ",".join(canonical(k) + ":" + (payload if k == "payload" else canonical(fields[k]))
                        for k in sorted([*fields, "payload"]))
        return hashlib.sha256(("{" + body + "}").encode("utf-8")).hexdigest()
    conn.create_function(sys.argv[4], int(sys.argv[5]), row_hash, deterministic=True)
conn.execute("BEGIN")
conn.execute(f"INSERT INTO events ({', '.join(columns)}) VALUES ({', '.join([mark] * len(columns))})",
             [row[c] for c in columns])
conn.execute("COMMIT")
"""


def op_oneshot_write(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    """A fresh ``yarnlog note`` process, whole: start-up, the state (from the state snapshot and the
    events after it), deciding, the append, the stored views brought to the head, the answer."""
    yarnlog = Path(sys.executable).with_name("yarnlog")
    command = [str(yarnlog)] if yarnlog.exists() else [sys.executable, "-m", "yarnlog"]
    return _child([*command, "--db", _store_url(url) if url.startswith("postgresql") else url, "-c", campaign,
                   "note", f"a one-shot note {uuid.uuid4()}"], output=False)


def op_floor_oneshot_write(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    """A bare ``python -c`` that inserts one row sealed here (untimed) and commits: :data:`WRITE_FLOOR`."""
    from yarnlog.core.chain import seal
    from yarnlog.core.envelope import NewEvent
    from yarnlog.persistence.sqlite import HASH_ARGUMENTS, HASH_FUNCTION

    conn = _connect(url)
    mark = "%s" if url.startswith("postgresql") else "?"
    last, prev = conn.execute(f"SELECT sequence, hash FROM events WHERE campaign_id = {mark} "
                              "ORDER BY sequence DESC LIMIT 1", (campaign,)).fetchone()
    conn.close()
    sealed = seal(campaign, last + 1, NewEvent(str(uuid.uuid4()), "note", 1, "2026-11-21T20:00:00.000000Z", "Maya",
                                               "everyone", {"text": "a one-shot note"}), prev)
    row = json.dumps({c: getattr(sealed, c) for c in COLUMNS})
    hashed = ",".join(HASH_ARGUMENTS[:-2])
    return _child([sys.executable, "-c", WRITE_FLOOR, url, row, hashed, HASH_FUNCTION, str(len(HASH_ARGUMENTS))],
                  output=False)


#: Each player's character in the generated campaign (its session zero: ``journals/lantern-harbor.jsonl``).
CHARACTERS = {"Ana": "Iris Vane", "Ben": "Jonah Crane", "Cy": "Kit Marlowe", "Dee": "Rosa Quill",
              "Eli": "Tobias Wren", "Fay": "Nell Harrow"}
#: The one-shot commands of issue 27 a round times, each a fresh process, beside ``import sqlmodel``:
#: the writes (a scene called, a roll in it, its petition, a note) and the reads.
ONESHOTS = {"note": "one-shot write: note", "call": "one-shot write: call", "roll": "one-shot write: roll",
            "petition": "one-shot write: petition", "tokens": "one-shot read: tokens",
            "sheet": "one-shot read: sheet", "ledger": "one-shot read: ledger --participant",
            "recap": "one-shot read: recap --episode N"}


def _yarnlog(url: str, campaign: str) -> list[str]:
    yarnlog = Path(sys.executable).with_name("yarnlog")
    command = [str(yarnlog)] if yarnlog.exists() else [sys.executable, "-m", "yarnlog"]
    return [*command, "--db", _store_url(url) if url.startswith("postgresql") else url, "-c", campaign]


def op_oneshots(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    """``--repeat`` rounds of the commands of :data:`ONESHOTS`, each a fresh process timed whole (spawn
    to exit), each round opening with the floor, a fresh ``python -c "import sqlmodel"``. A round plays
    a scene as a table does: the next caller in the calling order calls a dramatic scene with their
    character and another, the character rolls (faces entered), petitions the other, granted; a note.
    Then the reads: the board, the character's sheet, the caller's ledger, the last whole episode's
    recap. Set-up, untimed: the calling order read once (the next caller, the episode in play). A command
    still running after ``--command-limit`` seconds is stopped and not run again (its figure: the CPU
    it had used, marked ``stopped``)."""
    command = _yarnlog(url, campaign)
    order = json.loads(subprocess.run([*command, "calling-order", "--json"], capture_output=True, text=True,
                                      check=True).stdout)
    callers, episode = order["calling_order"], max(1, order["episode"] - 1)
    turn = callers.index(order["next_caller"])
    runs: dict[str, list[dict]] = {"floor": [], **{name: [] for name in ONESHOTS}}
    stopped: dict[str, dict] = {}
    for r in range(args.repeat):
        caller = callers[(turn + r) % len(callers)]
        mine = CHARACTERS.get(caller, "Rosa Quill")  # the GM calls with any cast
        other = "Iris Vane" if mine == "Nell Harrow" else "Nell Harrow"
        argvs = {
            "floor": [sys.executable, "-c", "import sqlmodel"],
            "note": [*command, "note", f"a one-shot note {uuid.uuid4()}", "--json"],
            "call": [*command, "call", caller, "--cast", f"{mine},{other}", "--mode", "dramatic", "--json"],
            "roll": [*command, "roll", mine, "--no-trait", "--faces", "3,4", "--json"],
            "petition": [*command, "petition", "granted", "-p", mine, "-g", other, "--json"],
            "tokens": [*command, "tokens", "--json"],
            "sheet": [*command, "sheet", mine, "--json"],
            "ledger": [*command, "ledger", "--participant", caller if caller in CHARACTERS else "Fay", "--json"],
            "recap": [*command, "recap", "--episode", str(episode), "--json"],
        }
        for name, argv in argvs.items():
            if stopped.get(name):  # stopped once at --command-limit: not run again
                continue
            figures = _child(argv, output=name != "floor", timeout=args.command_limit or None)
            if figures.get("stopped"):
                stopped[name] = figures
            else:
                runs[name].append(figures)
    out: dict[str, Any] = {}
    for name, done in runs.items():
        if done:
            out[name] = {"wall": statistics.median(f["wall"] for f in done),
                         "cpu": statistics.median(f["cpu"] for f in done), "runs": len(done)}
        else:  # every run of it was stopped: what it had used by then
            out[name] = {**stopped[name], "runs": 0}
    return out


def _importtime(argv: list[str]) -> dict[str, float]:
    """``python -X importtime`` of a fresh process: the self time of its imports, in ms, by package
    (a top-level package; yarnlog's by its subpackage, ``yarnlog.rulesets.yarn`` by two levels)."""
    done = subprocess.run([sys.executable, "-X", "importtime", *argv], capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{argv[:3]} failed: {done.stderr.strip()[-500:]}")
    by: dict[str, float] = {}
    for ln in done.stderr.splitlines():
        if not ln.startswith("import time:") or "|" not in ln or "self [us]" in ln:
            continue
        own, _, name = (part.strip() for part in ln.removeprefix("import time:").split("|"))
        parts = name.split(".")
        depth = 3 if parts[0] == "yarnlog" and parts[1:2] == ["rulesets"] else 2 if parts[0] == "yarnlog" else 1
        key = ".".join(parts[:depth])
        by[key] = by.get(key, 0.0) + int(own) / 1e3
    return by


def op_importtime(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    """What a one-shot note and a ``tokens`` read import, and ``import sqlmodel`` (``-X importtime``)."""
    yarnlog = _yarnlog(url, campaign)
    script = [yarnlog[0]] if yarnlog[0] != sys.executable else ["-m", "yarnlog"]
    return {"sqlmodel": _importtime(["-c", "import sqlmodel"]),
            "note": _importtime([*script, *yarnlog[1:], "note", f"an importtime note {uuid.uuid4()}"]),
            "tokens": _importtime([*script, *yarnlog[1:], "tokens", "--json"])}


VIEWS = ("tokens", "bennies", "calling-order", "scene-casts")


def op_views_upkeep(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    """What a write pays to keep the stored views at the head, as ``yarnlog`` does after each move.

    Set-up, untimed: a journal that has folded the campaign, every view of :data:`VIEWS` read once
    (so stored: a reader has asked for it). Then ``--appends`` rounds, each: the floor, a raw INSERT +
    COMMIT of a row sealed beforehand; a note through ``Journal.execute`` (untimed) and
    ``Journal.refresh_views`` (**upkeep**: the views brought to the new head, a view kept in pieces
    rewriting only what changed); the whole write, ``execute`` and ``refresh_views`` together; and,
    for comparison, the views worked out whole from the same state and encoded (what every write
    paid before, writing the rows aside)."""
    from yarnlog.app.journal import Journal
    from yarnlog.app.snapshots import encode_view
    from yarnlog.core.chain import seal
    from yarnlog.core.envelope import NewEvent
    from yarnlog.core.timeline import AddNote
    from yarnlog.persistence.factory import open_store

    store = open_store(_store_url(url), create=False)
    journal = Journal(store)
    journal.state(campaign)
    for view in VIEWS:
        journal.view(campaign, view)
    conn = _connect(url)
    mark = "%s" if url.startswith("postgresql") else "?"
    sql = f"INSERT INTO events ({', '.join(COLUMNS)}) VALUES ({_placeholders(url)})"
    begin = "BEGIN" if url.startswith("postgresql") else "BEGIN IMMEDIATE"
    times: dict[str, list[float]] = {"floor": [], "upkeep": [], "write": [], "whole": []}
    cpu = dict.fromkeys(times, 0.0)

    def clocked(kind: str, step: Callable[[], Any]) -> None:
        c, w = time.process_time(), time.perf_counter()
        step()
        times[kind].append(time.perf_counter() - w)
        cpu[kind] += time.process_time() - c

    def whole() -> None:
        state = journal.state(campaign)
        for view in VIEWS:
            encode_view(state.ruleset.views.projections[view](state))

    for i in range(args.appends):
        last, prev = conn.execute(f"SELECT sequence, hash FROM events WHERE campaign_id = {mark} "
                                  "ORDER BY sequence DESC LIMIT 1", (campaign,)).fetchone()
        new = NewEvent(str(uuid.uuid4()), "note", 1, "2026-11-21T20:00:00.000000Z", "Maya", "everyone",
                       {"text": f"a note from the table, {i}"})
        row = tuple(getattr(seal(campaign, last + 1, new, prev), c) for c in COLUMNS)

        def raw() -> None:
            conn.execute(begin)
            conn.execute(sql, row)
            conn.execute("COMMIT")

        clocked("floor", raw)
        journal.state(campaign)  # fold in the raw insert (not timed)
        journal.execute(campaign, AddNote(text=f"a note from the table, {i}"))
        clocked("upkeep", lambda: journal.refresh_views(campaign))

        def write(i: int = i) -> None:
            journal.execute(campaign, AddNote(text=f"another note, {i}"))
            journal.refresh_views(campaign)

        clocked("write", write)
        clocked("whole", whole)
    for view in VIEWS:  # the views kept are the projection's (checked, untimed)
        state = journal.state(campaign)
        projection = state.ruleset.views.projections[view]
        assert journal.view(campaign, view) == json.loads(encode_view(projection(state))), view

    def figures(kind: str) -> dict:
        ordered = sorted(times[kind])
        return {"wall": statistics.median(ordered), "p99": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
                "cpu": cpu[kind] / len(ordered)}

    return {kind: figures(kind) for kind in times}


def _snapshot_sizes(store: Any, campaign: str) -> dict[str, int]:
    return {s.kind: len(s.data.encode("utf-8")) for s in store.snapshots(campaign)}


def op_state_snapshot(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    """``Journal.state`` on a fresh journal from the state snapshot the first read kept (at the head: no tail)."""
    from yarnlog.app.journal import Journal
    from yarnlog.persistence.factory import open_store

    store = open_store(_store_url(url), create=False)
    sizes = _snapshot_sizes(store, campaign)
    assert sizes.get("state"), f"no state snapshot: {sizes}"
    journal = Journal(store)
    figures, state = _timed(lambda: journal.state(campaign))
    assert state.sequence == args.events
    figures["sizes"] = sizes
    figures["snapshot_at"] = journal.states.snapshots.at.get(campaign)
    return figures


def op_state_snapshot_tail(url: str, path: Path, campaign: str, args: argparse.Namespace) -> dict:
    """The same with a tail of ``--tail`` events (the journal keeps a snapshot every 500 folded, so
    at most 499 are left): set-up, untimed, the state snapshots dropped and one kept at event
    N - tail through the journal's own fold; then ``Journal.state`` on a fresh journal, timed."""
    from yarnlog.app.journal import Journal
    from yarnlog.persistence.factory import open_store

    store = open_store(_store_url(url), create=False)
    # Only the snapshot kept below: the journal keeps several, and would start from the one at the head.
    conn = _connect(url)
    mark = "%s" if url.startswith("postgresql") else "?"
    conn.execute(f"DELETE FROM snapshots WHERE campaign_id = {mark} AND kind LIKE {mark}", (campaign, "state%"))
    conn.close()
    at = max(1, args.events - args.tail)
    records = store.read(campaign, upto=at)
    keeper = Journal(store, snapshot_every=1)
    keeper.states._fold(campaign, None, records)
    del records, keeper
    journal = Journal(store)
    figures, state = _timed(lambda: journal.state(campaign))
    assert state.sequence == args.events
    assert journal.states.snapshots.at.get(campaign) is not None
    figures["snapshot_at"] = at
    return figures


OPERATIONS: dict[str, Callable[[str, Path, str, argparse.Namespace], dict]] = {
    name.removeprefix("op_"): fn for name, fn in globals().items() if name.startswith("op_")
}


def worker(args: argparse.Namespace) -> None:
    if not args.worker.startswith(("floor_", "board", "eventsourcing", "clear_", "oneshot_")):
        # Load the ruleset's modules (Yarn's parts are imported on first use, about a second) before
        # any clock starts: start-up is the board's figure, not replay's, verify's or an import's.
        from yarnlog.core.ruleset import get_ruleset

        get_ruleset("yarn")
    figures = OPERATIONS[args.worker](args.url, Path(args.file), args.campaign, args)
    print(json.dumps(figures))


# -- the runner --------------------------------------------------------------------------------


def progress(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


class Run:
    def __init__(self, args: argparse.Namespace, scratch: Path):
        self.args = args
        self.scratch = scratch
        self.board: dict[str, dict[int, dict[str, Any]]] = {}
        self.replays: dict[tuple[str, int], dict | str] = {}
        self.writes: dict[int, dict[str, tuple[dict, dict]]] = {}
        self.commands: dict[str, dict[int, dict[str, tuple[dict, dict]]]] = {}
        self.imports: dict[str, dict[int, dict[str, dict[str, float]]]] = {}
        self.rates: dict[str, dict[int, dict[str, str]]] = {}

    def measure(self, op: str, url: str, path: Path, campaign: str, events: int) -> dict | str:
        """One measurement in a subprocess: its figures, or why there are none."""
        if op in self.args.skip.split(","):
            return "skipped (--skip)"
        argv = [sys.executable, __file__, "--worker", op, "--url", url, "--file", str(path), "--campaign", campaign,
                "--events", str(events), "--appends", str(self.args.appends), "--scratch", str(self.scratch),
                "--es-batch", str(self.args.es_batch), "--tail", str(self.args.tail), "--repeat", str(self.args.repeat),
                "--command-limit", str(self.args.command_limit)]
        progress(f"{events:,} events · {op} ...")
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
        try:
            out, err = proc.communicate(timeout=self.args.limit)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            return f"did not finish in {self.args.limit:g} s"
        if proc.returncode:
            lines = err.strip().splitlines()
            return f"failed: {lines[-1] if lines else proc.returncode}"
        return json.loads(out.strip().splitlines()[-1])

    def backend(self, name: str, events: int, path: Path, urls: dict[str, str]) -> None:
        campaign = f"bench-{events}"
        print(f"\n{events:,} events · {name}", flush=True)
        print(f"  {'operation':<34} {'yarnlog':>12} {'floor':>12} {'ratio':>8}   {'µs/event':>9}  "
              f"{'CPU yarnlog/floor':>18}", flush=True)

        def m(op: str, url: str) -> dict | str:
            return self.measure(op, url, path, campaign, events)

        def line(label: str, mine: dict | str, floor: dict | str, key: str = "wall", per_event: bool = True,
                 unit: str = "s", ratio: bool = True) -> None:
            def fmt(f: dict | str) -> str:
                if isinstance(f, str):
                    return "—"
                value = f[key]
                return f"{value * 1e3:.2f} ms" if unit == "ms" else f"{value:.3f} s" if value < 10 else f"{value:.1f} s"

            shown = (f"x{mine[key] / floor[key]:.1f}" if ratio and isinstance(mine, dict) and isinstance(floor, dict)
                     and floor[key] else "")
            per = f"{mine[key] / events * 1e6:9.1f}" if per_event and isinstance(mine, dict) else " " * 9
            cpu = (f"{mine['cpu']:.2f} / {floor['cpu']:.2f} s" if isinstance(mine, dict) and isinstance(floor, dict)
                   and key == "wall" and unit == "s" else "")
            print(f"  {label:<35}{fmt(mine):>12} {fmt(floor):>12} {shown:>8}   {per}  {cpu:>18}", flush=True)
            for what, f in (("yarnlog", mine), ("floor", floor)):
                if isinstance(f, str) and f:
                    print(f"      {what}: {f}", flush=True)

        floor_import = m("floor_import", urls["floor"])
        mine = "skipped (--board-only)" if self.args.board_only else m("import", urls["import"])
        line("import (parse + check + insert)", mine, floor_import)
        if name == "SQLite" and not self.args.board_only:
            if self.args.no_eventsourcing:
                pass
            else:
                try:
                    import eventsourcing  # noqa: F401
                except ImportError:
                    print("  eventsourcing reference: skipped (pip install -e '.[bench]' to measure it)")
                else:
                    es = m("eventsourcing", str(self.scratch / f"es-{events}.db"))
                    if isinstance(es, dict) and isinstance(mine, dict):
                        ratio = es["wall"] / mine["wall"]
                        print(f"  eventsourcing SQLite insert ({self.args.es_batch:,} a batch): "
                              f"{events / es['wall']:,.0f} events/s; yarnlog import {events / mine['wall']:,.0f} "
                              f"events/s = {ratio:.2f}x it (target: 2x)", flush=True)
                    elif isinstance(es, dict):
                        print(f"  eventsourcing SQLite insert ({self.args.es_batch:,} a batch): "
                              f"{events / es['wall']:,.0f} events/s; yarnlog import: {mine}", flush=True)
                    else:
                        print(f"  eventsourcing reference: {es}", flush=True)
        if isinstance(floor_import, str):
            print("  (no database to read: the rest is skipped)")
            return
        db = urls["floor"]  # the same rows; every later figure reads this database
        replay, floor_replay = m("replay", db), m("floor_replay", db)
        line("replay (Journal.state, fresh)", replay, floor_replay)
        self.replays[(name, events)] = replay
        if not self.args.board_only:
            # Read before the board's measurements write to the campaign (views upkeep, one-shot writes).
            stream, floor_stream = m("stream_replay", db), m("floor_stream", db)
            verify, floor_verify = m("verify", db), m("floor_verify", db)
            export, floor_export = m("export", db), m("floor_export", db)
        self.board_and_views(name, events, db, m, line)
        if self.args.board_only:
            return
        line("replay, streaming (replay_stored)", stream, floor_replay)
        line("verify (chain + schemas + rules)", verify, floor_verify)
        line("export (JSON Lines to a file)", export, floor_export)

        def mb(f: dict | str) -> str:
            return f"{f['growth_mb']:.0f} MB" if isinstance(f, dict) else "—"

        ratio = (f"x{replay['growth_mb'] / floor_replay['growth_mb']:.1f}" if isinstance(replay, dict)
                 and isinstance(floor_replay, dict) and floor_replay["growth_mb"] else "")
        peak = f"(process peak {replay['peak_mb']:.0f} MB)" if isinstance(replay, dict) else ""
        print(f"  {'replay peak memory (RSS growth)':<34} {mb(replay):>12} {mb(floor_replay):>12} {ratio:>8}   {peak}",
              flush=True)
        # The streaming figures beside a streaming floor (rows fetched in batches, parsed, dropped).
        for label, f in (("streaming replay peak memory", stream), ("verify peak memory (streams)", verify)):
            ratio = (f"x{f['growth_mb'] / floor_stream['growth_mb']:.1f}" if isinstance(f, dict)
                     and isinstance(floor_stream, dict) and floor_stream["growth_mb"] >= 1 else "")
            peak = f"(process peak {f['peak_mb']:.0f} MB)" if isinstance(f, dict) else ""
            print(f"  {label:<34} {mb(f):>12} {mb(floor_stream):>12} {ratio:>8}   {peak}", flush=True)
        for label, f in (("import rate (events a CPU second)", mine), ("verify rate (events a CPU second)", verify)):
            shown = f"{events / f['cpu']:,.0f}" if isinstance(f, dict) and f["cpu"] else "—"
            print(f"  {label:<34} {shown:>12}   target 25,000 (issue 27); CPU, start-up excluded", flush=True)
        if isinstance(stream, dict):
            # What the state holds: the streaming replay keeps nothing else (issue 27: 740 B, to be halved).
            print(f"  {'state memory per event':<34} {stream['growth_mb'] * 2**20 / events:>10,.0f} B   RSS growth "
                  "of the streaming replay over the events", flush=True)
        appends = m("appends", db)
        if isinstance(appends, str):
            print(f"  {'single appends':<34} {appends}", flush=True)
        else:
            for label, kind in (("append via Journal.execute", "journal"), ("append via EventStore.append", "store")):
                for stat, key in (("median", "wall"), ("p99", "p99")):
                    line(f"{label}: {stat}", appends[kind], appends["floor"], key=key, per_event=False, unit="ms")
            line("  floor in one statement: median", appends["floor_one"], appends["floor"], per_event=False,
                 unit="ms")
            journal, one = appends["journal"], appends["floor_one"]
            print(f"      floor: BEGIN + INSERT + COMMIT; in one statement: the INSERT alone in autocommit; "
                  f"Journal.execute x{journal['wall'] / one['wall']:.1f} the one-statement floor; CPU a write "
                  f"{journal['cpu'] * 1e3:.2f} ms (floor {appends['floor']['cpu'] * 1e3:.2f} ms)", flush=True)

    def repeated(self, m: Callable[[str, str], dict | str], op: str, db: str) -> dict | str:
        """The median of ``--repeat`` measurements (each its own process), wall and CPU taken apart."""
        runs = [m(op, db) for _ in range(self.args.repeat)]
        done = [r for r in runs if isinstance(r, dict)]
        if not done:
            return runs[0]
        return {**done[0], "wall": statistics.median(r["wall"] for r in done),
                "cpu": statistics.median(r["cpu"] for r in done), "min": min(r["wall"] for r in done),
                "max": max(r["wall"] for r in done), "runs": len(done)}

    def board_and_views(self, name: str, events: int, db: str, m: Callable[[str, str], dict | str],
                        line: Callable[..., None]) -> None:
        """The board (``yarnlog tokens --json``) first and later, after start-up, and the snapshots."""
        m("clear_snapshots", db)  # earlier measurements may have kept a snapshot: the first read is from the log
        floor_board = self.repeated(m, "floor_board", db)
        floor_sqlmodel = self.repeated(m, "floor_sqlmodel", db)
        floor_python = self.repeated(m, "floor_python", db)
        first = m("board", db)
        line("board, first read (new process)", first, floor_board, per_event=False)
        later = self.repeated(m, "board", db)
        line("board, later read (new process)", later, floor_board, per_event=False)
        line("  ... beside import sqlmodel", later, floor_sqlmodel, per_event=False)
        line("  ... beside python -c pass", later, floor_python, per_event=False)
        after = self.repeated(m, "board_view", db)
        line("board after start-up (view)", after, "", per_event=False, unit="ms", ratio=False)
        if isinstance(after, dict):
            print(f"      Journal.view in a fresh process after the journal is opened: median of {after['runs']}, "
                  f"{after['min'] * 1e3:.1f} to {after['max'] * 1e3:.1f} ms; CPU {after['cpu'] * 1e3:.1f} ms; "
                  f"ruleset imported: {'yes' if after['ruleset_imported'] else 'no'}", flush=True)
        for label, f in (("floor: fetch + sum (new process)", floor_board),
                         ("floor: import sqlmodel (new process)", floor_sqlmodel),
                         ("floor: python -c pass", floor_python)):
            if isinstance(f, dict):
                print(f"      {label}: {f['wall']:.3f} s wall, {f['cpu']:.3f} s CPU (median of {f['runs']})",
                      flush=True)
        snap = m("state_snapshot", db)
        replay = self.replays.get((name, events))
        line("state from snapshot (no tail)", snap, replay if replay is not None else "—")
        tail = m("state_snapshot_tail", db)
        line(f"state from snapshot + {self.args.tail} tail", tail, replay if replay is not None else "—")
        if isinstance(snap, dict):
            sizes = ", ".join(f"{kind} {size / 1024:,.1f} KB" for kind, size in sorted(snap["sizes"].items()))
            state_size = snap["sizes"].get("state", 0)
            print(f"  {'stored snapshot and views':<34} {sizes} (state: {state_size / events:,.0f} bytes an event)",
                  flush=True)
        upkeep = m("views_upkeep", db)
        if isinstance(upkeep, str):
            print(f"  {'views upkeep after a write':<34} {upkeep}", flush=True)
        else:
            for label, kind in (("views upkeep of a write", "upkeep"), ("write + views upkeep", "write"),
                                ("views worked out whole", "whole")):
                line(f"{label}: median", upkeep[kind], upkeep["floor"], per_event=False, unit="ms")
            print(f"      median of {self.args.appends} writes, the views {', '.join(VIEWS)} stored; floor: a raw "
                  "INSERT + COMMIT on the same database; 'worked out whole': what each write paid before (CPU only, "
                  "no row written)", flush=True)
        self.oneshot_write(events, db, m, line)
        self.oneshots(name, events, db, m, line)
        curve = self.board.setdefault(name, {})
        curve[events] = {"first": first, "later": later, "after": after, "floor_board": floor_board,
                         "sqlmodel": floor_sqlmodel, "python": floor_python}

    def oneshot_write(self, events: int, db: str, m: Callable[[str, str], dict | str],
                      line: Callable[..., None]) -> None:
        """A one-shot write (a fresh ``yarnlog note``) beside its floor (a bare interpreter's INSERT +
        COMMIT), in ``--repeat`` interleaved rounds; the state snapshot is the one the board's first
        read kept at the head, so each write folds only the few events after it."""
        runs: dict[str, list[dict]] = {"oneshot_write": [], "floor_oneshot_write": []}
        for _ in range(self.args.repeat):
            for op, done in runs.items():
                figures = m(op, db)
                if isinstance(figures, str):
                    print(f"  {'one-shot write':<34} {op}: {figures}", flush=True)
                    return
                done.append(figures)
        write, floor = ({"wall": statistics.median(f["wall"] for f in done),
                         "cpu": statistics.median(f["cpu"] for f in done)} for done in runs.values())
        line("one-shot write (yarnlog note)", write, floor, per_event=False)
        print(f"      fresh processes, median of {self.args.repeat} interleaved rounds; floor: a bare python -c "
              f"that inserts one sealed row and commits; CPU {write['cpu']:.3f} / {floor['cpu']:.3f} s", flush=True)
        self.writes.setdefault(events, {})[db] = (write, floor)

    def oneshots(self, name: str, events: int, db: str, m: Callable[[str, str], dict | str],
                 line: Callable[..., None]) -> None:
        """Issue 27's one-shot commands beside ``import sqlmodel`` (:func:`op_oneshots`), and what a note
        and a read import (:func:`op_importtime`)."""
        runs = m("oneshots", db)
        if isinstance(runs, str):
            print(f"  {'one-shot commands':<34} {runs}", flush=True)
            return
        floor = runs["floor"]
        for op, label in ONESHOTS.items():
            if runs[op].get("stopped"):
                print(f"  {label:<35}stopped at {runs[op]['wall']:.0f} s wall, {runs[op]['cpu']:.1f} s CPU by then "
                      f"(--command-limit)", flush=True)
            else:
                line(label, runs[op], floor, per_event=False)
            self.commands.setdefault(name, {}).setdefault(events, {})[op] = (runs[op], floor)
        print(f"      fresh processes, median of {floor['runs']} rounds, each opening with the floor, a fresh "
              f"python -c \"import sqlmodel\" ({floor['wall']:.3f} s wall, {floor['cpu']:.3f} s CPU)", flush=True)
        imports = m("importtime", db)
        if isinstance(imports, str):
            print(f"  {'imports (-X importtime)':<34} {imports}", flush=True)
            return
        self.imports.setdefault(name, {})[events] = imports
        for what in ("note", "tokens", "sqlmodel"):
            by = imports[what]
            top = sorted(by.items(), key=lambda kv: -kv[1])[:8]
            print(f"  imports of {what} (-X importtime, self ms): {sum(by.values()):.0f} ms in all; "
                  + ", ".join(f"{k} {v:.0f}" for k, v in top), flush=True)

    def size(self, events: int) -> None:
        progress(f"generating a campaign of {events:,} events (cached) ...")
        path = generate.campaign_file(events)
        sqlite_urls = {"import": str(self.scratch / f"import-{events}.db"),
                       "floor": str(self.scratch / f"floor-{events}.db")}
        if "sqlite" in self.args.stores.split(","):
            self.backend("SQLite", events, path, sqlite_urls)
        if self.args.pg and "pg" in self.args.stores.split(","):
            with self.pg_databases(events) as urls:
                self.backend("PostgreSQL", events, path, urls)
        elif events == self.sizes[0]:
            print("  PostgreSQL: skipped (no --pg URL)")

    def pg_databases(self, events: int):
        import contextlib
        from urllib.parse import urlsplit, urlunsplit

        import psycopg

        base = urlsplit(self.args.pg)
        # This run's own (another engineer's benchmark may be using the same server): dropped at the end.
        names = {role: f"yarnlog_bench_{role}_{events}_{os.getpid()}" for role in ("import", "floor")}

        @contextlib.contextmanager
        def made():
            with psycopg.connect(self.args.pg, autocommit=True) as admin:
                for name in names.values():
                    admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
                    admin.execute(f"CREATE DATABASE {name}")
            try:
                yield {role: urlunsplit(base._replace(path=f"/{name}")) for role, name in names.items()}
            finally:
                with psycopg.connect(self.args.pg, autocommit=True) as admin:
                    for name in names.values():
                        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

        return made()

    def main(self) -> None:
        self.sizes = [SIZES[s] for s in (SIZES if self.args.full else self.args.sizes.split(","))]
        print(f"yarnlog benchmark · python {platform.python_version()} · SQLite {sqlite3.sqlite_version} · "
              f"{os.cpu_count()} CPUs · limit {self.args.limit:g} s an operation · bytecode kept")
        for events in self.sizes:
            self.size(events)
        print("\nthe board by campaign size (medians of --repeat fresh processes; wall, CPU in brackets)")

        def cell(f: dict | str, ms: bool = False) -> str:
            if isinstance(f, str):
                return f
            if ms:
                return f"{f['wall'] * 1e3:.1f} ms"
            return f"{f['wall']:.3f} s ({f['cpu']:.3f})"

        for name, curve in self.board.items():
            print(f"  {name}")
            print(f"    {'events':>10}  {'first read':>16}  {'later read':>16}  {'after start-up':>14}  "
                  f"{'fetch + sum':>16}  {'import sqlmodel':>16}  {'python -c pass':>16}  later/sqlmodel")
            for n, c in curve.items():
                ratio = (f"x{c['later']['wall'] / c['sqlmodel']['wall']:.2f}" if isinstance(c["later"], dict)
                         and isinstance(c["sqlmodel"], dict) else "")
                print(f"    {n:>10,}  {cell(c['first']):>16}  {cell(c['later']):>16}  {cell(c['after'], True):>14}  "
                      f"{cell(c['floor_board']):>16}  {cell(c['sqlmodel']):>16}  {cell(c['python']):>16}  {ratio}")
        if self.commands:
            print("\nthe one-shot commands by campaign size: CPU beside a fresh python -c \"import sqlmodel\" "
                  "(the ratio; target 1.3x, issue 27), CPU seconds in brackets")
        for name, curve in self.commands.items():
            print(f"  {name}")
            print(f"    {'events':>10}  " + "  ".join(f"{op:>15}" for op in ONESHOTS) + f"  {'sqlmodel':>8}")
            for n, ops in curve.items():
                floor = next(iter(ops.values()))[1]
                cells = (f"> {f['cpu']:.1f} stopped" if f.get("stopped")
                         else f"x{f['cpu'] / fl['cpu']:.2f} ({f['cpu']:.2f})" for f, fl in ops.values())
                print(f"    {n:>10,}  " + "  ".join(f"{c:>15}" for c in cells) + f"  {floor['cpu']:>8.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1K,10K", help="comma-separated, of 1K,10K,100K,1M (default 1K,10K)")
    parser.add_argument("--full", action="store_true", help="all four sizes")
    parser.add_argument("--pg", help="a PostgreSQL server URL; its yarnlog_bench_* databases are made and dropped")
    parser.add_argument("--limit", type=float, default=120, help="seconds an operation may take (default 120)")
    parser.add_argument("--appends", type=int, default=200, help="single appends of each kind timed (default 200)")
    parser.add_argument("--es-batch", type=int, default=1000, help="events per eventsourcing insert (default 1000)")
    parser.add_argument("--no-eventsourcing", action="store_true", help="skip the eventsourcing reference")
    parser.add_argument("--board-only", action="store_true",
                        help="only the rows loaded (floor import), the full replay, the board and the snapshots")
    parser.add_argument("--skip", default="", help="operations not measured, comma-separated (e.g. "
                        "replay,state_snapshot_tail: the two that replay the whole log, for a quick run at 1M)")
    parser.add_argument("--repeat", type=int, default=5,
                        help="fresh processes a board figure is the median of (default 5)")
    parser.add_argument("--command-limit", type=float, default=0,
                        help="seconds one one-shot command may take before it is stopped (default: no limit "
                        "but --limit on the whole set)")
    parser.add_argument("--stores", default="sqlite,pg",
                        help="the stores measured, of sqlite,pg (default both; pg only with --pg)")
    parser.add_argument("--tail", type=int, default=499,
                        help="events after the state snapshot for 'state from snapshot + tail' (default 499)")
    # the worker's own arguments (one measurement)
    parser.add_argument("--worker", choices=sorted(OPERATIONS), help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--file", help=argparse.SUPPRESS)
    parser.add_argument("--campaign", help=argparse.SUPPRESS)
    parser.add_argument("--events", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--scratch", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    unknown = set(args.sizes.split(",")) - set(SIZES)
    if unknown and not args.full:
        parser.error(f"unknown size(s) {', '.join(sorted(unknown))}: choose among {', '.join(SIZES)}")
    # Fresh processes are timed as a user's run: with the bytecode Python keeps beside the sources. In
    # an environment that says not to write it, every child would compile yarnlog's modules again.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    import compileall

    import yarnlog

    compileall.compile_dir(str(Path(yarnlog.__file__).parent), quiet=1)
    with tempfile.TemporaryDirectory(prefix="yarnlog-bench-") as scratch:
        Run(args, Path(scratch)).main()


if __name__ == "__main__":
    main()
