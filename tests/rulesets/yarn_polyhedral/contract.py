"""The polyhedral Yarn's contract material (tests/contract/README.md): a short session, its
refusals, and the GM-only events planted after it."""

PLAYER = "Ana"
SHEET = "Wren"
#: Arguments a read verb needs besides --as (an event number, a character).
READ_ARGS = {("explain",): ("12",), ("sheet",): ("Wren",)}

SESSION = """
yarnlog init ashen --title "The Ashen Library" --gm Maya --ruleset yarn-polyhedral --option death
yarnlog join Ana
yarnlog join Ben
yarnlog character create Wren --player Ana --points 150 \
  --attributes strength=4,dexterity=6,health=5,intelligence=8,will=6,charisma=5 \
  --skills research=3,knife=2 --drawbacks curious=2
! yarnlog character create Tor --player Ben --points 100 \
  --attributes strength=8,dexterity=6,health=7,intelligence=4,will=5,charisma=4 --skills sword=4
yarnlog character create Tor --player Ben --points 190 \
  --attributes strength=8,dexterity=6,health=7,intelligence=4,will=5,charisma=4 \
  --skills sword=4 --advantages quick=0
yarnlog character create Ghoul --player Maya --points 100 \
  --attributes strength=7,dexterity=5,health=6,intelligence=2,will=3,charisma=1
yarnlog episode start --title Dust
yarnlog scene open --caller Ana --title "The reading room" --cast Wren,Tor
! yarnlog trouble impediment --text "The shelves collapse."   # the narrator holds no trouble
yarnlog tension risk
yarnlog feat Wren --primary intelligence --secondary will --skill research --level --fortune-keep 1 \
  --challenge 9 --faces 8,2,5,3 --what "find the catalogue"
yarnlog feat Tor --primary strength --secondary health --level --explode 2 --challenge 14 \
  --faces 8,2,3 --explosions 8,5 --what "force the iron door"
yarnlog trouble impediment --text "The shelves collapse behind them."
yarnlog tension danger
yarnlog round
yarnlog turn Tor --attribute strength
yarnlog step Tor shift --times 2
yarnlog attack Tor --target Ghoul --weapon "long sword" --defense 5 --primary strength \
  --secondary dexterity --skill sword --level --location head --damage 4 --faces 7,1,6,8
yarnlog resist Ghoul --faces 5,4
yarnlog turn Wren --attribute intelligence
yarnlog feat Wren --primary intelligence --secondary dexterity --trouble 1 --challenge 11 \
  --faces 5,1 --what "read the warding sigil"
yarnlog ruling complication --character Wren "Missed by 5: her lantern shatters."
yarnlog stance Wren evade
yarnlog scene close
yarnlog heal Ghoul 1
yarnlog award Wren 3 --reason "the catalogue"
yarnlog award Tor 2
yarnlog raise Tor sword
yarnlog pay-down Wren curious
yarnlog episode end
yarnlog episode start --title Ink
yarnlog scene open --caller Ben --title "The bindery" --cast Wren,Tor
"""

#: GM-only events planted after the session: (the command line, words of it no player may read).
PLANTED = [
    ('note --visibility gm "The ghoul was once the head librarian."', "head librarian"),
]
