"""Feats: the dice a feat rolls, how many are kept, fortune and trouble, the total and the margin.

A feat rolls its primary attribute's base die and any bonus dice, at most one of each type
(P16-P19); two dice are kept, more or fewer by the keep modifiers (P20-P23); a fortune keeps one
more die or explodes a kept die showing its maximum, face by face (P23, P24); the narrator's
trouble forces a rolled 1 to be kept (P27). The total is the kept dice and their explosions; the
margin is the total less the challenge and its penalties (P25; reading 4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from yarnlog.core.referee import Referee, invalid
from yarnlog.rulesets.yarn_polyhedral.rules import rule
from yarnlog.rulesets.yarn_polyhedral.rules.dice import DICE

CHAPTER = "Getting Dice"
BASE_DIE = rule(CHAPTER, "Each feat has a primary attribute that gives one base die. You must roll your "
                         "base die. You may choose bonus dice that apply, but no more than one of each "
                         "type. (lines 167-169)")
KEEP_TWO = rule("Rolling", "Unless otherwise specified, you keep your choice of two of the dice you "
                           "rolled. You may wind up keeping fewer or more dice. (line 193)")
FORTUNE_KEEP = rule("Rolling", "You can use one fortune to keep an additional die. (line 205)")
EXPLODE = rule("Rolling", "When a kept die has come up maximum (an 8 on a d8 for instance), then after you "
                          "add it to your total, you can use a fortune to re-roll it and add that to the "
                          "total as well. (line 207)")
TROUBLE_ONE = rule("Trouble", "One trouble can be used by the narrator when you roll a 1 in a dice roll, "
                              "to make you choose that as one of your kept dice. (line 756)")
SUCCESS = rule("Feats", "Roll dice, and if the total is equal to or greater than the challenge, then you "
                        "succeed. (line 161)")
FORTUNE_OWN = rule("Levels", "In addition, you get your level in fortune each session. (line 48)")


class BonusType(str, Enum):
    """The bonus dice a feat may add, at most one of each (P17, lines 171-183)."""

    LEVEL = "level"
    SECONDARY = "secondary"
    SKILL = "skill"
    ADVANTAGE = "advantage"
    ENHANCEMENT = "enhancement"
    TIME = "time"
    EFFORT = "effort"


class KeepModifier(str, Enum):
    """What keeps a die more or less (P21, P22); the value is the change."""

    SPECIALTY = "specialty"  # +1, line 199
    POINT_BLANK = "point-blank"  # +1, line 201
    IMPROVED_SENSE = "improved-sense"  # +1, line 515
    UNFAMILIAR = "unfamiliar"  # -1, line 195
    EVADING_TARGET = "evading-target"  # -1, line 197
    PHOBIA = "phobia"  # -1, line 561

    @property
    def change(self) -> int:
        return 1 if self in (KeepModifier.SPECIALTY, KeepModifier.POINT_BLANK,
                             KeepModifier.IMPROVED_SENSE) else -1


class Hindrance(str, Enum):
    """A drawback that applies to a feat and adds to its penalties (P62)."""

    PHOBIA = "phobia"  # its rank, and keep one fewer die (line 561)
    SIGHT_OR_HEARING = "sight-or-hearing"  # an impaired primary sense: its rank (line 549)
    OTHER_SENSE = "other-sense"  # any other impaired sense: twice its rank (line 549)


HINDRANCE_RULES = {
    Hindrance.PHOBIA: rule("Drawbacks", "When it applies, you are inhibited (keep one fewer die). Your rank is "
                                        "also added to penalties. (line 561)"),
    Hindrance.SIGHT_OR_HEARING: rule("Drawbacks", "For primary senses (sight and hearing), the penalty is the "
                                                  "rank. (line 549)"),
    Hindrance.OTHER_SENSE: rule("Drawbacks", "for other senses it's twice the rank. (line 549)"),
}


def hindrance_penalty(hindrance: Hindrance, rank: int) -> int:
    """What a drawback that applies adds to the penalties: a phobia's rank (line 561); an impaired
    sense's rank for sight and hearing, twice it for the other senses (line 549) (P62)."""
    return 2 * rank if hindrance is Hindrance.OTHER_SENSE else rank


KEEP_MODIFIER_RULES = {
    KeepModifier.SPECIALTY: rule("Rolling", "If you're using one of your specialties, then keep an "
                                            "additional die. (line 199)"),
    KeepModifier.POINT_BLANK: rule("Rolling", "If you're using a ranged weapon in the same zone (point "
                                              "blank range), keep an additional die. (line 201)"),
    KeepModifier.IMPROVED_SENSE: rule("Advantages", "You keep one extra die with that sense. (line 515)"),
    KeepModifier.UNFAMILIAR: rule("Rolling", "If you are attempting a basic skill in which you don't have "
                                             "at least rank 0, then keep one less die. (line 195)"),
    KeepModifier.EVADING_TARGET: rule("Rolling", "If you're attacking someone who is evading, keep one "
                                                 "less die. (line 197)"),
    KeepModifier.PHOBIA: rule("Drawbacks", "When it applies, you are inhibited (keep one fewer die). "
                                           "(line 561)"),
}


@dataclass(frozen=True)
class Pool:
    """The dice of one feat: the base die first, then the bonus dice by type."""

    base: int | None
    bonus: Mapping[BonusType, int] = field(default_factory=dict)

    @property
    def dice(self) -> tuple[int, ...]:
        base = () if self.base is None else (self.base,)
        return (*base, *(self.bonus[t] for t in BonusType if t in self.bonus))

    @property
    def labels(self) -> tuple[str, ...]:
        base = () if self.base is None else ("base",)
        return (*base, *(t.value for t in BonusType if t in self.bonus))


def pool(base: int | None, bonus: Sequence[tuple[BonusType, int | None]], referee: Referee) -> Pool:
    """The feat's dice: the base die must be rolled, bonus dice at most one of each type (P16).

    A bonus that gives no die (a rank of 1, reading 1) is left out. A primary of rank 1 gives no
    base die: the rule is broken and only a GM's override lets the feat go on, on its bonus dice.
    """
    for _, size in bonus:
        invalid(size is None or size in DICE, f"d{size} is not one of the dice d2 to d12")
    invalid(base is None or base in DICE, f"d{base} is not one of the dice d2 to d12")
    types = [t for t, _ in bonus]
    for kind in set(types):
        referee.require(types.count(kind) == 1, BASE_DIE,
                        f"only one {kind.value} die may be added to a feat")
    referee.require(base is not None, BASE_DIE, "the primary attribute gives no base die (rank 1)")
    return Pool(base, {t: size for t, size in bonus if size is not None})


def keep_count(dice: int, modifiers: Sequence[KeepModifier] = (), fortune: int = 0) -> int:
    """Dice kept: two, plus or minus each modifier, plus one per fortune (P20-P23).

    At least one die is kept; a count above the dice rolled keeps them all (reading 2).
    """
    wanted = 2 + sum(m.change for m in modifiers) + fortune
    return max(1, min(wanted, dice))


def default_keep(faces: Sequence[int], sizes: Sequence[int], count: int, forced_ones: int = 0) -> tuple[int, ...]:
    """The dice a player keeps when they name none: the highest, ties to a die at its maximum
    (it can explode), after the 1s trouble forced (P27; reading 2). Returns indexes."""
    ones = [i for i, f in enumerate(faces) if f == 1][:forced_ones]
    rest = sorted((i for i in range(len(faces)) if i not in ones),
                  key=lambda i: (-faces[i], faces[i] != sizes[i], i))
    return tuple(sorted(ones + rest[: max(0, count - len(ones))]))


@dataclass(frozen=True)
class Explosion:
    """A kept die exploded: its index and each re-roll's face, a fortune each (P24, line 207)."""

    die: int
    faces: tuple[int, ...]


@dataclass(frozen=True)
class Roll:
    """A rolled feat as recorded: the pool, the faces, the kept dice, fortune and trouble."""

    sizes: tuple[int, ...]
    faces: tuple[int, ...]
    kept: tuple[int, ...]
    explosions: tuple[Explosion, ...] = ()
    fortune_keep: int = 0
    trouble: int = 0
    challenge: int | None = None
    penalties: int = 0

    @property
    def fortune_spent(self) -> int:
        """Fortune the roll used: one per extra die kept and one per explosion face (P23, P24)."""
        return self.fortune_keep + sum(len(e.faces) for e in self.explosions)

    @property
    def total(self) -> int:
        """The kept dice and every exploded face (P25, line 211)."""
        return sum(self.faces[i] for i in self.kept) + sum(sum(e.faces) for e in self.explosions)

    @property
    def target(self) -> int | None:
        """The challenge with its penalties added (reading 4)."""
        return None if self.challenge is None else self.challenge + self.penalties

    @property
    def margin(self) -> int | None:
        """Total less challenge and penalties, negative on a miss (P25, line 165; reading 4)."""
        return None if self.target is None else self.total - self.target

    @property
    def success(self) -> bool | None:
        return None if self.margin is None else self.margin >= 0


def check_roll(roll: Roll, modifiers: Sequence[KeepModifier], referee: Referee, *,
               fortune_held: int | None = None, trouble_held: int | None = None) -> Roll:
    """Check a rolled feat against the rules; returns it unchanged.

    The faces fit their dice; the kept dice number the keep count (P20-P23); a 1 forced by
    trouble is kept (P27); each explosion follows a maximum face (P24); fortune and trouble
    spent are held (P7, P26).
    """
    invalid(len(roll.faces) == len(roll.sizes), f"{len(roll.faces)} faces for {len(roll.sizes)} dice")
    for face, size in zip(roll.faces, roll.sizes, strict=True):
        invalid(1 <= face <= size, f"a d{size} cannot show {face}")
    invalid(len(set(roll.kept)) == len(roll.kept) and all(0 <= i < len(roll.faces) for i in roll.kept),
            "each kept die must be one of the dice rolled, once")
    count = keep_count(len(roll.sizes), modifiers, roll.fortune_keep)
    if roll.fortune_keep:
        referee.require(keep_count(len(roll.sizes), modifiers) + roll.fortune_keep <= len(roll.sizes),
                        FORTUNE_KEEP, "no die is left for that fortune to keep")
    referee.require(len(roll.kept) == count, KEEP_TWO if not roll.fortune_keep else FORTUNE_KEEP,
                    f"{count} dice are kept here, not {len(roll.kept)}")
    ones_kept = sum(roll.faces[i] == 1 for i in roll.kept)
    ones_rolled = sum(f == 1 for f in roll.faces)
    invalid(roll.trouble >= 0 and roll.fortune_keep >= 0, "fortune and trouble are counted from 0")
    referee.require(roll.trouble <= ones_rolled, TROUBLE_ONE,
                    f"trouble forces a rolled 1 to be kept; {ones_rolled} were rolled")
    referee.require(ones_kept >= min(roll.trouble, ones_rolled), TROUBLE_ONE,
                    "a 1 the narrator forced with trouble must be kept")
    for explosion in roll.explosions:
        invalid(explosion.die in roll.kept, "only a kept die can explode")
        size = roll.sizes[explosion.die]
        chain = (roll.faces[explosion.die], *explosion.faces)
        for before, face in zip(chain, chain[1:], strict=False):
            invalid(1 <= face <= size, f"a d{size} cannot show {face}")
            referee.require(before == size, EXPLODE,
                            f"a d{size} explodes only on a {size}, not after a {before}")
    invalid(len({e.die for e in roll.explosions}) == len(roll.explosions), "a die explodes in one chain")
    if fortune_held is not None:
        referee.require(roll.fortune_spent <= fortune_held, FORTUNE_OWN,
                        f"the roll spends {roll.fortune_spent} fortune; {fortune_held} is held")
    if trouble_held is not None:
        referee.require(roll.trouble <= trouble_held, TROUBLE_ONE,
                        f"the narrator spends {roll.trouble} trouble; {trouble_held} is held")
    return roll


def trouble_earned(roll: Roll) -> int:
    """The narrator's trouble from a roll: one per fortune used (P26, line 754)."""
    return roll.fortune_spent


def complication_due(margin: int) -> bool:
    """A miss opens the way to a complication, the group's ruling (line 287; lines 746-750)."""
    return margin < 0


def explosion_chains(sizes: Sequence[int], faces: Sequence[int], kept: Sequence[int],
                     extra: Sequence[int]) -> tuple[Explosion, ...]:
    """The re-rolls of an explosion, entered or rolled as one list, laid on the kept maxima: the
    largest die first, each chain running on while it comes up maximum (P24, line 207), the way
    the odds explode (:mod:`.odds`)."""
    order = sorted((i for i in kept if faces[i] == sizes[i]), key=lambda i: (-sizes[i], i))
    chains: list[Explosion] = []
    at = 0
    for die in order:
        chain: list[int] = []
        while at < len(extra):
            chain.append(extra[at])
            at += 1
            if chain[-1] != sizes[die]:
                break
        if chain:
            chains.append(Explosion(die, tuple(chain)))
    invalid(at == len(extra), f"{len(extra)} explosion faces, but only {at} follow a kept maximum")
    return tuple(chains)
