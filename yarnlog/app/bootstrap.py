"""The composition root: the one place that turns settings into a running application.

A process bootstraps once and passes the journal around; nothing else builds stores or
journals, so a command opens one store and replays a campaign once.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from yarnlog.persistence.factory import missing_sqlite_file, open_store
from yarnlog.persistence.protocol import StoreError

if TYPE_CHECKING:
    from yarnlog.app.journal import Journal


def require_journal(db: str | os.PathLike | None = None) -> None:
    """Refuse, as opening it would, a journal file that does not exist, without importing any
    database code: the command line asks this before it knows which verbs a campaign has."""
    missing = missing_sqlite_file(db)
    if missing is not None:
        raise StoreError(f"no journal database at {missing} (create one with 'yarnlog init')")


def bootstrap(db: str | os.PathLike | None = None, *, create: bool = False) -> "Journal":
    """The journal over the store ``db`` names (a path, a URL, ``memory://``; default ``YARNLOG_DB``).

    ``create`` makes the journal's database if it does not exist yet; otherwise a missing
    SQLite file is an error rather than an empty journal created by a typo.
    """
    from yarnlog.app.journal import Journal

    return Journal(open_store(db, create=create))
