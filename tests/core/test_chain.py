"""Canonical serialization and the hash chain, with property-based tests."""

from __future__ import annotations

import hashlib
import json

from hypothesis import given
from hypothesis import strategies as st

from yarnlog.core.chain import (
    GENESIS,
    HASHED_FIELDS,
    canonical,
    event_hash,
    hash_of_row,
    remembered_hashes,
    stored_event_hash,
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)

envelopes = st.fixed_dictionaries({
    "campaign_id": st.from_regex(r"[a-z0-9][a-z0-9._-]{0,10}", fullmatch=True),
    "sequence": st.integers(1, 10**6),
    "event_id": st.uuids().map(str),
    "event_type": st.sampled_from(["note", "yarn.tokens.transferred", "scene.opened"]),
    "schema_version": st.integers(1, 5),
    "recorded_at": st.just("2026-11-21T20:00:00.000000Z"),
    "recorded_by": st.text(min_size=1, max_size=10),
    "visibility": st.sampled_from(["everyone", "gm", "participant:Ana"]),
})


@given(json_values)
def test_canonical_form_is_a_fixed_point(value):
    once = canonical(value)
    assert canonical(json.loads(once)) == once


@given(st.dictionaries(st.text(max_size=6), st.integers(), min_size=2, max_size=6))
def test_canonical_form_ignores_key_order(mapping):
    reordered = dict(reversed(list(mapping.items())))
    assert canonical(mapping) == canonical(reordered)


@given(envelopes, json_values)
def test_hash_is_deterministic(envelope, payload):
    assert event_hash(envelope, payload, GENESIS) == event_hash(dict(envelope), json.loads(canonical(payload)), GENESIS)


@given(envelopes, json_values, st.sampled_from(HASHED_FIELDS))
def test_changing_any_envelope_field_changes_the_hash(envelope, payload, field):
    changed = dict(envelope)
    value = changed[field]
    changed[field] = value + 1 if isinstance(value, int) else value + "x"
    assert event_hash(changed, payload, GENESIS) != event_hash(envelope, payload, GENESIS)


@given(envelopes, json_values, json_values)
def test_changing_the_payload_changes_the_hash(envelope, payload, other):
    if canonical(payload) != canonical(other):
        assert event_hash(envelope, payload, GENESIS) != event_hash(envelope, other, GENESIS)


@given(envelopes, json_values, st.text(alphabet="0123456789abcdef", min_size=64, max_size=64))
def test_hash_depends_on_the_previous_hash(envelope, payload, prev):
    if prev != GENESIS:
        assert event_hash(envelope, payload, prev) != event_hash(envelope, payload, GENESIS)


hashes = st.text(alphabet="0123456789abcdef", min_size=64, max_size=64)
payloads_with_floats = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


@given(envelopes, payloads_with_floats, hashes)
def test_the_hash_is_the_sha256_of_the_canonical_body_however_it_is_spliced(envelope, payload, prev):
    """The chain's own definition: the hash covers the envelope and the payload "in the canonical
    JSON form ... together with the hash of the previous event". Spliced from the payload's stored
    text (so the payload is serialized once), it is exactly that."""
    body = {**{name: envelope[name] for name in HASHED_FIELDS}, "payload": payload, "prev_hash": prev}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    expected = hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert stored_event_hash(envelope, canonical(payload), prev) == expected
    assert event_hash(envelope, payload, prev) == expected


@given(envelopes, json_values, json_values, hashes)
def test_a_remembered_hash_is_only_ever_that_of_the_same_row(envelope, payload, other, prev):
    """An import's insert trigger looks up the hash its check worked out for a row (``remembered_hashes``):
    a row of other bytes (another payload) still gets its own hash; outside an import the row is hashed."""
    def row(data: object) -> tuple[object, ...]:
        return (*(envelope[name] for name in HASHED_FIELDS), canonical(data), prev)

    with remembered_hashes():
        seen = stored_event_hash(envelope, canonical(payload), prev)
        assert hash_of_row(row(payload)) == seen
        assert hash_of_row(row(other)) == stored_event_hash(envelope, canonical(other), prev)
        if canonical(other) != canonical(payload):
            assert hash_of_row(row(other)) != seen
    assert hash_of_row(row(payload)) == seen
