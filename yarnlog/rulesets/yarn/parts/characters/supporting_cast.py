"""The cast around Yarn's player characters, and the order of the players: the shared core's
(:mod:`yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast`), recorded under Yarn's prefix.

This is one half of the ``characters`` part: :mod:`.part` composes it with the player characters,
so its state is ``campaign.rules.characters.cast``. The core's names are re-exported here.
"""

from __future__ import annotations

from yarnlog.rulesets.yarn.parts.dramatic_side import CAST

__all__ = ["CAST", "COMMANDS", "VALIDATORS", "check_new_character_name", "require_active_pc", "validate_location"]

COMMANDS = CAST.COMMANDS
VALIDATORS = CAST.VALIDATORS
check_new_character_name = CAST.check_new_character_name
require_active_pc = CAST.require_active_pc
validate_location = CAST.validate_location

