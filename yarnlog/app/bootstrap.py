"""The composition root: the one place that turns settings into a running application.

A process bootstraps once and passes the journal around; nothing else builds stores or
journals, so a command opens one store and replays a campaign once.
"""

from __future__ import annotations

import os

from yarnlog.app.journal import Journal
from yarnlog.persistence.factory import open_store


def bootstrap(db: str | os.PathLike | None = None, *, create: bool = False) -> Journal:
    """The journal over the store ``db`` names (a path, a URL, ``memory://``; default ``YARNLOG_DB``).

    ``create`` makes the journal's database if it does not exist yet; otherwise a missing
    SQLite file is an error rather than an empty journal created by a typo.
    """
    return Journal(open_store(db, create=create))
