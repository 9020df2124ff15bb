"""The DramaSystem SRD's contract material (tests/contract/README.md): a short session, its
refusals, and the GM-only events planted after it."""

PLAYER = "Ana"
SHEET = "Iris"
#: Arguments a read verb needs besides --as (an event number, a character).
READ_ARGS = {("explain",): ("23",), ("sheet",): ("Iris",)}

SESSION = """
yarnlog init storm --title "Storm" --gm Maya --ruleset dramasystem
yarnlog join Ana
yarnlog join Ben
yarnlog join Cy
yarnlog character create Iris --player Ana --strong Fighting,Talking --weak Knowing,Making --how "Fighting=dirty tricks"
yarnlog character create Tomas --player Ben --strong Moving,Sneaking --weak Talking,Enduring
! yarnlog character create Vel --player Cy --strong Knowing,Moving,Talking --weak Fighting   # two of each (DS)
yarnlog character create Vel --player Cy --custom Tides --strong Knowing --weak Fighting,Moving,Talking
! yarnlog episode start --title "Fog" --theme trust --theme-by Maya    # each PC wanted by two others first (DS9)
yarnlog character want Iris --from Tomas --want "his respect" --why-not "he thinks her a fraud"
yarnlog character want Iris --from Vel --want "a truce" --why-not "envy"
yarnlog character want Tomas --from Vel --want "a ship" --why-not "debts"
yarnlog character want Tomas --from Iris --want "her silence" --why-not "she saw"
yarnlog character want Vel --from Iris --want "a secret" --why-not "pride"
yarnlog character want Vel --from Tomas --want "his help" --why-not "fear"
yarnlog character relate Iris Tomas --nature "old partners"
yarnlog episode start --title "Fog" --theme trust --theme-by Maya
yarnlog scene open --caller Ana --cast Iris,Tomas --mode dramatic --setting "the chandlery"
! yarnlog force -p Iris -g Tomas                                       # Ana holds no drama token
yarnlog petition refused -p Iris -g Tomas
yarnlog scene open --caller Ana --cast Iris,Tomas --mode procedural --setting "the docks"
yarnlog oppose yellow
yarnlog target --card KC --order Ben,Ana,Cy
! yarnlog draw Ana --token red --cards 2S                              # Ben draws first
yarnlog draw Ben --token red --cards 2S
yarnlog draw Ana --token green --cards QH,3C
yarnlog draw Cy --pass
yarnlog resolve
yarnlog scene close
yarnlog note "The harbour wall holds another night."
yarnlog scene open --caller Ben --cast Tomas,Vel --mode procedural --setting "the lighthouse stair"
"""

#: GM-only events planted after the session: (the command line, words of it no player may read).
PLANTED = [
    ('note --visibility gm "The lighthouse keeper is Vel\'s own father."', "lighthouse keeper"),
    ("oppose red", None),
]
