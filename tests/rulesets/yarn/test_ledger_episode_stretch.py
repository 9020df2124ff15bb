"""Issue 27: the ledger's table shows the lines since the episode in play (or the last one) began,
read from that episode's events alone, after what was carried forward; ``--all`` shows every line
and ``--json`` stays the whole ledger. Checked against the full ledger: the lines shown are the full
ledger's from the episode's start, each line as the full ledger has it (event, scene, rule, struck,
running balances), and the balance carried forward is the sum of every earlier line in force."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yarnlog.app.interchange import import_records, parse_lines
from yarnlog.app.journal import Journal
from yarnlog.core.envelope import canonical
from yarnlog.persistence.memory import MemoryStore
from yarnlog.rulesets.yarn.cli.drama_reports import _latest_episode_lines, _ledger_lines

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "journals" / "lantern-harbor.jsonl"
sys.path.insert(0, str(ROOT / "bench"))
import generate  # noqa: E402

PARTICIPANTS = (None, "Ana", "Ben", "Cy", "Maya")


@functools.cache
def lines(source: str) -> tuple[str, ...]:
    found = SAMPLE.read_text(encoding="utf-8").splitlines() if source == "sample" else \
        [canonical(line) for line in generate.events(700)]
    return tuple(found)


def whole_commands(source: str, length: int) -> int:
    """``length``, moved on past the events a GM's override recorded before the cut covers (the tool
    writes an override and the events it covers together: a journal is never cut between them)."""
    end = length
    for index, line in enumerate(lines(source)[:length]):
        data = json.loads(line)
        if data.get("event_type") == "override.recorded":  # (the trailer has none)
            end = max(end, index + 1 + data["payload"]["covers"])
    return min(end, len(lines(source)))


def journal_of(source: str, length: int) -> tuple[Journal, str]:
    records = parse_lines(list(lines(source)[:whole_commands(source, length)]))
    journal = Journal(MemoryStore())
    import_records(journal.store, records)
    return journal, records[0].campaign_id


def carried_by_hand(full: list[dict], start: int) -> dict[str, dict[str, int]]:
    """What each held of each currency before event ``start``: the movements in force before it, summed."""
    held: dict[str, dict[str, int]] = {"drama": {}, "bennie": {}}
    for row in full:
        if row["sequence"] >= start or row["struck"]:
            continue
        for name, sign in ((row["source"], -1), (row["destination"], 1)):
            if name != "kitty":
                held[row["currency"]][name] = held[row["currency"]].get(name, 0) + sign * row["amount"]
    return {currency: {n: v for n, v in by_name.items() if v} for currency, by_name in held.items()}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["sample", "generated"]), st.data())
def test_the_episode_in_play_read_alone_is_the_full_ledger_from_its_start(source, data):
    length = data.draw(st.integers(min_value=20, max_value=len(lines(source))), label="events")
    participant = data.draw(st.sampled_from(PARTICIPANTS), label="participant")
    journal, cid = journal_of(source, length)
    full, _, _ = _ledger_lines(journal, cid, None, None, None, None, latest=False)
    whole = _ledger_lines(journal, cid, None, participant, None, None, latest=True)
    alone = _latest_episode_lines(journal, cid, participant)
    starts = [r.sequence for r in journal.history(cid) if r.event_type == "episode.started"]
    if not starts:
        assert alone is None and whole[2] is None and whole[0] == full
        return
    assert alone is not None
    rows, named, carried = alone
    assert (rows, named, carried) == whole
    assert rows == [r for r in full if r["sequence"] >= starts[-1]]
    assert {c: carried[c] for c in ("drama", "bennie")} == carried_by_hand(full, starts[-1])
    if rows:  # each line's running balance goes on from what was carried forward
        first = rows[0]
        before = carried[first["currency"]]
        for name in (first["source"], first["destination"]):
            if name != "kitty" and not first["struck"]:
                moved = first["amount"] * (1 if name == first["destination"] else -1)
                assert first["balances_after"][name] == before.get(name, 0) + moved


@pytest.fixture
def sample(cli):
    code, _, err = cli("import", str(SAMPLE))
    assert code == 0, err
    return cli


def test_the_table_shows_the_episode_in_play_after_what_was_carried(sample):
    code, out, _ = sample("ledger", "--participant", "Ana")
    assert code == 0
    assert out.startswith("Ledger of Ana ")
    assert "Carried forward to episode 3 (every earlier line; --all shows them): Ana" in " ".join(out.split())
    # under the title, on a line of its own (not run on after the title's key)
    assert any(line.startswith("Carried forward to episode 3") for line in out.splitlines()), out
    every = sample("ledger", "--participant", "Ana", "--all")[1]
    assert "Carried forward" not in every and len(every) > len(out)
    assert all(len(row) <= 80 for row in out.splitlines())
    shown = {line.split()[0] for line in out.splitlines() if line[:1].isdigit()}
    assert shown and all(int(n.split("/")[0]) >= 158 for n in shown)  # episode 3 starts at event 158


def test_json_stays_the_whole_ledger(sample):
    rows = json.loads(sample("ledger", "--participant", "Ana", "--json")[1])
    assert rows == json.loads(sample("ledger", "--participant", "Ana", "--json", "--all")[1])
    assert min(r["sequence"] for r in rows) < 102  # lines of episode 1 and before
    assert {r["episode"] for r in json.loads(sample("ledger", "--episode", "2", "--json")[1])} == {2}


def test_an_episode_asked_for_is_carried_forward_too(sample):
    out = sample("ledger", "--participant", "Ben", "--episode", "2")[1]
    assert "Carried forward to episode 2 (every earlier line; --all shows them): Ben" in " ".join(out.split())


def test_a_movement_struck_from_a_later_episode_leaves_what_was_carried(sample):
    from yarnlog.cli.context import open_journal, pick_campaign

    history = json.loads(sample("log", "--json")[1])
    moves = [e["sequence"] for e in history if e["episode"] == 2 and e["payload"].get("transfers")]
    # Retracted in episode 3 (a refused retraction records nothing): struck before the stretch.
    assert any(sample("retract", str(n), "--reason", "Not how it went", "--yes")[0] == 0 for n in reversed(moves))
    journal = open_journal()
    cid = pick_campaign(journal, None)
    full, _, _ = _ledger_lines(journal, cid, None, None, None, None, latest=False)
    assert any(r["struck"] and r["episode"] == 2 for r in full)
    for participant in PARTICIPANTS:
        alone = _latest_episode_lines(journal, cid, participant)
        assert alone == _ledger_lines(journal, cid, None, participant, None, None, latest=True)
        assert {c: alone[2][c] for c in ("drama", "bennie")} == carried_by_hand(full, 158)


def test_on_both_stores(cli, db_url, monkeypatch):
    from yarnlog.cli.context import open_journal, pick_campaign

    monkeypatch.setenv("YARNLOG_DB", db_url)
    code, _, err = cli("import", str(SAMPLE))
    assert code == 0, err
    journal = open_journal()
    cid = pick_campaign(journal, None)
    full, _, _ = _ledger_lines(journal, cid, None, None, None, None, latest=False)
    for participant in PARTICIPANTS:
        alone = _latest_episode_lines(journal, cid, participant)
        assert alone is not None and alone == _ledger_lines(journal, cid, None, participant, None, None, latest=True)
        assert {c: alone[2][c] for c in ("drama", "bennie")} == carried_by_hand(full, 158)
