"""Who a link opens the campaign for: the secret's hash against the open invitations, in constant time.

A link is ``/c/CAMPAIGN/SECRET/``. The journal keeps only the SHA-256 of each secret
(:mod:`yarnlog.core.invites`); the secret given is hashed and compared with every open invitation
of the campaign by :func:`hmac.compare_digest`, without stopping at a match, so the time a request
takes does not say whether a secret was close, nor whose it was. An unknown campaign is compared
against as many hashes as a known one would be, so it answers no faster.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping

from yarnlog.core.invites import secret_hash

#: The shape of a secret ``yarnlog invite`` makes (``secrets.token_urlsafe(32)``: 43 characters);
#: anything longer is refused before it is hashed.
MAX_SECRET = 128
#: What an unknown campaign is compared with, so that it costs what a campaign with invitations does.
_DECOY = {"": "0" * 64}


def participant(invites: Mapping[str, str] | None, secret: str) -> str | None:
    """The participant whose open invitation ``secret`` is, or ``None`` (``invites``: name -> hash,
    ``None`` for a campaign that does not exist)."""
    given = secret_hash(secret[:MAX_SECRET]).encode("ascii")
    found = None
    for name, expected in (invites if invites else _DECOY).items():
        if hmac.compare_digest(given, expected.encode("ascii")) and invites:
            found = name
    return found if len(secret) <= MAX_SECRET else None
