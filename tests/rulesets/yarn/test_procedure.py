"""The procedure part: rolls, the hand of fate, group efforts and consequences, recorded in the journal."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yarnlog.app.interchange import parse_lines
from yarnlog.app.rolling import execute_rolling
from yarnlog.app.verify import verify
from yarnlog.core.decide import Retract
from yarnlog.core.envelope import to_recorded
from yarnlog.core.referee import Override, Referee, RuleViolation
from yarnlog.core.state import replay, with_context
from yarnlog.core.table import AddParticipant, Table
from yarnlog.core.timeline import CloseScene, EndEpisode, OpenScene, StartEpisode
from yarnlog.rulesets.yarn.parts.characters.experience_awards import AwardExperience, experience_dice_available
from yarnlog.rulesets.yarn.parts.characters.sheet_files import creation_command
from yarnlog.rulesets.yarn.parts.characters.sheets import Characters
from yarnlog.rulesets.yarn.parts.combat import fight_records
from yarnlog.rulesets.yarn.parts.procedure import roll_making, roll_records
from yarnlog.rulesets.yarn.parts.procedure.roll_records import (
    CombineDice,
    ConsequenceFace,
    Factor,
    GroupEffort,
    Hands,
    InertForce,
    MakeRoll,
    Opposed,
    ReadRoll,
    RollConsequences,
    RollMade,
    TraitUse,
    difficulty,
)
from yarnlog.rulesets.yarn.parts.procedure.roll_reports import consequence_data, group_rows, roll_rows
from yarnlog.rulesets.yarn.rules import dice, experience
from yarnlog.rulesets.yarn.rules.fringe_powers import USE_SHOT

from .refusals import refused

GM = Override(by="Maya", reason="the table agreed")


def sheet(name: str, player: str, central: str, sides: list[str], superior: str, **extra) -> dict:
    signs = {t.split(":")[0]: "a sign" for t in [central, *sides, "Reckless"]}
    return {"name": name, "player": player, "role": "crew", "desire": "respect", "poles": ["loyal", "free"],
            "central": central, "sides": sides, "superior": superior, "flaw": "Reckless", "signs": signs,
            "hit_point_descriptor": "guts", "story": "My story is of a sailor.", "gm_approved": True} | extra


IRIS = sheet("Iris", "Ana", "Military Background:standard", ["Tough:standard", "Medicine:technical"], "Tough")
TOM = sheet("Tom", "Ben", "Manipulating People:standard", ["Strong:standard", "Perceptive:standard"],
            "Perceptive", relationships={"Iris": "brother"})


def start(journal, options: dict[str, bool] | None = None) -> str:
    """Iris (Ana: Military Background 3, Tough 4, Medicine 1) and Tom (Ben: Manipulating People 3,
    Strong 3, Perceptive 4) in a procedural scene of episode 1."""
    journal.create_campaign("lantern", title="Lantern Harbor", gm="Maya", options=options or {})
    for name in ("Ana", "Ben"):
        journal.execute("lantern", AddParticipant(name=name))
    for data in (IRIS, TOM):
        journal.execute("lantern", creation_command(data))
    journal.execute("lantern", StartEpisode(title="Fog"))
    journal.execute("lantern", OpenScene(caller="Maya", cast=("Iris", "Tom"), mode="procedural"))
    return "lantern"


@pytest.fixture
def scene(journal) -> str:
    return start(journal)


def roll(journal, cid, character, trait=None, *, faces, visibility="everyone", override=None, **kw) -> RollMade:
    use = kw.pop("use", None)
    gm_dice = kw.pop("dice", None)
    command = MakeRoll(Hands(character, trait, use, gm_dice), faces=tuple(faces), **kw)
    return journal.execute(cid, command, visibility=visibility, override=override)[-1]




def forced(journal, cid, payload) -> None:
    """Append ``payload`` behind the deciders' back, as a tampering client would."""
    journal.commands.append(cid, journal.store.last_sequence(cid), [payload], by="Maya", visibility="everyone")


# -- how many dice ----------------------------------------------------------------------------


def test_a_trait_rolls_its_score_from_the_sheet(journal, scene):
    # "When you use a trait, you roll a number of dice equal to its score (usually three dice, or
    # four dice for your superior trait)."
    central = roll(journal, scene, "Iris", "military background", faces=(6, 3, 2)).payload
    superior = roll(journal, scene, "Iris", "Tough", faces=(1, 2, 3, 4)).payload
    assert (central.trait, central.trait_dice, central.dice.notation, central.dice.total) == (
        "Military Background", 3, "3d6", 11)
    assert (superior.trait_dice, superior.dice.notation, superior.participant) == (4, "4d6", "Ana")


def test_no_trait_is_two_dice_and_a_lacking_technical_trait_none(journal, scene):
    # "If the action has nothing to do with any of your traits, you roll two dice." "Some traits,
    # however, are unusual or technical, and the average person has no skill (0 dice)"
    plain = roll(journal, scene, "Tom", faces=(4, 5)).payload
    surgery = roll(journal, scene, "Tom", "Neurosurgery", use=TraitUse.TECHNICAL, faces=(),
                   against=Factor(7)).payload
    assert (plain.trait_use, plain.dice.notation, plain.dice.total) == (TraitUse.NO_TRAIT, "2d6", 9)
    assert (surgery.trait_dice, surgery.dice.total, surgery.outcome) == (0, 0, "fails")
    assert surgery.odds.fails.fraction() == 1


def test_a_trait_the_sheet_lacks_is_refused_unless_rolled_as_no_trait(journal, scene):
    refused(journal, scene, MakeRoll(Hands("Iris", "Lockpicking"), faces=(3, 3)), match="Iris has no trait")
    refused(journal, scene, MakeRoll(Hands("Iris", "Tough", TraitUse.NO_TRAIT), faces=(3, 3)),
            match="roll it as her trait")
    lock = roll(journal, scene, "Iris", "Lockpicking", use=TraitUse.NO_TRAIT, faces=(3, 3)).payload
    assert (lock.trait, lock.trait_dice) == ("Lockpicking", 2)


def test_a_sixth_die_on_a_five_die_roll_is_refused(journal, scene):
    # Tough (4 dice) with a bonus die is "a 5-die roll (5d6kh4)".
    refused(journal, scene, MakeRoll(Hands("Iris", "Tough"), bonus=1, faces=(1, 2, 3, 4, 5, 6)),
            match="a 5-die roll \\(5d6kh4\\) needs 5 faces, got 6")
    refused(journal, scene, MakeRoll(Hands("Iris", "Tough"), faces=(1, 2, 3, 7)), match="a die shows 1 to 6")


def test_bonus_and_penalty_dice(journal, scene):
    # "he would get a bonus die on his roll (roll four dice and take the best three) [...] he would
    # have to roll a penalty die (four dice, take the worst three). If he had done his research and
    # had ketchup on his tie, he would get neither bonus nor penalty"
    watched = roll(journal, scene, "Tom", "Manipulating People", bonus=1, faces=(2, 5, 6, 4)).payload
    ketchup = roll(journal, scene, "Tom", "Manipulating People", penalty=1, faces=(2, 5, 6, 4)).payload
    both = roll(journal, scene, "Tom", "Manipulating People", bonus=1, penalty=1, faces=(2, 5, 6)).payload
    assert (watched.dice.notation, watched.dice.total) == ("4d6kh3", 15)
    assert (ketchup.dice.notation, ketchup.dice.total) == ("4d6kl3", 11)
    assert (both.dice.notation, both.dice.total) == ("3d6", 13)


def test_gm_characters_roll_the_dice_the_gm_says_and_only_the_gm_rolls_them(journal, scene):
    # "You compare your roll vs. that made by the GM, usually representing a GMC's traits."
    guard = roll(journal, scene, "guard", "Alert", dice=3, faces=(4, 1, 2)).payload
    assert (guard.gmc, guard.participant, guard.trait_dice) == (True, "Maya", 3)
    refused(journal, scene, MakeRoll(Hands("guard", "Alert"), faces=(4, 1, 2)),
            match="give guard's dice: a GMC's are the GM's")
    refused(journal, scene, MakeRoll(Hands("guard", "Alert", dice=3), participant="Ana", faces=(4, 1, 2)),
            match="Ana does not roll for guard")
    refused(journal, scene, MakeRoll(Hands("Iris", "Tough"), participant="Ben", faces=(1, 2, 3, 4)),
            match="Ben does not roll for Iris")


def test_multiple_actions_and_tangential_traits(journal, scene):
    # "If you attempt one extra action, you suffer a penalty die on all actions [...] If you attempt
    # two extra actions, you roll one fewer die". "the GM may allow a bonus die (if the trait is 3
    # dice)": the model doing make-up gets "two dice plus a bonus die".
    one = roll(journal, scene, "Iris", "Tough", extra_actions=1, faces=(6, 5, 4, 3, 2)).payload
    two = roll(journal, scene, "Iris", "Tough", extra_actions=2, faces=(6, 5, 4)).payload
    model = roll(journal, scene, "Iris", "Military Background", use=TraitUse.TANGENTIAL, faces=(1, 5, 6)).payload
    assert (one.dice.notation, one.dice.total) == ("5d6kl4", 14)
    assert (two.dice.notation, two.dice.total) == ("3d6", 15)
    assert (model.trait_dice, model.dice.notation, model.dice.total) == (3, "3d6kh2", 11)


# -- comparing the roll ---------------------------------------------------------------------


def test_the_three_results_against_a_difficulty_factor_with_exact_prior_odds(journal, scene):
    # "1) Your total beats the number. [...] 2) Your total equals the number. Draw, stalemate, or
    # inconclusive [...] 3) Your total is less than the number. You fail". Hard is 11.
    beats = roll(journal, scene, "Iris", "Military Background", faces=(6, 6, 2), against=difficulty("hard")).payload
    equals = roll(journal, scene, "Iris", "Military Background", faces=(6, 3, 2), against=Factor(11)).payload
    fails = roll(journal, scene, "Iris", "Military Background", faces=(1, 3, 2), against=Factor(11)).payload
    assert [(r.outcome, r.margin) for r in (beats, equals, fails)] == [("beats", 3), ("equals", 0), ("fails", -5)]
    assert beats.against.label == "Hard"
    # 3d6 beats 11 with 81 of 216 throws, equals it with 27.
    assert (beats.odds.beats.exact, beats.odds.equals.exact, beats.odds.beats.percent) == ("3/8", "1/8", "38%")
    rows = roll_rows(journal.state(scene), journal.history(scene))
    assert rows[0]["recap"] == "Iris rolls Military Background, 3d6: 6 6 2 = 14, beats Hard 11 by 3 " \
                               "(against 38% odds) [good break]"


def test_an_inert_force_rolled_by_the_gm(journal, scene):
    # "Alternately, the GM can roll dice for the strength of the inert force [...] a hard task would
    # get three dice"
    made = roll(journal, scene, "Tom", "Strong", faces=(5, 5, 3), against=InertForce(3, (4, 4, 4))).payload
    assert (made.against.kind, made.against.number, made.outcome, made.margin) == ("inert force", 12, "beats", 1)
    assert made.against.dice.faces == [4, 4, 4]
    assert sum(c.fraction() for c in (made.odds.beats, made.odds.equals, made.odds.fails)) == 1


def test_an_opposed_roll_against_a_secret_gmc_roll_hides_the_gmcs_number(journal):
    # "Note that the GM need not tell you what she rolls for a GMC, or even how many dice she is
    # rolling. The GM only needs to tell you the results of your action as your character perceives them."
    # The Unstoppable Six: "He rolls a 13, against the priest's roll of 6, 3, 1, for a total of 10.
    # The character wins [...] the ghost rolled a 6, and [...] has kept itself from being completely controlled."
    cid = start(journal, {"unstoppable_six": True})
    ghost = roll(journal, cid, "ghost", "Priest", dice=3, faces=(6, 3, 1), visibility="gm")
    spell = roll(journal, cid, "Iris", "Tough", faces=(4, 3, 3, 3), against=Opposed(ghost.sequence))
    p = spell.payload
    assert (p.outcome, p.against.number, p.margin, p.odds) == ("beats", None, None, None)
    state = journal.state(cid)
    history = journal.history(cid)
    players, gms = roll_rows(state, history, viewer="Ana"), roll_rows(state, history)
    assert [r["sequence"] for r in players] == [spell.sequence]
    assert players[0]["against"]["number"] is None and "?" in players[0]["recap"]
    ghost_row, spell_row = gms
    assert (spell_row["against"]["number"], spell_row["margin"]) == (10, 3)
    assert spell_row["odds"]["beats"]["exact"] != ""
    assert ghost_row["answered_by"] == [{"roll": spell.sequence, "character": "Iris", "outcome": "fails"}]
    assert (ghost_row["sixes"], ghost_row["limited_success"]) == (1, True)
    assert verify(journal.store.read(cid), cid).ok


def test_opposing_a_roll_of_another_scene_or_no_roll_is_refused(journal, scene):
    guard = roll(journal, scene, "guard", "Alert", dice=2, faces=(3, 3))
    refused(journal, scene, MakeRoll(Hands("Iris", "Tough"), faces=(1, 1, 1, 1), against=Opposed(2)),
            match="event 2 is not a roll")
    refused(
        journal,
        scene,
        MakeRoll(Hands("Iris", "Tough"), faces=(1, 1, 1, 1), against=roll_records.SpellLevel(3, "x")),
        match="against its casting",
    )
    journal.execute(scene, OpenScene(caller="Maya", cast=("Iris",), mode="procedural"))
    refused(journal, scene, MakeRoll(Hands("Iris", "Tough"), faces=(1, 1, 1, 1), against=Opposed(guard.sequence)),
            match="another scene")


def test_a_botch_fails_whatever_the_totals(journal):
    # "He rolls four dice, and they come up 5, 1, 1, 1. That comes to 3, total, and a botch. The
    # gullible GMC rolls one die for resisting the character's schemes, and gets a 2. Even though
    # this is lower than the 3, the character's roll was a botch, so he fails."
    cid = start(journal, {"botch": True})
    twerp = roll(journal, cid, "twerp", "Gullible", dice=1, faces=(2,))
    con = roll(journal, cid, "Tom", "Manipulating People", penalty=1, faces=(5, 1, 1, 1),
               against=Opposed(twerp.sequence)).payload
    assert (con.dice.total, con.botch, con.outcome, con.decided_by) == (3, True, "fails", dice.BOTCH.chapter)
    # "He rolls two dice, and they come up snake-eyes."
    door = roll(journal, cid, "Tom", faces=(1, 1), against=Factor(7)).payload
    assert (door.botch, door.outcome, door.breaks.bad) == (True, "fails", True)


def test_blowing_the_top_off_needs_the_extra_dice(journal):
    # "If the player rolls all 6's on any given roll, he rolls another die and adds it to the total
    # he already rolled. If that die is a 6, he rolls it again and adds it, and so on."
    cid = start(journal, {"blowing_the_top_off": True})
    refused(journal, cid, MakeRoll(Hands("Tom"), faces=(6, 6)), match="blowing the top off")
    top = roll(journal, cid, "Tom", faces=(6, 6), top_off=(6, 2), against=Factor(18)).payload
    assert (top.dice.total, top.outcome) == (20, "beats")
    # Two dice pass 18 only by showing two 6's and then a 6 on the first extra die.
    assert top.odds.beats.fraction() == Fraction(1, 36) * Fraction(1, 6)


# -- experience dice ------------------------------------------------------------------------


def test_an_experience_die_is_a_bonus_die_once_per_session(journal, scene):
    # "once per game session you can use this die as a bonus die on any roll you make [...] Once you
    # use this die, you cannot use it again for the rest of the session."
    knife = MakeRoll(Hands("Iris", "Military Background"), experience_dice=1, purpose="block the knife",
                     justifications=("the third knife-fight I've been in this week",), faces=(1, 4, 5, 6))
    made = journal.execute(scene, knife)[-1].payload
    assert (made.dice.notation, made.dice.total, made.experience_dice) == ("4d6kh3", 15, 1)
    assert experience_dice_available(journal.state(scene).rules.characters, "Iris") == 0
    refused(journal, scene, knife, rule=experience.ONCE_PER_SESSION)
    journal.execute(scene, EndEpisode(), override=GM)  # no bennie vote in this test
    journal.execute(scene, StartEpisode(title="Dawn"))
    journal.execute(scene, OpenScene(caller="Maya", cast=("Iris",), mode="procedural"))
    assert journal.execute(scene, knife)[-1].payload.experience_dice == 1


def test_an_experience_die_needs_a_purpose_and_a_justification(journal, scene):
    # "If the GM does not tell you what a roll is for, you cannot use an experience die to modify
    # it because you cannot justify its use."
    refused(journal, scene, MakeRoll(Hands("Iris", "Tough"), experience_dice=1, justifications=("habit",),
                                     faces=(1, 2, 3, 4, 5)), rule=experience.JUSTIFY_USE)
    refused(journal, scene, MakeRoll(Hands("Iris", "Tough"), experience_dice=1, purpose="climb",
                                     faces=(1, 2, 3, 4, 5)), rule=experience.JUSTIFY_USE)
    refused(journal, scene, MakeRoll(Hands("guard", "Alert", dice=2), experience_dice=1, purpose="x",
                                     justifications=("y",), faces=(1, 2, 3)), match="only PCs")


def test_one_experience_die_a_roll(journal, scene):
    # "you cannot use more than one die on a single roll."
    journal.execute(scene, AwardExperience(dice=2))
    refused(journal, scene, MakeRoll(Hands("Iris", "Tough"), experience_dice=2, purpose="climb the mast",
                                     justifications=("a sailor", "did it yesterday"), faces=(1, 2, 3, 4, 5, 6)),
            rule=experience.ONE_DIE_PER_ROLL)


def test_the_optional_rule_allows_a_die_for_each_accepted_justification(journal):
    # "The GM may allow you to use more than one experience die, but only if you can give one good
    # justification for each die that you intend to use."
    cid = start(journal, {"multiple_experience_dice": True})
    journal.execute(cid, AwardExperience(dice=2))
    climb = MakeRoll(Hands("Iris", "Tough"), experience_dice=2, purpose="climb the mast",
                     justifications=("a sailor",), faces=(1, 2, 3, 4, 5, 6))
    refused(journal, cid, climb, rule=experience.ONE_JUSTIFICATION_PER_DIE)
    made = journal.execute(cid, replace(climb, justifications=("a sailor", "did it yesterday")))[-1].payload
    assert (made.dice.notation, made.dice.total, made.experience_dice) == ("6d6kh4", 18, 2)
    assert experience_dice_available(journal.state(cid).rules.characters, "Iris") == 1


# -- where a roll may be made, overrides, verify --------------------------------------------


def test_a_roll_in_no_scene_is_refused_unless_the_gm_overrides(journal, scene):
    # Practical efforts are played out "in procedural scenes": a roll between scenes has no place.
    journal.execute(scene, CloseScene())
    command = MakeRoll(Hands("Iris", "Tough"), faces=(1, 2, 3, 4))
    refused(journal, scene, command, rule=roll_making.IN_A_SCENE)
    recorded = journal.execute(scene, command, override=GM)
    assert [r.event_type for r in recorded] == ["override.recorded", "yarn.roll.made"]
    assert "no scene is in play" in recorded[0].payload.rules[0].message
    assert verify(journal.store.read(scene), scene).ok


def test_a_fringe_power_is_not_rolled_without_a_shot(journal, scene):
    # "When a character uses a fringe power, he loses 1 shot from the psychic pool."
    from yarnlog.rulesets.yarn.parts.powers.part import GainPsychicPool

    journal.execute(scene, GainPsychicPool("Iris", ("Medicine",), take_three=True))
    refused(journal, scene, MakeRoll(Hands("Iris", "Medicine"), faces=(4,)), rule=USE_SHOT)


def test_verify_flags_rolls_forced_in_behind_the_decider(journal, scene):
    honest = roll(journal, scene, "Iris", "Military Background", faces=(1, 3, 2), against=Factor(11)).payload
    assert verify(journal.store.read(scene), scene).ok
    forced(journal, scene, honest.model_copy(update={"outcome": "beats"}))
    forced(journal, scene, honest.model_copy(update={"trait_dice": 4}))
    knife = MakeRoll(Hands("Iris", "Tough"), experience_dice=1, purpose="x", justifications=("y",),
                     faces=(1, 2, 3, 4, 5))
    forced(journal, scene, journal.execute(scene, knife)[-1].payload)  # the die used twice
    faults = verify(journal.store.read(scene), scene).faults
    last = journal.store.last_sequence(scene)
    assert [f.sequence for f in faults] == [last - 3, last - 2, last]
    assert "outcome is recorded as 'beats' but the rules give 'fails'" in faults[0].problem
    assert "trait_dice is recorded as 4" in faults[1].problem
    assert "of 1 experience dice are used this session" in faults[2].problem


def test_retracting_a_roll_another_roll_was_opposed_to_is_refused(journal, scene):
    guard = roll(journal, scene, "guard", "Alert", dice=2, faces=(3, 3))
    roll(journal, scene, "Iris", "Tough", faces=(1, 2, 3, 4), against=Opposed(guard.sequence))
    before = journal.store.last_sequence(scene)
    broken = f"event {before} fails: event {guard.sequence} is not a roll"
    with pytest.raises(RuleViolation, match=broken):
        journal.execute(scene, Retract(guard.sequence, reason="wrong guard"))
    assert journal.store.last_sequence(scene) == before


# -- the hand of fate and the GM's readings -------------------------------------------------


def test_the_hand_of_fate_and_the_gms_reading(journal, scene):
    # "The GM lets him roll the dice, and he gets a 5. The GM rules that the 5 means an annoying wind
    # that keeps blowing the picnickers' napkins away, but nothing serious."
    fate = journal.execute(scene, MakeRoll(Hands("Tom", use=TraitUse.HAND_OF_FATE), faces=(2, 3)))[-1]
    assert (fate.payload.trait_use, fate.payload.dice.notation, fate.payload.dice.total) == (
        TraitUse.HAND_OF_FATE, "2d6", 5)
    journal.execute(scene, ReadRoll(fate.sequence, "an annoying wind that keeps blowing the napkins away"))
    journal.execute(scene, ReadRoll(fate.sequence, "the wind carries a stranger's voice"), visibility="gm")
    state, history = journal.state(scene), journal.history(scene)
    assert roll_rows(state, history)[0]["readings"] == ["an annoying wind that keeps blowing the napkins away",
                                                        "the wind carries a stranger's voice"]
    seen_by_ben = roll_rows(state, history, viewer="Ben")[0]["readings"]
    assert seen_by_ben == ["an annoying wind that keeps blowing the napkins away"]
    refused(journal, scene, MakeRoll(Hands("Tom", "Strong", TraitUse.HAND_OF_FATE), faces=(2, 3)),
            match="no trait applies")
    refused(journal, scene, ReadRoll(1, "nothing"), match="not a roll")


# -- group efforts --------------------------------------------------------------------------


def test_simple_addition(journal, scene):
    # "The GM decides that a roll of 13 is necessary to move it. [...] They each get two dice for
    # brute strength, and they roll a 4 and a 10, for a total of 14. They move the stone"
    a = roll(journal, scene, "Iris", use=TraitUse.NO_TRAIT, faces=(1, 3))
    b = roll(journal, scene, "Tom", use=TraitUse.NO_TRAIT, faces=(4, 6))
    group = journal.execute(scene, GroupEffort("simple addition", (a.sequence, b.sequence), Factor(13)))[-1].payload
    assert (group.total, group.outcome, group.margin, group.characters) == (14, "beats", 1, ["Iris", "Tom"])
    # Two dice plus two dice beat 13 when the four dice total 14 or more: 721 of the 1296 falls;
    # they equal it in 140.
    assert group.odds.beats.exact == "721/1296" and group.odds.equals.exact == "35/324"
    refused(journal, scene, GroupEffort("worst roller", (a.sequence, b.sequence)), match="already counts")


def test_combining_dice_the_books_two_examples(journal):
    # "He rolls four dice, she rolls two, and they take the best four dice between them"
    cid = start(journal, {"unstoppable_six": True})
    texts = journal.execute(cid, CombineDice((Hands("Iris", "Tough"), Hands("Tom")),
                                             MakeRoll(Hands("Iris"), faces=(1, 5, 2, 6, 3, 4))))[-1].payload
    assert (texts.character, texts.dice.notation, texts.dice.total) == ("Iris", "6d6kh4", 18)
    assert [(h.character, h.dice) for h in texts.helpers] == [("Tom", 2)]
    # "The first character is up against five of them, who roll two dice in combat [...] so they
    # only get 'combining dice.' He rolls three dice for 14, while the gang members roll ten dice and
    # take the best two, a 5 and a 6. The character manages to beat off the gang members, but
    # (because of the unstoppable six), he suffers a nasty kick in the groin"
    gang = journal.execute(cid, CombineDice(tuple(Hands("rough", dice=2) for _ in range(5)), MakeRoll(
        Hands("rough"), faces=(1, 2, 5, 3, 1, 6, 2, 4, 3, 1))), visibility="gm")[-1]
    assert (gang.payload.dice.notation, gang.payload.dice.total, gang.payload.participant) == ("10d6kh2", 11, "Maya")
    fight = roll(journal, cid, "Iris", "Military Background", faces=(6, 4, 4), against=Opposed(gang.sequence))
    assert (fight.payload.dice.total, fight.payload.outcome) == (14, "beats")
    rows = {r["sequence"]: r for r in roll_rows(journal.state(cid), journal.history(cid))}
    assert (rows[gang.sequence]["sixes"], rows[gang.sequence]["limited_success"]) == (1, True)
    groups = group_rows(journal.state(cid), journal.history(cid))
    assert [g["method"] for g in groups] == ["combining dice", "combining dice"]
    assert verify(journal.store.read(cid), cid).ok


def test_either_or_counts_the_roll_the_gm_determined(journal, scene):
    # "The GM rolls and determines that the second character is searching the relevant body. Being
    # perceptive, she rolls three dice plus a penalty die for the darkness of the chamber; she gets an
    # 8, good enough. Meanwhile, the first character rolls a 4"
    first = roll(journal, scene, "Tom", faces=(1, 3))
    second = roll(journal, scene, "Iris", "Military Background", penalty=1, faces=(2, 3, 6, 3))
    assert second.payload.dice.total == 8
    chosen = journal.execute(scene, GroupEffort("either/or", (first.sequence, second.sequence),
                                                counting=second.sequence), visibility="gm")[-1].payload
    assert (chosen.counting, chosen.source, chosen.total) == (second.sequence, "entered", 8)
    assert group_rows(journal.state(scene), journal.history(scene), viewer="Ben") == []


def test_either_or_may_be_determined_at_random(journal, scene):
    first = roll(journal, scene, "Tom", faces=(1, 3))
    second = roll(journal, scene, "Iris", faces=(2, 3))
    picked = execute_rolling(journal, scene, GroupEffort("either/or", (first.sequence, second.sequence)),
                             rng=random.Random(3))[-1].payload
    assert picked.source == "rolled" and picked.counting in (first.sequence, second.sequence)
    assert verify(journal.store.read(scene), scene).ok


def test_worst_roller_the_books_example(journal, scene):
    # "three dice for the first character (who is good at manipulating people) and two dice for the
    # second. The first character, with his roll of 9, beats the guards' roll of 7, but the second
    # character rolls only a 6, and the guards become suspicious."
    guards = roll(journal, scene, "guards", "Suspicious", dice=2, faces=(3, 4), visibility="gm")
    first = roll(journal, scene, "Tom", "Manipulating People", faces=(2, 3, 4), against=Opposed(guards.sequence))
    second = roll(journal, scene, "Iris", faces=(1, 5), against=Opposed(guards.sequence))
    assert (first.payload.outcome, second.payload.outcome) == ("beats", "fails")
    worst = journal.execute(scene, GroupEffort("worst roller", (first.sequence, second.sequence),
                                               Opposed(guards.sequence)))[-1].payload
    assert (worst.counting, worst.total, worst.outcome, worst.against.number) == (second.sequence, 6, "fails", None)
    assert group_rows(journal.state(scene), journal.history(scene))[0]["characters"] == ["Tom", "Iris"]


def test_a_group_effort_joins_two_or_more_rolls_of_the_scene(journal, scene):
    alone = roll(journal, scene, "Tom", faces=(1, 3))
    refused(journal, scene, GroupEffort("worst roller", (alone.sequence,)), rule=roll_making.TWO_OR_MORE)
    refused(journal, scene, GroupEffort("simple addition", (alone.sequence, alone.sequence), Factor(4)),
            match="counts once")
    again = roll(journal, scene, "Tom", faces=(1, 3))
    refused(journal, scene, GroupEffort("worst roller", (alone.sequence, again.sequence)),
            match="different characters")
    other = roll(journal, scene, "Iris", faces=(1, 3))
    refused(journal, scene, GroupEffort("simple addition", (alone.sequence, other.sequence)), match="against a number")


# -- breaks and consequences ----------------------------------------------------------------


def test_breaks_bring_consequence_rolls_at_the_end_of_the_scene(journal, scene):
    # "When you roll 2 or more 6's or 2 or more 1's for a given action, you've had a break." "At the
    # end of a procedural scene where you have a good break roll 1d6 [...] on a 6 you have a good
    # consequence. [...] on a 1 you have a bad consequence. It is possible to have both a good and a
    # bad consequence from the same procedural scene."
    good = roll(journal, scene, "Iris", "Military Background", faces=(6, 6, 2))
    bad = roll(journal, scene, "Iris", "Military Background", faces=(1, 1, 2))
    roll(journal, scene, "Tom", faces=(6, 1))
    roll(journal, scene, "guard", "Alert", dice=2, faces=(6, 6))  # a GMC: "Players who had breaks"
    due = consequence_data(journal.state(scene))
    assert [(d["character"], d["kind"], d["breaks"]) for d in due["due"]] == [
        ("Iris", "good", [good.sequence]), ("Iris", "bad", [bad.sequence])]
    recorded = journal.execute(scene, RollConsequences(faces=(ConsequenceFace("Iris", "good", 6),
                                                              ConsequenceFace("Iris", "bad", 1))))
    assert [r.event_type for r in recorded] == ["yarn.consequence.rolled"] * 2 + ["scene.closed"]
    assert [(r.payload.kind, r.payload.consequence) for r in recorded[:2]] == [("good", True), ("bad", True)]
    after = consequence_data(journal.state(scene), 1)
    assert (after["due"], after["in_play"], len(after["rolled"])) == ([], False, 2)
    refused(journal, scene, RollConsequences(1, (ConsequenceFace("Iris", "good", 4),)), rule=dice.GOOD_CONSEQUENCE)
    refused(journal, scene, RollConsequences(1), match="no consequence roll is due")
    assert verify(journal.store.read(scene), scene).ok


def test_consequence_rolls_by_the_tool_and_no_roll_without_a_break(journal, scene):
    roll(journal, scene, "Tom", faces=(6, 6))
    refused(journal, scene, RollConsequences(faces=(ConsequenceFace("Tom", "bad", 1),)), rule=dice.BAD_CONSEQUENCE)
    made = execute_rolling(journal, scene, RollConsequences(), rng=random.Random(1))[0].payload
    assert (made.character, made.kind, made.source, made.consequence) == ("Tom", "good", "rolled", made.face == 6)
    assert verify(journal.store.read(scene), scene).ok


def test_projections_at_a_point_in_history(journal, scene):
    first = roll(journal, scene, "Iris", "Tough", faces=(1, 2, 3, 4))
    roll(journal, scene, "Tom", faces=(6, 6))
    then = journal.state(scene, upto=first.sequence)
    assert [r["sequence"] for r in roll_rows(then, journal.history(scene, upto=first.sequence))] == [first.sequence]
    assert consequence_data(then)["due"] == []
    assert [r["character"] for r in roll_rows(journal.state(scene), journal.history(scene), character="Tom")] == ["Tom"]


# -- properties -----------------------------------------------------------------------------


def _bare_campaign(options: dict[str, bool]):
    """The smallest state a roll is decided against: a GM, a scene in play, no PCs."""
    from yarnlog.core.timeline import Timeline

    table = Table(campaign_id="c", gm="Maya", options=options, roles={"Maya": "gm"})
    return SimpleNamespace(table=table, timeline=Timeline(episode=1, scene=1),
                           rules=SimpleNamespace(characters=Characters(), procedure=roll_records.Procedure(),
                                                 combat=fight_records.Fights()))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.integers(0, 2), st.integers(0, 2), st.integers(0, 20), st.data(),
       st.fixed_dictionaries({"botch": st.booleans(), "unstoppable_six": st.booleans()}))
def test_a_recorded_roll_is_the_books_comparison_of_its_kept_dice(count, bonus, penalty, factor, data, options):
    """Whatever the faces, the outcome is "beats / equals / fails" of the kept total (a botch fails),
    and the stored prior odds are exact chances summing to 1."""
    spec = dice.RollSpec(count, bonus, penalty)
    faces = tuple(data.draw(st.lists(st.integers(1, 6), min_size=spec.rolled, max_size=spec.rolled)))
    command = MakeRoll(Hands("guard", dice=count), bonus=bonus, penalty=penalty, faces=faces, against=Factor(factor))
    campaign = _bare_campaign(options)
    roller = roll_making.Roller("Maya", "guard", True, None, TraitUse.TRAIT, count)
    made = roll_making.record_roll(campaign, Referee(), roller, roll_making.roll_spec(dice.RollSpec(count), command),
                                   command)
    result = dice.read_roll(spec, faces)
    botched = options["botch"] and all(f == 1 for f in result.kept_faces)
    assert made.outcome == ("fails" if botched else dice.compare(result.total, factor).value)
    chances = (made.odds.beats, made.odds.equals, made.odds.fails)
    assert sum(c.fraction() for c in chances) == 1
    assert made.sixes == (result.kept_faces.count(6) if options["unstoppable_six"] else 0)


# -- the scene indexes: a scene's consequence rolls are decided from its own rolls ---------------------

_SAMPLE = Path(__file__).resolve().parents[3] / "journals" / "lantern-harbor.jsonl"
_SAMPLE_EVENTS = [to_recorded(r) for r in parse_lines(_SAMPLE.read_text(encoding="utf-8").splitlines())]


@settings(max_examples=30, deadline=None)
@given(st.integers(1, len(_SAMPLE_EVENTS)), st.sets(st.integers(1, len(_SAMPLE_EVENTS) - 1), max_size=30))
def test_each_scene_files_its_own_rolls_and_consequence_rolls_in_the_order_made(length, left_out):
    # "At the end of a procedural scene, any player who had breaks must roll": a scene's consequence
    # rolls come from the rolls made in that scene. The slice files them by scene as they are folded;
    # filed by a pass over every roll of the campaign, they are the same, whatever part of the sample is read.
    history = [e.model_copy(update={"sequence": i}) for i, e in
               enumerate((e for i, e in enumerate(_SAMPLE_EVENTS[:length]) if i not in left_out), 1)]
    procedure = replay(with_context(history)).rules.procedure  # the campaign's creation is never left out
    by_scene: dict[int, list[int]] = {}
    for seq in sorted(procedure.rolls):
        if procedure.rolls[seq].scene is not None:
            by_scene.setdefault(procedure.rolls[seq].scene, []).append(seq)
    assert {scene: list(seqs) for scene, seqs in procedure.scene_rolls.items()} == by_scene
    consequences: dict[int, list[int]] = {}
    for seq in sorted(procedure.consequences):
        consequences.setdefault(procedure.consequences[seq].scene, []).append(seq)
    assert {scene: list(seqs) for scene, seqs in procedure.scene_consequences.items()} == consequences
