"""What a one-shot command pays to start, and what a console move pays, each beside its baseline (not a test).

Issue 10: ``yarnlog --help`` and ``yarnlog tokens`` on the sample campaign within 1.3x of
``python -c "import sqlmodel"`` (the stack's own start-up), and, in ``yarnlog play``, Enter to the
updated status line under 20 ms on 10K and 100K events, not growing with the history.

**Start-up.** Fresh processes, each timed from spawn to exit (wall, and the CPU of the child from
``getrusage``), run in rounds: every round runs each command once, so a change in the machine's
load touches them all alike; the figure is the median of ``--runs`` rounds, and the ratio is to
the baseline's median of the same run. The commands:

- ``python -c pass`` (a bare interpreter) and ``python -c "import sqlmodel"`` (the baseline);
- ``yarnlog --help`` in a folder with no journal (outside a campaign: the help lists the core
  verbs and which system adds which);
- ``yarnlog tokens`` and ``yarnlog tokens --json`` on the sample campaign
  (``journals/lantern-harbor.jsonl`` imported into a fresh SQLite journal; the command is run once
  before timing, so the timed reads are a stored view's, as every read after a move is).

The children run with the bytecode of every module compiled once beforehand, as an installed
package has it (``PYTHONPYCACHEPREFIX`` points at a scratch folder and ``PYTHONDONTWRITEBYTECODE``
is dropped, for the baseline and yarnlog alike): otherwise yarnlog's own source, unlike the
installed libraries', would be compiled again in every process.

**Console.** ``bench/console.py``'s measurement for each of ``--console-sizes``: the median, 95th
percentile and maximum of Enter to the updated status line for a move (``Console.dispatch`` and
the toolbar's redraw), beside a raw INSERT + COMMIT of one event on the same database.

Usage: python bench/startup.py [--runs 15] [--console-sizes 10K,100K] [--moves 40] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SAMPLE = HERE.parent / "journals" / "lantern-harbor.jsonl"
TARGET_RATIO = 1.3  # of import sqlmodel, for a one-shot command (issue 10)
TARGET_MOVE_MS = 20.0  # Enter to status line in the console (issue 10)


def yarnlog_command() -> list[str]:
    """The installed ``yarnlog`` script beside this interpreter, else ``python -m yarnlog``."""
    script = Path(sys.executable).with_name("yarnlog")
    return [str(script)] if script.exists() else [sys.executable, "-m", "yarnlog"]


def child_env(pycache: Path) -> dict[str, str]:
    """The children's environment: bytecode kept in ``pycache``, no journal or campaign named."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "YARNLOG_DB", "YARNLOG_CAMPAIGN", "YARNLOG_VERBOSE")}
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def run_once(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, str]:
    """Wall and CPU seconds of one fresh process, and what it printed; fails loudly if it failed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.strip()[-500:]}")
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return wall, cpu, done.stdout


def start_up(runs: int, scratch: Path) -> dict:
    """The start-up figures: each command's median wall and CPU over ``runs`` interleaved rounds."""
    env = child_env(scratch / "pycache")
    yarnlog = yarnlog_command()
    db = str(scratch / "lantern-harbor.db")
    run_once([*yarnlog, "--db", db, "import", str(SAMPLE)], env, scratch)
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "import sqlmodel": [sys.executable, "-c", "import sqlmodel"],
        "yarnlog --help": [*yarnlog, "--help"],
        "yarnlog tokens": [*yarnlog, "--db", db, "tokens"],
        "yarnlog tokens --json": [*yarnlog, "--db", db, "tokens", "--json"],
    }
    for argv in commands.values():  # untimed: compiles the bytecode, keeps the tokens view
        run_once(argv, env, scratch)
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            wall, cpu, out = run_once(argv, env, scratch)
            if name == "yarnlog tokens --json":
                json.loads(out)  # a board, not an error
            samples[name].append((wall, cpu))
    result = {}
    for name, pairs in samples.items():
        walls, cpus = [w for w, _ in pairs], [c for _, c in pairs]
        result[name] = {"wall": statistics.median(walls), "cpu": statistics.median(cpus),
                        "min": min(walls), "max": max(walls), "runs": len(pairs)}
    return result


def console_moves(sizes: list[str], moves: int) -> list[dict]:
    """bench/console.py's Enter -> status line for each size, beside its INSERT + COMMIT floor."""
    sys.path.insert(0, str(HERE))
    import console  # bench/console.py

    with tempfile.TemporaryDirectory(prefix="yarnlog-startup-console-") as scratch:
        return [console.measure(console.SIZES[size], moves, Path(scratch)) for size in sizes]


def machine() -> str:
    load = os.getloadavg()
    return (f"python {platform.python_version()} · SQLite {sqlite3.sqlite_version} · {os.cpu_count()} CPUs · "
            f"load average {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f}")


def report(start: dict, console: list[dict], runs: int, before: str, after: str) -> None:
    base = start["import sqlmodel"]
    print("yarnlog start-up · " + before)
    print(f"\none-shot commands: fresh processes, median of {runs} interleaved rounds (target: within "
          f"{TARGET_RATIO}x of import sqlmodel)")
    print(f"  {'command':<24}{'wall':>10}{'ratio':>8}{'CPU':>10}{'ratio':>8}   wall range")
    for name, r in start.items():
        print(f"  {name:<24}{r['wall'] * 1000:>8.0f}ms{r['wall'] / base['wall']:>7.2f}x"
              f"{r['cpu'] * 1000:>8.0f}ms{r['cpu'] / base['cpu']:>7.2f}x"
              f"   {r['min'] * 1000:.0f}-{r['max'] * 1000:.0f} ms")
    for name in ("yarnlog --help", "yarnlog tokens"):
        wall, cpu = start[name]["wall"] / base["wall"], start[name]["cpu"] / base["cpu"]
        met = "met" if max(wall, cpu) <= TARGET_RATIO else "NOT met"
        print(f"  {name}: x{wall:.2f} wall, x{cpu:.2f} CPU of import sqlmodel: {met}")
    if console:
        print(f"\nyarnlog play: Enter -> updated status line for a move (SQLite; ms: median / p95 / max; "
              f"target: under {TARGET_MOVE_MS:.0f} ms, flat in the history)")
        print(f"  {'events':>8}  {'move':>24}  {'floor INSERT+COMMIT':>24}  {'move/floor':>10}")
        for r in console:
            def cell(d: dict) -> str:
                return f"{d['median']:6.2f} / {d['p95']:6.2f} / {d['max']:6.2f}"

            print(f"  {r['events']:>8,}  {cell(r['move']):>24}  {cell(r['floor']):>24}  "
                  f"{r['move']['median'] / r['floor']['median']:>9.1f}x")
        medians = [r["move"]["median"] for r in console]
        met = "met" if max(medians) < TARGET_MOVE_MS else "NOT met"
        growth = f", x{medians[-1] / medians[0]:.2f} from the smallest to the largest" if len(medians) > 1 else ""
        print(f"  median move {' / '.join(f'{m:.1f}' for m in medians)} ms{growth}: {met}")
        print("  leaving the console (the stored views brought to the head, once): "
              + ", ".join(f"{r['leave_ms']:.0f} ms at {r['events']:,} events" for r in console))
    print("\n" + "at the end: " + after)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15, help="rounds of fresh processes (median)")
    parser.add_argument("--console-sizes", default="10K,100K", help="comma-separated: 1K, 10K, 100K, 1M; '' skips")
    parser.add_argument("--moves", type=int, default=40, help="console moves timed per size")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    before = machine()
    with tempfile.TemporaryDirectory(prefix="yarnlog-startup-") as scratch:
        start = start_up(args.runs, Path(scratch))
    sizes = [s.strip() for s in args.console_sizes.split(",") if s.strip()]
    console = console_moves(sizes, args.moves) if sizes else []
    after = machine()
    if args.json:
        print(json.dumps({"machine": {"before": before, "after": after}, "start_up": start, "console": console},
                         indent=2))
        return
    report(start, console, args.runs, before, after)


if __name__ == "__main__":
    main()
