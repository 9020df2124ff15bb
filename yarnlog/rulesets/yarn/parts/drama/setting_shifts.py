"""A scene moving place as it unfolds (Yarn 0.1, "Calling Scenes" › Setting; "Introducing Locations").

The setting a caller names holds "at least at its outset; a scene can shift in time and place as it
unfolds". Any participant may move the scene in play to a location; a place not introduced yet is
introduced with the shift ("The caller, or any participant during a shift in location, provides an
introductory description of the place"), as a ``yarn.location.introduced`` recorded just before it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from yarnlog.core.composition import folds
from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.referee import Referee, Rule, invalid
from yarnlog.core.state import advance
from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import require_participant
from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import Drama, DramaBuilder, rebuilt, scene_in_play
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import LOCATIONS
from yarnlog.rulesets.yarn.parts.characters.supporting_cast import CAST, validate_location
from yarnlog.rulesets.yarn.state import YarnCampaign, YarnState

BOOK = "Yarn 0.1"
SHIFTING = Rule(
    BOOK, "Calling Scenes",
    "Setting: where the scene takes place (at least at its outset; a scene can shift in time and place as it "
    "unfolds)",
)


@dataclass(frozen=True)
class ShiftScene:
    """The scene in play moves to ``location`` (described when it is new), perhaps ``time_shift`` later."""

    location: str
    by: str
    description: str = ""
    time_shift: str = ""


@event("yarn.scene.shifted")
class SceneShifted(Payload):
    scene: int
    location: str
    by: str
    time_shift: str = ""


def _known(campaign: YarnCampaign, name: str) -> str | None:
    """``name`` as an introduced location, ignoring case."""
    folded = name.strip().casefold()
    return next((n for n in campaign.rules.characters.cast.locations if n.casefold() == folded), None)


def shifted(campaign: YarnCampaign, referee: Referee, *, location: str, by: str, time_shift: str) -> SceneShifted:
    """The shift itself: a scene in play, a participant, a place introduced ("Introducing Locations")."""
    scene = scene_in_play(campaign)
    require_participant(campaign, by)
    invalid(bool(location.strip()), "name the place the scene moves to")
    known = _known(campaign, location)
    referee.require(known is not None, LOCATIONS,
                    f"{location.strip()} is not introduced: describe it")
    place = known or location.strip()
    here = campaign.timeline.scenes[scene.number].setting
    invalid(place != (scene.places[-1] if scene.places else here), f"scene {scene.number} is already at {place}")
    return SceneShifted(scene=scene.number, location=place, by=by, time_shift=time_shift.strip())


def shift_scene(command: ShiftScene, campaign: YarnCampaign, referee: Referee) -> list[Payload]:
    """A new place is introduced first, so the shift that follows moves to a known location."""
    scene_in_play(campaign)
    introduced: list[Payload] = []
    if command.description.strip() and _known(campaign, command.location) is None:
        introduced = [validate_location(CAST.events.location_introduced(
            name=command.location, description=command.description, introduced_by=command.by), campaign, referee)]
    after = advance(campaign, introduced, by=command.by) if introduced else campaign
    return [*introduced, shifted(after, referee, location=command.location, by=command.by,
                                 time_shift=command.time_shift)]


def decide(command, campaign: YarnCampaign, referee: Referee) -> list[Payload] | None:
    if isinstance(command, ShiftScene):
        return shift_scene(command, campaign, referee)
    return None


FOLDS = folds(SceneShifted)


def evolve(drama: Drama, recorded: Recorded, yarn: YarnState) -> Drama:
    p = recorded.payload
    if not isinstance(p, SceneShifted) or p.scene not in drama.scenes:
        return drama
    scene = drama.scenes[p.scene]
    return replace(drama, scenes=drama.scenes.set(p.scene, replace(scene, places=scene.places + (p.location,))))


def fold_in_place(drama: DramaBuilder, recorded: Recorded, yarn: YarnState) -> None:
    """:func:`evolve` in a replay."""
    p = recorded.payload
    if isinstance(p, SceneShifted) and p.scene in drama.scenes:
        scene = drama.scenes[p.scene]
        drama.scenes[p.scene] = replace(scene, places=scene.places + (p.location,))


def _shifted_again(campaign: YarnCampaign, referee: Referee, p: SceneShifted) -> SceneShifted:
    return shifted(campaign, referee, location=p.location, by=p.by, time_shift=p.time_shift)


VALIDATORS = {SceneShifted: rebuilt(_shifted_again)}
