"""Will & Descriptors' contract material (tests/contract/README.md): a short session of its own
moves, its refusals, and the GM-only events planted after it."""

PLAYER = "Ana"
SHEET = "Christopher"
#: Arguments a read verb needs besides --as (an event number, a character).
READ_ARGS = {("explain",): ("9",), ("sheet",): ("Christopher",)}

SESSION = """
yarnlog init ropes --title "Ropes" --gm Maya --ruleset will-descriptors --setting track=4
yarnlog join Ana
yarnlog join Ben
yarnlog join Cy
yarnlog character create Christopher --player Ana -d Knots=3:Abilities -d Strong=2 -d Sailor=1 \
  --background "Old navy friend" --key "Bind them all=motivation"
yarnlog character create Bob --player Ben -d Slippery=2 -d Proud=2:Values --key "The lost heir=dramatic"
yarnlog character create Abigail --player Cy -d Persuasive=3 -d Medic=2
yarnlog episode start --title "Knots"
yarnlog scene open --caller Maya --title "The hold"
! yarnlog refresh Bob                                                   # W21: between scenes only
yarnlog opposed Christopher --against Bob --use Knots --use Bob:Proud --oppose Slippery \
  --faces 9,8,7,3,1 --against-faces 6,2 --stakes "Christopher ties Bob up"
! yarnlog describe "Bob is tied up" --dice 9 --about Bob                # W13: no more dice than successes
yarnlog describe "Bob is tied up" --about Bob
yarnlog harm Bob
yarnlog stick "Bob is tied up" --payer Abigail --to Bob
yarnlog opposed Abigail --against Christopher --use Medic --oppose Strong --faces 8,5 --against-faces 5,8
yarnlog shift "The ship lurches"
yarnlog opposed Christopher --against Bob --use Strong --oppose Slippery --faces 9,6 --against-faces 4,3
yarnlog harm Bob --injury "Bruised ribs"
yarnlog recover Bob --injury "Bruised ribs" --healer Abigail --use Medic --faces 9,6 --injury-faces 4,3
yarnlog scene close --summary "Bob stays tied up"
yarnlog refresh Bob --with Abigail --escalation "Rook's crew lowers the longboats"
yarnlog xp Christopher --key "Bind them all" --trigger buyoff
! yarnlog advance Bob raise Slippery                                    # no Advance to spend
yarnlog advance Christopher raise Strong
yarnlog ruling "Three-way fights are pairwise opposed rolls (reading 14)."
yarnlog note "Next time: the longboats."
yarnlog scene open --caller Maya --title "The deck"
"""

#: GM-only events planted after the session: (the command line, words of it no player may read).
PLANTED = [
    ('note --visibility gm "Captain Rook is Bob\'s own father."', "own father"),
]
