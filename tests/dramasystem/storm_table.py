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
