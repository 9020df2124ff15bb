"""The polyhedral Yarn's pure rules: points and level, dice, feats, odds, combat, injuries, turns.

Plain data in, plain data out: nothing here knows the journal, pydantic, storage or the command
line. Each rule is cited by its number in the rules digest ``shared/rules/003-yarn-polyhedral.md``
(``P12``) with the book's line; the team's readings of the book's gaps are "reading N" of the
digest's section 4.
"""

from yarnlog.core.referee import Rule

BOOK = "Yarn (polyhedral)"


def rule(chapter: str, text: str) -> Rule:
    """A citation of the book under ``chapter``."""
    return Rule(BOOK, chapter, text)
