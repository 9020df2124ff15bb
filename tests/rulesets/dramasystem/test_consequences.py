"""Consequences noted, invoked in later scenes, cashed in and faded (SRD 637-641, 891-893; move 21)."""

from __future__ import annotations

import json

import pytest

from yarnlog.app.journal import Journal
from yarnlog.app.verify import verify
from yarnlog.core.referee import InvalidCommand, RuleViolation
from yarnlog.core.timeline import CloseScene, OpenScene
from yarnlog.rulesets.dramasystem.parts.advanced_procedure import ForceRedraw, OpenAdvanced, PrimaryDraw
from yarnlog.rulesets.dramasystem.parts.consequences import FadeConsequence, InvokeConsequence, consequence_rows
from yarnlog.rulesets.dramasystem.ruleset import RULESET

from .storm_table import CAMPAIGN, _played_scene


def _rows(journal):
    return consequence_rows(journal.state(CAMPAIGN))


def test_a_consequence_is_noted_invoked_in_later_scenes_and_fades(journal):
    # SRD 637: "When a character earns or suffers a consequence during a procedural scene, GM and player
    # each make a note of it." Ana's Q♥ drawn with green is an advantage (SRD 521-525).
    resolved = _played_scene(journal)
    [row] = _rows(journal)
    assert row == {"player": "Ana", "kind": "advantage", "card": "QH", "source": resolved.sequence, "scene": 1,
                   "invoked_in": [], "state": "in play"}
    # SRD 639: "work their consequences into an upcoming scene": not the scene it arose in.
    with pytest.raises(RuleViolation, match="upcoming scene"):
        journal.execute(CAMPAIGN, InvokeConsequence("Ana", resolved.sequence))
    journal.execute(CAMPAIGN, CloseScene())
    journal.execute(CAMPAIGN, OpenScene(caller="Ben", cast=("Iris", "Tomas"), mode="dramatic"))
    [invoked] = journal.execute(CAMPAIGN, InvokeConsequence("Ana", resolved.sequence))
    assert RULESET.words.narrate(invoked, journal.state(CAMPAIGN)) == (
        f"Ana works their advantage (Q♥, event {resolved.sequence}) into scene 2.")
    journal.execute(CAMPAIGN, CloseScene())
    journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=("Iris",), mode="dramatic"))
    # "You can invoke a consequence in more than one scene."
    journal.execute(CAMPAIGN, InvokeConsequence("Ana", resolved.sequence, "qh"))
    assert _rows(journal)[0]["invoked_in"] == [2, 3]
    # "Eventually some new consequence will arise, and the old one will fade into the background." (641)
    journal.execute(CAMPAIGN, FadeConsequence("Ana", resolved.sequence, reason="the harbour forgot"))
    assert _rows(journal)[0]["state"] == "faded"
    with pytest.raises(InvalidCommand, match="faded"):
        journal.execute(CAMPAIGN, InvokeConsequence("Ana", resolved.sequence))
    assert Journal(journal.store).state(CAMPAIGN) == journal.state(CAMPAIGN)
    assert verify(journal.stored_events(CAMPAIGN), CAMPAIGN).ok


def test_unknown_consequences_are_refused_and_nothing_is_written(journal):
    resolved = _played_scene(journal)
    before = len(journal.stored_events(CAMPAIGN))
    with pytest.raises(InvalidCommand, match="brought Ben no consequence"):
        journal.execute(CAMPAIGN, InvokeConsequence("Ben", resolved.sequence))
    with pytest.raises(InvalidCommand, match="no consequence with 3♣|no consequence with 3C"):
        journal.execute(CAMPAIGN, FadeConsequence("Ana", resolved.sequence, "3C"))
    assert len(journal.stored_events(CAMPAIGN)) == before


def test_an_advanced_consequence_card_is_noted_and_a_cash_in_uses_it(journal):
    # SRD 881: green, an up consequence card: something good; 893: cashed in for a redraw.
    journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=("Iris", "Tomas"), mode="procedural"))
    journal.execute(CAMPAIGN, OpenAdvanced("Iris", "fighting", "yellow", ("3S", "KH", "4D")))
    journal.execute(CAMPAIGN, PrimaryDraw(("2C", "9H")))
    [green] = journal.execute(CAMPAIGN, ForceRedraw("Ben", token="green", card="QS", consequence_card="AS"))
    assert green.payload.consequence == "good"
    assert [(r["player"], r["kind"], r["card"], r["state"]) for r in _rows(journal)] == [
        ("Ben", "advantage", "AS", "in play")]
    journal.execute(CAMPAIGN, ForceRedraw("Ben", cash_in=True, card="5D"))
    assert _rows(journal)[0]["state"] == "cashed in"
    with pytest.raises(InvalidCommand, match="cashed in"):
        journal.execute(CAMPAIGN, FadeConsequence("Ben", green.sequence))
    assert verify(journal.stored_events(CAMPAIGN), CAMPAIGN).ok


def test_the_verbs_answer_in_words_and_json(cli):
    from .storm_table import want_args

    for args in (("init", "storm", "--title", "Storm", "--gm", "Maya", "--ruleset", "dramasystem"),
                 ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Iris", "--player", "Ana", "--strong", "Fighting,Talking",
                  "--weak", "Knowing,Making"),
                 ("character", "create", "Tomas", "--player", "Ben", "--strong", "Moving,Sneaking",
                  "--weak", "Talking,Enduring"),
                 *want_args(("Iris", "Tomas")),
                 ("episode", "start", "--title", "Fog", "--theme", "trust"),
                 ("scene", "open", "--caller", "Ana", "--cast", "Iris,Tomas", "--mode", "procedural"),
                 ("oppose", "yellow"), ("target", "--card", "KC", "--order", "Ana,Ben"),
                 ("draw", "Ana", "--token", "green", "--cards", "QH,3C"), ("draw", "Ben", "--token", "yellow",
                                                                          "--cards", "2D"),
                 ("resolve",), ("scene", "close"),
                 ("scene", "open", "--caller", "Ben", "--cast", "Iris,Tomas", "--mode", "dramatic")):
        code, out, err = cli(*args)
        assert code == 0, (args, err)
    code, out, err = cli("consequences", "--json")
    [row] = json.loads(out)["consequences"]
    code, out, err = cli("consequence", "invoke", "ana", str(row["source"]))
    assert code == 0, err
    assert f"Ana works their advantage (Q♥, event {row['source']}) into scene 2." in " ".join(out.split())
    code, out, err = cli("consequence", "invoke", "Ben", str(row["source"]))
    assert code == 2 and err.count("\n") == 1 and "no consequence" in err
    code, out, err = cli("consequences")
    assert code == 0 and "Q♥" in out and "in play" in out
    # As of the event before the resolution nothing was noted yet; a player sees the same list.
    assert json.loads(cli("consequences", "--as-of", str(row["source"] - 1), "--json")[1])["consequences"] == []
    seen = json.loads(cli("consequences", "--as", "Ben", "--json")[1])
    assert seen["viewer"] == "Ben" and [r["invoked_in"] for r in seen["consequences"]] == [[2]]
    assert all(len(line) <= 80 for line in out.splitlines())
    assert cli("verify")[0] == 0
