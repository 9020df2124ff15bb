#!/usr/bin/env bash
# The Ashen Library: a two-session campaign of the polyhedral Yarn recorded through the yarnlog CLI,
# command by command, as a narrator would record it at the table. The figures are worked by hand in
# tests/rulesets/yarn_polyhedral/test_sample.py.
#
#   journals/record-ashen-library.sh [DATABASE]     (default: a new temporary SQLite file)
#
# Needs `yarnlog` on PATH (activate the virtualenv) or YARNLOG=/path/to/yarnlog. Every die is entered
# as it was rolled at the table (--faces, --explosions), so the game recorded is the same on every run;
# only event ids and timestamps differ. It ends with `yarnlog verify`, writes
# journals/ashen-library.jsonl and its recaps (Markdown and HTML).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DB=${1:-$(mktemp -d)/ashen-library.db}
YARNLOG=${YARNLOG:-yarnlog}
if ! command -v "$YARNLOG" >/dev/null; then
  echo "record-ashen-library: no '$YARNLOG' on PATH (activate the virtualenv or set YARNLOG)" >&2
  exit 2
fi
if [ -e "$DB" ]; then
  echo "record-ashen-library: $DB already exists; give a new database path" >&2
  exit 2
fi
export COLUMNS=${COLUMNS:-100}
y() { "$YARNLOG" --db "$DB" "$@" >/dev/null || { echo "record-ashen-library: failed: $*" >&2; exit 1; }; }

# Session zero: the narrator Maya, two players, their characters and the narrator's ghoul. Power
# points and rolled attributes are allowed (for the newcomer of session 3).
y init ashen --title "The Ashen Library" --gm Maya --ruleset yarn-polyhedral \
  --option death,power-points,rolled-attributes
y join Ana
y join Ben
y character create Wren --player Ana --points 150 \
  --attributes strength=4,dexterity=6,health=5,intelligence=8,will=6,charisma=5 \
  --skills research=3,knife=2 --drawbacks curious=2
y character create Tor --player Ben --points 190 \
  --attributes strength=8,dexterity=6,health=7,intelligence=4,will=5,charisma=4 \
  --skills sword=4 --advantages quick=0
y character create Ghoul --player Maya --points 100 \
  --attributes strength=7,dexterity=5,health=6,intelligence=2,will=3,charisma=1

# Session 1: Dust.
y episode start --title Dust
y scene open --caller Ana --title "The reading room" --cast Wren,Tor
y tension risk
y feat Wren --primary intelligence --secondary will --skill research --level --fortune-keep 1 \
  --challenge 9 --faces 8,2,5,3 --what "find the catalogue"
y feat Tor --primary strength --secondary health --level --explode 2 --challenge 14 \
  --faces 8,2,3 --explosions 8,5 --what "force the iron door"
y trouble impediment --text "The shelves collapse behind them."
y tension danger
y round
y turn Tor --attribute strength
y step Tor shift --times 2
y attack Tor --target Ghoul --weapon "long sword" --defense 5 --primary strength --secondary dexterity \
  --skill sword --level --location head --damage 4 --faces 7,1,6,8
y step Tor sword
y resist Ghoul --faces 5,4
y turn Wren --attribute intelligence
y feat Wren --primary intelligence --secondary dexterity --trouble 1 --challenge 11 --faces 5,1 \
  --what "read the warding sigil"
y ruling complication --character Wren "Missed by 5: her lantern shatters and the sigil flares."
y stance Wren evade
y scene close
y heal Ghoul 1
y train Wren research
y award Wren 3 --reason "the catalogue"
y award Tor 2
y raise Tor sword
y pay-down Wren curious
y episode end

# Session 2: Ink.
y episode start --title Ink
y scene open --caller Ben --title "The bindery" --cast Wren,Tor
y flashback Wren locksmith --rank 2 --drawbacks jumpy=1 --discount
y feat Tor --primary strength --secondary health --effort --challenge 10 --faces 6,6,2 \
  --what "hold the press open"
y rest Tor --full
y tension risk
y scene close
y award Wren 1
y award Tor 1
y episode end

# Between sessions: Cy joins. Sable starts at the lowest PC's minimum (Wren, level 3: 150; the
# narrator's ghoul is no PC), attributes rolled 3d10 each, powers from power points (P51, P58, P59).
y join Cy
y character create Sable --player Cy --newcomer \
  --rolled strength=14,dexterity=21,health=15,intelligence=12,will=18,charisma=9 \
  --skills knife=3,stealth=6,climbing=6,lore=4 --advantages "night eyes=3" --drawbacks short-sighted=1 \
  --powers shadow-step=3 --power-points 8
y character create Warden --player Maya --points 100 \
  --attributes strength=7,dexterity=5,health=6,intelligence=3,will=4,charisma=2 --skills sword=3

# Session 3: Vellum.
y episode start --title Vellum
y scene open --caller Cy --title "The scriptorium" --cast Wren,Tor,Sable
y attain Wren "old script"
y trouble routine-roll --against Sable --text "Even the scriptorium's ladder wants a climbing roll."
y tension danger
y round
y turn Wren --attribute intelligence
y cooperate Sable --attribute dexterity
y feat Wren --primary intelligence --secondary dexterity --initiative --faces 3,2
y feat Sable --primary dexterity --secondary intelligence --initiative --faces 7,4
y feat Warden --primary dexterity --secondary strength --initiative --faces 4,4
y attack Warden --target Sable --weapon "short sword" --primary strength --secondary dexterity --skill sword \
  --location arm --faces 6,3,5
y resist Sable --faces 4,3
y step Sable shift
y step Sable knife
y attack Sable --target Warden --weapon knife --primary dexterity --skill knife --level --arm 1 \
  --drawback short-sighted=sight-or-hearing --damage 2 --knock-back 1 --faces 8,2,5
y resist Warden --faces 2,3
y feat Wren --primary intelligence --secondary will --effort --challenge 9 --faces 5,6,2 \
  --what "copy the warding script"
y round
y turn Tor --attribute strength
y attack Warden --target Tor --weapon "short sword" --primary strength --secondary dexterity --skill sword \
  --location leg --faces 6,2,4
y resist Tor --faces 3,4
y step Tor shift --times 4
y step Tor sword
y attack Tor --target Warden --weapon "long sword" --primary strength --secondary dexterity --skill sword \
  --level --location head --damage 6 --faces 8,3,5,9
y resist Warden --faces 3,2
y stance Tor active-defense --skill sword
y scene close
y ruling rest --character Wren "An hour's rest among the copy desks gives back one effort."
y rest Wren --short --regained 1
y heal Sable 1
y award Wren 1
y award Tor 1
y award Sable 1
y episode end
y narrator Ben

"$YARNLOG" --db "$DB" verify >/dev/null
"$YARNLOG" --db "$DB" export -o "$HERE/ashen-library.jsonl"
"$YARNLOG" --db "$DB" recap -o "$HERE/ashen-library-recap.md"
"$YARNLOG" --db "$DB" recap -f html -o "$HERE/ashen-library-recap.html"
echo "recorded The Ashen Library in $DB"
