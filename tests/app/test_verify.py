"""verify: any single changed byte in any stored event is found, at that event."""

from __future__ import annotations

import uuid
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yarnlog.app.verify import check_chain, verify
from yarnlog.core.chain import GENESIS, seal
from yarnlog.core.envelope import NewEvent, StoredEvent


def _chain(texts: list[str]) -> list[StoredEvent]:
    records, prev = [], GENESIS
    first = NewEvent(str(uuid.UUID(int=0)), "campaign.created", 1, "2026-11-21T20:00:00.000000Z", "Maya", "everyone",
                     {"campaign_id": "c", "title": "T", "ruleset": "yarn", "gm": "Maya", "options": {}})
    for seq, new in enumerate([first] + [
        NewEvent(str(uuid.UUID(int=i + 1)), "note", 1, "2026-11-21T20:00:00.000000Z", "Maya", "everyone", {"text": t})
        for i, t in enumerate(texts)
    ], start=1):
        record = seal("c", seq, new, prev)
        prev = record.hash
        records.append(record)
    return records


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=12).filter(str.strip), min_size=1, max_size=8), st.data())
def test_any_changed_payload_byte_is_found_at_its_event(texts, data):
    records = _chain(texts)
    assert verify(records, "c").ok
    index = data.draw(st.integers(0, len(records) - 1))
    raw = records[index].payload
    pos = data.draw(st.integers(0, len(raw) - 1))
    replacement = data.draw(st.characters(codec="utf-8").filter(lambda ch: ch != raw[pos]))
    tampered = raw[:pos] + replacement + raw[pos + 1:]
    records[index] = replace(records[index], payload=tampered)
    faults = check_chain(records, "c")
    assert faults and faults[0].sequence == index + 1


def test_a_removed_event_is_reported_as_a_gap():
    records = _chain(["a", "b", "c"])
    del records[2]
    faults = check_chain(records, "c")
    assert faults[0].sequence == 4 and "sequence gap" in faults[0].problem


def test_the_first_event_must_create_the_campaign():
    records = _chain(["a"])[1:]
    problems = [f.problem for f in verify(records, "c").faults]
    assert any("first event must be campaign.created" in p for p in problems)
