"""Invitations to the players' page are the journal's own events: a GM gives a participant a link
whose secret is recorded only as its hash, a new one replaces the old, a revocation closes it."""

from __future__ import annotations

import pytest

from yarnlog.core.invites import IssueInvite, RevokeInvite, secret_hash
from yarnlog.core.referee import InvalidCommand
from yarnlog.core.table import RemoveParticipant


def test_an_invite_records_the_hash_never_the_secret(journal, campaign):
    secret = "s3cret-link-value-for-ana"
    recorded = journal.execute(campaign, IssueInvite("Ana", secret_hash(secret), "Maya"), visibility="gm")
    assert [r.event_type for r in recorded] == ["invite.issued"]
    stored = journal.export_lines(campaign)
    assert secret not in "".join(stored)
    assert secret_hash(secret) in "".join(stored)
    assert journal.state(campaign).table.invites == {"Ana": secret_hash(secret)}


def test_a_new_invite_replaces_the_old_and_a_revocation_closes_it(journal, campaign):
    journal.execute(campaign, IssueInvite("Ana", secret_hash("one"), "Maya"))
    journal.execute(campaign, IssueInvite("Ana", secret_hash("two"), "Maya"))
    assert journal.state(campaign).table.invites == {"Ana": secret_hash("two")}
    journal.execute(campaign, RevokeInvite("Ana", "Maya"))
    assert journal.state(campaign).table.invites == {}


def test_only_a_gm_invites_someone_at_the_table(journal, campaign):
    with pytest.raises(InvalidCommand, match="only a GM"):
        journal.execute(campaign, IssueInvite("Ana", secret_hash("x"), "Ben"))
    with pytest.raises(InvalidCommand, match="not at the table"):
        journal.execute(campaign, IssueInvite("Zed", secret_hash("x"), "Maya"))
    with pytest.raises(InvalidCommand, match="no open link"):
        journal.execute(campaign, RevokeInvite("Ana", "Maya"))


def test_a_participant_who_leaves_keeps_no_link(journal, campaign):
    journal.execute(campaign, IssueInvite("Cy", secret_hash("cy"), "Maya"))
    journal.execute(campaign, RemoveParticipant("Cy"))
    assert journal.state(campaign).table.invites == {}


def test_verify_rechecks_invites(journal, campaign):
    journal.execute(campaign, IssueInvite("Ana", secret_hash("a"), "Maya"), visibility="gm")
    journal.execute(campaign, RevokeInvite("Ana", "Maya"), visibility="gm")
    assert journal.verify(campaign).ok
