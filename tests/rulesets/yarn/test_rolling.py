"""Randomness at the edge: deciding never rolls; the shell rolls once and retries reuse the faces."""

from __future__ import annotations

import random

import pytest

from yarnlog.app.journal import Journal
from yarnlog.app.rolling import execute_rolling
from yarnlog.core.referee import DiceNeeded
from yarnlog.persistence.protocol import ConcurrencyConflict
from yarnlog.rulesets.yarn.parts.procedure.dice_facts import throw
from yarnlog.rulesets.yarn.parts.procedure.roll_records import Factor, Hands, InertForce, MakeRoll
from yarnlog.rulesets.yarn.rules.dice import NO_OPTIONS, RollSpec

from .test_procedure import start


class ConflictOnce:
    """A store that refuses the first append as if another writer got there first, keeping what it was offered."""

    def __init__(self, store):
        self.store, self.refused = store, None

    def __getattr__(self, name):
        return getattr(self.store, name)

    def append(self, campaign_id, expected, events):
        if self.refused is None:
            self.refused = [e.payload for e in events]
            raise ConcurrencyConflict(campaign_id, expected, expected + 1)
        return self.store.append(campaign_id, expected, events)


def test_deciding_without_faces_asks_for_the_dice_and_writes_nothing(journal):
    cid = start(journal)
    before = journal.store.last_sequence(cid)
    with pytest.raises(DiceNeeded) as asked:
        journal.execute(cid, MakeRoll(Hands("Iris", "Tough"), bonus=1))
    assert (asked.value.roll, asked.value.dice, asked.value.sides) == ("roll", 5, 6)  # Tough 4 and a bonus die
    assert journal.store.last_sequence(cid) == before


def test_a_retried_decision_reuses_the_faces_rolled_once(journal):
    cid = start(journal)
    retrying = Journal(ConflictOnce(journal.store), clock=journal.clock)
    command = MakeRoll(Hands("Iris", "Tough"), against=InertForce(2))
    [made] = execute_rolling(retrying, cid, command, rng=random.Random(11))
    refused = retrying.store.refused[0]
    assert refused is not None  # the first attempt met a conflict and was decided again
    stored = made.payload
    assert stored.dice.faces == refused["dice"]["faces"] and stored.dice.source == "rolled"
    assert stored.against.dice.faces == refused["against"]["dice"]["faces"]
    rng = random.Random(11)  # rolled once each, in the order asked: the roll, then the inert force
    assert list(stored.dice.faces) == list(throw(RollSpec(4), NO_OPTIONS, rng)[0])
    assert list(stored.against.dice.faces) == list(throw(RollSpec(2), NO_OPTIONS, rng)[0])


def test_entered_faces_need_no_dice_from_the_tool(journal):
    cid = start(journal)
    [made] = execute_rolling(journal, cid, MakeRoll(Hands("Iris", "Tough"), against=Factor(7), faces=(6, 5, 2, 1)),
                             rng=random.Random(0))
    assert made.payload.dice.source == "entered" and made.payload.dice.faces == [6, 5, 2, 1]


def test_a_roll_sent_again_gets_back_its_first_dice_and_rolls_none(journal):
    cid = start(journal)
    roll = MakeRoll(Hands("Iris", "Tough"), against=InertForce(2))
    [first] = execute_rolling(journal, cid, roll, rng=random.Random(1), command_id="roll-1")
    head = journal.store.last_sequence(cid)
    again = execute_rolling(journal, cid, roll, rng=random.Random(2), command_id="roll-1")
    assert again.already_recorded and again == [first]
    assert journal.store.last_sequence(cid) == head
    [other] = execute_rolling(journal, cid, roll, rng=random.Random(2), command_id="roll-2")
    assert other.sequence == head + 1
