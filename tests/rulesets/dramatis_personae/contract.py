"""Dramatis Personae's contract material (tests/contract/README.md): a short session, its refusals,
and the GM-only events planted after it."""

PLAYER = "Ana"
SHEET = "Faust"
#: Arguments a read verb needs besides --as (an event number, a character).
READ_ARGS = {("explain",): ("10",), ("sheet",): ("Faust",)}

SESSION = """
yarnlog init brocken --title "Walpurgis Night" --gm Maya --ruleset dramatis-personae
yarnlog join Ana
yarnlog join Ben
! yarnlog character create Faust --player Ana --strength "Summoning,Magic"     # level 1: one strength (DP1-DP2)
yarnlog character create Faust --player Ana --level 2 --strength "Summoning,Magical ability,Climbing" \
  --weakness Courage --minutia Latin --quirk Smokes
yarnlog character create Bryn --player Ben --strength "Melee combat"
yarnlog character create Hound --player Maya --strength Biting
yarnlog episode start --title "Up the Brocken"
yarnlog adventure start "Walpurgis Night"
yarnlog scene open --caller Maya --title "The rope bridge"
yarnlog challenge Faust -d Difficult --mod distracting=-3 --gm "skilled climber=+1" --faces 6,6,5,2,6
yarnlog challenge Bryn -d Mundane --time "1 minute:1 minute" --faces 2,2,3
! yarnlog challenge Bryn -d Mundane --time "1 minute:1 minute" --retry-of 11 --faces 4,3,2   # one step later (DP22)
yarnlog challenge Bryn -d Mundane --time "1 minute:5 minutes" --retry-of 11 --faces 4,3,2
yarnlog ranged Bryn --distance 30 --weapon bow --mod braced --mod mobile --faces 6,6,5,4,3
yarnlog melee Bryn Hound --precise "Bryn=Melee combat" --faces Bryn=5,4,3,1,1 --faces Hound=3,3,2
yarnlog finish Bryn Hound --faces 6,5,3
! yarnlog melee Bryn Hound --faces Bryn=6,6,6 --faces Hound=1,1,1          # the Hound is finished (DP27)
yarnlog wound Hound --faces 6,5,4,2,1
yarnlog fight end
yarnlog contest Faust Bryn --faces Faust=5,4,3 --faces Bryn=4,4,3
yarnlog challenge Bryn --pool 3 --faces 6,6,6,6,6,6
! yarnlog challenge Bryn --debt 5 --faces 1,1,1,1,1,1,1,1               # only 4 dice of debt are owed
yarnlog challenge Bryn --debt 2 --faces 1,1,1,1,1
yarnlog pool restore Bryn 1 --ruling "the Walpurgis fires"
yarnlog award Faust 2 --reason "faced the beast"
yarnlog award Bryn 20 --reason "held the cellar"
! yarnlog advance Bryn                                                   # between adventures only (DP39)
yarnlog scene close
yarnlog adventure end
yarnlog advance Bryn
yarnlog character minutia Faust "Witches' runes"
yarnlog character develop Faust Courage --change weakness-eased --ruling "after the hound"
yarnlog ruling "Both flee: no contest happens." --rule DP26
yarnlog scene open --caller Ana --title "The witches' market"
"""

#: GM-only events planted after the session: (the command line, words of it no player may read).
PLANTED = [
    ('note --visibility gm "Grete is Mephisto in disguise."', "Mephisto in disguise"),
    ('ruling --visibility gm "The hound will return at midnight." --about Hound', "return at midnight"),
]
