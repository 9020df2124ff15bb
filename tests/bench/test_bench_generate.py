"""The benchmark's generated campaigns are real campaigns: they import and verify (no timing here)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from yarnlog.app.interchange import import_records, parse_lines
from yarnlog.app.verify import verify
from yarnlog.core.envelope import canonical
from yarnlog.persistence.memory import MemoryStore

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import generate  # noqa: E402


def lines(total: int) -> list[str]:
    return [canonical(line) for line in generate.events(total)]


def test_a_generated_campaign_of_a_thousand_events_imports_and_verifies():
    records = parse_lines(lines(1000))
    assert len(records) == 1000
    types = {r.event_type for r in records}
    # the mix of a real session: scenes, petitions, token moves, rolls, a fight, amendments
    for kind in ("scene.opened", "yarn.petition.resolved", "yarn.petition.forced", "yarn.tokens.returned",
                 "yarn.roll.made", "yarn.combat.attacked", "yarn.bennie.spent", "retraction", "override.recorded"):
        assert kind in types
    store = MemoryStore()
    assert import_records(store, records) == (0, 1000)
    report = verify(store.read(records[0].campaign_id), records[0].campaign_id)
    assert report.ok, report.faults[:3]


def test_a_cut_never_leaves_an_override_without_the_events_it_covers():
    records = parse_lines(lines(700))
    overrides = [r.sequence for r in records if r.event_type == "override.recorded" and r.sequence > 206]
    assert overrides
    for total in (overrides[0], overrides[0] + 1):
        cut = parse_lines(lines(total))
        assert len(cut) == total
        assert verify(cut, cut[0].campaign_id).ok


@pytest.mark.parametrize("total", [1, 30])
def test_a_short_campaign_is_its_session_zero(total):
    cut = parse_lines(lines(total))
    assert len(cut) == total and verify(cut, cut[0].campaign_id).ok
