"""Shared fixtures: journals on the in-memory store, and every backend for the tests about storage.

Rules, parts and the journal service are tested on the in-memory store (``store``, ``journal``,
``campaign``): it keeps the same guarantees as the databases, which the store contract suite
checks on all three (``any_store``). Tests about the databases themselves (triggers, several
processes, the interchange round trip) take ``db_url``/``sql_store``: SQLite and PostgreSQL.

PostgreSQL comes from YARNLOG_TEST_PG_URL (``.ci/run`` starts a server and sets it). Each test
gets a schema of its own, so tests that drop triggers or tamper with rows stay isolated.
Without the URL the PostgreSQL cases are skipped, unless YARNLOG_REQUIRE_PG=1 (as in CI),
where a missing server fails the run instead of passing it silently.
"""

from __future__ import annotations

import os
import sys
import uuid
from urllib.parse import quote

import pytest
from fold_routes import checking_evolve, checking_thaw
from hypothesis import HealthCheck, settings
from sqlalchemy import create_engine, text

from yarnlog.app.journal import Journal
from yarnlog.cli.context import close_journal
from yarnlog.cli.main import main
from yarnlog.persistence.factory import MEMORY_URL, database_url, open_store
from yarnlog.persistence.memory import MemoryStore
from yarnlog.persistence.protocol import EventStore
from yarnlog.rulesets.yarn.ruleset import RULESET as YARN

#: Every property test runs without Hypothesis's 200 ms deadline and its "too slow" health check: on a
#: machine shared by many runs an example's time says nothing of the rule it checks, and a property
#: that failed only for being slow made the suite flaky. The examples and what each asserts are the
#: same; a test's own ``@settings`` still sets its number of examples.
settings.register_profile("yarnlog", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("yarnlog")

PG_URL = os.environ.get("YARNLOG_TEST_PG_URL")
REQUIRE_PG = os.environ.get("YARNLOG_REQUIRE_PG") == "1"


#: The PostgreSQL case of a backend fixture: marked ``slow`` (``pytest -m "not slow"`` leaves out every
#: test that needs the server, as it does the tests marked ``postgres``).
POSTGRESQL = pytest.param("postgresql", marks=pytest.mark.slow)


def pytest_collection_modifyitems(items) -> None:
    """A test marked ``postgres`` is slow too: the quick run needs no server."""
    for item in items:
        if item.get_closest_marker("postgres"):
            item.add_marker(pytest.mark.slow)


def _postgres_url(request) -> str:
    if not PG_URL:
        if REQUIRE_PG:
            pytest.fail("YARNLOG_REQUIRE_PG=1 but YARNLOG_TEST_PG_URL is not set")
        pytest.skip("no PostgreSQL server (set YARNLOG_TEST_PG_URL)")
    base = database_url(PG_URL)
    schema = f"t_{uuid.uuid4().hex[:16]}"
    admin = create_engine(base)
    with admin.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))

    def drop() -> None:
        with admin.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()

    request.addfinalizer(drop)
    sep = "&" if "?" in base else "?"
    return f"{base}{sep}options={quote(f'-csearch_path={schema}')}"


def _backend_url(request, tmp_path) -> str:
    if request.param == "memory":
        return MEMORY_URL
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'journal.db'}"
    return _postgres_url(request)


@pytest.fixture(autouse=True, scope="session")
def yarn_fold_routes_checked():
    """Every event folded under Yarn in any test also checks its routing (see ``fold_routes.py``)."""
    routed, thawed = YARN.rules.evolve, YARN.rules.thaw
    object.__setattr__(YARN.rules, "evolve", checking_evolve)
    object.__setattr__(YARN.rules, "thaw", checking_thaw)
    yield
    object.__setattr__(YARN.rules, "evolve", routed)
    object.__setattr__(YARN.rules, "thaw", thawed)


@pytest.fixture(params=["sqlite", POSTGRESQL])
def db_url(request, tmp_path) -> str:
    """A fresh, empty journal database URL on each database backend."""
    return _backend_url(request, tmp_path)


@pytest.fixture
def sql_store(db_url) -> EventStore:
    """A fresh store on each database backend (SQLite, PostgreSQL)."""
    s = open_store(db_url)
    yield s
    s.close()


@pytest.fixture(params=["memory", "sqlite", POSTGRESQL])
def any_store(request, tmp_path) -> EventStore:
    """A fresh store on every backend: for the tests of what every store must guarantee."""
    s = open_store(_backend_url(request, tmp_path))
    yield s
    s.close()


@pytest.fixture
def store() -> EventStore:
    """The in-memory store: the default for everything that is not about storage."""
    return MemoryStore()


class Clock:
    """A deterministic clock: each call is one second later."""

    def __init__(self):
        self.tick = 0

    def __call__(self) -> str:
        self.tick += 1
        return f"2026-11-21T20:{self.tick // 60:02d}:{self.tick % 60:02d}.000000Z"


@pytest.fixture
def journal(store) -> Journal:
    return Journal(store, clock=Clock())


def seat_lantern(journal: Journal) -> str:
    """Create a Yarn campaign with a GM (Maya) and three players; its id."""
    from yarnlog.core.table import AddParticipant

    journal.create_campaign("lantern", title="Lantern Harbor", gm="Maya")
    for name in ("Ana", "Ben", "Cy"):
        journal.execute("lantern", AddParticipant(name=name))
    return "lantern"


@pytest.fixture
def campaign(journal) -> str:
    """A Yarn campaign with a GM (Maya) and three players."""
    return seat_lantern(journal)


@pytest.fixture
def cli(tmp_path, monkeypatch, capsys):
    """Run ``yarnlog ARGS`` in-process through the real entry point: (exit code, stdout, stderr)."""
    monkeypatch.setenv("YARNLOG_DB", str(tmp_path / "journal.db"))
    monkeypatch.delenv("YARNLOG_CAMPAIGN", raising=False)

    def run(*args: str) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "argv", ["yarnlog", *args])
        try:
            main()
            code = 0
        except SystemExit as exit_:
            code = exit_.code or 0
        out, err = capsys.readouterr()
        return code, out, err

    yield run
    close_journal()


@pytest.fixture
def harbor_scene(cli):
    """A Yarn campaign "harbor" in its second scene: Ben's procedural scene with Tomas (Ana plays Iris,
    Ben plays Tomas, Maya is the GM); the CLI runner."""
    from pathlib import Path

    sheets = Path(__file__).resolve().parent.parent / "journals" / "sheets"
    for args in (("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"), ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Iris", "--from-file", str(sheets / "iris.json")),
                 ("character", "create", "Tomas", "--from-file", str(sheets / "tomas.json")),
                 ("episode", "start", "--title", "Fog"), ("call", "Ana", "--cast", "Iris,Tomas"),
                 ("call", "Ben", "--cast", "Tomas", "--mode", "procedural")):
        assert cli(*args)[0] == 0, args
    return cli
