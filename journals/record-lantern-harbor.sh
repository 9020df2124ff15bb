#!/usr/bin/env bash
# Lantern Harbor: a three-episode Yarn 0.1 campaign recorded through the yarnlog CLI, command by
# command, as a GM would record it at the table. See journals/README.md for the story and the
# figures checked by hand (tests/rulesets/yarn/test_sample_journal.py).
#
#   journals/record-lantern-harbor.sh [DATABASE]     (default: a new temporary SQLite file)
#
# Needs `yarnlog` on PATH (activate the virtualenv) or YARNLOG=/path/to/yarnlog. Every die, deck
# of precedence cards and consequence roll is entered as rolled at the table (--faces and
# friends), so the game recorded is the same on every run; only event ids and timestamps differ.
# The run ends with `yarnlog verify` and writes journals/lantern-harbor.jsonl.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DB=${1:-$(mktemp -d)/lantern-harbor.db}
EXPORT="$HERE/lantern-harbor.jsonl"
YARNLOG=${YARNLOG:-yarnlog}
if ! command -v "$YARNLOG" >/dev/null; then
  echo "record-lantern-harbor: no '$YARNLOG' on PATH (activate the virtualenv or set YARNLOG)" >&2
  exit 2
fi
if [ -e "$DB" ]; then
  echo "record-lantern-harbor: $DB already exists; give a new database path" >&2
  exit 2
fi
export COLUMNS=${COLUMNS:-160}  # the tables the GM reads; event numbers are read off their first column
SECONDS=0

LAST=0  # the last event number printed by the last command, as the GM reads it off the screen
y() {
  local out seen
  out=$("$YARNLOG" --db "$DB" "$@")
  printf '%s\n' "$out"
  seen=$(printf '%s\n' "$out" | sed -n 's/^│ *\([0-9][0-9]*\) *│.*/\1/p' | tail -1)
  if [ -n "$seen" ]; then LAST=$seen; fi
}

# ---------------------------------------------------------------------------------------------
# Session zero: the table, the precedence cards, the six player characters, their wants.
# ---------------------------------------------------------------------------------------------
y init lantern --title "Lantern Harbor" --gm Maya
for player in Ana Ben Cy Dee Eli Fay; do y join "$player"; done
y note "Series pitch: a fog-bound fishing harbour where the old lighthouse still burns; the people who keep it lit owe each other more than they can pay."
y precedence draw --purpose creation --order Ben,Ana,Fay,Cy,Eli,Dee --note "cards shuffled at the table"

y character create "Jonah Crane" --player Ben --role "keeper of the Breakwater Light" --desire forgiveness \
  --pole "the prodigal who came home" --pole "the drifter who always leaves" \
  --central "Dockside Brawler:standard" --side "Strong:standard" --side "Lamp Mechanic:technical" \
  --superior "Dockside Brawler" --flaw "Hard Drinker" --fighting "Dockside Brawler" \
  --describe "Dockside Brawler=fists, hooks, bottles and the bar-room floor" \
  --sign "Dockside Brawler=split knuckles" --sign "Strong=a neck like a mooring post" \
  --sign "Lamp Mechanic=lamp oil under his nails" --sign "Hard Drinker=a flask in every pocket" \
  --hp-from Strong --hp-roll "Dockside Brawler=6,5,5,4,3,3,2,2" --hp-descriptor "harbour-rat toughness" \
  --finances "a keeper's wage, drunk by Thursday" --equipment "the lighthouse keys" --equipment "a boathook" \
  --story "My story is of a man who came home to be forgiven and cannot stop leaving." --approved
y character create "Iris Vane" --player Ana --role "harbour pilot" --desire respect \
  --pole "the sea's daughter who answers to no one" --pole "the town's guardian who keeps the lantern lit" \
  --relationship "Jonah Crane=ex-lover" \
  --central "Harbour Pilot:standard" --side "Tough:standard" --side "Swimmer:standard" --superior Tough \
  --flaw "Failing Eyesight" \
  --sign "Harbour Pilot=tide tables inked on her wrist" --sign "Tough=salt-scarred hands" \
  --sign "Swimmer=always damp hair" --sign "Failing Eyesight=squints at the lamp" \
  --hp-from Tough --hp-descriptor "stubborn salt" --finances "a pilot's fees" \
  --equipment "a brass foghorn" --equipment "her father's boat, the Wren" \
  --story "My story is of a woman who wants the harbour's respect and hides that she is going blind." --approved
y character create "Nell Harrow" --player Fay --role "landlady of The Lantern tavern" --desire love \
  --pole "the heart of the harbour" --pole "the woman who sells to anyone" \
  --relationship "Jonah Crane=older sister" --relationship "Iris Vane=best friend since school" \
  --central "Tavern Keeper:standard" --side "Reading People:standard" --side "Knife Fighter:standard" \
  --superior "Reading People" --flaw "Owes Brenner Money" --fighting "Knife Fighter" \
  --sign "Tavern Keeper=a bar towel on her shoulder" --sign "Reading People=a long, level look" \
  --sign "Knife Fighter=a gutting knife at her hip" --sign "Owes Brenner Money=a ledger she hides" \
  --hp-roll "Knife Fighter=6,5,4,4,3,2" --hp-descriptor "grit" --finances "The Lantern, mortgaged" \
  --equipment "a gutting knife" \
  --story "My story is of a woman who holds the harbour together and is quietly selling it." --approved
y character create "Kit Marlowe" --player Cy --role "the harbour's doctor" --desire approval \
  --pole "the healer who keeps every secret" --pole "the gossip who needs to be liked" \
  --relationship "Jonah Crane=patches him up too often" --relationship "Iris Vane=cousin" \
  --relationship "Nell Harrow=lodger above the tavern" \
  --central "Doctor:technical" --side "Calm Under Pressure:standard" --side "Gossip:standard" --superior Doctor \
  --flaw "Drinks With Patients" \
  --sign "Doctor=a battered leather bag" --sign "Calm Under Pressure=steady hands" \
  --sign "Gossip=knows your business" --sign "Drinks With Patients=a second glass" \
  --hp-descriptor "nerve" --finances "unpaid bills" --equipment "a doctor's bag" \
  --story "My story is of a man who heals the harbour and cannot keep its secrets." --approved
y character create "Tobias Wren" --player Eli --role "customs officer" --desire power \
  --pole "the law of the harbour" --pole "the man who can be bought" \
  --relationship "Jonah Crane=arrested him once" --relationship "Iris Vane=rival for the harbour-master post" \
  --relationship "Nell Harrow=secret admirer" --relationship "Kit Marlowe=old schoolmate" \
  --central "Customs Officer:standard" --side "Keen-Eyed:standard" --side "Stubborn:standard" --superior "Keen-Eyed" \
  --flaw Vain --fighting "Customs Officer" \
  --describe "Customs Officer=searches, seizures, regulations, the service revolver and the truncheon" \
  --sign "Customs Officer=a pressed blue uniform" --sign "Keen-Eyed=never blinks" \
  --sign "Stubborn=a jaw like a bollard" --sign "Vain=polished buttons" \
  --hp-from "Customs Officer" --hp-descriptor "regulation fitness" --finances "a civil servant's salary" \
  --equipment "a service revolver" --equipment "a truncheon" \
  --story "My story is of a man who wants to rule the harbour and keeps selling pieces of it." --approved
y character create "Rosa Quill" --player Dee --role "reporter for the Harbour Gazette" --desire acceptance \
  --pole "the outsider who exposes everyone" --pole "the newcomer who wants to belong" \
  --relationship "Jonah Crane=her best informant" --relationship "Iris Vane=writing her father's obituary" \
  --relationship "Nell Harrow=a regular at The Lantern" --relationship "Kit Marlowe=her ex-fiance" \
  --relationship "Tobias Wren=half-sister" \
  --central "Reporter:standard" --side "Sly:standard" --side "Photography:technical" --superior Reporter \
  --flaw "Cannot Keep A Secret" \
  --sign "Reporter=ink on her cuffs" --sign "Sly=a crooked smile" --sign "Photography=a camera on a strap" \
  --sign "Cannot Keep A Secret=talks too fast" \
  --hp-descriptor "nerve" --finances "a reporter's pittance" --equipment "a camera" --equipment "a notebook" \
  --story "My story is of a woman who exposes the harbour while begging it to take her in." --approved

y precedence draw --purpose wants --order Fay,Eli,Ana,Dee,Ben,Cy
y character want "Nell Harrow" --from "Jonah Crane" --want "to come home sober and let her look after him" \
  --why-not "he blames her for selling their father's boat"
y character want "Nell Harrow" --from "Tobias Wren" --want "an honest declaration of love" \
  --why-not "he thinks she is in Brenner's pocket"
y character want "Tobias Wren" --from "Rosa Quill" --want "her respect for the badge" --why-not "she thinks he is a bully"
y character want "Tobias Wren" --from "Iris Vane" --want "to give up her claim to the harbour-master post" \
  --why-not "the post was promised to her father"
y character want "Iris Vane" --from "Jonah Crane" --want "an apology for the night the Wren ran aground" \
  --why-not "he still thinks it was her fault"
y character want "Iris Vane" --from "Kit Marlowe" --want "to keep the secret of her eyes" --why-not "his oath as a doctor"
y character want "Rosa Quill" --from "Kit Marlowe" --want "the truth about the drowned sailor" \
  --why-not "patient confidentiality"
y character want "Rosa Quill" --from "Nell Harrow" --want "a place at the family table" --why-not "Nell distrusts reporters"
y character want "Jonah Crane" --from "Nell Harrow" --want "forgiveness for the years he was gone" \
  --why-not "she buried their father alone"
y character want "Jonah Crane" --from "Rosa Quill" --want "to keep his name out of the paper" \
  --why-not "the story matters more to her"
y character want "Kit Marlowe" --from "Tobias Wren" --want "his blessing for the new clinic" --why-not "the customs budget"
y character want "Kit Marlowe" --from "Iris Vane" --want "her trust in his diagnosis" --why-not "she fears what he will find"

# =============================================================================================
# Episode 1, "Fog on the Water". The GM chooses the first theme: trust.
# =============================================================================================
y episode start --title "Fog on the Water" --theme trust --theme-by Maya
# "Before the episode's first scene, the GM picks the next precedence order." No player chose this
# theme, so the GM frames the opener and the players follow in precedence order:
# calling order Maya, Ana, Cy, Fay, Ben, Eli, Dee.
y precedence draw --purpose calling-order --order Ana,Cy,Fay,Ben,Eli,Dee

# --- Scene 1 (Maya): the opener, procedural. -------------------------------------------------
y call Maya --mode procedural --title "Wreck on the breakwater" --cast "Iris Vane,Jonah Crane" \
  --setting "the Breakwater Light" --situation "Thick fog. The lamp is out and a trawler has struck the breakwater."
y location add "Breakwater Light" --description "a squat granite lighthouse at the end of the breakwater, its lamp older than the town"
y supporting add "Old Tom" --description "a one-handed fisherman who watches the harbour from Pier Nine"
y note "Iris takes the Wren out into the fog; Jonah climbs the gallery to find the lamp smashed."
# Fog: a penalty die; Iris's experience die cancels it ("You can use an experience die to cancel a penalty die").
y roll "Iris Vane" -t "Harbour Pilot" --penalty 1 --xp 1 --why "she has run this channel blind a hundred times" \
  --for "bring the Wren alongside the wreck" --difficulty hard --faces 5,4,3
y roll "smugglers' lookout" -t Alert --dice 2 --secret --faces 4,3
LOOKOUT=$LAST
# From the gallery Jonah has the height: a bonus die, against the lookout's hidden roll.
y roll "Jonah Crane" --no-trait --bonus 1 --for "spot the launch slipping away" --opposed "$LOOKOUT" --faces 6,6,2
y note "Jonah sees a launch without lights slipping out past the breakwater."
y roll "Iris Vane" -t Swimmer --for "get a line to the trawler's skipper" --faces 1,1,4
SWIM=$LAST
y roll "Jonah Crane" -t Strong --for "haul the skipper up the rocks" --faces 3,5,2
HAUL=$LAST
# Simple addition: two people hauling one man out of the water.
y group add "$SWIM" "$HAUL" --against 13
y consequences --roll --face "Jonah Crane:good=6" --face "Iris Vane:bad=1"
y note "Good consequence: Jonah read the launch's name, the Black Gull. Bad consequence: the salt has got into Iris's eyes; she cannot read the chart lights tonight."

# --- Scene 2 (Ana): Iris asks Jonah for an apology. ------------------------------------------
y call Ana --mode dramatic --title "The keeper's gallery" --cast "Iris Vane,Jonah Crane" \
  --setting "Breakwater Light" --time-break "an hour later"
y supporting promote "Old Tom" --pc "Iris Vane" --need "his blessing to take her father's place as harbour master"
y petition refused -p "Iris Vane" -g "Jonah Crane"
y note "Jonah will not say sorry for the night the Wren ran aground. Iris takes a token."

# --- Scene 3 (Cy): Kit asks Iris to trust his diagnosis. -------------------------------------
# Cy first wanted Iris and Old Tom without Kit. Refused (exit 3), he holds no drama token:
#   yarnlog call Cy --mode dramatic --cast "Iris Vane,Old Tom"
#   error: Cy must pay 1 drama token(s) but holds 0 (rule: Yarn 0.1, "Calling Scenes": To cast a scene
#   your player character is not in costs you a drama token (p . 26.))
y call Cy --mode dramatic --title "The surgery" --cast "Kit Marlowe,Iris Vane" --setting "Kit's surgery above The Lantern"
y petition granted -p "Kit Marlowe" -g "Iris Vane"
y note "Iris lets Kit look into her eyes, and hears the word cataract."

# --- Scene 4 (Fay): Nell and Jonah, a two-way exchange. --------------------------------------
y call Fay --mode dramatic --title "Closing time" --cast "Nell Harrow,Jonah Crane" --setting "The Lantern"
y location add "The Lantern" --introduced-by Fay --description "the harbour's only tavern: low beams, a fire, a back room Nell does not show"
y two-way --denied "Nell Harrow" --denied "Jonah Crane"
y note "Nell wants him sober, he wants to be forgiven; neither gets it."

# --- Scene 5 (Ben): Jonah asks Rosa to keep his name out of the paper. -----------------------
y call Ben --mode dramatic --title "Off the record" --cast "Jonah Crane,Rosa Quill" --setting "Pier Nine"
y location add "Pier Nine" --introduced-by Ben --description "the rotten pier where the night boats tie up"
y petition granted -p "Jonah Crane" -g "Rosa Quill"

# --- Scene 6 (Eli): Rosa ducks; Nell has nothing to hide (no contest). ------------------------
y call Eli --mode dramatic --title "The seizure" --cast "Tobias Wren,Nell Harrow,Rosa Quill" --setting "Customs Shed"
y location add "Customs Shed" --introduced-by Eli --description "a tin-roofed shed of seized crates and a stove that never lights"
# Eli describes Rosa's story in the balance; Dee pays a token to duck anyway.
y challenge duck "Rosa Quill" --compel --token
y petition no-contest -p "Tobias Wren" -g "Nell Harrow"
y note "Nell shows Tobias the back room freely: Brenner's crates are gone. No contest; Eli may call again."

# --- Scene 7 (Eli again): Tobias asks Iris to give up her claim; Nell rushes in. -------------
y call Eli --mode dramatic --title "The post" --cast "Tobias Wren,Iris Vane" --setting "Breakwater Light" \
  --time-break "at dusk"
y challenge rush "Nell Harrow" --token
y petition refused -p "Tobias Wren" -g "Iris Vane"
y note "Iris will not give up her father's post. Tobias takes a token from her."

# --- Scene 8 (Dee): a conference at The Lantern, with two petitioners. -----------------------
y call Dee --mode dramatic --kind conference --title "After midnight" \
  --cast "Rosa Quill,Nell Harrow,Jonah Crane,Kit Marlowe" --setting "The Lantern" --time-break "after midnight"
# Ben objects to the jump: Jonah meant to row out after the Black Gull before midnight. Three hands
# each way; the GM finds the call in keeping with the story and votes to uphold it.
y challenge time-jump Ben --for-caller Dee,Ana,Cy --for-challenger Ben,Eli,Fay --tie caller
y quiz --order Ben,Dee --missed "Jonah Crane:Nell Harrow" --got "Rosa Quill:Nell Harrow"
y note "Jonah asks Nell's forgiveness and does not get it; Rosa asks for a seat at the family table and gets one."

# --- Scene 9 (Maya): Old Tom asks Kit to keep a secret. --------------------------------------
y call Maya --mode dramatic --title "What Tom saw" --cast "Kit Marlowe,Old Tom" --setting "Kit's surgery"
y character relate "Kit Marlowe" "Old Tom" --nature "his only patient who pays in fish"
y petition refused -p "Old Tom" -g "Kit Marlowe"

# --- Scene 10 (Ana): a scene without Iris costs Ana a token. ---------------------------------
y call Ana --mode dramatic --title "The name of the boat" --cast "Jonah Crane,Old Tom" --setting "Pier Nine"
y petition granted -p "Jonah Crane" -g "Old Tom"
y note "Old Tom tells Jonah whose launch the Black Gull is: Saul Brenner's."

# --- End of the session: the bennie vote, experience, the theme rota. ------------------------
y ballot --voter Ana --visibility gm Eli Fay Ben Cy Dee
y ballot --voter Ben --visibility gm Fay Ana Eli Cy Dee
y ballot --voter Cy --visibility gm Ben Eli Ana Fay Dee
y ballot --voter Dee --visibility gm Eli Cy Fay Ana Ben
y ballot --voter Eli --visibility gm Ana Fay Dee Cy Ben
y ballot --voter Fay --visibility gm Dee Ben Ana Cy Eli
y ballot --voter Maya --visibility gm Ana Eli Fay Ben Cy Dee
y xp award 2 --reason "one die for a session of worthy play, one for the rescue at the breakwater"
y episode end
# "At the end of the first session, the GM chooses the next precedence ranking": Dee chooses the
# theme of episode 2, Ben of episode 3.
y precedence draw --purpose theme-rota --order Dee,Ben,Fay,Ana,Eli,Cy

# =============================================================================================
# Episode 2, "What Is Owed". Dee chose the theme at the end of the last session: debts.
# Eli, Ana and Fay hold a bennie each.
# =============================================================================================
y episode start --title "What Is Owed" --theme debts --theme-by Dee
# Dee chose the theme and calls first; the GM takes her place in the precedence order:
# calling order Dee, Fay, Eli, Maya, Ana, Cy, Ben.
y precedence draw --purpose calling-order --order Fay,Eli,Dee,Ana,Cy,Ben

# --- Scene 11 (Dee): the opener. -------------------------------------------------------------
y call Dee --mode dramatic --title "The drowned sailor" --cast "Rosa Quill,Kit Marlowe" \
  --setting "the Harbour Gazette's back room"
y petition refused -p "Rosa Quill" -g "Kit Marlowe"
y note "Kit will not tell Rosa how the trawler's deckhand really drowned."

# --- Scene 12 (Fay): a two-way exchange, one granted, one denied. ----------------------------
y call Fay --mode dramatic --title "The family table" --cast "Nell Harrow,Rosa Quill" --setting "The Lantern"
y two-way --granted "Rosa Quill" --denied "Nell Harrow"
y note "Nell sets a place for Rosa at the family table; Rosa will still print the story of Nell's debts."

# --- Scene 13 (Eli): Nell rushes in with a bennie. -------------------------------------------
y call Eli --mode dramatic --title "The debt paper" --cast "Tobias Wren,Iris Vane" --setting "Harbour Office"
y location add "Harbour Office" --introduced-by Eli --description "the harbour master's empty office, its chair kept for whoever wins the council vote"
y challenge rush "Nell Harrow" --bennie
y bennie spend Eli drama-token
y two-way --granted "Tobias Wren" --granted "Nell Harrow"
y note "Tobias tears up Nell's debt paper from the customs ledger; Nell promises to speak for him at the council."

# --- Scene 14 (Maya): the fight at Pier Nine, procedural. ------------------------------------
y call Maya --mode procedural --title "Pier Nine at midnight" --cast "Jonah Crane,Tobias Wren" --setting "Pier Nine" \
  --situation "Brenner's men are unloading the Black Gull by lantern light."
y supporting add "Red Callan" --description "Brenner's bosun, a lead pipe in his fist"
y combatant "Red Callan" --hp 21
y combatant Gus --hp 14 --description "a deckhand with a gutting knife"
y armor "Red Callan" armored-jacket
y fight start --detailed --combatant "Jonah Crane" --combatant "Tobias Wren" --combatant "Red Callan" --combatant Gus
y initiative "Jonah Crane@Dockside Brawler:6,4,3,2" "Tobias Wren@Keen-Eyed:5,5,2,1" "GMCs=2:4,3"
# Round 1, in initiative order. Tobias's truncheon counts as a lead pipe (X2).
y attack "Jonah Crane" "Red Callan" --weapon unarmed --attack-trait "Dockside Brawler" --attack-faces 6,6,5,4 \
  --defense-trait Brawling --defense-dice 3 --defense-combat-trait --defense-faces 2,2,1 --armor-faces 3
y attack "Tobias Wren" Gus --weapon knife --attack-trait "Customs Officer" --attack-faces 5,4,2 \
  --defense-trait Brawling --defense-dice 2 --defense-combat-trait --defense-faces 4,3
y attack "Red Callan" "Jonah Crane" --weapon knife --attack-trait Brawling --attack-dice 3 --attack-combat-trait \
  --attack-faces 6,6,6,5 --defense-trait "Dockside Brawler" --defense-faces 3,2,2,1
y attack Gus "Tobias Wren" --weapon knife --attack-trait Brawling --attack-dice 2 --attack-combat-trait \
  --attack-faces 6,2,1 --defense-trait "Customs Officer" --defense-faces 4,3,3
y fight round
y attack "Jonah Crane" "Red Callan" --weapon unarmed --attack-trait "Dockside Brawler" --attack-faces 6,5,5,4,2 \
  --defense-trait Brawling --defense-dice 3 --defense-combat-trait --defense-faces 6,3,2,1 --armor-faces 2
y fight leave Gus --reason "dives off the pier and swims for the Black Gull"
y fight end --summary "Red Callan is down and in irons; Gus got away; the Black Gull slips her moorings"
y recover "Jonah Crane" --reason "Kit's field dressing and a long sit on the bollard"
y recover "Red Callan" --reason "comes round in the customs cell"
y note "Jonah is badly beaten; Tobias has his first prisoner from Brenner's crew."

# --- Scene 15 (Ana): a healing scene; Ana blocks Nell's rush with a bennie. -------------------
y call Ana --mode dramatic --kind healing --title "Sickbed" --cast "Iris Vane,Jonah Crane" --setting "Breakwater Light" \
  --time-break "next morning"
y challenge rush "Nell Harrow" --token --blocked
y petition granted -p "Iris Vane" -g "Jonah Crane"
y note "At his bedside Jonah finally says it: the Wren was his fault."

# --- Scene 16 (Ben, out of turn by the GM's ruling). -----------------------------------------
y call Ben --mode dramatic --title "Last ferry" --cast "Jonah Crane,Nell Harrow" --setting "The Lantern" \
  --override "Ben must leave for the last ferry; Cy agrees to let him call before his own turn"
y petition refused -p "Jonah Crane" -g "Nell Harrow"

# --- End of the session. ---------------------------------------------------------------------
y ballot --voter Ana --visibility gm Ben Fay Dee Cy Eli
y ballot --voter Ben --visibility gm Eli Cy Fay Ana Dee
y ballot --voter Cy --visibility gm Eli Ana Dee Fay Ben
y ballot --voter Dee --visibility gm Ben Eli Cy Ana Fay
y ballot --voter Eli --visibility gm Dee Cy Ben Ana Fay
y ballot --voter Fay --visibility gm Cy Ana Eli Ben Dee
y ballot --voter Maya --visibility gm Ben Eli Ana Cy Dee Fay
y xp award 2 --reason "one die for the session, one for taking Brenner's bosun"
y episode end

# =============================================================================================
# Episode 3, "The Harbour Council". Ben chose the theme: loyalty. Eli holds two bennies, Ben one.
# =============================================================================================
y episode start --title "The Harbour Council" --theme loyalty --theme-by Ben
# Calling order Ben, Ana, Fay, Cy, Dee, Maya, Eli.
y precedence draw --purpose calling-order --order Ana,Fay,Cy,Dee,Ben,Eli

# --- Scene 17 (Ben): a training scene two days after the fight. ------------------------------
y call Ben --mode dramatic --kind training --title "The lamp room" --cast "Jonah Crane,Rosa Quill" \
  --setting "Breakwater Light" --time-break "two days after the fight"
y petition refused -p "Jonah Crane" -g "Rosa Quill"
y note "Jonah rebuilds the lamp's clockwork from the old keeper's manuals while Rosa photographs him; she will not stop following him."
# Five experience dice (1 at creation + 2 + 2 awarded) raise a 1-die side trait by one.
y xp raise "Jonah Crane" "Lamp Mechanic" --approved --training-scene 17
# Two days in Kit's care, mobile.
y heal "Jonah Crane" --days 2 --activity medical-care

# --- Scene 18 (Ana): a two-way exchange, both denied. ----------------------------------------
y call Ana --mode dramatic --title "Second opinion" --cast "Iris Vane,Kit Marlowe" --setting "Kit's surgery"
y two-way --denied "Iris Vane" --denied "Kit Marlowe"

# --- Scene 19 (Fay): Nell asks Tobias for a straight answer. ---------------------------------
y call Fay --mode dramatic --title "A straight answer" --cast "Nell Harrow,Tobias Wren" --setting "The Lantern"
y petition refused -p "Nell Harrow" -g "Tobias Wren"

# --- Scene 20 (Cy): Nell forces Jonah to come home, Kit supporting. --------------------------
y call Cy --mode dramatic --title "Coming home" --cast "Kit Marlowe,Nell Harrow,Jonah Crane" --setting "The Lantern"
y force -p "Nell Harrow" -g "Jonah Crane" --support "Kit Marlowe=1"
y note "Jonah moves back into the room above the bar and pours the flask into the sink, for tonight at least."

# --- Scene 21 (Dee): Saul Brenner, and two petitioners. --------------------------------------
y call Dee --mode dramatic --title "Brenner's terms" --cast "Rosa Quill,Tobias Wren" --setting "Customs Shed"
y supporting add "Saul Brenner" --recurring --petitioner "Tobias Wren" --introduced-by Dee \
  --description "captain of the Black Gull, the harbour's money-lender and smuggler"
# Introduced while the scene is in play, Brenner joins its cast with the caller's consent.
y challenge rush "Saul Brenner" --consent
y bennie spend Eli drama-token
y quiz --order Dee,Eli --missed "Rosa Quill:Tobias Wren" --missed "Tobias Wren:Saul Brenner"
y note "Brenner will not give Tobias a bigger cut; Tobias will not give Rosa the truth about his deal."

# --- Scene 22 (Eli jumps the queue with a bennie): the council. ------------------------------
y call Eli --jump-queue --mode dramatic --kind conference --title "The harbour council" \
  --cast "Tobias Wren,Iris Vane,Rosa Quill,Jonah Crane" --setting "Harbour Office"
y force -p "Tobias Wren" -g "Iris Vane" --blocked --support "Rosa Quill=1" --block-support "Jonah Crane=2"
y note "Tobias tries to make Iris stand down before the whole council; she refuses, with Jonah at her side, and the chair stays empty."

# --- Scene 23 (Maya): the closer. ------------------------------------------------------------
y call Maya --mode dramatic --title "The keeper's blessing" --cast "Iris Vane,Old Tom" --setting "Breakwater Light"
y petition granted -p "Iris Vane" -g "Old Tom"
y note "Old Tom gives Iris his blessing, and tells her the lamp is hers to keep lit. Out past the breakwater the Black Gull's lights go by."

# --- End of the session. ---------------------------------------------------------------------
y ballot --voter Ana --visibility gm Fay Ben Dee Eli Cy
y ballot --voter Ben --visibility gm Eli Ana Dee Fay Cy
y ballot --voter Cy --visibility gm Ana Fay Eli Dee Ben
WRONG_BALLOT=$LAST
y retract "$WRONG_BALLOT" --reason "Cy swapped Ana and Fay when he read out his card"
y ballot --voter Cy --visibility gm Fay Ana Eli Dee Ben
y ballot --voter Dee --visibility gm Eli Ana Cy Ben Fay
y ballot --voter Eli --visibility gm Cy Ben Ana Dee Fay
y ballot --voter Fay --visibility gm Dee Cy Ben Ana Eli
y ballot --voter Maya --visibility gm Ana Eli Ben Cy Dee Fay
y xp award 2 --reason "one die for the session, one for seeing the council through"
y episode end

y note "End of the first arc: the harbour-master's chair is still empty, and the Black Gull is still at sea."

# =============================================================================================
# The journal checked and written out.
# =============================================================================================
"$YARNLOG" --db "$DB" verify
"$YARNLOG" --db "$DB" export -o "$EXPORT"
echo "recorded Lantern Harbor in $DB in ${SECONDS}s"
