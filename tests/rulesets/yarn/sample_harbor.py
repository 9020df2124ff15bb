"""The sample campaign (journals/lantern-harbor.jsonl) imported into an in-memory journal."""

from __future__ import annotations

import functools
from pathlib import Path

from yarnlog.app.interchange import import_records, parse_lines
from yarnlog.app.journal import Journal
from yarnlog.persistence.memory import MemoryStore

JOURNAL = Path(__file__).resolve().parents[3] / "journals" / "lantern-harbor.jsonl"
CID = "lantern"


def harbor_journal() -> Journal:
    """A fresh in-memory journal holding the sample campaign (tests may append to it)."""
    store = MemoryStore()
    import_records(store, list(_records()))
    return Journal(store)


@functools.cache
def _records() -> tuple:
    return tuple(parse_lines(JOURNAL.read_text(encoding="utf-8").splitlines()))
