#!/usr/bin/env bash
# The Copper Reef: a two-episode DramaSystem campaign recorded through the yarnlog CLI, command by
# command, as a GM would record it at the table. See journals/README.md for the story and the
# figures checked by hand (tests/rulesets/dramasystem/test_sample_dramasystem.py).
#
#   journals/record-copper-reef.sh [DATABASE]     (default: a new temporary SQLite file)
#
# Needs `yarnlog` on PATH (activate the virtualenv) or YARNLOG=/path/to/yarnlog. Every card is
# entered as it was drawn at the table (--card, --cards, --opening, --consequence-card) and every
# fresh precedence as the index cards fell (--order), so the game recorded is the same on every
# run; only event ids and timestamps differ. The run ends with `yarnlog verify` and writes
# journals/copper-reef.jsonl.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DB=${1:-$(mktemp -d)/copper-reef.db}
EXPORT="$HERE/copper-reef.jsonl"
YARNLOG=${YARNLOG:-yarnlog}
if ! command -v "$YARNLOG" >/dev/null; then
  echo "record-copper-reef: no '$YARNLOG' on PATH (activate the virtualenv or set YARNLOG)" >&2
  exit 2
fi
if [ -e "$DB" ]; then
  echo "record-copper-reef: $DB already exists; give a new database path" >&2
  exit 2
fi
export COLUMNS=${COLUMNS:-160}
SECONDS=0

y() { "$YARNLOG" --db "$DB" "$@"; }

# ---------------------------------------------------------------------------------------------
# Session zero: the GM, five players, their characters and action types.
# ---------------------------------------------------------------------------------------------
y init reef --title "The Copper Reef" --gm Maya --ruleset dramasystem
y join Ana
y join Ben
y join Cy
y join Dee
y join Eli
y note "Series pitch: a salvage crew works the wreck-strewn Copper Reef, where every hull on the bottom belongs to somebody who wants it back."

# "GM determines precedence" (step 2); in that order each player proclaims a character and its
# relationship to every character already proclaimed (steps 3-6).
y precedence draw --purpose creation --order Ana,Ben,Cy,Dee,Eli
y character create "Mara Quell" --player Ana --role "captain of the salvage tug Gannet" --desire respect \
  --poles "the captain who keeps her crew alive,the captain who keeps the cargo" \
  --strong Talking,Moving --weak Knowing,Making \
  --how "Talking=a captain's bark that carries over the engines" --how "Moving=rope, rigging and a long jump" \
  --story "My story is of a woman who bought a tug to be free and now owes everyone on the reef."
y character create "Otto Brand" --player Ben --role "the Gannet's hard-hat diver" --desire forgiveness \
  --poles "the loyal hand,the man who left his partner on the bottom" \
  --strong Enduring,Fighting --weak Talking,Sneaking \
  --how "Enduring=holds his breath longer than the air lasts" --how "Fighting=a diving knife and no manners" \
  --story "My story is of a man who left his partner drowning and dives every day to find him."
y character create "Lio Fenn" --player Cy --role "engineer" --desire approval \
  --poles "the genius below decks,the boy who wants to be seen" \
  --custom Engines --strong Making --weak Fighting,Talking,Moving \
  --how "Engines=listens to the pistons like a doctor to a heart" --how "Making=welds anything to anything" \
  --story "My story is of a man who can fix any engine and cannot ask his captain for anything."
y character create "Sable Roux" --player Dee --role "smuggler riding with the crew" --desire love \
  --poles "the free spirit,the woman who wants a home port" \
  --strong Sneaking,Moving --weak Enduring,Fighting \
  --how "Sneaking=goes where the harbour lights do not reach" --how "Moving=swims like an eel" \
  --story "My story is of a woman who smuggles for the cartel and has fallen for the captain."
y character create "Hask Morrow" --player Eli --role "salvage-rights clerk" --desire power \
  --poles "the honest clerk,the man who sells the reef to the highest bidder" \
  --strong Knowing,Talking --weak Fighting,Moving \
  --how "Knowing=remembers every deed filed since the war" --how "Talking=speaks the language of forms" \
  --story "My story is of a man who owns the paperwork to every wreck and none of the courage."
y character relate "Otto Brand" "Mara Quell" --nature "his captain, who took him on after the accident"
y character relate "Lio Fenn" "Mara Quell" --nature "his captain"
y character relate "Lio Fenn" "Otto Brand" --nature "the diver who blames the Gannet's engines"
y character relate "Sable Roux" "Mara Quell" --nature "the captain she has fallen for"
y character relate "Sable Roux" "Otto Brand" --nature "her cover on the cartel's night runs"
y character relate "Sable Roux" "Lio Fenn" --nature "the boy who keeps her radio working"
y character relate "Hask Morrow" "Mara Quell" --nature "the captain whose claims he files last"
y character relate "Hask Morrow" "Otto Brand" --nature "the only witness to his forged deed"
y character relate "Hask Morrow" "Lio Fenn" --nature "his sister's boy"
y character relate "Hask Morrow" "Sable Roux" --nature "the smuggler who pays him to look away"
# "GM chooses a new precedence order" (step 9); in it each player names a want and its holder says
# why it can't be had (10-13), twice round, until every PC is the object of two wants (14; DS9).
y precedence draw --purpose wants --order Dee,Eli,Ben,Ana,Cy
y character want "Sable Roux" --from "Mara Quell" --want "a home port on the Gannet" \
  --why-not "Mara will not berth a cartel smuggler"
y character want "Hask Morrow" --from "Lio Fenn" --want "a lie to cover the Sister's papers" \
  --why-not "Lio cannot lie to his captain"
y character want "Otto Brand" --from "Sable Roux" --want "silence about the partner he left below" \
  --why-not "Sable trades in secrets"
y character want "Mara Quell" --from "Hask Morrow" --want "her claim filed first" \
  --why-not "Hask files the cartel's claims first, for a fee"
y character want "Lio Fenn" --from "Mara Quell" --want "to be seen as more than the engine" \
  --why-not "Mara only looks below decks when the engine stops"
y character want "Sable Roux" --from "Otto Brand" --want "a partner on the cartel's runs" \
  --why-not "Otto will not leave another partner on the bottom"
y character want "Hask Morrow" --from "Otto Brand" --want "the Sister's deed kept quiet" \
  --why-not "Otto saw him forge it"
y character want "Otto Brand" --from "Lio Fenn" --want "the truth about the engine the day his partner drowned" \
  --why-not "Lio rebuilt that engine and is afraid of the answer"
y character want "Mara Quell" --from "Sable Roux" --want "Sable out of the cartel" \
  --why-not "the cartel does not let go"
y character want "Lio Fenn" --from "Hask Morrow" --want "his uncle's signature on the Sister's papers" \
  --why-not "Hask signs nothing he can be hanged for"
# "With a renewed order of precedence and an initial scene framing, play begins." (step 18)
y precedence draw --purpose play-begins --order Cy,Ana,Eli,Dee,Ben
y procedural-tokens

# =============================================================================================
# Episode 1: "The Wreck of the Gannet's Sister" (greed)
# =============================================================================================
y episode start --title "The Wreck of the Gannet's Sister" --theme greed --theme-by Maya

# --- Scene 1 (Ana): a simple resolution against the GM's yellow; a knock-out waits for a match. -
y scene open --caller Ana --mode procedural --cast "Mara Quell,Otto Brand,Lio Fenn" \
  --setting "forty feet down on the Sister's deck" --situation "raise the strongbox before the tide turns"
y location add "the Sister's wreck" --introduced-by Ana \
  --description "a copper-hulled freighter on her side, forty feet down, her hold still sealed"
y odds red yellow green yellow    # the players' tokens as they plan them: the chance against each GM token
y oppose yellow
y target --card 9H --order Ben,Dee,Ana,Eli,Cy
y draw Ben --token red --cards JS          # no card matches: the knock-out waits for the next match
y draw Dee --token yellow --cards 2H      # absent, she helps with yellow; her 2♥ is knocked out at once
y draw Ana --token green --cards QH,7C
y draw Eli --pass                         # absent, he keeps his tokens
y draw Cy --token yellow --cards 9D
y resolve
y note "Otto's line fouls on the rail and Lio cuts it free just in time; the strongbox comes up."
y scene close --summary "The strongbox is aboard; Mara owes Lio, and Otto owes a new line"

# --- Scene 2 (Dee): the GM's green; a value match knocked out by a red token. -----------------
y scene open --caller Dee --mode procedural --cast "Sable Roux,Hask Morrow" \
  --setting "the records office at midnight" --situation "copy the Sister's salvage deed before dawn"
y oppose green
y target --card 6S --order Eli,Ana,Dee,Cy,Ben
y draw Eli --token green --cards 10S,3C
y draw Ana --token yellow --cards KH
y draw Dee --token red --cards 6C         # the 6♣ matches the value, and the GM knocks it out
y draw Cy --pass
y draw Ben --token green --cards AS,8D    # absent: an ace, a face card, with green
y resolve
y scene close --summary "The watchman comes back early; the deed stays in the drawer"

# --- Scene 3 (Ben): the GM's red; Ben's third token refreshes his pile. -----------------------
y scene open --caller Ben --mode procedural --cast "Otto Brand,Hask Morrow" \
  --setting "the harbour master's launch" --situation "keep the harbour master from boarding the Gannet"
y supporting add "Harbour Master Quint" --introduced-by Ben \
  --description "the harbour master, who takes a cut of every salvage on the reef"
y oppose red
y target --card 10D --order Ana,Ben,Cy,Dee,Eli
y draw Ana --pass
y draw Ben --token yellow --cards 3H
y draw Cy --pass
y draw Dee --pass
y draw Eli --token red --cards KS         # a king with red: an obstacle; the GM knocks out the 3♥
y resolve
y procedural-tokens
y scene close --summary "The harbour master boards and finds the strongbox"

# --- Scene 4 (Ana): an advanced resolution, every kind of redraw. -----------------------------
y scene open --caller Ana --mode procedural --cast "Mara Quell,Otto Brand,Lio Fenn" \
  --setting "the harbour master's office" --situation "talk the strongbox back"
y supporting detail "Harbour Master Quint" "keeps the strongbox under his desk and his price in his head"
y advanced open "Mara Quell" --type Talking --token yellow --opening 3S,KH,5D
y advanced primary --cards 2C,QD
y advanced redraw Ben --token red --card 9C --consequence-card 4D
y advanced redraw Cy --token green --card 6D --consequence-card AH
y advanced redraw Ana --cash-in --card JC  # the advantage of her Q♥ in scene 1
y advanced redraw Dee --absent-green --card KS
y advanced clinch
y scene close --summary "The harbour master hands the strongbox back, and asks for a share"

# --- Scene 5 (Eli): an advanced resolution against the GM's red; a Weak primary. --------------
y scene open --caller Eli --mode procedural --cast "Hask Morrow,Sable Roux" \
  --setting "the cartel's warehouse" --situation "slip out with the cartel's ledger"
y location add "the cartel's warehouse" --introduced-by Eli \
  --description "a tin shed on the north quay where the cartel's launches unload after dark"
y supporting add Vargas --introduced-by Dee --description "the cartel's quartermaster, who never forgets a face"
y advanced open "Hask Morrow" --type Moving --token red --opening 4C
y advanced primary --cards 5S,9C
y advanced redraw Dee --token yellow --card 8C
y advanced clinch
y scene close --summary "Hask trips on the stair; the cartel knows his face now"

# --- Scenes 6-9: the dramatic side (DS20-DS23): drama tokens from the kitty, a two-way, a force. --
y scene open --caller Ana --mode dramatic --cast "Mara Quell,Otto Brand" --setting "the Gannet's galley" \
  --situation "Mara asks Otto to dive the Sister again"
y supporting add "Nan Pell" --introduced-by Ben \
  --description "the widow of Otto's drowned partner, who mends nets on the quay"
y petition refused -p "Mara Quell" -g "Otto Brand"
y scene open --caller Dee --mode dramatic --cast "Sable Roux,Mara Quell" --setting "the wheelhouse at night" \
  --situation "Sable asks Mara for a berth on the Gannet"
y petition granted -p "Sable Roux" -g "Mara Quell"
y scene open --caller Cy --mode dramatic --cast "Lio Fenn,Hask Morrow" --setting "the records office" \
  --situation "each wants the other to sign the Sister's papers"
y two-way --denied "Lio Fenn" --denied "Hask Morrow"
y scene open --caller Ana --mode dramatic --cast "Mara Quell,Hask Morrow" --setting "the quay" \
  --situation "Mara makes Hask file her claim first"
y force -p "Mara Quell" -g "Hask Morrow"
y scene close --summary "Hask files Mara's claim, and hates her for it"
y procedural-tokens
# The bennie vote (DS73-DS75): each player ranks the others, #1 best; the GM ranks every player.
y ballot --voter Ana --visibility gm Ben Dee Cy Eli
y ballot --voter Ben --visibility gm Ana Cy Dee Eli
y ballot --voter Cy --visibility gm Ana Ben Eli Dee
y ballot --voter Dee --visibility gm Ana Eli Ben Cy
y ballot --voter Eli --visibility gm Cy Ana Ben Dee
y ballot --voter Maya --visibility gm Ana Ben Cy Dee Eli
y episode end
# The theme rota (DS10): "At the end of the first session, the GM chooses the next precedence
# ranking"; its first player, Dee, chooses the second episode's theme, its second the third's.
y precedence draw --purpose theme-rota --order Dee,Cy,Ana,Eli,Ben
y theme choose loyalty

# =============================================================================================
# Episode 2: "Salvage Rights" (loyalty)
# =============================================================================================
y episode start --title "Salvage Rights" --theme loyalty --theme-by Dee

# --- Scene 10 (Dee): a simple contest, Strong against Middling, with an assistant. -------------
y scene open --caller Dee --mode procedural --cast "Mara Quell,Sable Roux,Lio Fenn" \
  --setting "the Gannet's wheelhouse" --situation "who steers the Gannet to the cartel's buoy"
y contest start "Mara Quell" --type Talking --token red --against "Sable Roux" --against-type Talking --against-token green
y contest assist Cy --side "Mara Quell" --type Making --token red
y contest draw "Mara Quell" --card 7S
y contest draw "Sable Roux" --card 9H
y contest draw "Mara Quell" --card JD
y contest draw "Sable Roux" --card KC
y contest draw "Mara Quell" --card AS --by Cy
y contest draw "Sable Roux" --card 10C
y contest end
y scene close --summary "Mara keeps the wheel; Sable sulks below with the cartel's radio"

# --- Scene 11 (Ben): an advanced contest; the GM's forced redraw and Ana's interference. --------
y scene open --caller Ben --mode procedural --cast "Otto Brand,Lio Fenn,Mara Quell,Sable Roux" \
  --setting "the Gannet's afterdeck" --situation "the salvage bell: overboard or down to the engine room"
y contest start "Otto Brand" --type Enduring --token yellow --against "Lio Fenn" --against-type Enduring \
  --against-token red --advanced --stakes "Otto keeps the bell on deck" --stakes "Lio hauls it below"
y contest draw "Otto Brand" --card 6H
y contest draw "Lio Fenn" --card 9S
y contest redraw "Otto Brand" "Otto Brand" --card QC
y contest redraw "Lio Fenn" "Otto Brand" --card 5H
y contest redraw "Otto Brand" "Otto Brand" --card 10D
y contest stop "Otto Brand"
y contest redraw GM "Otto Brand" --card 4S
y contest redraw Ana "Lio Fenn" --card JH
y contest redraw "Otto Brand" "Otto Brand" --card JS
y contest end
y scene close --summary "The bell stays on deck, and Lio will not look at Otto"

# --- Scene 12 (Dee): a solo action against the GM. --------------------------------------------
y scene open --caller Dee --mode procedural --cast "Sable Roux" \
  --setting "the cartel's launch" --situation "Sable cuts the launch's fuel line unseen"
y contest start "Sable Roux" --type Sneaking --token red --against GM --against-token green
y contest draw "Sable Roux" --card AD
y contest draw GM --card 3C
y contest draw GM --card KS
y contest draw GM --card 7H
y contest end
y scene close --summary "The launch drifts; Sable cut her hand on the line"

# --- Scene 13 (Ben): Strong against Weak wins outright. ----------------------------------------
y scene open --caller Ben --mode procedural --cast "Otto Brand,Hask Morrow" \
  --setting "the quay" --situation "Hask tries to take the deed from Otto by force"
y contest start "Otto Brand" --type Fighting --token green --against "Hask Morrow" --against-type Fighting \
  --against-token yellow
y contest end
y scene close --summary "Otto keeps the deed; Hask keeps his teeth, just"

# --- Scene 14 (Cy): an advanced resolution against the GM's green; an absent player's green. ----
y scene open --caller Cy --mode procedural --cast "Lio Fenn,Hask Morrow" \
  --setting "the Gannet's engine room" --situation "restart the engine with the cartel at the rail"
y advanced open "Lio Fenn" --type Engines --token green --opening 7H
y advanced primary --cards 2D,KD
y advanced redraw Ben --absent-green --card 9S
y advanced clinch
y scene close --summary "The engine coughs, then runs; the Gannet pulls away"

# --- Scene 15 (Ana): an advanced resolution against the GM's yellow, a Weak primary. ----------
y scene open --caller Ana --mode procedural --cast "Mara Quell,Sable Roux" \
  --setting "the cartel's buoy at night" --situation "Mara reads the cartel's charts"
y advanced open "Mara Quell" --type Knowing --token yellow --opening QC
y advanced primary --cards 8S,KD
y advanced redraw Dee --token red --card JC --consequence-card 3C
y advanced clinch
y scene close --summary "Mara reads the wrong chart; the Gannet runs aground on the Copper Reef"

# --- Scenes 16-22: petitions, a two-way both granted, a force supported and blocked, no contest. --
y scene open --caller Eli --mode dramatic --cast "Hask Morrow,Lio Fenn" --setting "the engine room" \
  --situation "Hask asks Lio to lie for him"
y petition refused -p "Hask Morrow" -g "Lio Fenn"
y scene open --caller Ben --mode dramatic --cast "Otto Brand,Hask Morrow" --setting "the diving locker" \
  --situation "Hask asks Otto to forget the quay"
y petition refused -p "Hask Morrow" -g "Otto Brand"
y scene open --caller Dee --mode dramatic --cast "Sable Roux,Mara Quell" --setting "the Gannet's bow" \
  --situation "Mara asks Sable to give up the cartel"
y petition refused -p "Mara Quell" -g "Sable Roux"
y scene open --caller Cy --mode dramatic --cast "Lio Fenn,Mara Quell" --setting "the engine room" \
  --situation "Mara asks Lio to take the blame for the reef"
y petition refused -p "Mara Quell" -g "Lio Fenn"
y scene open --caller Ben --mode dramatic --cast "Otto Brand,Sable Roux" --setting "the afterdeck at dawn" \
  --situation "each asks the other to keep a secret"
y two-way --granted "Otto Brand" --granted "Sable Roux"
y scene open --caller Eli --mode dramatic --cast "Hask Morrow,Mara Quell,Otto Brand,Sable Roux" \
  --setting "the harbour court" --situation "Hask makes Mara sign the Gannet over"
y force -p "Hask Morrow" -g "Mara Quell" --blocked --support "Sable Roux=1" --block-support "Otto Brand=1"
y scene open --caller Ana --mode dramatic --cast "Mara Quell,Lio Fenn" --setting "the wheelhouse" \
  --situation "Lio asks Mara whether she trusts him"
y petition no-contest -p "Lio Fenn" -g "Mara Quell"
y scene close --summary "Mara says yes before he finishes asking"

# --- Scenes 23-24: calls that cost (DS12, DS33), a challenge, a rush, two bennies spent (DS76). -
y scene open --caller Eli --mode dramatic --cast "Otto Brand,Sable Roux" --setting "the Gannet's hold" \
  --time-break "three days later" --situation "Otto asks Sable to run the cartel's blockade with him"
y challenge time-jump Ben --for-caller Eli,Ana,Dee --for-challenger Ben,Cy
y challenge rush "Mara Quell" --consent
y bennie spend Ben burn --target Eli --kind procedural --colour yellow   # Eli's last token: his pile refreshes
y petition granted -p "Otto Brand" -g "Sable Roux"
y scene open --caller Cy --mode procedural --cast "Mara Quell,Otto Brand" --setting "the Gannet's hold" \
  --situation "pump the hold through the night"
y note "Mara and Otto pump until dawn; nobody objects to the narration, so no card is drawn."
y bennie spend Ana procedural-token --colour green   # her spent green comes back
y scene close --summary "The Gannet floats off the reef at high tide"
y procedural-tokens
y ballot --voter Ana --visibility gm Eli Ben Cy Dee
y ballot --voter Ben --visibility gm Cy Dee Ana Eli
y ballot --voter Cy --visibility gm Dee Ana Ben Eli
y ballot --voter Dee --visibility gm Cy Ben Eli Ana
y ballot --voter Eli --visibility gm Dee Cy Ana Ben
y ballot --voter Maya --visibility gm Cy Dee Eli Ana Ben
y episode end

y theme choose home   # the rota's second player, Cy, chooses the third episode's theme
y note "End of the first arc: the Gannet sits on the reef, the strongbox in the harbour master's safe."

# =============================================================================================
# Episode 3: "Home Port" (home, Cy's choice by the rota): the calling order, a quiz of several
# petitioners, a duck, a rush paid and one blocked, a queue jumped, the challenges not yet seen,
# a recurring character and the GM's pool, a location detail struck.
# =============================================================================================
y episode start --title "Home Port" --theme home --theme-by Cy
# "Before the episode's first scene, the GM picks the next precedence order." The calling order
# (DS11): Cy, who chose the theme, then the order with Maya in Cy's place: Cy Ben Ana Maya Eli Dee.
y precedence draw --purpose calling-order --order Ben,Ana,Cy,Eli,Dee
y calling-order

# --- Scene 25 (Cy): a conference; three players sought an emotional payoff: the GM's quiz. ------
y call Cy --mode dramatic --cast "Mara Quell,Otto Brand,Lio Fenn,Sable Roux,Hask Morrow" \
  --setting "the Gannet's mess" --situation "the cartel offers to buy the Gannet off the reef"
y location add "the Gannet's mess" --introduced-by Cy \
  --description "a table bolted to the deck, six stools, and the smell of diesel in the coffee"
y precedence draw --purpose petitioners --order Ana,Ben,Eli
y quiz --missed "Mara Quell:Otto Brand" --got "Otto Brand:Lio Fenn" --missed "Hask Morrow:Mara Quell"
y scene close --summary "The crew votes to keep the Gannet; nobody is happy about it"

# --- Scenes 26-27 (Ben): Sable ducks a scene of two, so Ben calls again; Nan Pell grants. ------
y call Ben --mode dramatic --cast "Otto Brand,Sable Roux" --setting "the diving locker" \
  --situation "Otto asks Sable to take his place on the cartel's run"
y challenge duck "Sable Roux"
y supporting promote "Nan Pell" --pc "Otto Brand" --need "forgiveness for leaving her husband on the bottom"
y call Ben --mode dramatic --cast "Otto Brand,Nan Pell" --setting "the net lofts on the north quay" \
  --situation "Otto brings Nan Pell her husband's diving knife"
y challenge rush "Lio Fenn" --token   # Ben wants Lio out; Cy pays him a drama token to come in
y petition granted -p "Otto Brand" -g "Nan Pell"
y scene close --summary "Nan takes the knife, and Otto's hand"

# --- Scene 28 (Ana): a plot jump challenged; a disputed 'no' goes to a vote. --------------------
y call Ana --mode dramatic --cast "Mara Quell,Hask Morrow" --setting "the Harbour Office" \
  --situation "the harbour court has already given the Gannet to Hask"
y challenge plot-jump Eli --for-caller Ana,Ben --for-challenger Eli,Cy,Dee \
  --revised "the court sits tomorrow; tonight Hask holds the only copy of the deed"
y petition refused -p "Mara Quell" -g "Hask Morrow" --for-grant Ana,Ben,Dee --for-refusal Eli,Cy,Maya --tie granted

# --- Scene 29 (Maya): a location detail struck, and a narration that goes to procedural. --------
y call Maya --mode procedural --cast "Sable Roux,Lio Fenn" --setting "the cartel's warehouse" \
  --situation "Sable and Lio steal back the copy of the deed"
y location detail "the cartel's warehouse" "a seaplane moored inside, fuelled and waiting"
y challenge location Eli "the cartel's warehouse" --ground believability --allowed --detail 1 \
  --for-challenger Eli,Ana,Ben --for-detail Dee,Cy
y supporting detail Vargas "sleeps in the warehouse office with the deed under his pillow"
y challenge procedural Dee --objector Ben --reply adjust \
  --narration "Sable walks past the guards and lifts the deed from under Vargas's pillow"
y note "Dee adjusts: Sable waits for Vargas to wake, and buys the deed from him with the cartel's own money."
y scene close --summary "The deed is back aboard the Gannet, and Vargas is richer"

# --- Scene 30 (Eli): a challenge for novelty met by a change; Lio grants. ----------------------
y call Eli --mode dramatic --cast "Hask Morrow,Lio Fenn" --setting "the Gannet's engine room" \
  --situation "Hask asks Lio, again, to lie for him"
y challenge novelty Cy --too-similar --earlier-scene 16 \
  --change "the court sits tomorrow, and Lio's signature is on the deed"
y petition granted -p "Hask Morrow" -g "Lio Fenn"

# --- Scene 31 (Cy): Cy spends his bennie to jump the queue; Ana challenges his narration. -------
y call Cy --jump-queue --mode dramatic --cast "Lio Fenn,Mara Quell" --setting "the Gannet's wheelhouse" \
  --situation "Lio tells Mara he will lie to the court for Hask"
y challenge narration Ana --for-caller Cy,Ben,Dee --for-challenger Ana,Eli
y petition refused -p "Lio Fenn" -g "Mara Quell"

# --- Scene 32 (Dee): the closer; Dee blocks Hask's rush with her bennie. -----------------------
y call Dee --mode dramatic --cast "Sable Roux,Mara Quell" --setting "the Gannet's bow at dawn" \
  --situation "Sable asks Mara, for the last time, for a home port"
y challenge rush "Hask Morrow" --token --blocked
y petition granted -p "Sable Roux" -g "Mara Quell"
y ruling tokens --from kitty --to Dee --amount 1 --reason "Sable's speech at the bow, which the whole table cheered"
y scene close --summary "Sable signs on as the Gannet's mate; the court sits at noon"

# --- Scene 33 (Ben, the order rolled over past Cy's skipped turn): the GM grants Otto's How I Do
# It an additional card (DS5, reading 7), a redraw in an advanced resolution; her red refreshes her.
y calling-order
y call Ben --mode procedural --cast "Otto Brand,Nan Pell" --setting "the Sister's wreck" \
  --situation "Otto dives the Sister at slack water for his partner's diving plate"
y advanced open "Otto Brand" --type Enduring --token red --opening 5H,QC
y advanced primary --cards JC,2C
y extra-card Ben --card 9S --ruling "Otto holds his breath longer than the air lasts"
y advanced clinch
y scene close --summary "Otto brings the plate up; Nan Pell hangs it over her door"
y calling-order
y theme choose debts   # the rota's third player, Ana, chooses the fourth episode's theme
y ballot --voter Ana --visibility gm Dee Cy Ben Eli
y ballot --voter Ben --visibility gm Dee Ana Cy Eli
y ballot --voter Cy --visibility gm Ana Dee Eli Ben
y ballot --voter Dee --visibility gm Ana Ben Cy Eli
y ballot --voter Eli --visibility gm Cy Ana Dee Ben
y ballot --voter Maya --visibility gm Dee Ana Cy Ben Eli
y episode end
y note "End of the second arc: the Gannet is home, and the court has yet to sit."

# =============================================================================================
# The journal checked and written out.
# =============================================================================================
"$YARNLOG" --db "$DB" verify
"$YARNLOG" --db "$DB" export -o "$EXPORT"
echo "recorded The Copper Reef in $DB in ${SECONDS}s"
