"""Dramatis Personae's pure rules: the roll, difficulty and tiers, modifiers, contests and melee,
the dice pool and advancement, and their exact odds.

Plain data in, plain data out: nothing here knows the journal, pydantic, storage or the command
line. Each rule quotes the book (``BOOK``) with its line and the digest's number (DP1...); the
team's readings of the book's gaps are cited as "reading N" of the rules digest
``shared/rules/002-dramatis-personae.md``, section 4.
"""

BOOK = "Dramatis Personae"

from yarnlog.rulesets.dramatis_personae.rules import book_lines as _book_lines  # noqa: E402, F401 - the index
