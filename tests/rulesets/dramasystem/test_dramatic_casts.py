"""Who a dramatic scene may be between in DramaSystem (DS17, lines 303-305): the shared core's
check, which Yarn's calls use too (its own tests keep Yarn's behaviour)."""

from __future__ import annotations

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.referee import RuleViolation
from yarnlog.core.timeline import CloseScene, OpenScene
from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import IntroduceSupporting, PromoteSupporting

from .storm_table import CAMPAIGN


@pytest.fixture
def harbour(journal):
    """Two recurring characters (Old Tom, Mags) and a minor one (Fisher), met in a scene with Iris."""
    journal.execute(CAMPAIGN, OpenScene(caller="Maya", cast=("Iris",), mode="procedural"))
    for name in ("Old Tom", "Mags"):
        journal.execute(CAMPAIGN, IntroduceSupporting(name, "a harbour regular", "Maya"))
        journal.execute(CAMPAIGN, PromoteSupporting(name, "Iris", "a blessing"))
    journal.execute(CAMPAIGN, IntroduceSupporting("Fisher", "sells eels", "Maya"))
    journal.execute(CAMPAIGN, CloseScene())
    return journal


def _refused(journal, call: OpenScene) -> str:
    before = len(journal.stored_events(CAMPAIGN))
    with pytest.raises(RuleViolation) as refused:
        journal.execute(CAMPAIGN, call)
    assert len(journal.stored_events(CAMPAIGN)) == before  # nothing written
    return str(refused.value)


def test_never_a_dramatic_scene_between_two_recurring_characters(harbour):
    # DS17, line 303: "Never call a dramatic scene between two recurring characters. No one wants to listen
    # to the GM talk to herself, especially not the GM."
    for caller in ("Ana", "Maya"):
        message = _refused(harbour, OpenScene(caller=caller, cast=("Old Tom", "Mags"), mode="dramatic"))
        assert "DramaSystem SRD (DS12, DS17, lines 293-305)" in message
        assert "Never call a dramatic scene between two recurring characters" in message


def test_a_gm_called_dramatic_scene_includes_a_player_character(harbour):
    # DS17, line 305: "When the GM calls a dramatic scene, she may cast any participants in the scene,
    # provided at least one of them is a player character."
    message = _refused(harbour, OpenScene(caller="Maya", cast=("Old Tom", "Fisher"), mode="dramatic"))
    assert "DramaSystem SRD (DS12, DS17, lines 293-305)" in message and "at least one of them is a player" in message
    harbour.execute(CAMPAIGN, OpenScene(caller="Maya", cast=("Old Tom", "Tomas"), mode="dramatic"))
    assert harbour.state(CAMPAIGN).rules.drama.scenes[2].cast == ("Old Tom", "Tomas")
    assert verify(harbour.stored_events(CAMPAIGN), CAMPAIGN).ok


def test_a_recurring_character_and_a_pc_or_a_procedural_scene_are_allowed(harbour):
    harbour.execute(CAMPAIGN, OpenScene(caller="Ana", cast=("Iris", "Mags"), mode="dramatic"))
    harbour.execute(CAMPAIGN, CloseScene())
    # DS17 speaks of dramatic scenes only; a procedural scene with recurring characters is the GM's matter.
    harbour.execute(CAMPAIGN, OpenScene(caller="Maya", cast=("Old Tom", "Mags", "Iris"), mode="procedural"))
    assert verify(harbour.stored_events(CAMPAIGN), CAMPAIGN).ok


def test_verify_names_a_forged_scene_between_two_recurring_characters(harbour):
    from yarnlog.core.timeline import SceneOpened

    forged = SceneOpened(number=2, caller="Ana", cast=["Old Tom", "Mags"], mode="dramatic")
    harbour.commands.append(CAMPAIGN, harbour.store.last_sequence(CAMPAIGN), [forged], by="Ana", visibility="everyone")
    report = verify(harbour.stored_events(CAMPAIGN), CAMPAIGN)
    assert not report.ok and "DS17" in str(report)
