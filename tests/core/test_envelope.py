"""The envelope: one declaration of a stored event, and the mappers every layer goes through."""

from __future__ import annotations

import json

import pytest

from yarnlog.core.chain import GENESIS, HASHED_FIELDS, seal
from yarnlog.core.envelope import (
    STORED_FIELDS,
    NewEvent,
    StoredEvent,
    from_line,
    recorded_data,
    to_line,
    to_recorded,
)
from yarnlog.core.events import Recorded
from yarnlog.core.referee import InvalidCommand

NOTE = NewEvent("00000000-0000-0000-0000-000000000007", "note", 1, "2026-11-21T20:00:07.000000Z", "Maya",
                "everyone", {"text": "Ünïcödé «fog»"})


def test_the_hash_covers_the_same_fields_and_bytes_as_ever():
    # Known answers computed with the chain as it was before the envelope had one declaration:
    # changing them would break every stored journal's chain.
    assert HASHED_FIELDS == ("campaign_id", "sequence", "event_id", "event_type", "schema_version", "recorded_at",
                             "recorded_by", "visibility")
    assert seal("lantern", 7, NOTE, GENESIS).hash == "a69de4c5244af6dc914cd8df773b36b3d08a123663c1f72d9e094a044493dd5a"
    assert seal("lantern", 7, NOTE, "a" * 64).hash == (
        "26edaa1fa4de5353b5790ab5765b2a3644536cbe58b6c7ee832f7a38e67bda18")


def test_a_sealed_event_stores_its_payload_canonically():
    stored = seal("lantern", 7, NOTE, GENESIS)
    assert stored.payload == '{"text":"Ünïcödé «fog»"}'
    assert (stored.campaign_id, stored.sequence, stored.prev_hash) == ("lantern", 7, GENESIS)
    assert stored.header() == {name: getattr(stored, name) for name in HASHED_FIELDS}


def test_an_export_line_is_every_stored_field_and_maps_back_exactly():
    stored = seal("lantern", 7, NOTE, GENESIS)
    line = to_line(stored)
    assert tuple(line) == STORED_FIELDS
    assert line["payload"] == {"text": "Ünïcödé «fog»"}
    assert from_line(line) == stored
    # However the payload's keys were ordered in the file, it is stored canonically.
    assert from_line({**line, "payload": {"b": 1, "a": 2}}).payload == '{"a":2,"b":1}'


def test_the_typed_view_carries_the_envelopes_header():
    assert tuple(Recorded.model_fields)[:len(HASHED_FIELDS)] == HASHED_FIELDS
    recorded = to_recorded(seal("lantern", 7, NOTE, GENESIS))
    # A version 1 note reads as version 2, filed under no scene of its own.
    assert (recorded.payload.event_type, recorded.payload.to_data()) == ("note", {**NOTE.payload, "scene": None})
    assert {name: getattr(recorded, name) for name in HASHED_FIELDS} == seal("lantern", 7, NOTE, GENESIS).header()


def test_an_unreadable_payload_names_the_event():
    broken = StoredEvent(**{**to_line(seal("lantern", 7, NOTE, GENESIS)), "payload": "{not json"})
    with pytest.raises(InvalidCommand, match=r"event 7 \(note\) has an unreadable payload"):
        to_recorded(broken)


def test_the_json_output_of_a_recorded_event_keeps_its_shape():
    recorded = to_recorded(seal("lantern", 7, NOTE, GENESIS)).model_copy(update={"episode": 2, "scene": 5})
    data = recorded_data(recorded)
    assert list(data) == ["sequence", "event_id", "event_type", "schema_version", "recorded_at", "recorded_by",
                          "visibility", "episode", "scene", "payload"]
    assert (data["episode"], data["scene"], data["payload"]) == (2, 5, {"text": "Ünïcödé «fog»", "scene": None})
    json.dumps(data)  # plain data only
