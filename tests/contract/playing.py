"""The ruleset contract suite's machinery: every installed ruleset, its contract material, its
session played through the command line, and the verbs its help lists (see README.md).

Rulesets are found the way the journal finds them, through the ``yarnlog.rulesets`` entry points;
commands run through the ``yarnlog`` console script, in this process. Nothing here imports a
ruleset or a module of the command line by its path.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import re
import shlex
import sys
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import entry_points
from itertools import count
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
#: Where a ruleset's contract material lives: ``tests/rulesets/<name, dashes as underscores>/contract.py``.
MATERIAL = ROOT / "tests" / "rulesets"
#: Exit codes the suite relies on (README.md of the project): 3 is a move the rules refuse.
REFUSED = 3
WIDTH = 80


def installed_rulesets() -> list[str]:
    """The name of every ruleset installed, as the journal finds them."""
    return sorted({point.name for point in entry_points(group="yarnlog.rulesets")})


def material_path(name: str) -> Path:
    return MATERIAL / name.replace("-", "_") / "contract.py"


@cache
def material(name: str) -> ModuleType | None:
    """The contract material of ruleset ``name``, or None when it supplies none."""
    path = material_path(name)
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location(f"contract_material_{name.replace('-', '_')}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def _yarnlog():
    """The ``yarnlog`` console script's function, as installed."""
    (point,) = entry_points(group="console_scripts", name="yarnlog")
    return point.load()


@dataclass(frozen=True)
class Run:
    args: tuple[str, ...]
    code: int
    out: str
    err: str

    def __str__(self) -> str:
        return f"yarnlog {shlex.join(self.args)} -> {self.code}: {self.err.strip()[:300]!r}"


def run(db: Path, *args: str, stdin: bytes = b"", columns: int | None = None) -> Run:
    """``yarnlog --db DB ARGS`` in this process: what it exits with and prints."""
    out, err = io.StringIO(), io.StringIO()
    saved, cwd, env = (sys.argv, sys.stdin), os.getcwd(), os.environ.get("COLUMNS")
    sys.argv = ["yarnlog", "--db", str(db), *args]
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    os.chdir(db.parent)
    if columns is not None:
        os.environ["COLUMNS"] = str(columns)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                _yarnlog()()
                code = 0
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else 1
    finally:
        (sys.argv, sys.stdin), _ = saved, os.chdir(cwd)
        if columns is not None:
            if env is None:
                os.environ.pop("COLUMNS", None)
            else:
                os.environ["COLUMNS"] = env
    return Run(tuple(args), code, out.getvalue(), err.getvalue())


# -- the session script -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Line:
    """One line of a session script: a command that must succeed, or (``refused``) one the rules refuse."""

    args: tuple[str, ...]
    refused: bool = False


def script(text: str) -> list[Line]:
    """The lines of a session script (README.md): ``yarnlog ARGS`` each, ``!`` before a refused one,
    ``#`` comments, a backslash at the end of a line continuing it."""
    lines = []
    for raw in text.replace("\\\n", " ").splitlines():
        words = shlex.split(raw, comments=True)
        if not words:
            continue
        refused = words[0] == "!"
        words = words[1:] if refused else words
        assert words[:1] == ["yarnlog"], f"a session line starts with 'yarnlog' (or '! yarnlog'): {raw!r}"
        lines.append(Line(tuple(words[1:]), refused))
    return lines


@dataclass
class Refusal:
    """A refused line as played: its one line, with ``--json`` and with ``--verbose``, and whether the
    journal's export was the same after each try."""

    plain: Run
    as_json: Run
    verbose: Run
    unchanged: bool


@dataclass
class Played:
    """A ruleset's session as played once: the journal, each line's run, the refusals, the export."""

    name: str
    material: ModuleType
    db: Path
    workdir: Path
    runs: list[Run] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)
    planted: list[tuple[str, str | None]] = field(default_factory=list)  # (event id, secret words)
    export: str = ""
    _fresh: count = field(default_factory=count)

    def fresh_db(self) -> Path:
        """A new, empty journal's path in the session's folder."""
        return self.workdir / f"fresh-{next(self._fresh)}.db"

    def run(self, *args: str, **kw) -> Run:
        return run(self.db, *args, **kw)


def _export(db: Path) -> str:
    done = run(db, "export")
    assert done.code == 0, done
    return done.out


def play(name: str, workdir: Path) -> Played:
    """Play ruleset ``name``'s session script, trying each refused line (plain, ``--json`` and
    ``--verbose``), then plant its GM-only events."""
    found = material(name)
    assert found is not None
    played = Played(name, found, workdir / "session.db", workdir)
    for line in script(found.SESSION):
        if not line.refused:
            done = played.run(*line.args, "--json")
            assert done.code == 0, f"{name}'s session: {done}"
            played.runs.append(done)
            continue
        before = _export(played.db)
        plain = played.run(*line.args)
        assert plain.code == REFUSED, f"{name}'s session: a line marked '!' is not refused by a rule: {plain}"
        tries = [plain, played.run(*line.args, "--json"), played.run("--verbose", *line.args)]
        played.refusals.append(Refusal(*tries, unchanged=_export(played.db) == before))
    played.export = _export(played.db)
    for args, secret in getattr(found, "PLANTED", ()):
        done = played.run(*shlex.split(args), "--json")
        assert done.code == 0, f"{name}'s planted GM-only event: {done}"
        hidden = [event["event_id"] for event in json.loads(done.out) if event["visibility"] == "gm"]
        assert hidden, f"{name}'s planted line recorded no GM-only event: {done}"
        played.planted.extend((event_id, secret) for event_id in hidden)
    return played


# -- the verbs, as the help lists them --------------------------------------------------------------

_PANEL = re.compile(r"^╭─ (.+?) ─")
_ROW = re.compile(r"^│ ([a-z][a-z0-9-]*)(?=\s)")


def help_rows(text: str) -> tuple[list[str], list[str]]:
    """(the commands, the options) a ``--help`` lists, by their names."""
    commands, options, panel = [], [], ""
    for row in text.splitlines():
        title = _PANEL.match(row)
        if title:
            panel = title.group(1)
            continue
        if panel in ("Options", "Arguments"):
            options += re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", row[:30])
        elif panel:
            name = _ROW.match(row)
            if name:
                commands.append(name.group(1))
    return commands, options


def verbs(played: Played) -> dict[tuple[str, ...], list[str]]:
    """Every verb the played campaign offers (a group's subcommands, depth first), with its options."""
    found: dict[tuple[str, ...], list[str]] = {}

    def walk(path: tuple[str, ...]) -> None:
        shown = played.run(*path, "--help", columns=200)
        assert shown.code == 0, shown
        commands, options = help_rows(shown.out)
        if not commands and path:
            found[path] = options
        for name in commands:
            walk((*path, name))

    walk(())
    return found
