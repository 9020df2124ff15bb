"""The powers part: psychic pools, fringe powers and spells, recorded in the journal."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from yarnlog.app.rolling import execute_rolling
from yarnlog.app.verify import verify
from yarnlog.core.table import AddParticipant
from yarnlog.core.timeline import CloseScene, OpenScene, StartEpisode
from yarnlog.rulesets.yarn.parts.characters.experience_awards import AwardExperience
from yarnlog.rulesets.yarn.parts.characters.sheet_files import creation_command
from yarnlog.rulesets.yarn.parts.powers.part import (
    BuyShots,
    CastSpell,
    GainPsychicPool,
    LearnFringePower,
    RecoverShots,
    ResistPower,
    ResistSpell,
    StudySpell,
    UsePower,
    psychic_data,
)
from yarnlog.rulesets.yarn.parts.powers.power_records import PsychicPoolGained, SpellCast
from yarnlog.rulesets.yarn.parts.procedure.roll_records import Factor, Hands, MakeRoll, Opposed
from yarnlog.rulesets.yarn.parts.procedure.roll_reports import roll_rows
from yarnlog.rulesets.yarn.rules import fringe_powers, magic

from .refusals import refused


def sheet(name: str, player: str, central: str, sides: list[str], superior: str, **extra) -> dict:
    signs = {t.split(":")[0]: "a sign" for t in [central, *sides, "Reckless"]}
    return {"name": name, "player": player, "role": "crew", "desire": "respect", "poles": ["loyal", "free"],
            "central": central, "sides": sides, "superior": superior, "flaw": "Reckless", "signs": signs,
            "hit_point_descriptor": "guts", "story": "My story is of a seer.", "gm_approved": True} | extra


#: Nell dreams true: Dreamhaunting is her superior trait (a technical trait: 2 dice), Telepathy 1 die.
NELL = sheet("Nell", "Ana", "Dreamhaunting:technical", ["Telepathy:technical", "Strong:standard"], "Dreamhaunting")
#: Otto has no fringe power.
OTTO = sheet("Otto", "Ben", "Scholar:standard", ["Strong:standard", "Tough:standard"], "Scholar",
             relationships={"Nell": "cousin"})


@pytest.fixture
def scene(journal) -> str:
    journal.create_campaign("lantern", title="Lantern Harbor", gm="Maya")
    for name in ("Ana", "Ben"):
        journal.execute("lantern", AddParticipant(name=name))
    for data in (NELL, OTTO):
        journal.execute("lantern", creation_command(data))
    journal.execute("lantern", StartEpisode(title="Fog"))
    journal.execute("lantern", OpenScene(caller="Maya", cast=("Nell", "Otto"), mode="procedural"))
    return "lantern"




def pool(journal, cid, character: str) -> dict:
    return psychic_data(journal.state(cid), character)[0]


def experience(journal, cid, character: str) -> int:
    return journal.state(cid).rules.characters.pcs[character].experience_pool


def use(journal, cid, character, power, faces, push=False, **kw):
    return journal.execute(cid, UsePower(MakeRoll(Hands(character, power), faces=tuple(faces), **kw), push))[-1]


# -- the psychic pool -----------------------------------------------------------------------


def test_a_pool_of_three_shots_or_the_highest_die_of_one_per_power(journal, scene):
    # "This pool may contain 3 shots (uses per day), or you can roll a die to see how many shots it
    # contains. (If you have several fringe powers, you can roll the die once for each and take the
    # highest roll.)"
    rolled = journal.execute(scene, GainPsychicPool("Nell", ("dreamhaunting", "Telepathy"), faces=(2, 5)))[0]
    assert (rolled.payload.shots, rolled.payload.powers[0].name) == (5, "Dreamhaunting")
    assert pool(journal, scene, "Nell") | {"spells": []} == {
        "character": "Nell", "pool": "psychic pool", "shots": 5, "capacity": 5,
        "powers": {"Dreamhaunting": 2, "Telepathy": 1}, "spells": []}
    gmc = journal.execute(scene, GainPsychicPool("Ilse", ("Telepathy",), {"Telepathy": 2}, take_three=True,
                                                 pool_name="ki pool"))[0]
    assert (gmc.payload.shots, gmc.payload.source) == (3, "three shots")
    refused(journal, scene, GainPsychicPool("Nell", ("Telepathy",), take_three=True), match="already has")
    refused(journal, scene, GainPsychicPool("Otto", ("Strong",), faces=(3, 4)), rule=fringe_powers.ROLL_PER_POWER)
    refused(journal, scene, GainPsychicPool("Otto", ("Flight",), take_three=True), match="not a trait of Otto")


def test_using_and_pushing_a_power_take_shots(journal, scene):
    # "When a character uses a fringe power, he loses 1 shot from the psychic pool. He may also
    # 'push' the power, which means he loses 2 shots from the pool, but can roll twice the normal
    # number of dice, counting only the better half. (For example, if you have two dice in
    # 'dreamhaunting', you can use 2 shots for a single use of that power, roll four dice, and then
    # count the best two as your roll.)"
    journal.execute(scene, GainPsychicPool("Nell", ("Dreamhaunting",), take_three=True))
    once = use(journal, scene, "Nell", "Dreamhaunting", (3, 4)).payload
    pushed = use(journal, scene, "Nell", "Dreamhaunting", (1, 6, 2, 5), push=True, against=Factor(10)).payload
    assert (once.dice.notation, once.dice.total, once.psychic.shots) == ("2d6", 7, 1)
    assert (pushed.dice.notation, pushed.dice.total, pushed.psychic.kind, pushed.psychic.shots) == (
        "4d6kh2", 11, "push", 2)
    assert pushed.dice.total == fringe_powers.pushed_roll(2, (1, 6, 2, 5))
    assert pool(journal, scene, "Nell")["shots"] == 0
    refused(journal, scene, UsePower(MakeRoll(Hands("Nell", "Dreamhaunting"), faces=(1, 1))),
            rule=fringe_powers.USE_SHOT)
    refused(journal, scene, UsePower(MakeRoll(Hands("Otto", "Strong"), faces=(1, 1, 1))), match="no psychic pool")
    assert verify(journal.store.read(scene), scene).ok


def test_resisting_with_a_shot(journal, scene):
    # "If he uses this shot, he gets a number of dice equal to his best psychic power as bonus dice
    # on his resistance roll. [...] A 2 die telepath can expend a shot to get 2 more dice than normal
    # when resisting a mind scan. A 2 die pyrokineticist, on the other hand, can expend a shot to
    # resist a mind scan, but he would only get two bonus dice, not two extra dice."
    journal.execute(scene, GainPsychicPool("Nell", ("Dreamhaunting", "Telepathy"), take_three=True))
    journal.execute(scene, GainPsychicPool("Ilse", ("Telepathy",), {"Telepathy": 2}, take_three=True))
    scan = use(journal, scene, "Ilse", "Telepathy", (5, 6))
    bonus = journal.execute(scene, ResistPower(MakeRoll(Hands("Nell"), faces=(1, 2, 6, 6),
                                                        against=Opposed(scan.sequence))))[-1].payload
    assert (bonus.dice.notation, bonus.dice.total, bonus.outcome) == ("4d6kh2", 12, "beats")
    assert (bonus.psychic.power, bonus.psychic.bonus_dice, bonus.psychic.extra_dice) == ("Dreamhaunting", 2, 0)
    extra = journal.execute(scene, ResistPower(MakeRoll(Hands("Ilse"), faces=(1, 2, 1, 2)),
                                               countering="telepathy"))[-1].payload
    assert (extra.dice.notation, extra.psychic.power, extra.psychic.extra_dice) == ("4d6", "Telepathy", 2)
    # "if he knows the power is being used against him"
    refused(journal, scene, ResistPower(MakeRoll(Hands("Nell"), faces=(1, 2, 3, 4)), knows=False),
            rule=fringe_powers.RESIST_WITH_SHOT)
    assert [pool(journal, scene, name)["shots"] for name in ("Nell", "Ilse")] == [2, 1]
    assert verify(journal.store.read(scene), scene).ok


def test_shots_come_back_over_hours_of_rest(journal, scene):
    # "Psychic shots return 100% in 24 hours. If a character has six shots in his pool, he recovers
    # one die every 4 hours." A druid "may be able to recover shots at twice the normal rate".
    journal.execute(scene, GainPsychicPool("Nell", ("Dreamhaunting",), faces=(6,)))
    use(journal, scene, "Nell", "Dreamhaunting", (1, 6, 2, 5), push=True)
    use(journal, scene, "Nell", "Dreamhaunting", (1, 6, 2, 5), push=True)
    first = journal.execute(scene, RecoverShots("Nell", Fraction(4)))[0].payload
    assert (first.shots_before, first.shots) == (2, 3)
    druid = journal.execute(scene, RecoverShots("Nell", Fraction(4), rate=Fraction(2)))[0].payload
    assert (druid.shots, druid.rate) == (5, "2")
    assert journal.execute(scene, RecoverShots("Nell", Fraction(24)))[0].payload.shots == 6
    refused(journal, scene, RecoverShots("Nell", "eight"), match="not a number")
    assert verify(journal.store.read(scene), scene).ok


def test_buying_shots_with_experience_dice(journal, scene):
    # "One shot can be added to the pool by subtracting 2 dice from the experience pool. [...] He may
    # not convert shots to experience dice."
    journal.execute(scene, GainPsychicPool("Nell", ("Dreamhaunting",), take_three=True))
    refused(journal, scene, BuyShots("Nell", 1), rule=fringe_powers.BUY_SHOTS)  # one die in the pool
    journal.execute(scene, AwardExperience(dice=3))
    bought = journal.execute(scene, BuyShots("Nell", 2))[0].payload
    assert (bought.experience_spent, bought.capacity) == (4, 5)
    assert (experience(journal, scene, "Nell"), pool(journal, scene, "Nell")["shots"]) == (0, 5)
    refused(journal, scene, BuyShots("Nell", 0), rule=fringe_powers.BUY_SHOTS)


# -- learning fringe powers -----------------------------------------------------------------


def test_learning_a_power_succeeds_only_on_a_six(journal, scene):
    # "the player decides how many dice from his experience pool to use, rolls the dice, and only if
    # at least one of the dice is a 6 does the character acquire the power." "Upon learning his first
    # fringe power, the character gains a psychic pool with one die in it."
    journal.execute(scene, AwardExperience(dice=4))
    missed = journal.execute(scene, LearnFringePower("Otto", "Hunches", 2, faces=(3, 5)))[0].payload
    assert (missed.learned, missed.experience_spent, experience(journal, scene, "Otto")) == (False, 2, 3)
    learned = journal.execute(scene, LearnFringePower("Otto", "Hunches", 2, faces=(6, 2)))[0].payload
    assert (learned.learned, learned.dice, learned.shots) == (True, 1, 1)
    assert pool(journal, scene, "Otto") | {"spells": []} == {
        "character": "Otto", "pool": "psychic pool", "shots": 1, "capacity": 1, "powers": {"Hunches": 1},
        "spells": []}
    assert experience(journal, scene, "Otto") == 1
    # "It generally takes a month of full-time study to learn a fringe power, and access to a
    # knowledgeable teacher."
    refused(journal, scene, LearnFringePower("Otto", "Sending", 1, faces=(6,), teacher=False), rule=fringe_powers.STUDY)
    refused(journal, scene, LearnFringePower("Otto", "Hunches", 1, faces=(6,)), match="already has")
    refused(journal, scene, LearnFringePower("Otto", "Sending", 2, faces=(6, 6)), rule=fringe_powers.LEARNING_DICE)
    assert verify(journal.store.read(scene), scene).ok


def test_a_psi_mute_character_never_learns(journal, scene):
    # "When the character first attempts to learn a fringe power, roll a die in secret. If the roll
    # is a 1, that character is psi-mute and cannot learn fringe powers."
    journal.execute(scene, AwardExperience(dice=4))
    first = journal.execute(scene, LearnFringePower("Otto", "Hunches", 2, faces=(6, 6), psi_mute_roll=1),
                            visibility="gm")[0].payload
    again = journal.execute(scene, LearnFringePower("Otto", "Hunches", 1, faces=(6,)))[0].payload
    assert (first.psi_mute, first.learned, again.psi_mute, again.learned) == (True, False, True, False)
    refused(journal, scene, LearnFringePower("Otto", "Hunches", 1, faces=(6,), psi_mute_roll=4),
            match="first attempt")
    # "The only way for the character to find out that he is psi-mute is to try to learn powers until he gives up."
    assert pool(journal, scene, "Otto")["psi_mute"] is True
    assert psychic_data(journal.state(scene), "Otto", gm_view=False) == []


# -- spells ---------------------------------------------------------------------------------


def test_learning_unswerving_arrow_week_by_week(journal, scene):
    # "suppose a character tries to learn the 12th level spell, Unswerving Arrow. [...] at the end of a
    # week he expends the experience dice and rolls a single die. He gets a 5, not good enough. [...]
    # he rolls 2 dice, this time getting a 4 — failure. After two more weeks and 10 more dice, he rolls
    # (on four dice) a 13, good enough. The GM now informs him that he knows the spell and that he has
    # one shot in his Psychic Pool. He immediately takes two more dice from his experience pool and
    # gives himself a second shot in the psychic pool. He has now spent 22 dice from his experience
    # pool, and he can cast his spell twice per day."
    journal.execute(scene, AwardExperience(dice=21))
    assert experience(journal, scene, "Otto") == 22
    weeks = [(5,), (1, 3), (2, 2, 3), (4, 3, 2, 4)]
    studies = [journal.execute(scene, StudySpell("Otto", "Unswerving Arrow", 12, hours_per_day=4, faces=faces),
                               visibility="gm")[0].payload for faces in weeks]
    assert [(s.week, s.total, s.learned) for s in studies] == [(1, 5, False), (2, 4, False), (3, 7, False),
                                                               (4, 13, True)]
    assert studies[-1].shots == 1
    journal.execute(scene, BuyShots("Otto", 1))
    assert experience(journal, scene, "Otto") == 0
    assert pool(journal, scene, "Otto")["capacity"] == 2
    refused(journal, scene, StudySpell("Otto", "Unswerving Arrow", 12, faces=(6,) * 5), match="learned")
    assert verify(journal.store.read(scene), scene).ok


def test_a_week_of_study_is_five_dice_and_two_hours_a_day(journal, scene):
    # "a character must spend a week studying at least 2 hours per day and sacrifice 5 experience dice."
    refused(journal, scene, StudySpell("Otto", "Lurking Chains", faces=(3,)), rule=magic.STUDY_WEEK)
    journal.execute(scene, AwardExperience(dice=4))
    refused(journal, scene, StudySpell("Otto", "Lurking Chains", hours_per_day=1, faces=(3,)), rule=magic.STUDY_WEEK)
    chains = journal.execute(scene, StudySpell("Otto", "Lurking Chains", faces=(1,)))[0].payload
    # A sample spell's level is the book's; "If the character botches on any roll to learn a spell,
    # bad things can happen."
    assert (chains.level, chains.learned, chains.botched, chains.experience_spent) == (3, False, True, 5)
    refused(journal, scene, StudySpell("Otto", "Lurking Chains", 6, faces=(3, 3)), match="studied at level 3")
    refused(journal, scene, StudySpell("Otto", "Unheard Of", faces=(3,)), match="no sample spell")


def test_casting_takes_a_shot_and_resistance_at_least_equal_to_the_level_resists(journal, scene):
    # "To cast a spell, a character expends one shot from the psychic pool." "the level of the spell
    # always counts as its 'strength.' A resistance roll at least equal to the spell's roll generally
    # resists the spell's effects." Grip of Stone: "The target can roll strength or a similar trait".
    journal.execute(scene, AwardExperience(dice=9))
    journal.execute(scene, StudySpell("Nell", "Grip of Stone", faces=(6,)))
    journal.execute(scene, StudySpell("Nell", "Grip of Stone", faces=(6, 6)))
    cast = journal.execute(scene, CastSpell("Nell", "Grip of Stone"))[0]
    assert (cast.payload.level, pool(journal, scene, "Nell")["shots"]) == (12, 0)
    refused(journal, scene, CastSpell("Nell", "Grip of Stone"), rule=magic.CAST)
    refused(journal, scene, CastSpell("Otto", "Grip of Stone"), match="has not learned")
    held = journal.execute(scene, ResistSpell(MakeRoll(Hands("Otto", "Strong"), faces=(4, 4, 4)), cast.sequence))
    broke = journal.execute(scene, ResistSpell(MakeRoll(Hands("Otto", "Strong"), faces=(4, 4, 3)), cast.sequence))
    rows = {r["sequence"]: r for r in roll_rows(journal.state(scene), journal.history(scene))}
    assert [rows[r[-1].sequence]["resisted"] for r in (held, broke)] == [True, False]
    # Three dice reach 12 in 81 of 216 throws.
    assert rows[held[-1].sequence]["recap"] == "Otto rolls Strong, 3d6: 4 4 4 = 12, resists Grip of Stone 12 " \
                                               "(against 38% odds)"
    assert held[-1].payload.against.model_dump() | {"dice": None} == {
        "kind": "spell", "number": 12, "label": "Grip of Stone", "roll": cast.sequence, "dice": None,
        "botched": False}
    refused(journal, scene, ResistSpell(MakeRoll(Hands("Nell", "Strong"), faces=(4, 4, 4)), cast.sequence),
            match="own spell")
    assert verify(journal.store.read(scene), scene).ok


def test_a_gmcs_spell_is_cast_at_the_gms_level(journal, scene):
    cast = journal.execute(scene, CastSpell("Wizard", "Ring of Gyges", 15), visibility="gm")[0].payload
    assert (cast.level, cast.shots) == (15, 0)
    refused(journal, scene, CastSpell("Wizard", "Blessed Black"), match="give the level")


def test_verify_flags_power_events_forced_in_behind_the_decider(journal, scene):
    journal.execute(scene, GainPsychicPool("Nell", ("Dreamhaunting",), faces=(2,)))
    journal.execute(scene, CloseScene())
    forged = PsychicPoolGained(character="Otto", powers=[{"name": "Strong"}], rolls=[3], source="entered", shots=6)
    journal.commands.append(scene, journal.store.last_sequence(scene), [forged], by="Maya", visibility="everyone")
    broke = SpellCast(character="Nell", spell="Grip of Stone", level=12, shots=1)
    journal.commands.append(scene, journal.store.last_sequence(scene), [broke], by="Maya", visibility="everyone")
    faults = verify(journal.store.read(scene), scene).faults
    assert len(faults) == 2
    assert "shots is recorded as 6 but the rules give 3" in faults[0].problem
    assert "has not learned Grip of Stone" in faults[1].problem


def test_a_pool_rolled_by_the_tool(journal, scene):
    made = execute_rolling(journal, scene, GainPsychicPool("Nell", ("Dreamhaunting", "Telepathy")),
                           rng=random.Random(7))[0].payload
    assert made.source == "rolled" and len(made.rolls) == 2 and made.shots == max(made.rolls)
    assert verify(journal.store.read(scene), scene).ok
