"""What the journal needs of a store, whatever keeps the events: two recorders, as the
``eventsourcing`` library splits them. An :class:`EventRecorder` keeps the append-only events; a
:class:`SnapshotRecorder` keeps the caches beside them (state snapshots and views, replaced at
will, never evidence). An :class:`EventStore` is both, over one database.

Every implementation (:mod:`~yarnlog.persistence.memory`, :mod:`~yarnlog.persistence.sqlite`,
:mod:`~yarnlog.persistence.postgres`) gives the same guarantees, checked by one contract suite
(``tests/persistence/test_store_contract.py``):

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

from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
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

    def __init__(self, campaign_id: str, expected: int | None, actual: int | None):
        self.campaign_id = campaign_id
        self.expected = expected
        self.actual = actual
        now = "unknown" if actual is None else str(actual)
        if expected is None:  # the turn to write did not come in time
            super().__init__(f"campaign {campaign_id!r} is busy with other writers; retry")
            return
        super().__init__(
            f"campaign {campaign_id!r} changed while you were writing "
            f"(expected to follow event {expected}, the journal is at {now}); re-read and retry"
        )


class DamagedJournal(StoreError):
    """The campaign's last stored event does not match its own hash: nothing is appended on top of it."""

    def __init__(self, campaign_id: str, sequence: int, why: str):
        self.campaign_id, self.sequence = campaign_id, sequence
        super().__init__(f"campaign {campaign_id!r} is damaged at event {sequence} ({why}): nothing written; "
                         "run 'yarnlog verify'")


class RefusedRecords(StoreError):
    """Records of an import the journal cannot take as given (an event id it already holds, a campaign
    id no backend could keep): bad input, not a storage fault."""

    exit_code = 2


class CommandKey(NamedTuple):
    """What makes a write happen once: the command's id, and a digest of the command it names.

    Stored beside the events the command recorded (never hashed into the chain, see
    :mod:`yarnlog.app.command_ids`); a second append with the same id in the campaign is refused
    by the store's unique index.
    """

    id: str
    digest: str


class RecordedCommand(NamedTuple):
    """The events one command id recorded in a campaign, and the digest of the command it recorded."""

    digest: str
    events: list[StoredEvent]


class Snapshot(NamedTuple):
    """A stored cache of what a campaign's events fold to at ``sequence`` (see :meth:`SnapshotRecorder.save_snapshot`).

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


class EventRecorder(Protocol):
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

    def append(self, campaign_id: str, expected_sequence: int, events: Sequence[NewEvent], *,
               command: CommandKey | None = None) -> list[StoredEvent]:
        """Chain ``events`` onto the campaign after ``expected_sequence``, all or nothing.

        Raises :class:`ConcurrencyConflict` if the campaign is no longer at ``expected_sequence``
        (or ``command``'s id is recorded already: re-read, and :meth:`recorded_command` finds it),
        and :class:`DamagedJournal` if the last stored event does not match its hash.
        ``command``, if given, is kept with the events (see :meth:`recorded_command`).
        """
        ...

    def turn(self, campaign_id: str) -> AbstractContextManager[None]:
        """The campaign's writes held for this thread until the block ends: other writers wait
        (or lose their race), and this thread's reads and appends in the block see and extend
        the journal as it is, committed together when the block ends. For a writer that lost a
        race: in its turn it cannot lose again. Raises :class:`ConcurrencyConflict` if the turn
        does not come in time."""
        ...

    def recorded_command(self, campaign_id: str, command_id: str) -> RecordedCommand | None:
        """What the command of id ``command_id`` recorded in the campaign (one indexed row and its
        neighbours), or None if no append carried that id."""
        ...

    def append_verbatim(self, records: Sequence[StoredEvent], expected_sequence: int) -> None:
        """Add already-chained events of one campaign (an import) after ``expected_sequence``.

        Raises :class:`ConcurrencyConflict` if the campaign is elsewhere, and :class:`StoreError`
        (writing nothing) if the records do not extend the stored chain.
        """
        ...

    def missing_guards(self) -> list[str]:
        """The guards of the events table (a database's triggers that refuse UPDATE, DELETE and a broken
        chain) that are gone or switched off: empty while the database itself keeps the log append-only."""
        ...

    def close(self) -> None:
        """Release connections; the recorder is not used afterwards."""
        ...


class SnapshotRecorder(Protocol):
    """Disposable caches beside the history, never part of it: they may be replaced (one per
    campaign and kind) and are never trusted over the events."""

    def save_snapshot(self, snapshot: Snapshot) -> None:
        """Keep ``snapshot`` as the campaign's one snapshot of its kind, replacing any other.

        Unlike events, snapshots are replaced: they are caches, rebuilt from the log whenever
        missing, stale or written under another fingerprint. May raise :class:`StoreError`.
        """
        ...

    def load_snapshot(self, campaign_id: str, kind: str, fingerprint: str) -> Snapshot | None:
        """The campaign's snapshot of ``kind`` if one was written under ``fingerprint`` (one row), else None."""
        ...

    def save_snapshots(self, snapshots: Sequence[Snapshot]) -> None:
        """Keep several snapshots as :meth:`save_snapshot` does, all in one transaction (a view kept in
        pieces: the blocks a write changed and the manifest that lists them). May raise :class:`StoreError`."""
        ...

    def load_snapshots(self, campaign_id: str, kinds: Collection[str], fingerprint: str) -> list[Snapshot]:
        """The campaign's snapshots of those ``kinds`` written under ``fingerprint`` (one query), in no order."""
        ...

    def load_each(self, campaign_id: str, wanted: Mapping[str, str]) -> list[Snapshot]:
        """The campaign's snapshots of the kinds ``wanted`` names, each written under the fingerprint it
        names for that kind (one query: the stored views a write brings to the head), in no order."""
        ...

    def save_state_rows(self, snapshot: Snapshot, pieces: Mapping[str, str], refs: Collection[str]) -> None:
        """Keep a state snapshot kept in rows, in one transaction: ``snapshot`` (its text the header),
        the ``pieces`` this write made (digest to text; one already kept is left as it is) and
        ``refs``, every piece it refers to. A piece no snapshot of the campaign refers to any more
        may go. Raises :class:`StoreError` (nothing kept) if a piece referred to and not given is
        no longer kept."""
        ...

    def load_pieces(self, campaign_id: str, digests: Collection[str]) -> dict[str, str]:
        """The text of each of those pieces that is kept (one missing is simply not in the answer)."""
        ...

    def snapshots(self, campaign_id: str, *, data: bool = True) -> list[Snapshot]:
        """Every snapshot kept for the campaign, whatever its fingerprint, sorted by kind.

        With ``data=False`` each comes without its text (``data`` empty): what a reader needs to
        choose one (kind, fingerprint, sequence, head hash) without fetching every state.
        """
        ...


class EventStore(EventRecorder, SnapshotRecorder, Protocol):
    """Both recorders over one database (one connection pool): what a journal opens."""


def one_campaign(records: Sequence[StoredEvent]) -> str:
    """The campaign all ``records`` belong to; an import writes one campaign at a time, of an id
    every backend keeps alike (:data:`~yarnlog.core.envelope.CAMPAIGN_ID`)."""
    from yarnlog.core.envelope import CAMPAIGN_ID

    ids = {r.campaign_id for r in records}
    if len(ids) != 1:
        raise StoreError(f"one import writes one campaign, not {', '.join(sorted(ids))}")
    campaign_id = records[0].campaign_id
    if not CAMPAIGN_ID.fullmatch(campaign_id):
        raise RefusedRecords(f"{campaign_id[:80]!r} is not a campaign id: up to 64 lowercase letters, digits, "
                             "'.', '_' or '-', starting with a letter or digit; nothing imported")
    return campaign_id
