"""The drama commands at the table: a whole session recorded from the command line, reports at any
point, one-line errors that change nothing, and GM overrides."""

from __future__ import annotations

import json

import pytest

from yarnlog.app.journal import Journal
from yarnlog.core.table import AddParticipant
from yarnlog.persistence.factory import open_store
from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferTokens

from .drama_table import GM, PLAYERS, seat_characters


@pytest.fixture
def table(cli, tmp_path):
    """Lantern Harbor with Iris, Jon, Kit, Old Tom and Mags; episode 2 started, Ana's theme."""
    store = open_store(tmp_path / "journal.db")
    journal = Journal(store)
    journal.create_campaign("lantern", title="Lantern Harbor", gm=GM)
    for name in PLAYERS:
        journal.execute("lantern", AddParticipant(name))
    seat_characters(journal, "lantern")
    journal.execute("lantern", TransferTokens("kitty", "Cy", 2, reason="won last series", currency="bennie"))
    store.close()
    assert cli("episode", "end", "--override", "the first scene was only introductions")[0] == 0
    assert cli("episode", "start", "--title", "Debts", "--theme", "debts", "--theme-by", "Ana")[0] == 0
    return cli


def data(result) -> object:
    code, out, err = result
    assert code == 0, err
    return json.loads(out)


def events(cli) -> int:
    return len(data(cli("log", "--json")))


def test_a_session_recorded_from_the_command_line(table):
    cli = table
    data(cli("precedence", "draw", "--purpose", "calling-order", "--order", "Ben,Ana,Cy", "--json"))
    assert data(cli("calling-order", "--json"))["calling_order"] == ["Ana", "Ben", GM, "Cy"]
    called = data(cli("call", "Ana", "--cast", "Iris,Old Tom", "--mode", "dramatic", "--setting", "the docks",
                      "--json"))
    assert called[-1]["payload"]["cast"] == ["Iris", "Old Tom"]
    data(cli("petition", "refused", "-p", "Iris", "-g", "Old Tom", "--json"))
    data(cli("call", "Ben", "--cast", "Jon", "--cast", "Iris", "--mode", "dramatic", "--json"))
    data(cli("challenge", "rush", "Kit", "--consent", "--json"))
    data(cli("two-way", "--granted", "Jon", "--denied", "Iris", "--json"))
    data(cli("call", GM, "--cast", "Kit,Mags", "--mode", "dramatic", "--json"))
    data(cli("petition", "granted", "-p", "Kit", "-g", "Mags", "--json"))
    for voter, *ranking in (("Ana", "Ben", "Cy"), ("Ben", "Ana", "Cy"), ("Cy", "Ana", "Ben"), (GM, "Ana", "Ben", "Cy")):
        data(cli("ballot", "--voter", voter, *ranking, "--json"))
    ended = data(cli("episode", "end", "--json"))
    assert [e["event_type"] for e in ended] == ["scene.closed", "yarn.bennie.vote_tallied", "yarn.tokens.returned",
                                                "episode.ended"]
    ana = data(cli("ledger", "--participant", "Ana", "--episode", "2", "--json"))
    assert [(row["event_type"], row["currency"], row["amount"], row["balances_after"]["Ana"]) for row in ana] == [
        ("yarn.petition.resolved", "drama", 1, 1), ("yarn.petition.two_way", "drama", 2, 3),
        ("yarn.bennie.vote_tallied", "bennie", 1, 1), ("yarn.tokens.returned", "drama", 3, 0)]
    bennies = data(cli("bennies", "--tally", "--json"))
    assert bennies["held"] == {"Ana": 1, "Ben": 1, "Cy": 2}
    assert [r["agrees"] for r in bennies["recounts"]] == [True]
    assert data(cli("verify", "--json"))["ok"] is True


def test_reports_read_any_point_of_the_journal(table):
    cli = table
    data(cli("call", "Ana", "--cast", "Iris,Jon", "--mode", "dramatic", "--json"))
    data(cli("petition", "refused", "-p", "Iris", "-g", "Jon", "--json"))
    scene = data(cli("status", "--json"))["scene_in_play"]
    data(cli("call", "Ana", "--cast", "Jon,Kit", "--json"))
    now = {p["name"]: p["drama_tokens"] for p in data(cli("tokens", "--json"))["participants"]}
    then = {p["name"]: p["drama_tokens"] for p in data(cli("tokens", "--end-of-scene", str(scene), "--json"))[
        "participants"]}
    assert (now["Ana"], then["Ana"]) == (0, 1)
    code, out, _ = cli("ledger", "--participant", "Ana")
    assert code == 0 and "kitty>Ana 1" in out and "+1 = 1" in out and "-1 = 0" in out
    assert "Calling Scenes" in out
    code, out, _ = cli("tokens")
    assert code == 0 and "GM's pool (Maya, for Mags, Old Tom)" in out


def test_errors_are_one_line_and_change_nothing_and_the_gm_may_override(table):
    cli = table
    data(cli("precedence", "draw", "--purpose", "calling-order", "--order", "Ben,Ana,Cy", "--json"))
    before = events(cli)
    code, _, err = cli("call", "Ben", "--cast", "Jon")
    assert code == 3 and err.count("\n") == 1 and "Calling Order" in err
    code, _, err = cli("petition", "maybe", "-p", "Iris", "-g", "Jon")
    assert code == 2 and err.startswith("error: ")
    code, _, err = cli("challenge", "rush", "Kit", "--token", "--bennie")
    assert code == 2 and "exactly one" in err
    assert events(cli) == before
    overridden = data(cli("call", "Ben", "--cast", "Jon", "--override", "Ana is running late", "--json"))
    assert overridden[0]["event_type"] == "override.recorded"
    assert data(cli("calling-order", "--json"))["next_caller"] == "Ana"


def test_bennies_are_spent_and_ballots_checked_from_the_command_line(table):
    cli = table
    data(cli("call", "Cy", "--cast", "Kit", "--mode", "procedural", "--json"))
    spent = data(cli("bennie", "spend", "Cy", "drama-token", "--json"))
    assert spent[0]["payload"]["effect"] == "a dramatic token"
    code, _, err = cli("bennie", "spend", "Cy", "extra-card")
    assert code == 3 and err == "Refused. Cy has already spent a bennie in scene 2 (Spending Bennies).\n"
    code, _, err = cli("bennie", "spend", "Cy", "extra-card", "--json")  # the rule's own words, in full
    assert code == 3 and "one bennie per scene" in err
    code, _, err = cli("ballot", "--voter", "Ana", "Ana", "Ben")
    assert code == 3 and err == "Refused. Ana ranks themselves: players do not rank themselves (Gaining Bennies).\n"
    code, _, err = cli("episode", "end")
    assert code == 3 and "No ballot from" in err


def test_an_episode_ends_after_an_override_left_a_caller_owing_a_token(table):
    # Casting a scene your character is not in costs a drama token; the GM let Ana do it with none.
    cli = table
    data(cli("precedence", "draw", "--purpose", "calling-order", "--order", "Ben,Ana,Cy", "--json"))
    code, _, err = cli("call", "Ana", "--cast", "Jon")
    assert code == 3 and "holds 0" in err
    data(cli("call", "Ana", "--cast", "Jon", "--override", "Ana pays it back next scene", "--json"))
    owing = {p["name"]: p["drama_tokens"] for p in data(cli("tokens", "--json"))["participants"]}
    assert owing["Ana"] == -1
    code, _, err = cli("episode", "end", "--override", "we stop here tonight")
    assert code == 0, err
    returned = [e for e in data(cli("log", "--json")) if e["event_type"].endswith("tokens.returned")]
    assert not [t for e in returned for t in e["payload"]["transfers"] if t["source"] == "Ana"]
