"""A Merkle tree over a campaign's hash chain, and consistency proofs between two of its sizes.

The chain alone proves that nothing *inside* a journal changed; it cannot prove that nothing was
cut from its end, since a journal cut after event 199 is a sound chain of 199 events. A Merkle
tree gives each size ``n`` of the log one root hash; whoever kept the root of size ``m`` can check
today's root of size ``n`` against it with about ``2 log2 n`` hashes (a consistency proof), without
the log and without trusting whoever sends the proof (RFC 9162, Certificate Transparency 2.0,
§2.1). The leaves are the events' chain hashes, so a root also covers every byte of every event.

Everything here follows RFC 9162 §2.1.1 (the tree hash), §2.1.4.1 (the proof) and §2.1.4.2 (its
verification) to the letter; hashes are raw 32-byte SHA-256 values. Pure functions and one small
accumulator: no storage, no I/O.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

LEAF_PREFIX = b"\x00"
NODE_PREFIX = b"\x01"
#: The root of the tree of no leaves: the hash of the empty string (RFC 9162 §2.1.1).
EMPTY_ROOT = hashlib.sha256(b"").digest()


def leaf_hash(chain_hash: str) -> bytes:
    """The leaf of one event: SHA-256 of 0x00 and its chain hash's 32 bytes (given in hex)."""
    return hashlib.sha256(LEAF_PREFIX + bytes.fromhex(chain_hash)).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """An inner node: SHA-256 of 0x01, the left child and the right child."""
    return hashlib.sha256(NODE_PREFIX + left + right).digest()


class TreeHasher:
    """The root of a growing tree, leaf by leaf, in memory logarithmic in the number of leaves.

    It keeps the roots of the perfect subtrees the leaves so far make (one per bit of the count,
    largest first); the tree's root folds them from the right, which is RFC 9162's split at the
    largest power of two below ``n`` applied again and again.
    """

    def __init__(self) -> None:
        self.size = 0
        self._peaks: list[tuple[int, bytes]] = []  # (leaves under it, its hash), largest first

    def add(self, leaf: bytes) -> None:
        """Add the next leaf hash (see :func:`leaf_hash`)."""
        size, node = 1, leaf
        while self._peaks and self._peaks[-1][0] == size:
            left_size, left = self._peaks.pop()
            size, node = left_size + size, node_hash(left, node)
        self._peaks.append((size, node))
        self.size += 1

    def root(self) -> bytes:
        """The tree hash of the leaves added so far (:data:`EMPTY_ROOT` for none)."""
        if not self._peaks:
            return EMPTY_ROOT
        node = self._peaks[-1][1]
        for _, peak in reversed(self._peaks[:-1]):
            node = node_hash(peak, node)
        return node


def tree_root(leaves: Iterable[bytes]) -> bytes:
    """The tree hash of ``leaves`` (leaf hashes), streamed."""
    hasher = TreeHasher()
    for leaf in leaves:
        hasher.add(leaf)
    return hasher.root()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (n > 1): where RFC 9162 splits a tree of n leaves."""
    return 1 << ((n - 1).bit_length() - 1)


def consistency_ranges(old_size: int, new_size: int) -> list[tuple[int, int]]:
    """The leaf ranges ``[start, end)`` whose tree hashes make the proof from ``old_size`` to ``new_size``.

    RFC 9162 §2.1.4.1's SUBPROOF, which names the subtrees; their hashes are worked out by the
    caller from the log (:func:`consistency_proof`), so no stored node is ever trusted.
    """
    if not 0 <= old_size <= new_size:
        raise ValueError(f"a consistency proof goes from a smaller size to a larger one, not {old_size} to {new_size}")
    if old_size in (0, new_size):
        return []  # every tree extends the empty one; a tree extends itself
    ranges: list[tuple[int, int]] = []
    start, m, n, complete = 0, old_size, new_size, True
    while m != n:
        k = _split(n)
        if m <= k:
            ranges.append((start + k, start + n))  # the right subtree, after the left's proof
            n = k
        else:
            ranges.append((start, start + k))
            start, m, n, complete = start + k, m - k, n - k, False
    if not complete:
        ranges.append((start, start + m))
    # SUBPROOF appends on the way back up: the deepest range comes first.
    return ranges[-1:] + ranges[-2::-1] if not complete else ranges[::-1]


def consistency_proof(leaves: Sequence[bytes], old_size: int) -> list[bytes]:
    """The proof that the tree of all ``leaves`` extends the tree of its first ``old_size`` leaves."""
    return [tree_root(leaves[start:end]) for start, end in consistency_ranges(old_size, len(leaves))]


def verify_consistency(old_size: int, new_size: int, old_root: bytes, new_root: bytes,
                       proof: Sequence[bytes]) -> bool:
    """Whether ``proof`` shows the tree ``new_root`` of ``new_size`` leaves extends ``old_root`` of ``old_size``.

    RFC 9162 §2.1.4.2, step by step; needs nothing but its arguments.
    """
    if not 0 <= old_size <= new_size:
        return False
    if old_size == new_size:
        return not proof and old_root == new_root
    if old_size == 0:
        return not proof  # the empty tree is a prefix of every tree
    if not proof:
        return False
    path = list(proof)
    if old_size & (old_size - 1) == 0:  # an exact power of two: the old tree is a node of the new one
        path.insert(0, old_root)
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            if not fn & 1:
                while not fn & 1 and fn != 0:
                    fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return fr == old_root and sr == new_root and sn == 0
