"""DramaSystem's recap tells each scene as a story (issue 26): who called it, where, with whom, the
petitions and their answers, the forces and blocks, ducks and rushes, what the cards said; no token
moves in the telling, and highlights of the forces, the contests and the bennie winners."""

from __future__ import annotations

from pathlib import Path

import pytest

from yarnlog.app.interchange import import_records, parse_lines
from yarnlog.app.journal import Journal
from yarnlog.core.audience import Audience
from yarnlog.persistence.memory import MemoryStore
from yarnlog.rulesets.dramasystem.recap import Scope, build_recap

SAMPLE = Path(__file__).resolve().parents[3] / "journals" / "copper-reef.jsonl"


@pytest.fixture(scope="module")
def reef():
    store = MemoryStore()
    import_records(store, parse_lines(SAMPLE.read_text(encoding="utf-8").splitlines()))
    journal = Journal(store)
    history = journal.history("reef")
    return history, build_recap(history, journal.state("reef").table, Audience("gm"), Scope())


def test_each_scene_is_told_in_plain_sentences_from_its_events(reef):
    history, told = reef
    scenes = {s["number"]: " ".join(s["story"]) for e in told["episodes"] for s in e["scenes"]}
    for rec in history:
        p = rec.payload.model_dump()
        if rec.event_type == "scene.opened":
            assert scenes[p["number"]].startswith(f"{p['caller']} called "), scenes[p["number"]]
            assert p["setting"] in scenes[p["number"]]
        elif rec.event_type == "dramasystem.petition.resolved":
            answer = {"granted": f"{p['granter']} granted it", "refused": f"{p['granter']} refused"}
            assert f"{p['petitioner']} petitioned {p['granter']}" in scenes[rec.scene]
            assert (answer.get(p["outcome"], "") if not p.get("vote") else "the table voted it") in scenes[rec.scene]
        elif rec.event_type == "dramasystem.petition.forced":
            verb = "tried to force" if p["blocked"] else "forced"
            assert f"{p['petitioner']} {verb} {p['granter']}" in scenes[rec.scene]
        elif rec.event_type in ("dramasystem.challenge.ducked", "dramasystem.challenge.rushed"):
            assert p["character"] in scenes[rec.scene]
        elif rec.event_type == "dramasystem.procedure.resolved":
            assert "The GM reveals" in scenes[rec.scene]
    for text in scenes.values():
        assert " gives " not in text and "drama token" not in text and "(Gaining Tokens)" not in text


def test_the_highlights_are_the_forces_contests_and_bennie_winners(reef):
    history, told = reef
    episodes = {e["number"]: e for e in told["episodes"]}
    for rec in history:
        p = rec.payload.model_dump()
        if rec.event_type == "dramasystem.bennie.vote_tallied":
            won = [t["player"] for t in p["tallies"] if t["gains_bennie"]]
            assert f"{' and '.join(won)} won the bennie vote." in episodes[rec.episode]["highlights"]
        elif rec.event_type == "dramasystem.petition.forced":
            assert any(p["granter"] in line for line in episodes[rec.episode]["highlights"])
