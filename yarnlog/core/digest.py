"""A journal's digest: one short line that pins a campaign's whole history at some event.

``yarnlog1:lantern:206:<64 hex>`` says: campaign ``lantern``, its first 206 events, and the
Merkle root (:mod:`yarnlog.core.merkle`) of their chain hashes. It is short enough to paste in a
group chat at the end of a session; whoever keeps it can later check that the journal still
holds exactly those 206 events, in that order, byte for byte (``yarnlog verify --digest``), or,
without the journal, that a later digest extends it (a consistency proof,
:func:`check_consistency`).

The head hash is not in the line: the root already commits to it (it is the last leaf), and a
second 64-digit hash would double the line. A digest may carry a signature (a GM's Ed25519 key,
:mod:`yarnlog.app.signing`) as a fifth field over the four before it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from yarnlog.core.merkle import verify_consistency
from yarnlog.core.referee import InvalidCommand

#: The first field: the digest's format (a later format gets a new tag, never a new meaning).
TAG = "yarnlog1"
#: A campaign id as ``yarnlog init`` takes it (the ``campaign.created`` payload's own pattern).
CAMPAIGN_ID = r"[a-z0-9][a-z0-9._-]{0,63}"
_DIGEST = re.compile(rf"{TAG}:(?P<campaign>{CAMPAIGN_ID}):(?P<size>0|[1-9][0-9]{{0,17}}):(?P<root>[0-9a-f]{{64}})"
                     r"(?::(?P<signature>[A-Za-z0-9_-]{86}))?")
_HEX64 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True, slots=True)
class Digest:
    """Campaign ``campaign_id`` as of event ``size``: the Merkle root of its first ``size`` chain hashes.

    ``signature`` (base64url, no padding) is an Ed25519 signature of :meth:`signed_text`, or empty.
    """

    campaign_id: str
    size: int
    root: str
    signature: str = ""

    def line(self) -> str:
        """The digest as one line (its signature, if any, as the last field)."""
        base = self.unsigned()
        return f"{base}:{self.signature}" if self.signature else base

    def unsigned(self) -> str:
        """The four fields a signature covers: ``yarnlog1:campaign:size:root``."""
        return f"{TAG}:{self.campaign_id}:{self.size}:{self.root}"

    def signed_text(self) -> bytes:
        """What a signature signs: the unsigned line, under a label of its own (a signature made
        for a digest can never be taken for one over some other text)."""
        return f"yarnlog digest signature\n{self.unsigned()}".encode("ascii")

    def to_data(self) -> dict[str, Any]:
        return {"digest": self.line(), "campaign_id": self.campaign_id, "events": self.size, "merkle_root": self.root,
                "signed": bool(self.signature)}


def parse_digest(text: str) -> Digest:
    """A digest from its line (surrounding white space ignored); a clear error if it is not one."""
    found = _DIGEST.fullmatch(text.strip())
    if found is None:
        raise InvalidCommand(f"not a yarnlog digest: {text.strip()[:40]!r}; a digest reads "
                             f"{TAG}:CAMPAIGN:EVENTS:ROOT (64 hex digits), as 'yarnlog digest' prints it")
    return Digest(found["campaign"], int(found["size"]), found["root"], found["signature"] or "")


@dataclass(frozen=True, slots=True)
class ConsistencyProof:
    """The hashes showing digest ``new`` extends digest ``old`` (RFC 9162 §2.1.4), hex-encoded."""

    old: Digest
    new: Digest
    path: tuple[str, ...]

    def to_data(self) -> dict[str, Any]:
        return {"from": self.old.line(), "to": self.new.line(), "proof": list(self.path)}


def parse_proof(data: Any) -> ConsistencyProof:
    """A proof from what :meth:`ConsistencyProof.to_data` wrote; a clear error for anything else."""
    if not isinstance(data, dict) or set(data) != {"from", "to", "proof"}:
        raise InvalidCommand("not a consistency proof: expected a JSON object with 'from', 'to' and 'proof', "
                             "as 'yarnlog digest --prove-from D --json' writes it")
    path = data["proof"]
    if not isinstance(path, list) or not all(isinstance(h, str) and _HEX64.fullmatch(h) for h in path):
        raise InvalidCommand("not a consistency proof: 'proof' must be a list of 64-digit hex hashes")
    if not isinstance(data["from"], str) or not isinstance(data["to"], str):
        raise InvalidCommand("not a consistency proof: 'from' and 'to' must be digests")
    return ConsistencyProof(parse_digest(data["from"]), parse_digest(data["to"]), tuple(path))


def check_consistency(proof: ConsistencyProof) -> str | None:
    """Why ``proof`` does not show its new digest extends its old one; None when it does.

    Needs nothing but the proof: no journal, no server to trust. (Whether ``old`` is the digest
    the caller kept, and whether ``new`` is signed by the GM, is for the caller to compare.)
    """
    old, new = proof.old, proof.new
    if old.campaign_id != new.campaign_id:
        return f"the digests are of two campaigns ({old.campaign_id}, {new.campaign_id})"
    if old.size > new.size:
        return f"the older digest ({old.size} events) is longer than the newer ({new.size} events)"
    if not verify_consistency(old.size, new.size, bytes.fromhex(old.root), bytes.fromhex(new.root),
                              [bytes.fromhex(h) for h in proof.path]):
        return (f"the proof does not show that {new.campaign_id} at event {new.size} extends the history "
                f"of event {old.size}: that history was changed or cut")
    return None
