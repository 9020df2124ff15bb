"""Action types and their grades: Strong, Middling, Weak (SRD 117-157).

"Seven action types: Enduring, Fighting, Knowing, Making, Moving, Talking, Sneaking" (125-137);
"you designate two of them as your Strong types and two as Weak. The rest are Middling." (121).
A custom type "narrower" than the standard ones is one of your Strong types, and taking it makes
three standard types Weak (141-145): reading 8 gives the layout custom + one standard Strong, three
standard Weak, three Middling. "My story is of a man/woman who..." over 25 words is too long (157).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum

from yarnlog.core.referee import Referee, Rule
from yarnlog.rulesets.dramasystem.rules import BOOK

CHAPTER = "Action Types"
STANDARD_TYPES = ("Enduring", "Fighting", "Knowing", "Making", "Moving", "Talking", "Sneaking")
LAYOUT = Rule(BOOK, CHAPTER, "you designate two of them as your Strong types and two as Weak. The rest "
                             "are Middling. (line 121)")
CUSTOM_LAYOUT = Rule(BOOK, CHAPTER, "make it one of your Strong types ... three of the standard action "
                                    "types are treated as Weak types (lines 141-145; reading 8)")
STORY_LENGTH = Rule(BOOK, "Your Story", "If your sentence is more than 25 words long, it's too long "
                                        "(line 157)")
HOW_I_DO_IT = Rule(BOOK, CHAPTER, "For each of your Strong action types, write a short phrase "
                                  "describing how you do it (line 149)")


class Grade(Enum):
    """An action type's grade; ``value`` orders them (Strong best)."""

    STRONG = "strong"
    MIDDLING = "middling"
    WEAK = "weak"

    @property
    def level(self) -> int:
        return {Grade.STRONG: 3, Grade.MIDDLING: 2, Grade.WEAK: 1}[self]


def check_grades(grades: Mapping[str, Grade], custom: str | None, referee: Referee, who: str) -> None:
    """The 2/3/2 layout, or with a custom type: custom + 1 standard Strong, 3 Weak, 3 Middling."""
    standard = {name: grades.get(name) for name in STANDARD_TYPES}
    missing = [name for name, grade in standard.items() if grade is None]
    referee.require(not missing, LAYOUT, f"{who} has no grade for {', '.join(missing)}")
    counts = {g: sum(1 for v in standard.values() if v is g) for g in Grade}
    if custom is None:
        referee.require(counts[Grade.STRONG] == 2 and counts[Grade.WEAK] == 2, LAYOUT,
                        f"{who} has {counts[Grade.STRONG]} Strong and {counts[Grade.WEAK]} Weak types, not two of each")
    else:
        referee.require(grades.get(custom) is Grade.STRONG, CUSTOM_LAYOUT,
                        f"{who}'s custom type {custom} must be Strong")
        referee.require(counts[Grade.STRONG] == 1 and counts[Grade.WEAK] == 3, CUSTOM_LAYOUT,
                        f"beside {custom}, {who} has {counts[Grade.STRONG]} Strong and {counts[Grade.WEAK]} Weak, "
                        "not 1 and 3")


def check_story(sentence: str, referee: Referee, who: str) -> None:
    """The story sentence is at most 25 words (SRD 157)."""
    words = len(sentence.split())
    referee.require(words <= 25, STORY_LENGTH, f"{who}'s story sentence has {words} words: at most 25")


def check_how_i_do_it(grades: Mapping[str, Grade], how: Mapping[str, str], referee: Referee,
                      who: str) -> None:
    """A "How I Do It" phrase belongs only to a Strong type (SRD 149)."""
    for name in how:
        referee.require(grades.get(name) is Grade.STRONG, HOW_I_DO_IT,
                        f"{who}'s {name} is not a Strong type: no How I Do It")
