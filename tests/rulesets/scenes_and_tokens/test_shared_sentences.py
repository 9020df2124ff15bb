"""The sentences Yarn and DramaSystem word alike for a shared event are written once, in the shared
core: the story of a shared move, a scene's ending, the bennie vote's winners, a GM's ruling."""

from __future__ import annotations

from pathlib import Path

import yarnlog.rulesets
from yarnlog.rulesets.dramasystem.recap import _story_line
from yarnlog.rulesets.scenes_and_tokens import story

PETITION = {"petitioner": "Iris", "granter": "Tomas", "outcome": "refused", "sought": "an apology"}
MOVES = {
    "petition.resolved": PETITION,
    "petition.forced": {**PETITION, "blocked": True, "force_support": [], "block_support": []},
    "petition.quizzed": {"answers": [{"petitioner": "Iris", "wanted_from": "Tomas", "got_it": True}]},
    "petition.two_way": {"first": "Iris", "second": "Tomas", "first_granted": True, "second_granted": False},
    "challenge.ducked": {"character": "Iris", "caller": "Ana", "in_scene": False, "caller_starts_over": True},
    "challenge.rushed": {"character": "Iris", "caller": "Ana", "caller_blocks": True},
    "challenge.voted": {"challenger": "Ben", "caller": "Ana", "kind": "time jump", "winner": "caller"},
}


def test_both_recaps_tell_a_shared_move_with_the_shared_story():
    from yarnlog.rulesets.yarn.recap.build import _story, _Telling

    for move, payload in MOVES.items():
        shared = story.shared_move(move, payload, {})
        assert shared, move
        assert _story_line(f"dramasystem.{move}", payload, "", {}) == shared
        assert _story(_Telling(table=None, audience=None), f"yarn.{move}", payload, False) == shared  # type: ignore[arg-type]
    assert story.shared_move("procedure.resolved", {}, {}) is None


def test_the_ruling_is_worded_once():
    from yarnlog.rulesets.dramasystem.words import narrate as ds_narrate
    from yarnlog.rulesets.yarn.recap.sentences import sentence

    p = {"rule": "calling order", "ruling": "Ana calls first"}
    assert story.ruled(p) == "The GM rules on calling order: Ana calls first."
    assert story.ruled({**p, "ruling": "Ana calls first!"}).endswith("first!")
    assert sentence("yarn.ruling.recorded", p, {}, {}) == story.ruled(p)

    class Recorded:
        event_type = "dramasystem.ruling.recorded"

        class payload:
            @staticmethod
            def model_dump(mode: str = "python") -> dict:
                return p

    assert ds_narrate(Recorded(), None) == story.ruled(p)  # type: ignore[arg-type]


def test_no_ruleset_words_the_shared_sentences_itself():
    """The phrases the shared core owns stand in no ruleset's module."""
    root = Path(yarnlog.rulesets.__file__).parent
    owned = ("won the bennie vote", "In the end:", "The GM rules on {p['rule']}", "SENTENCE_ENDS = ")
    found = [f"{path.relative_to(root)}: {phrase}" for path in sorted(root.rglob("*.py"))
             if path.parent.name != "scenes_and_tokens" and "scenes_and_tokens" not in path.parts
             for phrase in owned if phrase in path.read_text(encoding="utf-8")]
    assert found == []
