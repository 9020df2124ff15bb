"""What a one-shot write pays for the state snapshot, piece by piece, in one process (not a test).

Reads the newest state snapshot of CAMPAIGN in DB (as this tree writes it: run a write first) and
prints the median CPU, over five rounds, of: listing and loading its row; reading it with its
pieces decoded when first read (the header, the table, the timelines' pieces read at once); the
pieces a note reads (where the timeline stands, the balances, the calling order); those an economy
write reads too (the bennies, the kitty, the PC sheets its sentence names);
those the console's status line reads (``Words.seats``); and decoding the whole snapshot at once.

Usage: python bench/snapshot_pieces.py DB CAMPAIGN
"""

from __future__ import annotations

import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from yarnlog.app.snapshot_rows import read_state
from yarnlog.app.snapshots import STATE_KINDS, state_codec
from yarnlog.app.state_snapshots import load_snapshot, piece_fetcher
from yarnlog.core.ruleset import get_ruleset
from yarnlog.persistence.factory import open_store


def note_reads(state: Any) -> None:
    rules, episode = state.rules, state.timeline.episode
    cast = rules.characters.cast  # the maps keyed by episode, read for the episode in play (one key each)
    _ = (state.timeline.scene, rules.economy.tokens, rules.drama.closers.get(episode), rules.drama.gm,
         cast.latest.get(("precedence", episode)), cast.themes.get(episode), rules.drama.calling.get(episode))


def economy_reads(state: Any) -> None:
    note_reads(state)
    rules = state.rules
    _ = (rules.economy.bennies, rules.economy.kitty, rules.characters.pcs)


def main() -> None:
    store, campaign = open_store(sys.argv[1], create=False), sys.argv[2]
    ruleset = get_ruleset(json.loads(store.read(campaign, upto=1)[0].payload)["ruleset"])
    codec, fingerprint = state_codec(ruleset.name)
    seats = ruleset.words.seats
    figures: dict[str, list[float]] = {}

    def timed(name: str, work: Callable[[], Any]) -> Any:
        start = time.process_time()
        result = work()
        figures.setdefault(name, []).append(time.process_time() - start)
        return result

    size = 0
    fetch = piece_fetcher(store, campaign)  # a snapshot kept in rows reads its pieces by key
    for _ in range(5):
        def load() -> Any:
            kept = max((s for s in store.snapshots(campaign, data=False)
                        if s.kind in STATE_KINDS and s.fingerprint == fingerprint), key=lambda s: s.sequence)
            return load_snapshot(store, campaign, kept.kind, fingerprint)

        snapshot = timed("load the row", load)
        size = len(snapshot.data)
        for name, reads in (("a note's pieces", note_reads), ("an economy write's", economy_reads),
                            ("the status line's", lambda s: seats(s, [*s.table.players, s.table.gm]))):
            state, _ = timed("read, pieces deferred", partial(read_state, codec, snapshot.data, fetch, deferred=True))
            timed(name, partial(reads, state))
        timed("decode it whole", partial(read_state, codec, snapshot.data, fetch))
        gc.unfreeze()
        gc.collect()
    print(f"{campaign}: a state snapshot row of {size / 1e6:.3f} MB (its header, if kept in rows); CPU, median of 5")
    for name, values in figures.items():
        print(f"  {name:<24} {statistics.median(values) * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
