"""Which section of the Yarn book decides a move: the heading a sentence names in parentheses,
"Refused. Uma gains 1 token from the kitty (Gaining Tokens).".

Each move maps to the :class:`~yarnlog.core.referee.Rule` its decider applies, and the heading is the
last part of that rule's chapter, so a sentence and a refusal of the same move cite the same section
of the book. Moves the book leaves to the table (a note, a GM's ruling on tokens) have none.
"""

from __future__ import annotations

from yarnlog.core.referee import Rule
from yarnlog.rulesets.scenes_and_tokens.parts.scene_challenges import BLOCK_RUSH, NARRATION, PLOT_JUMP, TIME_JUMP
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import CALLING_ORDER, INTRODUCING, LOCATIONS, PROMOTION
from yarnlog.rulesets.scenes_and_tokens.rules import bennies, challenges, drama_tokens
from yarnlog.rulesets.yarn.parts.drama.scene_calls import SHOPPING_OFFSTAGE
from yarnlog.rulesets.yarn.rules import (
    armor,
    combat,
    dice,
    experience,
    fringe_powers,
    group_efforts,
    healing,
    hit_points,
    magic,
)

#: Each move a sentence tells, by name, and the rule that decides it.
DECIDED_BY: dict[str, Rule] = {
    # "Dramatic Scenes"
    "petition granted": drama_tokens.GRANTED,
    "petition refused": drama_tokens.REFUSED,
    "petition no contest": drama_tokens.NO_CONTEST,
    "petition voted": challenges.GRANT_VOTE,
    "two-way exchange": drama_tokens.TWO_WAY_ALIKE,
    "multiple petitioners": drama_tokens.MULTIPLE_PETITIONERS,
    "force": drama_tokens.FORCE,
    "force supported": drama_tokens.SUPPORT,
    "casting cost": drama_tokens.CASTING_COST,
    "tokens returned": drama_tokens.EPISODE_END,
    # "Challenges"
    "duck": challenges.DUCKING,
    "rush": challenges.RUSHING,
    "rush blocked": BLOCK_RUSH,
    "time jump": TIME_JUMP,
    "plot jump": PLOT_JUMP,
    "narration": NARRATION,
    "reversal": drama_tokens.NO_REVERSAL,
    "novelty": challenges.NOVELTY,
    "going to procedural": challenges.GOING_TO_PROCEDURAL,
    "offstage": SHOPPING_OFFSTAGE,
    "calling order": CALLING_ORDER,
    # "Bennies"
    "ballot": bennies.ALL_VOTE,
    "tally": bennies.TALLY,
    "tied results": bennies.TIED_RESULTS,
    "bennie spent": bennies.CASH_IN,
    # "Mechanics"
    "roll": dice.CHANCY_ACTIONS,
    "opposed roll": dice.OPPONENT,
    "simple addition": group_efforts.SIMPLE_ADDITION,
    "either/or": group_efforts.EITHER_OR,
    "worst roller": group_efforts.WORST_ROLLER,
    "consequence": dice.GOOD_CONSEQUENCE,
    # "Combat"
    "gestalt": combat.GESTALT_ROLLS,
    "initiative": combat.INITIATIVE,
    "attack": combat.ATTACKS,
    "armor": armor.REGULAR_ARMOR,
    "recovery": hit_points.RECOVERY,
    "healing": healing.LONG_TERM_HEALING_RULE,
    "death": hit_points.CHARACTER_DEATH,
    "death token": hit_points.DEATH_TOKEN,
    # "Supporting Characters"
    "minor character": INTRODUCING,
    "recurring character": PROMOTION,
    "location": LOCATIONS,
    # "Experience"
    "experience award": experience.SAME_AWARD,
    "raise trait": experience.RAISE_LOW,
    "new trait": experience.NEW_TRAIT,
    # Appendices: fringe powers and magic
    "fringe power study": fringe_powers.STUDY,
    "psychic pool": fringe_powers.ROLL_PER_POWER,
    "shots bought": fringe_powers.BUY_SHOTS,
    "spell study": magic.STUDY_WEEK,
    "spell cast": magic.CAST,
}


def section(move: str) -> str:
    """The heading of the section that decides ``move`` (a key of :data:`DECIDED_BY`), the one a
    refusal of the move names too (:attr:`~yarnlog.core.referee.Rule.section`)."""
    return DECIDED_BY[move].section


def cited(move: str) -> str:
    """`` (Gaining Tokens)``: the section of ``move`` as a sentence names it, before its full stop."""
    return f" ({section(move)})"
