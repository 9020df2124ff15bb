"""The characters: Will, descriptors in d10s, Background, track, keys.

The draft leaves the Power track's length open (reading 1) and calls Will 9 and d10 provisional
(reading 15): the GM chooses them for the campaign at ``init`` (``--setting track=N``, recorded in
its first event, :data:`.ruleset.SETTINGS`), and a character may be given its own track or
starting Will at creation (reading 1: "per-campaign (or per-character)").
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import BaseModel, Field

from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.referee import Referee, invalid
from yarnlog.rulesets.will_descriptors.rules.harm import check_track_length
from yarnlog.rulesets.will_descriptors.rules.keys import Framework
from yarnlog.rulesets.will_descriptors.rules.will import check_rating
from yarnlog.rulesets.will_descriptors.state import Character, Descriptor, WillCampaign, WillState, settings_of

NAME = 80


class DescriptorEntry(BaseModel):
    name: str = Field(min_length=1, max_length=NAME)
    dice: int = Field(ge=0, le=100)
    category: str = Field(default="", max_length=NAME)


class KeyEntry(BaseModel):
    name: str = Field(min_length=1, max_length=NAME)
    framework: Framework


@event("will-descriptors.character.created")
class CharacterCreated(Payload):
    """A character with its Will (W1), descriptors (W4), Background (W29), Power track and Keys."""

    name: str = Field(min_length=1, max_length=NAME)
    player: str = Field(min_length=1, max_length=NAME)
    starting_will: int = Field(ge=1, le=1000)
    track: int = Field(ge=1, le=100)
    descriptors: list[DescriptorEntry] = Field(default_factory=list, max_length=100)
    background: list[str] = Field(default_factory=list, max_length=100)
    keys: list[KeyEntry] = Field(default_factory=list, max_length=100)


@dataclass(frozen=True)
class CreateCharacter:
    name: str
    player: str | None = None
    starting_will: int | None = None
    track: int | None = None
    descriptors: tuple[tuple[str, int, str], ...] = ()
    background: tuple[str, ...] = ()
    keys: tuple[tuple[str, str], ...] = field(default=())


def decide(command: Any, campaign: WillCampaign, referee: Referee) -> list[Payload] | None:
    if not isinstance(command, CreateCharacter):
        return None
    settings = settings_of(campaign)
    track = command.track if command.track is not None else settings.track
    invalid(track is not None, "the campaign has no Power track length (init --setting track=N): give "
                               "--track N here (the draft gives none, reading 1)")
    assert track is not None
    frameworks = {f.value: f for f in Framework}
    keys = []
    for name, framework in command.keys:
        invalid(framework.lower() in frameworks, f"a Key is dramatic or motivation, not {framework!r}")
        keys.append(KeyEntry(name=name.strip(), framework=frameworks[framework.lower()]))
    payload = CharacterCreated(
        name=command.name.strip(), player=command.player or campaign.table.gm,
        starting_will=command.starting_will if command.starting_will is not None else settings.starting_will,
        track=track,
        descriptors=[DescriptorEntry(name=n.strip(), dice=d, category=c) for n, d, c in command.descriptors],
        background=[b.strip() for b in command.background], keys=keys)
    return [validate_created(payload, campaign, referee)]


def validate_created(p: CharacterCreated, campaign: WillCampaign, referee: Referee) -> CharacterCreated:
    state = campaign.rules
    invalid(p.name not in state.characters, f"there is already a character called {p.name}")
    table = campaign.table
    invalid(table.knows(p.player) and p.player not in table.departed, f"{p.player} is not at the table")
    invalid(p.name not in state.scene_descriptors, f"{p.name} is a Scene Descriptor's name")
    names = [d.name for d in p.descriptors]
    invalid(len(set(names)) == len(names), "two descriptors of one character share a name")
    for d in p.descriptors:
        check_rating(d.dice, referee, f"{p.name}'s {d.name}")
    check_track_length(p.track, referee)
    return p


def evolve(state: WillState, recorded: Recorded) -> WillState:
    p = recorded.payload
    if isinstance(p, CharacterCreated):
        who = Character(p.name, p.player, p.starting_will, p.starting_will, p.track,
                        descriptors={d.name: Descriptor(d.name, d.dice, d.category) for d in p.descriptors},
                        background=tuple(p.background), keys={k.name: k.framework for k in p.keys})
        return replace(state, characters={**state.characters, p.name: who})
    return state


VALIDATORS = {CharacterCreated: validate_created}
TYPES = (CharacterCreated,)
