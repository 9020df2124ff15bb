"""The replay curve: a full streaming replay beside its floor, alternating in one process, CPU time.

Usage: ``python bench/replay_curve.py EVENTS [ROUNDS] [--state]`` over ``$DB_DIR/db-EVENTS.db``, a
SQLite journal holding the generated campaign ``bench-EVENTS`` (``bench/generate.py`` then ``yarnlog
import``). The floor is the benchmark's own: every row fetched by the driver and its payload
``json.loads``-ed. ``--state`` adds ``Journal.state`` (its second round reads the snapshot the first
one kept, so it is not a full replay).
"""

from __future__ import annotations

import gc
import json
import os
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import benchmark  # noqa: E402 (the benchmark's floor, from this folder)

from yarnlog.app import replaying  # noqa: E402
from yarnlog.app.journal import Journal  # noqa: E402
from yarnlog.core.ruleset import get_ruleset  # noqa: E402
from yarnlog.persistence.factory import open_store  # noqa: E402


def _cpu(work: Callable[[], object]) -> float:
    gc.collect()
    start = time.process_time()
    work()
    return time.process_time() - start


def main(argv: list[str]) -> None:
    events = int(argv[0])
    rounds = int(argv[1]) if len(argv) > 1 and argv[1].isdigit() else 1
    path = f"{os.environ.get('DB_DIR', '/tmp/scale')}/db-{events}.db"
    campaign = f"bench-{events}"
    get_ruleset("yarn")

    def floor() -> None:
        conn = benchmark._connect(path)
        assert len([json.loads(row[8]) for row in benchmark._fetch(conn, campaign, "sqlite")]) == events
        conn.close()

    print(f"{events:,} events, load {os.getloadavg()[0]:.1f}", flush=True)
    for _ in range(rounds):
        before = _cpu(floor)
        stream = _cpu(lambda: replaying.replay_stored(open_store(f"sqlite:///{path}", create=False), campaign))
        after = _cpu(floor)
        least = min(before, after)
        line = (f"  floor {before:.2f}/{after:.2f} s; replay_stored {stream:.2f} s (x{stream / least:.1f}, "
                f"{stream / events * 1e6:.0f} us/ev)")
        if "--state" in argv:
            state = _cpu(lambda: Journal(open_store(f"sqlite:///{path}", create=False)).state(campaign))
            line += f"; Journal.state {state:.2f} s (x{state / least:.1f})"
        print(f"{line}; load {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
