"""A refused retraction names the people of the event it would break exactly as typed: a name that opens
with "[" is not taken for the bracketed detail a refusal leaves out (core.decide._briefly)."""

from __future__ import annotations

import json


def test_a_refused_retraction_shows_a_bracketed_name_as_typed_and_writes_nothing(cli):
    name = "[bold]Faust<b>"
    for args in (("init", "dp", "--title", "T", "--gm", "Maya", "--ruleset", "dramatis-personae"),
                 ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", name, "--player", "Ana", "--level", "1"),
                 ("character", "create", "Bryn", "--player", "Ben", "--level", "1"),
                 ("melee", "Bryn", name, "--fight", "yard", "--faces", "Bryn=6,5,4", "--faces", f"{name}=6,5,3")):
        code, _, err = cli(*args)
        assert code == 0, (args, err)
    before = json.loads(cli("log", "--json")[1])
    code, _, err = cli("retract", "4", "--reason", "oops", "--yes")
    assert code != 0 and f"no character is called {name} (Corrections)" in err, err
    assert len(err.strip().splitlines()) == 1
    assert json.loads(cli("log", "--json")[1]) == before
