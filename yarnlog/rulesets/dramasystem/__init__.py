"""The DramaSystem SRD (Robin D. Laws) ruleset: its journal seam.

A campaign of this ruleset shares the journal's own events (participants, episodes, scenes,
notes, corrections); the system's rolls and economy are not modelled yet, so it adds no
event types of its own.
"""

from yarnlog.core.ruleset import Ruleset

RULESET = Ruleset(
    name="dramasystem",
    title="DramaSystem SRD (Robin D. Laws)",
    book="001_d92eeb8e25f80b6a.txt",
    event_prefix="dramasystem",
)
