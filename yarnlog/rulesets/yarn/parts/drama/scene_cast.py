"""Who was in each scene: the cast as called, and as it actually was after ducks, rushes and the
supporting characters brought in (Yarn 0.1, "Calling Scenes", "Ducking a Scene", "Rushing a
Scene", "Supporting Characters › Introducing Minor Characters").

The core timeline keeps each ``scene.opened`` as it was called; only the drama part follows the
cast as it changes (:class:`~.state.SceneCall`). These are the read models over it, for ``status``
(through the ruleset's ``scene-casts`` projection) and for recaps (:func:`scene_casts`).
"""

from __future__ import annotations

from dataclasses import dataclass

from yarnlog.rulesets.yarn.parts.drama.state import CastChange, SceneCall
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


def _scene_cast(call: SceneCall, campaign: YarnCampaign) -> SceneCast:
    introduced = tuple(s.name for s in campaign.rules.characters.cast.supporting_in_order() if s.scene == call.number)
    return SceneCast(number=call.number, episode=call.episode, caller=call.caller, called=call.called,
                     cast=call.cast, changes=call.changes, introduced=introduced)


def scene_cast(campaign: YarnCampaign, number: int) -> SceneCast | None:
    """Scene ``number``'s cast as of ``campaign`` (at its end once it has closed); None if never called."""
    call = campaign.rules.drama.scenes.get(number)
    return _scene_cast(call, campaign) if call is not None else None


def scene_casts(campaign: YarnCampaign, episode: int | None = None) -> list[SceneCast]:
    """Every scene's cast in scene order, or only ``episode``'s."""
    calls = sorted(campaign.rules.drama.scenes.items())
    return [_scene_cast(call, campaign) for _, call in calls if episode is None or call.episode == episode]


def cast_in_play(campaign: YarnCampaign) -> tuple[str, ...] | None:
    """The cast of the scene in play as it stands now; None when no scene is in play."""
    number = campaign.timeline.scene
    call = campaign.rules.drama.scenes.get(number) if number is not None else None
    return call.cast if call is not None else None


def scene_cast_view(campaign: YarnCampaign) -> dict[int, dict]:
    """The ruleset's ``scene-casts`` projection: scene number -> :meth:`SceneCast.to_data`."""
    return {cast.number: cast.to_data() for cast in scene_casts(campaign)}
