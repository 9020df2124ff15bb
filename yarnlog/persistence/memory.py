"""An event store in the process's memory: the same guarantees as the databases, nothing on disk.

For tests of rules and parts (given events, when a command, then events or a refusal) and for
``--db memory://`` sessions that keep nothing. It checks on every append what the databases'
triggers check, so code that passes on it does not lean on a weaker store.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager

from yarnlog.core.chain import GENESIS, seal, stored_event_hash
from yarnlog.core.envelope import NewEvent, StoredEvent
from yarnlog.persistence.protocol import (
    CHAIN_BROKEN,
    HASH_REFUSED,
    CommandKey,
    ConcurrencyConflict,
    RecordedCommand,
    RefusedRecords,
    Snapshot,
    StoreError,
    one_campaign,
)


class MemoryStore:
    """Campaigns' events in lists, guarded by one lock (appends are atomic, reads consistent)."""

    def __init__(self) -> None:
        self._events: dict[str, list[StoredEvent]] = {}
        self._event_ids: set[str] = set()
        self._snapshots: dict[tuple[str, str], Snapshot] = {}
        # A state snapshot kept in rows: its pieces by campaign and digest, and each snapshot's references.
        self._pieces: dict[tuple[str, str], str] = {}
        self._piece_refs: dict[tuple[str, str], frozenset[str]] = {}
        # (campaign, command id) -> (digest, first sequence, how many events) of each command kept.
        self._commands: dict[tuple[str, str], tuple[str, int, int]] = {}
        self._lock = threading.Lock()
        # Held by a writer's turn (and by every append, so appends wait for a turn to end).
        self._writer = threading.RLock()

    def campaigns(self) -> list[str]:
        with self._lock:
            return sorted(self._events)

    def last_sequence(self, campaign_id: str) -> int:
        with self._lock:
            return len(self._events.get(campaign_id, ()))

    def read(self, campaign_id: str, *, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        with self._lock:
            events = self._events.get(campaign_id, [])
            # Sequences are 1..n without gaps, so sequence s sits at index s - 1.
            return events[max(after, 0):upto if upto is None else max(upto, 0)]

    def head(self, campaign_id: str) -> tuple[int, str] | None:
        with self._lock:
            events = self._events.get(campaign_id)
            return (events[-1].sequence, events[-1].hash) if events else None

    def event_hash(self, campaign_id: str, sequence: int) -> str | None:
        with self._lock:
            events = self._events.get(campaign_id, [])
            return events[sequence - 1].hash if 0 < sequence <= len(events) else None

    def save_snapshot(self, snapshot: Snapshot) -> None:
        with self._lock:
            self._snapshots[(snapshot.campaign_id, snapshot.kind)] = snapshot

    def load_snapshot(self, campaign_id: str, kind: str, fingerprint: str) -> Snapshot | None:
        with self._lock:
            found = self._snapshots.get((campaign_id, kind))
        return found if found is not None and found.fingerprint == fingerprint else None

    def save_snapshots(self, snapshots: Sequence[Snapshot]) -> None:
        for snapshot in snapshots:  # each through save_snapshot, so a store that overrides it is obeyed
            self.save_snapshot(snapshot)

    def save_state_rows(self, snapshot: Snapshot, pieces: Mapping[str, str], refs: Collection[str]) -> None:
        cid = snapshot.campaign_id
        with self._lock:
            if any((cid, d) not in self._pieces for d in set(refs).difference(pieces)):
                raise StoreError("a piece of the state this snapshot was read from is no longer kept")
            for digest, text in pieces.items():
                self._pieces.setdefault((cid, digest), text)
            self._piece_refs[(cid, snapshot.kind)] = frozenset(refs)
            kept = set().union(*(r for (c, _), r in self._piece_refs.items() if c == cid))
            for key in [k for k in self._pieces if k[0] == cid and k[1] not in kept]:
                del self._pieces[key]
        self.save_snapshot(snapshot)  # through save_snapshot, so a store that overrides it is obeyed

    def load_pieces(self, campaign_id: str, digests: Collection[str]) -> dict[str, str]:
        with self._lock:
            return {d: self._pieces[(campaign_id, d)] for d in digests if (campaign_id, d) in self._pieces}

    def load_snapshots(self, campaign_id: str, kinds: Collection[str], fingerprint: str) -> list[Snapshot]:
        return self.load_each(campaign_id, dict.fromkeys(kinds, fingerprint))

    def load_each(self, campaign_id: str, wanted: Mapping[str, str]) -> list[Snapshot]:
        found = (self.load_snapshot(campaign_id, kind, fingerprint) for kind, fingerprint in wanted.items())
        return [s for s in found if s is not None]

    def snapshots(self, campaign_id: str, *, data: bool = True) -> list[Snapshot]:
        with self._lock:
            kept = sorted((s for (cid, _), s in self._snapshots.items() if cid == campaign_id), key=lambda s: s.kind)
        return kept if data else [s._replace(data="") for s in kept]

    def iter_read(self, campaign_id: str, *, after: int = 0, upto: int | None = None, batch: int = 1000,
                  event_types: Collection[str] | None = None) -> Iterator[StoredEvent]:
        if batch < 1:
            raise ValueError(f"batch must be at least 1, not {batch}")
        wanted = None if event_types is None else frozenset(event_types)
        with self._lock:
            events = self._events.get(campaign_id, [])
            # The view is the campaign as it is now: later appends only add past ``end``.
            end = len(events) if upto is None else min(max(upto, 0), len(events))
        start = max(after, 0)
        while start < end:
            with self._lock:  # a batch at a time, so a long read does not hold writers back
                chunk = events[start:min(start + batch, end)]
            start += len(chunk)
            for record in chunk:
                if wanted is None or record.event_type in wanted:
                    yield record

    @contextmanager
    def turn(self, campaign_id: str) -> Iterator[None]:
        with self._writer:
            yield

    def recorded_command(self, campaign_id: str, command_id: str) -> RecordedCommand | None:
        with self._lock:
            found = self._commands.get((campaign_id, command_id))
            if found is None:
                return None
            digest, first, count = found
            return RecordedCommand(digest, self._events[campaign_id][first - 1:first - 1 + count])

    def append(self, campaign_id: str, expected_sequence: int, events: Sequence[NewEvent], *,
               command: CommandKey | None = None) -> list[StoredEvent]:
        with self._writer, self._lock:
            stored = self._events.get(campaign_id, [])
            if len(stored) != expected_sequence:
                raise ConcurrencyConflict(campaign_id, expected_sequence, len(stored))
            if command is not None and (campaign_id, command.id) in self._commands:
                raise ConcurrencyConflict(campaign_id, expected_sequence, None)  # as the databases' unique index
            prev_hash = stored[-1].hash if stored else GENESIS
            records = []
            for sequence, new in enumerate(events, start=len(stored) + 1):
                record = seal(campaign_id, sequence, new, prev_hash)
                prev_hash = record.hash
                records.append(record)
            self._add(campaign_id, records)
            if command is not None and records:
                self._commands[(campaign_id, command.id)] = (command.digest, records[0].sequence, len(records))
            return records

    def append_verbatim(self, records: Sequence[StoredEvent], expected_sequence: int) -> None:
        if not records:
            return
        campaign_id = one_campaign(records)
        with self._writer, self._lock:
            stored = self._events.get(campaign_id, [])
            if len(stored) != expected_sequence:
                raise ConcurrencyConflict(campaign_id, expected_sequence, len(stored))
            prev_hash = stored[-1].hash if stored else GENESIS
            for sequence, record in enumerate(records, start=len(stored) + 1):
                if record.sequence != sequence or record.prev_hash != prev_hash:
                    raise StoreError(f"the journal refused the import: {CHAIN_BROKEN}")
                if stored_event_hash(record.header(), record.payload, record.prev_hash) != record.hash:
                    raise StoreError(f"the journal refused the import: {HASH_REFUSED}")
                prev_hash = record.hash
            self._add(campaign_id, list(records))

    def missing_guards(self) -> list[str]:
        return []  # the guards are this code's own: nothing can drop them

    def close(self) -> None:
        """Nothing to release: the events live as long as this object."""

    def _add(self, campaign_id: str, records: list[StoredEvent]) -> None:
        """Add checked records (lock held), refusing a reused event id as the databases do."""
        if not records:
            return  # a campaign exists once it has an event
        ids = [r.event_id for r in records]
        if len(set(ids)) != len(ids) or not self._event_ids.isdisjoint(ids):
            raise RefusedRecords("the journal refused the write: an event id is already recorded")
        self._events.setdefault(campaign_id, []).extend(records)
        self._event_ids.update(ids)
