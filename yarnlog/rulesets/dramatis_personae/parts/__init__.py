"""Dramatis Personae's parts: characters, the ledger of dice, and the rolls (challenges, contests, melee)."""
