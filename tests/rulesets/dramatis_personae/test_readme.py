"""The README's Dramatis Personae session runs as written, and its comments' figures hold."""

from __future__ import annotations

import json

from test_readme_examples import blocks, run_all


def test_the_dramatis_personae_session_runs_as_written(cli):
    commands = blocks("## A Dramatis Personae session")
    run_all(cli, commands)
    code, out, _ = cli("verify")
    assert code == 0 and out.startswith("ok: brocken")
    payloads = [e["payload"] for e in json.loads(cli("log", "--json")[1])]
    chasm = payloads[9]  # event 10, the one the README explains
    assert (chasm["roll"]["net"], chasm["roll"]["kept"], chasm["roll"]["total"]) == (-2, [2, 5, 6], 13)
    melee = next(p for p in payloads if "beats" in p)
    # line 158: "4 greater than the other ... complete success"; line 170-171: "Loser suffers 2 penalty dice"
    assert (melee["winner"], melee["beats"][0]["tier"], melee["beats"][0]["penalty"]) == (
        "Bryn", "complete success", 2)
    wound = next(p for p in payloads if p.get("kind") == "wound")
    assert (wound["roll"]["total"], wound["wound"]) == (7, "debilitating injury (1d6 to some physical actions)")
    code, out, _ = cli("dice", "--json")
    bryn = next(c for c in json.loads(out)["characters"] if c["character"] == "Bryn")
    # 20 saved bonus dice bought level 2 (line 65); 3 pool dice with 1 in the pool: a debt of 4 (line 69)
    assert (bryn["level"], bryn["saved_good"], bryn["debt"]) == (2, 0, 4)
    for args in (("rolls",), ("ledger",), ("dice",)):
        assert all(len(line) <= 80 for line in cli(*args)[1].splitlines())


def test_the_readings_for_gms_say_the_digest_misses_line_221_and_what_is_implemented():
    from test_readme_examples import README

    from yarnlog.rulesets.dramatis_personae.rules.contests import WOUND_ROLL, WOUNDS, Wound, wound

    section = " ".join(README.split("## A Dramatis Personae session", 1)[1].split("\n## ", 1)[0].split())
    assert "the digest misses the book's last line, 221" in section
    assert "rolls against 11" in section and "(`yarnlog wound`, citing line 221" in section
    # the code cites the book's line itself, under its heading, and does what the README says
    assert "line 221" in WOUNDS.book and WOUNDS.chapter == "Consequences of Melee Combat"
    assert WOUNDS.where == "DP 221" and WOUND_ROLL == 11
    assert [wound(t) for t in (11, 10, 7, 5, 3)] == [Wound.NONE, Wound.COSMETIC, Wound.DEBILITATING, Wound.DISABLED,
                                                     Wound.DEAD]
