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
