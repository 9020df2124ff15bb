"""Relationships and wants on DramaSystem characters (lines 73-115; DS8, DS9): the shared core's,
recorded with Yarn's very verbs and shown on ``yarnlog sheet``."""

from __future__ import annotations

import json

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.referee import InvalidCommand, RuleViolation
from yarnlog.core.timeline import OpenScene
from yarnlog.rulesets.dramasystem.words import narrate
from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import IntroduceSupporting
from yarnlog.rulesets.scenes_and_tokens.parts.relationships import DeclareWant, DefineRelationship

from .storm_table import CAMPAIGN


def test_the_first_two_pcs_named_are_the_fraught_relationships(journal):
    # DS8, line 115: "The sooner you define a want, the more important it is to you. The first and second
    # PCs you name as your withholders of emotional reward are your fraught relationships."
    for withholder, want in (("Tomas", "respect"), ("Tomas", "an apology"), ("Vel", "trust")):
        journal.execute(CAMPAIGN, DeclareWant("Iris", withholder, want, "he never forgives"))
    assert journal.state(CAMPAIGN).rules.sheets.pcs["Iris"].fraught == ("Tomas", "Vel")

    [event] = journal.execute(CAMPAIGN, DeclareWant("Tomas", "Iris", "her blessing", "she is proud"))
    assert event.event_type == "dramasystem.character.want_declared"
    assert narrate(event, journal.state(CAMPAIGN)) == (
        "Tomas wants her blessing from Iris; why not, says Iris's player: she is proud (DS8-DS9).")
    assert verify(journal.stored_events(CAMPAIGN), CAMPAIGN).ok


def test_a_want_needs_why_the_other_player_says_it_cannot_be_had(journal):
    # Line 45: "11. The player of the other character defines why they can't get it."
    wants = journal.state(CAMPAIGN).rules.sheets.pcs["Iris"].wants  # declared before play began (DS9)
    with pytest.raises(RuleViolation) as refused:
        journal.execute(CAMPAIGN, DeclareWant("Iris", "Tomas", "respect", ""))
    assert "DramaSystem SRD (DS9, lines 23-51)" in str(refused.value)
    with pytest.raises(InvalidCommand, match="not from himself"):
        journal.execute(CAMPAIGN, DeclareWant("Iris", "Iris", "peace", "no"))
    assert journal.state(CAMPAIGN).rules.sheets.pcs["Iris"].wants == wants


def test_a_relationship_to_a_minor_character_is_refused(journal):
    journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=("Iris",), mode="procedural"))
    journal.execute(CAMPAIGN, IntroduceSupporting("Fisher", "sells eels", "Maya"))
    with pytest.raises(RuleViolation, match="Fisher is a minor character"):
        journal.execute(CAMPAIGN, DefineRelationship("Iris", "Fisher", "old friend"))
    [event] = journal.execute(CAMPAIGN, DefineRelationship("Iris", "Tomas", "brother"))
    assert event.event_type == "dramasystem.character.relationship_defined"
    lines = journal.state(CAMPAIGN).rules.sheets.relationships
    assert [(r.character, r.other, r.nature) for r in lines.values()] == [("Iris", "Tomas", "brother")]


def test_the_cli_records_wants_and_the_sheet_lists_fraught_relationships_first(cli):
    for args in (("init", "storm", "--title", "Storm", "--gm", "Maya", "--ruleset", "dramasystem"),
                 ("join", "Ana"), ("join", "Ben"), ("join", "Cy"),
                 ("character", "create", "Iris", "--player", "Ana", "--strong", "Fighting,Talking",
                  "--weak", "Knowing,Making"),
                 ("character", "create", "Tomas", "--player", "Ben", "--strong", "Moving,Sneaking",
                  "--weak", "Talking,Enduring"),
                 ("character", "create", "Vel", "--player", "Cy", "--strong", "Knowing,Making",
                  "--weak", "Fighting,Moving"),
                 ("character", "relate", "Iris", "Vel", "--nature", "rival"),
                 ("character", "want", "Iris", "--from", "Tomas", "--want", "respect", "--why-not", "pride"),
                 ("character", "want", "Iris", "--from", "Vel", "--want", "a truce", "--why-not", "envy")):
        code, _, err = cli(*args)
        assert code == 0, (args, err)
    code, out, err = cli("character", "want", "Iris", "--from", "Tomas", "--want", "x", "--json")
    assert code == 3 and out == "" and "DS9" in err and err.count("\n") == 1
    code, out, err = cli("sheet", "Iris", "--json")
    assert code == 0, err
    sheet = json.loads(out)
    assert sheet["fraught"] == ["Tomas", "Vel"]
    assert [(w["withholder"], w["relationship"], w["fraught"]) for w in sheet["people_in_my_life"]] == [
        ("Tomas", "", True), ("Vel", "rival", True)]
    code, out, _ = cli("sheet", "Iris")
    assert code == 0 and "People in my life" in out and "Tomas (fraught)" in out
    code, out, _ = cli("sheet", "Iris", "--format", "md")
    assert code == 0 and "## People in my life" in out and "Vel (fraught) | rival | a truce | envy" in out


def test_a_dramasystem_sheet_is_written_to_a_file_with_o(cli, tmp_path):
    """Issue 26: ``sheet NAME -o FILE``, as for Yarn."""
    for args in (("init", "storm", "--title", "Storm", "--gm", "Maya", "--ruleset", "dramasystem"), ("join", "Ana"),
                 ("character", "create", "Iris", "--player", "Ana", "--strong", "Fighting,Talking",
                  "--weak", "Knowing,Making")):
        code, _, err = cli(*args)
        assert code == 0, (args, err)
    target = tmp_path / "iris.md"
    code, out, err = cli("sheet", "Iris", "--format", "md", "-o", str(target))
    assert (code, out) == (0, ""), err
    assert err == f"Wrote Iris's sheet to {target}\n"
    assert target.read_text(encoding="utf-8") == cli("sheet", "Iris", "--format", "md")[1]
