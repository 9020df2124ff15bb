"""Spell-casting in Yarn 0.1: learning a spell week by week, casting it for a shot, resisting it.

Implements "Appendix: Magic" ("Learning a Spell", "Casting a Spell", "Sample Spells"). Free-form
magic works like fringe powers (see :mod:`yarnlog.rulesets.yarn.fringe_powers`). The GM's
optional restrictions (Intense Study, Rare Talent, Rare Resources) decide who may study at all;
they are hers to apply before a study is recorded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from yarnlog.core.referee import Referee, Rule, invalid
from yarnlog.rulesets.yarn.rules.experience import require_experience
from yarnlog.rulesets.yarn.rules.fringe_powers import FIRST_POWER_SHOTS, PsychicPool, spend_shots
from yarnlog.rulesets.yarn.rules.traits import BOOK, check_d6_faces

APPENDIX = "Appendix: Magic"

STUDY_WEEK = Rule(
    BOOK,
    f"{APPENDIX} › Learning a Spell",
    "When studying a spell in order to learn it, a character must spend a week studying at least 2 "
    "hours per day and sacrifice 5 experience dice.",
)
CAST = Rule(
    BOOK,
    f"{APPENDIX} › Casting a Spell",
    "To cast a spell, a character expends one shot from the psychic pool. Under normal conditions, "
    "the spell always works.",
)

STUDY_HOURS_PER_DAY = 2
STUDY_DICE_PER_WEEK = 5


@dataclass(frozen=True)
class SpellStudy:
    """The outcome of one week of study.

    ``dice_rolled`` is the number the character records on his sheet: how far he has progressed.
    ``botched`` (every die a 1) means "bad things can happen", as the GM determines.
    """

    learned: bool
    dice_rolled: int
    dice_spent: int
    botched: bool
    psychic_pool: PsychicPool | None


def study_spell(
    referee: Referee,
    *,
    level: int,
    dice_rolled_before: int,
    experience_pool: int,
    hours_per_day: float,
    faces: Sequence[int],
    psychic_pool: PsychicPool | None,
) -> SpellStudy:
    """Close a week of study of a spell of ``level`` ("Learning a Spell").

    The week costs 5 experience dice and is rolled on one more die than the last week
    (``dice_rolled_before``, 0 for the first week); the spell is learned when the total at least
    equals its level. A character without a psychic pool gains one of 1 shot on learning it.
    """
    invalid(level >= 1, "a spell's level is 1 or more")
    invalid(dice_rolled_before >= 0, "dice rolled before cannot be negative")
    dice = dice_rolled_before + 1
    faces = check_d6_faces(faces, dice, f"week {dice} of study")
    referee.require(hours_per_day >= STUDY_HOURS_PER_DAY, STUDY_WEEK, f"studied {hours_per_day} hours a day")
    require_experience(referee, experience_pool, STUDY_DICE_PER_WEEK, STUDY_WEEK)
    learned = sum(faces) >= level
    if learned and psychic_pool is None:
        psychic_pool = PsychicPool(FIRST_POWER_SHOTS, FIRST_POWER_SHOTS)
    return SpellStudy(learned, dice, STUDY_DICE_PER_WEEK, all(f == 1 for f in faces), psychic_pool)


def cast_spell(referee: Referee, pool: PsychicPool) -> PsychicPool:
    """Spend the one shot a spell costs ("Casting a Spell"). The spell then works."""
    return spend_shots(referee, pool, 1, CAST)


def resists_spell(level: int, resistance_roll: int) -> bool:
    """Whether a target's resistance roll resists a spell that affects the mind or body.

    "the level of the spell always counts as its 'strength.' A resistance roll at least equal to the
    spell's roll generally resists the spell's effects." The spell's roll is therefore its level;
    Grip of Stone's "the wizard's roll to cast the spell" is read the same way.
    """
    return resistance_roll >= level


@dataclass(frozen=True)
class SampleSpell:
    name: str
    level: int
    summary: str


SAMPLE_SPELLS = (
    SampleSpell(
        "Lurking Chains",
        3,
        "Creates the sound of clanking chains in thin air anywhere within 20m of the caster. [...] "
        "The clanking lasts ten minutes.",
    ),
    SampleSpell(
        "Blessed Black",
        6,
        "Extinguishes all sources of light within 10m of the caster for one minute, though the caster "
        "can also end the spell at will.",
    ),
    SampleSpell(
        "Serpent's Tongue",
        9,
        "Makes the caster's words more effective [...] (bonus die on all appropriate rolls). Lasts 1 minute.",
    ),
    SampleSpell(
        "Grip of Stone",
        12,
        "Paralyzes one person or animal within 15m. The target can roll strength or a similar trait to "
        "resist [...] Paralysis wears off within half an hour.",
    ),
    SampleSpell(
        "Ring of Gyges",
        15,
        "Makes the caster invisible for 10 minutes. Dogs tend to be disturbed by the caster's presence.",
    ),
    SampleSpell(
        "Seven Shields of Glory",
        18,
        "Creates seven invisible shields that protect the caster. [...] The spell lasts an hour.",
    ),
)


def sample_spell(name: str) -> SampleSpell:
    """A sample spell by name (case-insensitive)."""
    matches = [spell for spell in SAMPLE_SPELLS if spell.name.casefold() == name.casefold()]
    invalid(bool(matches), f"no sample spell called {name!r}")
    return matches[0]
