"""The economy part: every token and bennie movement is a ledger entry with its event, scene and rule."""

from __future__ import annotations

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.corrections import effective
from yarnlog.core.decide import Retract, audit
from yarnlog.core.referee import InvalidCommand, Override, RuleViolation
from yarnlog.core.table import AddParticipant
from yarnlog.core.timeline import OpenScene, StartEpisode
from yarnlog.rulesets.scenes_and_tokens.parts.economy import KITTY_NAME, TransferLine, TransferTokens, ledger_entries
from yarnlog.rulesets.yarn.parts.economy.part import EVENTS


@pytest.fixture
def scene(journal, campaign):
    journal.execute(campaign, StartEpisode(title="Fog"))
    journal.execute(campaign, OpenScene(caller="Maya", title="Docks"))
    return campaign


def test_a_gm_ruling_moves_tokens_and_the_ledger_says_why(journal, scene):
    recorded = journal.execute(scene, TransferTokens(source="kitty", destination="Ana", amount=2,
                                                     reason="Ana's concession was significant"))[0]
    economy = journal.state(scene).rules.economy
    assert economy.tokens == {"Ana": 2}
    entry = ledger_entries(effective(journal.history(scene)))[-1]  # the ledger is read from the events
    assert (entry.sequence, entry.episode, entry.scene) == (recorded.sequence, 1, 1)
    assert (entry.source, entry.destination, entry.amount, entry.chapter) == ("kitty", "Ana", 2, "Tokens")


def test_spending_tokens_one_does_not_hold_is_refused_and_writes_nothing(journal, scene):
    """Everyone starts each episode with zero tokens ("Tokens")."""
    before = journal.store.last_sequence(scene)
    with pytest.raises(RuleViolation, match="Ana pays 1 drama token but holds 0"):
        journal.execute(scene, TransferTokens(source="Ana", destination="Ben", amount=1, reason="x"))
    assert journal.store.last_sequence(scene) == before


def test_a_gm_override_records_the_rule_set_aside(journal, scene):
    recorded = journal.execute(scene, TransferTokens(source="Ana", destination="Ben", amount=1, reason="loan"),
                               override=Override(by="Maya", reason="Ana will repay next scene"))
    assert [r.event_type for r in recorded] == ["override.recorded", "yarn.tokens.transferred"]
    assert "holds 0" in recorded[0].payload.rules[0].message
    assert journal.state(scene).rules.economy.tokens == {"Ana": -1, "Ben": 1}
    assert verify(journal.store.read(scene), scene).ok


def test_only_a_gm_may_override(journal, scene):
    with pytest.raises(InvalidCommand, match="only a GM may override"):  # the GM's ruling, a player's override
        journal.execute(scene, TransferTokens(source="Ana", destination="Ben", amount=1, reason="x"),
                        by="Maya", override=Override(by="Ana", reason="please"))
    with pytest.raises(InvalidCommand, match="a ruling is the GM's: record it --by Maya, not Ana"):
        journal.execute(scene, TransferTokens(source="Ana", destination="Ben", amount=1, reason="x"),
                        by="Ana", override=Override(by="Ana", reason="please"))


def test_verify_flags_a_payment_forced_in_behind_the_decider(journal, scene):
    line = TransferLine(amount=3, source="Ben", destination="Cy", chapter="Forcing", rule="...")
    journal.commands.append(scene, journal.store.last_sequence(scene),
                            [EVENTS.transferred(transfers=[line], reason="x")], by="Maya", visibility="everyone")
    faults = verify(journal.store.read(scene), scene).faults
    assert len(faults) == 1 and "Ben pays 3 drama tokens but holds 0" in faults[0].problem


def test_retracting_a_grant_that_a_later_spend_relied_on_is_refused(journal, scene):
    grant = journal.execute(scene, TransferTokens(source="kitty", destination="Ana", amount=1, reason="granted"))[0]
    journal.execute(scene, TransferTokens(source="Ana", destination="Ben", amount=1, reason="paid"))
    before = journal.store.last_sequence(scene)
    with pytest.raises(RuleViolation, match="fails: Ana pays 1 drama token but holds 0 ") as refused:
        journal.execute(scene, Retract(sequence=grant.sequence, reason="mistake"))
    assert refused.value.rule.section == "Tokens"  # the rule the later payment would break, in one line
    assert journal.store.last_sequence(scene) == before
    history = journal.history(scene)
    assert audit(history) == []


def test_the_kitty_is_not_a_participant_name(journal, campaign):
    with pytest.raises(InvalidCommand, match="reserved"):
        journal.execute(campaign, AddParticipant(name="Kitty"))


def test_unknown_accounts_are_refused(journal, scene):
    with pytest.raises(InvalidCommand, match="neither at the table nor the kitty"):
        journal.execute(scene, TransferTokens(source=KITTY_NAME, destination="Zed", amount=1, reason="x"))


def test_the_ledger_read_from_the_events_ends_where_the_balances_the_state_keeps_end():
    # The state keeps balances, not the ledger: the movements of the events (amendments applied),
    # summed, give every holding of the sample campaign.
    from .sample_harbor import CID, harbor_journal

    harbor = harbor_journal()
    economy = harbor.state(CID).rules.economy
    held: dict[str, dict[str, int]] = {"drama": {}, "bennie": {}}
    for entry in ledger_entries(effective(harbor.history(CID))):
        side = held[entry.currency]
        side[entry.source] = side.get(entry.source, 0) - entry.amount
        side[entry.destination] = side.get(entry.destination, 0) + entry.amount
    assert {n: v for n, v in held["drama"].items() if v and n != KITTY_NAME} == economy.tokens
    assert {n: v for n, v in held["bennie"].items() if v and n != KITTY_NAME} == economy.bennies
