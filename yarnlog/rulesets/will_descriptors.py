"""The Will & Descriptors (draft) ruleset: its journal seam.

A campaign of this ruleset shares the journal's own events (participants, episodes, scenes,
notes, corrections); the system's rolls and economy are not modelled yet, so it adds no
event types of its own.
"""

from yarnlog.core.ruleset import Ruleset

RULESET = Ruleset(
    name="will-descriptors",
    title="Will & Descriptors (draft)",
    book="004_6e81f54c2e20d842.txt",
)
