"""The Dramatis Personae sample campaign in ``journals/``: Walpurgis Night, recorded through the
command line by ``journals/record-brocken.sh`` and exported to ``journals/brocken.jsonl``.

The export is imported into a fresh journal, verified, and checked against figures worked out by
hand from the book (``../shared/seeds/002_7af0b39949a564d4.txt``; the digest
``../shared/rules/002-dramatis-personae.md`` numbers its rules DP1-DP39 and its readings 1-16).
Each expected figure is written out literally with the sentence of the book that gives it; nothing
here recomputes a rule with the tool's own code.

Ana plays Faust (level 2), Ben plays Bryn (level 1); Maya, the GM, plays the Hound and Grete.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from htmlcheck import assert_inert, assert_not_blank, assert_valid_html

from yarnlog.app.interchange import import_records, parse_lines
from yarnlog.app.journal import Journal
from yarnlog.app.verify import verify
from yarnlog.persistence.memory import MemoryStore

ROOT = Path(__file__).resolve().parents[3]
JOURNAL = ROOT / "journals" / "brocken.jsonl"
RECAP = ROOT / "journals" / "brocken-recap"
CID = "brocken"


@pytest.fixture(scope="module")
def sample():
    store = MemoryStore()
    import_records(store, parse_lines(JOURNAL.read_text(encoding="utf-8").splitlines()))
    journal = Journal(store)
    return journal, {r.sequence: r.payload for r in journal.history(CID)}


def test_it_imports_and_verifies(sample):
    journal, events = sample
    assert len(events) == 57
    assert verify(journal.store.read(CID), CID).ok


def roll(payload, index=0):
    facts = payload.roll if hasattr(payload, "roll") else payload.rolls[index]
    return facts.net, facts.kept, facts.total


def test_the_chasm(sample):
    # line 152: "a difficult task 14+ ... windy and rainy ... 3d6 of penalty ... +1d6 ... (net -2d6";
    # 5 dice 6,6,5,2,6, the lowest three 2,5,6 = 13 < 14: a partial failure (line 77).
    _, events = sample
    p = events[12]
    assert (p.difficulty, *roll(p), p.tier.value) == (14, -2, [2, 5, 6], 13, "partial failure")
    assert sum(Fraction(p.odds[t]) for t in ("partial success", "complete success", "critical success")) \
        == Fraction(19, 972)
    # Bryn adds his one pool die (level 1: "+1d6", line 67): net -1, 4 dice, lowest three 5,5,6 = 16.
    assert (*roll(events[13]), events[13].tier.value) == (-1, [5, 5, 6], 16, "partial success")


def test_the_summoning(sample):
    # line 37: "+2d6, ... +1d6, ... -1d6. His total adjustment is +2d6"; and two pool dice: net +4, 7 dice,
    # the best three 6,5,5 = 16 meets Heroic (16+): a partial success; 4 more (20) cannot be rolled.
    _, events = sample
    assert (*roll(events[17]), events[17].tier.value) == (4, [6, 5, 5], 16, "partial success")


def test_the_lock_and_the_retry(sample):
    # line 128: "fails to pick a lock ... (taking 1 minute) ... after 5 minutes get another roll. (Note this
    # extra time does not grant any bonus)": 7 against 8 fails; the retry is rolled at net 0, not +2d6.
    _, events = sample
    assert (*roll(events[21]), events[21].tier.value) == (0, [3, 2, 2], 7, "partial failure")
    assert (*roll(events[22]), events[22].tier.value, events[22].retry_of) == (0, [4, 3, 2], 9, "partial success", 21)
    assert events[22].roll.time.dice == 0


def test_the_ranged_attack(sample):
    # line 202: "Typical (11+)"; 30 m with a bow is Medium, "-2d6" (line 121); braced "+1d6" (217), mobile
    # "-1d6" (210): net -2, lowest three of 6,6,5,4,3 = 12 >= 11.
    _, events = sample
    p = events[23]
    assert (p.difficulty, p.roll.band.value, *roll(p), p.tier.value) == (
        11, "medium", -2, [3, 4, 5], 12, "partial success")


def test_the_fight_in_the_cellar(sample):
    _, events = sample
    # Bryn: melee combat precise "+2d6" (187), armed against an unarmed hound "+1d6" (188): net +3 -> 12;
    # the Hound biting related +1 -> 13: "whoever rolls highest ... partial success" (158): Bryn takes
    # "1 penalty die" (170).
    first = events[26]
    assert (roll(first, 0), roll(first, 1)) == ((3, [5, 4, 3], 12), (1, [6, 4, 3], 13))
    assert (first.winner, first.beats[0].tier.value, first.beats[0].penalty) == ("Hound", "partial success", 1)
    # Round two: Bryn +3, a borrowed pool die +1 (dice debt: "two penalty dice", line 69), the penalty die in
    # hand -1 (reading 7): net +3 -> 17; the Hound 9; 8 more is a complete success, 17 is not twice 9.
    second = events[27]
    assert (roll(second, 0), roll(second, 1)) == ((3, [6, 6, 5], 17), (1, [4, 3, 2], 9))
    assert (second.winner, second.beats[0].tier.value, second.beats[0].penalty) == ("Bryn", "complete success", 2)
    assert (second.economy[0].borrowed, second.rolls[0].held) == (1, 1)
    # "winner can finish fight with a challenge 14+ blow" (171): net -1 (his penalty die), 4,5,5 = 14.
    assert (events[28].difficulty, *roll(events[28]), events[28].tier.value) == (14, -1, [4, 5, 5], 14,
                                                                                 "partial success")
    # line 221: "roll against a challenge rating of 11 ... if the result is 7- ... debilitating"
    assert (*roll(events[29]), events[29].wound) == (-2, [1, 2, 4], 7,
                                                     "debilitating injury (1d6 to some physical actions)")
    assert (*roll(events[30]), events[30].wound) == (-1, [3, 3, 5], 11, "no lasting wound")


def test_the_market(sample):
    _, events = sample
    # 11 against 11: a tie, a standoff (reading 2), then the GM's ruling.
    assert (roll(events[35], 0)[2], roll(events[35], 1)[2], events[35].winner) == (11, 11, None)
    # Faust takes a penalty die to add a die (line 61): net +1, 6,5,4 = 15 against 11: "4 greater than the
    # other, that one has a complete success" (158).
    p = events[37]
    assert (roll(p, 0), p.winner, p.beats[0].tier.value) == ((1, [6, 5, 4], 15), "Faust", "complete success")


def test_the_debt_is_paid_and_pool_dice_are_added_after_a_melee_roll(sample):
    _, events = sample
    # Bryn's debt of 2 (reading 3) applied: related +1, debt -2: net -1, lowest three of 6,5,2,1 = 8 < 10.
    assert (*roll(events[52]), events[52].tier.value) == (-1, [1, 2, 5], 8, "partial failure")
    # "+1d6 For every two dice from dice pool applied after the roll" (192): 3,2,1 then a 6: 6,3,2 = 11.
    p = events[53]
    assert (p.rolls[0].after_faces, roll(p, 0), roll(p, 1)[2], p.winner) == ([6], (0, [6, 3, 2], 11), 10, "Bryn")


def test_a_contest_of_three(sample):
    _, events = sample
    # line 158: "whoever rolls highest ... partial success. If the roll of one opponent is 4 greater than the
    # other ... complete success. If the roll is twice as high as the opponent ... a critical": Bryn's 6,5,3 = 14
    # beats Faust's 4,4,3 = 11 by 3 (partial) and Grete's 2,2,1 = 5 by more than twice (critical).
    p = events[55]
    assert [roll(p, i)[2] for i in range(3)] == [14, 11, 5]
    assert (p.winner, [(b.loser, b.tier.value) for b in p.beats]) == (
        "Bryn", [("Faust", "partial success"), ("Grete", "critical success")])
    # Three plain rolls: each side's chance of winning with a critical over the runner-up, worked by hand
    # (tests/rulesets/dramatis_personae/test_odds.py): 129635 / 216³; of losing to one, 21223/209952.
    for side in p.odds.values():
        assert (side["critical success"], side["critical failure"]) == ("129635/10077696", "21223/209952")
        assert sum(Fraction(chance) for chance in side.values()) == 1


def test_the_dice_ledger_at_the_end(sample):
    journal, _ = sample
    state = journal.state(CID)
    balance = state.rules.ledger.balance
    # Faust: 1 + 2 good dice awarded; 1 bad die taken in the market; a fresh pool of 4 (level 2: "+4d6").
    assert (balance("Faust").good, balance("Faust").bad, balance("Faust").pool, balance("Faust").debt) == (3, 1, 4, 0)
    # Bryn: 18 + 2 good dice bought level 2 ("2nd level 20 bonus dice", line 65); 1 bad die; 2 of his new
    # pool of 4 spent after the melee roll; his debt of 2 paid off.
    assert (balance("Bryn").good, balance("Bryn").bad, balance("Bryn").pool, balance("Bryn").debt) == (0, 1, 2, 0)
    assert state.rules.characters.pcs["Bryn"].level == 2


def test_the_committed_recaps(sample):
    md = RECAP.with_suffix(".md").read_text(encoding="utf-8")
    html = RECAP.with_suffix(".html").read_text(encoding="utf-8")
    assert md.startswith("# Walpurgis Night: recap of the whole series")
    assert "Grete knows Faust's creditor." in md  # the GM's recap has the GM's ruling ...
    assert "creditor" not in html  # ... the players' recap does not
    assert_valid_html(html)
    assert_inert(html)
    assert_not_blank(RECAP.with_suffix(".png"))


def test_the_state_survives_a_snapshot(sample):
    from yarnlog.app.snapshots import decode_state, encode_state, state_codec

    journal, _ = sample
    state = journal.state(CID)
    codec, _ = state_codec("dramatis-personae")
    back, _ = decode_state(codec, encode_state(codec, state, state.timeline))
    assert back.rules == state.rules
