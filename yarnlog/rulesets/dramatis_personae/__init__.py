"""Dramatis Personae (Stephen Scholz): 3d6 keep three, the level² dice pool and dice debt, melee, levels."""
