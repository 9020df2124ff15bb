"""Will & Descriptors' pure rules: Will, opposed pools and their odds, harm, refreshment, keys, advances.

Plain data in, plain data out: nothing here knows the journal, pydantic, storage or the command
line (``lint-imports`` checks it). Each rule quotes the draft (``BOOK``) with its number in the
team's digest (``W1`` ...) and the line it decides; the digest's readings of the draft's gaps
(``shared/rules/004-will-descriptors.md``, section 4) are cited as "reading N".
"""

import re

from yarnlog.core.referee import Rule

BOOK = "Will & Descriptors (draft)"

_NUMBER = re.compile(r"\((W\d+(?:-W\d+)?|reading \d+)")


def rule(heading: str, text: str) -> Rule:
    """A rule of the draft under ``heading``, its chapter ending in the digest's number quoted in
    ``text`` ("Refreshment scenes: W21"), so a refusal too short for the heading names the number."""
    found = _NUMBER.search(text)
    return Rule(BOOK, f"{heading}: {found.group(1)}" if found else heading, text)
