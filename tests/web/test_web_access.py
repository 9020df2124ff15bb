"""A link's secret is checked in constant time: hashed, then compared with every open invitation by
``hmac.compare_digest``, never stopping at a match, so neither a near miss, a hit nor an unknown
campaign changes the work done."""

from __future__ import annotations

import hmac

from yarnlog.core.invites import secret_hash
from yarnlog.web import access

INVITES = {"Ana": secret_hash("ana-secret"), "Ben": secret_hash("ben-secret"), "Maya": secret_hash("gm-secret")}


def test_only_an_open_invitations_secret_opens_it():
    assert access.participant(INVITES, "ana-secret") == "Ana"
    assert access.participant(INVITES, "gm-secret") == "Maya"
    for wrong in ("ana-secreT", "ana-secre", "", secret_hash("ana-secret"), "ana-secret" + "x" * 200):
        assert access.participant(INVITES, wrong) is None
    assert access.participant(None, "ana-secret") is None
    assert access.participant({}, "ana-secret") is None


def test_the_work_done_is_the_same_for_a_hit_a_near_miss_and_an_unknown_campaign(monkeypatch):
    compared: list[tuple[bytes, bytes]] = []
    compare = hmac.compare_digest

    def counting(a: bytes, b: bytes) -> bool:
        compared.append((a, b))
        return compare(a, b)

    monkeypatch.setattr(access.hmac, "compare_digest", counting)
    counts = {}
    for label, invites, secret in (("hit", INVITES, "ana-secret"), ("near", INVITES, "ana-secreu"),
                                   ("last", INVITES, "gm-secret"), ("wrong", INVITES, "nothing")):
        compared.clear()
        access.participant(invites, secret)
        counts[label] = len(compared)
        assert all(len(a) == len(b) == 64 for a, b in compared)  # hashes: the secret's length is not compared
    assert set(counts.values()) == {len(INVITES)}
    compared.clear()
    access.participant(None, "ana-secret")  # an unknown campaign still hashes and compares
    assert len(compared) >= 1
