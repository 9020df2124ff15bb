"""The Dramatis Personae (Stephen Scholz) ruleset: its journal seam.

A campaign of this ruleset shares the journal's own events (participants, episodes, scenes,
notes, corrections); the system's rolls and economy are not modelled yet, so it adds no
event types of its own.
"""

from yarnlog.core.ruleset import Ruleset

RULESET = Ruleset(
    name="dramatis-personae",
    title="Dramatis Personae (Stephen Scholz)",
    book="002_7af0b39949a564d4.txt",
)
