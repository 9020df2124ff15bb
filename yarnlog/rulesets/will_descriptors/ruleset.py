"""Will & Descriptors (draft): the composition of its parts."""

from __future__ import annotations

from yarnlog.core.ruleset import Ruleset

RULESET = Ruleset(
    name="will-descriptors",
    title="Will & Descriptors (draft)",
    book="004_6e81f54c2e20d842.txt",
    event_prefix="will-descriptors",
)
