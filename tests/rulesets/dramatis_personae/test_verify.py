"""``verify`` re-derives every Dramatis Personae roll with the validator that decided it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from yarnlog.app.journal import Journal
from yarnlog.app.rolling import execute_rolling
from yarnlog.app.verify import verify
from yarnlog.core.table import AddParticipant
from yarnlog.core.validation import problems
from yarnlog.persistence.memory import MemoryStore
from yarnlog.rulesets.dramatis_personae.parts.characters import CreateCharacter
from yarnlog.rulesets.dramatis_personae.parts.ledger import StartAdventure
from yarnlog.rulesets.dramatis_personae.parts.rolls import RollChallenge, RollContest, RollInput, validate_challenge
from yarnlog.rulesets.dramatis_personae.rules.difficulty import Tier

from .conftest import CAMPAIGN


def test_a_total_recorded_otherwise_than_the_faces_give_is_a_fault(journal):
    before = journal.state(CAMPAIGN)
    [recorded] = journal.execute(CAMPAIGN, RollChallenge(RollInput("Faust", faces=(6, 5, 1)), difficulty="Typical"))
    p = recorded.payload
    assert problems(validate_challenge, p, before) == []
    forged = p.model_copy(update={"roll": p.roll.model_copy(update={"total": 18, "kept": [6, 6, 6]})})
    found = problems(validate_challenge, forged, before)
    assert any("total is recorded as" in f or "roll is recorded as" in f for f in found), found
    lucky = p.model_copy(update={"tier": Tier.CRITICAL_SUCCESS})
    assert any("tier" in f for f in problems(validate_challenge, lucky, before))


def _table() -> Journal:
    journal = Journal(MemoryStore())
    journal.create_campaign(CAMPAIGN, title="T", gm="Maya", ruleset="dramatis-personae")
    journal.execute(CAMPAIGN, AddParticipant(name="Ana"))
    journal.execute(CAMPAIGN, AddParticipant(name="Ben"))
    journal.execute(CAMPAIGN, CreateCharacter(name="Faust", player="Ana", level=2, strengths=("Magic", "Wit")))
    journal.execute(CAMPAIGN, CreateCharacter(name="Bryn", player="Ben", level=1, strengths=("Melee",)))
    journal.execute(CAMPAIGN, StartAdventure("A"))
    return journal


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), moves=st.lists(st.tuples(st.integers(-6, 6), st.integers(0, 5),
                                                             st.booleans()), min_size=1, max_size=6))
def test_every_roll_the_tool_makes_verifies(seed, moves):
    journal = _table()
    rng = random.Random(seed)
    for i, (gm_dice, pool, melee) in enumerate(moves):
        mods = (("gm", "circumstances", gm_dice),) if gm_dice else ()
        if melee:
            command = RollContest((RollInput("Bryn", attributes=(("Melee", "precise"),), modifiers=mods, pool=pool),
                                   RollInput("Faust")), melee=True, fight=f"fight {i}")
        else:
            command = RollChallenge(RollInput("Faust", attributes=(("Magic", "related"),), modifiers=mods, pool=pool),
                                    difficulty=str(rng.randint(4, 18)))
        execute_rolling(journal, CAMPAIGN, command, rng=rng)
    assert verify(journal.store.read(CAMPAIGN), CAMPAIGN).ok
