"""Where an import's time goes, and whether its cost an event grows with the history (not a test).

Does what ``yarnlog import`` does to a fresh store (``read_export``, then ``import_records``' check and
insert), each stage timed apart, and the check's CPU taken at each tenth of the events as the check
pulls them: a linear import checks each tenth at the same rate. The check is ``verify`` over the
parsed records (chain, schemas, rules, in one streaming pass) inside ``remembered_hashes``, then
the store's batched insert, as ``import_records`` runs them for a store that holds none of the
campaign yet. Prints the CPU and the resident memory after each stage and each tenth.

Usage: python bench/import_tenths.py EVENTS [--db sqlite-file-or-postgresql-url] [--file campaign.jsonl]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from itertools import chain
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import generate  # noqa: E402


def _rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def tenths(items: Iterable[Any], total: int, marks: list[tuple[int, float, float, float]]) -> Iterator[Any]:
    """``items`` passed on; at each tenth of ``total`` the count, CPU, wall and RSS appended to ``marks``."""
    step = max(1, total // 10)
    for n, item in enumerate(items, 1):
        yield item
        if n % step == 0:
            marks.append((n, time.process_time(), time.perf_counter(), _rss_mb()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("events", type=int)
    parser.add_argument("--db", help="a SQLite file or a PostgreSQL URL (default: a fresh SQLite file)")
    parser.add_argument("--file", help="the campaign (default: bench/generate.py's of EVENTS events)")
    args = parser.parse_args()
    from yarnlog.app.interchange import read_export
    from yarnlog.app.verify import AMENDMENT_TYPES, Parsed, verify
    from yarnlog.core.chain import remembered_hashes
    from yarnlog.core.ruleset import get_ruleset
    from yarnlog.persistence.factory import open_store

    get_ruleset("yarn")  # the ruleset's modules loaded before any clock starts, as benchmark.py's import
    path = Path(args.file) if args.file else generate.campaign_file(args.events)
    scratch = tempfile.mkdtemp(prefix="yarnlog-tenths-")
    db = args.db or os.path.join(scratch, "import.db")
    store = open_store(db if db.startswith("postgresql") else f"sqlite:///{db}", create=True)
    print(f"{args.events:,} events from {path}; store {db.split('@')[-1]}; start RSS {_rss_mb():.0f} MB", flush=True)

    def stage(label: str, cpu: float, wall: float) -> None:
        print(f"  {label:<42} {time.process_time() - cpu:8.1f} s CPU {time.perf_counter() - wall:8.1f} s wall  "
              f"RSS {_rss_mb():,.0f} MB", flush=True)

    cpu, wall = time.process_time(), time.perf_counter()
    text = path.read_text(encoding="utf-8").splitlines()
    stage("read the file", cpu, wall)
    cpu, wall = time.process_time(), time.perf_counter()
    export = read_export(text, require_trailer=False)
    del text
    stage("read_export (parse, limits)", cpu, wall)
    records, payloads = export.records, export.payloads
    campaign = records[0].campaign_id
    assert store.last_sequence(campaign) == 0, "the store already holds this campaign"
    marks: list[tuple[int, float, float, float]] = []
    checked = (Parsed(record, payload, limits_checked=True) for record, payload in zip(records, payloads))
    amendments = (r for r in records if r.event_type in AMENDMENT_TYPES)
    cpu, wall = time.process_time(), time.perf_counter()
    with remembered_hashes():
        start = (0, cpu, wall, _rss_mb())
        report = verify(tenths(chain((), checked), len(records), marks), campaign, amendments=amendments)
        stage("check (verify: chain, schemas, rules)", cpu, wall)
        assert report.ok, report.faults[:3]
        cpu2, wall2 = time.process_time(), time.perf_counter()
        store.append_verbatim(records, expected_sequence=0)
        stage("insert (append_verbatim, one transaction)", cpu2, wall2)
    print("  the check by tenths (as verify pulled the events; the audit may hold a few back):")
    previous = start
    for n, c, w, rss in marks:
        done = n - previous[0]
        print(f"    to {n:>9,}: {done / (c - previous[1]):>8,.0f} events a CPU second, "
              f"{done / (w - previous[2]):>8,.0f} by the wall; RSS {rss:,.0f} MB", flush=True)
        previous = (n, c, w, rss)
    store.close()


if __name__ == "__main__":
    main()
