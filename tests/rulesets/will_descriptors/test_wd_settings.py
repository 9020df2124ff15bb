"""The numbers the draft leaves open, chosen at ``init`` and recorded in the campaign's first event:
the Power track's length (line 11 gives none; reading 1), starting Will ("arbitrarily set to start at
9 (pending playtest)", W1, line 2) and the dice's sides ("for now, the default is d10", W4, line 3;
reading 15)."""

from __future__ import annotations

import json

INIT = ("init", "sea", "--title", "Sea", "--gm", "Maya", "--ruleset", "will-descriptors")


def events(cli) -> list[dict]:
    code, out, _ = cli("log", "--json")
    return json.loads(out) if code == 0 else []


def test_the_settings_are_recorded_in_the_first_event_defaults_included(cli):
    """Reading 1: the GM chooses the track; Will 9 and d10 are recorded at the draft's defaults (reading 15)."""
    code, out, err = cli(*INIT, "--setting", "track=4", "--json")
    assert code == 0, err
    [created] = json.loads(out)
    assert created["payload"]["settings"] == {"track": 4, "starting_will": 9, "sides": 10}
    code, out, _ = cli("character", "create", "Bob", "-d", "Slippery=2", "--json")
    assert code == 0
    assert (json.loads(out)[0]["payload"]["track"], json.loads(out)[0]["payload"]["starting_will"]) == (4, 9)
    code, out, _ = cli("board", "--json")
    assert json.loads(out)["settings"] == {"track": 4, "starting_will": 9, "sides": 10}


def test_settings_change_the_characters_and_the_dice(cli):
    """starting-will and sides chosen (dashes or underscores, a comma list): a new character starts at 12
    Will, and a d6 shows no 7 (W4, line 3: "for now, the default is d10")."""
    assert cli(*INIT, "--setting", "starting-will=12,sides=6", "--setting", "TRACK=3")[0] == 0
    for args in (("join", "Ana"), ("character", "create", "Bob", "-d", "Slippery=2"),
                 ("character", "create", "Eve", "--player", "Ana", "-d", "Sly=1"),
                 ("episode", "start", "--title", "E"), ("scene", "open", "--caller", "Maya")):
        assert cli(*args)[0] == 0, args
    code, out, _ = cli("sheet", "Bob", "--json")
    assert (json.loads(out)["will"], json.loads(out)["track"]) == (12, 3)
    before = len(events(cli))
    code, _, err = cli("opposed", "Bob", "--against", "Eve", "--use", "Slippery", "--oppose", "Sly",
                       "--faces", "7,2", "--against-faces", "3")
    assert code == 2 and "a d6 shows 1 to 6" in err
    assert len(events(cli)) == before
    code, out, _ = cli("odds", "1", "1", "--json")  # d6: a tie (stalemate) 1 in 6 (W11)
    assert [r["chance"] for r in json.loads(out) if r["outcome"] == "stalemate"] == ["1/6"]
    code, out, _ = cli("odds", "1", "1", "--sides", "10", "--json")
    assert [r["chance"] for r in json.loads(out) if r["outcome"] == "stalemate"] == ["1/10"]
    code, out, _ = cli("opposed", "Bob", "--against", "Eve", "--use", "Slippery", "--oppose", "Sly", "--json")
    assert code == 0
    faces = json.loads(out)[0]["payload"]["a"]["faces"] + json.loads(out)[0]["payload"]["b"]["faces"]
    assert len(faces) == 3 and all(1 <= f <= 6 for f in faces)


def test_without_a_track_each_character_needs_its_own(cli):
    """Reading 1: "a per-campaign (or per-character) setting"; none chosen: the character's own."""
    assert cli(*INIT)[0] == 0
    code, _, err = cli("character", "create", "Bob", "-d", "Slippery=2")
    assert code == 2 and "--setting track=N" in err and len(err.strip().splitlines()) == 1
    assert cli("character", "create", "Bob", "-d", "Slippery=2", "--track", "6")[0] == 0
    code, out, _ = cli("options", "--json")
    assert [(r["setting"], r["value"]) for r in json.loads(out)] == [("track", None), ("starting-will", 9),
                                                                     ("sides", 10)]


def test_a_bad_setting_is_refused_in_one_line_and_creates_nothing(cli):
    for given, words in (("tracks=4", "unknown setting(s) for will-descriptors: tracks; did you mean track?"),
                         ("track=0", "the setting track is 1 to 100, not 0"),
                         ("sides=1", "the setting sides is 2 to 100, not 1"),
                         ("track=four", "a setting is NAME=N (a whole number), not 'track=four'"),
                         ("track", "a setting is NAME=N"), ("track=--5", "a setting is NAME=N"),
                         ("track=\u00b2", "a setting is NAME=N"), ("track=-5", "track is 1 to 100, not -5")):
        code, out, err = cli(*INIT, "--setting", given)
        assert code == 2, given
        assert words in err and len(err.strip().splitlines()) == 1, err
        assert cli("campaigns", "--json")[1].strip() == "[]"


def test_options_and_the_help_show_the_settings(cli):
    assert cli(*INIT, "--setting", "track=5")[0] == 0
    code, out, _ = cli("options")
    assert code == 0
    assert "settings chosen at init" in out and "reading 1" in out
    assert [line for line in out.splitlines() if "track" in line and "5" in line]
    code, out, _ = cli("init", "--help")
    assert ("will-descriptors settings (--setting NAME=N): track (no default), starting-will (default 9), sides "
            "(default 10)") in " ".join(out.split())


def test_the_setup_step_is_gone(cli):
    """The settings are the init's; there is no later step that could change them under the characters."""
    assert cli(*INIT, "--setting", "track=4")[0] == 0
    code, _, err = cli("setup", "--track", "5")
    assert code == 2 and "no such command 'setup'" in err
