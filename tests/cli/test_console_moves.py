"""yarnlog play offers the moves of issue 10 from the command line's table, and completes their values."""

from __future__ import annotations

from test_console import completions, console, events, table  # noqa: F401  (fixtures)


def test_the_console_completes_the_new_moves(console, table, events):  # noqa: F811
    assert {"scene-role", "shift", "montage-action", "consequence", "theme"} <= set(completions(console, ""))
    assert {"narration", "location"} <= set(completions(console, "challenge "))
    assert console.dispatch('location add Docks --description "tarred planks"') == 0
    assert completions(console, "shift ") == ["Docks"]  # the places introduced in play
    assert completions(console, "theme choose debts --chooser ") == ["Ana", "Ben", "Maya"]
    assert completions(console, "consequence ")[0] == str(events()[-1]["sequence"])
    assert console.dispatch("scene-role opener") == 0
    assert events()[-1]["event_type"] == "yarn.scene.role_named"
