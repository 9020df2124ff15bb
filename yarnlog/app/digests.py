"""Digests of a stored campaign, the check of a journal against one, and consistency proofs.

The Merkle roots are worked out from the stored chain hashes every time (streamed, a few
hashes of memory): no stored tree node is ever trusted, so a digest checks the events
themselves. What a digest proves and what it does not is said in the README ("Tamper evidence").
"""

from __future__ import annotations

from collections.abc import Iterator

from yarnlog.core.digest import ConsistencyProof, Digest
from yarnlog.core.merkle import TreeHasher, consistency_ranges, leaf_hash
from yarnlog.core.referee import InvalidCommand
from yarnlog.persistence.protocol import EventRecorder


def _leaves(store: EventRecorder, campaign_id: str, upto: int) -> Iterator[bytes]:
    """The leaf hashes of the campaign's first ``upto`` events, streamed from the store."""
    for record in store.iter_read(campaign_id, upto=upto):
        yield leaf_hash(record.hash)


def digest_of(store: EventRecorder, campaign_id: str, size: int | None = None) -> Digest:
    """The digest of the campaign as of event ``size`` (default: its last)."""
    last = store.last_sequence(campaign_id)
    if last == 0:
        raise InvalidCommand(f"no campaign {campaign_id!r} in this journal")
    size = last if size is None else size
    if not 1 <= size <= last:
        raise InvalidCommand(f"{campaign_id} holds events 1 to {last}, not {size}")
    hasher = _hashed(store, campaign_id, size)
    if hasher.size != size:  # the store's sequences are 1..n without gaps; a store with a hole is not sound
        raise InvalidCommand(f"{campaign_id} should hold {size} events up to event {size} but holds {hasher.size}: "
                             "run 'yarnlog verify'")
    return Digest(campaign_id, size, hasher.root().hex())


def _hashed(store: EventRecorder, campaign_id: str, upto: int) -> TreeHasher:
    """The tree of the campaign's stored events up to event ``upto``."""
    hasher = TreeHasher()
    for leaf in _leaves(store, campaign_id, upto):
        hasher.add(leaf)
    return hasher


def digest_problem(store: EventRecorder, digest: Digest) -> str | None:
    """Why the stored campaign does not extend exactly the history ``digest`` pins; None if it does."""
    last = store.last_sequence(digest.campaign_id)
    if last == 0:
        return f"no campaign {digest.campaign_id!r} in this journal"
    if last < digest.size:
        return (f"the digest pins {digest.size} events but the journal holds {last}: "
                f"events {last + 1} to {digest.size} were removed")
    hasher = _hashed(store, digest.campaign_id, digest.size)
    if hasher.size != digest.size:
        return f"the journal holds {hasher.size} of events 1 to {digest.size}: events were removed"
    if hasher.root().hex() != digest.root:
        return (f"the journal's first {digest.size} events are not those the digest pins: "
                "history was changed, reordered or replaced")
    return None


def prove_consistency(store: EventRecorder, old: Digest) -> ConsistencyProof:
    """The proof that the campaign as stored now extends ``old``, with today's digest.

    Refused if it does not (a proof of a false statement cannot be made anyway); each proof hash is
    the tree hash of a range of leaves, worked out in one streamed pass over the chain hashes.
    """
    problem = digest_problem(store, old)
    if problem is not None:
        raise InvalidCommand(f"{old.campaign_id} does not extend that digest: {problem}")
    size = store.last_sequence(old.campaign_id)
    ranges = consistency_ranges(old.size, size)
    hashers = {r: TreeHasher() for r in ranges}
    ordered = sorted(ranges)  # the ranges are disjoint: each leaf feeds at most one of them
    at, whole = 0, TreeHasher()
    for index, leaf in enumerate(_leaves(store, old.campaign_id, size)):
        whole.add(leaf)
        while at < len(ordered) and ordered[at][1] <= index:
            at += 1
        if at < len(ordered) and ordered[at][0] <= index:
            hashers[ordered[at]].add(leaf)
    new = Digest(old.campaign_id, size, whole.root().hex())
    return ConsistencyProof(old, new, tuple(hashers[r].root().hex() for r in ranges))
