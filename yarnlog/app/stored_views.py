"""The stored views: a ruleset's projections served from the rows kept beside the events.

Serving a view needs only the store and the views' fingerprints when its row was taken at the
campaign's head (two rows and the view's, no replay, no import of the ruleset); otherwise it is
worked out from the state (:class:`~yarnlog.app.state_cache.StateCache`) and stored for the next
reader. After a write, :meth:`StoredViews.refresh` brings the views someone reads to the new head.
A view kept in pieces rewrites only its blocks that may have changed (:mod:`yarnlog.app.views`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from yarnlog.app.snapshots import encode_view, view_fingerprint, view_kind
from yarnlog.app.state_cache import StateCache
from yarnlog.app.state_snapshots import load_snapshot, save_snapshot
from yarnlog.core.referee import invalid
from yarnlog.persistence.protocol import EventStore, Snapshot

if TYPE_CHECKING:
    from yarnlog.core.ruleset import CampaignState

log = logging.getLogger(__name__)


class StoredViews:
    """The campaigns' views as stored, brought to the head when read or after a write."""

    def __init__(self, store: EventStore, states: StateCache, *, clock: Callable[[], str]):
        self.store = store
        self.states = states
        self.clock = clock

    def view(self, campaign_id: str, name: str) -> Any:
        """The ruleset's projection ``name`` (``Views.projections``) at the campaign's end, as JSON data:
        the stored row when it was taken at the head, else worked out and stored."""
        from yarnlog.app.views import manifest_of, served

        head = self.store.head(campaign_id)
        invalid(head is not None, f"no campaign {campaign_id!r} in this journal")
        ruleset = self.states.ruleset_name(campaign_id)
        fingerprint = view_fingerprint(ruleset, name)
        stored = load_snapshot(self.store, campaign_id, view_kind(name), fingerprint)
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
        state = self.states.current(campaign_id)
        projection = state.ruleset.views.projections.get(name) if state.ruleset is not None else None
        invalid(projection is not None, f"the {ruleset} ruleset has no view called {name!r}")
        head_hash = head[1] if head is not None and head[0] == state.sequence else \
            self.store.event_hash(campaign_id, state.sequence)
        pieces = state.ruleset.views.pieces.get(name) if state.ruleset is not None else None
        if pieces is not None and head_hash is not None:
            kept = self._pieces_kept(campaign_id, name, state, head_hash, stored)
            if kept is not None:
                return kept
        text = encode_view(projection(state))  # type: ignore[misc]
        if head_hash is not None:
            save_snapshot(self.store, Snapshot(campaign_id, view_kind(name), fingerprint, state.sequence, head_hash,
                                               text, self.clock()))
        return json.loads(text)

    def refresh(self, campaign_id: str) -> list[str]:
        """Bring the campaign's stored views up to the state remembered (after a command); the names
        of the views brought to it.

        Only views someone reads (one is stored already) are refreshed, from the state in memory:
        no event is read but the amendments since a view kept in pieces, and the next board read is a
        few rows again. A view the ruleset keeps in pieces rewrites only the blocks whose pieces may
        have changed (:mod:`yarnlog.app.views`), every other view is worked out whole; all are
        written in one transaction. Failures are logged.
        """
        remembered = self.states.latest.get(campaign_id)
        ruleset = remembered.state.ruleset if remembered is not None else None
        if remembered is None or ruleset is None:
            return []
        state = remembered.state
        rows: list[Snapshot] = []
        refreshed: list[str] = []
        fingerprints = {name: view_fingerprint(ruleset.name, name) for name in ruleset.views.projections}
        try:  # every view's row in one query
            kept = {s.kind: s for s in self.store.load_each(
                campaign_id, {view_kind(name): fingerprint for name, fingerprint in fingerprints.items()})}
        except Exception as exc:
            log.warning("cannot read the views of %s (%s)", campaign_id, exc)
            return []
        # The views were mostly kept at the same event: what is asked of it is asked of the store once.
        hashes: dict[int, str | None] = {}
        reaching: dict[int, bool] = {}

        def event_hash(sequence: int) -> str | None:
            if sequence not in hashes:
                hashes[sequence] = self.store.event_hash(campaign_id, sequence)
            return hashes[sequence]

        def reaches_back(sequence: int) -> bool:
            if sequence not in reaching:
                reaching[sequence] = self.states.amended_since(campaign_id, sequence, state.sequence)
            return reaching[sequence]

        for name, projection in ruleset.views.projections.items():
            fingerprint = fingerprints[name]
            stored = kept.get(view_kind(name))
            if stored is None or stored.sequence == state.sequence:
                continue
            try:
                if name in ruleset.views.pieces:
                    rows += self._view_rows(campaign_id, name, state, remembered.head_hash, stored,
                                            event_hash, reaches_back)
                else:
                    rows.append(Snapshot(campaign_id, view_kind(name), fingerprint, state.sequence,
                                         remembered.head_hash, encode_view(projection(state)), self.clock()))
                refreshed.append(name)
            except Exception as exc:
                log.warning("cannot compute the %s view of %s (%s)", name, campaign_id, exc)
        if rows:
            try:
                self.store.save_snapshots(rows)
            except Exception as exc:
                log.warning("cannot keep the views of %s (%s)", campaign_id, exc)
                return []
        return refreshed

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
                return self.states.amended_since(campaign_id, sequence, state.sequence)

        return rows_to_keep(self.store, campaign_id, name, view_fingerprint(state.ruleset.name, name),
                            state.ruleset.views.pieces[name], state, head_hash, stored, reaches_back, self.clock(),
                            event_hash)
