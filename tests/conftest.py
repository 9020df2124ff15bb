"""Shared fixtures: every store test runs on SQLite and on a real PostgreSQL server.

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
from sqlalchemy import create_engine, text

from yarnlog.app.journal import Journal
from yarnlog.cli.main import main
from yarnlog.persistence.store import EventStore, database_url

PG_URL = os.environ.get("YARNLOG_TEST_PG_URL")
REQUIRE_PG = os.environ.get("YARNLOG_REQUIRE_PG") == "1"


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


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path) -> str:
    """A fresh, empty journal database URL on each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'journal.db'}"
    return _postgres_url(request)


@pytest.fixture
def store(db_url) -> EventStore:
    s = EventStore(db_url)
    yield s
    s.engine.dispose()


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


@pytest.fixture
def campaign(journal) -> str:
    """A Yarn campaign with a GM (Maya) and three players."""
    from yarnlog.core.table import AddParticipant

    journal.create_campaign("lantern", title="Lantern Harbor", gm="Maya")
    for name in ("Ana", "Ben", "Cy"):
        journal.execute("lantern", AddParticipant(name=name))
    return "lantern"


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

    return run
