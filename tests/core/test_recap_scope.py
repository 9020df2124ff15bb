"""One ``Scope`` (which part of the series a recap tells) for every ruleset's recap."""

from __future__ import annotations

import importlib

from yarnlog.core.scope import Scope


def test_every_recap_takes_the_cores_scope():
    for module in ("yarnlog.rulesets.yarn.recap", "yarnlog.rulesets.dramasystem.recap",
                   "yarnlog.rulesets.dramatis_personae.recap"):
        assert importlib.import_module(module).Scope is Scope, module


def test_a_scope_holds_its_span_and_only_numbered_things():
    assert Scope().has_episode(3) and Scope().has_scene(1) and Scope().whole_episodes
    two = Scope(episodes=(2, 3), label="episodes 2-3")
    assert two.has_episode(2) and two.has_episode(3) and not two.has_episode(1) and not two.has_episode(4)
    scenes = Scope(scenes=(4, None))
    assert scenes.has_scene(9) and not scenes.has_scene(3) and not scenes.whole_episodes
    assert not Scope().has_episode(None)
