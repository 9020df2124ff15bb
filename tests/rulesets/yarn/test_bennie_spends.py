"""Spending bennies in a Yarn campaign, against "Spending Bennies"."""

from __future__ import annotations

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.decide import audit
from yarnlog.core.timeline import OpenScene
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_spends import BennieSpendLine, SpendBennie, bennie_paid
from yarnlog.rulesets.scenes_and_tokens.rules import bennies as bn
from yarnlog.rulesets.yarn.parts.drama.bennie_spends import SPENDS

from .drama_table import GM, bennies, give, seat_characters, tokens
from .refusals import refused, rejected


@pytest.fixture
def scene(journal, campaign):
    """Ana holds two bennies; she calls a scene with Iris and Jon."""
    seat_characters(journal, campaign)
    give(journal, campaign, "Ana", 2, currency="bennie")
    journal.execute(campaign, OpenScene(caller="Ana", cast=("Iris", "Jon")))
    return campaign


def test_a_bennie_cashed_in_for_a_dramatic_token(journal, scene):
    """ "Cash in a bennie for any one of the following: a dramatic token" "Once spent, you remove the
    bennie from your character sheet." """
    spent = journal.execute(scene, SpendBennie("Ana", "drama-token"))[0].payload
    assert [(t.source, t.destination, t.currency) for t in spent.transfers] == [
        ("Ana", "kitty", "bennie"), ("kitty", "Ana", "drama")]
    assert tokens(journal, scene) == {"Ana": 1} and bennies(journal, scene) == {"Ana": 1}


def test_only_one_bennie_per_scene(journal, scene):
    """ "You may spend only one bennie per scene." """
    journal.execute(scene, SpendBennie("Ana", "extra-card"))
    refused(journal, scene, SpendBennie("Ana", "procedural-token"), bn.ONE_PER_SCENE)
    journal.execute(scene, OpenScene(caller="Ana", cast=("Iris",)))
    assert journal.execute(scene, SpendBennie("Ana", "procedural-token"))[0].payload.effect == "a procedural token"
    refused(journal, scene, SpendBennie("Ben", "extra-card"), bn.HAVE_A_BENNIE)


def test_a_burn_takes_another_players_token(journal, scene):
    """ "the right to burn any 1 token held by another player. A dramatic token returns to the kitty; a
    procedural token is treated as spent." """
    refused(journal, scene, SpendBennie("Ana", "burn", "Ben", "drama"), bn.BURN)  # Ben holds no token
    give(journal, scene, "Ben", 1)
    burned = journal.execute(scene, SpendBennie("Ana", "burn", "Ben", "drama"))[0].payload
    assert [(t.source, t.destination) for t in burned.transfers] == [("Ana", "kitty"), ("Ben", "kitty")]
    journal.execute(scene, OpenScene(caller="Ana", cast=("Iris",)))
    refused(journal, scene, SpendBennie("Ana", "burn", GM, "procedural"), bn.BURN)
    assert journal.execute(scene, SpendBennie("Ana", "burn", "Cy", "procedural"))[0].payload.transfers == [
        bennie_paid("Ana")]
    assert verify(journal.store.read(scene), scene).ok


def test_other_options_have_their_own_moves(journal, scene):
    rejected(journal, scene, SpendBennie("Ana", "jump-queue"), "drama-token, procedural-token")
    rejected(journal, scene, SpendBennie(GM, "drama-token"), "never gets bennies")
    rejected(journal, scene, SpendBennie("Ana", "burn", "Ben", "gold"), "'drama' or 'procedural'")


def test_verify_flags_a_second_bennie_forced_into_one_scene(journal, scene):
    journal.execute(scene, SpendBennie("Ana", "extra-card"))
    forged = SPENDS.spent_type(scene=2, effect=bn.BennieOption.EXTRA_CARD.effect,
                         bennie_spends=[BennieSpendLine(spender="Ana", option="extra_card", scene=2)],
                         transfers=[bennie_paid("Ana")])
    journal.commands.append(scene, journal.store.last_sequence(scene), [forged], by=GM, visibility="everyone")
    faults = audit(journal.history(scene))
    assert [f.problem for f in faults] == [f"Ana has already spent a bennie in scene 2 ({bn.ONE_PER_SCENE.cite()})"]
