"""Invitations to the players' page: a link per participant, recorded as events, its secret never.

The GM gives each participant a link (``yarnlog invite NAME``) that opens the campaign in a browser
as that participant may see it (the GM's link: the GM's view). The link carries a random secret;
the journal records only its SHA-256, so the log, an export or a backup opens no page. A new
invitation replaces the participant's previous link; a revocation closes it. Every ruleset has
these events: they are the journal's own, like the table's.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import Field

from yarnlog.core.events import Payload, event
from yarnlog.core.limits import Name
from yarnlog.core.referee import Referee, invalid

if TYPE_CHECKING:
    from yarnlog.core.ruleset import CampaignState
    from yarnlog.core.table import Table

#: A secret's hash as recorded: 64 lowercase hexadecimal digits of SHA-256.
HASH_PATTERN = r"^[0-9a-f]{64}$"


def secret_hash(secret: str) -> str:
    """The SHA-256 of a link's secret, as recorded. The secret is random (256 bits), so a plain hash
    is enough: there is nothing to guess that a slow hash would protect."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@event("invite.issued")
class InviteIssued(Payload):
    """A GM gives ``name`` a link to the players' page; ``secret_sha256`` is the hash of its secret."""

    gm_records: ClassVar[str] = "a link to the players' page"

    name: Name = Field(min_length=1)
    secret_sha256: str = Field(pattern=HASH_PATTERN)
    by: Name = Field(min_length=1)


@event("invite.revoked")
class InviteRevoked(Payload):
    """A GM closes ``name``'s link: it opens nothing from this event on."""

    gm_records: ClassVar[str] = "a link to the players' page"

    name: Name = Field(min_length=1)
    by: Name = Field(min_length=1)


@dataclass(frozen=True)
class IssueInvite:
    """Give ``name`` a link whose secret hashes to ``secret_sha256`` (the secret is made by the shell)."""

    name: str
    secret_sha256: str
    by: str


@dataclass(frozen=True)
class RevokeInvite:
    name: str
    by: str


def evolve_invites(invites: dict[str, str], payload: Payload) -> dict[str, str]:
    """The open links, participant -> hash of the secret, after ``payload``."""
    if isinstance(payload, InviteIssued):
        return {**invites, payload.name: payload.secret_sha256}
    if isinstance(payload, InviteRevoked):
        return {name: h for name, h in invites.items() if name != payload.name}
    return invites


def decide_invite(command: object, table: Table) -> list[Payload] | None:
    if isinstance(command, IssueInvite):
        return [check_issued(InviteIssued(name=command.name, secret_sha256=command.secret_sha256, by=command.by),
                             table)]
    if isinstance(command, RevokeInvite):
        return [check_revoked(InviteRevoked(name=command.name, by=command.by), table)]
    return None


def _by_gm(by: str, table: Table) -> None:
    invalid(table.is_gm(by), f"only a GM gives or revokes a link to the players' page, not {by}")


def check_issued(p: InviteIssued, table: Table) -> InviteIssued:
    """A GM invites someone at the table (a player, or a GM for the GM's view)."""
    _by_gm(p.by, table)
    invalid(table.knows(p.name) and p.name not in table.departed,
            f"{p.name} is not at the table (players: {', '.join(table.players)})")
    invalid(p.secret_sha256 not in table.invites.values(), "that secret is already someone's link")
    return p


def check_revoked(p: InviteRevoked, table: Table) -> InviteRevoked:
    """A GM revokes a link that is open."""
    _by_gm(p.by, table)
    invalid(p.name in table.invites, f"{p.name} has no open link to revoke")
    return p


def validate_issued(p: InviteIssued, campaign: CampaignState[Any], referee: Referee) -> InviteIssued:
    return check_issued(p, campaign.table)


def validate_revoked(p: InviteRevoked, campaign: CampaignState[Any], referee: Referee) -> InviteRevoked:
    return check_revoked(p, campaign.table)
