"""What a call costs a caller whose character is not cast: the core's one rule with each book's price
(DS12, line 181; DS33, lines 441 and 792; reading 4.18 of digest 001; Yarn 0.1 "Calling Scenes")."""

from __future__ import annotations

import pytest

from yarnlog.app.journal import Journal
from yarnlog.app.verify import verify
from yarnlog.core.referee import RuleViolation
from yarnlog.core.table import AddParticipant
from yarnlog.core.timeline import OpenScene, StartEpisode
from yarnlog.persistence.memory import MemoryStore
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour
from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferTokens
from yarnlog.rulesets.scenes_and_tokens.rules.calling import CallPrice, price_of_call

from .storm_table import CAMPAIGN


def _unspent(journal, who: str) -> frozenset[Colour]:
    return journal.state(CAMPAIGN).rules.piles.pile(who).unspent


def _ok(journal, cid: str = CAMPAIGN) -> None:
    report = verify(journal.stored_events(cid), cid)
    assert report.ok, report


def test_the_price_is_the_specific_rule_s_for_a_procedural_scene_and_nothing_for_the_gm():
    # Reading 4.18: "the specific rule replaces the general one [...] The GM has no PC, so neither cost applies"
    ds, yarn = CallPrice.GREEN_TOKEN, CallPrice.DRAMA_TOKEN
    assert price_of_call(mode="procedural", caller_is_gm=False, caller_character_cast=False,
                         procedural_price=ds) is CallPrice.GREEN_TOKEN
    assert price_of_call(mode="procedural", caller_is_gm=False, caller_character_cast=False,
                         procedural_price=yarn) is CallPrice.DRAMA_TOKEN
    assert price_of_call(mode="dramatic", caller_is_gm=False, caller_character_cast=False,
                         procedural_price=ds) is CallPrice.DRAMA_TOKEN
    for mode in ("dramatic", "procedural", None):
        assert price_of_call(mode=mode, caller_is_gm=True, caller_character_cast=False,
                             procedural_price=ds) is CallPrice.NOTHING
        assert price_of_call(mode=mode, caller_is_gm=False, caller_character_cast=True,
                             procedural_price=ds) is CallPrice.NOTHING


def test_ds33_a_procedural_scene_without_your_character_costs_a_green_token(journal):
    # DS33, line 441: "To call a procedural scene your character is not in, spend a green token."
    recorded = journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=("Tomas", "Vel"), mode="procedural"))
    assert [r.event_type for r in recorded][-2:] == ["scene.opened", "dramasystem.scene.called"]
    [spend] = recorded[-1].payload.procedural_spends
    assert (spend.participant, spend.colour) == ("Ana", Colour.GREEN)
    assert recorded[-1].payload.transfers == []
    assert _unspent(journal, "Ana") == {Colour.YELLOW, Colour.RED}
    assert dict(journal.state(CAMPAIGN).rules.economy.tokens) == {}
    _ok(journal)


def test_ds33_without_a_green_token_the_call_is_refused_citing_the_srd(journal):
    journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=("Tomas",), mode="procedural"))
    before = journal.store.last_sequence(CAMPAIGN)
    with pytest.raises(RuleViolation) as refused:
        journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=("Vel",), mode="procedural"))
    assert "DS33, lines 441, 792" in str(refused.value)
    assert journal.store.last_sequence(CAMPAIGN) == before


def test_ds33_the_gm_and_a_caller_whose_character_is_cast_pay_nothing(journal):
    # DS33: "(This requirement does not apply to the GM.)"
    for caller, cast in (("Maya", ("Tomas",)), ("Ana", ("Iris", "Tomas"))):
        recorded = journal.execute(CAMPAIGN, OpenScene(caller=caller, cast=cast, mode="procedural"))
        assert recorded[-1].event_type == "scene.opened"
    assert _unspent(journal, "Maya") == _unspent(journal, "Ana") == set(Colour)
    _ok(journal)


def test_ds12_a_dramatic_scene_without_your_character_costs_a_drama_token_to_the_kitty(journal):
    # DS12, line 181: "To cast a scene your player character is not in costs you a drama token"
    with pytest.raises(RuleViolation, match=r"DramaSystem SRD \(DS12, line 181\)"):
        journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=("Tomas", "Vel"), mode="dramatic"))
    journal.execute(CAMPAIGN, TransferTokens("kitty", "Ana", 1, reason="a grant earlier"))
    recorded = journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=("Tomas", "Vel"), mode="dramatic"))
    [paid] = recorded[-1].payload.transfers
    assert (paid.source, paid.destination, paid.amount) == ("Ana", "kitty", 1)
    assert recorded[-1].payload.procedural_spends == []
    assert _unspent(journal, "Ana") == set(Colour)
    _ok(journal)


def test_verify_names_a_scene_opened_without_its_price(journal):
    from yarnlog.core.decide import audit
    from yarnlog.core.timeline import SceneOpened

    unpaid = SceneOpened(number=1, caller="Ana", cast=["Tomas"], mode="procedural")
    journal.commands.append(CAMPAIGN, journal.store.last_sequence(CAMPAIGN), [unpaid], by="Maya", visibility="everyone")
    journal.execute(CAMPAIGN, OpenScene(caller="Maya", cast=("Iris",), mode="procedural"))
    faults = audit(journal.history(CAMPAIGN))
    assert [f.problem for f in faults] == [
        "scene 1: Ana paid nothing for a scene without her character (DramaSystem SRD (DS33, lines 441, 792), "
        '"Procedural Resolution": To call a procedural scene your character is not in, spend a green token. '
        "(This requirement does not apply to the GM.))"]


def _yarn_table() -> Journal:
    from yarnlog.rulesets.yarn.parts.characters.sheet_files import creation_command

    journal = Journal(MemoryStore())
    journal.create_campaign("harbor", title="Harbor", gm="Maya")
    for player in ("Ana", "Ben"):
        journal.execute("harbor", AddParticipant(player))
    for name, player, relationships in (("Iris", "Ana", {}), ("Jon", "Ben", {"Iris": "crewmate"})):
        journal.execute("harbor", creation_command({
            "name": name, "player": player, "role": "crew", "desire": "respect", "poles": ["loyal", "free"],
            "central": "Sailing:standard", "sides": ["Tough:standard", "Charm:standard"], "superior": "Tough",
            "flaw": "Reckless", "signs": {"Sailing": "tar", "Tough": "big", "Charm": "smile", "Reckless": "scars"},
            "hit_point_basis": ["Tough"], "hit_point_descriptor": "brawn",
            "story": "My story is of someone who wants respect.", "relationships": relationships,
            "gm_approved": True}))
    journal.execute("harbor", StartEpisode(title="Fog", theme="trust"))
    return journal


def test_a_procedural_scene_without_your_character_costs_a_green_token_here_and_a_drama_token_in_yarn(journal):
    # DramaSystem (DS33): a green procedural token, and no drama token.
    ds = journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=("Tomas",), mode="procedural"))[-1].payload
    assert [(s.participant, s.colour) for s in ds.procedural_spends] == [("Ana", Colour.GREEN)] and not ds.transfers
    # Yarn 0.1 ("Calling Scenes", Yarn 788): a drama token to the kitty.
    yarn = _yarn_table()
    yarn.execute("harbor", TransferTokens("kitty", "Ana", 1, reason="a grant earlier"))
    called = yarn.execute("harbor", OpenScene(caller="Ana", cast=("Jon",), mode="procedural"))[-1]
    assert called.event_type == "yarn.scene.called"
    [paid] = called.payload.transfers
    assert (paid.source, paid.destination, paid.amount, paid.chapter) == ("Ana", "kitty", 1, "Calling Scenes")
    _ok(yarn, "harbor")
