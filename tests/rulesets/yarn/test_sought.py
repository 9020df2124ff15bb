"""``--sought`` on the petition, force and two-way moves (issue 26): what was sought, in the
recorder's words, told by the recap, the ledger and explain; an optional payload field left out of
the stored payload when absent, so the events recorded before it keep their bytes and hashes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from yarnlog.app.interchange import export_lines, import_records, parse_lines
from yarnlog.persistence.memory import MemoryStore

ROOT = Path(__file__).resolve().parents[3]
SHEETS = ROOT / "journals" / "sheets"


@pytest.fixture
def table(cli):
    for args in (("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"), ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Iris", "--from-file", str(SHEETS / "iris.json")),
                 ("character", "create", "Tomas", "--from-file", str(SHEETS / "tomas.json")),
                 ("episode", "start", "--title", "Fog", "--theme", "trust", "--theme-by", "Ana"),
                 ("precedence", "draw", "--purpose", "calling-order", "--order", "Ana,Ben")):
        assert cli(*args)[0] == 0, args
    return cli


def _ok(cli, *args: str) -> str:
    code, out, err = cli(*args)
    assert code == 0, err
    return out


def test_what_was_sought_is_recorded_and_told_everywhere(table):
    _ok(table, "call", "Ana", "--cast", "Iris,Tomas", "--mode", "dramatic")
    [petition] = json.loads(_ok(table, "petition", "granted", "-p", "Iris", "-g", "Tomas",
                                "--sought", "a place on the crew", "--json"))
    assert petition["payload"]["sought"] == "a place on the crew"
    _ok(table, "call", "Maya", "--cast", "Tomas,Iris", "--mode", "dramatic")
    [plain] = json.loads(_ok(table, "petition", "refused", "-p", "Tomas", "-g", "Iris", "--json"))
    assert "sought" not in plain["payload"]  # absent: not stored at all
    _ok(table, "call", "Ben", "--cast", "Tomas,Iris", "--mode", "dramatic")
    _ok(table, "force", "-p", "Tomas", "-g", "Iris", "--sought", "the lighthouse keys")
    _ok(table, "call", "Ana", "--cast", "Iris,Tomas", "--mode", "dramatic")
    _ok(table, "two-way", "--granted", "Iris", "--denied", "Tomas", "--sought", "a truce")

    recap = _ok(table, "recap")
    assert "Iris petitioned Tomas for a place on the crew, and Tomas granted it." in recap
    assert "Tomas forced Iris for the lighthouse keys" in recap and "(a truce)" in recap
    ledger = json.loads(_ok(table, "ledger", "--json"))
    trail = json.dumps(ledger)
    assert "a place on the crew" in trail and "the lighthouse keys" in trail and "a truce" in trail
    explained = _ok(table, "explain", str(petition["sequence"]))
    assert "a place on the crew" in explained
    _ok(table, "verify")


@pytest.mark.parametrize("sample", ["lantern-harbor.jsonl", "copper-reef.jsonl"])
def test_the_sample_exports_stay_byte_identical(sample):
    text = (ROOT / "journals" / sample).read_text(encoding="utf-8")
    store = MemoryStore()
    import_records(store, parse_lines(text.splitlines()))
    campaign = json.loads(text.splitlines()[0])["campaign_id"]
    assert "".join(export_lines(store, campaign)) == text
