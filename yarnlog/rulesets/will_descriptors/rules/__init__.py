"""Will & Descriptors' pure rules: Will, opposed pools and their odds, harm, refreshment, keys, advances.

Plain data in, plain data out: nothing here knows the journal, pydantic, storage or the command
line (``lint-imports`` checks it). Each rule quotes the draft (``BOOK``) with its number in the
team's digest (``W1`` ...) and the line it decides; the digest's readings of the draft's gaps
(``shared/rules/004-will-descriptors.md``, section 4) are cited as "reading N".
"""

BOOK = "Will & Descriptors (draft)"
