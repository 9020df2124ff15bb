"""Every move of Will & Descriptors recorded on the journal, with the draft's numbers (digest 004)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from yarnlog.app.rolling import execute_rolling
from yarnlog.core.referee import InvalidCommand, Override, RuleViolation
from yarnlog.core.timeline import CloseScene, OpenScene
from yarnlog.rulesets.will_descriptors.parts.harm import RemoveInjury, TakeHarm
from yarnlog.rulesets.will_descriptors.parts.keys import AwardXp, RecordRuling, SpendAdvance
from yarnlog.rulesets.will_descriptors.parts.rolls import OpposedRoll
from yarnlog.rulesets.will_descriptors.parts.scenes import (
    CreateSceneDescriptor,
    HaveRefreshment,
    ShiftStalemate,
    StickDescriptor,
)
from yarnlog.rulesets.will_descriptors.parts.sheets import CreateCharacter
from yarnlog.rulesets.will_descriptors.rules.odds import opposed_odds

from .table import CAMPAIGN, rules, table


@pytest.fixture
def journal():
    return table()


def roll(journal, a="Christopher", b="Bob", uses_a=("Knots",), uses_b=("Slippery",), fa=(9, 8, 7), fb=(6, 2),
         **kw):
    return journal.execute(CAMPAIGN, OpposedRoll(a, b, uses_a, uses_b, fa, fb, **kw))


def test_will_starts_at_nine_and_is_kept(journal):
    """W1, line 2: "arbitrarily set to start at 9"; the starting value is kept (W23)."""
    bob = rules(journal).characters["Bob"]
    assert (bob.will, bob.starting_will, bob.track) == (9, 9, 5)
    journal.execute(CAMPAIGN, CreateCharacter("Dora", "Maya", starting_will=12))
    assert rules(journal).characters["Dora"].will == 12


def test_a_character_waits_for_the_track_length():
    """Reading 1: the draft never says how many boxes; the GM chooses at init, or per character."""
    from yarnlog.app.journal import Journal
    from yarnlog.persistence.memory import MemoryStore

    journal = Journal(MemoryStore())
    journal.create_campaign("c", title="T", gm="Maya", ruleset="will-descriptors")
    with pytest.raises(InvalidCommand, match="no Power track length"):
        journal.execute("c", CreateCharacter("Bob"))
    journal.execute("c", CreateCharacter("Bob", track=7))
    assert journal.state("c").rules.characters["Bob"].track == 7


def test_opposed_roll_pays_will_and_records_outcome_and_odds(journal):
    """W5, line 4: "spend one point of your Will for each Descriptor"; W7-W8, line 5."""
    [made] = roll(journal, uses_a=("Knots", "Strong"), fa=(9, 8, 7, 3, 1))
    p = made.payload
    assert (p.winner, p.successes, p.tn) == ("a", 3, 6)  # 9, 8, 7 beat Bob's 6
    state = rules(journal)
    assert state.characters["Christopher"].will == 7 and state.characters["Bob"].will == 8
    odds = {(line.side, line.successes): Fraction(line.chance) for line in p.odds}
    expected = opposed_odds(5, 2)
    assert odds[("a", 3)] == expected.a_wins[3]
    assert sum(odds.values()) == 1


def test_using_an_opponents_descriptor(journal):
    """W6, line 4: "When one of your Descriptors is used against you in this way, add one to your Will." The
    roller pays 1 (W5)."""
    roll(journal, uses_a=("Knots", "Bob:Proud"), fa=(9, 8, 7, 3, 1))
    state = rules(journal)
    assert state.characters["Christopher"].will == 7  # two activations
    assert state.characters["Bob"].will == 9  # paid 1 for Slippery, gained 1 for Proud
    assert [(e.character, e.amount, e.rule) for e in state.ledger] == [
        ("Christopher", -1, "W5, line 4"), ("Christopher", -1, "W5, line 4"), ("Bob", 1, "W6, line 4"),
        ("Bob", -1, "W5, line 4")]


def test_tied_pairs_and_stalemate_shift(journal):
    """W11, line 7: "it's a real stalemate, and the GM shifts the situation"."""
    [made] = roll(journal, uses_a=("Strong",), fa=(7, 4), fb=(4, 7))
    assert made.payload.winner is None
    with pytest.raises(InvalidCommand, match="stalemate harms nobody"):
        journal.execute(CAMPAIGN, TakeHarm("Bob"))
    journal.execute(CAMPAIGN, ShiftStalemate("The ship lurches; both fall."))
    with pytest.raises(InvalidCommand, match="shifted already"):
        journal.execute(CAMPAIGN, ShiftStalemate("Again"))


def test_nobody_spends_will_they_do_not_have(journal):
    """Reading 8: nobody may spend Will they do not have (W5); nothing is written."""
    journal.execute(CAMPAIGN, CreateCharacter("Poor", "Maya", starting_will=1,
                                              descriptors=(("A", 1, ""), ("B", 1, ""))))
    before = journal.state(CAMPAIGN).sequence
    with pytest.raises(RuleViolation, match="Poor has 1 Will and cannot pay 2"):
        roll(journal, a="Poor", uses_a=("A", "B"), fa=(3, 3))
    assert journal.state(CAMPAIGN).sequence == before


def test_zero_will_is_out_until_refreshment(journal):
    """W3, line 2: "If a character ever has 0 Will points, they are out of the scene and must have a
    Refreshment Scene". Reading 8: the roll still resolves, then the character leaves."""
    journal.execute(CAMPAIGN, CreateCharacter("Poor", "Maya", starting_will=1, descriptors=(("A", 1, ""),)))
    roll(journal, a="Poor", uses_a=("A",), fa=(10,))
    assert rules(journal).characters["Poor"].out
    with pytest.raises(RuleViolation, match="Poor is out of the scene: 0 Will"):
        roll(journal, a="Poor", uses_a=(), fa=())
    with pytest.raises(RuleViolation, match="middle of a scene"):
        journal.execute(CAMPAIGN, HaveRefreshment("Poor"))
    journal.execute(CAMPAIGN, CloseScene())
    journal.execute(CAMPAIGN, HaveRefreshment("Poor", escalation="The harbour watch arrives."))
    assert rules(journal).characters["Poor"].will == 1 and not rules(journal).characters["Poor"].out


def test_scene_descriptor_vanishes_unless_stuck(journal):
    """book-2/book-3, line 10: "Bob is tied up, 3D" ... "If Christopher (or Abigail, or even Bob himself!) pays a
    Will point to make the Descriptor stick, though, then it becomes part of Bob's character"."""
    roll(journal, uses_a=("Knots", "Strong"), fa=(9, 8, 7, 3, 1))
    with pytest.raises(RuleViolation, match="3 successes make a Scene Descriptor of 3D, not"):
        journal.execute(CAMPAIGN, CreateSceneDescriptor("Other", dice=2))
    journal.execute(CAMPAIGN, CreateSceneDescriptor("Bob is tied up", about="Bob"))
    assert rules(journal).scene_descriptors["Bob is tied up"].dice == 3
    journal.execute(CAMPAIGN, CloseScene())
    assert not rules(journal).scene_descriptors  # "the Scene Descriptor will evaporate"

    journal.execute(CAMPAIGN, OpenScene(caller="Maya"))
    roll(journal, uses_a=("Knots", "Strong"), fa=(9, 8, 7, 3, 1))
    journal.execute(CAMPAIGN, CreateSceneDescriptor("Bob is tied up", about="Bob"))
    journal.execute(CAMPAIGN, StickDescriptor("Bob is tied up", payer="Bob", to="Bob"))
    journal.execute(CAMPAIGN, CloseScene())
    bob = rules(journal).characters["Bob"]
    assert bob.descriptors["Bob is tied up"].dice == 3 and bob.descriptors["Bob is tied up"].stuck
    assert bob.will == 9 - 1 - 1 - 1  # two rolls' Slippery, and the stick


def test_invoking_a_scene_descriptor_costs_will(journal):
    """W13, line 10: "These can be invoked (at the cost of 1 Will point)"; reading 9: nobody gains."""
    roll(journal, uses_a=("Knots", "Strong"), fa=(9, 8, 7, 3, 1))
    journal.execute(CAMPAIGN, CreateSceneDescriptor("Bob is tied up"))
    [made] = roll(journal, uses_a=("Bob is tied up",), fa=(5, 4, 3))
    assert [c.kind for c in made.payload.a.contributions] == ["scene"]
    assert rules(journal).characters["Christopher"].will == 9 - 2 - 1


def test_harm_crosses_the_box_and_collides(journal):
    """W15, W17, line 11: "If the box is already crossed off, cross off the next highest available box AND
    create an Injury equal to the box that was crossed off!"."""
    roll(journal, uses_a=("Strong",), fa=(9, 8), fb=(7, 2))  # 2 successes... 9 and 8 beat 7
    [harm] = journal.execute(CAMPAIGN, TakeHarm("Bob"))
    assert (harm.payload.box, harm.payload.injury) == (2, 0)
    roll(journal, uses_a=("Strong",), fa=(9, 8), fb=(7, 2))
    [harm] = journal.execute(CAMPAIGN, TakeHarm("Bob", injury_name="Bruised"))
    assert (harm.payload.box, harm.payload.injury, harm.payload.collided) == (3, 3, True)
    bob = rules(journal).characters["Bob"]
    assert bob.crossed == {2, 3} and bob.injuries == {"Bruised": 3}
    with pytest.raises(InvalidCommand, match="already"):
        journal.execute(CAMPAIGN, TakeHarm("Bob"))
    with pytest.raises(InvalidCommand, match="did not lose"):
        journal.execute(CAMPAIGN, TakeHarm("Christopher", roll=harm.payload.roll))


def test_injury_instead_and_the_highest_box(journal):
    """W16, W18, line 11: an Injury instead; "If the last (highest) box ... you're out of the scene"."""
    roll(journal, uses_a=("Knots", "Strong"), fa=(9, 8, 7, 3, 1))
    [harm] = journal.execute(CAMPAIGN, TakeHarm("Bob", injury_instead=True, injury_name="Rope burns"))
    assert (harm.payload.box, harm.payload.injury) == (None, 3)
    roll(journal, uses_a=("Knots", "Strong", "Sailor"), fa=(10, 10, 9, 9, 8, 1), fb=(1, 1))
    [harm] = journal.execute(CAMPAIGN, TakeHarm("Bob"))
    assert (harm.payload.box, harm.payload.out) == (5, True)  # 5 successes: the highest box
    assert rules(journal).characters["Bob"].out
    with pytest.raises(RuleViolation, match="Bob is out of the scene: the highest box"):
        roll(journal)


def test_recovery_roll_reduces_the_injury(journal):
    """W20, line 12: "just reduce the Injury by the number of successes you roll"; reading 10."""
    roll(journal, uses_a=("Knots", "Strong"), fa=(9, 8, 7, 3, 1))
    journal.execute(CAMPAIGN, TakeHarm("Bob", injury_instead=True, injury_name="Rope burns"))
    [made] = journal.execute(CAMPAIGN, OpposedRoll("Abigail", None, ("Persuasive",), (), (10, 9, 2), (8, 3, 1),
                                                   recovery=("Bob", "Rope burns")))
    assert (made.payload.winner, made.payload.successes) == ("a", 2)
    assert rules(journal).characters["Bob"].injuries == {"Rope burns": 1}
    assert rules(journal).characters["Abigail"].will == 8
    journal.execute(CAMPAIGN, RemoveInjury("Bob", "Rope burns", "A night's sleep"))
    assert rules(journal).characters["Bob"].injuries == {}


def test_refreshment_with_a_partner_restores_the_track(journal):
    """W22, line 15: "The Power track is fully restored by having a Refreshment scene with another
    character."; W23, line 16: Will above the start is kept (reading 11)."""
    roll(journal, uses_a=("Strong",), fa=(9, 8), fb=(7, 2))
    journal.execute(CAMPAIGN, TakeHarm("Bob"))
    journal.execute(CAMPAIGN, CloseScene())
    journal.execute(CAMPAIGN, HaveRefreshment("Bob"))
    bob = rules(journal).characters["Bob"]
    assert bob.crossed == {2} and bob.will == 9  # alone: Will only
    journal.execute(CAMPAIGN, HaveRefreshment("Bob", partner="Abigail"))
    assert rules(journal).characters["Bob"].crossed == frozenset()


def test_keys_xp_and_advances(journal):
    """W26, line 23 (3 XP, buy-off 10); W27, line 24: "Every 5 XP is an Advance."; W28-W30, lines 26-28."""
    journal.execute(CAMPAIGN, AwardXp("Christopher", "Bind them all", "despite-risk"))
    with pytest.raises(RuleViolation, match="has 0 unspent Advances"):
        journal.execute(CAMPAIGN, SpendAdvance("Christopher", "raise", "Sailor"))
    journal.execute(CAMPAIGN, AwardXp("Christopher", "Bind them all", "buyoff"))
    chris = rules(journal).characters["Christopher"]
    assert (chris.xp, chris.advances, dict(chris.keys)) == (13, 2, {})
    [spent] = journal.execute(CAMPAIGN, SpendAdvance("Christopher", "raise", "Strong"))
    assert spent.payload.cost == 2  # "It costs 2 Advances to raise or lower a 2D Descriptor one die"
    chris = rules(journal).characters["Christopher"]
    assert (chris.descriptors["Strong"].dice, chris.advances) == (3, 0)
    with pytest.raises(RuleViolation, match="only a 1D one goes to the Background"):
        journal.execute(CAMPAIGN, SpendAdvance("Christopher", "to-background", "Knots"), override=None)
    journal.execute(CAMPAIGN, SpendAdvance("Christopher", "from-background", "Old navy friend"),
                    override=Override("Maya", "a gift of the sea"))
    assert rules(journal).characters["Christopher"].descriptors["Old navy friend"].dice == 1


def test_a_trigger_of_the_other_framework_is_refused(journal):
    """W25, line 21: a Dramatic Key pays 1/2/5/10; "expresses" is the Motivation framework's (W26)."""
    with pytest.raises(RuleViolation, match="dramatic Key: expresses pays it nothing"):
        journal.execute(CAMPAIGN, AwardXp("Bob", "The lost heir", "expresses"))
    [made] = journal.execute(CAMPAIGN, AwardXp("Bob", "The lost heir", "progresses"))
    assert made.payload.xp == 5


def test_the_tool_rolls_missing_faces():
    """Faces not entered are rolled once by the tool and kept in the event."""
    import random

    journal = table()
    [made] = execute_rolling(journal, CAMPAIGN, OpposedRoll("Christopher", "Bob", ("Knots",), ("Slippery",)),
                             rng=random.Random(4))
    assert len(made.payload.a.faces) == 3 and len(made.payload.b.faces) == 2


def test_ruling_is_recorded(journal):
    [made] = journal.execute(CAMPAIGN, RecordRuling("Three sides: two pairwise rolls (reading 14)."))
    assert made.payload.text.startswith("Three sides")


def test_verify_rechecks_every_move(journal):
    """Every event is checked again by the validator that decided it (verify)."""
    from yarnlog.app.verify import verify

    roll(journal, uses_a=("Knots", "Bob:Proud"), fa=(9, 8, 7, 3, 1))
    journal.execute(CAMPAIGN, CreateSceneDescriptor("Bob is tied up", about="Bob"))
    journal.execute(CAMPAIGN, StickDescriptor("Bob is tied up", payer="Abigail", to="Bob"))
    journal.execute(CAMPAIGN, TakeHarm("Bob", injury_instead=True, injury_name="Rope burns"))
    journal.execute(CAMPAIGN, OpposedRoll("Abigail", None, ("Persuasive",), (), (10, 9, 2), (8, 3, 1),
                                          recovery=("Bob", "Rope burns")))
    journal.execute(CAMPAIGN, CloseScene())
    journal.execute(CAMPAIGN, HaveRefreshment("Bob", partner="Abigail", escalation="Pirates."))
    journal.execute(CAMPAIGN, AwardXp("Bob", "The lost heir", "progresses"))
    journal.execute(CAMPAIGN, SpendAdvance("Bob", "new-key", "Revenge", framework="motivation"))
    journal.execute(CAMPAIGN, RecordRuling("Three sides: pairwise rolls."))
    report = verify(journal.store.read(CAMPAIGN), CAMPAIGN)
    assert report.ok, report.faults


def test_state_snapshots_read_back_equal_to_the_replay():
    """A state snapshot (the codec's whitelist: the state and rules packages) reads back as the replay."""
    from yarnlog.app.journal import Journal

    journal = table()
    roll(journal, uses_a=("Knots", "Bob:Proud"), fa=(9, 8, 7, 3, 1))
    journal.execute(CAMPAIGN, CreateSceneDescriptor("Bob is tied up", about="Bob"))
    journal.execute(CAMPAIGN, TakeHarm("Bob", injury_instead=True, injury_name="Rope burns"))
    journal.execute(CAMPAIGN, AwardXp("Bob", "The lost heir", "progresses"))
    fresh = Journal(journal.store, snapshot_every=1)
    replayed = fresh.state(CAMPAIGN)
    journal.execute(CAMPAIGN, RecordRuling("A ruling after the snapshot."))
    again = Journal(journal.store, snapshot_every=1).state(CAMPAIGN)
    assert again.rules == Journal(journal.store).state(CAMPAIGN, upto=again.sequence).rules
    assert replayed.rules.characters == again.rules.characters
    checks = fresh.check_snapshots(CAMPAIGN)
    assert checks and {c.status for c in checks} == {"agrees"}, checks


def test_an_injury_used_against_its_owner_gives_the_owner_will(journal):
    """W19, line 12: "An Injury works just like a Scene Descriptor that's stuck to a character"; so W6, line 4:
    "When one of your Descriptors is used against you in this way, add one to your Will." (reading 9)."""
    roll(journal, uses_a=("Knots", "Strong"), fa=(9, 8, 7, 3, 1))
    journal.execute(CAMPAIGN, TakeHarm("Bob", injury_instead=True, injury_name="Rope burns"))
    [made] = roll(journal, uses_a=("Bob:Rope burns",), fa=(6, 5, 4), fb=(9, 1))
    assert [(c.kind, c.dice, c.payer) for c in made.payload.a.contributions] == [("injury", 3, "Christopher")]
    assert (made.payload.winner, made.payload.successes) == ("b", 1)  # 9 beats the TN 6
    assert rules(journal).characters["Bob"].will == 9 - 1 - 1 + 1


def test_a_recovery_roll_the_injury_wins_changes_nothing(journal):
    """Reading 10: if the Injury wins nothing happens ("Injuries don't have Power tracks", line 12)."""
    roll(journal, uses_a=("Knots", "Strong"), fa=(9, 8, 7, 3, 1))
    journal.execute(CAMPAIGN, TakeHarm("Bob", injury_instead=True, injury_name="Rope burns"))
    [made] = journal.execute(CAMPAIGN, OpposedRoll("Bob", None, ("Slippery",), (), (5, 2), (8, 3, 1),
                                                   recovery=("Bob", "Rope burns")))
    assert made.payload.winner == "b" and made.payload.movements[0].character == "Bob"
    assert rules(journal).characters["Bob"].injuries == {"Rope burns": 3}
    with pytest.raises(InvalidCommand, match="Recovery roll harms nobody"):
        journal.execute(CAMPAIGN, TakeHarm("Bob"))
