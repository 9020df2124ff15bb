"""The ruleset contract suite's fixtures: each installed ruleset, and its session played once."""

from __future__ import annotations

import pytest

from .playing import ROOT, Played, installed_rulesets, material, material_path, play


@pytest.fixture(scope="session")
def _sessions(tmp_path_factory) -> dict[str, Played]:
    return {}


@pytest.fixture(params=installed_rulesets())
def ruleset(request) -> str:
    """Each installed ruleset's name; a ruleset that supplies no contract material is skipped."""
    name = request.param
    if material(name) is None:
        pytest.skip(f"the {name} ruleset supplies no contract material ({material_path(name).relative_to(ROOT)})")
    return name


@pytest.fixture
def played(ruleset, _sessions, tmp_path_factory) -> Played:
    """``ruleset``'s session, played once per test run."""
    if ruleset not in _sessions:
        _sessions[ruleset] = play(ruleset, tmp_path_factory.mktemp(f"contract-{ruleset}"))
    return _sessions[ruleset]
