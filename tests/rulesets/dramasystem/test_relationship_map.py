"""DramaSystem's relationship map (SRD 67-115): the ``relationships`` report and the map that opens a
whole-series recap, both the shared core's (Yarn reads the same code)."""

from __future__ import annotations

import json

import pytest

SETUP = (
    ("init", "storm", "--title", "Storm", "--gm", "Maya", "--ruleset", "dramasystem"),
    ("join", "Ana"), ("join", "Ben"), ("join", "Cy"),
    ("character", "create", "Iris", "--player", "Ana", "--strong", "Fighting,Talking", "--weak", "Knowing,Making"),
    ("character", "create", "Tomas", "--player", "Ben", "--strong", "Moving,Sneaking", "--weak", "Talking,Enduring"),
    ("character", "create", "Vel", "--player", "Cy", "--strong", "Knowing,Making", "--weak", "Fighting,Moving"),
    ("character", "relate", "Iris", "Tomas", "--nature", "old partners"),
    ("character", "want", "Iris", "--from", "Tomas", "--want", "his respect", "--why-not", "he thinks her a fraud"),
    ("character", "want", "Iris", "--from", "Vel", "--want", "a truce", "--why-not", "envy"),
    ("character", "want", "Iris", "--from", "Tomas", "--want", "an apology", "--why-not", "pride"),
)


@pytest.fixture
def storm(cli):
    for args in SETUP:
        code, _, err = cli(*args)
        assert code == 0, (args, err)
    return cli


def test_the_report_lists_lines_wants_and_who_is_not_yet_wanted_twice(storm):
    code, out, err = storm("relationships", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["relationships"] == [{"character": "Iris", "other": "Tomas", "nature": "old partners"}]
    # DS8, line 115: "The first and second PCs you name as your withholders of emotional reward are your
    # fraught relationships": Tomas and Vel, and Iris's second want from Tomas is fraught as the first is.
    assert [(w["withholder"], w["want"], w["fraught"]) for w in data["wants"]] == [
        ("Tomas", "his respect", True), ("Vel", "a truce", True), ("Tomas", "an apology", True)]
    # DS9, line 51: "until all characters are named as objects of at least two other characters' wants":
    # only Iris wants anything, so nobody is wanted by two others yet (Tomas and Vel by one each).
    assert data["wanted_by_fewer_than_two"] == ["Iris", "Tomas", "Vel"]
    code, out, _ = storm("relationships")
    assert code == 0 and "Tomas (fraught)" in out and "old partners" in out
    assert "Not yet the object of two other PCs' wants: Iris, Tomas, Vel" in " ".join(out.split())
    assert all(len(line) <= 80 for line in out.splitlines())


def test_a_player_sees_the_map_and_an_earlier_map_is_as_it_was(storm):
    code, gm, _ = storm("relationships", "--json")
    code, ana, err = storm("relationships", "--as", "ana", "--json")
    assert code == 0, err
    assert json.loads(ana) == json.loads(gm)  # wants are made at the table: nothing on the map is secret
    log = json.loads(storm("log", "--json")[1])
    first_want = next(e["sequence"] for e in log if e["event_type"] == "dramasystem.character.want_declared")
    code, out, _ = storm("relationships", "--as-of", str(first_want - 1), "--json")
    assert code == 0 and json.loads(out)["wants"] == []
    code, out, err = storm("relationships", "--as", "Zed")
    assert code == 2 and out == "" and err.count("\n") == 1 and "Zed" in err


def test_a_whole_series_recap_opens_with_the_map_drawn_and_an_episode_recap_does_not(storm):
    for args in (("episode", "start", "--title", "Fog", "--theme", "trust", "--theme-by", "Maya",
                  "--override", "Tomas and Vel declare their wants in play"),
                 ("note", "The fog comes in.")):
        code, _, err = storm(*args)
        assert code == 0, (args, err)
    code, md, err = storm("recap", "--series")
    assert code == 0, err
    assert "## Relationship map" in md and "```mermaid" in md
    assert '-->|"old partners"|' in md and '==>|"fraught: his respect"|' in md  # fraught: a thick arrow
    code, html, _ = storm("recap", "--series", "--format", "html")
    assert code == 0 and "<h2>Relationship map</h2>" in html and html.count("<svg") == 1
    code, data, _ = storm("recap", "--series", "--json")
    graph = json.loads(data)["relationships"]
    assert [n["name"] for n in graph["nodes"]] == ["Iris", "Tomas", "Vel"]
    assert [(w["source"], w["target"], w["fraught"]) for w in graph["wants"]] == [
        ("Iris", "Tomas", True), ("Iris", "Vel", True), ("Iris", "Tomas", True)]
    code, md, _ = storm("recap", "--episode", "1")
    assert code == 0 and "Relationship map" not in md


# -- DS9: every PC the object of two other PCs' wants before play begins ------------------------


def _table(ruleset, pcs=(("Iris", "Ana"), ("Tomas", "Ben"), ("Vel", "Cy"))):
    from yarnlog.app.journal import Journal
    from yarnlog.core.table import AddParticipant
    from yarnlog.persistence.memory import MemoryStore

    journal = Journal(MemoryStore())
    journal.create_campaign("t", title="T", gm="Maya", ruleset=ruleset)
    for _, player in pcs:
        journal.execute("t", AddParticipant(name=player))
    for pc, player in pcs:
        if ruleset == "dramasystem":
            from yarnlog.rulesets.dramasystem.parts.sheets import CreateCharacter

            from .storm_table import _grades

            journal.execute("t", CreateCharacter(pc, player, _grades(("Fighting", "Talking"), ("Knowing", "Making"))))
    return journal


def _want(journal, pc, other):
    from yarnlog.rulesets.scenes_and_tokens.parts.relationships import DeclareWant

    journal.execute("t", DeclareWant(pc, other, f"{other}'s regard", "pride"))


def test_ds9_the_first_episode_waits_until_every_pc_is_wanted_by_two_others():
    from yarnlog.app.verify import verify
    from yarnlog.core.referee import RuleViolation
    from yarnlog.core.timeline import StartEpisode

    journal = _table("dramasystem")
    # Line 51: "14. Repeat steps 9-12 until all characters are named as objects of at least two other
    # characters' wants." Iris is wanted by Tomas and Vel; Tomas by Iris only; Vel by nobody.
    for pc, other in (("Tomas", "Iris"), ("Vel", "Iris"), ("Iris", "Tomas")):
        _want(journal, pc, other)
    before = len(journal.history("t"))
    with pytest.raises(RuleViolation) as refused:
        journal.execute("t", StartEpisode(title="Fog"))
    assert "DS9" in str(refused.value) and "Tomas 1, Vel 0" in str(refused.value)
    assert len(journal.history("t")) == before  # nothing written
    for pc, other in (("Vel", "Tomas"), ("Iris", "Vel"), ("Tomas", "Vel")):
        _want(journal, pc, other)
    [started] = journal.execute("t", StartEpisode(title="Fog"))
    assert started.event_type == "episode.started"
    assert verify(journal.stored_events("t"), "t").ok


def test_ds9_the_gm_may_start_play_anyway_with_a_reason_and_later_episodes_are_not_held_to_it():
    from yarnlog.app.verify import verify
    from yarnlog.core.referee import Override
    from yarnlog.core.timeline import EndEpisode, StartEpisode

    journal = _table("dramasystem")
    recorded = journal.execute("t", StartEpisode(title="Fog"),
                               override=Override(by="Maya", reason="the wants come out in play"))
    assert [r.event_type for r in recorded] == ["override.recorded", "episode.started"]
    assert "DS9" in str(recorded[0].payload.rules)
    journal.execute("t", EndEpisode(), override=Override(by="Maya", reason="no bennie vote in this test"))
    # "(Any unaddressed relationships are defined during play.)": the second episode starts as it is.
    assert [r.event_type for r in journal.execute("t", StartEpisode(title="Ash"))] == ["episode.started"]
    assert verify(journal.stored_events("t"), "t").ok


def test_ds9_with_two_pcs_each_needs_the_other_s_want_and_one_pc_none():
    from yarnlog.core.referee import RuleViolation
    from yarnlog.core.timeline import StartEpisode

    # "Two other characters" cannot be had with one other PC: each is asked to be wanted by the other.
    journal = _table("dramasystem", pcs=(("Iris", "Ana"), ("Tomas", "Ben")))
    _want(journal, "Iris", "Tomas")
    with pytest.raises(RuleViolation, match=r"^play waits for one want on each PC: Iris 0 \(rule: DramaSystem SRD"):
        journal.execute("t", StartEpisode(title="Fog"))
    _want(journal, "Tomas", "Iris")
    journal.execute("t", StartEpisode(title="Fog"))
    alone = _table("dramasystem", pcs=(("Iris", "Ana"),))
    alone.execute("t", StartEpisode(title="Fog"))


def test_ds9_the_cli_refuses_in_one_line_citing_ds9_and_the_override_goes_through(cli):
    for args in SETUP[:7]:  # three PCs, no want yet
        assert cli(*args)[0] == 0
    code, out, err = cli("episode", "start", "--title", "Fog", "--json")
    assert code == 3 and out == "" and err.count("\n") == 1
    assert "Iris 0, Tomas 0, Vel 0 (rule: DramaSystem SRD (DS9" in err
    assert "episode.started" not in cli("log", "--json")[1]
    code, out, err = cli("episode", "start", "--title", "Fog", "--override", "wants in play", "--json")
    assert code == 0, err
    assert [e["event_type"] for e in json.loads(out)] == ["override.recorded", "episode.started"]


def test_yarn_has_the_same_sentence_but_only_its_report_says_so():
    # Yarn 0.1, line 273, word for word the SRD's line 51: Yarn's journals started play without wants
    # long before the check, so Yarn warns in its relationships report and does not refuse.
    from yarnlog.core.timeline import StartEpisode
    from yarnlog.rulesets.scenes_and_tokens.parts.relationship_map import TWO_WANTS, relationship_map
    from yarnlog.rulesets.yarn.parts.dramatic_side import YARN

    assert "at least two other characters' wants" in TWO_WANTS.text and not YARN.wants_before_play
    journal = _table("yarn", pcs=())
    assert [r.event_type for r in journal.execute("t", StartEpisode(title="Fog"))] == ["episode.started"]
    assert relationship_map(journal.state("t").rules.roster)["wanted_by_fewer_than_two"] == []
