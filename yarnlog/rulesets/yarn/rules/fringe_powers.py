"""Fringe powers of Yarn 0.1: the psychic pool, learning, using, pushing and resisting powers.

Implements "Appendix: Fringe Powers" ("Learning Fringe Powers", "Using Fringe Powers", "Sample
Fringe Powers") and the psychic pool of "Creating Characters" ("Central Trait", "Side Traits").
Dice are data passed in; the GM's discretion ("at the GM's discretion", "the GM may rule") is an
input. The appendix asks the GM to "play them by ear"; every rule here is open to her override.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from types import MappingProxyType

from yarnlog.core.referee import Referee, Rule, invalid
from yarnlog.rulesets.yarn.rules.experience import Training, new_trait_score, require_experience
from yarnlog.rulesets.yarn.rules.traits import BOOK, TraitKind, check_d6_faces

APPENDIX = "Appendix: Fringe Powers"

ROLL_PER_POWER = Rule(
    BOOK,
    f"{APPENDIX} › Using Fringe Powers",
    "A character with two or more powers can roll for each, and take the highest roll to determine "
    "the number of shots in the pool.",
)
STUDY = Rule(
    BOOK,
    f"{APPENDIX} › Learning Fringe Powers",
    "It generally takes a month of full-time study to learn a fringe power, and access to a knowledgeable teacher.",
)
LEARNING_DICE = Rule(
    BOOK,
    f"{APPENDIX} › Learning Fringe Powers",
    "the player decides how many dice from his experience pool to use, rolls the dice, and only if "
    "at least one of the dice is a 6 does the character acquire the power.",
)
BUY_SHOTS = Rule(
    BOOK,
    f"{APPENDIX} › Using Fringe Powers",
    "One shot can be added to the pool by subtracting 2 dice from the experience pool. [...] He may "
    "not convert shots to experience dice.",
)
USE_SHOT = Rule(
    BOOK,
    f"{APPENDIX} › Using Fringe Powers",
    "When a character uses a fringe power, he loses 1 shot from the psychic pool.",
)
PUSH = Rule(
    BOOK,
    f"{APPENDIX} › Using Fringe Powers",
    "He may also “push” the power, which means he loses 2 shots from the pool, but can roll twice "
    "the normal number of dice, counting only the better half.",
)
RESIST_WITH_SHOT = Rule(
    BOOK,
    f"{APPENDIX} › Using Fringe Powers",
    "A psychic may use a shot from his psychic pool to resist another’s psychic power, if he knows "
    "the power is being used against him.",
)

STARTING_SHOTS_WITHOUT_ROLL = 3
FIRST_POWER_SHOTS = 1
EXPERIENCE_DICE_PER_SHOT = 2
PUSH_SHOTS = 2
LEARNING_SUCCESS_FACE = 6
PSI_MUTE_FACE = 1
ORDINARY_RESISTANCE_DICE = 2
HOURS_TO_FULL_RECOVERY = 24


@dataclass(frozen=True)
class PsychicPool:
    """``capacity`` shots a day; ``shots`` of them are left. The character may call it a ch'i pool, a mana pool..."""

    capacity: int
    shots: int


def starting_psychic_pool(referee: Referee, *, powers: int, rolls: Sequence[int] | None) -> PsychicPool:
    """The psychic pool of a beginning character with ``powers`` fringe powers.

    ``rolls`` is None for the 3 shots the player may take instead of rolling, or one die per power
    rolled, of which the highest counts. The GM decides whether the character has a pool at all.
    """
    invalid(powers >= 1, "a psychic pool comes with at least one fringe power")
    if rolls is None:
        return PsychicPool(STARTING_SHOTS_WITHOUT_ROLL, STARTING_SHOTS_WITHOUT_ROLL)
    invalid(len(rolls) >= 1, "roll at least one die, or take 3 shots")
    referee.require(len(rolls) <= powers, ROLL_PER_POWER, f"{len(rolls)} rolls for {powers} power(s)")
    shots = max(check_d6_faces(rolls, len(rolls), "the psychic pool"))
    return PsychicPool(shots, shots)


def is_psi_mute(secret_roll: int) -> bool:
    """Optional psi-mute rule: the die rolled in secret at the first attempt to learn a power shows 1."""
    check_d6_faces((secret_roll,), 1, "the psi-mute roll")
    return secret_roll == PSI_MUTE_FACE


@dataclass(frozen=True)
class FringePowerStudy:
    learned: bool
    dice_spent: int  # experience dice given up, whether or not the power was learned
    psychic_pool: PsychicPool | None
    score: int | None  # dice in the new power, if learned


def learn_fringe_power(
    referee: Referee,
    *,
    experience_pool: int,
    faces: Sequence[int],
    psychic_pool: PsychicPool | None,
    study: Training,
    knowledgeable_teacher: bool,
    psi_mute: bool = False,
    success_face: int = LEARNING_SUCCESS_FACE,
) -> FringePowerStudy:
    """Roll the experience dice given up after a month of study ("Learning Fringe Powers").

    ``faces`` are the dice the player chose to give up, usually rolled by the GM in secret.
    ``success_face`` is the lowest face that succeeds: 6 by the book, changed only when the GM
    alters the odds for teachers, preparation or native inclination. A psi-mute character never
    learns. The first power brings a pool of 1 shot; later ones leave the pool as it is.
    """
    invalid(len(faces) >= 1, "roll at least one experience die")
    invalid(1 <= success_face <= 6, "the success face is 1 to 6")
    faces = check_d6_faces(faces, len(faces), "learning a fringe power")
    referee.require(
        study.full_time and study.months >= 1 and knowledgeable_teacher,
        STUDY,
        "learning takes a month of full-time study and a teacher",
    )
    require_experience(referee, experience_pool, len(faces), LEARNING_DICE)
    learned = not psi_mute and max(faces) >= success_face
    if not learned:
        return FringePowerStudy(False, len(faces), psychic_pool, None)
    pool = psychic_pool or PsychicPool(FIRST_POWER_SHOTS, FIRST_POWER_SHOTS)
    # The appendix gives no score for a power learned in play; a fringe power is a technical or
    # unusual trait ("Scores for Traits"), and a developed one is "one die better than normal".
    return FringePowerStudy(True, len(faces), pool, new_trait_score(TraitKind.TECHNICAL))


def buy_shots(referee: Referee, pool: PsychicPool, *, experience_pool: int, shots: int) -> tuple[PsychicPool, int]:
    """Add ``shots`` to the pool for 2 experience dice each; return the pool and the dice spent."""
    referee.require(shots >= 1, BUY_SHOTS, "shots cannot be converted back to experience dice")
    cost = EXPERIENCE_DICE_PER_SHOT * shots
    require_experience(referee, experience_pool, cost, BUY_SHOTS)
    return PsychicPool(pool.capacity + shots, pool.shots + shots), cost


def spend_shots(referee: Referee, pool: PsychicPool, shots: int, rule: Rule) -> PsychicPool:
    """Take ``shots`` from the pool for what ``rule`` describes (a power, a push, a spell)."""
    referee.require(shots <= pool.shots, rule, f"needs {shots} shot(s), {pool.shots} left")
    # Under a GM override the pool is simply empty; it never holds negative shots.
    return replace(pool, shots=max(0, pool.shots - shots))


def use_fringe_power(referee: Referee, pool: PsychicPool, *, pushed: bool = False) -> PsychicPool:
    """Spend the shots for one use of a fringe power: 1, or 2 when pushed ("Using Fringe Powers")."""
    return spend_shots(referee, pool, PUSH_SHOTS if pushed else 1, PUSH if pushed else USE_SHOT)


def pushed_roll(power_dice: int, faces: Sequence[int]) -> int:
    """Total of a pushed power: twice the power's dice rolled, the better half counted."""
    invalid(power_dice >= 1, "a pushed power has at least one die")
    faces = check_d6_faces(faces, 2 * power_dice, "a pushed power")
    return sum(sorted(faces, reverse=True)[:power_dice])


@dataclass(frozen=True)
class Resistance:
    """Dice rolled to resist a power: ``bonus_dice`` are rolled too, and the lowest of them dropped."""

    dice: int
    bonus_dice: int = 0


def ordinary_resistance(gm_dice: int = ORDINARY_RESISTANCE_DICE) -> Resistance:
    """A being's roll against a power: 2 dice for most people, more at the GM's discretion."""
    invalid(gm_dice >= 0, "resistance is zero or more dice")
    return Resistance(gm_dice)


def psychic_resistance(
    referee: Referee,
    pool: PsychicPool,
    *,
    knows_power_used: bool,
    best_power_dice: int,
    countering_power_dice: int | None = None,
    base: Resistance | None = None,
) -> tuple[Resistance, PsychicPool]:
    """A psychic spends a shot to resist a power he knows is used against him.

    He gets his best power's dice as bonus dice; or, with a power that could counter the attack
    (telepathy against mind scan), that power's dice as extra dice on top of the normal ones.
    """
    base = base or ordinary_resistance()
    referee.require(knows_power_used, RESIST_WITH_SHOT, "he does not know the power is being used against him")
    pool = spend_shots(referee, pool, 1, RESIST_WITH_SHOT)
    if countering_power_dice is not None:
        return replace(base, dice=base.dice + countering_power_dice), pool
    return replace(base, bonus_dice=base.bonus_dice + best_power_dice), pool


def recover_shots(pool: PsychicPool, hours: int | Fraction, rate: int | Fraction = 1) -> PsychicPool:
    """Shots back after ``hours`` of rest: the whole pool in 24 hours ("Using Fringe Powers").

    A six-shot pool gets one back every 4 hours. ``rate`` is the GM's ruling for entities that
    recover faster or slower (a druid sky-clad under the moon: 2).
    """
    invalid(hours >= 0, "hours cannot be negative")
    invalid(rate > 0, "the recovery rate is positive")
    back = int(Fraction(hours) * pool.capacity * rate / HOURS_TO_FULL_RECOVERY)
    return replace(pool, shots=min(pool.capacity, pool.shots + back))


@dataclass(frozen=True)
class PerRoll:
    """One quantity a power's roll sets: ``per_point`` ``unit`` for every point rolled."""

    measure: str
    per_point: int
    unit: str

    def of(self, roll: int) -> int:
        return self.per_point * roll


@dataclass(frozen=True)
class SampleFringePower:
    name: str
    summary: str
    per_roll: tuple[PerRoll, ...] = ()
    notes: tuple[str, ...] = ()  # the book's own words for its other numbers


#: Difficulty to heal a disease with the Healing power, with the book's examples.
HEALING_DISEASE_DIFFICULTY = MappingProxyType(
    {
        "Common cold, cold sores, acne": 5,
        "Addiction to nicotine or cocaine, pneumonia": 10,
        "Leprosy, cerebral palsy, Alzheimer’s, cancer": 15,
    }
)

SAMPLE_FRINGE_POWERS = (
    SampleFringePower(
        "Aura Sight",
        "The ability to see people’s auras.",
        notes=("Most people roll 2 dice to resist this power.",),
    ),
    SampleFringePower(
        "Healing",
        "Directs healing energy to damaged or diseased areas.",
        (PerRoll("hit points recovered", 1, "hit points"),),
        (
            "If the wounded character has not yet recovered half his lost hit points as per the "
            "recovery rules, the healer heals twice the points rolled on the dice.",
            "It takes about 30 seconds (5 rounds) for the healing to be complete",
            "A healer who rolls all 1’s when trying to heal someone of a disease acquires that disease himself",
        ),
    ),
    SampleFringePower(
        "Hunches",
        "Roll to get irrational feelings of what you should do or hints at secrets you cannot otherwise know.",
        notes=("Having this fringe power makes you very vulnerable to psychic manipulation.",),
    ),
    SampleFringePower(
        "Lightning Strike",
        "Channels energy through nerves, muscle, skin, and bone, making them unnaturally fast and strong.",
        notes=("Add your dice with this ability to attack rolls when striking with your bare hands, feet, "
               "or other natural implement of destruction.",),
    ),
    SampleFringePower(
        "Mind Scan",
        "Decode another’s thoughts.",
        (PerRoll("range to find thoughts", 1, "m"), PerRoll("range to a target in sight", 2, "m")),
        (
            "If the character beats the target’s roll, he learns what that person is thinking. If the "
            "character rolls double the target’s roll, he finds clear information",
        ),
    ),
    SampleFringePower(
        "Pre-Reaction",
        "Respond to something just before it happens.",
        notes=(
            "If he would normally have a chance to respond to something, then he can add these dice to "
            "his normal roll.",
        ),
    ),
    SampleFringePower(
        "Roaming Eyes",
        "See other places or times.",
        (
            PerRoll("range in the present", 100, "m"),
            PerRoll("duration in the present", 1, "round"),
            PerRoll("how far into the past", 1, "hour"),
        ),
    ),
    SampleFringePower(
        "Sending",
        "Sending your thoughts to the minds of others.",
        (
            PerRoll("duration", 1, "minute"),
            PerRoll("range to a target not known", 10, "m"),
            PerRoll("range to a target known well", 1, "km"),
        ),
        ("must be higher than the target’s resistance roll (if the target chooses to resist)",),
    ),
    SampleFringePower(
        "Skin of Iron",
        "Blows must overcome the parapsychical resistance offered by the energy.",
        notes=(
            "The total on the dice is subtracted from damage on each blow you take, like normal armor.",
            "The highest number among the dice equals the number of blows you can absorb before Skin "
            "of Iron wears off (with a maximum duration of 10 minutes).",
        ),
    ),
    SampleFringePower(
        "Telekinesis",
        "Moving, lifting, and manipulating objects at a distance.",
        (
            PerRoll("pushed along a surface", 1, "kg"),
            PerRoll("range", 1, "m"),
            PerRoll("duration", 1, "second"),
            PerRoll("lifted", 100, "g"),
        ),
    ),
    SampleFringePower(
        "Telekinetic Punch",
        "A burst of explosive force that can break, topple, or harm objects or people.",
        # The book gives no unit for the distance.
        (PerRoll("damage", 1, "hit points"), PerRoll("distance", 1, "")),
        (
            "If used to break in a door or perform other feats of strength, the roll is equivalent to a "
            "normal strength roll.",
        ),
    ),
    SampleFringePower(
        "Telepathy",
        "A combination of Mind Scan and Sending, but weaker than either.",
        (
            PerRoll("range to read minds", 1, "m"),
            PerRoll("range to send, people in sight", 5, "m"),
            PerRoll("range to send, well-known people out of sight", 500, "m"),
        ),
    ),
)


def sample_fringe_power(name: str) -> SampleFringePower:
    """A sample power by name (case-insensitive)."""
    matches = [power for power in SAMPLE_FRINGE_POWERS if power.name.casefold() == name.casefold()]
    invalid(bool(matches), f"no sample fringe power called {name!r}")
    return matches[0]


def healing_points(roll: int, *, half_recovered: bool) -> int:
    """Hit points the Healing power restores: the roll, doubled before half the loss has recovered."""
    return roll if half_recovered else 2 * roll


class MindScanResult(StrEnum):
    NOTHING = "nothing"
    THOUGHTS = "thoughts"  # "he learns what that person is thinking"
    CLEAR = "clear"  # "clear information, as well as any related memories or ideas"


def mind_scan_result(scanner_roll: int, target_roll: int) -> MindScanResult:
    """Mind Scan against a target in range: beat the target's roll, or double it for clear information."""
    if scanner_roll <= target_roll:
        return MindScanResult.NOTHING
    # "rolls double the target's roll": read as at least double.
    return MindScanResult.CLEAR if scanner_roll >= 2 * target_roll else MindScanResult.THOUGHTS
