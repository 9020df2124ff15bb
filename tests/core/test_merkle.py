"""The Merkle tree and its consistency proofs against RFC 9162 (Certificate Transparency 2.0), §2.1.

Each function of :mod:`yarnlog.core.merkle` is checked against a naive recomputation written
straight from the RFC's recursive definitions (quoted beside them), on trees of every size.
"""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from yarnlog.core.chain import GENESIS, canonical, event_hash, stored_event_hash
from yarnlog.core.digest import ConsistencyProof, Digest, check_consistency
from yarnlog.core.merkle import (
    EMPTY_ROOT,
    TreeHasher,
    consistency_proof,
    leaf_hash,
    node_hash,
    tree_root,
    verify_consistency,
)


def _k(n: int) -> int:
    """RFC 9162 §2.1.1: "let k be the largest power of two smaller than n (i.e., k < n <= 2k)"."""
    k = 1
    while 2 * k < n:
        k *= 2
    return k


def naive_mth(leaves: list[bytes]) -> bytes:
    """RFC 9162 §2.1.1, with the leaves already hashed ("MTH({d(0)}) = HASH(0x00 || d(0))"):
    "MTH({}) = HASH()"; "MTH(D[n]) = HASH(0x01 || MTH(D[0:k]) || MTH(D[k:n]))"."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return leaves[0]
    k = _k(len(leaves))
    return hashlib.sha256(b"\x01" + naive_mth(leaves[:k]) + naive_mth(leaves[k:])).digest()


def naive_subproof(m: int, leaves: list[bytes], complete: bool) -> list[bytes]:
    """RFC 9162 §2.1.4.1: "SUBPROOF(m, D[m], true) = {}", "SUBPROOF(m, D[m], false) = {MTH(D[m])}";
    for m <= k "SUBPROOF(m, D[0:k], b) : MTH(D[k:n])", for m > k "SUBPROOF(m - k, D[k:n], false) : MTH(D[0:k])"."""
    n = len(leaves)
    if m == n:
        return [] if complete else [naive_mth(leaves)]
    k = _k(n)
    if m <= k:
        return naive_subproof(m, leaves[:k], complete) + [naive_mth(leaves[k:])]
    return naive_subproof(m - k, leaves[k:], False) + [naive_mth(leaves[:k])]


def _leaves(n: int, salt: int = 0) -> list[bytes]:
    return [leaf_hash(hashlib.sha256(f"{salt}:{i}".encode()).hexdigest()) for i in range(n)]


def test_a_leaf_and_a_node_are_hashed_under_different_prefixes():
    """RFC 9162 §2.1.1: "HASH(0x00 || d(0))" for a leaf, "HASH(0x01 || ...)" for a node (no second preimage)."""
    chain_hash = "ab" * 32
    assert leaf_hash(chain_hash) == hashlib.sha256(b"\x00" + bytes.fromhex(chain_hash)).digest()
    left, right = b"L" * 32, b"R" * 32
    assert node_hash(left, right) == hashlib.sha256(b"\x01" + left + right).digest()
    assert EMPTY_ROOT == hashlib.sha256(b"").digest()


@given(st.integers(min_value=0, max_value=300))
def test_the_streamed_root_is_the_rfc_tree_hash(n):
    leaves = _leaves(n)
    hasher = TreeHasher()
    for i, leaf in enumerate(leaves, start=1):
        hasher.add(leaf)
        if i in (1, n // 2, n):
            assert hasher.root() == naive_mth(leaves[:i])
    assert tree_root(leaves) == naive_mth(leaves)


@given(st.integers(min_value=1, max_value=200).flatmap(
    lambda n: st.tuples(st.just(n), st.integers(min_value=1, max_value=n))))
def test_the_proof_is_the_rfc_subproof_and_it_verifies(sizes):
    """RFC 9162 §2.1.4.1: "PROOF(m, D[n]) = SUBPROOF(m, D[n], true)"; §2.1.4.2 accepts it."""
    n, m = sizes
    leaves = _leaves(n)
    proof = consistency_proof(leaves, m)
    assert proof == naive_subproof(m, leaves, True)
    assert verify_consistency(m, n, naive_mth(leaves[:m]), naive_mth(leaves), proof)
    assert len(proof) <= 2 * max(n - 1, 1).bit_length()  # O(log n) hashes


@given(st.integers(min_value=2, max_value=150).flatmap(
    lambda n: st.tuples(st.just(n), st.integers(min_value=1, max_value=n - 1),
                        st.integers(min_value=0, max_value=n - 1))))
def test_a_changed_history_has_no_proof(case):
    """A leaf of the old tree changed (or one after it): the honest proof of the new log fails the old root."""
    n, m, changed = case
    leaves = _leaves(n)
    forged = leaves.copy()
    forged[changed] = leaf_hash("00" * 32)
    proof = consistency_proof(forged, m)
    ok = verify_consistency(m, n, naive_mth(leaves[:m]), naive_mth(forged), proof)
    assert ok is (changed >= m)  # only a change after the old size is an extension


@given(st.integers(min_value=2, max_value=120).flatmap(
    lambda n: st.tuples(st.just(n), st.integers(min_value=1, max_value=n - 1))), st.data())
def test_a_tampered_proof_or_wrong_sizes_fail(sizes, data):
    n, m = sizes
    leaves = _leaves(n)
    old, new = naive_mth(leaves[:m]), naive_mth(leaves)
    proof = consistency_proof(leaves, m)
    if proof:
        at = data.draw(st.integers(min_value=0, max_value=len(proof) - 1))
        bad = proof.copy()
        bad[at] = hashlib.sha256(bad[at]).digest()
        assert not verify_consistency(m, n, old, new, bad)
        assert not verify_consistency(m, n, old, new, proof[:-1])
        assert not verify_consistency(m, n, old, new, proof + [old])
    assert not verify_consistency(n, m, new, old, proof)  # (a size is bound to its root by the digest holding both)


def test_a_tree_extends_itself_and_the_empty_tree_only_with_no_proof():
    """RFC 9162 §2.1.4.2: first == second needs an empty proof and equal roots; the empty tree is a prefix."""
    leaves = _leaves(5)
    root = tree_root(leaves)
    assert verify_consistency(5, 5, root, root, [])
    assert not verify_consistency(5, 5, root, tree_root(leaves[:4]), [])
    assert not verify_consistency(5, 5, root, root, [root])
    assert verify_consistency(0, 5, EMPTY_ROOT, root, [])


def test_a_proof_between_digests_checks_campaign_and_order():
    leaves = _leaves(9)
    old = Digest("harbor", 4, tree_root(leaves[:4]).hex())
    new = Digest("harbor", 9, tree_root(leaves).hex())
    path = tuple(h.hex() for h in consistency_proof(leaves, 4))
    assert check_consistency(ConsistencyProof(old, new, path)) is None
    other = Digest("other", 9, new.root)
    assert "two campaigns" in check_consistency(ConsistencyProof(old, other, path))
    assert "longer" in check_consistency(ConsistencyProof(new, old, path))
    cut = Digest("harbor", 9, tree_root(leaves[:8] + _leaves(1, salt=1)).hex())
    assert "changed or cut" in check_consistency(ConsistencyProof(old, cut, path))


TEXT = st.text(st.characters(codec="utf-8"), max_size=20)


@given(TEXT, TEXT, st.integers(min_value=1, max_value=2**40), st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**53), max_value=2**53) | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3), max_leaves=8))
def test_the_hash_of_the_stored_bytes_is_the_chain_hash_for_a_canonical_payload(name, kind, sequence, payload):
    """What the database triggers recompute (stored_event_hash) is what the journal sealed (event_hash)."""
    header = {"campaign_id": "c", "sequence": sequence, "event_id": "e", "event_type": kind, "schema_version": 1,
              "recorded_at": "2026-11-21T20:00:00Z", "recorded_by": name, "visibility": "everyone"}
    wrapped = {"value": payload}
    assert stored_event_hash(header, canonical(wrapped), GENESIS) == event_hash(header, wrapped, GENESIS)
