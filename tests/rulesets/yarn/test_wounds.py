"""Hit points in the journal: Yarn 0.1 "Damage Effects", "Character Death", "Recovery", "Hit Point
Recovery Conventions", "Healing" (the Long-Term Healing table) and the optional "Serious Wounds"."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yarnlog.app.journal import Journal
from yarnlog.app.verify import verify
from yarnlog.core.corrections import effective
from yarnlog.core.decide import audit
from yarnlog.core.referee import InvalidCommand, Override, Referee, RuleViolation
from yarnlog.core.table import AddParticipant
from yarnlog.persistence.memory import MemoryStore
from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferTokens, ledger_entries
from yarnlog.rulesets.yarn.parts.characters.sheet_files import creation_command
from yarnlog.rulesets.yarn.parts.combat import wounds
from yarnlog.rulesets.yarn.parts.combat.part import Fighter, RegisterCombatant, StartCombat
from yarnlog.rulesets.yarn.parts.combat.wound_reports import wounds_report
from yarnlog.rulesets.yarn.parts.combat.wounds import (
    FaceDeath,
    Heal,
    Recover,
    SpendDeathOption,
    TakeDamage,
    penalty_dice_from_wounds,
)
from yarnlog.rulesets.yarn.rules.damage import SeriousWound, SeriousWoundKind
from yarnlog.rulesets.yarn.rules.healing import Activity, Condition
from yarnlog.rulesets.yarn.rules.hit_points import DeathOption, HitPointState, recover, take_damage

GM = Override(by="Maya", reason="the GM rules it")
IRIS = {
    "name": "Iris", "player": "Ana", "role": "harbour pilot", "desire": "respect", "poles": ["duty", "freedom"],
    "central": "Tough", "sides": ["Agile", "Sly"], "superior": "Tough", "flaw": "Reckless",
    "signs": {"Tough": "big-boned", "Agile": "lithe", "Sly": "smirk", "Reckless": "scars"},
    # "a character takes 10 points of damage and drops from 22 to 12 hit points"
    "hit_point_basis": [{"trait": "Tough", "faces": [6, 5, 4, 3, 1, 1, 1, 1]}], "hit_point_descriptor": "brawn",
    "story": "My story is of a woman who wants respect.", "gm_approved": True,
}


@pytest.fixture
def iris(journal, campaign):
    journal.execute(campaign, creation_command(IRIS))
    return journal, campaign


def hurt(journal, cid, points, who="Iris", **kw):
    return journal.execute(cid, TakeDamage(who, "the GM's ruling", points=points, **kw))[-1]


def level(journal, cid, who="Iris", upto=None) -> int:
    return wounds_report(journal.state(cid, upto=upto), who)[0].current


def refused(journal, cid, command, error=RuleViolation, match=None):
    before = journal.store.last_sequence(cid)
    with pytest.raises(error, match=match):
        journal.execute(cid, command)
    assert journal.store.last_sequence(cid) == before


# -- recovery ----------------------------------------------------------------------------------


def test_recovery_conventions_example(iris):
    # "a character takes 10 points of damage and drops from 22 to 12 hit points. He then recovers half the lost hit
    # points and now has 17 hit points. Again he takes 10 points of damage, dropping to 7 hit points. He recovers to
    # halfway between 7 and 17, not to half-way between 7 and his normal level of 22. He now has 12 hit points"
    journal, cid = iris
    marks = []
    for command in (TakeDamage("Iris", "a knife", points=10), Recover("Iris"),
                    TakeDamage("Iris", "a second knife", points=10), Recover("Iris")):
        marks.append(journal.execute(cid, command)[-1].sequence)
    assert [level(journal, cid, upto=m) for m in marks] == [12, 17, 7, 12]
    assert level(journal, cid, upto=marks[0] - 1) == 22
    last = journal.history(cid)[-1].payload
    assert (last.before, last.after, last.fraction) == (7, 12, "1/2")
    assert verify(journal.store.read(cid), cid).ok


def test_recovery_rounds_up(iris):
    # "Round hit points up ... being wounded for 7 points twice will leave you 6 points down from normal, whereas being
    # wounded for 14 points once will leave you 7 points below normal."
    journal, cid = iris
    for _ in range(2):
        hurt(journal, cid, 7)
        journal.execute(cid, Recover("Iris"))
    assert level(journal, cid) == 22 - 6
    journal.execute(cid, RegisterCombatant("Twin", 22))
    hurt(journal, cid, 14, "Twin")
    journal.execute(cid, Recover("Twin"))
    assert level(journal, cid, "Twin") == 22 - 7


def test_the_gm_may_change_the_share_recovered(iris):
    # "it might be relatively easy to recover from being beaten with fists (two-thirds of the loss recovered)"
    journal, cid = iris
    hurt(journal, cid, 9)
    assert journal.execute(cid, Recover("Iris", Fraction(2, 3), "beaten with fists"))[-1].payload.after == 13 + 6


def test_there_is_nothing_to_recover_without_a_new_wound(iris):
    journal, cid = iris
    refused(journal, cid, Recover("Iris"), InvalidCommand, match="nothing to recover")
    hurt(journal, cid, 4)
    journal.execute(cid, Recover("Iris"))
    refused(journal, cid, Recover("Iris"), InvalidCommand, match="nothing to recover")


def test_taser_damage_all_comes_back_at_recovery(iris):
    # "All damage from a taser is temporary. Record it separately; it all comes back when the character recovers."
    journal, cid = iris
    hurt(journal, cid, 15, temporary=True)
    hurt(journal, cid, 4)
    [row] = wounds_report(journal.state(cid), "Iris")
    assert (row.current, row.temporary, row.status) == (3, 15, "messed up")
    journal.execute(cid, Recover("Iris"))
    assert level(journal, cid) == 20  # 18 after the taser comes back, then halfway to 22


# -- messed up, down, dead ---------------------------------------------------------------------


def test_messed_up_penalty_is_visible_to_whoever_records_the_next_roll(iris):
    # "If the target is now at half or less their normal hit points, they suffer a penalty die on all actions until
    # they recover to more than half their normal hit points."
    journal, cid = iris
    hurt(journal, cid, 10)
    assert penalty_dice_from_wounds(journal.state(cid), "Iris") == 0
    hurt(journal, cid, 1)
    assert penalty_dice_from_wounds(journal.state(cid), "Iris") == 1
    journal.execute(cid, Recover("Iris"))
    assert penalty_dice_from_wounds(journal.state(cid), "Iris") == 0
    assert penalty_dice_from_wounds(journal.state(cid), "Nobody") == 0


def test_down_for_the_count_and_at_deaths_door(iris):
    # "If the target is at 0 hit points or below, they are out of the fight." "If you have 21 hit points and drop to
    # -21 through wounds, you are either dead or checking out."
    journal, cid = iris
    hurt(journal, cid, 22)
    assert wounds_report(journal.state(cid), "Iris")[0].status == "down"
    refused(journal, cid, FaceDeath("Iris", attempts_recovery=False), RuleViolation, match="not at the point of death")
    hurt(journal, cid, 22)
    assert wounds_report(journal.state(cid), "Iris")[0].status == "at death's door"


def test_a_reason_to_live_and_medical_attention_save_the_character(iris):
    # "Tell your reason to live to the GM; if she agrees it is sufficient, you live." "In order to survive, you need
    # medical attention and a reason to live."
    journal, cid = iris
    hurt(journal, cid, 44)
    refused(journal, cid, FaceDeath("Iris", attempts_recovery=True), InvalidCommand, match="reason to live")
    faced = journal.execute(cid, FaceDeath("Iris", True, "her father's respect", gm_accepts_reason=True,
                                           medical_attention=True))[-1].payload
    assert faced.outcome == "lives" and "Iris" not in journal.state(cid).rules.combat.wounds.dead


@pytest.fixture
def dead_iris(iris):
    journal, cid = iris
    hurt(journal, cid, 44)
    assert journal.execute(cid, FaceDeath("Iris", attempts_recovery=False))[-1].payload.outcome == "dies"
    return journal, cid


def test_a_dead_character_is_beyond_recovery_healing_and_fights(dead_iris):
    journal, cid = dead_iris
    assert wounds_report(journal.state(cid), "Iris")[0].status == "dead"
    refused(journal, cid, Recover("Iris"), InvalidCommand, match="dead")
    refused(journal, cid, Heal("Iris", 1, Activity.MEDICAL_CARE), InvalidCommand, match="dead")
    refused(journal, cid, StartCombat((Fighter("Iris"),)), InvalidCommand, match="dead")


def test_the_player_of_a_dead_character_spends_a_drama_token(dead_iris):
    # "A player whose character dies may spend a Drama Token to: Call an immediate scene where their character shares
    # a few last words; Have the character vanish ...; Perform one last act of heroic sacrifice"
    journal, cid = dead_iris
    last_words = SpendDeathOption("Iris", DeathOption.LAST_WORDS)
    refused(journal, cid, last_words, RuleViolation, match="holds 0")
    journal.execute(cid, TransferTokens("kitty", "Ana", 2, "the GM's gift"))
    spent = journal.execute(cid, last_words)[-1].payload
    assert [(t.source, t.destination, t.amount, t.chapter) for t in spent.transfers] == [
        ("Ana", "kitty", 1, "Combat › Character Death")]
    economy = journal.state(cid).rules.economy
    assert economy.tokens == {"Ana": 1}
    assert ledger_entries(effective(journal.history(cid)))[-1].event_type == "yarn.wounds.death_option_spent"
    refused(journal, cid, last_words, InvalidCommand, match="already spent")
    journal.execute(cid, SpendDeathOption("Iris", DeathOption.HEROIC_SACRIFICE))
    assert wounds_report(journal.state(cid), "Iris")[0].death_options == (
        str(DeathOption.LAST_WORDS), str(DeathOption.HEROIC_SACRIFICE))


def test_death_options_are_for_dead_player_characters(iris):
    journal, cid = iris
    journal.execute(cid, TransferTokens("kitty", "Ana", 1, "the GM's gift"))
    refused(journal, cid, SpendDeathOption("Iris", DeathOption.VANISH), RuleViolation, match="has not died")
    journal.execute(cid, RegisterCombatant("Mook", 7))
    refused(journal, cid, SpendDeathOption("Mook", DeathOption.VANISH), InvalidCommand, match="not a player character")


# -- long-term healing -------------------------------------------------------------------------


def test_resting_heals_one_a_day_and_medical_care_two(iris):
    # Long-Term Healing table: "Rest ... Mobile 1", "Medical Care ... Mobile 2". "Hit points are regained each day,
    # with the points regained based on the activity undertaken that day."
    journal, cid = iris
    hurt(journal, cid, 10)
    assert journal.execute(cid, Heal("Iris", 3, Activity.REST))[-1].payload.levels == [13, 14, 15]
    assert journal.execute(cid, Heal("Iris", 5, Activity.MEDICAL_CARE))[-1].payload.levels == [17, 19, 21, 22, 22]


def test_bed_ridden_rest_is_one_point_per_two_days_and_the_condition_follows_hit_points(iris):
    # "Rest ... Bed-Ridden: 1 per 2 days*", "Medical Care ... Bed-Ridden: 1, Mobile: 2". "Bed-Ridden means you have 0
    # or fewer hit points."
    journal, cid = iris
    hurt(journal, cid, 24)
    refused(
        journal, cid, Heal("Iris", 1, Activity.REST, Condition.MOBILE), InvalidCommand, match="bed-ridden, not mobile"
    )
    assert journal.execute(cid, Heal("Iris", 4, Activity.REST, Condition.BED_RIDDEN))[-1].payload.levels == [
        -2,
        -1,
        -1,
        0,
    ]
    assert journal.execute(cid, Heal("Iris", 3, Activity.MEDICAL_CARE))[-1].payload.levels == [1, 3, 5]


def test_a_bed_ridden_character_has_no_active_day_unless_the_gm_overrides(iris):
    # The table's "Active ... Bed-Ridden: —".
    journal, cid = iris
    hurt(journal, cid, 25)
    refused(journal, cid, Heal("Iris", 1, Activity.ACTIVE), RuleViolation, match="no active day")
    recorded = journal.execute(cid, Heal("Iris", 1, Activity.ACTIVE), override=GM)
    assert [r.event_type for r in recorded] == ["override.recorded", "yarn.wounds.healed"]
    # Decided by the healing validator alone, so the rule set aside is named once, as verify sees it.
    assert [rule.message for rule in recorded[0].payload.rules] == [
        "the table has no active day for a bed-ridden character"]
    assert verify(journal.store.read(cid), cid).ok


def test_the_gm_may_take_hit_points_only_where_the_table_says_so(iris):
    # "*May lose hit points, at the GM's option."
    journal, cid = iris
    hurt(journal, cid, 10)
    assert journal.execute(cid, Heal("Iris", 2, Activity.ACTIVE, gm_loss_per_day=1))[-1].payload.levels == [11, 10]
    refused(journal, cid, Heal("Iris", 1, Activity.MEDICAL_CARE, gm_loss_per_day=1), RuleViolation)
    # "Critical means you are severely wounded (GM's option)": medical care, 1 per 2 days.
    assert journal.execute(cid, Heal("Iris", 2, Activity.MEDICAL_CARE, Condition.CRITICAL))[-1].payload.levels == [
        10,
        11,
    ]


def test_no_day_passes_during_a_fight(iris):
    # "Whenever time moves forward ... to another day the GM should note this and ... apply the healing rules."
    journal, cid = iris
    hurt(journal, cid, 10)
    journal.execute(cid, StartCombat((Fighter("Iris"),), "detailed"))
    refused(journal, cid, Heal("Iris", 1, Activity.REST), InvalidCommand, match="no day passes")


@pytest.fixture
def serious(journal):
    journal.create_campaign("tides", title="Tides", gm="Maya", options={"serious_wounds": True})
    journal.execute("tides", RegisterCombatant("Mark", 20))
    return journal, "tides"


def test_a_lethal_serious_wound_costs_hit_points_daily_until_medical_care(serious):
    # "A serious wound that leads to death ... causes the character to lose hit points every day until proper medical
    # attention is applied. Hit points lost can be anywhere from 1 to 15 per day, depending on the wound."
    journal, cid = serious
    liver = SeriousWound("severe damage to the liver", SeriousWoundKind.LETHAL, 3)
    journal.execute(cid, TakeDamage("Mark", "a knife in the side", points=8, serious_wound=liver))
    assert journal.execute(cid, Heal("Mark", 2, Activity.REST))[-1].payload.levels == [9, 6]
    assert journal.execute(cid, Heal("Mark", 1, Activity.MEDICAL_CARE))[-1].payload.levels == [8]
    assert journal.execute(cid, Heal("Mark", 1, Activity.REST))[-1].payload.levels == [9]
    assert wounds_report(journal.state(cid), "Mark")[0].serious_wounds == ()


def test_a_mis_healing_serious_wound_heals_at_half_rate(serious):
    # "A serious wound that mis-heals without medical attention ... heals at half the normal rate"
    journal, cid = serious
    tendon = SeriousWound("severed tendon", SeriousWoundKind.MIS_HEALS)
    journal.execute(cid, TakeDamage("Mark", "a sword cut", points=8, serious_wound=tendon))
    assert journal.execute(cid, Heal("Mark", 4, Activity.REST))[-1].payload.levels == [12, 13, 13, 14]


def test_serious_wounds_need_the_optional_rule(iris):
    journal, cid = iris
    tendon = SeriousWound("severed tendon", SeriousWoundKind.MIS_HEALS)
    refused(journal, cid, TakeDamage("Iris", "a sword cut", points=8, serious_wound=tendon), RuleViolation,
            match="Serious Wounds")


def test_the_gm_may_roll_dice_for_damage(iris):
    # "You may use this system when an “attack roll” is not called for, such as when an explosive goes off near a
    # character and the GM simply rolls some dice to determine damage."
    journal, cid = iris
    blast = journal.execute(cid, TakeDamage("Iris", "a grenade nearby", dice=3, faces=(6, 4, 1)))[-1].payload
    assert (blast.dice.total, blast.points, blast.after) == (11, 11, 11)
    refused(journal, cid, TakeDamage("Iris", "a grenade", dice=3, faces=(6, 4)), InvalidCommand, match="3 faces")
    refused(journal, cid, TakeDamage("Iris", "", points=3), InvalidCommand, match="needs a reason")


# -- audit -------------------------------------------------------------------------------------


def test_a_recovery_forced_in_with_wrong_numbers_is_flagged(iris):
    journal, cid = iris
    hurt(journal, cid, 10)
    forged = wounds.Recovered(character="Iris", before=12, after=22)
    journal.commands.append(cid, journal.store.last_sequence(cid), [forged], by="Maya", visibility="everyone")
    [fault] = audit(journal.history(cid))
    assert fault.problem == "after is recorded as 22 but the rules give 17"


def test_an_event_forced_in_about_no_one_is_flagged_and_replay_goes_on(iris):
    journal, cid = iris
    forged = wounds.DamageTaken(character="Nobody", points=3, reason="a ghost", before=0, after=-3)
    journal.commands.append(cid, journal.store.last_sequence(cid), [forged], by="Maya", visibility="everyone")
    assert [row.character for row in wounds_report(journal.state(cid))] == ["Iris"]
    [fault] = audit(journal.history(cid))
    assert "Nobody has no hit points" in fault.problem


def test_healing_forced_in_against_the_table_is_flagged(iris):
    journal, cid = iris
    hurt(journal, cid, 30)
    [legal] = wounds.decide(Heal("Iris", 1, Activity.ACTIVE), journal.state(cid), Referee(GM))
    journal.commands.append(cid, journal.store.last_sequence(cid), [legal], by="Maya", visibility="everyone")
    [fault] = audit(journal.history(cid))
    assert "no active day for a bed-ridden character" in fault.problem


# -- the fold agrees with the rules ------------------------------------------------------------


@settings(max_examples=12, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(st.integers(0, 12), st.just("recover")), min_size=1, max_size=6))
def test_the_journal_folds_wounds_and_recoveries_as_the_rules_do(steps):
    journal = Journal(MemoryStore())
    journal.create_campaign("fold", title="Fold", gm="Maya")
    journal.execute("fold", AddParticipant(name="Ana"))
    journal.execute("fold", RegisterCombatant("Mook", 15))
    expected = HitPointState.unwounded(15)
    for step in steps:
        if step == "recover":
            if expected.lasting_level == expected.last_recovered:
                continue
            journal.execute("fold", Recover("Mook"))
            expected = recover(expected)
        else:
            journal.execute("fold", TakeDamage("Mook", "a blow", points=step))
            expected = take_damage(expected, step)
    [row] = wounds_report(journal.state("fold"), "Mook")
    assert (row.current, row.last_recovered) == (expected.current, expected.last_recovered)


def test_a_messed_up_character_rolls_with_the_penalty_die(iris):
    # "If the target is now at half or less their normal hit points, they suffer a penalty die on all actions"
    from yarnlog.app.verify import verify
    from yarnlog.core.timeline import OpenScene, StartEpisode
    from yarnlog.rulesets.yarn.parts.procedure.roll_records import Factor, Hands, MakeRoll

    journal, cid = iris
    journal.execute(cid, StartEpisode(title="Storm"))
    journal.execute(cid, OpenScene(caller="Ana", cast=("Iris",), mode="procedural"))
    hurt(journal, cid, 11)  # 22 -> 11: half her normal hit points
    # Tough is 4 dice: with the penalty die five are rolled and the highest (6) is dropped.
    roll = journal.execute(cid, MakeRoll(Hands("Iris", "Tough"), faces=(6, 5, 4, 3, 1), against=Factor(11)))[-1]
    assert roll.payload.wound_penalty == 1
    assert roll.payload.dice.notation == "5d6kl4" and roll.payload.dice.total == 13
    with pytest.raises(InvalidCommand, match="needs 5 faces, got 4"):
        journal.execute(cid, MakeRoll(Hands("Iris", "Tough"), faces=(6, 5, 4, 3), against=Factor(11)))
    assert verify(journal.store.read(cid), cid).ok
