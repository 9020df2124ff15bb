"""Benchmarks for the journal: prints figures, never asserts them.

Each figure comes with a baseline measured in the same run on the same machine, so ratios
stay meaningful across machines:

- appending through the journal service (replay + decide + append) against a bare store append;
- replaying a campaign into state against merely reading and JSON-parsing its rows;
- verifying a campaign (chain + schemas + rules) against recomputing the hash chain alone;
- export against reading the rows;
- the same for the sample campaign in ``journals/``, whose events exercise every Yarn part.

Usage: python bench/benchmark.py [--events 250 1000 4000] [--db-url postgresql://...]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from yarnlog.app.interchange import export_lines, import_records, parse_lines
from yarnlog.app.journal import Journal
from yarnlog.app.verify import check_chain, verify
from yarnlog.core.envelope import NewEvent, to_recorded
from yarnlog.core.state import replay, with_context
from yarnlog.core.table import AddParticipant
from yarnlog.core.timeline import AddNote, OpenScene, StartEpisode
from yarnlog.persistence.factory import open_store
from yarnlog.persistence.protocol import EventStore


def timed(fn, repeat: int = 3) -> float:
    """Median wall time of ``fn()`` in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def build(store: EventStore, campaign: str, events: int) -> Journal:
    journal = Journal(store)
    journal.create_campaign(campaign, title="Bench", gm="Maya")
    for name in ("Ana", "Ben", "Cy", "Dee", "Eve"):
        journal.execute(campaign, AddParticipant(name=name))
    journal.execute(campaign, StartEpisode(title="One"))
    journal.execute(campaign, OpenScene(caller="Ana"))
    # Bulk-fill through the store (the service's per-command replay is measured separately).
    batch = [NewEvent(str(uuid.uuid4()), "note", 1, "2026-11-21T20:00:00.000000Z", "Maya", "everyone",
                      {"text": f"narration {i}"}) for i in range(events - store.last_sequence(campaign))]
    store.append(campaign, store.last_sequence(campaign), batch)
    return journal


def replayed(store: EventStore, campaign: str):
    return replay(with_context([to_recorded(r) for r in store.read(campaign)]))


def row(label: str, seconds: float, baseline: float, per: int | None = None) -> None:
    per_item = f"{seconds / per * 1e6:9.1f} µs/event" if per else " " * 18
    print(f"  {label:<50} {seconds * 1e3:9.1f} ms {per_item}   x{seconds / baseline:6.1f} baseline")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, nargs="+", default=[250, 1000, 4000])
    parser.add_argument("--db-url", help="benchmark this database (or memory://) instead of a temporary SQLite file")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        sample = Path(__file__).resolve().parent.parent / "journals" / "lantern-harbor.jsonl"
        store = open_store(args.db_url or Path(tmp) / "sample.db")
        records = parse_lines(sample.read_text(encoding="utf-8").splitlines())
        import_records(store, records)
        campaign = records[0].campaign_id
        n = len(records)
        print(f"\nthe sample campaign ({n} Yarn events: characters, drama, rolls, a fight)")
        read_rows = timed(lambda: [json.loads(r.payload) for r in store.read(campaign)])
        row("baseline: read + parse rows", read_rows, read_rows, n)
        row("replay into state", timed(lambda: replayed(store, campaign)),
            read_rows, n)
        stored = store.read(campaign)
        chain_only = timed(lambda: check_chain(stored, campaign))
        row("baseline: hash chain only", chain_only, chain_only, n)
        row("verify (chain + schemas + every rule re-checked)", timed(lambda: verify(stored, campaign)), chain_only, n)
        store.close()

        for n in args.events:
            url = args.db_url or f"sqlite:///{Path(tmp) / f'bench-{n}.db'}"
            store = open_store(url)
            campaign = f"bench-{n}-{uuid.uuid4().hex[:6]}"
            journal = build(store, campaign, n)
            print(f"\n{n} events ({type(store).__name__})")

            read_rows = timed(lambda: [json.loads(r.payload) for r in store.read(campaign)])
            row("baseline: read + parse rows", read_rows, read_rows, n)
            row("replay into state", timed(lambda: replayed(store, campaign)),
                read_rows, n)
            row("export (JSON Lines)", timed(lambda: list(export_lines(store, campaign))), read_rows, n)

            records = store.read(campaign)
            chain_only = timed(lambda: check_chain(records, campaign))
            row("baseline: hash chain only", chain_only, chain_only, n)
            row("verify (chain + schemas + rules)", timed(lambda: verify(records, campaign)), chain_only, n)

            def bare_append() -> None:
                store.append(campaign, store.last_sequence(campaign), [NewEvent(
                    str(uuid.uuid4()), "note", 1, "2026-11-21T20:00:00.000000Z", "Maya", "everyone", {"text": "x"})])

            bare = timed(bare_append, repeat=5)
            row("baseline: one bare store append", bare, bare)
            row("one command through the service", timed(
                lambda: journal.execute(campaign, AddNote(text="live")), repeat=5), bare)
            store.close()


if __name__ == "__main__":
    main()
