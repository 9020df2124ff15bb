"""Yarn's drama slice is the shared core's (:mod:`yarnlog.rulesets.scenes_and_tokens.parts.drama_state`)."""

from __future__ import annotations

from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import (
    CallingOrder,
    CastChange,
    Drama,
    DramaBuilder,
    Recall,
    SceneCall,
    Validator,
    drama_of,
    forces_among,
    rebuilt,
    scene_in_play,
)

__all__ = ["CallingOrder", "CastChange", "Drama", "DramaBuilder", "Recall", "SceneCall", "Validator", "drama_of",
           "forces_among", "rebuilt", "scene_in_play"]
