"""``log`` finds events by type without the ruleset's prefix (``--type roll`` is ``yarn.roll.*``) and
searches their text (``--grep``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SHEETS = Path(__file__).resolve().parents[2] / "journals" / "sheets"


@pytest.fixture
def played(cli):
    for args in (("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"), ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Iris", "--from-file", str(SHEETS / "iris.json")),
                 ("character", "create", "Tomas", "--from-file", str(SHEETS / "tomas.json")),
                 ("episode", "start", "--title", "Fog"),
                 ("call", "Ben", "--cast", "Tomas", "--mode", "procedural", "--setting", "the Warehouse"),
                 ("roll", "Tomas", "--trait", "Brawler", "--difficulty", "hard", "--faces", "6,4,3,1"),
                 ("note", "The smuggler's lantern goes out")):
        assert cli(*args)[0] == 0, args
    return cli


def types(cli, *args: str) -> list[str]:
    code, out, err = cli("log", "--json", *args)
    assert code == 0, err
    return [e["event_type"] for e in json.loads(out)]


def test_types_match_with_or_without_the_rulesets_prefix(played):
    assert types(played, "--type", "roll") == ["yarn.roll.made"]
    assert types(played, "--type", "yarn.roll") == ["yarn.roll.made"]
    assert types(played, "--type", "roll.made") == ["yarn.roll.made"]
    assert types(played, "--type", "participant") == ["participant.joined", "participant.joined"]
    assert types(played, "--type", "combat") == []


def test_grep_searches_the_text_of_events_ignoring_case(played):
    assert types(played, "--grep", "LANTERN GOES") == ["note"]
    assert types(played, "--grep", "warehouse") == ["scene.opened"]
    assert types(played, "--grep", "warehouse", "--type", "note") == []
