"""yarnlog: the journal of a tabletop role-playing campaign, kept as an append-only event log.

Character sheets, token balances, timelines and recaps are projections rebuilt by replaying
the log; nothing the user sees is stored as mutable state.
"""

__version__ = "0.1.0"
