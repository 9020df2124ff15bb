"""DramaSystem's calling order (DS11, lines 193-199; reading 4.9) and the queue jump a bennie buys
(DS76, line 734): the shared core's, as Yarn has it, quoting DramaSystem's own words."""

from __future__ import annotations

import json

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.referee import InvalidCommand, RuleViolation
from yarnlog.core.timeline import CloseScene, OpenScene
from yarnlog.rulesets.dramasystem.words import narrate
from yarnlog.rulesets.scenes_and_tokens.parts.calling_order import CallInOrder, calling_order
from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import DrawPrecedence
from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferTokens
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import Purpose

from .storm_table import CAMPAIGN, want_args


def _call(journal, caller: str, **more) -> list:
    return journal.execute(CAMPAIGN, CallInOrder(caller=caller, cast=("Iris", "Tomas", "Vel"), mode="procedural",
                                                 **more))


def _next(journal) -> str:
    return journal.state(CAMPAIGN).rules.drama.calling_of(1).next_caller


def test_the_gm_takes_the_theme_choosers_place_always():
    # DS11, line 197: "The player choosing the episode's theme always calls first. Then comes the player
    # who actually appeared first, in your precedence order. The GM inserts herself into the order,
    # replacing the player who chose the theme."
    assert calling_order(("Ben", "Ana", "Cy"), gm="Maya", theme_chooser="Ana") == ("Ana", "Ben", "Maya", "Cy")
    # No player chose the first episode's theme (line 165 leaves it to the GM): she opens, the players follow.
    assert calling_order(("Ben", "Ana", "Cy"), gm="Maya", theme_chooser=None) == ("Maya", "Ben", "Ana", "Cy")


def test_scenes_are_called_in_the_calling_order_which_rolls_over(journal):
    # DS11, line 199: "Scenes are then called according to this altered order. Once you reach the end of
    # a calling order, it rolls over" (reading 4.9: the altered order repeats from its top).
    journal.execute(CAMPAIGN, DrawPrecedence(Purpose.CALLING_ORDER, ("Ben", "Ana", "Cy")))
    with pytest.raises(RuleViolation) as refused:
        _call(journal, "Ben")
    message = str(refused.value)
    assert "DramaSystem SRD (DS11, lines 193-199)" in message and "Maya calls the next scene, not Ben" in message
    assert "replacing the player who chose the theme" in message and "usually" not in message
    assert journal.state(CAMPAIGN).timeline.scene is None  # nothing written
    for caller in ("Maya", "Ben", "Ana", "Cy", "Maya"):
        _call(journal, caller)
        journal.execute(CAMPAIGN, CloseScene())
    assert _next(journal) == "Ben"
    assert all(s.in_turn for s in journal.state(CAMPAIGN).rules.drama.scenes.values())
    assert verify(journal.stored_events(CAMPAIGN), CAMPAIGN).ok


def test_the_core_scene_opening_follows_the_calling_order_too(journal):
    journal.execute(CAMPAIGN, DrawPrecedence(Purpose.CALLING_ORDER, ("Ben", "Ana", "Cy")))
    with pytest.raises(RuleViolation):
        journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=("Iris", "Tomas"), mode="dramatic"))


def test_no_calling_order_drawn_leaves_calls_free(journal):
    _call(journal, "Cy")  # before the GM picks the precedence order, any caller is recorded as told
    journal.execute(CAMPAIGN, CloseScene())
    with pytest.raises(InvalidCommand, match="no calling order was drawn"):
        _call(journal, "Ben", jump_queue=True)


def test_jumping_the_queue_costs_a_bennie_and_skips_the_jumpers_next_turn(journal):
    # DS76, line 734: "to jump the queue and call a scene out of order; the queue-jumper's next scene is
    # skipped, after which the existing calling order is observed as per usual."
    journal.execute(CAMPAIGN, DrawPrecedence(Purpose.CALLING_ORDER, ("Ben", "Ana", "Cy")))
    with pytest.raises(RuleViolation, match="DS76-DS77"):  # no bennie to spend
        _call(journal, "Cy", jump_queue=True)
    journal.execute(CAMPAIGN, TransferTokens("kitty", "Cy", 1, reason="a bennie from the last vote",
                                             currency="bennie"))
    events = _call(journal, "Cy", jump_queue=True)
    called = events[-1]
    assert called.event_type == "dramasystem.scene.called"
    assert [s["option"] for s in called.payload.model_dump()["bennie_spends"]] == ["jump_the_queue"]
    told = narrate(called, journal.state(CAMPAIGN))
    assert "Cy spends a bennie to jump the queue" in told and "pays" not in told  # Vel is cast: no price
    state = journal.state(CAMPAIGN)
    assert state.rules.economy.holding("Cy", "bennie") == 0
    assert _next(journal) == "Maya"  # the jump took no one's turn
    for caller in ("Maya", "Ben", "Ana"):
        journal.execute(CAMPAIGN, CloseScene())
        _call(journal, caller)
    assert _next(journal) == "Maya"  # Cy's own next turn was skipped
    assert verify(journal.stored_events(CAMPAIGN), CAMPAIGN).ok


def test_the_next_caller_needs_no_queue_jump(journal):
    journal.execute(CAMPAIGN, DrawPrecedence(Purpose.CALLING_ORDER, ("Ben", "Ana", "Cy")))
    with pytest.raises(InvalidCommand, match="without jumping the queue"):
        _call(journal, "Maya", jump_queue=True)


def test_the_cli_calls_in_order_and_shows_the_calling_order(cli):
    for args in (("init", "storm", "--title", "Storm", "--gm", "Maya", "--ruleset", "dramasystem"),
                 ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Iris", "--player", "Ana", "--strong", "Fighting,Talking",
                  "--weak", "Knowing,Making"),
                 ("character", "create", "Tomas", "--player", "Ben", "--strong", "Moving,Sneaking",
                  "--weak", "Talking,Enduring"),
                 *want_args(("Iris", "Tomas")),
                 ("episode", "start", "--title", "Fog", "--theme", "trust"),
                 ("precedence", "draw", "--purpose", "calling-order", "--order", "Ben,Ana")):
        code, _, err = cli(*args)
        assert code == 0, (args, err)
    _, before, _ = cli("export")
    code, out, err = cli("call", "Ana", "--cast", "Iris,Tomas", "--mode", "dramatic")
    assert code == 3 and out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith("Refused. ") and err.rstrip().endswith("(Calling Order).")
    assert cli("export")[1] == before  # nothing written
    code, out, err = cli("call", "Maya", "--cast", "Iris,Tomas", "--mode", "dramatic", "--json")
    assert code == 0, err
    assert [e["event_type"] for e in json.loads(out)] == ["scene.opened"]
    code, out, err = cli("calling-order", "--json")
    assert code == 0, err
    view = json.loads(out)
    assert view["calling_order"] == ["Maya", "Ben", "Ana"] and view["next_caller"] == "Ben"
    code, out, _ = cli("calling-order")
    assert code == 0 and "Maya, Ben, Ana" in out and "Next to call: Ben" in out


def test_a_second_call_owed_is_made_once(journal):
    # "The caller may then call a new scene" after a no-contest scene (line 351), a replacement
    # that takes no turn. Once she has called it, the calling order alone says who calls next: the
    # replacement is not owed a second time.
    from yarnlog.rulesets.scenes_and_tokens.parts.petitions import ResolvePetition

    journal.execute(CAMPAIGN, DrawPrecedence(Purpose.CALLING_ORDER, ("Ben", "Ana", "Cy")))
    journal.execute(CAMPAIGN, CallInOrder(caller="Maya", cast=("Iris", "Tomas"), mode="dramatic"))
    journal.execute(CAMPAIGN, ResolvePetition(petitioner="Iris", granter="Tomas", answer="no contest"))
    assert journal.state(CAMPAIGN).rules.drama.recall.caller == "Maya"
    journal.execute(CAMPAIGN, CallInOrder(caller="Maya", cast=("Iris", "Vel"), mode="dramatic"))
    journal.execute(CAMPAIGN, CloseScene())
    assert journal.state(CAMPAIGN).rules.drama.recall is None and _next(journal) == "Ben"
    with pytest.raises(RuleViolation, match="Ben calls the next scene, not Maya"):
        journal.execute(CAMPAIGN, CallInOrder(caller="Maya", cast=("Iris", "Tomas"), mode="dramatic"))
