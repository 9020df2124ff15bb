"""Yarn 0.1 (Mark Caldwell, 2014): DramaSystem and WaRP mashed together. The default ruleset."""

from __future__ import annotations

from yarnlog.ruleset import Ruleset

BOOK = "Yarn 0.1"

RULESET = Ruleset(
    name="yarn",
    title="Yarn 0.1",
    book="000_548678c832322f1b.txt",
    event_prefix="yarn",
    options={
        "botch": "Optional Procedural Rules: Botch",
        "blowing_the_top_off": "Optional Procedural Rules: Blowing the Top Off",
        "unstoppable_six": "Optional Procedural Rules: The Unstoppable Six",
        "multiple_experience_dice": "Your Experience Pool: more than one experience die on a roll, each justified",
        "desperate_defense": "Optional Rules for Combat: Desperate Defense",
        "alternate_damage": "Optional Rules for Combat: Alternate Damage",
        "serious_wounds": "Optional Rules for Combat: Serious Wounds",
    },
)
