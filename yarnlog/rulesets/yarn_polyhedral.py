"""The Yarn (polyhedral) ruleset: its journal seam.

A campaign of this ruleset shares the journal's own events (participants, episodes, scenes,
notes, corrections); the system's rolls and economy are not modelled yet, so it adds no
event types of its own.
"""

from yarnlog.core.ruleset import Ruleset

RULESET = Ruleset(
    name="yarn-polyhedral",
    title="Yarn (polyhedral)",
    book="003_e72cdbaaf570012c.txt",
)
