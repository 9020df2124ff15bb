"""Issue 27: the GM's recap of one episode is told from that episode's events alone (its stretch of the
log, the campaign just before it from the state snapshots), and reads byte for byte as the telling
of the whole history does: Markdown, HTML and JSON, of the sample campaign and of a generated one,
with an amendment recorded later that reaches into the episode, and one that reaches back before it
(then the whole history is told, as before)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from yarnlog.core.envelope import canonical
from yarnlog.rulesets.yarn.cli import recap as recap_cli

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "journals" / "lantern-harbor.jsonl"
sys.path.insert(0, str(ROOT / "bench"))
import generate  # noqa: E402


def _told_both_ways(cli, monkeypatch, *args: str) -> tuple[tuple[int, str, str], tuple[int, str, str], bool]:
    """``recap ARGS`` as the command tells it, then told from the whole history; and whether the first
    was told from the episode's events alone."""
    alone: list[bool] = []
    asked = recap_cli.episode_asked

    def spied(**options):
        found = asked(**options)
        alone.append(found is not None)
        return found

    monkeypatch.setattr(recap_cli, "episode_asked", spied)
    told = cli(*args)
    monkeypatch.setattr(recap_cli, "episode_asked", lambda **options: None)
    whole = cli(*args)
    monkeypatch.setattr(recap_cli, "episode_asked", asked)
    return told, whole, bool(alone and alone[-1])


@pytest.fixture
def imported(cli, tmp_path, monkeypatch):
    def load(source: str):
        path = SAMPLE
        if source == "generated":
            path = tmp_path / "generated.jsonl"
            path.write_text("".join(canonical(line) + "\n" for line in generate.events(900)), encoding="utf-8")
        code, _, err = cli("import", "--without-trailer", str(path))
        assert code == 0, err
        return cli
    return load


@pytest.mark.parametrize(("source", "episodes"), [("sample", (1, 2, 3)), ("generated", (1, 2, 7, 14))])
def test_one_episode_told_from_its_events_reads_as_the_whole_telling(imported, monkeypatch, source, episodes):
    cli = imported(source)
    for number in episodes:
        for args in (("--format", "md"), ("--format", "html"), ("--json",)):
            told, whole, alone = _told_both_ways(cli, monkeypatch, "recap", "--episode", str(number), *args)
            assert alone, (number, args)
            assert told[0] == 0 and told == whole, (number, args)
    told, whole, alone = _told_both_ways(cli, monkeypatch, "recap")  # the last episode, by default
    assert alone and told == whole


def test_amendments_recorded_later_are_told_in_the_episode_they_reach(imported, monkeypatch):
    cli = imported("sample")
    history = json.loads(cli("log", "--json")[1])
    # A movement of episode 2 retracted in episode 3: the first whose retraction no later move
    # depends on (a refused retraction records nothing).
    moves = [e["sequence"] for e in history if e["episode"] == 2 and e["payload"].get("transfers")]
    assert any(cli("retract", str(n), "--reason", "Not how it went", "--yes")[0] == 0 for n in reversed(moves))
    for number, reaches_back in ((1, False), (2, False), (3, True)):
        told, whole, alone = _told_both_ways(cli, monkeypatch, "recap", "--episode", str(number))
        assert told[0] == 0 and told == whole, number
        # An amendment recorded in episode 3 of an event of episode 2: episode 3's stretch no longer
        # starts where the whole history's telling stands, so it is told from the whole history.
        assert alone is not reaches_back, number
    assert "Not how it went" in _told_both_ways(cli, monkeypatch, "recap", "--episode", "2")[0][1]


def test_the_same_refusals(imported, monkeypatch):
    cli = imported("sample")
    told, whole, _ = _told_both_ways(cli, monkeypatch, "recap", "--episode", "9")
    assert told == whole and told[0] != 0 and "there is no episode 9 (episodes: 1, 2, 3)" in told[2]
    assert _told_both_ways(cli, monkeypatch, "recap", "--episode", "2", "--format", "pdf")[0][0] != 0


def test_on_both_stores(cli, db_url, monkeypatch):
    monkeypatch.setenv("YARNLOG_DB", db_url)
    code, _, err = cli("import", str(SAMPLE))
    assert code == 0, err
    for number in (1, 2, 3):
        told, whole, alone = _told_both_ways(cli, monkeypatch, "recap", "--episode", str(number), "--format", "html")
        assert alone and told[0] == 0 and told == whole, number
