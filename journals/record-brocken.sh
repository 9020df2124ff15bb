#!/usr/bin/env bash
# Walpurgis Night: a two-episode Dramatis Personae campaign recorded through the yarnlog CLI,
# command by command, as a GM would record it at the table. Every move of the system is used; the
# figures are worked out by hand in tests/rulesets/dramatis_personae/test_sample.py.
#
#   journals/record-brocken.sh [DATABASE]     (default: a new temporary SQLite file)
#
# Needs `yarnlog` on PATH (activate the virtualenv) or YARNLOG=/path/to/yarnlog. Every die is
# entered as it was rolled at the table (--faces), so the game recorded is the same on every run;
# only event ids and timestamps differ. It ends with `yarnlog verify`, writes journals/brocken.jsonl
# and the recap journals/brocken-recap.md and .html.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DB=${1:-$(mktemp -d)/brocken.db}
YARNLOG=${YARNLOG:-yarnlog}
if ! command -v "$YARNLOG" >/dev/null; then
  echo "record-brocken: no '$YARNLOG' on PATH (activate the virtualenv or set YARNLOG)" >&2
  exit 2
fi
if [ -e "$DB" ]; then
  echo "record-brocken: $DB already exists; give a new database path" >&2
  exit 2
fi
export COLUMNS=${COLUMNS:-100}

y() { "$YARNLOG" --db "$DB" "$@"; }

# Session zero: Maya is the GM; Ana plays Faust, Ben plays Bryn; the GM plays the Hound and Grete.
y init brocken --title "Walpurgis Night" --gm Maya --ruleset dramatis-personae   # 1
y join Ana                                                                       # 2
y join Ben                                                                       # 3
y character create Faust --player Ana --level 2 \
  --strength "Summoning,Magical ability,Climbing" --weakness Courage --general "Magical ability" \
  --minutia Latin --quirk Smokes --background "A scholar of Wittenberg who sold too much." \
  --description "Thin, ink-stained, always cold." --status "Fleeing his creditors" \
  --possession "grimoire,chalk"                                                  # 4
y character create Bryn --player Ben --level 1 --strength "Melee combat" \
  --minutia "Street slang" --quirk "Fear of crowds" --background "A brawler from the Harz mines." \
  --possession "cudgel"                                                          # 5
y character create Hound --player Maya --level 1 --strength Biting               # 6
y character create Grete --player Maya --level 1 --strength Haggling             # 7
y award Bryn 18 --reason "dice saved from his earlier adventures"                # 8

# Episode 1: the adventure begins; pools of level² dice.
y episode start --title "Up the Brocken"                                         # 9
y adventure start "Walpurgis Night"                                              # 10
y scene open --caller Maya --title "The rope bridge" --setting "A 20 m chasm, wind and rain"  # 11
# The book's chasm (line 152): Difficult 14+, wind and rain -3d6, a skilled climber +1d6: net -2d6.
y challenge Faust -d Difficult --mod distracting=-3 --gm "skilled climber assisting=+1" \
  --faces 6,6,5,2,6 --task "Cross the rope bridge"                               # 12
y challenge Bryn -d Difficult --mod distracting=-3 --gm "skilled climber assisting=+1" \
  --pool 1 --faces 6,6,5,5 --task "Cross the rope bridge"                        # 13
y note "Faust slips; Bryn hauls him over by the collar."                         # 14
y scene close --summary "Across, wet through."                                   # 15

y scene open --caller Ana --title "The summoning"                                # 16
# Faust's summoning (line 37): precise +2d6, related +1d6, Courage -1d6: +2d6, and 2 pool dice.
y challenge Faust -d Heroic --precise Summoning --related "Magical ability" --related Courage \
  --pool 2 --faces 6,5,5,4,3,2,1 --task "Summon a foul beast"                    # 17
y award Faust 1 --reason "a bold summoning"                                      # 18
y scene close                                                                    # 19

y scene open --caller Ben --title "The locked gate"                              # 20
# Lock-picking (line 128): fails after 1 minute, tries again after 5 minutes, with no bonus.
y challenge Bryn -d Mundane --time "1 minute:1 minute" --faces 2,2,3 --task "Pick the lock"  # 21
y challenge Bryn -d Mundane --time "1 minute:5 minutes" --retry-of 21 --faces 4,3,2 \
  --task "Pick the lock"                                                         # 22
# A ranged attack (line 202): 11+; 30 m with a bow is Medium (-2d6), braced +1d6, mobile -1d6.
y ranged Bryn --distance 30 --weapon bow --mod braced --mod mobile --faces 6,6,5,4,3 \
  --task "Shoot the watchman's lantern"                                          # 23
y scene close                                                                    # 24

y scene open --caller Maya --title "The cellar" --setting "Under the witches' inn"   # 25
y melee Bryn Hound --fight cellar --precise "Bryn=Melee combat" --mod "Bryn=armed-vs-unarmed" \
  --related "Hound=Biting" --faces Bryn=5,4,3,2,2,1 --faces Hound=6,4,3,1         # 26
y melee Bryn Hound --fight cellar --precise "Bryn=Melee combat" --mod "Bryn=armed-vs-unarmed" \
  --pool Bryn=1 --related "Hound=Biting" --faces Bryn=6,6,5,2,1,1 --faces Hound=4,3,2,1   # 27
y finish Bryn Hound --fight cellar --faces 6,5,5,4                               # 28
y wound Hound --fight cellar --faces 6,5,4,2,1                                   # 29
y wound Bryn --fight cellar --faces 6,5,3,3                                      # 30
y fight end cellar                                                               # 31
y ruling "The hound limps off into the dark; it may come back." --about Hound --rule "lines 196-198"  # 32
y scene close                                                                    # 33

y scene open --caller Ana --title "The witches' market"                          # 34
y contest Faust Grete --related "Grete=Haggling" --faces Faust=5,4,2 --faces Grete=6,3,2,1 \
  --task "Haggle for mandrake"                                                   # 35
y ruling "A standoff: both walk away from the stall, and come back." --rule "reading 2"  # 36
y contest Faust Grete --related "Grete=Haggling" --accept Faust=1 --faces Faust=6,5,4,1 \
  --faces Grete=6,3,2,1 --task "Haggle for mandrake"                             # 37
y ruling "Grete knows Faust's creditor." --about Grete --visibility gm           # 38
y pool restore Faust 2 --ruling "The Walpurgis fires renew his magic"            # 39
y scene close                                                                    # 40
y award Faust 2 --reason "faced the hound's master"                              # 41
y award Bryn 2 --reason "held the cellar door alone"                             # 42
y award Bryn 1 --bad --reason "ran from the market crowd"                        # 43
y character minutia Faust "Witches' runes"                                       # 44
y character develop Faust Courage --change weakness-eased --ruling "after facing the hound"   # 45
y adventure end                                                                  # 46
y episode end                                                                    # 47

# Between adventures: Bryn buys 2nd level with 20 saved bonus dice (line 65).
y advance Bryn                                                                   # 48

# Episode 2: a new adventure, new pools.
y episode start --title "Auerbach's cellar"                                      # 49
y adventure start "Auerbach's cellar"                                            # 50
y scene open --caller Ben --title "The wine barrels"                             # 51
# The GM applies Bryn's dice debt (reading 3): +1d6 related, -2d6 of debt.
y challenge Bryn --related "Melee combat" --debt 2 --faces 6,5,2,1 --task "Shoulder the barrel"   # 52
# Melee: two pool dice after the roll buy one die; the best three are kept again (line 192).
y melee Bryn Hound --fight brawl --after-pool Bryn=2 --faces Bryn=3,2,1 --after-faces Bryn=6 \
  --faces Hound=4,4,2                                                            # 53
y fight end brawl                                                                # 54
# A contest of three (line 158): 14 beats 11 by 3 (partial) and 5 by more than twice (critical).
y contest Bryn Faust Grete --faces Bryn=6,5,3 --faces Faust=4,4,3 --faces Grete=2,2,1 \
  --task "First to the last barrel"                                              # 55
y scene close                                                                    # 56
y episode end                                                                    # 57

y verify
y export -o "$HERE/brocken.jsonl"
y recap --series -o "$HERE/brocken-recap.md"
y recap --series --players --format html -o "$HERE/brocken-recap.html"
