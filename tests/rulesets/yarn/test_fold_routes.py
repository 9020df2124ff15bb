"""Yarn routes each event only to the parts (and drama modules) that declare its type in their ``folds``.

``conftest.py`` checks the routing on every event any test folds (``fold_routes.py``); here it is
checked on the sample campaign, whose events exercise every part, and the check is shown to bite.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from fold_routes import Undeclared, checking_evolve, unrouted_changes

from yarnlog.app.interchange import parse_lines
from yarnlog.core.composition import EVERY_EVENT, Folds, Router, folds
from yarnlog.core.envelope import to_recorded
from yarnlog.core.state import with_context
from yarnlog.core.table import CampaignCreated
from yarnlog.core.timeline import Note, SceneOpened
from yarnlog.rulesets.yarn import ruleset as yarn
from yarnlog.rulesets.yarn.parts.drama import part as drama
from yarnlog.rulesets.yarn.parts.economy.part import EVENTS

TokensTransferred = EVENTS.transferred

SAMPLE = Path(__file__).resolve().parents[3] / "journals" / "lantern-harbor.jsonl"


def sample_history():
    records = parse_lines(SAMPLE.read_text(encoding="utf-8").splitlines())
    return with_context([to_recorded(r) for r in records])


def test_the_check_is_installed_for_every_test():
    assert yarn.RULESET.rules.evolve is checking_evolve


def test_no_part_of_the_sample_campaign_folds_an_undeclared_type():
    history = sample_history()
    state = yarn.initial_state()
    for recorded in history:
        assert unrouted_changes(state, recorded) == [], recorded.event_type
        state = yarn.evolve(state, recorded)


def test_every_part_declares_what_it_folds_and_none_sees_every_event():
    # The drama part used to see every event to clear its mark of a scene awaiting its Yarn call;
    # that scene is now worked out from the state (scene_calls.pending_call).
    assert all(isinstance(part.folds, Folds) for part in yarn.PARTS)
    assert [part.name for part in yarn.PARTS if part.folds.every_event] == []
    assert not any(module.FOLDS.every_event for module in drama.MODULES)


def test_a_note_reaches_no_part_and_a_transfer_only_the_economy():
    assert [part.name for part in yarn.ROUTE(Note)] == []
    assert [part.name for part in yarn.ROUTE(TokensTransferred)] == ["economy"]
    assert yarn.ROUTE(SceneOpened) == (yarn.PARTS[2],)


def test_folds_name_types_fields_or_every_event():
    assert folds(SceneOpened).handles(SceneOpened) and not folds(SceneOpened).handles(Note)
    assert folds(carrying=["transfers"]).handles(TokensTransferred)
    assert not folds(carrying=["transfers"]).handles(Note)
    assert EVERY_EVENT.handles(Note)
    both = folds(Note) | folds(carrying=["transfers"])
    assert both.handles(Note) and both.handles(TokensTransferred) and not both.handles(SceneOpened)
    route = Router([(folds(Note), "a"), (EVERY_EVENT, "b"), (folds(SceneOpened), "c")])
    assert route(Note) == ("a", "b") and route(SceneOpened) == ("b", "c") and route(CampaignCreated) == ("b",)


def test_the_check_names_a_part_that_folds_a_type_it_does_not_declare(monkeypatch):
    history = sample_history()
    economy = yarn.PARTS[0]
    blind = replace(economy, folds=folds())  # the economy part, declaring nothing
    monkeypatch.setattr(yarn, "PARTS", (blind, *yarn.PARTS[1:]))
    monkeypatch.setattr(yarn, "ROUTE", Router((part.folds, part) for part in yarn.PARTS))
    with pytest.raises(Undeclared, match="part economy fold yarn"):
        state = yarn.initial_state()
        for recorded in history:
            state = checking_evolve(state, recorded)
