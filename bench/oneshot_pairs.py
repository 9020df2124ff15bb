"""A one-shot ``yarnlog note`` of this tree beside another revision's and ``import sqlmodel`` (not a test).

Issue 27 asks a one-shot write within 1.3x the CPU of ``python -c "import sqlmodel"``, and flat in
the campaign's length. On a shared machine only figures taken side by side compare: this runs, in
rounds, a fresh ``import sqlmodel``, a fresh ``yarnlog note`` of ``--base`` (``git archive`` of that
revision's package, put first on ``PYTHONPATH``) and one of this tree, each on its own copy of a
generated campaign of EVENTS events (``bench/generate.py``; each revision keeps its own state
snapshot, read by every note after the first). It prints the median CPU of each (the children's
``getrusage``) and the ratios, then the CPU of decoding the newest state snapshot, as each revision
writes it, in a process of each revision (median of five, the ruleset imported first).

Usage: python bench/oneshot_pairs.py EVENTS [--base main] [--rounds 7]
"""

from __future__ import annotations

import argparse
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import generate  # noqa: E402

DECODE = """
import statistics, sys, time
from yarnlog.app.snapshots import STATE_KINDS, decode_state, encode_state, state_codec
from yarnlog.app.state_snapshots import load_snapshot
from yarnlog.persistence.factory import open_store
store, campaign = open_store(sys.argv[1], create=False), sys.argv[2]
codec, _ = state_codec("yarn")
kept = max((s for s in store.snapshots(campaign, data=False) if s.kind in STATE_KINDS), key=lambda s: s.sequence)
state, timeline = decode_state(codec, load_snapshot(store, campaign, kept.kind, kept.fingerprint).data)
text = encode_state(codec, state, timeline)  # as this revision writes it
del state, timeline
times = []
for _ in range(5):
    start = time.process_time()
    decoded = decode_state(codec, text)
    times.append(time.process_time() - start)
    del decoded
print(f"{statistics.median(times):.3f} {len(text)}")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("events", type=int)
    parser.add_argument("--base", default="main", help="the revision to compare with (default main)")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    python = sys.executable
    scratch = Path(tempfile.mkdtemp(prefix="yarnlog-oneshot-"))
    base = scratch / "base"
    base.mkdir()
    archive = subprocess.run(["git", "-C", str(HERE.parent), "archive", args.base, "yarnlog"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "YARNLOG_DB", "PYTHONPATH",
                                                             "YARNLOG_CAMPAIGN", "YARNLOG_VERBOSE")}
    envs = {"sqlmodel": env, "base": {**env, "PYTHONPATH": str(base)}, "this": env}
    campaign = f"bench-{args.events}"
    source = generate.campaign_file(args.events)
    first = scratch / "campaign.db"
    subprocess.run([python, "-m", "yarnlog", "--db", str(first), "import", "--without-trailer", str(source)],
                   env=env, cwd=scratch, check=True, capture_output=True)
    dbs = {}
    for name in ("base", "this"):
        dbs[name] = scratch / f"{name}.db"
        with sqlite3.connect(first) as src, sqlite3.connect(dbs[name]) as dst:
            src.backup(dst)

    def argv(name: str) -> list[str]:
        if name == "sqlmodel":
            return [python, "-c", "import sqlmodel"]
        return [python, "-m", "yarnlog", "--db", str(dbs[name]), "-c", campaign, "note", "a one-shot note"]

    def cpu(name: str) -> float:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(argv(name), env=envs[name], cwd=scratch, capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise SystemExit(f"{name}: {done.stderr.strip()[-400:]}")
        return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)

    for name in ("base", "this"):  # each keeps a snapshot of its own code, and its bytecode
        cpu(name)
        cpu(name)
    figures: dict[str, list[float]] = {name: [] for name in ("sqlmodel", "base", "this")}
    for _ in range(args.rounds):
        for name in figures:
            figures[name].append(cpu(name))
    median = {name: statistics.median(values) for name, values in figures.items()}
    print(f"{args.events:,} events, SQLite; one-shot `note`, CPU, median of {args.rounds} interleaved rounds")
    print(f"  import sqlmodel   {median['sqlmodel']:.3f} s")
    for name, label in (("base", args.base), ("this", "this tree")):
        print(f"  note, {label:<11} {median[name]:.3f} s  x{median[name] / median['sqlmodel']:.2f}")
    for name, label in (("base", args.base), ("this", "this tree")):
        out = subprocess.run([python, "-c", DECODE, str(dbs[name]), campaign], env=envs[name], cwd=scratch,
                             check=True, capture_output=True, text=True).stdout.split()
        print(f"  decoding the state snapshot, {label}: {float(out[0]):.3f} s CPU ({int(out[1]) / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
