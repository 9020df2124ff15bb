"""Shared checks that a rule or a journal refuses a move (and, for a journal, records nothing)."""

from __future__ import annotations

import pytest

from yarnlog.core.referee import InvalidCommand, RuleViolation


def refused_by(rule, call) -> RuleViolation:
    """``call()`` breaks ``rule``."""
    with pytest.raises(RuleViolation) as caught:
        call()
    assert caught.value.rule == rule
    return caught.value


def refused(journal, cid: str, command, rule=None, match: str | None = None, **kw):
    """The command is refused (by ``rule``, or as nonsense matching ``match``) and the journal is unchanged."""
    before = journal.store.last_sequence(cid)
    with pytest.raises(InvalidCommand if rule is None else RuleViolation, match=match) as caught:
        journal.execute(cid, command, **kw)
    if rule is not None:
        assert caught.value.rule == rule, caught.value
    assert journal.store.last_sequence(cid) == before
    return caught.value


def rejected(journal, cid: str, command, match: str) -> None:
    """Nonsense input: refused, not overridable, the journal unchanged."""
    refused(journal, cid, command, match=match)
