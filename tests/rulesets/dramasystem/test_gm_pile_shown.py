"""Where the GM's pile is shown while her secret token may be out (SRD 445; digest reading 16): the
line after every write (``words.follow_up``) and ``procedural-tokens``, now an alias of ``tokens``."""

from __future__ import annotations

import json

from yarnlog.core.state import GM_ONLY
from yarnlog.rulesets.dramasystem.parts.card_procedure import DrawTarget, Oppose, PlayCards, Resolve
from yarnlog.rulesets.dramasystem.words import follow_up

from .storm_table import CAMPAIGN, _procedural_scene
from .test_cli_procedure import table  # noqa: F401 (the fixture: a procedural scene open at the table)


def test_the_line_after_a_write_leaves_the_gms_pile_out_from_the_call_to_the_reveal(journal):
    # Line 445: "The GM secretly spends one of her available tokens, concealing it so that it can be
    # revealed with a flourish at the conclusion of a scene". Reading 16: "the GM's unspent pile also
    # hints at it, so the player view should not show the GM's pile while a resolution is open".
    assert "Maya (GM) all three" in follow_up(journal.state(CAMPAIGN))
    _procedural_scene(journal)
    journal.execute(CAMPAIGN, Oppose("yellow"), visibility=GM_ONLY)
    # Between her spend and the target card her pile would read "green, red": which colour went.
    said = follow_up(journal.state(CAMPAIGN))
    assert "Maya" not in said and "Ana all three" in said
    journal.execute(CAMPAIGN, DrawTarget("KC", ("Ben", "Ana", "Cy")))
    journal.execute(CAMPAIGN, PlayCards("Ben", "red", ("2S",)))
    assert "Maya" not in follow_up(journal.state(CAMPAIGN))
    journal.execute(CAMPAIGN, PlayCards("Ana", "green", ("QH", "3C")))
    journal.execute(CAMPAIGN, PlayCards("Cy", None))
    journal.execute(CAMPAIGN, Resolve())
    assert "Maya (GM) green, red" in follow_up(journal.state(CAMPAIGN))  # revealed: the pile is shown again


def test_procedural_tokens_is_tokens_with_its_player_view(table):  # noqa: F811 (the fixture above)
    code, out, err = table("oppose", "yellow")
    assert code == 0 and "Maya" not in out.split("Procedural tokens unspent:")[-1]
    for viewer in ((), ("--as", "Ana")):
        alias = json.loads(table("procedural-tokens", *viewer, "--json")[1])
        assert alias == json.loads(table("tokens", *viewer, "--json")[1])
    ana = json.loads(table("procedural-tokens", "--as", "Ana", "--json")[1])
    maya = next(p for p in ana["participants"] if p["gm"])
    assert maya["unspent"] is None and maya["hidden"]
    code, out, _ = table("procedural-tokens", "--as", "Ana")
    assert code == 0 and "The GM's pile is hidden until the resolution ends" in " ".join(out.split())
    gm = json.loads(table("procedural-tokens", "--json")[1])  # the GM's own board shows her token aside
    assert next(p for p in gm["participants"] if p["gm"])["set_aside"] == ["yellow"]
