"""Yarn's "previously on" (``recap --previously``): the shared core's, over a Yarn recap."""

from __future__ import annotations

from yarnlog.rulesets.scenes_and_tokens import story
from yarnlog.rulesets.scenes_and_tokens.previously import previously
from yarnlog.rulesets.yarn.recap.model import Recap


def previously_on(told: Recap) -> str:
    scenes = [(scene.summary, next((n.text for n in reversed(scene.notes) if n.gm), ""),
               [line.text for line in scene.story if not story.is_ending(line.text)])
              for episode in told.episodes for scene in episode.scenes]
    return previously(told.title or told.campaign, scenes)
