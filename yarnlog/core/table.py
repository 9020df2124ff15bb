"""The campaign (a series, in Yarn's words) and the people at the table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final, Literal

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer

from yarnlog.core.envelope import CAMPAIGN_ID_PATTERN
from yarnlog.core.events import Payload, event
from yarnlog.core.frozen import replace
from yarnlog.core.invites import InviteIssued, InviteRevoked, evolve_invites
from yarnlog.core.limits import Name, Text
from yarnlog.core.names import did_you_mean
from yarnlog.core.referee import invalid

GM: Final = "gm"
PLAYER: Final = "player"
#: Words the journal itself uses for accounts and audiences; no participant may be called so.
RESERVED_NAMES = frozenset({"kitty", "everyone", "gm"})


@event("campaign.created")
class CampaignCreated(Payload):
    """The first event of every campaign: its ruleset, optional rules and settings (the numbers its
    book leaves open, :class:`yarnlog.core.ruleset.Setting`) are fixed here."""

    campaign_id: str = Field(min_length=1, max_length=64, pattern=CAMPAIGN_ID_PATTERN)
    title: Text = Field(min_length=1)
    ruleset: str
    gm: Name = Field(min_length=1)
    options: dict[str, bool] = Field(default_factory=dict)
    settings: dict[Name, int] = Field(default_factory=dict)

    @model_serializer(mode="wrap")
    def _settings_only_when_chosen(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # A campaign without settings is stored as before they existed: its bytes and hash unchanged.
        data: dict[str, Any] = handler(self)
        if not data.get("settings"):
            data.pop("settings", None)
        return data


@event("participant.joined")
class ParticipantJoined(Payload):
    """A player (or a further GM) joins the table."""

    name: Name = Field(min_length=1)
    role: Literal["player", "gm"] = PLAYER


@event("participant.left")
class ParticipantLeft(Payload):
    name: Name
    reason: Text = ""


@event("campaign.options_changed")
class OptionsChanged(Payload):
    """A GM's ruling: optional rules switched on or off from this event on (never for what came before)."""

    options: dict[str, bool] = Field(min_length=1)
    by: Name = Field(min_length=1)
    reason: Text = Field(min_length=1)


# -- state ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """Who is at the table, and the campaign's fixed settings."""

    campaign_id: str = ""
    title: str = ""
    ruleset: str = ""
    gm: str = ""
    options: dict[str, bool] = field(default_factory=dict)
    #: The numbers its ruleset's book leaves open, as chosen at ``init`` (defaults filled in).
    settings: dict[str, int] = field(default_factory=dict)
    roles: dict[str, str] = field(default_factory=dict)
    departed: frozenset[str] = frozenset()
    #: The open links to the players' page: participant -> SHA-256 of the link's secret (core.invites).
    invites: dict[str, str] = field(default_factory=dict)

    @property
    def players(self) -> list[str]:
        return [n for n, r in self.roles.items() if r == PLAYER and n not in self.departed]

    @property
    def gms(self) -> list[str]:
        return [n for n, r in self.roles.items() if r == GM]

    def is_gm(self, name: str) -> bool:
        return self.roles.get(name) == GM

    def knows(self, name: str) -> bool:
        return name in self.roles


@cache
def _moves_the_table(kind: type) -> bool:
    # Most events leave the table as it is: a replay asks once per payload type, not four times an event.
    return issubclass(kind, (CampaignCreated, ParticipantJoined, ParticipantLeft, OptionsChanged, InviteIssued,
                             InviteRevoked))


def evolve_table(table: Table, payload: Payload) -> Table:
    if not _moves_the_table(type(payload)):
        return table
    if isinstance(payload, CampaignCreated):
        return Table(
            campaign_id=payload.campaign_id,
            title=payload.title,
            ruleset=payload.ruleset,
            gm=payload.gm,
            options=dict(payload.options),
            settings=dict(payload.settings),
            roles={payload.gm: GM},
        )
    if isinstance(payload, ParticipantJoined):
        return replace(table, roles={**table.roles, payload.name: payload.role},
                       departed=table.departed - {payload.name})
    if isinstance(payload, ParticipantLeft):  # a participant who leaves keeps no open link
        return replace(table, departed=table.departed | {payload.name},
                       invites=evolve_invites(table.invites, InviteRevoked(name=payload.name, by=table.gm)))
    if isinstance(payload, (InviteIssued, InviteRevoked)):
        return replace(table, invites=evolve_invites(table.invites, payload))
    if isinstance(payload, OptionsChanged):
        return replace(table, options={**table.options, **payload.options})
    return table


# -- commands -------------------------------------------------------------------------------


@dataclass(frozen=True)
class AddParticipant:
    name: str
    role: str = PLAYER


@dataclass(frozen=True)
class RemoveParticipant:
    name: str
    reason: str = ""


@dataclass(frozen=True)
class ChangeOptions:
    """Switch optional rules on (True) or off (False) from now on: a GM's ruling, with its reason."""

    options: dict[str, bool]
    by: str
    reason: str


def decide_table(command: object, table: Table, options: Mapping[str, str]) -> list[Payload] | None:
    """The journal's own table commands; ``options`` are the optional rules the campaign's ruleset offers."""
    if isinstance(command, AddParticipant):
        name = _joining_name(table, command.name)
        invalid(command.role in (PLAYER, GM), f"role must be 'player' or 'gm', not {command.role!r}")
        return [check_joined(ParticipantJoined(name=name, role=command.role), table)]
    if isinstance(command, RemoveParticipant):
        return [check_left(ParticipantLeft(name=command.name, reason=command.reason), table)]
    if isinstance(command, ChangeOptions):
        invalid(bool(command.options), "name the optional rules to switch on or off")
        invalid(bool(command.reason.strip()), "a ruling on the optional rules needs a reason")
        return [check_options(OptionsChanged(options=command.options, by=command.by, reason=command.reason), table,
                              options)]
    return None


# -- validation -----------------------------------------------------------------------------
#
# The same checks decide a command and re-check a recorded event (``verify``); a validator
# returns the payload with the fields the journal derives filled in.


def _joining_name(table: Table, name: str) -> str:
    name = name.strip()
    invalid(bool(name), "a participant needs a name")
    invalid(name.lower() not in RESERVED_NAMES, f"{name!r} is a reserved word, not a participant's name")
    invalid(not table.knows(name) or name in table.departed, f"{name} is already at the table")
    return name


def check_joined(p: ParticipantJoined, table: Table) -> ParticipantJoined:
    """A newcomer: a real name, not a reserved word, not someone already at the table."""
    invalid(bool(table.gm), "the campaign has not been created")
    return p.model_copy(update={"name": _joining_name(table, p.name)})


def check_left(p: ParticipantLeft, table: Table) -> ParticipantLeft:
    """Someone at the table leaves it; the campaign's own GM stays."""
    invalid(table.knows(p.name) and p.name not in table.departed, f"{p.name} is not at the table")
    invalid(p.name != table.gm, "the campaign's GM cannot leave the table")
    return p


def check_options(p: OptionsChanged, table: Table, known: Mapping[str, str]) -> OptionsChanged:
    """A GM rules; each rule named is one the campaign's ruleset offers (``known``) and is switched
    to what it is not."""
    invalid(table.is_gm(p.by), "only a GM may switch optional rules on or off")
    invalid(bool(p.reason.strip()), "a ruling on the optional rules needs a reason")
    unknown = sorted(set(p.options) - set(known))
    invalid(not unknown, f"unknown optional rule(s) for {table.ruleset}: {', '.join(unknown)}"
            + "".join(did_you_mean(name, known) for name in unknown)
            + (f"; known: {', '.join(sorted(known))}" if known else ""))
    unchanged = sorted(name for name, on in p.options.items() if bool(table.options.get(name)) == on)
    invalid(not unchanged, "already as ruled: " + ", ".join(
        f"{name} is {'on' if p.options[name] else 'off'}" for name in unchanged))
    return p


