"""The experience pool of Yarn 0.1: awarding dice, using them as bonus dice, spending them.

Implements "Experience Pool" (with "Optional Rule: Multiple Experience Dice"), "Your Experience
Pool", "Awarding Experience Pool Dice" and "Experience" ("Developing a New Trait", "Improving a
Current Trait", "Increasing Hit Points"). Training is recorded as facts passed in (a "Training
Scene" during a montage shows it in play); the GM's approval and rulings are inputs too.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from yarnlog.core.referee import Referee, Rule, invalid, present
from yarnlog.rulesets.yarn.rules.traits import BOOK, HIT_POINTS_PER_DIE, Rank, TraitKind, check_d6_faces, trait_score

SAME_AWARD = Rule(
    BOOK,
    "Awarding Experience Pool Dice",
    "All PCs active in a session should receive the same number of dice.",
)
ONCE_PER_SESSION = Rule(
    BOOK,
    "Creating Characters › Experience Pool",
    "Once a die is used, you may not use it again for the rest of the game session.",
)
ONE_DIE_PER_ROLL = Rule(
    BOOK,
    "Creating Characters › Experience Pool",
    "you cannot use more than one die on a single roll.",
)
JUSTIFY_USE = Rule(
    BOOK,
    "Creating Characters › Experience Pool",
    "You must justify the use of the die in these terms. [...] If the GM does not tell you what a "
    "roll is for, you cannot use an experience die to modify it because you cannot justify its use.",
)
ONE_JUSTIFICATION_PER_DIE = Rule(
    BOOK,
    "Creating Characters › Optional Rule: Multiple Experience Dice",
    "You only use a bonus die for each justification that the GM accepts",
)
GM_APPROVES = Rule(BOOK, "Experience", "The GM must approve every trait improvement")
NEW_TRAIT = Rule(
    BOOK,
    "Experience › Developing a New Trait",
    "It costs 5 dice from your pool plus game-world experience to develop a new trait.",
)
NEW_TRAIT_TRAINING = Rule(
    BOOK,
    "Experience › Developing a New Trait",
    "If it is technical or specialized, such as kung fu or computer programming, you need some kind of training.",
)
NEW_TRAIT_SIGN = Rule(BOOK, "Experience › Developing a New Trait", "Invent a sign for each trait you develop.")
RAISE_LOW = Rule(
    BOOK,
    "Experience › Improving a Current Trait",
    "For a trait listed as 1 or 2 dice, you can increase the score by 1 for every 5 experience dice you spend.",
)
RAISE_TO_4 = Rule(
    BOOK,
    "Experience › Improving a Current Trait",
    "you definitely need training to raise any score to 4. This training takes at least a year, if "
    "you are carrying on other activities at the same time, or six months, if you are training full "
    "time. In addition to the training, you must spend 10 experience dice.",
)
RAISE_TO_5 = Rule(
    BOOK,
    "Experience › Improving a Current Trait",
    "Raising any trait to 5 requires highly specialized, nearly full-time training. [...] The training "
    "you need costs at least $1,000 US per month [...] In addition to the training, you will need to "
    "spend 15 experience dice.",
)
RAISE_TO_6 = Rule(
    BOOK,
    "Experience › Improving a Current Trait",
    "Raising a score to 6 is pretty much beyond the scope of the rules. It may not even be possible.",
)
CENTRAL_DOUBLES = Rule(
    BOOK,
    "Experience › Improving a Current Trait",
    "For your central trait, double the time and dice required.",
)

NEW_TRAIT_COST = 5
#: Experience dice to raise a discrete (side or developed) trait *to* each score.
RAISE_COSTS = {2: 5, 3: 5, 4: 10, 5: 15}
CENTRAL_MULTIPLIER = 2
TRAINING_MONTHS_TO_4 = 12
TRAINING_MONTHS_TO_4_FULL_TIME = 6
TRAINING_USD_PER_MONTH_TO_5 = 1000
HIT_POINT_RAISE_MAX = 12
#: The most experience dice one award may give a PC. The book leaves awards to the GM ("When in
#: doubt, award the dice") and counts "three dice for that one session" as generous; its dearest
#: improvements, a central trait raised to 4 and then to 5, cost (10 + 15) doubled = 50 dice. Twice
#: that covers a GM handing out a whole pool at once; beyond, it is a typing slip, not a ruling.
MAX_AWARD = 2 * CENTRAL_MULTIPLIER * (RAISE_COSTS[4] + RAISE_COSTS[5])


def check_award(referee: Referee, awards: Mapping[str, int], active_pcs: Collection[str]) -> None:
    """Check the GM's end-of-session award of experience dice ("Awarding Experience Pool Dice").

    How many dice is "entirely up to the GM"; only the equality among the PCs active in the
    session is a rule. An active PC missing from ``awards`` receives none.
    """
    invalid(all(dice >= 0 for dice in awards.values()), "an award is zero or more dice")
    given = {awards.get(pc, 0) for pc in active_pcs}
    referee.require(len(given) <= 1, SAME_AWARD, f"awards differ among active PCs: {sorted(given)}")


def use_experience_dice(
    referee: Referee,
    *,
    pool: int,
    used_this_session: int,
    dice: int = 1,
    justifications_accepted: int,
    multiple_dice_rule: bool = False,
) -> int:
    """Use ``dice`` experience dice as bonus dice on one roll; return the dice used this session after.

    Implements "Experience Pool" and "Your Experience Pool": each die once per session, one die per
    roll unless the campaign uses "Optional Rule: Multiple Experience Dice", and each die needs a
    justification the GM accepts (none can be accepted when the GM has not said what the roll is for).
    """
    invalid(dice >= 1, "use at least one experience die")
    invalid(0 <= used_this_session, "dice used this session cannot be negative")
    referee.require(
        used_this_session + dice <= pool,
        ONCE_PER_SESSION,
        f"{used_this_session} of {pool} experience dice are used this session",
    )
    referee.require(dice == 1 or multiple_dice_rule, ONE_DIE_PER_ROLL, f"{dice} experience dice on one roll")
    rule = ONE_JUSTIFICATION_PER_DIE if dice > 1 else JUSTIFY_USE
    accepted = f"{justifications_accepted} justification(s) accepted for {dice} dice"
    referee.require(dice <= justifications_accepted, rule, accepted)
    return used_this_session + dice


def require_experience(referee: Referee, pool: int, cost: int, rule: Rule) -> None:
    """Refuse to spend ``cost`` dice (permanently lost, per ``rule``) from a pool that lacks them."""
    referee.require(cost <= pool, rule, f"costs {cost} experience dice, the pool has {pool}")


@dataclass(frozen=True)
class Training:
    """Training undertaken in the game world, as the table records it.

    ``months`` of training, whether it was (nearly) full time, and what it cost per month.
    """

    months: float
    full_time: bool = False
    usd_per_month: int = 0


@dataclass(frozen=True)
class TraitAdvance:
    score: int  # the trait's score afterwards
    cost: int  # experience dice permanently lost from the pool


def new_trait_score(kind: TraitKind) -> int:
    """Score of a trait developed in play: "one die better than normal" ("Developing a New Trait").

    The book names the two results, 1 for a technical or unusual skill and 3 for a standard one;
    "normal" is the table's Average row, which extends the rule to the narrow kinds.
    """
    return trait_score(kind, Rank.AVERAGE) + 1


def develop_trait(
    referee: Referee,
    *,
    kind: TraitKind,
    sign: str,
    pool: int,
    training_required: bool,
    training: Training | None,
    gm_approved: bool,
) -> TraitAdvance:
    """Develop a new trait for 5 experience dice ("Developing a New Trait").

    ``training_required`` is the GM's common-sense ruling whether the trait is casual or technical
    or specialized. The new trait counts as a side trait from then on.
    """
    referee.require(gm_approved, GM_APPROVES, "the GM has not approved the new trait")
    referee.require(not training_required or training is not None, NEW_TRAIT_TRAINING, "the trait needs training first")
    referee.require(bool(sign.strip()), NEW_TRAIT_SIGN, "the new trait has no sign")
    require_experience(referee, pool, NEW_TRAIT_COST, NEW_TRAIT)
    return TraitAdvance(score=new_trait_score(kind), cost=NEW_TRAIT_COST)


def raising_cost(target: int, *, central: bool) -> int | None:
    """Experience dice to raise a trait to ``target``; None beyond the rules (6 and up)."""
    invalid(target >= 2, "a trait is raised to a score of 2 or more")
    cost = RAISE_COSTS.get(target)
    if cost is None:
        return None
    return cost * CENTRAL_MULTIPLIER if central else cost


def raise_trait(
    referee: Referee,
    *,
    score: int,
    central: bool,
    pool: int,
    training: Training | None,
    gm_approved: bool,
    gm_cost: int | None = None,
) -> TraitAdvance:
    """Raise a trait by one step ("Improving a Current Trait").

    Central traits double the dice and the training time. ``gm_cost`` is the GM's ruling on the
    dice for a score beyond 5, which the rules do not cover; it is only used when she overrides.
    A score of 0 is not a trait yet: develop it instead.
    """
    invalid(score >= 1, "a trait with no dice is developed, not raised")
    target = score + 1
    referee.require(gm_approved, GM_APPROVES, "the GM has not approved the improvement")
    cost = raising_cost(target, central=central)
    if cost is None:
        referee.require(False, RAISE_TO_6, f"raising a score to {target}")
        cost = present(gm_cost, f"the GM must set the dice for raising a score to {target}")
        invalid(cost >= 0, f"the GM must set the dice for raising a score to {target}")
    else:
        _check_training(referee, target, central, training)
    require_experience(referee, pool, cost, _cost_rule(target, central))
    return TraitAdvance(score=target, cost=cost)


def _cost_rule(target: int, central: bool) -> Rule:
    if target > max(RAISE_COSTS):
        return RAISE_TO_6
    if central:
        return CENTRAL_DOUBLES
    return {4: RAISE_TO_4, 5: RAISE_TO_5}.get(target, RAISE_LOW)


def _check_training(referee: Referee, target: int, central: bool, training: Training | None) -> None:
    # The book gives training only for 4 and 5; below that the GM's approval covers "some action
    # in the game world". Money is not doubled for a central trait: only "time and dice" are.
    time = CENTRAL_MULTIPLIER if central else 1
    if target == 4:
        full_time = training is not None and training.full_time
        months = (TRAINING_MONTHS_TO_4_FULL_TIME if full_time else TRAINING_MONTHS_TO_4) * time
        referee.require(
            training is not None and training.months >= months,
            CENTRAL_DOUBLES if central else RAISE_TO_4,
            f"raising to 4 needs {months} months of {'full-time ' if full_time else ''}training",
        )
    elif target == 5:
        referee.require(
            training is not None and training.full_time and training.usd_per_month >= TRAINING_USD_PER_MONTH_TO_5,
            RAISE_TO_5,
            "to 5 needs nearly full-time training at $1,000 a month",
        )


def raised_hit_points(
    current: int,
    *,
    sole_source: bool,
    new_score: int,
    rolled: Sequence[int] | None,
) -> int:
    """Hit points after developing or raising a trait that relates to them ("Increasing Hit Points").

    ``sole_source``: this trait is the only one the hit points are based on (or none was). Then
    take +7 (``rolled`` None) or add two dice. Otherwise ``rolled`` holds double the trait's new
    dice; the total replaces the hit points if it beats them, but by no more than 12 points.
    """
    if sole_source:
        if rolled is None:
            return current + HIT_POINTS_PER_DIE
        return current + sum(check_d6_faces(rolled, 2, "added hit points"))
    faces = present(rolled, "with another trait behind the hit points, the new ones are rolled")
    total = sum(check_d6_faces(faces, 2 * new_score, "new hit points"))
    return max(current, min(total, current + HIT_POINT_RAISE_MAX))
