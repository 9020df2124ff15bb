"""A one-shot write (``yarnlog note``, or a GM's token ruling, an economy write) of this tree beside
another revision's and ``import sqlmodel`` (not a test).

Issue 27 asks a one-shot write within 1.3x the CPU of ``python -c "import sqlmodel"``, and flat in
the campaign's length. On a shared machine only figures taken side by side compare: this runs, in
rounds, a fresh ``import sqlmodel``, a fresh ``yarnlog note`` of ``--base`` (``git archive`` of that
revision's package, put first on ``PYTHONPATH``) and one of this tree, each on its own copy of a
generated campaign of EVENTS events (``bench/generate.py``; each revision keeps its own state
snapshot, read by every note after the first). It prints the median CPU of each (the children's
``getrusage``) and the ratios, then the CPU of decoding the newest state snapshot, as each revision
writes it, in a process of each revision (median of five, the ruleset imported first): whole, and,
for a revision that decodes a snapshot's pieces when first read, before any piece is read.

``--write ruling`` times ``yarnlog ruling tokens`` instead of ``note``: a drama token from the kitty to
Ana, then back, alternately (a write the economy part folds and decides on).

``--journals BASE_DB THIS_DB`` uses two journals already made (say, copies of one 1M journal, each
warmed by a first note of its revision) instead of importing a generated campaign.

Usage: python bench/oneshot_pairs.py EVENTS [--base main] [--rounds 7] [--write note|ruling]
       [--journals BASE_DB THIS_DB]
"""

from __future__ import annotations

import argparse
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import generate  # noqa: E402
from revisions import revision_envs  # noqa: E402

DECODE = """
import statistics, sys, time
from yarnlog.app.snapshots import STATE_KINDS, decode_state, encode_state, state_codec
from yarnlog.app.state_snapshots import load_snapshot
from yarnlog.persistence.factory import open_store
store, campaign = open_store(sys.argv[1], create=False), sys.argv[2]
codec, _ = state_codec("yarn")
kept = max((s for s in store.snapshots(campaign, data=False) if s.kind in STATE_KINDS), key=lambda s: s.sequence)
snapshot = load_snapshot(store, campaign, kept.kind, kept.fingerprint)
try:  # a revision that keeps a snapshot's pieces as rows of their own, read by key
    from yarnlog.app.snapshots import encode_state_rows, read_state
    from yarnlog.app.state_snapshots import piece_fetcher
except ImportError:
    read_state = None
if read_state is not None:
    fetch = piece_fetcher(store, campaign)
    state, timeline = read_state(codec, snapshot.data, fetch)
    rows = encode_state_rows(codec, state, timeline, fetch)
    size = len(rows.header) + sum(map(len, rows.pieces.values()))
    decode = lambda **options: read_state(codec, snapshot.data, fetch, **options)
else:
    state, timeline = decode_state(codec, snapshot.data)
    text = encode_state(codec, state, timeline)  # as this revision writes it
    size = len(text)
    decode = lambda **options: decode_state(codec, text, **options)
del state, timeline
def timed(**options):
    times = []
    for _ in range(5):
        start = time.process_time()
        decoded = decode(**options)
        times.append(time.process_time() - start)
        del decoded
    return statistics.median(times)
try:  # a revision that reads a snapshot's pieces when first read: what reading one costs before that
    deferred = f"{timed(deferred=True):.3f}"
except TypeError:
    deferred = "-"
print(f"{timed():.3f} {size} {deferred}")
"""

def main() -> None:
    scratch = Path(tempfile.mkdtemp(prefix="yarnlog-oneshot-"))
    try:
        run(scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)  # three copies of the campaign: up to gigabytes at 1M


def run(scratch: Path) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("events", type=int)
    parser.add_argument("--base", default="main", help="the revision to compare with (default main)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--write", choices=("note", "ruling"), default="note", help="the one-shot write timed")
    parser.add_argument("--journals", nargs=2, metavar=("BASE_DB", "THIS_DB"), type=Path,
                        help="use these SQLite journals of EVENTS events (each revision's own, written to in "
                             "place) instead of importing a generated campaign (1M takes long to import)")
    args = parser.parse_args()
    python = sys.executable
    envs = revision_envs(scratch, args.base, "yarnlog")
    env = envs["this"]
    campaign = f"bench-{args.events}"
    dbs = {}
    if args.journals:
        dbs = {"base": args.journals[0].resolve(), "this": args.journals[1].resolve()}
    else:
        source = generate.campaign_file(args.events)
        first = scratch / "campaign.db"
        subprocess.run([python, "-m", "yarnlog", "--db", str(first), "import", "--without-trailer", str(source)],
                       env=env, cwd=scratch, check=True, capture_output=True)
        for name in ("base", "this"):
            dbs[name] = scratch / f"{name}.db"
            with sqlite3.connect(first) as src, sqlite3.connect(dbs[name]) as dst:
                src.backup(dst)

    writes = {"base": 0, "this": 0}

    def argv(name: str) -> list[str]:
        if name == "sqlmodel":
            return [python, "-c", "import sqlmodel"]
        command = [python, "-m", "yarnlog", "--db", str(dbs[name]), "-c", campaign]
        if args.write == "note":
            return [*command, "note", "a one-shot note"]
        writes[name] += 1
        payer, payee = ("kitty", "Ana") if writes[name] % 2 else ("Ana", "kitty")
        return [*command, "ruling", "tokens", "--from", payer, "--to", payee, "--amount", "1", "--reason", "bench"]

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
    print(f"{args.events:,} events, SQLite; one-shot `{args.write}`, CPU, median of {args.rounds} interleaved rounds")
    print(f"  import sqlmodel   {median['sqlmodel']:.3f} s")
    for name, label in (("base", args.base), ("this", "this tree")):
        print(f"  {args.write}, {label:<11} {median[name]:.3f} s  x{median[name] / median['sqlmodel']:.2f}")
    for name, label in (("base", args.base), ("this", "this tree")):
        out = subprocess.run([python, "-c", DECODE, str(dbs[name]), campaign], env=envs[name], cwd=scratch,
                             check=True, capture_output=True, text=True).stdout.split()
        later = f"; {out[2]} s with its pieces decoded when first read" if out[2] != "-" else ""
        print(f"  decoding the state snapshot, {label}: {float(out[0]):.3f} s CPU ({int(out[1]) / 1e6:.1f} MB){later}")


if __name__ == "__main__":
    main()
