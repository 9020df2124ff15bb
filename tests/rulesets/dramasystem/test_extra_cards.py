"""An additional card: a bennie's (DS76, line 732; digest reading 5) and the GM's "How I Do It" ruling
(line 149; reading 7), in each procedure that draws cards; replayed and re-checked by ``verify``."""

from __future__ import annotations

import json

import pytest

from yarnlog.app.journal import Journal
from yarnlog.app.verify import verify
from yarnlog.core.referee import InvalidCommand, RuleViolation
from yarnlog.core.state import GM_ONLY
from yarnlog.core.timeline import OpenScene
from yarnlog.rulesets.dramasystem.parts.advanced_procedure import Clinch, OpenAdvanced, PrimaryDraw
from yarnlog.rulesets.dramasystem.parts.card_procedure import DrawTarget, Oppose, PlayCards, Resolve
from yarnlog.rulesets.dramasystem.parts.contests import DrawInContest, EndContest, RedrawInContest, StartContest
from yarnlog.rulesets.dramasystem.parts.extra_cards import DrawExtraCard
from yarnlog.rulesets.dramasystem.parts.player_views import campaign_seen_by, seen_by
from yarnlog.rulesets.dramasystem.parts.resolution_reports import describe, resolution_reports
from yarnlog.rulesets.dramasystem.parts.token_ledger import token_ledger
from yarnlog.rulesets.dramasystem.rules.odds import simple_success
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour
from yarnlog.rulesets.dramasystem.ruleset import RULESET
from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferTokens

from .storm_table import CAMPAIGN, want_args


def _bennie(journal, *names: str) -> None:
    for name in names:
        journal.execute(CAMPAIGN, TransferTokens("kitty", name, 1, reason="the last episode's vote",
                                                 currency="bennie"))


def _bennies(journal) -> dict[str, int]:
    return {k: v for k, v in journal.state(CAMPAIGN).rules.economy.bennies.items() if v}


def _scene(journal, cast=("Iris", "Tomas")) -> None:
    journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=cast, mode="procedural"))


def _verified(journal) -> None:
    report = verify(journal.stored_events(CAMPAIGN), CAMPAIGN)
    assert report.ok, report


def _said(journal, recorded) -> str:
    return RULESET.words.narrate(recorded, journal.state(CAMPAIGN))


def test_a_bennie_buys_one_more_card_in_a_simple_resolution_once_a_scene(journal):
    # DS76, line 732: "to draw an additional card in a procedural scene"; reading 5: one more card for
    # that player. DS77, line 742: "You may spend only one bennie per scene."
    _bennie(journal, "Ana", "Ana", "Ben")
    _scene(journal)
    journal.execute(CAMPAIGN, Oppose("yellow"), visibility=GM_ONLY)  # Middling: the suit is needed (SRD 505)
    journal.execute(CAMPAIGN, DrawTarget("KC", ("Ben", "Ana", "Cy")))
    # Ben's red draws 4♥, which matches nothing: the knock-out waits for the next match (SRD 476).
    [red] = journal.execute(CAMPAIGN, PlayCards("Ben", "red", ("4H",)))
    assert red.payload.waiting_knock_outs == 1
    journal.execute(CAMPAIGN, PlayCards("Ana", "green", ("QH", "3D")))  # no match either
    [extra] = journal.execute(CAMPAIGN, DrawExtraCard("Ana", "5C"))
    # 5♣ matches the suit, so the waiting knock-out takes it ("knocking out the next card that does").
    assert (extra.payload.procedure, extra.payload.match.value, extra.payload.knocked_out) == ("simple", "suit", True)
    assert extra.payload.waiting_knock_outs == 0
    assert [(t.source, t.destination, t.amount, t.currency) for t in extra.payload.transfers] == [
        ("Ana", "kitty", 1, "bennie")]
    assert _said(journal, extra) == ("Ana spends a bennie on one more card (DS76): 5♣ (impressive). "
                                     "The waiting knock-out takes it.")
    # Ana still holds a bennie, but not a second one in this scene (DS77).
    with pytest.raises(RuleViolation, match="one bennie per scene|only one bennie"):
        journal.execute(CAMPAIGN, DrawExtraCard("Ana", "6C"))
    journal.execute(CAMPAIGN, PlayCards("Cy", None))  # Vel is absent: Cy passes
    [ben] = journal.execute(CAMPAIGN, DrawExtraCard("Ben", "JC"))
    assert (ben.payload.match.value, ben.payload.knocked_out) == ("suit", False)
    [resolved] = journal.execute(CAMPAIGN, Resolve())
    # J♣ is held and matches the suit: against yellow the characters prevail (SRD 505, 515). Only Ana's Q♥,
    # drawn with green, brings a consequence: a card bought with a bennie spends no token (SRD 521-527).
    assert resolved.payload.success is True
    assert [(c.player, c.card, c.kind) for c in resolved.payload.consequences] == [("Ana", "QH", "advantage")]
    assert _bennies(journal) == {"Ana": 1}
    state = journal.state(CAMPAIGN)
    [result] = state.rules.procedure.results
    assert [(who, card, token, out) for who, card, token, out in result.cards] == [
        ("Ben", "4H", "red", False), ("Ana", "QH", "green", False), ("Ana", "3D", "green", False),
        ("Ana", "5C", None, True), ("Ben", "JC", None, False)]
    _verified(journal)


def test_the_odds_of_an_open_resolution_count_the_extra_cards(journal):
    _bennie(journal, "Ben")
    _scene(journal)
    journal.execute(CAMPAIGN, Oppose("green"), visibility=GM_ONLY)
    journal.execute(CAMPAIGN, DrawTarget("KC", ("Ben", "Ana", "Cy")))
    journal.execute(CAMPAIGN, PlayCards("Ben", "yellow", ("4H",)))
    journal.execute(CAMPAIGN, DrawExtraCard("Ben", "5D"))
    [report] = resolution_reports(journal.history(CAMPAIGN), journal.state(CAMPAIGN).table, viewer="Ana")
    # The player's view does not know the GM's token: every colour, each with one yellow and one extra card.
    assert {o["against"]: o["chance"] for o in report["odds"]} == {
        c.value: str(simple_success([Colour.YELLOW], c, 1)) for c in Colour}
    assert simple_success([Colour.YELLOW], Colour.RED, 1) > simple_success([Colour.YELLOW], Colour.RED)
    first, _ = describe(report)
    assert first.endswith("; Ben extra 5♦ (bennie)")


def test_the_player_view_keeps_the_gm_token_secret_and_the_ledger_shows_the_bennie(journal):
    # SRD 445: the GM spends "concealing it so that it can be revealed with a flourish at the conclusion".
    _bennie(journal, "Ana")
    _scene(journal)
    journal.execute(CAMPAIGN, Oppose("green"), visibility=GM_ONLY)
    journal.execute(CAMPAIGN, DrawTarget("KC", ("Ana", "Ben", "Cy")))
    journal.execute(CAMPAIGN, PlayCards("Ana", "yellow", ("4H",)))
    [extra] = journal.execute(CAMPAIGN, DrawExtraCard("Ana", "5D"))
    history, table = journal.history(CAMPAIGN), journal.state(CAMPAIGN).table
    [seen] = resolution_reports(history, table, viewer="Ana")
    [gm] = resolution_reports(history, table)
    assert seen["gm_token"] is None and {o["against"] for o in seen["odds"]} == {c.value for c in Colour}
    assert gm["gm_token"] == "green" and [o["against"] for o in gm["odds"]] == ["green"]
    # The GM's odds against green are the player's figure for green: the extra card counts in both.
    assert [o for o in seen["odds"] if o["against"] == "green"] == gm["odds"]
    ledger = token_ledger(campaign_seen_by(history, table, "Ana"), seen_by(history, table, "Ana"), viewer="Ana")
    assert not any(line["participant"] == table.gm for line in ledger)
    [paid] = [line for line in ledger if line["sequence"] == extra.sequence]
    assert (paid["currency"], paid["source"], paid["destination"], paid["chapter"]) == (
        "bennie", "Ana", "kitty", "Spending Bennies")


def test_no_card_is_drawn_in_a_dramatic_scene(journal):
    # DS76, line 732: "to draw an additional card in a procedural scene".
    _bennie(journal, "Ana")
    journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=("Iris", "Tomas"), mode="dramatic"))
    before = len(journal.stored_events(CAMPAIGN))
    with pytest.raises(RuleViolation, match="dramatic scene"):
        journal.execute(CAMPAIGN, DrawExtraCard("Ana", "5C"))
    with pytest.raises(RuleViolation, match="dramatic scene"):
        journal.execute(CAMPAIGN, DrawExtraCard("Ana", "5C", ruling="dirty tricks"))
    assert len(journal.stored_events(CAMPAIGN)) == before
    assert _bennies(journal) == {"Ana": 1}


def test_no_bennie_no_resolution_or_a_reasonless_ruling_is_refused_and_nothing_is_written(journal):
    _scene(journal)
    with pytest.raises(InvalidCommand, match="no resolution or contest is open"):
        journal.execute(CAMPAIGN, DrawExtraCard("Ana", "5C"))
    journal.execute(CAMPAIGN, Oppose("yellow"), visibility=GM_ONLY)
    journal.execute(CAMPAIGN, DrawTarget("KC", ("Ben", "Ana", "Cy")))
    before = len(journal.stored_events(CAMPAIGN))
    with pytest.raises(RuleViolation, match="bennie"):  # "Spending Bennies": you need one to spend
        journal.execute(CAMPAIGN, DrawExtraCard("Ana", "5C"))
    with pytest.raises(InvalidCommand, match="needs a reason"):
        journal.execute(CAMPAIGN, DrawExtraCard("Ana", "5C", ruling="  "))
    with pytest.raises(InvalidCommand, match="not a player"):
        journal.execute(CAMPAIGN, DrawExtraCard("Maya", "5C", ruling="her own specialty"))
    with pytest.raises(InvalidCommand, match="already drawn"):
        journal.execute(CAMPAIGN, DrawExtraCard("Ana", "KC", ruling="dirty tricks"))
    assert len(journal.stored_events(CAMPAIGN)) == before


def test_the_gm_grants_an_extra_card_for_a_how_i_do_it_specialty_with_her_reason(journal):
    # Line 149: "you gain an additional advantage"; reading 7: a GM ruling recorded with the resolution.
    _scene(journal)
    journal.execute(CAMPAIGN, Oppose("red"), visibility=GM_ONLY)
    journal.execute(CAMPAIGN, DrawTarget("KC", ("Ana", "Ben", "Cy")))
    journal.execute(CAMPAIGN, PlayCards("Ana", "yellow", ("3H",)))
    [granted] = journal.execute(CAMPAIGN, DrawExtraCard("Ana", "9S", ruling="dirty tricks fit a brawl"))
    assert granted.payload.transfers == [] and granted.payload.bennie_spends == []
    assert _said(journal, granted) == ("The GM grants Ana one more card (How I Do It: dirty tricks fit a brawl): "
                                       "9♠ (solid).")
    assert _bennies(journal) == {}
    _verified(journal)


def test_in_an_advanced_resolution_the_extra_card_is_a_redraw(journal):
    # Reading 5: "advanced = one redraw"; the redraw replaces the active card (SRD 867-869).
    _bennie(journal, "Cy")
    _scene(journal)
    journal.execute(CAMPAIGN, OpenAdvanced("Iris", "fighting", "yellow", ("3S", "KH", "4D")))

    def active() -> str:  # issue 26: the data names the active card at every step, not only a sentence
        [report] = resolution_reports(journal.history(CAMPAIGN), journal.state(CAMPAIGN).table)
        return report["active"]

    assert active() == "4D"  # the opening run's last card: the scene starts from it (SRD 833)
    with pytest.raises(InvalidCommand, match="primary acts before any redraw"):
        journal.execute(CAMPAIGN, DrawExtraCard("Cy", "5D"))
    journal.execute(CAMPAIGN, PrimaryDraw(("2C", "9H")))
    assert active() == str(journal.state(CAMPAIGN).rules.advanced.open[1].active)
    # Cy's Vel is absent: a bennie needs no presence.
    [redraw] = journal.execute(CAMPAIGN, DrawExtraCard("Cy", "5D"))
    assert (redraw.payload.procedure, redraw.payload.band.name) == ("advanced", "DOWN_NUMBER")
    assert journal.state(CAMPAIGN).rules.advanced.open[1].active.rank == 5
    assert active() == "5D"
    [ruled] = journal.execute(CAMPAIGN, DrawExtraCard("Ana", "KS", ruling="dirty tricks"))
    assert "The GM grants Ana one redraw (How I Do It: dirty tricks)" in _said(journal, ruled)
    [clinched] = journal.execute(CAMPAIGN, Clinch())
    assert clinched.payload.clincher == "KS"
    [report] = resolution_reports(journal.history(CAMPAIGN), journal.state(CAMPAIGN).table)
    assert [c["card"] for c in report["cards"] if c.get("extra")] == ["5D", "KS"]
    assert _bennies(journal) == {}
    _verified(journal)


def test_in_a_simple_contest_the_extra_card_is_one_more_draw_taken_in_turn(journal):
    # Reading 5: "PvP = one more draw/redraw"; the draws still alternate (SRD 593-599).
    _bennie(journal, "Ben")
    _scene(journal)
    [started] = journal.execute(CAMPAIGN, StartContest("Iris", "Fighting", "yellow", "Tomas", "red", "Moving"))
    assert started.payload.allowance == [2, 1]
    journal.execute(CAMPAIGN, DrawInContest("Iris", "KD"))
    journal.execute(CAMPAIGN, DrawInContest("Tomas", "KS"))
    with pytest.raises(RuleViolation, match="no card draws left"):
        journal.execute(CAMPAIGN, DrawInContest("Tomas", "AS"))
    with pytest.raises(InvalidCommand, match="drawn in turn"):
        journal.execute(CAMPAIGN, DrawExtraCard("Ben", "AS"))
    with pytest.raises(InvalidCommand, match="plays neither side"):
        journal.execute(CAMPAIGN, DrawExtraCard("Cy", ruling="a good idea"))
    [extra] = journal.execute(CAMPAIGN, DrawExtraCard("Ben"))
    assert (extra.payload.procedure, extra.payload.side) == ("contest", "Tomas")
    assert _said(journal, extra) == "Ben spends a bennie on one more draw (DS76). Tomas may draw it in turn."
    journal.execute(CAMPAIGN, DrawInContest("Iris", "3C"))
    journal.execute(CAMPAIGN, DrawInContest("Tomas", "AS"))
    [ended] = journal.execute(CAMPAIGN, EndContest())
    assert (ended.payload.winner, ended.payload.winning_card) == ("Tomas", "AS")  # ace high (reading 2)
    [report] = resolution_reports(journal.history(CAMPAIGN), journal.state(CAMPAIGN).table)
    assert report["allowance"] == [2, 2]
    _verified(journal)


def test_in_an_advanced_contest_the_extra_card_is_one_more_redraw(journal):
    _bennie(journal, "Ben")
    _scene(journal)
    journal.execute(CAMPAIGN, StartContest("Iris", "Fighting", "yellow", "Tomas", "red", "Moving", advanced=True))
    journal.execute(CAMPAIGN, DrawInContest("Iris", "5D"))
    journal.execute(CAMPAIGN, DrawInContest("Tomas", "9C"))
    journal.execute(CAMPAIGN, RedrawInContest("Iris", "Tomas", "2C"))
    journal.execute(CAMPAIGN, RedrawInContest("Tomas", "Tomas", "8H"))  # Tomas's one redraw (red, SRD 939)
    journal.execute(CAMPAIGN, RedrawInContest("Iris", "Iris", "JH"))
    with pytest.raises(RuleViolation, match="no redraws left"):
        journal.execute(CAMPAIGN, RedrawInContest("Tomas", "Iris", "3S"))
    [extra] = journal.execute(CAMPAIGN, DrawExtraCard("Ben"))
    assert journal.state(CAMPAIGN).rules.contests.open[1].duel.redraws == (0, 1)
    assert "one more redraw" in _said(journal, extra)
    journal.execute(CAMPAIGN, RedrawInContest("Tomas", "Iris", "3S"))
    [ended] = journal.execute(CAMPAIGN, EndContest())
    assert (ended.payload.winner, ended.payload.winning_card) == ("Tomas", "8H")
    _verified(journal)


def test_a_solo_action_takes_a_bennie_for_the_player_s_side_only(journal):
    _bennie(journal, "Ana")
    _scene(journal)
    journal.execute(CAMPAIGN, StartContest("Iris", "Fighting", "red", "GM", "red"))
    [extra] = journal.execute(CAMPAIGN, DrawExtraCard("Ana"))
    assert extra.payload.side == "Iris"
    assert journal.state(CAMPAIGN).rules.contests.open[1].contest.allowance == (2, 1)


def test_replay_keeps_the_extra_card_as_drawn(journal):
    _bennie(journal, "Ana")
    _scene(journal)
    journal.execute(CAMPAIGN, Oppose("yellow"), visibility=GM_ONLY)
    journal.execute(CAMPAIGN, DrawTarget("KC", ("Ana", "Ben", "Cy")))
    journal.execute(CAMPAIGN, PlayCards("Ana", "red", ("2H",)))
    from yarnlog.app.rolling import execute_rolling

    [drawn] = execute_rolling(journal, CAMPAIGN, DrawExtraCard("Ana"))
    assert drawn.payload.drawn_by_tool and drawn.payload.card is not None
    live = journal.state(CAMPAIGN)
    assert Journal(journal.store).state(CAMPAIGN) == live  # a fresh replay: the card as recorded
    assert str(live.rules.procedure.open[1].draws[-1].card) == drawn.payload.card
    _verified(journal)


def test_the_verb_answers_in_words_and_json_and_refuses_with_the_rule(cli):
    for args in (("init", "storm", "--title", "Storm", "--gm", "Maya", "--ruleset", "dramasystem"),
                 ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Iris", "--player", "Ana", "--strong", "Fighting,Talking",
                  "--weak", "Knowing,Making", "--how", "Fighting=dirty tricks"),
                 ("character", "create", "Tomas", "--player", "Ben", "--strong", "Moving,Sneaking",
                  "--weak", "Talking,Enduring"),
                 *want_args(("Iris", "Tomas")),  # DS9: each wanted by the other before play
                 ("episode", "start", "--title", "Fog", "--theme", "trust"),
                 ("scene", "open", "--caller", "Ana", "--cast", "Iris,Tomas", "--mode", "procedural"),
                 ("oppose", "yellow"), ("target", "--card", "KC", "--order", "Ana,Ben"),
                 ("draw", "Ana", "--token", "yellow", "--cards", "3H")):
        code, out, err = cli(*args)
        assert code == 0, (args, err)
    before = cli("log", "--json")[1]
    code, out, err = cli("extra-card", "Ana", "--card", "5C")
    assert code == 3 and err.startswith("Refused.") and "bennie" in err and err.count("\n") == 1
    assert cli("log", "--json")[1] == before
    code, out, err = cli("extra-card", "Ana", "--card", "5C", "--ruling", "dirty tricks [b]fit[/b]")
    assert code == 0, err
    assert "The GM grants Ana one more card (How I Do It: dirty tricks [b]fit[/b]): 5♣ (impressive)." in " ".join(
        out.split())  # the answer wraps at 80 columns; the name's brackets are shown, never read as markup
    assert all(len(line) <= 80 for line in out.splitlines())
    code, out, err = cli("extra-card", "Ben", "--ruling", "slippery", "--json")
    assert code == 0, err
    [recorded] = json.loads(out)
    assert recorded["event_type"] == "dramasystem.procedure.extra_card"
    assert recorded["payload"]["card"] is not None and recorded["payload"]["drawn_by_tool"] is True
    code, out, err = cli("verify")
    assert code == 0, err
    code, out, err = cli("resolutions")
    assert code == 0 and "Ana extra 5♣ (ruling)" in out
    # The odds calculator with Ana's yellow and two extra cards gives the open resolution's figures.
    [report] = json.loads(cli("resolutions", "--as", "Ben", "--json")[1])
    code, out, err = cli("odds", "yellow", "--extra-cards", "2", "--json")
    assert code == 0, err
    assert [(r["gm_token"], r["chance"]) for r in json.loads(out)["against"]] == [
        (o["against"], o["chance"]) for o in report["odds"]]
    assert json.loads(cli("odds", "yellow", "--json")[1])["against"] != json.loads(out)["against"]
