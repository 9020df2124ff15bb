"""One composition root per process: a command opens one store and replays its campaign once.

Counted on the sample campaign (206 events): before the journal was bootstrapped once per
process, ``location add`` opened two stores, read the campaign twice and evolved it 410 times.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import yarnlog.app.bootstrap as bootstrap_module
import yarnlog.core.state as state_module
from yarnlog.app.interchange import import_records, parse_lines
from yarnlog.persistence.factory import open_store
from yarnlog.persistence.sql import SqlStore

SAMPLE = Path(__file__).resolve().parents[2] / "journals" / "lantern-harbor.jsonl"


@pytest.fixture
def counted(cli, tmp_path, monkeypatch):
    """The sample campaign in the CLI's journal, and counters of what a command then does to it."""
    records = parse_lines(SAMPLE.read_text(encoding="utf-8").splitlines())
    store = open_store(tmp_path / "journal.db")
    import_records(store, records)
    store.close()

    counts = {"events": len(records), "bootstraps": 0, "stores": 0, "reads": 0, "evolves": 0}

    def counting(key, fn):
        def wrapper(*args, **kwargs):
            counts[key] += 1
            return fn(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(bootstrap_module, "open_store", counting("bootstraps", bootstrap_module.open_store))
    monkeypatch.setattr(SqlStore, "__init__", counting("stores", SqlStore.__init__))
    read = SqlStore.read

    def counted_read(self, campaign_id, *, after=0, upto=None):
        # The command line reads a campaign's first event to know its ruleset's verbs: a
        # one-row lookup, not a replay, counted apart.
        counts["first event lookups" if (after, upto) == (0, 1) else "reads"] += 1
        return read(self, campaign_id, after=after, upto=upto)

    iter_read = SqlStore.iter_read

    def counted_iter_read(self, campaign_id, *, event_types=None, **kwargs):
        # A first replay streams the events: the amendments first, by their type (an index lookup,
        # counted apart), then every event (the read that counts).
        counts["amendment lookups" if event_types is not None else "reads"] += 1
        return iter_read(self, campaign_id, event_types=event_types, **kwargs)

    counts["first event lookups"] = counts["amendment lookups"] = 0
    monkeypatch.setattr(SqlStore, "read", counted_read)
    monkeypatch.setattr(SqlStore, "iter_read", counted_iter_read)
    evolve = counting("evolves", state_module.evolve)
    monkeypatch.setattr(state_module, "evolve", evolve)  # the journal's fold of one event at a time
    # A replay's fold in place (core.state.Replay): one call an event, as evolve's.
    monkeypatch.setattr(state_module.Replay, "fold", counting("evolves", state_module.Replay.fold))
    return cli, counts


@pytest.mark.parametrize("command", [
    # Asks for the campaign's GM (the introducer) before recording: the old double replay.
    ("location", "add", "The Lighthouse", "--description", "a dark tower on the point"),
    ("note", "The fog lifts for a moment."),
])
def test_a_write_command_opens_one_store_and_replays_once(counted, command):
    cli, counts = counted
    code, out, err = cli(*command, "--campaign", "lantern", "--json")
    assert code == 0, err
    [recorded] = json.loads(out)
    assert recorded["sequence"] == counts["events"] + 1
    assert (counts["bootstraps"], counts["stores"], counts["reads"]) == (1, 1, 1)
    assert counts["first event lookups"] <= 1
    # Every stored event evolved once (retracted ones not at all), the new one folded in: no second replay.
    assert counts["events"] - 10 <= counts["evolves"] <= counts["events"] + 2


def test_the_cli_never_reaches_into_the_store():
    """The shell asks the journal; only the composition root knows there is a store."""
    cli_dir = Path(__file__).resolve().parents[2] / "yarnlog" / "cli"
    for source in cli_dir.glob("*.py"):
        text = source.read_text(encoding="utf-8")
        assert ".store" not in text and "persistence" not in text, source.name
