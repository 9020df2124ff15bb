"""The polyhedral Yarn sample campaign in ``journals/``: The Ashen Library, two sessions recorded
through the command line by ``journals/record-ashen-library.sh`` and exported to
``journals/ashen-library.jsonl``.

The export is imported into a fresh journal, verified, and checked against figures worked out by
hand from the book (``../shared/seeds/003_e72cdbaaf570012c.txt``; digest rules P1-P65, readings
1-18). Each expected figure is written out literally with the rule that gives it; the odds are
counted here over every outcome, never with the tool's own code.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from htmlcheck import assert_inert, assert_not_blank, assert_valid_html

from yarnlog.app.interchange import export_lines, import_records, parse_lines
from yarnlog.app.journal import Journal
from yarnlog.app.verify import verify
from yarnlog.persistence.memory import MemoryStore
from yarnlog.rulesets.yarn_polyhedral.reads import board, ledger

ROOT = Path(__file__).resolve().parents[3]
JOURNAL = ROOT / "journals" / "ashen-library.jsonl"
SCRIPT = ROOT / "journals" / "record-ashen-library.sh"
CID = "ashen"


@pytest.fixture(scope="module")
def ashen():
    store = MemoryStore()
    records = parse_lines(JOURNAL.read_text(encoding="utf-8").splitlines())
    present, imported = import_records(store, records)
    assert present == 0 and imported == len(records)
    journal = Journal(store)
    return store, journal, journal.history(CID)


def feats(history):
    return [r.payload for r in history if r.event_type == "yarn-polyhedral.feat.rolled"]


def chance(sizes, keep, target, forced_one=False):
    """P(the best ``keep`` faces reach ``target``), every outcome counted by hand."""
    hits = total = 0
    for faces in product(*(range(1, s + 1) for s in sizes)):
        kept = sorted(faces, reverse=True)[:keep]
        if forced_one and 1 in faces and 1 not in kept:
            kept = [*kept[: keep - 1], 1]
        hits += sum(kept) >= target
        total += 1
    return Fraction(hits, total)


def test_the_export_imports_whole_verifies_and_comes_back_byte_for_byte(ashen):
    store, _, history = ashen
    assert verify(store.read(CID), CID).ok
    assert "".join(export_lines(store, CID)) == JOURNAL.read_text(encoding="utf-8")
    # Every die was entered at the table.
    assert {f.source for f in feats(history)} == {"entered"}


def test_every_move_of_the_digest_is_used(ashen):
    _, _, history = ashen
    kinds = {r.event_type.removeprefix("yarn-polyhedral.") for r in history}
    assert {"character.created", "feat.rolled", "trouble.spent", "tension.changed", "round.started", "turn.taken",
            "steps.spent", "injury.healed", "rested", "stance.taken", "ruling", "points.awarded",
            "quality.changed", "training.set"} <= kinds
    hows = {r.payload.how for r in history if r.event_type == "yarn-polyhedral.quality.changed"}
    assert hows == {"raised", "paid-down", "flashback", "training"}


def test_the_catalogue_keep_three_with_a_fortune(ashen):
    _, _, history = ashen
    f = feats(history)[0]
    # Intelligence 8: d8; level 3: d2 (3 rounds down, reading 1); will 6: d6; research 3: d6 (P12).
    assert f.sizes == [8, 2, 6, 6]
    # Two kept plus one for the fortune (P23): 8 + 5 + 3 = 16 against 9, margin 7.
    assert (f.total, f.margin) == (16, 7)
    assert Fraction(f.odds) == chance([8, 2, 6, 6], 3, 9) and Fraction(f.odds_plain) == chance([8, 2, 6, 6], 2, 9)


def test_the_iron_door_explodes_twice(ashen):
    _, _, history = ashen
    f = feats(history)[1]
    # d8 8, d4 2, d6 3: keep 8 + 3; the 8 explodes to an 8, which explodes to a 5 (P24): 24, margin 10.
    assert (f.sizes, f.total, f.margin, f.extra_faces) == ([8, 4, 6], 24, 10, [8, 5])


def test_the_head_blow_and_the_ghouls_resistance(ashen):
    _, journal, history = ashen
    attack, resist = feats(history)[2:4]
    # Strength 8 d8, level 4 d4, dexterity 6 d6, sword 4 d8: 7, 1, 6, 8 keeps 15 against defense 5.
    assert (attack.total, attack.margin) == (15, 10)
    # The head costs 6 (line 649), 4 more damage (at most strength 8, P41): 8 + long sword 4 + 4 = 16.
    assert (attack.attack.location, attack.attack.damage, attack.attack.cleared) == ("head", 16, 16)
    # Health 6 d6 + strength 7 d6: 5 + 4 = 9 against 16: severity 1 + 7 = 8 (P46; reading 3).
    assert (resist.challenge, resist.total, resist.resistance.severity) == (16, 9, 8)
    assert resist.odds == "0"  # two d6 never reach 16
    after = journal.state(CID, upto=max(r.sequence for r in history if r.payload is resist))
    ghoul = next(c for c in board(after)["characters"] if c["name"] == "Ghoul")
    # 8 >= 1 x health 6: unconscious (line 649); fatal at (1 + level 1) x 6 = 12 (P49): alive.
    assert ghoul["effects"] == ["head: unconscious"] and ghoul["fatal_severity"] == 12 and not ghoul["dead"]


def test_the_warding_sigil_a_forced_one_and_a_complication(ashen):
    _, _, history = ashen
    f = feats(history)[4]
    # The narrator's trouble forces the 1 in (P27): 5 + 1 = 6 against 11, missed by 5 (line 750).
    assert (f.trouble, f.total, f.margin) == (1, 6, -5)
    assert Fraction(f.odds) == chance([8, 6], 2, 11, forced_one=True)
    [ruling] = [r.payload for r in history if r.event_type == "yarn-polyhedral.ruling"]
    assert ruling.topic == "complication" and "lantern" in ruling.text


def test_steps_in_tors_strength_turn(ashen):
    _, _, history = ashen
    steps = [r.payload for r in history if r.event_type in ("yarn-polyhedral.turn.taken",
                                                            "yarn-polyhedral.steps.spent")]
    # Strength 8: 8 steps (P30); two shifts 2, a sword 3 (P35): 3 left.
    assert [s.steps for s in steps[:3]] == [8, 2, 3]


def test_fortune_trouble_and_points_worked_by_hand(ashen):
    _, journal, history = ashen
    lines = ledger(journal.state(CID))
    trouble = [line["balance"] for line in lines if line["currency"] == "trouble"]
    # +1 (Wren's fortune), +2 (Tor's), -1 (impediment), -1 (the forced 1): 1, 3, 2, 1 (P26-P28).
    assert trouble == [1, 3, 2, 1]
    wren = [(line["change"], line["balance"]) for line in lines
            if line["holder"] == "Wren" and line["currency"] == "points"]
    # 150 + 3 (curious 2) - 127 = 26. Training research with the points there: 3 -> 4 at once for 4
    # (P53, P54) = 22; +3 = 25, and 4 -> 5 for 5 = 20; curious 2 -> 1 costs 2 (P56) = 18; locksmith 2
    # in a flashback: T(2) 3 - 1 group point = 2, jumpy 1 gives 1 (P57) = 17; +1 = 18, and research
    # 5 -> 6 for 6 = 12, one rank at a time (P53, line 371).
    assert wren == [(-127, 26), (-4, 22), (3, 25), (-5, 20), (-2, 18), (-2, 17), (1, 18), (-6, 12)]
    rows = {c["name"]: c for c in board(journal.state(CID))["characters"]}
    # Session 2 sets fortune to the level again (P7); trouble carries (P26): 1.
    assert (rows["Wren"]["fortune"], rows["Tor"]["fortune"]) == (3, 4)
    # Tor: 190 - 130 = 60, +2, sword 4 -> 5 for 5, +1: 58; effort 7 - 1 + a full sleep = 7 (P19).
    assert (rows["Tor"]["unspent"], rows["Tor"]["effort"]) == (58, 7)
    assert rows["Wren"]["flashbacks_left"] == 2  # level 3, one used (reading 17)


def test_the_recaps_are_the_scripts_own(ashen):
    md = (ROOT / "journals" / "ashen-library-recap.md").read_text(encoding="utf-8")
    assert "## Session 1: Dust" in md and "The narrator holds 1 trouble" in md
    page = (ROOT / "journals" / "ashen-library-recap.html").read_text(encoding="utf-8")
    assert_valid_html(page)
    assert_inert(page)
    assert_not_blank(ROOT / "journals" / "ashen-library-recap.png")  # its screenshot, drawn by Chromium
