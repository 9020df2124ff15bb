#!/usr/bin/env bash
# The Knotted Sea: a one-episode Will & Descriptors campaign recorded through the yarnlog CLI, move
# by move, as a GM would record it at the table. Every move of the ruleset is used once at least;
# the figures are worked by hand in tests/rulesets/will_descriptors/test_sample.py.
#
#   journals/record-knotted-sea.sh [DATABASE]     (default: a new temporary SQLite file)
#
# Needs `yarnlog` on PATH (activate the virtualenv) or YARNLOG=/path/to/yarnlog. Every die is
# entered as it was rolled at the table (--faces, --against-faces, --injury-faces), so the game is
# the same on every run; only event ids and timestamps differ. The run ends with `yarnlog verify`,
# writes journals/knotted-sea.jsonl and the recap in Markdown and HTML.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DB=${1:-$(mktemp -d)/knotted-sea.db}
EXPORT="$HERE/knotted-sea.jsonl"
YARNLOG=${YARNLOG:-yarnlog}
if ! command -v "$YARNLOG" >/dev/null; then
  echo "record-knotted-sea: no '$YARNLOG' on PATH (activate the virtualenv or set YARNLOG)" >&2
  exit 2
fi
if [ -e "$DB" ]; then
  echo "record-knotted-sea: $DB already exists; give a new database path" >&2
  exit 2
fi
export COLUMNS=${COLUMNS:-160}

y() { "$YARNLOG" --db "$DB" "$@"; }

# Session zero: the table, the campaign's numbers the draft leaves open, the characters.
# Reading 1: a Power track of 4 boxes; Will 9 (W1) and d10 (W4) are the draft's defaults, recorded too.
y init sea --title "The Knotted Sea" --gm Maya --ruleset will-descriptors --setting track=4
y join Ana
y join Ben
y join Cy
y character create Christopher --player Ana -d Knots=3:Abilities -d Strong=2 -d Sailor=1 \
  --background "Old navy friend" --key "Bind them all=motivation"
y character create Bob --player Ben -d Slippery=2 -d Proud=2:Values -d Lockpick=1 --key "The lost heir=dramatic"
y character create Abigail --player Cy -d Persuasive=3 -d Medic=2 --key "Peace at any cost=motivation"
y character create "Captain Rook" -d Cutlass=3 -d Cruel=2

y episode start --title "Ropes"
y scene open --caller Maya --title "The hold"
# Christopher ties Bob up, turning Bob's pride against him (W6: Bob gains 1 Will).
y opposed Christopher --against Bob --use Knots --use Bob:Proud --oppose Slippery \
  --faces 9,8,7,3,1 --against-faces 6,2 --stakes "Christopher ties Bob up"
y describe "Bob is tied up" --about Bob
y harm Bob
# Bob wriggles; Christopher invokes the Scene Descriptor against him (W13: 1 Will, nobody gains).
y opposed Bob --against Christopher --use Slippery --use Lockpick --oppose "Bob is tied up" \
  --faces 7,4,2 --against-faces 7,4,1 --stakes "Bob slips the knots"
y harm Christopher
y stick "Bob is tied up" --payer Abigail --to Bob   # Abigail pays to keep him safe (W14)
y opposed Abigail --against Christopher --use Medic --oppose Strong --faces 8,5 --against-faces 5,8 \
  --stakes "Abigail pulls Christopher off Bob"
y shift "The ship lurches: all three are thrown across the hold"
y scene close --summary "Bob stays tied up"

y scene open --caller Maya --title "The deck"
y opposed "Captain Rook" --against Christopher --use Cutlass --use Cruel --oppose Strong \
  --faces 10,6,3,3,2 --against-faces 9,7 --stakes "Rook cuts Christopher down"
y harm Christopher --name "Cut arm"   # box 1 is crossed already: box 2 and an Injury of 2D (W17)
y describe "Rook has the deck" --about "Captain Rook"
y opposed Abigail --against "Captain Rook" --use Persuasive --use "Captain Rook:Cruel" \
  --oppose Cutlass --oppose "Rook has the deck" --faces 10,10,8,2,1 --against-faces 9,5,4,1 \
  --stakes "Abigail turns the crew against their captain"
y harm "Captain Rook" --injury "Shamed before the crew"
y opposed "Captain Rook" --against Bob --use Cutlass --use Cruel --oppose Slippery \
  --faces 9,9,8,8,2 --against-faces 7,3 --stakes "Rook throws Bob overboard"
y harm Bob   # 4 successes: the highest box, Bob is out of the scene (W18)
y recover Christopher --injury "Cut arm" --healer Abigail --use Medic --faces 9,6 --injury-faces 4,3
y scene close --summary "Rook holds the deck; his shame and the Scene Descriptor fade"

# Between scenes: Refreshment scenes (W21-W24), Keys, Advances, rulings.
y refresh Bob --with Abigail --escalation "Rook's crew lowers the longboats"
y refresh Christopher
y heal "Captain Rook" --injury "Shamed before the crew" --reason "The crew forgets by nightfall"
y xp Christopher --key "Bind them all" --trigger despite-risk
y xp Christopher --key "Bind them all" --trigger expresses
y xp Christopher --key "Bind them all" --trigger expresses
y advance Christopher from-background "Old navy friend"
y xp Christopher --key "Bind them all" --trigger despite-risk
y xp Christopher --key "Bind them all" --trigger buyoff
y advance Christopher to-background Sailor
y xp Bob --key "The lost heir" --trigger progresses
y advance Bob raise Lockpick
y xp Bob --key "The lost heir" --trigger buyoff
y advance Bob lower Proud
y xp Abigail --key "Peace at any cost" --trigger buyoff
y advance Abigail new-key "Protect Bob" --framework motivation
y advance Abigail new-descriptor "Ship's surgeon" --category Abilities
y ruling "Three-way fights are settled as pairwise opposed rolls (reading 14)."
y note "Next time: the longboats reach the Knotted Sea."
y episode end

"$YARNLOG" --db "$DB" verify
"$YARNLOG" --db "$DB" export -o "$EXPORT"
"$YARNLOG" --db "$DB" recap --format md > "$HERE/knotted-sea-recap.md"
"$YARNLOG" --db "$DB" recap --format html > "$HERE/knotted-sea-recap.html"
echo "recorded The Knotted Sea in $DB"
