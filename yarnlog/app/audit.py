"""The audit of a stored campaign: its events, the database's guards, and the caches beside them.

The events are checked by :mod:`yarnlog.app.verify` (chain, payloads, rules). Beside them, the
database must still refuse to change them (its guards), and every cached snapshot and view is
compared with a full replay at its event: snapshots are never trusted, and this is how to see
whether one is wrong (a bug in a fold, a forged row).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from yarnlog.app.snapshot_rows import read_state
from yarnlog.app.snapshots import STATE_KINDS, VIEW_PREFIX, encode_view, state_codec, view_fingerprint, view_kind
from yarnlog.app.state_cache import StateCache
from yarnlog.app.state_snapshots import piece_fetcher
from yarnlog.persistence.protocol import EventStore, Snapshot

if TYPE_CHECKING:
    from yarnlog.app.verify import Report
    from yarnlog.core.events import Recorded
    from yarnlog.core.ruleset import CampaignState


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


class Audit:
    """What ``verify`` checks of a campaign as stored."""

    def __init__(self, store: EventStore, states: StateCache):
        self.store = store
        self.states = states

    def verify(self, campaign_id: str, *, caches: bool = True) -> Report:
        """Check the campaign's stored events: the chain, the payloads and the rules; that the database
        still refuses to change them (its guards); and (``caches``) that every snapshot and view a read
        would use says what a full replay says."""
        from yarnlog.app.verify import verify_stored
        from yarnlog.core.decide import Fault

        report = verify_stored(self.store, campaign_id)
        if caches and report.events and not report.faults:
            report.faults.extend(Fault(check.sequence, check.kind, f"{check.detail}: a cache that lies")
                                 for check in self.check_snapshots(campaign_id, in_use=True)
                                 if check.status == "differs")
        missing = self.store.missing_guards()
        if missing and report.events:
            report.faults.append(Fault(0, "-", "the database no longer enforces append-only: "
                                           f"{', '.join(missing)} dropped, disabled or out of date"))
        return report

    def check_snapshots(self, campaign_id: str, *, in_use: bool = False) -> list[SnapshotCheck]:
        """Every stored snapshot and view of the campaign against a full replay at its sequence.

        One of another fingerprint is never read, so it is listed as such and not checked.
        ``in_use``: only those a read starts from, the state snapshots and the views taken at the
        head (a view kept in pieces as its reader assembles it from its blocks).
        """
        from yarnlog.core.state import replay

        snapshots = self.store.snapshots(campaign_id)
        if in_use:
            head = self.store.head(campaign_id)
            snapshots = [s for s in snapshots if s.kind in STATE_KINDS or
                         ("#" not in s.kind and (s.sequence, s.head_hash) == head)]
        if not snapshots:
            return []
        history = self.states.history(campaign_id)
        ruleset = self.states.ruleset_name(campaign_id)
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
                state, timeline = read_state(codec, snapshot.data, piece_fetcher(self.store, snapshot.campaign_id))
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
            projection = expected.ruleset.views.projections.get(name) if expected.ruleset is not None else None
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
        pieces = expected.ruleset.views.pieces.get(name) if expected.ruleset is not None else None
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
        pieces = expected.ruleset.views.pieces.get(name) if expected.ruleset is not None else None
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


def _first_difference(state: CampaignState[Any], expected: CampaignState[Any]) -> str:
    """Where a snapshot's state first differs from the replay (a slice name), for the report."""
    for name in ("sequence", "table", "timeline", "ruleset"):
        if getattr(state, name) != getattr(expected, name):
            return f"{name} differs from a full replay"
    rules, replayed = state.rules, expected.rules
    names = [f for f in getattr(type(rules), "__dataclass_fields__", {}) if getattr(rules, f) != getattr(replayed, f)]
    return f"rules.{names[0]} differs from a full replay" if names else "rules differ from a full replay"
