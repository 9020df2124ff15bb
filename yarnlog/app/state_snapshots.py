"""A campaign's state snapshots: where the state cache starts a campaign it has not seen, and what
it keeps every so many events folded.

A snapshot is read only when it is of this code's fingerprint (:mod:`yarnlog.app.snapshots`) and
its event still has the hash it was taken at. Snapshots are caches: one that cannot be read or
written is logged and ignored, never an error of a command.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable, Collection, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

from yarnlog.app.snapshot_rows import encode_state_rows, read_state
from yarnlog.app.snapshots import STATE_KINDS, slot_for, state_codec
from yarnlog.core.codec import CodecError, collector_paused
from yarnlog.persistence.protocol import Snapshot, SnapshotRecorder

if TYPE_CHECKING:
    from yarnlog.core.ruleset import CampaignState
    from yarnlog.core.timeline import Timeline
    from yarnlog.persistence.protocol import EventStore

log = logging.getLogger(__name__)

#: Events folded since the last snapshot after which a new one is kept.
SNAPSHOT_EVERY = 500


class Remembered(NamedTuple):
    """A campaign as this process last saw it: the state, and the timeline as recorded (amendments
    not applied: it gives the next events their context). Never the history: memory must not grow
    with it for reading a board."""

    state: CampaignState[Any]
    timeline: Timeline
    head_hash: str  # the stored hash of event ``state.sequence``


def load_snapshot(store: SnapshotRecorder, campaign_id: str, kind: str, fingerprint: str) -> Snapshot | None:
    """The stored snapshot of ``kind``, None if there is none or it cannot be read (logged)."""
    try:
        return store.load_snapshot(campaign_id, kind, fingerprint)
    except Exception as exc:
        log.warning("cannot read the %s snapshot of %s (%s)", kind, campaign_id, exc)
        return None


class PieceRows:
    """``fetch(digest)``: the text of a state snapshot's piece kept as a row (:class:`CodecError` if
    it is not kept: a snapshot written meanwhile may have let it go); ``fetch.many(digests)``: those
    that are kept, in a few queries."""

    def __init__(self, store: SnapshotRecorder, campaign_id: str):
        self.store, self.campaign_id = store, campaign_id

    def __call__(self, digest: str) -> str:
        text = self.store.load_pieces(self.campaign_id, [digest]).get(digest)
        if text is None:
            raise CodecError(f"the piece {digest[:12]} of a state snapshot is not kept")
        return text

    def many(self, digests: Collection[str]) -> dict[str, str]:
        return self.store.load_pieces(self.campaign_id, digests)


def piece_fetcher(store: SnapshotRecorder, campaign_id: str) -> PieceRows:
    """How a state snapshot of the campaign kept in rows reads its pieces (:class:`PieceRows`)."""
    return PieceRows(store, campaign_id)


def save_snapshot(store: SnapshotRecorder, snapshot: Snapshot) -> bool:
    """Keep ``snapshot``; whether it was kept (a failure is logged, never raised)."""
    try:
        store.save_snapshot(snapshot)
        return True
    except Exception as exc:
        log.warning("cannot keep the %s snapshot of %s (%s)", snapshot.kind, snapshot.campaign_id, exc)
        return False


class StateSnapshots:
    """The campaigns' state snapshots: read the newest sound one, keep one every ``every`` events
    folded (0: neither read nor kept)."""

    def __init__(self, store: EventStore, *, clock: Callable[[], str], every: int = SNAPSHOT_EVERY):
        self.store = store
        self.clock = clock
        self.every = every
        # The sequence of the state snapshot each campaign has in the store, as far as this process knows.
        self.at: dict[str, int] = {}

    def newest(self, campaign_id: str, ruleset: str, before: int | None = None) -> Remembered | None:
        """The campaign from its newest state snapshot (before event ``before``, if given) of this
        code's fingerprint whose event still has the hash it was taken at; None if there is none."""
        if self.every <= 0:
            return None
        try:
            codec, fingerprint = state_codec(ruleset)
            kept = self.store.snapshots(campaign_id, data=False)  # which to read, without their text
        except Exception as exc:  # a cache that cannot be used is a cache missed, whatever went wrong
            log.warning("cannot list the state snapshots of %s (%s); replaying", campaign_id, exc)
            return None
        candidates = sorted((s for s in kept if s.kind in STATE_KINDS and s.fingerprint == fingerprint
                             and (before is None or s.sequence < before)), key=lambda s: -s.sequence)
        for mark in candidates:
            found = self._read(campaign_id, mark.kind, codec, fingerprint)
            if found is not None and (before is None or found.state.sequence < before):
                return found
        return None

    def keep_if_due(self, campaign_id: str, remembered: Remembered) -> None:
        """Keep the state as a snapshot once ``every`` events were folded since the last one, in place
        of the oldest of the campaign's (:func:`slot_for`)."""
        state = remembered.state
        if self.every <= 0 or state.sequence - self.at.get(campaign_id, 0) < self.every:
            return
        try:
            codec, fingerprint = state_codec(state.table.ruleset)
            # In rows: the pieces still as read are referred to where they are, only the others written.
            rows = encode_state_rows(codec, state, remembered.timeline, piece_fetcher(self.store, campaign_id))
            kind = slot_for(self.store.snapshots(campaign_id, data=False), fingerprint)
        except Exception as exc:
            log.warning("cannot encode the state of %s (%s): no snapshot kept", campaign_id, exc)
            return
        snapshot = Snapshot(campaign_id, kind, fingerprint, state.sequence, remembered.head_hash, rows.header,
                            self.clock())
        try:
            self.store.save_state_rows(snapshot, rows.pieces, rows.refs)
        except Exception as exc:
            try:  # a row it refers to may be gone (newer snapshots let it go): every piece written, once
                rows = encode_state_rows(codec, state, remembered.timeline, piece_fetcher(self.store, campaign_id),
                                         refer=False)
                self.store.save_state_rows(snapshot._replace(data=rows.header), rows.pieces, rows.refs)
            except Exception:
                log.warning("cannot keep the %s snapshot of %s (%s)", kind, campaign_id, exc)
                return
        self.at[campaign_id] = state.sequence

    def _read(self, campaign_id: str, kind: str, codec: Any, fingerprint: str) -> Remembered | None:
        """The state snapshot of ``kind``, if it still matches the log and decodes to this campaign."""
        try:
            snapshot = load_snapshot(self.store, campaign_id, kind, fingerprint)
            if snapshot is None:
                return None
            if self.store.event_hash(campaign_id, snapshot.sequence) != snapshot.head_hash:
                log.warning("the state snapshot of %s at event %d does not match the log; replaying",
                            campaign_id, snapshot.sequence)
                return None
            with collector_paused():
                # The ruleset's slices are decoded as the command reads them (see decode_state).
                state, timeline = read_state(codec, snapshot.data, piece_fetcher(self.store, campaign_id),
                                             deferred=True,
                                             fallback=_Replayed(self.store, campaign_id, snapshot.sequence))
                if state.sequence != snapshot.sequence or state.table.campaign_id != campaign_id:
                    log.warning("the state snapshot of %s is not of this campaign at event %d; replaying",
                                campaign_id, snapshot.sequence)
                    return None
                # The state lives as long as the process works on the campaign and holds no cycle:
                # frozen before the collector runs again, it is never walked (refcounting frees it).
                gc.freeze()
        except Exception as exc:  # a cache that cannot be used is a cache missed, whatever went wrong
            log.warning("cannot use the state snapshot of %s (%s); replaying", campaign_id, exc)
            return None
        self.at[campaign_id] = max(self.at.get(campaign_id, 0), snapshot.sequence)
        return Remembered(state, timeline, snapshot.head_hash)


class _Replayed:
    """A piece of the campaign at event ``sequence``, from a replay of the log: what a state read from
    a snapshot falls back on when a piece's text turns out not to decode when first read (the rest
    of the snapshot was sound: a damaged cache must never fail a command)."""

    def __init__(self, store: EventStore, campaign_id: str, sequence: int):
        self.store, self.campaign_id, self.sequence = store, campaign_id, sequence
        self.replayed: dict[str, Any] = {}

    def __call__(self, path: tuple[str, ...]) -> Any:
        log.warning("the state snapshot of %s at event %d cannot be read at %s; replaying",
                    self.campaign_id, self.sequence, ".".join(path))
        if not self.replayed:
            from yarnlog.app.verify import AMENDMENT_TYPES
            from yarnlog.core.corrections import Amendments
            from yarnlog.core.envelope import to_recorded
            from yarnlog.core.state import paused_gc, replay_stream, stream_stored_in_context

            recorded: list[Any] = []

            def streamed() -> Iterator[tuple[Any, Any]]:
                for rec, after in stream_stored_in_context(self.store.iter_read(self.campaign_id, upto=self.sequence)):
                    recorded[:] = [after]
                    yield rec, after

            with paused_gc():
                amendments = Amendments(map(to_recorded, self.store.iter_read(
                    self.campaign_id, upto=self.sequence, event_types=AMENDMENT_TYPES)))
                state = replay_stream(streamed(), amendments)
            self.replayed = {"table": state.table, "timeline": state.timeline, "rules": state.rules,
                             "recorded": recorded[0] if recorded else state.timeline}
        value = self.replayed[path[0]]
        for name in path[1:]:
            value = getattr(value, name)
        return value
