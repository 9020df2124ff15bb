"""DramaSystem's pure rules: cards, procedural tokens, resolutions, contests and their odds.

Plain data in, plain data out: nothing here knows the journal, pydantic, storage or the command
line (``lint-imports`` checks it). Each rule quotes the SRD (``BOOK``) with the line it decides;
the team's readings of the book's gaps are cited as "reading N" of the rules digest
``shared/rules/001-dramasystem.md``, section 4.
"""

BOOK = "DramaSystem SRD"

from yarnlog.rulesets.dramasystem.rules import book_lines  # noqa: E402, F401  (the book's index, for short citations)
