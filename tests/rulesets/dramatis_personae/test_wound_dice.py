"""Others' dice on the wound roll after a melee (line 221): "The GM can apply any opponent penalty dice
to that roll as fits the story. Players can apply bonus dice to the rolls of themselves or their
opponents." A player's saved bonus dice are spent from that character's saved dice (DP37); the GM's
opponent penalty dice are checked against those the opponent holds from the fight, with the ruling."""

from __future__ import annotations

import json

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.referee import Override, RuleViolation
from yarnlog.core.validation import problems
from yarnlog.rulesets.dramatis_personae.parts.ledger import AwardDice
from yarnlog.rulesets.dramatis_personae.parts.rolls import (
    OPPONENT_DICE_RULING,
    RollChallenge,
    RollContest,
    RollInput,
    validate_challenge,
)
from yarnlog.rulesets.dramatis_personae.rules.odds import tier_odds

from .conftest import CAMPAIGN
from .test_cli import SETUP


@pytest.fixture
def table(cli):
    for args in SETUP:
        code, _, err = cli(*args)
        assert code == 0, (args, err)
    return cli


def _both_hold_a_die(journal):
    """Two partial successes, one each way: Faust and Bryn each hold 1 penalty die (DP27, reading 7)."""
    journal.execute(CAMPAIGN, RollContest((RollInput("Bryn", faces=(6, 5, 4)), RollInput("Faust", faces=(6, 5, 3))),
                                          melee=True, fight="yard"))
    journal.execute(CAMPAIGN, RollContest((RollInput("Bryn", faces=(6, 5, 4)),
                                           RollInput("Faust", faces=(6, 6, 6, 5))), melee=True, fight="yard"))
    assert journal.state(CAMPAIGN).rules.rolls.fights["yard"].held == {"Faust": 1, "Bryn": 1}


def _wound(lent=(), opposed=(), faces=(6, 5, 4), ruling=""):
    return RollChallenge(RollInput("Faust", faces=faces), kind="wound", fight="yard", lent=lent, opposed=opposed,
                         ruling=ruling)


def test_a_spend_of_saved_dice_not_held_is_refused_and_nothing_is_written(journal):
    _both_hold_a_die(journal)
    before = len(journal.store.read(CAMPAIGN))
    with pytest.raises(RuleViolation) as refused:
        journal.execute(CAMPAIGN, _wound(lent=(("bryn", 2),), faces=(6, 5, 4, 3)))
    assert "Bryn's saved bonus dice: 2 spent, 0 held" in str(refused.value) and "DP37" in str(refused.value)
    assert len(journal.store.read(CAMPAIGN)) == before
    journal.execute(CAMPAIGN, _wound(lent=(("Bryn", 2),), faces=(6, 5, 4, 3)), override=Override("Maya", "so be it"))
    assert len(journal.store.read(CAMPAIGN)) > before


def test_an_opponents_dice_beyond_those_held_are_refused(journal):
    _both_hold_a_die(journal)
    before = len(journal.store.read(CAMPAIGN))
    with pytest.raises(RuleViolation, match="Bryn's penalty dice: 2 applied, 1 held"):
        journal.execute(CAMPAIGN, _wound(opposed=(("Bryn", 2),), faces=(6, 5, 4, 3, 2, 1)))
    assert len(journal.store.read(CAMPAIGN)) == before


def test_lent_and_opposed_dice_count_in_the_roll_the_odds_and_the_ledger(journal):
    _both_hold_a_die(journal)
    journal.execute(CAMPAIGN, AwardDice("Bryn", "good", 3, "mercy"))
    # Faust holds 1 (-1), Bryn's player lends 2 saved dice (+2), the GM applies Bryn's 1 held die (-1): 3d6
    [recorded] = journal.execute(CAMPAIGN, _wound(lent=(("Bryn", 2),), opposed=(("Bryn", 1),), faces=(2, 2, 1)))
    p = recorded.payload
    assert (p.roll.net, p.roll.total, p.wound) == (0, 5, "disabled")  # line 221: "5-, the character is disabled"
    assert p.odds == {tier.value: str(chance) for tier, chance in tier_odds(0, 11).items()}
    assert p.lent == {"Bryn": 2} and p.opposed == {"Bryn": 1} and p.ruling == OPPONENT_DICE_RULING
    assert "line 221" in p.ruling
    ledger = journal.state(CAMPAIGN).rules.ledger
    assert ledger.balance("Bryn").good == 1
    spent = [m for m in ledger.movements if m.sequence == recorded.sequence and m.character == "Bryn"]
    assert [(m.balance, m.change, m.rule) for m in spent] == [("good", -2, "DP37, line 63")]
    assert verify(journal.store.read(CAMPAIGN), CAMPAIGN).ok


def test_verify_rechecks_the_others_dice(journal):
    _both_hold_a_die(journal)
    journal.execute(CAMPAIGN, AwardDice("Bryn", "good", 1, "mercy"))
    before = journal.state(CAMPAIGN)
    [recorded] = journal.execute(CAMPAIGN, _wound(lent=(("Bryn", 1),), faces=(6, 5, 4)))
    p = recorded.payload
    assert problems(validate_challenge, p, before) == []
    more = p.model_copy(update={"lent": {"Bryn": 3}})
    assert any("Bryn's saved bonus dice" in f for f in problems(validate_challenge, more, before))
    held = p.model_copy(update={"opposed": {"Bryn": 4}, "ruling": "as fits the story"})
    assert any("Bryn's penalty dice" in f for f in problems(validate_challenge, held, before))
    assert "lent" not in _wound_free_data(journal)


def _wound_free_data(journal):
    """A wound roll without others' dice stores no new keys: older events are unchanged."""
    [recorded] = journal.execute(CAMPAIGN, RollChallenge(RollInput("Faust", faces=(6, 5, 4, 3)), kind="wound",
                                                         fight="yard"))
    return recorded.payload.to_data()


def test_the_cli_takes_saved_of_and_opponent(table):
    for move in (("melee", "Bryn", "Faust", "--fight", "yard", "--faces", "Bryn=6,5,4", "--faces", "Faust=6,5,3"),
                 ("melee", "Bryn", "Faust", "--fight", "yard", "--faces", "Bryn=6,5,4", "--faces",
                  "Faust=6,6,6,5"),
                 ("award", "Bryn", "2", "--reason", "mercy")):
        code, _, err = table(*move)
        assert code == 0, (move, err)
    code, out, err = table("wound", "Faust", "--fight", "yard", "--saved-of", "Bryn=3", "--faces", "6,5,4,3,2")
    assert code != 0 and len(err.strip().splitlines()[0]) <= 80 and "(DP37)" in err, err
    code, out, err = table("wound", "Faust", "--fight", "yard", "--saved-of", "Bryn=2", "--opponent", "Bryn=1",
                           "--ruling", "Bryn's blows told", "--faces", "6,5,4", "--json")
    assert code == 0, err
    payload = json.loads(out)[0]["payload"]
    assert (payload["lent"], payload["opposed"], payload["ruling"]) == ({"Bryn": 2}, {"Bryn": 1}, "Bryn's blows told")
    code, out, _ = table("ledger", "--character", "Bryn", "--json")
    assert [r["change"] for r in json.loads(out) if r["rule"] == "DP37, line 63" and r["change"] < 0] == [-2]
    assert table("verify")[0] == 0


def test_the_sentence_names_the_others_dice(journal):
    from yarnlog.rulesets.dramatis_personae.words import narrate

    _both_hold_a_die(journal)
    journal.execute(CAMPAIGN, AwardDice("Bryn", "good", 1, "mercy"))
    [recorded] = journal.execute(CAMPAIGN, _wound(lent=(("Bryn", 1),), opposed=(("Bryn", 1),), faces=(6, 5, 4, 3)))
    told = narrate(recorded, journal.state(CAMPAIGN)) or ""
    assert "Bryn's player spends 1 saved bonus die" in told and "The GM applies 1 penalty die Bryn holds" in told


def test_only_the_gm_applies_an_opponents_penalty_dice(table):
    # line 221: "The GM can apply any opponent penalty dice to that roll": a player recording it is refused,
    # in one line, and nothing is written; the same roll without the opponent's dice is the player's to record
    for move in (("melee", "Bryn", "Faust", "--fight", "yard", "--faces", "Bryn=6,5,4", "--faces", "Faust=6,5,3"),
                 ("melee", "Bryn", "Faust", "--fight", "yard", "--faces", "Bryn=6,5,4", "--faces",
                  "Faust=6,6,6,5")):
        assert table(*move)[0] == 0
    before = json.loads(table("log", "--json")[1])
    code, _, err = table("wound", "Faust", "--fight", "yard", "--opponent", "Bryn=1", "--by", "Ana")
    assert code != 0 and "the GM's" in err and len(err.strip().splitlines()) == 1, err
    assert len(err.strip()) <= 80
    assert json.loads(table("log", "--json")[1]) == before
    assert table("wound", "Faust", "--fight", "yard", "--by", "Ana")[0] == 0
    assert table("verify")[0] == 0
