"""The generic layers name no ruleset: a system is found through its entry point, never by name.

Every installed ruleset's name (``will-descriptors`` also as ``will_descriptors``, ``Will & Descriptors``)
and every package under ``yarnlog/rulesets/`` is searched for in the sources of ``core``, ``app``,
``cli``, ``render`` and ``persistence``, docstrings and help texts included."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import yarnlog
import yarnlog.rulesets
from yarnlog.core.installed import RULESETS
from yarnlog.core.referee import InvalidCommand
from yarnlog.core.ruleset import Ruleset, RulesetError, default_ruleset

GENERIC = ("core", "app", "cli", "render", "persistence")


def _ruleset_names() -> set[str]:
    packages = Path(yarnlog.rulesets.__file__).parent
    return set(RULESETS) | {p.name for p in packages.iterdir() if (p / "__init__.py").exists()}


def _pattern(name: str) -> re.Pattern[str]:
    """``name`` as words, any case, any of - _ & or a space between them, not inside a longer word
    (``yarnlog`` is not ``yarn``)."""
    words = r"[-_ &]*".join(re.escape(word) for word in re.split(r"[-_]", name))
    return re.compile(rf"(?<![a-z]){words}(?![a-z])", re.IGNORECASE)


def test_no_generic_module_names_an_installed_ruleset():
    patterns = [_pattern(name) for name in sorted(_ruleset_names())]
    root = Path(yarnlog.__file__).parent
    found = [f"{path.relative_to(root.parent)}:{number}: {line.strip()}"
             for package in GENERIC for path in sorted((root / package).rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if any(pattern.search(line) for pattern in patterns)]
    assert found == []


def test_the_scan_would_see_a_name():
    assert _pattern("will-descriptors").search("Will & Descriptors' sheet")
    assert _pattern("yarn").search("Yarn's bennie vote") and _pattern("yarn").search("yarn.roll.made")
    assert not _pattern("yarn").search("yarnlog.core")


def test_the_default_system_is_the_one_that_claims_it():
    claims = [name for name in RULESETS if _ruleset(name).default]
    assert len(claims) == 1 and default_ruleset() == claims[0]


def _ruleset(name: str) -> Ruleset:
    from yarnlog.core.ruleset import get_ruleset

    return get_ruleset(name)


def _installed(monkeypatch: pytest.MonkeyPatch, **rulesets: Ruleset) -> None:
    monkeypatch.setattr("yarnlog.core.ruleset.RULESETS", dict.fromkeys(rulesets, "x:RULESET"))
    monkeypatch.setattr("yarnlog.core.ruleset.get_ruleset", rulesets.__getitem__)


def test_one_ruleset_installed_is_the_default(monkeypatch):
    _installed(monkeypatch, solo=Ruleset(name="solo", title="Solo", book="b"))
    assert default_ruleset() == "solo"


def test_two_rulesets_claiming_the_default_is_an_error(monkeypatch):
    _installed(monkeypatch, a=Ruleset(name="a", title="A", book="b", default=True),
               b=Ruleset(name="b", title="B", book="b", default=True))
    with pytest.raises(RulesetError, match="a and b each claim to be the default"):
        default_ruleset()


def test_none_claiming_it_asks_for_one(monkeypatch):
    _installed(monkeypatch, a=Ruleset(name="a", title="A", book="b"), b=Ruleset(name="b", title="B", book="b"))
    with pytest.raises(InvalidCommand, match=r"name one with --ruleset \(a, b\)"):
        default_ruleset()


def test_a_campaign_created_without_a_ruleset_plays_the_default(journal):
    journal.create_campaign("plain", title="Plain", gm="Maya")
    assert journal.state("plain").ruleset.name == default_ruleset()
