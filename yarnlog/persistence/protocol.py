"""What the journal needs of a store, whatever keeps the events: the :class:`EventStore` protocol.

Every implementation (:mod:`~yarnlog.persistence.memory`, :mod:`~yarnlog.persistence.sqlite`,
:mod:`~yarnlog.persistence.postgres`) gives the same guarantees, checked by one contract suite
(``tests/test_store_contract.py``):

- events are only ever appended, never changed or removed;
- each campaign's events are numbered 1, 2, 3... without gaps, and each event's ``prev_hash``
  is the hash of the one before (the genesis hash for the first); the store itself refuses
  anything else, even from a caller that bypasses :meth:`EventStore.append`;
- appends are all or nothing and use optimistic concurrency: the writer states the sequence it
  last saw, and a writer that lost the race gets :class:`ConcurrencyConflict` and can re-read
  and retry;
- it is safe to share one store between threads.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import TYPE_CHECKING, NamedTuple, Protocol

from yarnlog.core.referee import YarnlogError

if TYPE_CHECKING:  # annotations only: opening the command line must not import pydantic
    from yarnlog.core.envelope import NewEvent, StoredEvent

CHAIN_BROKEN = "yarnlog events must extend the chain: sequence gap or wrong prev_hash"
HASH_REFUSED = "yarnlog events must carry their own hash: the hash is not that of the bytes in the row"


class StoreError(YarnlogError):
    exit_code = 4


class ConcurrencyConflict(StoreError):
    """Another writer appended to the campaign since the caller read it."""

    exit_code = 5

    def __init__(self, campaign_id: str, expected: int, actual: int | None):
        self.campaign_id = campaign_id
        self.expected = expected
        self.actual = actual
        now = "unknown" if actual is None else str(actual)
        super().__init__(
            f"campaign {campaign_id!r} changed while you were writing "
            f"(expected to follow event {expected}, the journal is at {now}); re-read and retry"
        )


class Snapshot(NamedTuple):
    """A stored cache of what a campaign's events fold to at ``sequence`` (see :meth:`EventStore.save_snapshot`).

    ``kind`` says what it holds (``"state"``, or ``"view:NAME"`` for a ruleset's projection),
    ``fingerprint`` the schema and code it was written under, ``head_hash`` the stored hash of
    event ``sequence`` when it was written, ``data`` the encoded text.
    """

    campaign_id: str
    kind: str
    fingerprint: str
    sequence: int
    head_hash: str
    data: str
    saved_at: str


class EventStore(Protocol):
    """The append-only events of one journal, which may hold many campaigns."""

    def campaigns(self) -> list[str]:
        """The ids of the campaigns that have events, sorted."""
        ...

    def last_sequence(self, campaign_id: str) -> int:
        """The sequence of the campaign's last event; 0 if it has none."""
        ...

    def read(self, campaign_id: str, *, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        """The campaign's events with ``after < sequence <= upto``, in sequence order."""
        ...

    def head(self, campaign_id: str) -> tuple[int, str] | None:
        """The ``(sequence, hash)`` of the campaign's last event (one indexed row); None if it has none."""
        ...

    def event_hash(self, campaign_id: str, sequence: int) -> str | None:
        """The stored hash of the campaign's event ``sequence`` (one indexed row); None if there is none."""
        ...

    def iter_read(self, campaign_id: str, *, after: int = 0, upto: int | None = None, batch: int = 1000,
                  event_types: Collection[str] | None = None) -> Iterator[StoredEvent]:
        """:meth:`read`'s events one by one, fetched ``batch`` at a time: the history is never held whole.

        The events are those of one consistent view of the journal, taken when the iteration
        starts (events appended meanwhile are not in it). ``event_types``, if given, keeps only
        the events of those types (found by the database's index, not by reading every row).
        Close the iterator (or exhaust it) to release the connection it holds.
        """
        ...

    def append(self, campaign_id: str, expected_sequence: int, events: Sequence[NewEvent]) -> list[StoredEvent]:
        """Chain ``events`` onto the campaign after ``expected_sequence``, all or nothing.

        Raises :class:`ConcurrencyConflict` if the campaign is no longer at ``expected_sequence``.
        """
        ...

    def append_verbatim(self, records: Sequence[StoredEvent], expected_sequence: int) -> None:
        """Add already-chained events of one campaign (an import) after ``expected_sequence``.

        Raises :class:`ConcurrencyConflict` if the campaign is elsewhere, and :class:`StoreError`
        (writing nothing) if the records do not extend the stored chain.
        """
        ...

    # Snapshots are disposable caches beside the history, never part of it: they may be
    # replaced (one per campaign and kind) and are never trusted over the events.

    def save_snapshot(self, snapshot: Snapshot) -> None:
        """Keep ``snapshot`` as the campaign's one snapshot of its kind, replacing any other.

        Unlike events, snapshots are replaced: they are caches, rebuilt from the log whenever
        missing, stale or written under another fingerprint. May raise :class:`StoreError`.
        """
        ...

    def load_snapshot(self, campaign_id: str, kind: str, fingerprint: str) -> Snapshot | None:
        """The campaign's snapshot of ``kind`` if one was written under ``fingerprint`` (one row), else None."""
        ...

    def snapshots(self, campaign_id: str) -> list[Snapshot]:
        """Every snapshot kept for the campaign, whatever its fingerprint, sorted by kind."""
        ...

    def close(self) -> None:
        """Release connections; the store is not used afterwards."""
        ...


def one_campaign(records: Sequence[StoredEvent]) -> str:
    """The campaign all ``records`` belong to; an import writes one campaign at a time."""
    ids = {r.campaign_id for r in records}
    if len(ids) != 1:
        raise StoreError(f"one import writes one campaign, not {', '.join(sorted(ids))}")
    return records[0].campaign_id
