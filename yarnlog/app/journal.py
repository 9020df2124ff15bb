"""The journal service: commands in, events appended, state replayed.

This is the application layer around the pure deciders: it reads a campaign's events, replays
them into state, asks the deciders (the ruleset's first, then the journal's own) what a command
produces, and appends the result with optimistic concurrency, deciding again on a fresh read
when another writer got there first. It is also the one door to the stored journal (campaigns,
verify, export, import), so callers never reach past it into the store.

Serving a stored view (:meth:`Journal.view`) needs only the store and the snapshots' fingerprints:
the state, the deciders, verify and interchange are imported by the methods that use them, so a
one-shot read does not pay for them.
"""

from __future__ import annotations

import json
import logging
import random
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, NamedTuple

from yarnlog.app.snapshots import (
    STATE_KINDS,
    VIEW_PREFIX,
    decode_state,
    encode_state,
    encode_view,
    slot_for,
    state_codec,
    view_fingerprint,
    view_kind,
)
from yarnlog.core.envelope import NewEvent, StoredEvent, to_recorded
from yarnlog.core.referee import InvalidCommand, Override, Referee, YarnlogError, invalid, present
from yarnlog.core.ruleset import DEFAULT_RULESET
from yarnlog.persistence.protocol import CommandKey, ConcurrencyConflict, EventStore, Snapshot

if TYPE_CHECKING:
    from yarnlog.app.verify import Report
    from yarnlog.core.corrections import Correction, OverrideRecorded, Retraction
    from yarnlog.core.digest import ConsistencyProof, Digest
    from yarnlog.core.events import Payload, Recorded
    from yarnlog.core.state import CampaignState
    from yarnlog.core.table import Table
    from yarnlog.core.timeline import Timeline

log = logging.getLogger(__name__)

#: Events folded since the last snapshot after which the journal keeps a new one.
SNAPSHOT_EVERY = 500

#: How long a command keeps trying when other writers get there first (seconds, all attempts
#: together), and the backoff between attempts: a random wait up to FIRST_WAIT, doubling each
#: time up to LONGEST_WAIT ("full jitter"), so writers that collided spread out instead of
#: colliding again in step.
PATIENCE = 60.0
FIRST_WAIT = 0.002
LONGEST_WAIT = 0.25


class Recording(list["Recorded"]):
    """The events a command recorded; ``already_recorded`` when its command id had recorded them
    before and this call wrote nothing."""

    already_recorded: bool = False


def backoff(attempt: int, rng: random.Random | None = None) -> float:
    """The wait (seconds) before attempt ``attempt + 1`` after ``attempt`` lost races: full jitter."""
    return (rng or random).uniform(0, min(LONGEST_WAIT, FIRST_WAIT * 2 ** (attempt - 1)))


class _Remembered(NamedTuple):
    """A campaign as this journal last saw it: the state, and the timeline as recorded (amendments
    not applied: it gives the next events their context). Never the history: memory must not grow
    with it for reading a board."""

    state: CampaignState[Any]
    timeline: Timeline
    head_hash: str  # the stored hash of event ``state.sequence``


class SnapshotCheck(NamedTuple):
    """How one stored snapshot or view compares with a full replay at its sequence."""

    kind: str
    sequence: int
    #: "agrees", "differs", "unreadable", "head-mismatch"; or never read, so not checked: "other-fingerprint",
    #: "unused" (a block of a view kept in pieces that its manifest does not list)
    status: str
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.status in ("agrees", "other-fingerprint", "unused")


def utc_now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class Journal:
    """A store seen as campaigns that accept commands.

    State is served from a snapshot when there is a sound one (:mod:`yarnlog.app.snapshots`):
    the newest state snapshot of this code's fingerprint whose event still has the hash it was
    taken at, with only the events after it folded in; otherwise from a full replay. After
    folding ``snapshot_every`` events or more since the last snapshot it keeps a new one (0: it
    neither keeps nor reads state snapshots).
    A snapshot that cannot be read or written is logged and ignored: it never fails a command.
    """

    def __init__(
        self,
        store: EventStore,
        *,
        clock: Callable[[], str] = utc_now,
        new_id: Callable[[], str] = lambda: str(uuid.uuid4()),
        snapshot_every: int = SNAPSHOT_EVERY,
    ):
        self.store = store
        self.clock = clock
        self.new_id = new_id
        self.snapshot_every = snapshot_every
        # The sequence of the state snapshot each campaign has in the store, as far as this journal knows.
        self._snapshot_at: dict[str, int] = {}
        self._rulesets: dict[str, str] = {}
        # What this journal last saw of each campaign: a long-lived process reads only the
        # events it has not seen yet, and a command is decided without reading at all.
        self._latest: dict[str, _Remembered] = {}
        # Campaigns whose remembered state lost a race: read before deciding on them again.
        self._stale: set[str] = set()

    # -- the journal as stored ------------------------------------------------------------

    def campaigns(self) -> list[str]:
        """The ids of the campaigns in this journal, sorted."""
        return self.store.campaigns()

    def stored_events(self, campaign_id: str, upto: int | None = None) -> list[StoredEvent]:
        """The campaign's events exactly as stored, up to event ``upto`` (empty if there is no such campaign)."""
        return self.store.read(campaign_id, upto=upto)

    def ruleset_name(self, campaign_id: str) -> str:
        """The ruleset the campaign plays, from its first event alone (no replay).

        The command line asks this before it knows which verbs exist, so it must stay cheap
        whatever the length of the history.
        """
        if campaign_id in self._latest:
            return self._latest[campaign_id].state.table.ruleset
        if campaign_id not in self._rulesets:
            first = self.store.read(campaign_id, upto=1)
            invalid(bool(first), f"no campaign {campaign_id!r} in this journal")
            # A campaign's first event never changes: its ruleset is asked once per journal.
            self._rulesets[campaign_id] = str(json.loads(first[0].payload)["ruleset"])
        return self._rulesets[campaign_id]

    def verify(self, campaign_id: str) -> Report:
        """Check the campaign's stored events: the chain, the payloads and the rules."""
        from yarnlog.app.verify import verify_stored

        return verify_stored(self.store, campaign_id)

    def digest(self, campaign_id: str) -> Digest:
        """The campaign's digest at its last event (see :mod:`yarnlog.core.digest`)."""
        from yarnlog.app.digests import digest_of

        return digest_of(self.store, campaign_id)

    def digest_problem(self, digest: Digest) -> str | None:
        """Why the stored campaign does not extend exactly the history ``digest`` pins (None if it does)."""
        from yarnlog.app.digests import digest_problem

        return digest_problem(self.store, digest)

    def prove_consistency(self, old: Digest) -> ConsistencyProof:
        """The proof that the campaign as stored now extends the older digest ``old``."""
        from yarnlog.app.digests import prove_consistency

        return prove_consistency(self.store, old)

    def grant_writer(self, role: str) -> list[str]:
        """Let ``role`` only read and append events (a PostgreSQL journal); what was granted, in words."""
        grant = getattr(self.store, "grant_writer", None)
        if grant is None:
            raise InvalidCommand("only a PostgreSQL journal has roles: protect a SQLite journal with the file's "
                                 "own permissions (the writer then cannot change it, nor can anyone but its owner)")
        return list(grant(role))

    def export_lines(self, campaign_id: str) -> list[str]:
        """The campaign as JSON Lines, one canonical event per line."""
        from yarnlog.app.interchange import export_lines

        return list(export_lines(self.store, campaign_id))

    def import_events(self, records: list[StoredEvent], *, line_numbers: Sequence[int] | None = None,
                      payloads: Sequence[Any] | None = None) -> tuple[int, int]:
        """Write the events of an export the journal lacks: (already present, newly written).

        ``line_numbers`` (the file line of each record) lets a refusal name the line; ``payloads``
        (each record's payload as parsed from its line) spare the check parsing them again."""
        from yarnlog.app.interchange import import_records

        return import_records(self.store, records, line_numbers=line_numbers, payloads=payloads)

    def close(self) -> None:
        self.store.close()

    # -- reading --------------------------------------------------------------------------

    def history(self, campaign_id: str, upto: int | None = None) -> list[Recorded]:
        """Every event of the campaign up to ``upto`` (as stored, amendments not applied), with context.

        Read from the store each time: the journal does not keep the history to serve state.
        """
        from yarnlog.core.state import with_context

        records = self.store.read(campaign_id, upto=upto)
        if not records:
            raise InvalidCommand(f"no campaign {campaign_id!r} in this journal")
        return with_context([to_recorded(r) for r in records])

    def state(self, campaign_id: str, upto: int | None = None) -> CampaignState[Any]:
        """The campaign replayed to its end, or up to event ``upto``."""
        if upto is None:
            return self._current(campaign_id)
        from yarnlog.core.state import replay

        return replay(self.history(campaign_id, upto))

    def view(self, campaign_id: str, name: str) -> Any:
        """The ruleset's projection ``name`` (``Ruleset.projections``) at the campaign's end, as JSON data.

        Served from the stored view when it was taken at the campaign's head (two rows and the view's
        row, no replay, no import of the ruleset); otherwise computed from the state (snapshot and
        tail) and stored for the next reader.
        """
        from yarnlog.app.views import manifest_of, served

        head = self.store.head(campaign_id)
        invalid(head is not None, f"no campaign {campaign_id!r} in this journal")
        ruleset = self.ruleset_name(campaign_id)
        fingerprint = view_fingerprint(ruleset, name)
        stored = self._load(campaign_id, view_kind(name), fingerprint)
        if stored is not None and (stored.sequence, stored.head_hash) == head:
            manifest = manifest_of(stored)
            try:
                # A view kept in pieces is assembled from its blocks (one more query), else it is the row.
                found = json.loads(stored.data) if manifest is None else \
                    served(self.store, campaign_id, name, fingerprint, manifest)
            except Exception as exc:  # a cache that cannot be used is a cache missed, whatever went wrong
                log.warning("the stored view %r of %s is unreadable (%s); computing it again", name, campaign_id, exc)
                found = None
            if found is not None:
                return found
            stored = None  # a block not as listed: every piece is worked out again, not built on it
        state = self._current(campaign_id)
        projection = state.ruleset.projections.get(name) if state.ruleset is not None else None
        invalid(projection is not None, f"the {ruleset} ruleset has no view called {name!r}")
        head_hash = head[1] if head is not None and head[0] == state.sequence else \
            self.store.event_hash(campaign_id, state.sequence)
        pieces = state.ruleset.view_pieces.get(name) if state.ruleset is not None else None
        if pieces is not None and head_hash is not None:
            kept = self._pieces_kept(campaign_id, name, state, head_hash, stored)
            if kept is not None:
                return kept
        text = encode_view(projection(state))  # type: ignore[misc]
        if head_hash is not None:
            self._save(Snapshot(campaign_id, view_kind(name), fingerprint, state.sequence, head_hash, text,
                                self.clock()))
        return json.loads(text)

    def _pieces_kept(self, campaign_id: str, name: str, state: CampaignState[Any], head_hash: str,
                     stored: Snapshot | None) -> Any | None:
        """Bring view ``name``, kept in pieces, to ``state`` (built on the ``stored`` manifest when it
        can be) and serve it; None if its pieces could not be kept or read back (the caller works the
        view out whole)."""
        from yarnlog.app.views import served

        try:
            rows = self._view_rows(campaign_id, name, state, head_hash, stored)
            self.store.save_snapshots(rows)
            fresh = {row.kind.partition("#")[2]: json.loads(row.data) for row in rows[:-1]}
            return served(self.store, campaign_id, name, rows[-1].fingerprint, json.loads(rows[-1].data), fresh)
        except Exception as exc:  # a cache that cannot be used is a cache missed, whatever went wrong
            log.warning("cannot keep the %s view of %s in pieces (%s)", name, campaign_id, exc)
            return None

    def _view_rows(self, campaign_id: str, name: str, state: CampaignState[Any], head_hash: str,
                   stored: Snapshot | None, event_hash: Callable[[int], str | None] | None = None,
                   reaches_back: Callable[[int], bool] | None = None) -> list[Snapshot]:
        """:func:`yarnlog.app.views.rows_to_keep` for view ``name`` of this campaign at ``state``
        (``event_hash`` and ``reaches_back`` given by a caller that asks them of several views)."""
        from yarnlog.app.views import rows_to_keep

        assert state.ruleset is not None
        if reaches_back is None:
            def reaches_back(sequence: int) -> bool:
                return self._amended_since(campaign_id, sequence, state.sequence)

        return rows_to_keep(self.store, campaign_id, name, view_fingerprint(state.ruleset.name, name),
                            state.ruleset.view_pieces[name], state, head_hash, stored, reaches_back, self.clock(),
                            event_hash)

    def _amended_since(self, campaign_id: str, after: int, upto: int) -> bool:
        """Whether an amendment recorded after event ``after`` (up to ``upto``) changes an event at or
        before it (found by the amendments' type: no other event is read)."""
        from yarnlog.app.verify import AMENDMENT_TYPES

        if upto <= after:
            return False
        tail = [to_recorded(r) for r in self.store.iter_read(campaign_id, after=after, upto=upto,
                                                              event_types=AMENDMENT_TYPES)]
        return bool(tail) and self._reach(campaign_id, tail, after) <= after

    def check_snapshots(self, campaign_id: str) -> list[SnapshotCheck]:
        """Every stored snapshot and view of the campaign against a full replay at its sequence.

        Snapshots are never trusted: ``verify`` ignores them, and this is how to see whether one
        is wrong (a bug in a fold, a forged row). One of another fingerprint is never read, so it
        is listed as such and not checked.
        """
        from yarnlog.core.state import replay

        snapshots = self.store.snapshots(campaign_id)
        if not snapshots:
            return []
        history = self.history(campaign_id)
        ruleset = self.ruleset_name(campaign_id)
        replays: dict[int, CampaignState[Any]] = {}

        def expected_at(sequence: int) -> CampaignState[Any]:  # one replay for the snapshots of one event
            if sequence not in replays:
                replays[sequence] = replay(history[:sequence])
            return replays[sequence]

        by_kind = {s.kind: s for s in snapshots}
        return [self._check(snapshot, history, ruleset, expected_at, by_kind) for snapshot in snapshots]

    def _check(self, snapshot: Snapshot, history: list[Recorded], ruleset: str,
               expected_at: Callable[[int], CampaignState[Any]], by_kind: dict[str, Snapshot]) -> SnapshotCheck:
        from yarnlog.core.state import in_context

        kind, sequence = snapshot.kind, snapshot.sequence
        if not 0 < sequence <= len(history):
            return SnapshotCheck(kind, sequence, "head-mismatch", f"the campaign has no event {sequence}")
        stored_hash = self.store.event_hash(snapshot.campaign_id, sequence)
        if stored_hash != snapshot.head_hash:
            return SnapshotCheck(kind, sequence, "head-mismatch",
                                 f"taken at an event hashed {snapshot.head_hash[:12]}, stored {str(stored_hash)[:12]}")
        if kind in STATE_KINDS:
            codec, fingerprint = state_codec(ruleset)
            if snapshot.fingerprint != fingerprint:
                return SnapshotCheck(kind, sequence, "other-fingerprint", snapshot.fingerprint)
            try:
                state, timeline = decode_state(codec, snapshot.data)
            except Exception as exc:  # anything a forged text can provoke: it is simply wrong
                return SnapshotCheck(kind, sequence, "unreadable", str(exc)[:200])
            expected = expected_at(sequence)
            recorded = in_context(history[:sequence])[1][-1]
            if state != expected or timeline != recorded:
                return SnapshotCheck(kind, sequence, "differs", _first_difference(state, expected)
                                     if state != expected else "timeline as recorded")
            return SnapshotCheck(kind, sequence, "agrees")
        if kind.startswith(VIEW_PREFIX):
            name, _, block = kind.removeprefix(VIEW_PREFIX).partition("#")
            if snapshot.fingerprint != view_fingerprint(ruleset, name):
                return SnapshotCheck(kind, sequence, "other-fingerprint", snapshot.fingerprint)
            if block:
                return self._check_block(snapshot, name, block, by_kind.get(view_kind(name)), expected_at)
            expected = expected_at(sequence)
            projection = expected.ruleset.projections.get(name) if expected.ruleset is not None else None
            if projection is None:
                return SnapshotCheck(kind, sequence, "unreadable", f"no view called {name!r}")
            return self._check_view(snapshot, name, projection, expected)
        return SnapshotCheck(kind, sequence, "other-fingerprint", f"unknown kind {kind!r}")

    def _check_view(self, snapshot: Snapshot, name: str, projection: Callable[[CampaignState[Any]], Any],
                    expected: CampaignState[Any]) -> SnapshotCheck:
        """A stored view (whole, or the manifest of one kept in pieces, as a reader assembles it)
        against the projection of the full replay at its event."""
        from yarnlog.app.views import manifest_of, served
        from yarnlog.core.views import blocks

        kind, sequence = snapshot.kind, snapshot.sequence
        manifest = manifest_of(snapshot)
        try:
            stored = json.loads(snapshot.data) if manifest is None else \
                served(self.store, snapshot.campaign_id, name, snapshot.fingerprint, manifest)
        except Exception as exc:  # anything a forged text can provoke: it is simply wrong
            return SnapshotCheck(kind, sequence, "unreadable", str(exc)[:200])
        if stored is None:
            return SnapshotCheck(kind, sequence, "unreadable", "a block it lists is not stored as listed")
        if stored != json.loads(encode_view(projection(expected))):
            return SnapshotCheck(kind, sequence, "differs", f"the {name} view differs from a full replay")
        pieces = expected.ruleset.view_pieces.get(name) if expected.ruleset is not None else None
        if manifest is not None and pieces is not None:
            # What the next write builds on must hold too: the head and the mark of a full update.
            update = pieces.update(expected, None)
            whole = json.loads(encode_view({"head": update.head, "mark": update.mark,
                                            "blocks": blocks(update.pieces)}))
            if (manifest["head"], manifest["mark"]) != (whole["head"], whole["mark"]):
                return SnapshotCheck(kind, sequence, "differs", f"the {name} view's mark differs from a full replay")
        return SnapshotCheck(kind, sequence, "agrees")

    def _check_block(self, snapshot: Snapshot, name: str, block: str, manifest_row: Snapshot | None,
                     expected_at: Callable[[int], CampaignState[Any]]) -> SnapshotCheck:
        """A block of a view kept in pieces against the pieces of the full replay at the event of the
        manifest that lists it (a block it does not list is never read: not checked)."""
        from yarnlog.app.views import manifest_of
        from yarnlog.core.views import blocks

        kind, sequence = snapshot.kind, snapshot.sequence
        manifest = manifest_of(manifest_row) if manifest_row is not None and \
            manifest_row.fingerprint == snapshot.fingerprint else None
        if manifest is None or manifest["blocks"].get(block) != sequence:
            return SnapshotCheck(kind, sequence, "unused", "no manifest lists it: never read")
        assert manifest_row is not None
        expected = expected_at(manifest_row.sequence)
        pieces = expected.ruleset.view_pieces.get(name) if expected.ruleset is not None else None
        if pieces is None:
            return SnapshotCheck(kind, sequence, "unreadable", f"no view called {name!r} is kept in pieces")
        try:
            stored = json.loads(snapshot.data)
        except ValueError as exc:
            return SnapshotCheck(kind, sequence, "unreadable", str(exc)[:200])
        want = json.loads(encode_view(blocks(pieces.update(expected, None).pieces))).get(block, {})
        if stored != want:
            return SnapshotCheck(kind, sequence, "differs", f"block {block} of the {name} view differs from a "
                                 f"full replay at event {manifest_row.sequence}")
        return SnapshotCheck(kind, sequence, "agrees")

    def _current(self, campaign_id: str) -> CampaignState[Any]:
        """The state at the journal's end, folding in only the events not seen yet.

        A campaign not seen yet starts from its state snapshot when there is a sound one.
        """
        from yarnlog.core.state import paused_gc

        remembered = self._latest.get(campaign_id)
        if remembered is None:
            remembered = self._from_snapshot(campaign_id)
        if remembered is None:
            return self._replay_from_log(campaign_id)
        records = self.store.read(campaign_id, after=remembered.state.sequence)
        self._stale.discard(campaign_id)
        if not records:
            self._latest[campaign_id] = remembered
            return remembered.state
        with paused_gc():  # a first read may replay the whole history: see paused_gc
            return self._fold(campaign_id, remembered, records)[0]

    def _replay_from_log(self, campaign_id: str) -> CampaignState[Any]:
        """Remember a campaign seen for the first time, with no sound snapshot: its stored events
        replayed as they stream from the store, none kept, so memory is the state's, not the history's.

        Equal to folding the whole history at once (:meth:`_fold` from nothing; the property tests
        of both compare them with a full replay). The corrections and retractions are read first,
        by their type, since they reach back to earlier events; both reads stop at the head read first.
        """
        from yarnlog.app.verify import AMENDMENT_TYPES
        from yarnlog.core.corrections import Amendments
        from yarnlog.core.state import paused_gc, replay_stream, stream_stored_in_context

        head = self.store.head(campaign_id)
        if head is None:
            raise InvalidCommand(f"no campaign {campaign_id!r} in this journal")
        end, head_hash = head
        recorded: list[Timeline] = []  # the timeline as recorded after the last event (not amended)

        def in_context_streamed() -> Iterator[tuple[Recorded, Timeline]]:
            for rec, after in stream_stored_in_context(self.store.iter_read(campaign_id, upto=end)):
                recorded[:] = [after]
                yield rec, after

        with paused_gc():
            amendments = Amendments(map(to_recorded, self.store.iter_read(campaign_id, upto=end,
                                                                          event_types=AMENDMENT_TYPES)))
            state = replay_stream(in_context_streamed(), amendments)
        self._stale.discard(campaign_id)
        timeline = recorded[0] if recorded else state.timeline
        if state.timeline == timeline:
            state = replace(state, timeline=timeline)  # shared, so later folds take the recorded one as it is
        self._latest[campaign_id] = latest = _Remembered(state, timeline, head_hash)
        if self.snapshot_every > 0 and state.sequence - self._snapshot_at.get(campaign_id, 0) >= self.snapshot_every:
            self._save_state(campaign_id, latest, head_hash)
        return state

    def _fold(self, campaign_id: str, remembered: _Remembered | None,
              stored: Sequence[StoredEvent]) -> tuple[CampaignState[Any], list[Recorded]]:
        """Remember the campaign with the ``stored`` events (the ones right after ``remembered``)
        folded in: the state, and the new events in context (each typed once, with its context).

        Equal to a full replay (property tests check it): new events are evolved onto the
        remembered state; with amendments among them, from the latest state that no amendment
        reaches back before (:meth:`_amended`).
        """
        from yarnlog.core.corrections import Correction, Retraction
        from yarnlog.core.state import empty_state, evolve, paused_gc, stream_stored_in_context

        if remembered is None:
            state = empty_state()
            timeline = state.timeline
        else:
            state, timeline = remembered.state, remembered.timeline
        with paused_gc():
            placed = list(stream_stored_in_context(stored, timeline))
        new, afters = [rec for rec, _ in placed], [after for _, after in placed]
        head_hash = stored[-1].hash
        if any(isinstance(r.payload, (Correction, Retraction)) for r in new):
            state = self._amended(campaign_id, remembered, new, afters)
        else:
            for rec, after in zip(new, afters):
                # The timeline is folded once per event: the state's is the one recorded (the same
                # object) unless an amendment changed it, and then it is folded on its own.
                state = evolve(state, rec, after if state.timeline is timeline else None)
                timeline = after
        # Remembered only once the fold has succeeded.
        self._latest[campaign_id] = latest = _Remembered(state, afters[-1] if afters else timeline, head_hash)
        if self.snapshot_every > 0 and state.sequence - self._snapshot_at.get(campaign_id, 0) >= self.snapshot_every:
            self._save_state(campaign_id, latest, head_hash)
        return state, new

    def _amended(self, campaign_id: str, remembered: _Remembered | None, new: list[Recorded],
                 afters: list[Timeline]) -> CampaignState[Any]:
        """The state after ``new`` (in context, with the recorded timeline after each), some of which
        amend earlier events: equal to a full replay of the stored history up to the last of them.

        An amendment changes the event it names, and, when that event is an earlier amendment, what
        that one changed (retracting an amendment undoes it: :class:`Amendments`). So a state at
        event s is still right when every event the amendments after s change comes after s
        (:meth:`_reach`): the fold goes on from the remembered state if that holds, else from the
        newest sound state snapshot before the earliest event changed (an older snapshot's tail may
        change an earlier one: then an older one still), else from the first event.
        """
        from yarnlog.core.state import in_context, replay

        end = new[-1].sequence
        base: _Remembered | None = remembered
        tail, tail_afters = new, afters
        while base is not None:
            reach = self._reach(campaign_id, tail, base.state.sequence)
            if reach > base.state.sequence:
                return _fold_amended(base, tail, tail_afters)
            base = self._from_snapshot(campaign_id, before=reach)
            if base is not None:
                tail, tail_afters = in_context([to_recorded(r) for r in self.store.read(
                    campaign_id, after=base.state.sequence, upto=end)], base.timeline)
        # From the start, ``new`` is the whole history already; otherwise read it back.
        state = replay(new if new[0].sequence == 1 else self.history(campaign_id, upto=end))
        if afters and state.timeline == afters[-1]:
            # Amendments that leave the timeline as recorded: share it again (see _fold).
            state = replace(state, timeline=afters[-1])
        return state

    def _reach(self, campaign_id: str, tail: Sequence[Recorded], after: int) -> int:
        """The earliest event the amendments in ``tail`` (the events after event ``after``) change:
        the events they name and, for a named event at or before ``after`` that is itself an
        amendment (undone, or settled otherwise, by one in the tail), what it names in turn,
        read from the store one event at a time. Past the tail's end if it amends nothing."""
        from yarnlog.app.verify import AMENDMENT_TYPES
        from yarnlog.core.corrections import Correction, Retraction

        pending = [_named(r.payload) for r in tail if isinstance(r.payload, (Correction, Retraction))]
        earliest = tail[-1].sequence + 1 if tail else after + 1
        seen: set[int] = set()
        while pending:
            named = pending.pop()
            if named in seen:
                continue
            seen.add(named)
            earliest = min(earliest, named)
            if named <= after:  # not in the tail: whether it amends something further back
                found = self.store.read(campaign_id, after=named - 1, upto=named)
                if found and found[0].event_type in AMENDMENT_TYPES:
                    payload = to_recorded(found[0]).payload
                    if isinstance(payload, (Correction, Retraction)):
                        pending.append(_named(payload))
        return earliest

    def refresh_views(self, campaign_id: str) -> None:
        """Bring the campaign's stored views up to the state this journal remembers (after a command).

        Only views someone reads (one is stored already) are refreshed, from the state in memory:
        no event is read but the amendments since a view kept in pieces, and the next board read is a
        few rows again. A view the ruleset keeps in pieces rewrites only the blocks whose pieces may
        have changed (:mod:`yarnlog.app.views`), every other view is worked out whole; all are
        written in one transaction. Failures are logged.
        """
        remembered = self._latest.get(campaign_id)
        ruleset = remembered.state.ruleset if remembered is not None else None
        if remembered is None or ruleset is None:
            return
        state = remembered.state
        rows: list[Snapshot] = []
        fingerprints = {name: view_fingerprint(ruleset.name, name) for name in ruleset.projections}
        try:  # every view's row in one query
            kept = {s.kind: s for s in self.store.load_each(
                campaign_id, {view_kind(name): fingerprint for name, fingerprint in fingerprints.items()})}
        except Exception as exc:
            log.warning("cannot read the views of %s (%s)", campaign_id, exc)
            return
        # The views were mostly kept at the same event: what is asked of it is asked of the store once.
        hashes: dict[int, str | None] = {}
        reaching: dict[int, bool] = {}

        def event_hash(sequence: int) -> str | None:
            if sequence not in hashes:
                hashes[sequence] = self.store.event_hash(campaign_id, sequence)
            return hashes[sequence]

        def reaches_back(sequence: int) -> bool:
            if sequence not in reaching:
                reaching[sequence] = self._amended_since(campaign_id, sequence, state.sequence)
            return reaching[sequence]

        for name, projection in ruleset.projections.items():
            fingerprint = fingerprints[name]
            stored = kept.get(view_kind(name))
            if stored is None or stored.sequence == state.sequence:
                continue
            try:
                if name in ruleset.view_pieces:
                    rows += self._view_rows(campaign_id, name, state, remembered.head_hash, stored,
                                            event_hash, reaches_back)
                else:
                    rows.append(Snapshot(campaign_id, view_kind(name), fingerprint, state.sequence,
                                         remembered.head_hash, encode_view(projection(state)), self.clock()))
            except Exception as exc:
                log.warning("cannot compute the %s view of %s (%s)", name, campaign_id, exc)
        if rows:
            try:
                self.store.save_snapshots(rows)
            except Exception as exc:
                log.warning("cannot keep the views of %s (%s)", campaign_id, exc)

    # -- snapshots (caches: a failure is logged, never raised) -----------------------------

    def _from_snapshot(self, campaign_id: str, before: int | None = None) -> _Remembered | None:
        """The campaign from its newest state snapshot (before event ``before``, if given) of this
        code's fingerprint whose event still has the hash it was taken at; None if there is none."""
        if self.snapshot_every <= 0:
            return None
        try:
            ruleset = self.ruleset_name(campaign_id)
        except InvalidCommand:
            return None  # no such campaign: the read that follows says so
        try:
            codec, fingerprint = state_codec(ruleset)
            kept = self.store.snapshots(campaign_id, data=False)  # which to read, without their text
        except Exception as exc:  # a cache that cannot be used is a cache missed, whatever went wrong
            log.warning("cannot list the state snapshots of %s (%s); replaying", campaign_id, exc)
            return None
        candidates = sorted((s for s in kept if s.kind in STATE_KINDS and s.fingerprint == fingerprint
                             and (before is None or s.sequence < before)), key=lambda s: -s.sequence)
        for mark in candidates:
            found = self._state_snapshot(campaign_id, mark.kind, codec, fingerprint)
            if found is not None and (before is None or found.state.sequence < before):
                return found
        return None

    def _state_snapshot(self, campaign_id: str, kind: str, codec: Any, fingerprint: str) -> _Remembered | None:
        """The state snapshot of ``kind``, if it still matches the log and decodes to this campaign."""
        try:
            snapshot = self._load(campaign_id, kind, fingerprint)
            if snapshot is None:
                return None
            if self.store.event_hash(campaign_id, snapshot.sequence) != snapshot.head_hash:
                log.warning("the state snapshot of %s at event %d does not match the log; replaying",
                            campaign_id, snapshot.sequence)
                return None
            state, timeline = decode_state(codec, snapshot.data)
            if state.sequence != snapshot.sequence or state.table.campaign_id != campaign_id:
                log.warning("the state snapshot of %s is not of this campaign at event %d; replaying",
                            campaign_id, snapshot.sequence)
                return None
        except Exception as exc:  # a cache that cannot be used is a cache missed, whatever went wrong
            log.warning("cannot use the state snapshot of %s (%s); replaying", campaign_id, exc)
            return None
        self._snapshot_at[campaign_id] = max(self._snapshot_at.get(campaign_id, 0), snapshot.sequence)
        return _Remembered(state, timeline, snapshot.head_hash)

    def _save_state(self, campaign_id: str, remembered: _Remembered, head_hash: str) -> None:
        """Keep the state as a snapshot, in place of the oldest of the campaign's (:func:`slot_for`)."""
        state = remembered.state
        try:
            codec, fingerprint = state_codec(state.table.ruleset)
            text = encode_state(codec, state, remembered.timeline)
            kind = slot_for(self.store.snapshots(campaign_id, data=False), fingerprint)
        except Exception as exc:
            log.warning("cannot encode the state of %s (%s): no snapshot kept", campaign_id, exc)
            return
        if self._save(Snapshot(campaign_id, kind, fingerprint, state.sequence, head_hash, text, self.clock())):
            self._snapshot_at[campaign_id] = state.sequence

    def _load(self, campaign_id: str, kind: str, fingerprint: str) -> Snapshot | None:
        try:
            return self.store.load_snapshot(campaign_id, kind, fingerprint)
        except Exception as exc:
            log.warning("cannot read the %s snapshot of %s (%s)", kind, campaign_id, exc)
            return None

    def _save(self, snapshot: Snapshot) -> bool:
        try:
            self.store.save_snapshot(snapshot)
            return True
        except Exception as exc:
            log.warning("cannot keep the %s snapshot of %s (%s)", snapshot.kind, snapshot.campaign_id, exc)
            return False

    # -- writing --------------------------------------------------------------------------

    def create_campaign(
        self,
        campaign_id: str,
        *,
        title: str,
        gm: str,
        ruleset: str = DEFAULT_RULESET,
        options: dict[str, bool] | None = None,
        command: CommandKey | None = None,
        new_command: bool = False,
    ) -> Recording:
        """Record the campaign's first event; ``command`` as for :meth:`execute`."""
        from yarnlog.core.limits import check_campaign_id, check_data
        from yarnlog.core.state import EVERYONE, empty_state
        from yarnlog.core.table import CampaignCreated, validate_created

        check_campaign_id(campaign_id)
        problem = check_data({"title": title, "gm": gm, "ruleset": ruleset, "options": options or {}}, {"gm"})
        invalid(problem is None, problem or "")
        if command is not None and not new_command:
            again = self.recorded(campaign_id, command)
            if again is not None:
                return again
        invalid(self.store.last_sequence(campaign_id) == 0, f"campaign {campaign_id!r} already exists")
        try:
            payload = CampaignCreated(campaign_id=campaign_id, title=title, ruleset=ruleset, gm=gm,
                                      options=dict(options or {}))
        except ValueError as exc:
            raise InvalidCommand(f"cannot create campaign: {_first_error(exc)}") from None
        # The same validator verify runs on the first event: the ruleset exists and knows the options.
        payload = validate_created(payload, empty_state(), Referee())
        return Recording(self._append(campaign_id, 0, [payload], by=gm, visibility=EVERYONE, command=command))

    def recorded(self, campaign_id: str, command: CommandKey) -> Recording | None:
        """What ``command``'s id recorded in the campaign (a :class:`Recording` marked already
        recorded), None if it recorded nothing; the same id given with another command is refused."""
        found = self.store.recorded_command(campaign_id, command.id)
        if found is None:
            return None
        first = found.events[0].sequence if found.events else 0
        invalid(found.digest == command.digest,
                f"command id {command.id!r} already recorded another command (event {first}): "
                "nothing written; give this command a new id")
        last = found.events[-1].sequence if found.events else 0
        again = Recording(self.history(campaign_id, upto=last)[first - 1:] if found.events else [])
        again.already_recorded = True
        return again

    def execute(
        self,
        campaign_id: str,
        command: Any,
        *,
        by: str | None = None,
        visibility: str = "everyone",  # core.state.EVERYONE
        override: Override | None = None,
        command_key: CommandKey | None = None,
        new_command: bool = False,
        retries: int | None = None,
        patience: float = PATIENCE,
    ) -> Recording:
        """Decide ``command`` against the campaign and append what it produces.

        The decision is made on the remembered campaign when there is one, without reading:
        the append names the sequence it was decided on, so a decision made on a campaign
        that has moved on is never written (the store raises a conflict, and the command is
        decided again on a fresh read, after a random wait that doubles with each lost race:
        :func:`backoff`). It gives up with the conflict after ``patience`` seconds (or
        ``retries`` attempts, if given). A refusal is checked against a fresh read as well.

        ``command_key`` (see :mod:`yarnlog.app.command_ids`) is kept with the events: if its id
        recorded already, the events it recorded come back (``already_recorded``) and nothing
        is written. ``new_command`` says the id was just minted, so no earlier attempt can have
        used it: the first lookup is skipped.
        """
        deadline = time.monotonic() + patience
        if command_key is not None and not new_command:
            again = self.recorded(campaign_id, command_key)
            if again is not None:
                return again
        state, author, payloads = self._decide(campaign_id, command, by, visibility, override)
        try:  # optimistic: a lone writer appends in one round trip
            return Recording(self._append(campaign_id, state.sequence, payloads, by=author, visibility=visibility,
                                          context=state.timeline, command=command_key))
        except ConcurrencyConflict:
            self._stale.add(campaign_id)
        attempt = 1
        while (retries is None or attempt < retries) and time.monotonic() < deadline:
            # Another writer got there first: wait a little, then take turns, deciding again on
            # the journal as it is, where no other writer can get there first.
            time.sleep(backoff(attempt))
            try:
                # Catch up before the turn, so that in it (other writers waiting) only what was
                # written meanwhile is read and folded: the turn is as short as a decision.
                self._current(campaign_id)
                with self.store.turn(campaign_id):
                    self._stale.add(campaign_id)
                    if command_key is not None:
                        again = self.recorded(campaign_id, command_key)
                        if again is not None:
                            return again
                    state, author, payloads = self._decide(campaign_id, command, by, visibility, override)
                    stored = self._store_append(campaign_id, state.sequence, payloads, by=author,
                                                visibility=visibility, command=command_key)
                # Committed: only now is what was written taken into what this journal remembers.
                return Recording(self._taken_in(campaign_id, state.sequence, stored, state.timeline))
            except ConcurrencyConflict:
                self._stale.add(campaign_id)
                attempt += 1
        raise ConcurrencyConflict(campaign_id, None, None)

    def preview(self, campaign_id: str, command: Any, *, by: str | None = None, visibility: str = "everyone",
                override: Override | None = None) -> list[Payload]:
        """What ``command`` would record now, or its refusal, as :meth:`execute` decides it; nothing is
        written (the shell shows an amendment this way before asking to confirm it; ``yarnlog play``'s
        ``dice?`` learns from the :class:`~yarnlog.core.referee.DiceNeeded` it raises how many dice a move uses)."""
        return self._decide(campaign_id, command, by, visibility, override)[2]

    def _decide(self, campaign_id: str, command: Any, by: str | None, visibility: str,
                override: Override | None) -> tuple[CampaignState[Any], str, list[Payload]]:
        """The state decided on, the author, and the payloads the command produces (or a refusal)."""
        remembered = campaign_id in self._latest and campaign_id not in self._stale
        state = self._latest[campaign_id].state if remembered else self._current(campaign_id)
        try:
            return (state, *self._decision(campaign_id, command, state, by, visibility, override))
        except YarnlogError:
            if not remembered:
                raise
            # A refusal must stand on the journal as it is now, not as this process last saw it.
            fresh = self._current(campaign_id)
            if fresh.sequence == state.sequence:
                raise
            return (fresh, *self._decision(campaign_id, command, fresh, by, visibility, override))

    def _decision(self, campaign_id: str, command: Any, state: CampaignState[Any], by: str | None, visibility: str,
                  override: Override | None) -> tuple[str, list[Payload]]:
        """:func:`_decision`, reading the history (up to ``state``) only for an amendment, which needs it."""
        def history() -> list[Recorded]:
            return self.history(campaign_id, upto=state.sequence)

        return _decision(command, history, state, by, visibility, override)

    def _append(self, campaign_id: str, expected: int, payloads: Sequence[Payload], *, by: str,
                visibility: str, context: Timeline | None = None, command: CommandKey | None = None) -> list[Recorded]:
        """Append ``payloads`` after event ``expected``: the events appended, in the ``context`` of
        that timeline when one is given (as :func:`with_context` gives them)."""
        stored = self._store_append(campaign_id, expected, payloads, by=by, visibility=visibility, command=command)
        return self._taken_in(campaign_id, expected, stored, context)

    def _store_append(self, campaign_id: str, expected: int, payloads: Sequence[Payload], *, by: str,
                      visibility: str, command: CommandKey | None) -> list[StoredEvent]:
        """``payloads`` as events appended to the store after event ``expected``, as stored."""
        new = [
            NewEvent(
                event_id=self.new_id(),
                event_type=p.event_type,
                schema_version=p.schema_version,
                recorded_at=self.clock(),
                recorded_by=by,
                visibility=visibility,
                payload=p.to_data(),
            )
            for p in payloads
        ]
        # A store wrapped by a test may not know command ids: it is told of one only when there is one.
        return self.store.append(campaign_id, expected, new, **({"command": command} if command else {}))

    def _taken_in(self, campaign_id: str, expected: int, stored: list[StoredEvent],
                  context: Timeline | None) -> list[Recorded]:
        """Events just appended after event ``expected``, folded into what this journal remembers when
        they follow it; in the ``context`` of that timeline when one is given."""
        from yarnlog.core.state import with_context
        from yarnlog.core.timeline import Timeline

        remembered = self._latest.get(campaign_id)
        if (remembered.state.sequence if remembered else 0) == expected:
            # The append follows what this journal remembers: fold it in rather than read it back.
            folded = self._fold(campaign_id, remembered, stored)[1]
            recorded_in = remembered.timeline if remembered else Timeline()
            # An event's context depends only on the episode and scene in play before it: when the
            # remembered timeline has the same as ``context``, the events just folded are in context.
            if context is not None and (recorded_in.episode, recorded_in.scene) == (context.episode, context.scene):
                return folded
        appended = [to_recorded(r) for r in stored]
        return appended if context is None else with_context(appended, context)


def _decision(command: Any, history: Callable[[], list[Recorded]], state: CampaignState[Any], by: str | None,
              visibility: str, override: Override | None) -> tuple[str, list[Payload]]:
    """Who records ``command`` and what it produces on ``state``, or a refusal quoting the rule
    (``history()`` gives the events up to ``state``, for an amendment)."""
    from pydantic import ValidationError

    from yarnlog.core.decide import Correct, Retract, decide, decide_amendment
    from yarnlog.core.names import canonical, did_you_mean, starting_with, which_match

    _check_limits(command, by, visibility, override)
    author = canonical(by, state.table.roles) if by else state.table.gm
    if not state.table.knows(author):  # a first name or prefix of one at the table is that one; else refused
        begun = starting_with(author, state.table.roles)
        if len(begun) != 1:
            raise InvalidCommand(f"{author} is not at this campaign's table"
                                 + (which_match(author, state.table.roles) or did_you_mean(author, state.table.roles)))
        author = begun[0]
    _check_visibility(visibility, state.table)
    if override is not None:  # the GM named as typed, like every other name (yarnlog.core.names)
        override = replace(override, by=canonical(override.by, state.table.roles))
    referee = Referee(override)
    try:
        if isinstance(command, (Correct, Retract)):
            payloads = [decide_amendment(command, history(), referee, author=author)]
        else:
            payloads = decide(command, state, referee)
    except ValidationError as exc:  # a payload's own schema refused what the command carried
        raise InvalidCommand(_first_error(exc)) from None
    for payload in payloads:
        # A ruling or an award is the GM's: recorded --by anyone else, it would move tokens on a player's word.
        invalid(not payload.gm_records or state.table.is_gm(author),
                f"{payload.gm_records} is the GM's: record it --by {state.table.gm}, not {author}")
    if referee.overridden:
        override = present(override, "only a GM may override the rules")
        invalid(state.table.is_gm(override.by), "only a GM may override the rules")
        invalid(bool(override.reason.strip()), "an override needs a reason")
        payloads = [_override_event(override, referee, len(payloads))] + payloads
    return author, payloads


def _check_limits(command: Any, by: str | None, visibility: str, override: Override | None) -> None:
    """Refuse a command whose names, texts, numbers or lists break a limit (:mod:`yarnlog.core.limits`)
    before anything is decided: what is typed at the table is checked here for every shell."""
    from yarnlog.core.limits import check_command, check_data
    from yarnlog.core.names import NAME_FIELDS

    check_command(command, NAME_FIELDS)
    problem = check_data({"by": by, "visibility": visibility, "override": override and override.reason},
                         {"by"})
    invalid(problem is None, problem or "")


def _check_visibility(visibility: str, table: Table) -> None:
    from yarnlog.core.state import EVERYONE, GM_ONLY

    if visibility in (EVERYONE, GM_ONLY):
        return
    name = visibility.removeprefix("participant:")
    invalid(visibility.startswith("participant:") and table.knows(name),
            f"visibility must be 'everyone', 'gm' or 'participant:NAME' of someone at the table, "
            f"not {visibility!r}")


def _override_event(override: Override, referee: Referee, covers: int) -> OverrideRecorded:
    from yarnlog.core.corrections import OverriddenRule, OverrideRecorded

    return OverrideRecorded(
        by=override.by,
        reason=override.reason,
        rules=[OverriddenRule(book=r.book, chapter=r.chapter, text=r.text, message=m) for r, m in referee.overridden],
        covers=covers,
    )


def _first_difference(state: CampaignState[Any], expected: CampaignState[Any]) -> str:
    """Where a snapshot's state first differs from the replay (a slice name), for the report."""
    for name in ("sequence", "table", "timeline", "ruleset"):
        if getattr(state, name) != getattr(expected, name):
            return f"{name} differs from a full replay"
    rules, replayed = state.rules, expected.rules
    names = [f for f in getattr(type(rules), "__dataclass_fields__", {}) if getattr(rules, f) != getattr(replayed, f)]
    return f"rules.{names[0]} differs from a full replay" if names else "rules differ from a full replay"


def _first_error(exc: Exception) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        err = errors()[0]
        return f"{'.'.join(str(p) for p in err.get('loc', ()))}: {err.get('msg')}"
    return str(exc)


def _named(amendment: Correction | Retraction) -> int:
    """The event an amendment names."""
    from yarnlog.core.corrections import Correction

    return amendment.corrects if isinstance(amendment, Correction) else amendment.retracts


def _fold_amended(base: _Remembered, tail: list[Recorded], afters: list[Timeline]) -> CampaignState[Any]:
    """``base`` with ``tail`` (the events right after it, in context) folded in, the amendments among
    them applied; every event they name is in ``tail``. Equal to a full replay (as :func:`replay_stream`
    folds: an event retracted is skipped, a corrected one folded as corrected, timeline included)."""
    from yarnlog.core.corrections import Amendments
    from yarnlog.core.state import evolve

    amendments = Amendments(tail)
    state, timeline = base.state, base.timeline
    for rec, after in zip(tail, afters):
        seen = amendments.apply(rec)
        if seen is not None:
            # The recorded timeline is shared only while no amendment has changed the state's.
            state = evolve(state, seen, after if seen is rec and state.timeline is timeline else None)
        timeline = after
    if tail and state.sequence != tail[-1].sequence:
        state = replace(state, sequence=tail[-1].sequence)  # the last event was retracted
    if afters and state.timeline == afters[-1]:
        state = replace(state, timeline=afters[-1])
    return state
