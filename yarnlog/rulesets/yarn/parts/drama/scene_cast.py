"""Who was in each scene: the cast as called, and as it actually was after ducks, rushes and the
supporting characters brought in (Yarn 0.1, "Calling Scenes", "Ducking a Scene", "Rushing a
Scene", "Supporting Characters › Introducing Minor Characters").

The core timeline keeps each ``scene.opened`` as it was called; only the drama part follows the
cast as it changes (:class:`~.state.SceneCall`). These are the read models over it, for ``status``
(through the ruleset's ``scene-casts`` projection) and for recaps (:func:`scene_casts`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from yarnlog.core.views import MAP, Update, ViewPieces
from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import CastChange, SceneCall
from yarnlog.rulesets.yarn.state import YarnCampaign

#: The :attr:`CastChange.how` that put a character into the scene, and the one that took one out.
ARRIVALS = ("rushed", "brought in")
DEPARTURES = ("ducked",)


@dataclass(frozen=True)
class SceneCast:
    """One scene's cast.

    ``called``: as the caller named it. ``cast``: as it stood at the scene's end, after every duck
    and rush (the characters the rules treat as in the scene: who may petition and be petitioned).
    ``changes``: every duck, rush, consented join and blocked rush, in the order recorded.
    ``introduced``: supporting characters first introduced during the scene ("by the caller, at the
    top of a scene, or by any participant, while a scene is already in progress"); one joins
    ``cast`` only when brought in (a rush the caller consents to), as the book's petitions need.
    """

    number: int
    episode: int | None
    caller: str
    called: tuple[str, ...]
    cast: tuple[str, ...]
    changes: tuple[CastChange, ...] = ()
    introduced: tuple[str, ...] = ()

    @property
    def arrived(self) -> tuple[str, ...]:
        """Who joined after the call (rushed or brought in), in order."""
        return tuple(c.character for c in self.changes if c.how in ARRIVALS)

    @property
    def left(self) -> tuple[str, ...]:
        """Who ducked out after the call, in order."""
        return tuple(c.character for c in self.changes if c.how in DEPARTURES)

    def to_data(self) -> dict:
        return {"number": self.number, "episode": self.episode, "caller": self.caller, "called": list(self.called),
                "cast": list(self.cast), "arrived": list(self.arrived), "left": list(self.left),
                "changes": [{"character": c.character, "how": c.how, "sequence": c.sequence} for c in self.changes],
                "introduced": list(self.introduced)}


def _introduced(campaign: YarnCampaign, numbers: Collection[int] | None = None) -> dict[int, tuple[str, ...]]:
    """The supporting characters first introduced in each scene (of ``numbers``, found by the cast's
    index, or in every one: one pass over the supporting cast), in the order introduced."""
    cast = campaign.rules.characters.cast
    if numbers is None:
        candidates = iter(cast.supporting.values())
    else:  # the index names every character introduced there (one may since be another's: checked below)
        candidates = (cast.supporting[name] for n in numbers for name in cast.introduced_in.get(n, ())
                      if name in cast.supporting)
    found = sorted({(s.sequence, s.scene, s.name) for s in candidates
                    if s.scene is not None and (numbers is None or s.scene in numbers)})
    by_scene: dict[int, tuple[str, ...]] = {}
    for _, scene, name in found:
        by_scene[scene] = by_scene.get(scene, ()) + (name,)
    return by_scene


def _scene_cast(call: SceneCall, introduced: dict[int, tuple[str, ...]]) -> SceneCast:
    return SceneCast(number=call.number, episode=call.episode, caller=call.caller, called=call.called,
                     cast=call.cast, changes=call.changes, introduced=introduced.get(call.number, ()))


def scene_cast(campaign: YarnCampaign, number: int) -> SceneCast | None:
    """Scene ``number``'s cast as of ``campaign`` (at its end once it has closed); None if never called."""
    call = campaign.rules.drama.scenes.get(number)
    return _scene_cast(call, _introduced(campaign, {number})) if call is not None else None


def scene_casts(campaign: YarnCampaign, episode: int | None = None) -> list[SceneCast]:
    """Every scene's cast in scene order, or only ``episode``'s."""
    calls = sorted(campaign.rules.drama.scenes.items())
    introduced = _introduced(campaign)
    return [_scene_cast(call, introduced) for _, call in calls if episode is None or call.episode == episode]


def cast_in_play(campaign: YarnCampaign) -> tuple[str, ...] | None:
    """The cast of the scene in play as it stands now; None when no scene is in play."""
    number = campaign.timeline.scene
    call = campaign.rules.drama.scenes.get(number) if number is not None else None
    return call.cast if call is not None else None


def scene_cast_view(campaign: YarnCampaign) -> dict[int, dict]:
    """The ruleset's ``scene-casts`` projection: scene number -> :meth:`SceneCast.to_data`."""
    return {cast.number: cast.to_data() for cast in scene_casts(campaign)}


def scene_cast_pieces(campaign: YarnCampaign, mark: dict | None) -> Update:
    """:func:`scene_cast_view` in pieces (:mod:`yarnlog.core.views`): each scene's cast by its number.
    Only the scene in play changes (ducks, rushes, characters introduced in it) and scenes are opened
    after the last, so since ``mark`` only the scenes from the one then in play (or the next) on may
    have changed."""
    timeline, scenes = campaign.timeline, campaign.rules.drama.scenes
    numbers = sorted(scenes) if mark is None else range(mark["from"], timeline.last_scene + 1)
    introduced = _introduced(campaign, None if mark is None else numbers)
    pieces = {("", n): _scene_cast(scenes[n], introduced).to_data() if n in scenes else None for n in numbers}
    in_play = timeline.scene if timeline.scene is not None else timeline.last_scene + 1
    return Update({}, {"from": in_play}, pieces)


SCENE_CAST_PIECES = ViewPieces(scene_cast_pieces, (("", MAP),))
