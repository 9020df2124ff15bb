"""GM rulings in DramaSystem (the digest's move 25, "GM ruling (generic)"): tokens moved by ruling
(``ruling tokens``, the shared core's ``TransferTokens``) and a ruling that moves nothing, tied to
the rule it settles (``ruling note``). The same verbs serve Yarn."""

from __future__ import annotations

import json

import pytest

from .storm_table import want_args

SETUP = (
    ("init", "storm", "--title", "Storm", "--gm", "Maya", "--ruleset", "dramasystem"),
    ("join", "Ana"), ("join", "Ben"),
    ("character", "create", "Iris", "--player", "Ana", "--strong", "Fighting,Talking", "--weak", "Knowing,Making",
     "--how", "Fighting=dirty tricks"),
    ("character", "create", "Tomas", "--player", "Ben", "--strong", "Moving,Sneaking", "--weak", "Talking,Enduring"),
    *want_args(("Iris", "Tomas")),
    ("episode", "start", "--title", "Fog", "--theme", "trust"),
    ("scene", "open", "--caller", "Ana", "--cast", "Iris,Tomas", "--mode", "dramatic"),
)


@pytest.fixture
def storm(cli):
    for args in SETUP:
        code, _, err = cli(*args)
        assert code == 0, (args, err)
    return cli


def _events(cli) -> list[dict]:
    return json.loads(cli("log", "--json")[1])


def test_a_token_moved_by_ruling_is_in_the_ledger_as_a_gm_ruling_with_its_reason(storm):
    # Line 273: "A central pile, or kitty, contains an inexhaustible supply of tokens."
    code, out, err = storm("ruling", "tokens", "--from", "kitty", "--to", "ana", "--amount", "1",
                           "--reason", "a speech the whole table cheered", "--json")
    assert code == 0, err
    [event] = json.loads(out)
    assert event["event_type"] == "dramasystem.tokens.transferred"
    assert event["payload"]["reason"] == "a speech the whole table cheered"
    assert [(t["source"], t["destination"], t["amount"], t["currency"]) for t in event["payload"]["transfers"]] == [
        ("kitty", "Ana", 1, "drama")]  # "ana" as registered
    code, out, _ = storm("ledger", "--participant", "Ana", "--json")
    [line] = [line for line in json.loads(out) if line["currency"] == "drama"]
    assert (line["rule_number"], line["reason"]) == ("GM ruling", "a speech the whole table cheered")
    code, out, _ = storm("ledger")
    assert "GM ruling: a speech the whole" in out and "table cheered" in out
    assert all(len(row) <= 80 for row in out.splitlines())
    board = {p["name"]: p for p in json.loads(storm("tokens", "--json")[1])["participants"]}
    assert board["Ana"]["drama_tokens"] == 1
    assert storm("verify")[0] == 0


def test_a_ruling_that_would_take_an_account_below_zero_is_refused_unless_overridden(storm):
    before = _events(storm)
    code, out, err = storm("ruling", "tokens", "--from", "Ben", "--to", "Ana", "--amount", "2", "--currency",
                           "bennie", "--reason", "Ben promised")
    assert code == 3 and out == "" and err.count("\n") == 1
    assert "Ben pays 2 bennies but holds 0: --override rules it" in err and len(err) <= 81
    assert _events(storm) == before  # nothing written
    code, out, err = storm("ruling", "tokens", "--from", "Ben", "--to", "Ana", "--amount", "2", "--currency",
                           "bennie", "--reason", "Ben promised", "--override", "he pays it back next session",
                           "--json")
    assert code == 0, err
    assert [e["event_type"] for e in json.loads(out)] == ["override.recorded", "dramasystem.tokens.transferred"]
    board = {p["name"]: p for p in json.loads(storm("tokens", "--json")[1])["participants"]}
    assert (board["Ben"]["bennies"], board["Ana"]["bennies"]) == (-2, 2)
    assert storm("verify")[0] == 0


@pytest.mark.parametrize("args, says", [
    (("--from", "kitty", "--to", "Ana", "--amount", "1", "--reason", " "), "a GM ruling needs a reason"),
    (("--from", "kitty", "--to", "Ana", "--amount", "0", "--reason", "x"), "transfer at least 1"),
    (("--from", "Zed", "--to", "Ana", "--amount", "1", "--reason", "x"), "Zed is neither at the table nor the kitty"),
    (("--from", "kitty", "--to", "Ana", "--amount", "1", "--reason", "x", "--currency", "gold"),
     "currency is 'drama' or 'bennie'"),
    (("--from", "Ana", "--to", "ana", "--amount", "1", "--reason", "x"), "two different accounts"),
])
def test_a_ruling_on_tokens_with_bad_input_is_one_line_and_writes_nothing(storm, args, says):
    before = _events(storm)
    code, out, err = storm("ruling", "tokens", *args)
    assert code == 2 and out == "" and err.count("\n") == 1 and says in err
    assert _events(storm) == before
    code, _, err = storm("ruling", "tokens", "--from", "kitty", "--to", "Ana", "--amount", "1")
    assert code == 2 and "--reason" in err  # the reason is required


def test_a_ruling_that_moves_nothing_names_the_rule_it_settles(storm):
    # Line 149: "In a situation where it fits to describe yourself as employing your distinctive talent,
    # you gain an additional advantage." No number: the GM rules it (reading 7).
    code, out, err = storm("ruling", "note", "Iris's dirty tricks give her one more card this scene",
                           "--rule", "DS5 How I Do It", "--json")
    assert code == 0, err
    [event] = json.loads(out)
    assert event["event_type"] == "dramasystem.ruling.recorded"
    assert event["payload"] == {"rule": "DS5 How I Do It",
                                "ruling": "Iris's dirty tricks give her one more card this scene"}
    code, out, _ = storm("ruling", "note", "a fair call.", "--rule", "reading 9")
    assert code == 0 and "The GM rules on reading 9: a fair call." in out and "call.." not in out
    code, out, err = storm("ruling", "note", "something", "--rule", " ")
    assert code == 2 and out == "" and "name the rule the ruling settles" in err
    md = storm("recap")[1]
    assert "The GM rules on DS5 How I Do It: Iris's dirty tricks give her one more card this scene." in md
    assert storm("verify")[0] == 0


def test_yarn_records_the_same_rulings(cli):
    for args in (("init", "harbor", "--title", "Harbor", "--gm", "Maya"), ("join", "Ana"),
                 ("ruling", "tokens", "--from", "kitty", "--to", "Ana", "--amount", "1", "--currency", "bennie",
                  "--reason", "carried over from the pilot"),
                 ("ruling", "note", "the pilot's bennies carry over", "--rule", "Bennies")):
        code, _, err = cli(*args)
        assert code == 0, (args, err)
    types = [e["event_type"] for e in _events(cli)]
    assert types[-2:] == ["yarn.tokens.transferred", "yarn.ruling.recorded"]
    code, out, _ = cli("ledger", "--participant", "Ana")
    assert "GM ruling; carried over from the" in out
    assert cli("verify")[0] == 0


def test_a_ruling_is_the_gms_a_player_cannot_record_one(storm):
    """Move 25 is the GM's ruling ("as ruled by the GM"): recorded ``--by`` a player it would move
    tokens on that player's word, so it is refused in one line and nothing is written."""
    before = _events(storm)
    for args in (("ruling", "tokens", "--from", "kitty", "--to", "Ana", "--amount", "3", "--reason", "I earned it"),
                 ("ruling", "note", "Ana may redraw", "--rule", "DS5")):
        code, out, err = storm(*args, "--by", "Ana")
        assert code == 2 and out == "" and err.count("\n") == 1, (args, err)
        assert err == "error: a ruling is the GM's: record it --by Maya, not Ana\n"
    assert _events(storm) == before
    code, _, err = storm("ruling", "note", "Ana may redraw", "--rule", "DS5", "--by", "Maya")
    assert code == 0, err


def test_a_ruling_recorded_by_a_player_is_an_audit_fault_so_an_import_refuses_it(storm, tmp_path):
    """A journal written by other means (an edited export, resealed) is held to the same rule by the
    audit that `verify` and `import` run."""
    from yarnlog.core.chain import GENESIS, event_hash

    assert storm("ruling", "tokens", "--from", "kitty", "--to", "Ana", "--amount", "1", "--reason", "cheered")[0] == 0
    code, out, _ = storm("export")
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    lines = [line for line in lines if "trailer" not in line]
    assert lines[-1]["event_type"] == "dramasystem.tokens.transferred"
    lines[-1]["recorded_by"] = "Ana"
    prev = GENESIS
    for line in lines:
        line["prev_hash"] = prev
        line["hash"] = prev = event_hash(line, line["payload"], prev)
    forged = tmp_path / "forged.jsonl"
    forged.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    code, _, err = storm("--db", str(tmp_path / "other.db"), "import", "--without-trailer", str(forged))
    assert code != 0 and "only a GM records dramasystem.tokens.transferred, and Ana is not one" in err
