"""A ruleset's pages are ``PAGES`` in the ``pages`` module beside its ruleset module, found the way its
verbs are (``VERBS`` in its ``cli`` module): no entry-point group of their own."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

from yarnlog.core.installed import RULESETS, module_beside
from yarnlog.web.pages import BASIC, Pages, pages_for


def test_each_rulesets_pages_are_found_beside_it():
    for name in RULESETS:
        module = module_beside(name, "pages")
        expected = BASIC if module is None else importlib.import_module(module).PAGES
        assert isinstance(expected, Pages) and pages_for(name) is expected
        if module is not None:
            assert module == RULESETS[name].split(":")[0].rpartition(".")[0] + ".pages"
    assert {name for name in RULESETS if pages_for(name) is not BASIC} >= {"yarn", "dramasystem"}


def test_a_ruleset_not_installed_gets_the_basic_pages():
    assert pages_for("no-such-system") is BASIC


def test_pages_have_no_entry_point_group():
    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    # the rulesets, and the default's claim named again (core.installed.DEFAULT_GROUP): no group for pages
    assert set(pyproject["project"]["entry-points"]) == {"yarnlog.rulesets", "yarnlog.default_ruleset"}
