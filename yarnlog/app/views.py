"""Stored views kept in pieces: the journal's side of :mod:`yarnlog.core.views`.

A view the ruleset keeps in pieces is stored as a **manifest** (kind ``view:NAME``: its head, the
ruleset's mark, the layout, and the blocks with the event each was stored at) and **blocks** (kind
``view:NAME#FAMILY.N``: up to :data:`~yarnlog.core.views.BLOCK` pieces each). Bringing it to a new
head (:func:`rows_to_keep`) works out the pieces that may have changed since the manifest's mark and
rewrites only their blocks and the manifest, in one transaction: a few rows, however long the
campaign. When the manifest cannot be built on (missing, unreadable, of another history, or an
amendment since reaches back to an event at or before it), every piece is worked out again.

Reading (:func:`served`) needs no ruleset: the manifest says how the blocks assemble into the view.
A block is read only when it is stored at the event the manifest lists for it; any other is left
unread, and the view is worked out again from the state. Like every snapshot, these rows are caches:
a failure to keep them is the caller's to log, never an error of the command.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from yarnlog.app.snapshots import encode_view, view_kind
from yarnlog.core.views import assemble, block_of, blocks, is_manifest, manifest, merged
from yarnlog.persistence.protocol import EventStore, Snapshot, SnapshotRecorder

if TYPE_CHECKING:
    from yarnlog.core.ruleset import CampaignState
    from yarnlog.core.views import ViewPieces

#: A block as stored: piece number (as text) -> piece.
Block = dict[str, Any]


def block_kind(name: str, block: str) -> str:
    """The kind of the row holding block ``block`` of view ``name``."""
    return f"{view_kind(name)}#{block}"


def manifest_of(snapshot: Snapshot | None) -> dict[str, Any] | None:
    """The manifest a stored view holds, or None (no row, unreadable, or a view stored whole)."""
    if snapshot is None:
        return None
    try:
        data = json.loads(snapshot.data)
    except ValueError:
        return None
    return data if is_manifest(data) else None


def _listed(manifest_data: Mapping[str, Any]) -> dict[str, int]:
    return {block: int(at) for block, at in manifest_data["blocks"].items()}


def read_blocks(store: SnapshotRecorder, campaign_id: str, name: str, fingerprint: str,
                listed: Mapping[str, int]) -> dict[str, Block] | None:
    """The ``listed`` blocks (block -> the event it was stored at) as stored, in one query; None if
    any is missing, stored at another event, or unreadable."""
    if not listed:
        return {}
    rows = {r.kind: r for r in store.load_snapshots(campaign_id, [block_kind(name, b) for b in listed], fingerprint)}
    found: dict[str, Block] = {}
    for block, at in listed.items():
        row = rows.get(block_kind(name, block))
        if row is None or row.sequence != at:
            return None
        try:
            data = json.loads(row.data)
        except ValueError:
            return None
        if not isinstance(data, dict):
            return None
        found[block] = data
    return found


def served(store: SnapshotRecorder, campaign_id: str, name: str, fingerprint: str, manifest_data: Mapping[str, Any],
           fresh: Mapping[str, Block] | None = None) -> Any | None:
    """The view a manifest assembles from its blocks (``fresh``: blocks just worked out, not read);
    None if a block is not stored as listed."""
    fresh = fresh or {}
    stored = read_blocks(store, campaign_id, name, fingerprint,
                         {b: at for b, at in _listed(manifest_data).items() if b not in fresh})
    if stored is None:
        return None
    return assemble(manifest_data["head"], manifest_data["layout"], {**stored, **fresh})


def rows_to_keep(store: EventStore, campaign_id: str, name: str, fingerprint: str, pieces: ViewPieces,
                 state: CampaignState[Any], head_hash: str, previous: Snapshot | None,
                 reaches_back: Callable[[int], bool], now: str,
                 event_hash: Callable[[int], str | None] | None = None) -> list[Snapshot]:
    """The rows that bring view ``name`` to ``state`` (whose last event is stored with ``head_hash``):
    the blocks that changed, then the manifest.

    Built on ``previous`` (the stored manifest) when it is of this history, at or before ``state``,
    and no amendment since reaches back to it or before (``reaches_back(sequence)``): only the
    pieces the ruleset's mark points to are worked out, and only their blocks read and rewritten.
    Otherwise every piece is worked out and every block written. ``event_hash(sequence)`` is the
    stored hash of an event of the campaign (the store's, unless the caller remembers it).
    """
    sequence = state.sequence
    if event_hash is None:
        def event_hash(at: int) -> str | None:
            return store.event_hash(campaign_id, at)
    found = manifest_of(previous)
    changed: dict[str, Block] | None = None
    listed: dict[str, int] = {}
    if (found is not None and previous is not None and previous.sequence <= sequence
            and event_hash(previous.sequence) == previous.head_hash
            and not reaches_back(previous.sequence)):
        update = pieces.update(state, found["mark"])
        touched = {block_of(key) for key in update.pieces}
        listed = _listed(found)
        stored = read_blocks(store, campaign_id, name, fingerprint, {b: at for b, at in listed.items() if b in touched})
        if stored is not None:
            changed = {b: merged(b, stored.get(b, {}), update.pieces) for b in touched}
    if changed is None:  # every piece, every block
        update = pieces.update(state, None)
        changed, listed = blocks(update.pieces), {}
    rows = []
    for block, content in sorted(changed.items()):
        if content:
            listed[block] = sequence
            rows.append(Snapshot(campaign_id, block_kind(name, block), fingerprint, sequence, head_hash,
                                 encode_view(content), now))
        else:  # no piece left in it: no longer listed (its row, never read again, is left as a cache)
            listed.pop(block, None)
    text = encode_view(manifest(update, pieces.layout, listed))
    rows.append(Snapshot(campaign_id, view_kind(name), fingerprint, sequence, head_hash, text, now))
    return rows
