"""The DramaSystem table of these tests: Maya (GM), Ana, Ben and Cy playing Iris, Tomas and Vel."""

from __future__ import annotations

from yarnlog.core.state import GM_ONLY
from yarnlog.core.timeline import OpenScene
from yarnlog.rulesets.dramasystem.parts.card_procedure import DrawTarget, Oppose, PlayCards, Resolve

CAMPAIGN = "storm"


def _grades(strong, weak, custom=None):
    grades = {t: "middling" for t in ("Enduring", "Fighting", "Knowing", "Making", "Moving", "Talking", "Sneaking")}
    grades.update({t: "strong" for t in strong})
    grades.update({t: "weak" for t in weak})
    if custom:
        grades[custom] = "strong"
    return grades


def _procedural_scene(journal, cast=("Iris", "Tomas")):
    journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=cast, mode="procedural", setting="the docks"))




def _played_scene(journal):
    """Scene 1: the GM's secret yellow; target K♣; Ben red then Ana green; Cy (absent) passes."""
    _procedural_scene(journal)
    journal.execute(CAMPAIGN, Oppose("yellow"), visibility=GM_ONLY)
    journal.execute(CAMPAIGN, DrawTarget("KC", ("Ben", "Ana", "Cy")))
    journal.execute(CAMPAIGN, PlayCards("Ben", "red", ("2S",)))
    journal.execute(CAMPAIGN, PlayCards("Ana", "green", ("QH", "3C")))
    journal.execute(CAMPAIGN, PlayCards("Cy", None))
    return journal.execute(CAMPAIGN, Resolve())[0]


def wants_for(pcs):
    """(character, withholder) pairs that make every PC the object of two other PCs' wants, or of every
    other PC's when there are fewer than three (DS9, line 51: "Repeat steps 9-12 until all characters
    are named as objects of at least two other characters' wants"): each wants from the next two."""
    pairs = []
    for i, pc in enumerate(pcs):
        for step in (1, 2):
            other = pcs[(i + step) % len(pcs)]
            if other != pc and (pc, other) not in pairs:
                pairs.append((pc, other))
    return pairs


def declare_wants(journal, pcs=("Iris", "Tomas", "Vel"), campaign=CAMPAIGN):
    """The wants of :func:`wants_for`, declared before play begins."""
    from yarnlog.rulesets.scenes_and_tokens.parts.relationships import DeclareWant

    for pc, other in wants_for(pcs):
        journal.execute(campaign, DeclareWant(pc, other, f"{other}'s regard", f"{other} keeps it back"))


def want_args(pcs=("Iris", "Tomas", "Vel")):
    """The same wants as command lines: ``character want PC --from OTHER ...``."""
    return tuple(("character", "want", pc, "--from", other, "--want", f"{other}'s regard",
                  "--why-not", f"{other} keeps it back") for pc, other in wants_for(pcs))
