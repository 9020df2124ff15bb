"""Yarn 0.1's contract material (tests/contract/README.md): a short session, its refusals, and the
GM-only events planted after it."""

from pathlib import Path

SHEETS = Path(__file__).resolve().parents[3] / "journals" / "sheets"

PLAYER = "Ana"
SHEET = "Iris"
#: Arguments a read verb needs besides --as (an event number, a character).
READ_ARGS = {("explain",): ("7",), ("sheet",): ("Iris",)}

SESSION = f"""
yarnlog init harbor --title "Lantern Harbor" --gm Maya --ruleset yarn
yarnlog join Ana
yarnlog join Ben
yarnlog character create Iris --from-file {SHEETS / "iris.json"}
yarnlog character create Tomas --from-file {SHEETS / "tomas.json"}
yarnlog episode start --title "Fog" --theme "trust" --theme-by Ana
yarnlog precedence draw --purpose calling-order --order Ana,Ben
yarnlog call Ana --cast Iris,Tomas --mode dramatic --setting "the docks" --role opener
! yarnlog force -p Iris -g Tomas                              # Ana holds no drama token (Forcing)
! yarnlog challenge duck Tomas --compel --token               # Ana holds no token to pay Ben
yarnlog petition refused -p Iris -g Tomas
yarnlog call Maya --cast Tomas --mode procedural --setting "the warehouse"
yarnlog roll Tomas --trait Brawler --difficulty hard --faces 6,4,3,1
! yarnlog consequences --roll --face Tomas:good=6            # no break rolled: no consequence roll owed
yarnlog note "The fog lifts over the warehouse."
! yarnlog call Ben --cast Tomas --mode dramatic               # a petitioner and a granter are cast
yarnlog call Ben --cast Tomas,Iris --mode dramatic
yarnlog challenge duck Iris --compel --token
yarnlog call Ana --cast Iris --kind montage --duration "three days" --role closer
! yarnlog call Maya --cast Tomas,Iris --mode dramatic         # the closer was called: no scene after it
yarnlog ballot --voter Ana Ben
yarnlog ballot --voter Ben Ana
yarnlog ballot --voter Maya Ana Ben
yarnlog episode end
yarnlog xp award 1
yarnlog episode start --title Tide
yarnlog call Maya --cast Tomas --mode procedural
"""

#: GM-only events planted after the session: (the command line, words of it no player may read).
PLANTED = [
    ('note --visibility gm "The harbourmaster is the smugglers\' paymaster."', "paymaster"),
    ("roll Tomas --trait Brawler --faces 6,6,2,1 --secret", None),
]
