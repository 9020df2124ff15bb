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


def _payloads(history, kind):
    return [r.payload for r in history if r.event_type == f"yarn-polyhedral.{kind}"]


def _at(journal, history, payload):
    """The campaign just after ``payload`` was recorded."""
    return journal.state(CID, upto=next(r.sequence for r in history if r.payload is payload))


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
            "turn.joined", "steps.spent", "injury.healed", "rested", "stance.taken", "ruling", "points.awarded",
            "quality.changed", "training.set", "narrator.passed"} <= kinds
    hows = {r.payload.how for r in history if r.event_type == "yarn-polyhedral.quality.changed"}
    assert hows == {"attained", "raised", "paid-down", "flashback", "training"}
    made = {r.payload.name: r.payload for r in history if r.event_type == "yarn-polyhedral.character.created"}
    assert made["Sable"].newcomer and made["Sable"].rolled and made["Sable"].power_points == 8
    purposes = {f.purpose for f in feats(history)}
    assert purposes == {"feat", "initiative", "object"}
    assert any(f.arms for f in feats(history)) and any(f.hindrances for f in feats(history))
    assert {p.purpose for p in _payloads(history, "trouble.spent")} == {"impediment", "routine-roll"}
    assert {(p.stance, p.skill) for p in _payloads(history, "stance.taken")} == {("evade", None),
                                                                               ("active-defense", "sword")}
    assert {p.full for p in _payloads(history, "rested")} == {True, False}


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
    ruling = [r.payload for r in history if r.event_type == "yarn-polyhedral.ruling"][0]
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
    # +1 (Wren's fortune), +2 (Tor's), -1 (impediment), -1 (the forced 1): 1, 3, 2, 1 (P26-P28);
    # session 3: -1 for the routine act made a roll (P28, line 758): 0.
    assert trouble == [1, 3, 2, 1, 0]
    wren = [(line["change"], line["balance"]) for line in lines
            if line["holder"] == "Wren" and line["currency"] == "points"]
    # 150 + 3 (curious 2) - 127 = 26. Training research with the points there: 3 -> 4 at once for 4
    # (P53, P54) = 22; +3 = 25, and 4 -> 5 for 5 = 20; curious 2 -> 1 costs 2 (P56) = 18; locksmith 2
    # in a flashback: T(2) 3 - 1 group point = 2, jumpy 1 gives 1 (P57) = 17; +1 = 18, and research
    # 5 -> 6 for 6 = 12, one rank at a time (P53, line 371). Session 3: old script attained at rank 0
    # for nothing (P55, line 365); +1 = 13 (research is at its cap, 6: no more training, P12).
    assert wren == [(-127, 26), (-4, 22), (3, 25), (-5, 20), (-2, 18), (-2, 17), (1, 18), (-6, 12), (0, 12),
                    (1, 13)]
    rows = {c["name"]: c for c in board(journal.state(CID))["characters"]}
    # Each session sets fortune to the level again (P7); trouble carries (P26).
    assert (rows["Wren"]["fortune"], rows["Tor"]["fortune"]) == (3, 4)
    # Tor: 190 - 130 = 60, +2, sword 4 -> 5 for 5, +1: 58, +1 in session 3: 59; effort 7 - 1 + a full
    # sleep = 7 (P19).
    assert (rows["Tor"]["unspent"], rows["Tor"]["effort"]) == (59, 7)
    assert rows["Wren"]["flashbacks_left"] == 2  # level 3, one used (reading 17)


def test_the_recaps_are_the_scripts_own(ashen):
    md = (ROOT / "journals" / "ashen-library-recap.md").read_text(encoding="utf-8")
    assert "## Session 1: Dust" in md and "The narrator (Ben) holds 0 trouble" in md
    assert "### After the session\n\n- Ben is the narrator from the next session." in md
    page = (ROOT / "journals" / "ashen-library-recap.html").read_text(encoding="utf-8")
    assert_valid_html(page)
    assert_inert(page)
    assert_not_blank(ROOT / "journals" / "ashen-library-recap.png")  # its screenshot, drawn by Chromium


# Session 3, Vellum ----------------------------------------------------------------------------------


def test_sable_a_newcomer_with_rolled_attributes_and_power_points(ashen):
    _, journal, history = ashen
    [sable] = [p for p in _payloads(history, "character.created") if p.name == "Sable"]
    # "they start at the minimum points for the lowest level PC in the group" (line 347): Wren is
    # level 3 (Tor 4; the narrator's ghoul, level 1, is no PC): 90 + 10 x T(3) = 150 (P4).
    assert sable.base_points == 150
    # 3d10 / 3 + 1, below 6 rounded up, otherwise down (P59, line 724): 14 -> 5.67 -> 6, 21 -> 8,
    # 15 -> 6, 12 -> 5, 18 -> 7, 9 -> 4; two at 7 or more, so none is raised (line 726).
    ranks = {q.name: q.rank for q in sable.qualities if q.kind.value == "attribute"}
    assert ranks == {"strength": 6, "dexterity": 8, "health": 6, "intelligence": 5, "will": 7, "charisma": 4}
    row = next(c for c in board(_at(journal, history, sable))["characters"] if c["name"] == "Sable")
    # Regular points: 150 + short-sighted 1 = 151. Rolled attributes are 15 each (90); knife 3 (6),
    # stealth 6 (21), climbing 6 (21), lore 4 (10), night eyes 3 (6): 154, 3 short. Two power points
    # buy four regular points (one for two, P58, line 569): 150 spent, 1 saved. Shadow-step 3 costs 6
    # power points: 8 - 2 - 6 = 0 left.
    assert (row["unspent"], row["power_points_left"], row["level"]) == (1, 0, 3)


def test_sable_joins_wrens_turn_and_the_group_acts_at_the_lowest_initiative(ashen):
    _, journal, history = ashen
    [joined] = _payloads(history, "turn.joined")
    assert (joined.character, joined.turn_of, joined.steps) == ("Sable", "Wren", 8)  # dexterity 8 (P30)
    wren, sable, warden = [f for f in feats(history) if f.purpose == "initiative"]
    # Wren: intelligence 8 d8 + dexterity 6 d6: 3 + 2 = 5. Sable: dexterity 8 d8 + intelligence 5 d4:
    # 7 + 4 = 11. "The actual initiative for the cooperating group is the lowest" (line 740): 5. The
    # warden's 4 + 4 = 8 is higher: it is active before them (line 241).
    assert (wren.total, sable.total, warden.total) == (5, 11, 8)
    rounds = _at(journal, history, warden).rules.rounds
    assert (rounds.group, rounds.acts_at) == (("Wren", "Sable"), 5)


def test_an_injured_arm_and_a_drawback_add_to_sables_knife(ashen):
    _, journal, history = ashen
    cut, resisted, knife, warden_resists = [f for f in feats(history) if f.purpose != "initiative"][6:10]
    # The warden: strength 7 d6, dexterity 5 d4, sword 3 d6: 6 + 5 = 11 against Sable's dexterity 8,
    # margin 3: "arm 3" (line 644). Short sword: 7 + 3 = 10 (P41, P43). Sable resists on health 6 d6
    # and strength 6 d6: 4 + 3 = 7 against 10, severity 1 + 3 = 4 (P46; reading 3).
    assert (cut.margin, cut.attack.location, cut.attack.cleared) == (3, "arm", 10)
    assert (resisted.total, resisted.resistance.severity, resisted.resistance.location) == (7, 4, "arm")
    # Her knife with that arm: dexterity 8 d8, level 3 d2 (reading 1), knife 3 d6: 8 + 5 = 13. The
    # warden's defense is its dexterity 5; "Severity is penalty for that arm" (line 644): +4; short-
    # sighted 1, "For primary senses ... the penalty is the rank" (line 549): +1. 13 - 10 = margin 3:
    # 2 more damage (at most strength 6, P41) and 1 knock-back: 6 + 2 + 2 = 10.
    assert (knife.sizes, knife.challenge, knife.penalties, knife.total, knife.margin) == ([8, 2, 6], 5, 5, 13, 3)
    assert [(a.injury, a.penalty) for a in knife.arms] == [("1", 4)]
    assert [(h.drawback, h.penalty) for h in knife.hindrances] == [("short-sighted", 1)]
    assert (knife.attack.damage, knife.attack.knock_back) == (10, 1)
    assert Fraction(knife.odds) == chance([8, 2, 6], 2, 10) == Fraction(31, 96)
    # The warden: 2 + 3 = 5 against 10, severity 6: its health in total severity, +1 on every roll (P47).
    assert warden_resists.resistance.severity == 6


def test_tors_leg_slows_him_and_his_blow_kills_the_warden(ashen):
    _, journal, history = ashen
    from yarnlog.core.decide import decide
    from yarnlog.core.referee import Referee, RuleViolation
    from yarnlog.rulesets.yarn_polyhedral.parts.rounds import SpendSteps

    leg, resisted, blow, last_resist = [f for f in feats(history) if f.purpose != "initiative"][11:15]
    # The warden's severity 6 is +1 (P47): 6 + 4 = 10 against Tor's dexterity 6 + 1, margin 3: the leg.
    assert (leg.penalties, leg.margin, leg.attack.location) == (1, 3, "leg")
    # Health 7 d6 + strength 8 d8: 3 + 4 = 7 against 10: severity 4 on the leg.
    assert (resisted.resistance.severity, resisted.resistance.location) == (4, "leg")
    # "Severity slows relative speed" (line 645): his strength turn's 8 steps (P30) less 4 is 4 to
    # move; he shifts 4, and a fifth shift is refused while 4 steps are left for his sword.
    shifts = next(p for p in _payloads(history, "steps.spent") if p.character == "Tor" and p.action == "shift"
                  and p.times == 4)
    after = _at(journal, history, shifts)
    assert after.rules.rounds.steps_left("Tor") == 4
    with pytest.raises(RuleViolation, match="0 steps can move, not 1"):
        decide(SpendSteps("Tor", "shift"), after, Referee())
    # Strength 8 d8, level 4 d4, dexterity 6 d6, sword 5 d10: 8 + 9 = 17 against 5, margin 12: the
    # head (6, line 649) and 6 more damage (at most strength 8): 8 + 4 + 6 = 18.
    assert (blow.margin, blow.attack.location, blow.attack.damage) == (12, "head", 18)
    # The warden, at +1: 3 + 2 = 5 against 19, severity 1 + 14 = 15; total 21 reaches (1 + level 1)
    # x health 6 = 12 (P49, line 341): dead, and at 21 // 6 = +3 (P47).
    assert last_resist.resistance.severity == 15
    warden = next(c for c in board(journal.state(CID))["characters"] if c["name"] == "Warden")
    assert (warden["total_severity"], warden["fatal_severity"], warden["dead"], warden["penalty"]) == (21, 12, True, 3)


def test_effort_a_short_rest_by_ruling_and_the_narrators_office(ashen):
    _, journal, history = ashen
    copy = next(f for f in feats(history) if f.feat == "copy the warding script")
    # Effort adds a die of the lower of primary and secondary (P19, line 183): intelligence 8,
    # will 6: d6. 5 + 6 = 11 against 9.
    assert (copy.labels, copy.sizes, copy.total, copy.margin) == (["base", "secondary", "effort"], [8, 6, 6], 11, 2)
    rows = {c["name"]: c for c in board(journal.state(CID))["characters"]}
    # Health 5: 5 - 1 = 4, and the shorter rest the narrator ruled gives 1 back (line 185; reading 7).
    assert rows["Wren"]["effort"] == 5
    assert [r.topic for r in _payloads(history, "ruling")] == ["complication", "rest"]
    # Sable's arm heals one severity (P50): 3, still +3 to feats with that arm (line 644).
    assert rows["Sable"]["effects"] == ["arm (injury 1): +3 to feats with that arm"]
    # After session 3 the office passes to Ben (line 800).
    assert board(journal.state(CID))["narrator"] == "Ben"


def test_the_ledger_has_effort_and_power_points_with_their_rules(ashen):
    _, journal, _ = ashen
    lines = ledger(journal.state(CID))
    wren = [(x["change"], x["balance"], x["rule"]) for x in lines
            if x["holder"] == "Wren" and x["currency"] == "effort"]
    # Health 5 (P19, line 183); a die in session 3; the shorter rest the narrator ruled: +1 (line 185).
    assert wren == [(5, 5, "P19 (line 183)"), (-1, 4, "P19 (line 183)"), (1, 5, "P19 (line 185)")]
    tor = [(x["change"], x["balance"]) for x in lines if x["holder"] == "Tor" and x["currency"] == "effort"]
    assert tor == [(7, 7), (-1, 6), (1, 7)]  # health 7; the press in session 2; a full sleep
    [pool] = [x for x in lines if x["currency"] == "power points"]
    # Sable's 8: 6 on shadow-step 3, 2 exchanged for 4 regular points (P58, line 569).
    assert (pool["holder"], pool["change"], pool["balance"], pool["rule"]) == ("Sable", -8, 0, "P58 (line 569)")
