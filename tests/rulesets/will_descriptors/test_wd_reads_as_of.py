"""Every read of a Will & Descriptors campaign as it stood before a move, at the end of a scene and at
the head: ``sheet``, ``board``, ``ledger``, ``rolls``, ``explain`` and ``recap``, each with ``--as-of``
and ``--end-of-scene``; a retracted roll leaves the reads of the head, and stays in those of before.

The campaign: events 1-7 are the table, two characters, the episode and scene 1; event 8 Christopher
beats Bob with 3 successes over 6 (W7-W8, line 5), both paying 1 Will for a descriptor (W5, line 4);
event 9 Bob crosses off box 3 (W15, line 11); event 10 closes scene 1, 11 opens scene 2; event 12
Bob beats Christopher with 1 success over 4; 13 closes scene 2; 14 retracts event 12.
"""

from __future__ import annotations

import json

import pytest

BEFORE, SCENE_1, SCENE_2 = ("--as-of", "7"), ("--end-of-scene", "1"), ("--end-of-scene", "2")


@pytest.fixture
def sea(cli):
    for args in (("init", "sea", "--title", "Sea", "--gm", "Maya", "--ruleset", "will-descriptors", "--setting",
                  "track=5"),
                 ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Christopher", "--player", "Ana", "-d", "Knots=3", "-d", "Strong=2"),
                 ("character", "create", "Bob", "--player", "Ben", "-d", "Slippery=2"),
                 ("episode", "start", "--title", "Ropes"), ("scene", "open", "--caller", "Maya", "--title", "Hold"),
                 ("opposed", "Christopher", "--against", "Bob", "--use", "Knots", "--oppose", "Slippery",
                  "--faces", "9,8,7", "--against-faces", "6,2", "--stakes", "Christopher ties Bob up"),
                 ("harm", "Bob"), ("scene", "close"), ("scene", "open", "--caller", "Maya", "--title", "Deck"),
                 ("opposed", "Bob", "--against", "Christopher", "--use", "Slippery", "--oppose", "Strong",
                  "--faces", "5,2", "--against-faces", "4,1", "--stakes", "Bob slips away"),
                 ("scene", "close"), ("retract", "12", "--reason", "Bob was tied up: no roll", "--yes")):
        code, out, err = cli(*args)
        assert code == 0, (args, out, err)
    code, out, _ = cli("log", "--json")
    assert len(json.loads(out)) == 14
    return cli


def read(cli, *args):
    code, out, err = cli(*args, "--json")
    assert code == 0, (args, err)
    return json.loads(out)


def test_sheet_as_of_each_point(sea):
    """Bob: 9 Will and no box before the roll; 8 Will and box 3 after scene 1 (W5, W15); the retracted
    roll of scene 2 cost him 1 Will at its end and nothing at the head."""
    def bob(*at):
        d = read(sea, "sheet", "Bob", *at)
        return d["will"], d["crossed"]

    assert bob(*BEFORE) == (9, [])
    assert bob(*SCENE_1) == (8, [3])
    assert bob(*SCENE_2) == (7, [3])
    assert bob() == (8, [3])
    for at, track in ((BEFORE, r"\[1\]\[2\]\[3\]"), (SCENE_1, r"\[1\]\[2\]\[x\]")):
        code, out, _ = sea("sheet", "Bob", "--format", "md", *at)
        assert code == 0 and track in out


def test_board_as_of_each_point(sea):
    def wills(*at):
        return {c["name"]: c["will"] for c in read(sea, "board", *at)["characters"]}

    assert wills(*BEFORE) == {"Christopher": 9, "Bob": 9}
    assert wills(*SCENE_1) == {"Christopher": 8, "Bob": 8}
    assert wills(*SCENE_2) == {"Christopher": 7, "Bob": 7}
    assert wills() == {"Christopher": 8, "Bob": 8}


def test_ledger_as_of_each_point(sea):
    def lines(*at):
        return [(r["event"], r["amount"], r["rule"]) for r in read(sea, "ledger", "--character", "Bob", *at)]

    assert lines(*BEFORE) == []
    assert lines(*SCENE_1) == [(8, -1, "W5, line 4")]
    assert lines(*SCENE_2) == [(8, -1, "W5, line 4"), (12, -1, "W5, line 4")]
    assert lines() == [(8, -1, "W5, line 4")]


def test_rolls_as_of_each_point_and_without_the_retracted_one(sea):
    def events(*at):
        return [r["event"] for r in read(sea, "rolls", *at)]

    assert events(*BEFORE) == []
    assert events(*SCENE_1) == [8]
    assert events(*SCENE_2) == [8, 12]
    assert events() == [8]


def test_explain_as_of_each_point(sea):
    """The roll explained as the journal stood: its retraction only once recorded; an event not yet
    recorded at the point read is refused in one line."""
    assert not read(sea, "explain", "12", *SCENE_2)["amended"]
    assert read(sea, "explain", "12")["amended"] == ["Retracted by event 14 (Maya): Bob was tied up: no roll"]
    lines = read(sea, "explain", "8", *SCENE_1)["lines"]
    assert any("Christopher wins with 3 successes over 6" in line for line in lines)
    code, _, err = sea("explain", "8", *BEFORE)
    assert code == 2 and err.strip() == "error: event 8 was not yet recorded at event 7"
    code, _, err = sea("explain", "8", "--end-of-scene", "3")
    assert code == 2 and "there is no scene 3" in err


def test_recap_as_of_each_point(sea):
    """The recap tells what was recorded by the point read; at the head the retracted roll is gone
    and its retraction told."""
    first, second = "Christopher wins with 3 successes over 6", "Bob wins with 1 success over 4"

    def text(*at):
        code, out, err = sea("recap", *at)
        assert code == 0, err
        return out

    assert first not in text(*BEFORE) and "as of event 7" in text(*BEFORE)
    assert first in text(*SCENE_1) and second not in text(*SCENE_1)
    assert first in text(*SCENE_2) and second in text(*SCENE_2)
    assert first in text() and second not in text() and "Event 12 retracted" in text()
    assert second in sea("recap", "--format", "html", *SCENE_2)[1]
    assert second not in sea("recap", "--format", "html", "--as", "Ana")[1]
