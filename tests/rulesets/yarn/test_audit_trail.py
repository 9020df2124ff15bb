"""The audit trail: the ledger with both sides of each exchange and struck amendments, ``explain`` of an
event or a scene, and dice statistics, on the sample campaign (Lantern Harbor) and on small campaigns
built here. Every expectation is derived from the log itself, never copied from printed output."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from yarnlog.app.interchange import import_records, parse_lines
from yarnlog.app.journal import Journal
from yarnlog.core.decide import Correct, Retract
from yarnlog.core.referee import InvalidCommand
from yarnlog.core.state import visible_to
from yarnlog.persistence.memory import MemoryStore
from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferTokens
from yarnlog.rulesets.yarn.parts.economy.explanations import explain_event, explain_scene
from yarnlog.rulesets.yarn.parts.economy.ledger_trail import filtered, ledger_trail
from yarnlog.rulesets.yarn.parts.procedure.roll_statistics import dice_statistics

from .drama_table import GM, seat_characters

SAMPLE = Path(__file__).resolve().parents[3] / "journals" / "lantern-harbor.jsonl"


@pytest.fixture(scope="module")
def harbor():
    """The sample campaign: its history (as stored, with context) and its state at the end."""
    store = MemoryStore()
    import_records(store, parse_lines(SAMPLE.read_text(encoding="utf-8").splitlines()))
    journal = Journal(store)
    return journal.history("lantern"), journal.state("lantern")


def _of_type(history, event_type: str) -> list:
    return [r for r in history if r.event_type == event_type]


def _held(explained_balances: list[dict]) -> dict[tuple[str, str], int]:
    return {(h["name"], c): h[key] for h in explained_balances
            for c, key in (("drama", "drama_tokens"), ("bennie", "bennies"))}


def _moved(before: dict, movements: list[dict]) -> dict:
    after = dict(before)
    for m in movements:
        if m["struck"]:
            continue
        for who, sign in ((m["from"], -1), (m["to"], 1)):
            if who != "kitty":
                after[(who, m["currency"])] = after.get((who, m["currency"]), 0) + sign * m["amount"]
    return after


# -- the ledger -------------------------------------------------------------------------------


def test_the_ledger_of_every_participant_reconciles_with_a_full_replay(harbor):
    history, state = harbor
    trail = ledger_trail(history)
    economy = state.rules.economy
    participants = [*state.table.players, state.table.gm]
    for name in participants:
        lines = filtered(trail, participant=name)
        running = {"drama": 0, "bennie": 0}
        for line in lines:
            column = line.drama_after if line.currency == "drama" else line.bennies_after
            if line.struck_by is None:
                running[line.currency] += line.amount if line.destination == name else -line.amount
            assert column[name] == running[line.currency], (name, line.sequence)
        assert running["drama"] == economy.tokens.get(name, 0), name
        assert running["bennie"] == economy.bennies.get(name, 0), name
    assert {n: v for n, v in trail.drama.items() if v} == {n: v for n, v in economy.tokens.items() if v}
    assert {n: v for n, v in trail.bennies.items() if v} == {n: v for n, v in economy.bennies.items() if v}


def test_each_line_names_both_sides_and_keeps_bennies_in_their_own_column(harbor):
    history, _ = harbor
    trail = ledger_trail(history)
    petition = next(r for r in _of_type(history, "yarn.petition.resolved") if r.payload.transfers)
    [line] = [line for line in trail.lines if line.sequence == petition.sequence]
    p = petition.payload
    assert line.exchange.sides == {"petitioner": f"{p.petitioner} ({p.petitioner_holder})",
                                   "granter": f"{p.granter} ({p.granter_holder})"}
    # What the petition sought: the petitioner's want from the granter if declared, else the scene's call.
    wants = {(w.character, w.withholder): w.want for w in (r.payload for r in
                                                           _of_type(history, "yarn.character.want_declared"))}
    opened = next(r.payload for r in _of_type(history, "scene.opened") if r.payload.number == p.scene)
    assert line.exchange.sought == wants.get((p.petitioner, p.granter), opened.situation or opened.title)
    force = next(r for r in _of_type(history, "yarn.petition.forced") if r.payload.blocked)
    sides = next(line for line in trail.lines if line.sequence == force.sequence).exchange.sides
    assert sides["forcer"].startswith(force.payload.petitioner) and sides["blocker"].startswith(force.payload.granter)
    bennie = next(line for line in trail.lines if line.currency == "bennie")
    [receiver] = [n for n in (bennie.source, bennie.destination) if n != "kitty"]
    drama_before = ([line.drama_after[receiver] for line in trail.lines
                     if line.sequence < bennie.sequence and receiver in line.drama_after] or [0])[-1]
    assert bennie.drama_after[receiver] == drama_before  # a bennie moves no drama token
    assert bennie.bennies_after[receiver] >= bennie.amount


@pytest.fixture
def amended(journal, campaign):
    """Two GM rulings, one retracted and one corrected (a token the player remembers, then gone)."""
    seat_characters(journal, campaign)
    [given] = journal.execute(campaign, TransferTokens("kitty", "Ana", 1, reason="a token for the toast"))
    [bennie] = journal.execute(campaign, TransferTokens("kitty", "Ben", 1, reason="won last series",
                                                        currency="bennie"))
    [retraction] = journal.execute(campaign, Retract(given.sequence, "Ana had not earned it: the toast was Ben's"))
    line = {**bennie.payload.transfers[0].model_dump(), "amount": 2}
    [correction] = journal.execute(campaign, Correct(bennie.sequence, {"transfers": [line]}, "two bennies, not one"))
    return campaign, given, bennie, retraction, correction


def test_a_retracted_movement_is_struck_with_its_amendment_and_moves_nothing(journal, amended):
    campaign, given, bennie, retraction, correction = amended
    history = journal.history(campaign)
    trail = ledger_trail(history)
    [struck] = [line for line in trail.lines if line.sequence == given.sequence]
    assert struck.struck_by is not None and struck.struck_by.sequence == retraction.sequence
    assert struck.struck_by.reason == retraction.payload.reason
    assert struck.struck_by.approved_by == retraction.payload.approved_by == GM
    assert f"retracted by #{retraction.sequence}" in struck.struck_by.marker()
    assert struck.drama_after["Ana"] == 0
    original, replacement = [line for line in trail.lines if line.sequence == bennie.sequence]
    assert original.struck_by is not None and original.struck_by.kind == "corrected"
    assert replacement.struck_by is None and replacement.replaces is not None and replacement.amount == 2
    economy = journal.state(campaign).rules.economy
    assert (trail.drama.get("Ana", 0), trail.bennies["Ben"]) == (economy.tokens.get("Ana", 0), economy.bennies["Ben"])
    row = struck.to_data()
    assert row["struck"] is True and row["struck_by"]["sequence"] == retraction.sequence


def test_an_undone_retraction_strikes_nothing_and_the_token_counts_again(journal, amended):
    campaign, given, bennie, retraction, correction = amended
    journal.execute(campaign, Retract(retraction.sequence, "she had earned it after all"))
    trail = ledger_trail(journal.history(campaign))
    [line] = [line for line in trail.lines if line.sequence == given.sequence]
    assert line.struck_by is None and line.drama_after["Ana"] == 1
    assert trail.drama["Ana"] == journal.state(campaign).rules.economy.tokens["Ana"] == 1


def test_explain_a_retracted_and_a_corrected_movement(journal, amended):
    campaign, given, bennie, retraction, correction = amended
    history, table = journal.history(campaign), journal.state(campaign).table
    retracted = explain_event(history, table, given.sequence)
    assert retracted["standing"] == "retracted"
    assert [m["struck"] for m in retracted["movements"]] == [True]
    assert retracted["balances_after"] == retracted["balances_before"]
    [a] = retracted["amendments"]
    assert (a["sequence"], a["reason"], a["approved_by"]) == (retraction.sequence, retraction.payload.reason, GM)
    corrected = explain_event(history, table, bennie.sequence)
    assert corrected["standing"] == "corrected"
    assert corrected["effective_payload"]["transfers"][0]["amount"] == 2
    assert _held(corrected["balances_after"]) == _moved(_held(corrected["balances_before"]), corrected["movements"])
    assert explain_event(history, table, retraction.sequence)["points_at"]["retracts"] == given.sequence


# -- explain ----------------------------------------------------------------------------------


def test_explain_a_petition_balances_before_rule_movements_after(harbor):
    history, state = harbor
    petition = next(r for r in _of_type(history, "yarn.petition.resolved") if r.payload.transfers)
    explained = explain_event(history, state.table, petition.sequence)
    transfers = petition.payload.transfers
    assert [(m["from"], m["to"], m["amount"], m["currency"]) for m in explained["movements"]] == [
        (t.source, t.destination, t.amount, t.currency) for t in transfers]
    assert {(r["chapter"], r["text"]) for r in explained["rules"]} == {(t.chapter, t.rule) for t in transfers}
    assert _held(explained["balances_after"]) == _moved(_held(explained["balances_before"]), explained["movements"])
    assert explained["event"]["payload"] == petition.payload.to_data()
    assert explained["exchange"]["sides"]["granter"].startswith(petition.payload.granter)


def test_explain_a_force(harbor):
    history, state = harbor
    for force in _of_type(history, "yarn.petition.forced"):
        explained = explain_event(history, state.table, force.sequence)
        p = force.payload
        assert explained["exchange"]["sides"]["forcer"] == f"{p.petitioner} ({p.petitioner_holder})"
        assert (("blocker" if p.blocked else "forced") in explained["exchange"]["sides"])
        assert len(explained["movements"]) == len(p.transfers)
        assert _held(explained["balances_after"]) == _moved(_held(explained["balances_before"]),
                                                            explained["movements"])


def test_explain_a_retracted_event_and_hide_it_from_a_player_who_may_not_see_it(harbor):
    history, state = harbor
    [retraction] = _of_type(history, "retraction")
    target = next(r for r in history if r.sequence == retraction.payload.retracts)
    explained = explain_event(history, state.table, target.sequence)
    assert explained["standing"] == "retracted"
    [a] = explained["amendments"]
    assert (a["sequence"], a["reason"], a["approved_by"]) == (
        retraction.sequence, retraction.payload.reason, retraction.payload.approved_by)
    player = next(p for p in state.table.players if not visible_to(target, p, state.table))
    with pytest.raises(InvalidCommand, match="not visible"):
        explain_event(history, state.table, target.sequence, viewer=player)


def test_explain_an_overridden_event_names_who_and_why(harbor):
    history, state = harbor
    [override] = _of_type(history, "override.recorded")
    covered = override.sequence + override.payload.covers
    explained = explain_event(history, state.table, covered)
    assert explained["override"]["sequence"] == override.sequence
    assert (explained["override"]["by"], explained["override"]["reason"]) == (override.payload.by,
                                                                             override.payload.reason)
    assert [r["chapter"] for r in explained["override"]["rules"]] == [r.chapter for r in override.payload.rules]
    assert explain_event(history, state.table, override.sequence + override.payload.covers + 1)["override"] is None


def test_explain_a_scene_as_a_player_leaves_out_what_she_may_not_see(harbor):
    history, state = harbor
    hidden = next(r for r in history if r.visibility == "gm" and r.scene is not None)
    scene = [r for r in history if r.scene == hidden.scene]
    gm_view = explain_scene(history, state.table, hidden.scene)
    ana_view = explain_scene(history, state.table, hidden.scene, viewer="Ana")
    assert [e["event"]["sequence"] for e in gm_view["events"]] == [r.sequence for r in scene]
    assert [e["event"]["sequence"] for e in ana_view["events"]] == [
        r.sequence for r in scene if visible_to(r, "Ana", state.table)]
    with pytest.raises(InvalidCommand, match="no scene"):
        explain_scene(history, state.table, 999)


# -- dice statistics ---------------------------------------------------------------------------


def _recount(history, table, viewer):
    """Roll events (none is amended in the sample) counted again, straight from their payloads."""
    rolls = [r for r in _of_type(history, "yarn.roll.made") if visible_to(r, viewer, table)]
    return {
        "rolls": len(rolls),
        "good": sum(r.payload.breaks.good for r in rolls), "bad": sum(r.payload.breaks.bad for r in rolls),
        "botches": sum(r.payload.botch for r in rolls),
        "by_participant": {p: sum(r.payload.participant == p for r in rolls)
                           for p in {r.payload.participant for r in rolls}},
    }


def test_dice_statistics_equal_a_recount_of_the_roll_events_and_hide_secret_rolls(harbor):
    history, state = harbor
    assert any(r.visibility == "gm" for r in _of_type(history, "yarn.roll.made"))  # the sample has a secret roll
    for viewer in (None, "Ana"):
        stats = dice_statistics(state, history=history, viewer=viewer, fights=False)
        expected = _recount(history, state.table, viewer)
        total = stats["total"]
        assert (total["rolls"], total["good_breaks"], total["bad_breaks"], total["botches"]) == (
            expected["rolls"], expected["good"], expected["bad"], expected["botches"])
        assert {p["participant"]: p["rolls"] for p in stats["by_participant"]} == expected["by_participant"]
        assert sum(e["rolls"] for e in stats["by_episode"]) == expected["rolls"]
    gm_total = dice_statistics(state, history=history, fights=False)["total"]
    ana_total = dice_statistics(state, history=history, viewer="Ana", fights=False)["total"]
    secret = [r for r in _of_type(history, "yarn.roll.made") if not visible_to(r, "Ana", state.table)]
    assert gm_total["rolls"] - ana_total["rolls"] == len(secret)
    assert gm_total["dice_total"] - ana_total["dice_total"] == sum(r.payload.dice.total for r in secret)


def test_luck_compares_beats_with_the_sum_of_the_prior_chances(harbor):
    # A player's view counts the odds each visible roll recorded (against a secret roll it recorded none:
    # only the GM's view, which sees both rolls, works them out).
    history, state = harbor
    stats = dice_statistics(state, history=history, viewer="Ana", fights=False)
    rolls = [r.payload for r in _of_type(history, "yarn.roll.made")
             if r.payload.odds and r.payload.outcome and visible_to(r, "Ana", state.table)]
    expected = sum((Fraction(p.odds.beats.exact) for p in rolls), Fraction(0))
    assert Fraction(stats["total"]["expected_beats"]["exact"]) == expected
    assert stats["total"]["beats_with_odds"] == sum(p.outcome == "beats" for p in rolls)


# -- the command line --------------------------------------------------------------------------


def test_the_audit_commands_at_the_command_line(cli):
    assert cli("import", str(SAMPLE))[0] == 0
    history = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    force = next(e for e in history if e["event_type"] == "yarn.petition.forced")
    code, out, err = cli("explain", str(force["sequence"]), "--json")
    assert code == 0, err
    assert json.loads(out)["event"]["sequence"] == force["sequence"]
    code, out, _ = cli("explain", str(force["sequence"]))
    assert code == 0 and "forcer" in out and force["payload"]["transfers"][0]["chapter"] in out.replace("\n", " ")
    retraction = next(e for e in history if e["event_type"] == "retraction")
    code, out, _ = cli("explain", str(retraction["payload"]["retracts"]))
    assert code == 0 and f"retracted by #{retraction['sequence']}" in out.replace("\n", " ")
    code, _, err = cli("explain", str(retraction["payload"]["retracts"]), "--as", "Ana")
    assert code != 0 and err.count("\n") == 1 and "not visible to Ana" in err
    code, _, err = cli("explain", "99999")
    assert code != 0 and err.count("\n") == 1 and "no event 99999" in err
    code, _, err = cli("explain")
    assert code != 0 and err.count("\n") == 1
    rows = json.loads(cli("ledger", "--json")[1])
    assert all({"drama_after", "bennies_after", "exchange", "struck"} <= set(r) for r in rows)
    stats = json.loads(cli("dice-stats", "--as", "Ana", "--json")[1])
    assert stats["viewer"] == "Ana"
    code, _, err = cli("dice-stats", "--as", "Nobody")
    assert code != 0 and "Nobody is not at the table" in err


def test_the_ledger_strikes_a_retracted_movement_in_the_terminal(cli, tmp_path):
    from yarnlog.persistence.factory import open_store

    store = open_store(tmp_path / "journal.db")
    built = Journal(store)
    built.create_campaign("lantern", title="Lantern Harbor", gm=GM)
    from yarnlog.core.table import AddParticipant

    for name in ("Ana", "Ben", "Cy"):
        built.execute("lantern", AddParticipant(name=name))
    [given] = built.execute("lantern", TransferTokens("kitty", "Ana", 1, reason="[bold]a toast[/bold]\x1b[31m"))
    [retraction] = built.execute("lantern", Retract(given.sequence, "not hers"))
    store.close()
    code, out, _ = cli("ledger", "--participant", "Ana")
    # The marker reads without styling (the strike itself is a terminal style, absent from captured output).
    said = " ".join(out.split())
    assert code == 0 and "\u2717 STRUCK" in said and f"retracted by #{retraction.sequence}" in said
    code, out, _ = cli("explain", str(given.sequence))
    assert "[bold]a toast[/bold]" in out and "\x1b" not in out  # user text is data: shown, never styled
    rows = json.loads(cli("ledger", "--json")[1])
    assert [(r["sequence"], r["struck"]) for r in rows] == [(given.sequence, True)]
    assert rows[0]["struck_by"]["marker"].startswith(f"retracted by #{retraction.sequence}: not hers")


def test_dice_statistics_with_the_history_count_both_rolls_of_every_attack(harbor):
    """ "When you roll 2 or more 6's or 2 or more 1's for a given action, you've had a break." """
    history, state = harbor
    attacks = [r.payload for r in _of_type(history, "yarn.combat.attacked")]
    assert attacks  # the fight at Pier Nine
    sides = [facts for p in attacks for facts in (p.attack, p.defense)]
    kept = [[f.faces[i] for i in f.kept] for f in sides]  # ``kept`` holds the indices of the dice kept
    procedural = _recount(history, state.table, None)
    stats = dice_statistics(state, history=history)["total"]
    assert stats["rolls"] == procedural["rolls"] + len(sides)
    assert stats["good_breaks"] == procedural["good"] + sum(k.count(6) >= 2 for k in kept)
    assert stats["bad_breaks"] == procedural["bad"] + sum(k.count(1) >= 2 for k in kept)
    hits = sum(p.outcome.value == "beats" for p in attacks)
    misses = sum(p.outcome.value == "fails" for p in attacks)
    # Each attack is one roll that beats and one that fails (or two that equal), from either side.
    procedural_beats = dice_statistics(state, history=history, fights=False)["total"]["outcomes"]["beats"]
    assert stats["outcomes"]["beats"] == procedural_beats + hits + misses


def test_a_players_explanation_counts_no_movement_she_may_not_see(journal, campaign):
    seat_characters(journal, campaign)
    [secret] = journal.execute(campaign, TransferTokens("kitty", "Ben", 1, reason="the GM's aside"), visibility="gm")
    [public] = journal.execute(campaign, TransferTokens("kitty", "Ana", 1, reason="a toast"))
    history, table = journal.history(campaign), journal.state(campaign).table

    def ben(explained: dict) -> int:
        return next(h["drama_tokens"] for h in explained["balances_before"] if h["name"] == "Ben")

    assert ben(explain_event(history, table, public.sequence)) == secret.payload.transfers[0].amount
    assert ben(explain_event(history, table, public.sequence, viewer="Ana")) == 0
    assert [e["event"]["sequence"] for e in explain_scene(history, table, public.scene, viewer="Ana")["events"]
            if e["event"]["sequence"] == secret.sequence] == []


def test_explain_the_override_itself_quotes_the_rules_it_set_aside(harbor):
    history, state = harbor
    [override] = _of_type(history, "override.recorded")
    pointed = explain_event(history, state.table, override.sequence)["points_at"]
    assert pointed["covers"] == list(range(override.sequence + 1, override.sequence + override.payload.covers + 1))
    assert [(r["chapter"], r["text"]) for r in pointed["rules"]] == [
        (r.chapter, r.text) for r in override.payload.rules]
