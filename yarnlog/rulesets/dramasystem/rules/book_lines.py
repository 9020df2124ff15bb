"""Where the DramaSystem SRD's sections start (the line of each heading in the book,
``shared/seeds/001_d92eeb8e25f80b6a.txt``), for the rules its citation gives no number or line:
a refusal too long for its section's name names the rule as ``SRD 421``
(:func:`yarnlog.core.referee.index_book`)."""

from yarnlog.core.referee import index_book

from . import BOOK

LINES = {
    'Action Types': 117,
    'How You Do It': 147,
    'Your Story': 153,
    'Procedural Resolution': 421,
    'Calling a Procedural Scene': 431,
    'Step One: The GM Spends For the Opposition': 443,
    'Knocking Out Cards': 482,
    'Multiple Resolutions': 565,
    'Player vs. Player': 579,
    'Solo Actions': 611,
    'Resolving Consequences': 637,
    'Bennies': 695,
    'Spending Bennies': 722,
    'Advanced Procedural System': 776,
    'Step One: The GM Declares Difficulty': 794,
    'Advanced Procedural System: Player vs. Player': 915,
}

index_book(BOOK, "SRD", LINES)
