"""Combat: gestalt and detailed combat, rounds, movement, initiative, attacks and ranged attacks.

Implements Yarn 0.1, "Combat" from "Gestalt Combat" through "Predictable Attacks", plus "Special
Effect Attacks" (whether the effect succeeds), "Attacking from Advantage" and the optional
"Desperate Defense". Damage is in :mod:`.damage`, armor in :mod:`.armor`. Rolls are totals
passed in; the GM's judgements (cover, predictability, tie order, ...) are parameters.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from fractions import Fraction
from types import MappingProxyType

from yarnlog.core.referee import InvalidCommand, Referee, Rule, invalid

BOOK = "Yarn 0.1"

GESTALT_COMBAT = Rule(
    BOOK,
    "Combat › Gestalt Combat",
    "The players total all their rolls, and the GM totals all the GMCs' combat rolls. ... Whichever "
    "side rolls highest wins the fight, but the GM keeps the GMCs' total a secret, so the players "
    "don't know who will win.",
)

GESTALT_ROLLS = Rule(
    BOOK,
    "Combat › Gestalt Combat",
    "(The GM determines what rolls are made and how, depending on the circumstances of the fight.)",
)

INITIATIVE = Rule(
    BOOK,
    "Combat › Initiative",
    "The GM or a helpful player writes down the characters from highest roll to lowest. This is the "
    "order in which they will act each round.",
)
ONE_TRAIT_PER_ROUND = Rule(
    BOOK,
    "Combat › Attacks",
    "A non-combat trait cannot be used for both attack and defense in a single round.",
)
ATTACKS = Rule(
    BOOK,
    "Combat › Attacks",
    "If your attack roll is less than or equal to the defense roll, you have failed to connect for "
    "significant damage. If your attack roll is higher than the target’s defense roll, you’ve scored "
    "a hit and will do damage.",
)
WEAPON_RANGES_RULE = Rule(
    BOOK,
    "Combat › Ranged Attacks",
    "To find the “distance dice,” find the number that is equal to or higher than the distance to "
    "the target. Now find the number at the top of that column, that’s the number of “distance "
    "dice” rolled for defense.",
)
COVER = Rule(BOOK, "Combat › Ranged Attacks Table", "Cover: 1 or 2. Darkness, fog, etc.: 1 or 2.")
DODGING = Rule(
    BOOK,
    "Combat › Ranged Attacks Table",
    "Defender gets bonus dice equal to the number of dice normally rolled for “agility,” “quick "
    "reflexes,” etc. (The default is 2 dice.) ... A clumsy character receives only one bonus die for "
    "dodging.",
)
PREDICTABLE_ATTACKS = Rule(
    BOOK,
    "Combat › Predictable Attacks",
    "If you ever make a predictable or boring attack on an opponent, the GM has the right to give you "
    "a penalty die on the attack. ... The “predictable attacks” rule does not apply to GMCs.",
)
SPECIAL_EFFECT_ATTACKS = Rule(
    BOOK,
    "Combat › Special Effect Attacks",
    "The special effect succeeds only if the attack roll exceeds the defense roll by an amount the "
    "GM judges to be sufficient.",
)
GANGING_UP = Rule(
    BOOK,
    "Combat › Ganging Up",
    "Someone can defend normally against one opponent for each die they have in fighting ability. "
    "... Each additional attacker receives a bonus die on attacks against that character. The "
    "defender gets to choose which attackers get the bonus die.",
)
ATTACKING_FROM_ADVANTAGE = Rule(
    BOOK,
    "Combat › Attacking from Advantage",
    "Whenever you have the edge over an opponent because of something besides your traits, you can "
    "ask the GM to give you a bonus die on your combat roll.",
)
SURPRISE = Rule(
    BOOK,
    "Combat › Attacking With Surprise",
    "If you hit the guy when he's totally unaware, the GM might grant you more than just a bonus die.",
)
PSYCHOLOGICAL_ADVANTAGE = Rule(
    BOOK,
    "Combat › Psychological Advantage",
    "The next round (only) you get a bonus die on your rolls. ... Or, if your seven-year-old daughter "
    "is whimpering helplessly in the closet behind you as you defend her from a maniac, you get a "
    "bonus die on your rolls for the duration of the combat.",
)
DESPERATE_DEFENSE = Rule(
    BOOK,
    "Optional Rules for Combat › Desperate Defense",
    "if you give up your attack, you may get a bonus die on each defense roll for that round.",
)

# --- Gestalt combat -------------------------------------------------------------------------


class Side(StrEnum):
    PLAYERS = "players"
    GMCS = "GMCs"


@dataclass(frozen=True)
class GestaltResult:
    """The general outcome of a gestalt fight. ``winner`` is None on equal totals.

    The book names no winner for a tie; the GM adjudicates the fight from the rolls made.
    """

    players_total: int
    gmcs_total: int
    winner: Side | None


def gestalt_combat(player_rolls: Sequence[int], gm_secret_total: int) -> GestaltResult:
    """One roll for the whole fight ("Gestalt Combat"): the side with the higher total wins.

    ``gm_secret_total`` is the GMCs' total, which the GM keeps secret from the players.
    """
    invalid(len(player_rolls) >= 1, "gestalt combat needs at least one player's roll")
    invalid(all(roll >= 0 for roll in player_rolls) and gm_secret_total >= 0, "rolls are not negative")
    players = sum(player_rolls)
    winner = None
    if players != gm_secret_total:
        winner = Side.PLAYERS if players > gm_secret_total else Side.GMCS
    return GestaltResult(players, gm_secret_total, winner)


# --- Rounds and movement --------------------------------------------------------------------

#: "Unless the GM rules otherwise, assume a round is about three seconds long."
ROUND_SECONDS = 3


class Speed(StrEnum):
    WALKING = "walking"
    HURRYING = "hurrying"
    JOGGING = "jogging"
    RUNNING_STEADY = "running, steady"
    RUNNING_FAST = "running, fast"
    SPRINTING = "sprinting"


@dataclass(frozen=True)
class MovementRate:
    meters_per_round: Fraction  # in a 3-second round
    km_per_hour: int


#: "Movement in Combat": speeds for a 3-second round.
MOVEMENT: Mapping[Speed, MovementRate] = MappingProxyType(
    {
        Speed.WALKING: MovementRate(Fraction(5, 2), 3),
        Speed.HURRYING: MovementRate(Fraction(5), 6),
        Speed.JOGGING: MovementRate(Fraction(15, 2), 9),
        Speed.RUNNING_STEADY: MovementRate(Fraction(10), 12),
        Speed.RUNNING_FAST: MovementRate(Fraction(15), 18),
        Speed.SPRINTING: MovementRate(Fraction(20), 24),
    }
)


def meters_moved(speed: Speed, round_seconds: Fraction | int = ROUND_SECONDS) -> Fraction:
    """Meters covered in one round at ``speed``, for a round of the GM's chosen length."""
    invalid(round_seconds > 0, "a round lasts some time")
    return MOVEMENT[speed].meters_per_round * Fraction(round_seconds) / ROUND_SECONDS


# --- Initiative -----------------------------------------------------------------------------

#: "Lacking any such trait, a character rolls 2 dice."
INITIATIVE_DICE_WITHOUT_TRAIT = 2


def initiative_order(rolls: Mapping[str, int], *, gm_tie_order: Sequence[str] = ()) -> tuple[str, ...]:
    """The order of action each round: from highest initiative roll to lowest ("Initiative").

    ``rolls`` maps each character (or "GMCs", rolled once for all of them) to its roll. The book
    has no rule for equal rolls, so the GM orders tied characters: ``gm_tie_order`` must name
    every one of them, earlier acting first.
    """
    invalid(len(rolls) >= 1, "initiative needs at least one character")
    invalid(all(roll >= 0 for roll in rolls.values()), "initiative rolls are not negative")
    counts = Counter(rolls.values())
    untied = [name for name, roll in rolls.items() if counts[roll] > 1 and name not in gm_tie_order]
    invalid(not untied, f"tied initiative for {', '.join(sorted(untied))}: the GM orders them")
    rank = {name: position for position, name in enumerate(gm_tie_order)}
    return tuple(sorted(rolls, key=lambda name: (-rolls[name], rank.get(name, 0))))


def seating_order(players_around_table: Sequence[str], *, gm: str, gm_first: bool) -> tuple[str, ...]:
    """The alternative to initiative: "act in the order they are seated around the table, with the
    GM acting first or last"."""
    invalid(gm not in players_around_table, "the GM is placed first or last, not among the seats")
    invalid(len(set(players_around_table)) == len(players_around_table), "each player sits once")
    return (gm, *players_around_table) if gm_first else (*players_around_table, gm)


# --- Attacks --------------------------------------------------------------------------------


def check_trait_use(
    referee: Referee,
    *,
    attack_trait: str | None,
    defense_traits: Collection[str],
    combat_traits: Collection[str],
) -> None:
    """Refuse a non-combat trait used for both the attack and a defense roll in one round.

    ``combat_traits``: the character's specifically combat-oriented traits (the GM's judgement),
    which "can be used for both attack and defense rolls".
    """
    if attack_trait is None or attack_trait in combat_traits:
        return
    referee.require(
        attack_trait not in defense_traits,
        ONE_TRAIT_PER_ROUND,
        f"“{attack_trait}” serves attack or defense this round, not both",
    )


def hit_margin(attack_total: int, defense_total: int) -> int:
    """By how much the attack roll beat the defense roll; 0 is a miss ("Attacks").

    "Subtract the defender’s (lower) roll from your (higher) roll."
    """
    invalid(attack_total >= 0 and defense_total >= 0, "rolls are not negative")
    return max(0, attack_total - defense_total)


def special_effect_succeeds(attack_total: int, defense_total: int, *, gm_sufficient_margin: int) -> bool:
    """Whether a tackle, disarm, headlock, ... works: the margin must reach the GM's figure."""
    invalid(gm_sufficient_margin >= 1, "the attack roll must exceed the defense roll by at least 1")
    return hit_margin(attack_total, defense_total) >= gm_sufficient_margin


def predictable_attack_penalty_dice(*, gm_rules_predictable: bool, attacker_is_gmc: bool) -> int:
    """The penalty die the GM may give a predictable or boring attack; never to a GMC."""
    return int(gm_rules_predictable and not attacker_is_gmc)


def desperate_defense_bonus_dice(*, gives_up_attack: bool) -> int:
    """Optional "Desperate Defense": a bonus die on each defense roll this round, for no attack."""
    return int(gives_up_attack)


# --- Ranged attacks -------------------------------------------------------------------------


class RangeBand(IntEnum):
    """The distance columns of the Ranged Attacks and Weapon Ranges tables; the value is the
    number of distance dice. The Gunfire Tactics Summary calls short range "Close"."""

    POINT_BLANK = 1
    SHORT = 2
    MEDIUM = 3
    LONG = 4
    VERY_LONG = 5


class RangeClass(StrEnum):
    """The rows of the Weapon Ranges table."""

    THROWN_BALANCED = "thrown, balanced"  # such as a ball or throwing knife
    THROWN_AWKWARD = "thrown, awkward"  # such as a sword or blender
    CROSSBOW = "crossbow"
    TASER = "taser"
    PISTOL = "pistol"
    SMG = "SMG"
    RIFLE = "rifle"
    SHOTGUN = "shotgun"


#: Table 3, Weapon Ranges: the farthest distance in meters of each band, point blank first.
#: A taser has three bands: "Their electric cords don’t extend past 5m."
WEAPON_RANGES: Mapping[RangeClass, tuple[int, ...]] = MappingProxyType(
    {
        RangeClass.THROWN_BALANCED: (2, 4, 8, 16, 32),
        RangeClass.THROWN_AWKWARD: (2, 4, 6, 8, 10),
        RangeClass.CROSSBOW: (2, 10, 20, 40, 80),
        RangeClass.TASER: (1, 2, 5),
        RangeClass.PISTOL: (2, 10, 20, 40, 80),
        RangeClass.SMG: (2, 25, 50, 100, 200),
        RangeClass.RIFLE: (2, 50, 100, 200, 400),
        RangeClass.SHOTGUN: (4, 8, 16, 32, 64),
    }
)


def range_band(distance_m: Fraction | float, limits: Sequence[int | Fraction]) -> RangeBand:
    """The distance band, i.e. the distance dice, of a target ``distance_m`` meters away.

    ``limits`` is a row of :data:`WEAPON_RANGES`, or the GM's own row for a weapon whose design
    gives it other ranges. Past the last number the table has no answer (and a taser cannot
    reach): the GM then assigns the defense dice herself.
    """
    invalid(distance_m >= 0, "a distance is not negative")
    for band, limit in zip(RangeBand, limits, strict=False):
        if distance_m <= limit:
            return band
    raise InvalidCommand(
        f"{distance_m} m is beyond the weapon's farthest range ({limits[-1]} m): the GM assigns the defense dice"
    )


@dataclass(frozen=True)
class DefenseDice:
    """A defense roll to make: ``dice`` rolled, plus ``bonus_dice`` (drop the lowest for each)."""

    dice: int
    bonus_dice: int = 0


def dodge_bonus_dice(agility_dice: int | None = None, *, clumsy: bool = False) -> int:
    """Bonus dice for a dodging target: the dice of its agility-like trait, 2 by default, 1 if clumsy."""
    if clumsy:
        return 1
    if agility_dice is None:
        return 2
    invalid(agility_dice >= 1, "a trait has at least one die")
    return agility_dice


def ranged_defense(
    referee: Referee,
    distance_dice: int,
    *,
    cover: int = 0,
    target_moving: bool = False,
    attacker_moving: bool = False,
    obscured: int = 0,
    dodging_bonus_dice: int = 0,
    half_dice: int = 0,
) -> DefenseDice:
    """The defense roll the GM assigns against a missile weapon (Table 2, Ranged Attacks).

    ``cover`` and ``obscured`` (darkness, fog, etc.) are the GM's 0, 1 or 2 dice;
    ``dodging_bonus_dice`` comes from :func:`dodge_bonus_dice`; ``half_dice`` are bonus dice the
    GM gives "when characters do not deserve full dice under the rules above".
    """
    invalid(distance_dice >= 1, "the distance gives at least one die")
    invalid(min(dodging_bonus_dice, half_dice) >= 0, "bonus dice are not negative")
    for what, dice in (("cover", cover), ("darkness, fog, etc.", obscured)):
        invalid(dice >= 0, f"{what} gives no negative dice")
        referee.require(dice <= 2, COVER, f"{what} gives 1 or 2 defense dice, not {dice}")
    dice = distance_dice + cover + obscured + int(target_moving) + int(attacker_moving)
    return DefenseDice(dice, dodging_bonus_dice + half_dice)


# --- Attacking from advantage ---------------------------------------------------------------


class Advantage(StrEnum):
    """The common advantages of "Attacking from Advantage"; each is a bonus die the GM grants."""

    GANGING_UP = "ganging up"
    SURPRISE = "attacking with surprise"
    BETTER_WEAPONRY = "better weaponry"
    BETTER_POSITION = "better position"
    PSYCHOLOGICAL = "psychological advantage"


def advantage_bonus_dice(referee: Referee, advantage: Advantage, *, gm_extra_dice: int = 0) -> int:
    """The bonus die an advantage gives, plus any extra dice the GM grants for total surprise.

    Better weaponry counts how handy the weapon is in combat, not how much damage it does: that
    is the GM's judgement before she grants the advantage.
    """
    invalid(gm_extra_dice >= 0, "extra dice are not negative")
    referee.require(
        gm_extra_dice == 0 or advantage is Advantage.SURPRISE,
        SURPRISE,
        "only total surprise earns more than one bonus die",
    )
    return 1 + gm_extra_dice


def ganging_up_bonus(
    referee: Referee,
    *,
    defender_fighting_dice: int,
    attackers: Sequence[str],
    chosen_by_defender: Collection[str],
) -> frozenset[str]:
    """The attackers who get a bonus die against one defender ("Ganging Up").

    The defender fights off one attacker per die of fighting ability normally; every further
    attacker gets a bonus die, and the defender chooses which ones.
    """
    invalid(defender_fighting_dice >= 1, "the defender has at least one die in fighting ability")
    invalid(len(set(attackers)) == len(attackers), "each attacker is named once")
    invalid(set(chosen_by_defender) <= set(attackers), "the defender chooses among the attackers")
    extra = max(0, len(attackers) - defender_fighting_dice)
    referee.require(
        len(set(chosen_by_defender)) == extra,
        GANGING_UP,
        f"{len(attackers)} attackers, {defender_fighting_dice} fighting dice: name {extra} for the bonus die",
    )
    return frozenset(chosen_by_defender)


def psychological_bonus_dice(*, round_gained: int, current_round: int, for_whole_combat: bool) -> int:
    """The bonus die of a psychological advantage: the next round only, or (defending someone
    helpless) for the rest of the combat."""
    invalid(current_round >= 1 and round_gained >= 1, "rounds are counted from 1")
    if for_whole_combat:
        return int(current_round >= round_gained)
    return int(current_round == round_gained + 1)
