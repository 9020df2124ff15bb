"""Where the book's sections start (the line of each heading in
``shared/seeds/002_7af0b39949a564d4.txt``), so that a refusal too long for its section's name and
without a DP number names the rule as ``DP 221`` (:func:`yarnlog.core.referee.index_book`)."""

from yarnlog.core.referee import index_book

BOOK = "Dramatis Personae"

LINES = {
    "Step 2. Determine Starting Attributes": 29,
    "Step 3. Minutia/Quirks": 43,
    "Experience and Levels": 59,
    "Advancement through Experience": 61,
    "Advancing Levels": 65,
    "The Dice Pool": 67,
    "Using the Dice Pool": 69,
    "Challenges": 75,
    "Partial Success/Partial Failure": 77,
    "Challenge Difficulty Chart": 85,
    "Modifications to the Challenge Rolls": 100,
    "Time": 126,
    "Contests": 158,
    "Combat Results": 168,
    "Common Modifiers to Melee Contests": 182,
    "Ranged Combat Modifiers": 204,
    "Consequences of Melee Combat": 221,
}

index_book(BOOK, "DP", LINES)
