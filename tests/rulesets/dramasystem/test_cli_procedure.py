"""DramaSystem at the command line: a procedural scene played through the verbs, as at the table."""

from __future__ import annotations

import json

import pytest

from .storm_table import want_args


@pytest.fixture
def table(cli):
    for args in (("init", "storm", "--title", "Storm", "--gm", "Maya", "--ruleset", "dramasystem"),
                 ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Iris", "--player", "Ana", "--strong", "Fighting,Talking",
                  "--weak", "Knowing,Making", "--how", "Fighting=dirty tricks"),
                 ("character", "create", "Tomas", "--player", "Ben", "--strong", "Moving,Sneaking",
                  "--weak", "Talking,Enduring"),
                 *want_args(("Iris", "Tomas")),
                 ("episode", "start", "--title", "Fog", "--theme", "trust"),
                 ("scene", "open", "--caller", "Ana", "--cast", "iris,Tomas", "--mode", "procedural")):
        code, out, err = cli(*args)
        assert code == 0, (args, err)
    return cli


def test_a_resolution_played_through_the_verbs_answers_in_words(table):
    code, out, err = table("oppose", "yellow")
    assert code == 0 and "The GM spends a yellow token in secret" in out
    code, out, _ = table("target", "--card", "kc", "--order", "Ben,Ana")
    assert "Target card: the King of Clubs (K♣). Players draw in this order: Ben, Ana." in out
    code, out, _ = table("draw", "Ben", "--token", "red", "--cards", "2S")
    assert "Ben spends red and draws 2♠ (solid). The GM knocks out 2♠." in out
    code, out, _ = table("draw", "Ana", "--token", "green", "--cards", "QH,3C")
    assert code == 0 and "3♣ (impressive)" in out
    code, out, _ = table("resolve", "--json")
    [resolved] = json.loads(out)
    assert resolved["payload"]["success"] is True and resolved["payload"]["gm_token"] == "yellow"
    code, out, _ = table("procedural-tokens", "--json")
    unspent = {p["name"]: p["unspent"] for p in json.loads(out)["participants"]}
    assert unspent == {"Maya": ["green", "red"], "Ana": ["yellow", "red"], "Ben": ["green", "yellow"]}
    code, out, err = table("verify")
    assert code == 0, err
    for line in table("log")[1].splitlines():
        assert len(line) <= 80


def test_a_refused_draw_says_the_rule_on_one_line_and_writes_nothing(table):
    table("oppose", "green")
    table("target", "--card", "KC", "--order", "Ana,Ben")
    before = table("log", "--json")[1]
    code, out, err = table("draw", "Ben", "--token", "green", "--cards", "2S,3S")
    assert code == 3 and err == "Refused. It is Ana's turn, not Ben's (Procedural Resolution).\n"
    code, out, err = table("draw", "Ben", "--token", "green", "--cards", "2S,3S", "--json")  # the rule in full
    assert code == 3 and err.count("\n") == 1 and "it is Ana's turn, not Ben's" in err and "line 468" in err
    code, out, err = table("draw", "Ana", "--token", "green", "--cards", "2S")
    assert code == 2 and "a green token draws 2 cards, not 1" in err
    code, out, err = table("draw", "Ana", "--token", "purple")
    assert code == 2 and "not a procedural token" in err
    assert table("log", "--json")[1] == before


def test_the_odds_show_every_gm_token_and_never_the_secret_one(table):
    table("oppose", "green")
    code, out, _ = table("odds", "green", "yellow", "--json")
    rows = {r["gm_token"]: r["chance"] for r in json.loads(out)["against"]}
    assert rows == {"red": "18801/20825", "yellow": "23/35", "green": "3529/20825"}


def test_an_advanced_resolution_through_the_verbs(table):
    code, out, err = table("advanced", "open", "iris", "--type", "fighting", "--token", "yellow",
                           "--opening", "3S,KH,4D")
    assert code == 0, err
    said = " ".join(out.split())  # the sentence is wrapped at 80 columns
    assert "♠♥ up, ♦♣ down (a moderate chance of failure)" in said and "starts from 4♦" in said
    code, out, _ = table("advanced", "primary", "--cards", "2C,9H")
    assert "keeps 9♥: an up number" in out
    code, out, _ = table("advanced", "redraw", "Ben", "--token", "red", "--card", "QS", "--consequence-card", "3C")
    assert "something bad will happen to Ben's character" in " ".join(out.split())
    # A red token draws a consequence card: left out, the tool draws it from the cards left, and says so.
    code, out, _ = table("advanced", "redraw", "Ana", "--token", "green", "--card", "KD")
    assert code == 0 and "(drawn by the tool):" in " ".join(out.split())
    code, out, _ = table("advanced", "clinch", "--json")
    [clinched] = json.loads(out)
    assert clinched["payload"]["clincher"] == "KD" and clinched["payload"]["success"] is False
    assert table("verify")[0] == 0


def test_an_advanced_contest_passes_a_turn_and_redraws_later(table):
    # Issue 26: the advanced contest had no way to pass one turn (SRD 951, 959: a contestant may pass
    # his turn to redraw), only `contest stop`, whose help said "any more".
    for args in (("contest", "start", "Iris", "--type", "Fighting", "--token", "yellow", "--against", "Tomas",
                  "--against-type", "Moving", "--against-token", "red", "--advanced"),
                 ("contest", "draw", "Iris", "--card", "5D"), ("contest", "draw", "Tomas", "--card", "9C"),
                 ("contest", "redraw", "Iris", "Tomas", "--card", "2C"),
                 ("contest", "redraw", "Tomas", "Tomas", "--card", "8H"),
                 ("contest", "pass", "Iris"),                              # one turn, not the rest
                 ("contest", "redraw", "GM", "Tomas", "--card", "3H"),
                 ("contest", "redraw", "Iris", "Iris", "--card", "KC")):  # Iris redraws after passing
        code, out, err = table(*args)
        assert code == 0, (args, err)
    code, out, _ = table("contest", "end", "--json")
    assert code == 0 and json.loads(out)[0]["payload"]["winner"] == "Iris"
    _, help_text, _ = table("contest", "pass", "--help")
    assert "one turn" in " ".join(help_text.split())
