"""Which part of the series a recap tells: a span of episodes and/or of scenes (every ruleset's recap)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Scope:
    """Episodes ``first..last`` and/or scenes ``first..last``; ``None`` bounds are open, and
    ``Scope()`` is the whole series. ``label`` is how the recap names it."""

    episodes: tuple[int | None, int | None] = (None, None)
    scenes: tuple[int | None, int | None] = (None, None)
    label: str = "the whole series"

    def has_episode(self, n: int | None) -> bool:
        return _within(n, self.episodes)

    def has_scene(self, n: int | None) -> bool:
        return _within(n, self.scenes)

    @property
    def whole_episodes(self) -> bool:
        """No span of scenes is asked: every scene of the episodes told."""
        return self.scenes == (None, None)


def _within(n: int | None, bounds: tuple[int | None, int | None]) -> bool:
    first, last = bounds
    return n is not None and (first is None or n >= first) and (last is None or n <= last)
