"""Optional rules switched on or off in play: a GM's ruling, recorded, in force from that event on;
what was played before keeps the rules it was played under (verify re-checks each event so)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from yarnlog.cli.main import EXIT_CODES

SHEETS = Path(__file__).resolve().parents[2] / "journals" / "sheets"
ROLL = ("roll", "Tomas", "--trait", "Brawler", "--difficulty", "hard", "--faces", "1,1,1,1", "--json")


@pytest.fixture
def in_a_scene(cli):
    for args in (("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"), ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Iris", "--from-file", str(SHEETS / "iris.json")),
                 ("character", "create", "Tomas", "--from-file", str(SHEETS / "tomas.json")),
                 ("episode", "start", "--title", "Fog"), ("call", "Ben", "--cast", "Tomas", "--mode", "procedural")):
        assert cli(*args)[0] == 0, args
    return cli


def botched(cli) -> bool:
    code, out, err = cli(*ROLL)
    assert code == 0, err
    return json.loads(out)[-1]["payload"]["botch"]


def test_an_optional_rule_switched_on_applies_from_that_point_on(in_a_scene):
    assert botched(in_a_scene) is False  # "Optional Procedural Rules: Botch" is off
    code, out, err = in_a_scene("options", "--on", "botch", "--reason", "the table wants danger", "--json")
    assert code == 0, err
    ruling = json.loads(out)[0]
    assert ruling["event_type"] == "campaign.options_changed"
    assert ruling["payload"] == {"options": {"botch": True}, "by": "Maya", "reason": "the table wants danger"}
    assert botched(in_a_scene) is True
    _, out, _ = in_a_scene("options", "--json")
    assert {r["option"]: r["on"] for r in json.loads(out)}["botch"] is True
    assert in_a_scene("options", "--off", "botch", "--reason", "too harsh")[0] == 0
    assert botched(in_a_scene) is False
    assert in_a_scene("verify")[0] == 0  # each roll checked under the rules in force when it was made


def test_only_a_gm_rules_and_only_on_rules_the_system_offers(in_a_scene):
    _, before, _ = in_a_scene("export")
    code, _, err = in_a_scene("options", "--on", "botch", "--reason", "x", "--by", "Ana")
    assert code == EXIT_CODES["invalid"] and "only a GM" in err
    code, _, err = in_a_scene("options", "--on", "botchh", "--reason", "x")
    assert code == EXIT_CODES["invalid"] and "did you mean botch?" in err
    code, _, err = in_a_scene("options", "--off", "botch", "--reason", "x")
    assert code == EXIT_CODES["invalid"] and "already as ruled: botch is off" in err
    code, _, err = in_a_scene("options", "--on", "botch")
    assert code == EXIT_CODES["invalid"] and "needs a reason" in err
    assert in_a_scene("export")[1] == before
