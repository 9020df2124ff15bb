"""Dramatis Personae (Stephen Scholz): the composition of its parts."""

from __future__ import annotations

from yarnlog.core.ruleset import Ruleset

RULESET = Ruleset(
    name="dramatis-personae",
    title="Dramatis Personae (Stephen Scholz)",
    book="002_7af0b39949a564d4.txt",
    event_prefix="dramatis-personae",
)
