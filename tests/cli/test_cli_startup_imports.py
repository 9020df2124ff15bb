"""A one-shot command imports what it uses: its campaign's ruleset, not every installed one; no web
server, template engine, console or PostgreSQL driver for a note on SQLite (issue 27's start-up).

Each command runs in a fresh process, which writes the modules it imported when it exits; the test
asserts which are there, never how long anything took.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from yarnlog.core.installed import DEFAULT_GROUP, RULESETS, installed_entry_points
from yarnlog.core.ruleset import get_ruleset

pytestmark = pytest.mark.slow  # fresh processes

#: Runs the command line as the ``yarnlog`` script does, then writes ``sys.modules`` to the file named first.
_RUN = """
import atexit, json, sys
out = sys.argv[1]
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
sys.argv = ["yarnlog", *sys.argv[2:]]
from yarnlog.cli.main import main
main()
"""

#: Libraries a note on SQLite has no use for: the players' page, templates and Markdown, the console,
#: the dice odds, the other store's driver, rich tables (a note answers in one line), signatures.
NOT_FOR_A_NOTE = ("starlette", "uvicorn", "jinja2", "markdown", "nh3", "prompt_toolkit", "icepool", "psycopg",
                  "rich", "nacl", "yarnlog.web", "yarnlog.render")


def _package(ruleset: str) -> str:
    """The package of an installed ruleset (``yarnlog.rulesets.yarn`` for ``yarn``), named without importing it."""
    return RULESETS[ruleset].split(":")[0].rpartition(".")[0]


def _imported(tmp_path: Path, *args: str) -> set[str]:
    out = tmp_path / "modules.json"
    env = {k: v for k, v in os.environ.items() if k not in ("YARNLOG_CAMPAIGN", "YARNLOG_DEBUG")}
    env["YARNLOG_DB"] = str(tmp_path / "journal.db")
    done = subprocess.run([sys.executable, "-c", _RUN, str(out), *args], env=env, cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return set(json.loads(out.read_text(encoding="utf-8")))


def _under(modules: set[str], package: str) -> list[str]:
    return sorted(m for m in modules if m == package or m.startswith(package + "."))


def test_a_note_imports_its_rulesets_package_and_no_other(harbor_scene, tmp_path):
    modules = _imported(tmp_path, "note", "the fog lifts")
    assert _under(modules, "yarnlog.rulesets.yarn.parts")  # it decides against the campaign's state
    others = [name for name in RULESETS if name != "yarn"]
    assert others and all(_under(modules, _package(name)) == [] for name in others)


def test_a_note_imports_no_web_server_template_engine_console_or_other_driver(harbor_scene, tmp_path):
    modules = _imported(tmp_path, "note", "the fog lifts")
    assert {name: _under(modules, name) for name in NOT_FOR_A_NOTE} == dict.fromkeys(NOT_FOR_A_NOTE, [])


def test_tokens_reads_the_stored_view_without_the_rulesets_parts(harbor_scene, tmp_path):
    _imported(tmp_path, "tokens", "--json")  # the first read may store the view
    modules = _imported(tmp_path, "tokens", "--json")
    assert _under(modules, "yarnlog.rulesets.yarn.parts") == []
    assert _under(modules, "yarnlog.core.ruleset") == [] and _under(modules, "yarnlog.core.state") == []


def test_init_without_a_ruleset_imports_the_default_alone(tmp_path):
    modules = _imported(tmp_path, "init", "harbor", "--title", "Harbor", "--gm", "Maya")
    default = [name for name in RULESETS if get_ruleset(name).default]
    assert default == ["yarn"] and _under(modules, _package("yarn"))
    assert all(_under(modules, _package(name)) == [] for name in RULESETS if name != "yarn")


def test_the_package_metadata_names_the_ruleset_that_claims_the_default():
    declared = sorted(name for name, _ in installed_entry_points(DEFAULT_GROUP))
    assert declared == sorted(name for name in RULESETS if get_ruleset(name).default)


#: Yarn's parts imported when first used (``LazyPart``): a note, a call or a petition uses none.
LAZY_PARTS = ("yarnlog.rulesets.yarn.parts.combat", "yarnlog.rulesets.yarn.parts.procedure",
              "yarnlog.rulesets.yarn.parts.powers")

#: Keeps a state snapshot of the sample campaign at its last event, as a long campaign has one near its head.
_SNAPSHOT = """
import sys
from yarnlog.app.journal import Journal
from yarnlog.persistence.factory import open_store
store = open_store(sys.argv[1])
Journal(store, snapshot_every=1).state("lantern")
store.close()
"""


def test_a_note_on_a_campaign_read_from_its_snapshot_imports_no_fight_roll_or_power(tmp_path, monkeypatch):
    """The sample campaign has fights, rolls and powers' events, all before its snapshot: a note folds
    none of them, so neither their parts nor the classes of their slices (decoded when first read) are
    imported. ``verify`` then reads every event (their parts imported as their types are met) and finds
    the snapshot the note started from sound."""
    monkeypatch.setenv("YARNLOG_CACHE_DIR", str(tmp_path / "cache"))  # the codec kept by the first process
    sample = Path(__file__).resolve().parents[2] / "journals" / "lantern-harbor.jsonl"
    _imported(tmp_path, "import", str(sample))
    subprocess.run([sys.executable, "-c", _SNAPSHOT, str(tmp_path / "journal.db")], check=True,
                   capture_output=True, text=True)
    modules = _imported(tmp_path, "-c", "lantern", "note", "the fog lifts")
    assert _under(modules, "yarnlog.rulesets.yarn.parts.drama")  # it decides against the campaign's state
    assert {package: _under(modules, package) for package in LAZY_PARTS} == dict.fromkeys(LAZY_PARTS, [])
    checked = _imported(tmp_path, "-c", "lantern", "verify", "--snapshots")  # every event typed in a fresh process
    assert "yarnlog.rulesets.yarn.parts.procedure.part" in checked
