"""One-shot commands of this tree beside another revision's and ``import sqlmodel``, with what each
imports (not a test).

Issue 27 asks a one-shot write (``note``, ``roll``, ``petition``, ``call``) and a read (``tokens``,
``sheet``, ``ledger --participant``, ``recap --episode N``) within 1.3x the CPU of ``python -c
"import sqlmodel"``, on SQLite and PostgreSQL. On a shared machine only figures taken side by side
compare: this runs, in rounds, for each command a fresh ``import sqlmodel``, the command of ``--base``
(``git archive`` of that revision's package and templates, put first on ``PYTHONPATH``) and the
command of this tree, each revision on its own copy of a generated campaign of EVENTS events
(``bench/generate.py``; its last scene is in play). It prints the median CPU of each (the children's
``getrusage``) and the ratios to the floor of the same rounds.

The writes ``note`` and ``roll``; ``call`` and ``petition`` (a call recorded under a GM override, then
a petition refused that ends that scene: a petition not run just after a call has one run before it,
untimed, the two players' characters taking turns so that the
tokens go back and forth); the reads ``tokens``, ``sheet``, ``ledger`` (``--participant Ana``) and
``recap`` (``--episode 2``). ``--pg URL`` runs them on PostgreSQL (a database of that server per
revision, copied from one imported database). ``--importtime`` adds, per command and revision, what
it imports beyond the modules of ``import sqlmodel`` (``python -X importtime``, self times summed by
package, median of three: shares only, the tracing slows every import alike).
``bench/oneshot_pairs.py`` times a note the same way, and the decoding of the state snapshot.

``--no-base [COMMANDS]`` runs those commands (all if none named) of this tree alone beside ``import
sqlmodel``, not ``--base``'s (for the reads that take minutes at 100K);
``--warmup N`` sets the untimed rounds that come first (default 2).

Usage: python bench/startup_pairs.py EVENTS [--base main] [--rounds 7] [--commands note,tokens,...]
       [--pg URL] [--importtime] [--no-base [ledger,recap]] [--warmup 2]
"""

from __future__ import annotations

import argparse
import collections
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
from revisions import revision_envs  # noqa: E402

#: The one-shot commands on the generated campaign (its last scene is in play), by name; a list of
#: several is taken in turn, one a round (``call`` and ``petition`` keep the table's tokens moving
#: between two players whose characters are both in the scene).
COMMANDS: dict[str, list[list[str]]] = {
    "note": [["note", "a one-shot note"]],
    "roll": [["roll", "Nell Harrow", "--trait", "Tavern Keeper", "--difficulty", "hard", "--faces", "6,4,3"]],
    "call": [["call", "Eli", "--cast", "Tobias Wren,Nell Harrow", "--mode", "dramatic", "--override", "bench"],
             ["call", "Fay", "--cast", "Tobias Wren,Nell Harrow", "--mode", "dramatic", "--override", "bench"]],
    "petition": [["petition", "refused", "-p", "Tobias Wren", "-g", "Nell Harrow"],
                 ["petition", "refused", "-p", "Nell Harrow", "-g", "Tobias Wren"]],
    "tokens": [["tokens"]],
    "sheet": [["sheet", "Nell Harrow"]],
    "ledger": [["ledger", "--participant", "Ana"]],
    "recap": [["recap", "--episode", "2"]],
}
#: A command that needs another run just before it, by the same revision: a petition ends the scene
#: a ``call`` opened with both its characters (the generated campaign's last scene has neither).
#: When that command did not come just before (``--commands`` without ``call``, or with it after
#: ``petition``), it is run first, untimed.
SETUP = {"petition": "call"}
REVISIONS = ("sqlmodel", "base", "this")


def _pg_databases(url: str, names: list[str], template: str | None = None) -> list[str]:
    """Fresh databases ``names`` on the server of ``url`` (copies of ``template`` if given); their URLs."""
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as conn:
        for name in names:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    return [url.rsplit("/", 1)[0] + "/" + name for name in names]


def _by_package(stderr: str) -> dict[str, int]:
    """``-X importtime``'s self times (µs) by module."""
    found = {}
    for line in stderr.splitlines():
        if line.startswith("import time:") and "self [us]" not in line:
            self_us, _, name = line.split(":", 1)[1].split("|")
            found[name.strip()] = int(self_us)
    return found


def _group(module: str) -> str:
    """The package a module is counted under: a ruleset's, a yarnlog layer, or a library."""
    parts = module.split(".")
    if parts[0] != "yarnlog":
        return parts[0]
    return ".".join(parts[:3] if len(parts) > 2 and parts[1] == "rulesets" else parts[:2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("events", type=int)
    parser.add_argument("--base", default="main", help="the revision to compare with (default main)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--commands", default="note", help=f"comma-separated, of: {', '.join(COMMANDS)}")
    parser.add_argument("--pg", help="a PostgreSQL URL: each revision works on its own database of that server")
    parser.add_argument("--importtime", action="store_true", help="what each command imports, by package")
    parser.add_argument("--no-base", nargs="?", const="*", default="",
                        help="commands (all if none named) run by this tree alone beside import sqlmodel, "
                        "not by --base")
    parser.add_argument("--warmup", type=int, default=2,
                        help="untimed rounds first, each revision keeping its snapshot and bytecode (default 2)")
    args = parser.parse_args()
    commands = args.commands.split(",")
    unknown = [c for c in commands if c not in COMMANDS]
    if unknown:
        parser.error(f"unknown commands {unknown}: choose among {', '.join(COMMANDS)}")
    python = sys.executable
    scratch = Path(tempfile.mkdtemp(prefix="yarnlog-oneshot-"))
    envs = revision_envs(scratch, args.base, "yarnlog", "templates")
    env = envs["this"]
    campaign = f"bench-{args.events}"
    source = generate.campaign_file(args.events)
    dbs: dict[str, str] = {}
    if args.pg:
        stem = f"yarnlog_pairs_{args.events}"
        (first,) = _pg_databases(args.pg, [f"{stem}_first"])
        subprocess.run([python, "-m", "yarnlog", "--db", first, "import", "--without-trailer", str(source)],
                       env=env, cwd=scratch, check=True, capture_output=True)
        made = _pg_databases(args.pg, [f"{stem}_base", f"{stem}_this"], template=f"{stem}_first")
        dbs = dict(zip(("base", "this"), made))
    else:
        first_file = scratch / "campaign.db"
        subprocess.run([python, "-m", "yarnlog", "--db", str(first_file), "import", "--without-trailer", str(source)],
                       env=env, cwd=scratch, check=True, capture_output=True)
        for name in ("base", "this"):
            dbs[name] = str(scratch / f"{name}.db")
            with sqlite3.connect(first_file) as src, sqlite3.connect(dbs[name]) as dst:
                src.backup(dst)
    turns: collections.Counter[tuple[str, str]] = collections.Counter()
    last: dict[str, str] = {}  # the command each revision ran last

    def argv(name: str, command: str, flags: tuple[str, ...] = ()) -> list[str]:
        if name == "sqlmodel":
            return [python, *flags, "-c", "import sqlmodel"]
        variants = COMMANDS[command]
        words = variants[turns[(name, command)] % len(variants)]
        turns[(name, command)] += 1
        return [python, *flags, "-m", "yarnlog", "--db", dbs[name], "-c", campaign, *words]

    def run(name: str, command: str, flags: tuple[str, ...] = ()) -> tuple[float, str]:
        setup = SETUP.get(command)
        if name != "sqlmodel" and setup and last.get(name) != setup:
            run(name, setup)  # untimed: its own figure is not kept
        last[name] = command
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(argv(name, command, flags), env=envs[name], cwd=scratch, capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise SystemExit(f"{name} {command}: {done.stderr.strip()[-400:]}")
        return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime), done.stderr

    alone = set(commands if args.no_base == "*" else args.no_base.split(",") if args.no_base else ())

    def revisions_of(command: str) -> tuple[str, ...]:
        return tuple(n for n in REVISIONS if not (command in alone and n == "base"))

    for _ in range(args.warmup):  # each revision keeps a snapshot of its own code, and its bytecode
        for command in commands:
            for name in revisions_of(command)[1:]:
                run(name, command)
    figures = {(name, command): [] for command in commands for name in revisions_of(command)}
    for _ in range(args.rounds):
        for command in commands:
            for name in revisions_of(command):
                figures[(name, command)].append(run(name, command)[0])
    median = {key: statistics.median(values) for key, values in figures.items()}
    store = "PostgreSQL" if args.pg else "SQLite"
    print(f"{args.events:,} events, {store}; one-shot commands, CPU, median of {args.rounds} interleaved rounds")
    print(f"  {'command':<10} {'import sqlmodel':>16} {args.base:>16} {'this tree':>16}")
    for command in commands:
        floor = median[("sqlmodel", command)]
        cells = [f"{median[(n, command)]:.3f} s x{median[(n, command)] / floor:.2f}"
                 if n in revisions_of(command) else "-" for n in ("base", "this")]
        print(f"  {command:<10} {floor:>14.3f} s {cells[0]:>16} {cells[1]:>16}")
    if args.importtime:
        print("What each command imports beyond `import sqlmodel` (python -X importtime, self times summed by "
              "package, median of three; shares of the excess)")
        floor_modules = _by_package(run("sqlmodel", "", ("-X", "importtime"))[1])
        totals: dict[tuple[str, str], dict[str, list[int]]] = collections.defaultdict(
            lambda: collections.defaultdict(list))
        for _ in range(3):  # in the rounds' order: a petition ends the scene the call before it opened
            for command in commands:
                for name in revisions_of(command)[1:]:
                    grouped: collections.Counter[str] = collections.Counter()
                    for module, self_us in _by_package(run(name, command, ("-X", "importtime"))[1]).items():
                        if module not in floor_modules:
                            grouped[_group(module)] += self_us
                    for group, self_us in grouped.items():
                        totals[(name, command)][group].append(self_us)
        for command in commands:
            for name in revisions_of(command)[1:]:
                shares = {group: statistics.median(v + [0] * (3 - len(v)))
                          for group, v in totals[(name, command)].items()}
                excess = sum(shares.values())
                top = sorted(shares.items(), key=lambda kv: -kv[1])[:7]
                label = args.base if name == "base" else "this tree"
                print(f"  {command}, {label}: {excess / 1000:.0f} ms beyond sqlmodel's modules: "
                      + ", ".join(f"{group} {100 * us / excess:.0f}%" for group, us in top))


if __name__ == "__main__":
    main()
