"""The journal service: commands, replay at any point, corrections, visibility, overrides."""

from __future__ import annotations

import pytest

from yarnlog.core.decide import Correct, Retract
from yarnlog.core.events import Payload, event, load_payload, upcaster
from yarnlog.core.referee import InvalidCommand
from yarnlog.core.state import replay, visible_to
from yarnlog.core.table import AddParticipant
from yarnlog.core.timeline import AddNote, CloseScene, EndEpisode, OpenScene, StartEpisode


def test_campaign_starts_with_its_ruleset_and_gm(journal, campaign):
    state = journal.state(campaign)
    assert state.table.ruleset == "yarn"
    assert state.table.gm == "Maya"
    assert state.table.players == ["Ana", "Ben", "Cy"]
    assert state.ruleset.name == "yarn"


def test_a_campaign_id_is_created_once(journal, campaign):
    with pytest.raises(InvalidCommand, match="already exists"):
        journal.create_campaign(campaign, title="Again", gm="Maya")


def test_unknown_ruleset_and_option_are_refused(journal):
    with pytest.raises(InvalidCommand, match="unknown ruleset"):
        journal.create_campaign("x", title="X", gm="Maya", ruleset="gurps")
    with pytest.raises(InvalidCommand, match="unknown optional rule"):
        journal.create_campaign("x", title="X", gm="Maya", options={"exploding_dice": True})
    assert journal.store.campaigns() == []


def _two_scenes(journal, campaign):
    journal.execute(campaign, StartEpisode(title="Fog", theme="trust"))
    journal.execute(campaign, OpenScene(caller="Ana", title="Docks", cast=("Iris",), mode="dramatic"))
    journal.execute(campaign, AddNote(text="first"))
    journal.execute(campaign, CloseScene())
    journal.execute(campaign, OpenScene(caller="Ben", title="Lighthouse"))
    journal.execute(campaign, AddNote(text="second"))


def test_events_carry_the_episode_and_scene_they_belong_to(journal, campaign):
    _two_scenes(journal, campaign)
    notes = [r for r in journal.history(campaign) if r.event_type == "note"]
    assert [(r.episode, r.scene) for r in notes] == [(1, 1), (1, 2)]


def test_projection_as_of_any_event_equals_replaying_that_prefix(journal, campaign):
    _two_scenes(journal, campaign)
    history = journal.history(campaign)
    for upto in range(1, len(history) + 1):
        assert journal.state(campaign, upto=upto) == replay(history[:upto])
    at_end_of_scene_1 = max(r.sequence for r in history if r.scene == 1)
    state = journal.state(campaign, upto=at_end_of_scene_1)
    assert state.timeline.scene is None and list(state.timeline.scenes) == [1]


def test_a_new_scene_closes_the_one_in_play_and_episode_end_closes_the_last(journal):
    """The journal's own timeline, in a ruleset that adds nothing at the end of an episode."""
    journal.create_campaign("plain", title="Plain", gm="Maya", ruleset="will-descriptors")
    for name in ("Ana", "Ben"):
        journal.execute("plain", AddParticipant(name=name))
    _two_scenes(journal, "plain")
    recorded = journal.execute("plain", EndEpisode())
    assert [r.event_type for r in recorded] == ["scene.closed", "episode.ended"]
    with pytest.raises(InvalidCommand, match="start an episode"):
        journal.execute("plain", OpenScene(caller="Ana"))


def test_correction_changes_projections_and_keeps_the_original(journal, campaign):
    joined = journal.execute(campaign, AddParticipant(name="Dee"))[0]
    journal.execute(campaign, Correct(sequence=joined.sequence, changes={"name": "Dea"}, reason="spelling"))
    state = journal.state(campaign)
    assert "Dea" in state.table.players and "Dee" not in state.table.players
    history = journal.history(campaign)
    assert history[joined.sequence - 1].payload.name == "Dee"
    assert history[-1].payload.approved_by == "Maya"
    # As of before the correction, the journal still said Dee.
    assert "Dee" in journal.state(campaign, upto=joined.sequence).table.players


def test_retraction_removes_the_event_from_projections_only(journal, campaign):
    joined = journal.execute(campaign, AddParticipant(name="Dee"))[0]
    journal.execute(campaign, Retract(sequence=joined.sequence, reason="not here tonight"))
    assert "Dee" not in journal.state(campaign).table.players
    assert any(r.sequence == joined.sequence for r in journal.history(campaign))
    with pytest.raises(InvalidCommand, match="already retracted"):
        journal.execute(campaign, Retract(sequence=joined.sequence, reason="twice"))


def test_retracting_a_retraction_undoes_it_and_retracting_that_retracts_again(journal, campaign):
    joined = journal.execute(campaign, AddParticipant(name="Dee"))[0]
    undo = journal.execute(campaign, Retract(sequence=joined.sequence, reason="not here tonight"))[0]
    redo = journal.execute(campaign, Retract(sequence=undo.sequence, reason="she came after all"))[0]
    assert "Dee" in journal.state(campaign).table.players
    history = journal.history(campaign)
    assert journal.state(campaign) == replay(history)
    # As the journal stood before the undo was undone, Dee was not there.
    assert "Dee" not in journal.state(campaign, upto=undo.sequence).table.players
    journal.execute(campaign, Retract(sequence=redo.sequence, reason="she left again"))
    assert "Dee" not in journal.state(campaign).table.players
    with pytest.raises(InvalidCommand, match="already retracted"):
        journal.execute(campaign, Retract(sequence=redo.sequence, reason="twice"))


def test_retracting_a_correction_restores_the_original_and_an_amendment_is_never_corrected(journal, campaign):
    joined = journal.execute(campaign, AddParticipant(name="Dee"))[0]
    fixed = journal.execute(campaign, Correct(sequence=joined.sequence, changes={"name": "Dea"},
                                              reason="spelling"))[0]
    with pytest.raises(InvalidCommand, match="itself an amendment: retract it"):
        journal.execute(campaign, Correct(sequence=fixed.sequence, changes={"reason": "typo"}, reason="x"))
    journal.execute(campaign, Retract(sequence=fixed.sequence, reason="Dee was right"))
    players = journal.state(campaign).table.players
    assert "Dee" in players and "Dea" not in players


def test_amendments_need_a_gm_a_reason_and_a_real_target(journal, campaign):
    before = journal.store.last_sequence(campaign)
    with pytest.raises(InvalidCommand, match="only a GM"):
        journal.execute(campaign, Retract(sequence=2, reason="x"), by="Ana")
    with pytest.raises(InvalidCommand, match="no event 99"):
        journal.execute(campaign, Retract(sequence=99, reason="x"))
    with pytest.raises(InvalidCommand, match="creation cannot be amended"):
        journal.execute(campaign, Retract(sequence=1, reason="x"))
    with pytest.raises(InvalidCommand, match="invalid"):
        journal.execute(campaign, Correct(sequence=2, changes={"role": "dragon"}, reason="x"))
    assert journal.store.last_sequence(campaign) == before


def test_visibility_hides_gm_and_private_events_from_other_players(journal, campaign):
    secret = journal.execute(campaign, AddNote(text="the mayor is the smuggler"), visibility="gm")[0]
    aside = journal.execute(campaign, AddNote(text="Ana's letter"), visibility="participant:Ana")[0]
    table = journal.state(campaign).table
    assert not visible_to(secret, "Ana", table) and visible_to(secret, "Maya", table)
    assert visible_to(aside, "Ana", table) and not visible_to(aside, "Ben", table)
    with pytest.raises(InvalidCommand, match="visibility"):
        journal.execute(campaign, AddNote(text="x"), visibility="participant:Nobody")


def test_commands_from_strangers_are_refused(journal, campaign):
    with pytest.raises(InvalidCommand, match="not at this campaign's table"):
        journal.execute(campaign, AddNote(text="hi"), by="Mallory")


# -- schema versions --------------------------------------------------------------------------


@event("test.weather", version=2)
class Weather(Payload):
    """Version 1 stored ``sky`` as free text; version 2 splits it into sky and wind."""

    sky: str
    wind: str


@upcaster("test.weather", from_version=1)
def _weather_v1_to_v2(data: dict) -> dict:
    sky, _, wind = data.pop("sky").partition(" and ")
    return {"sky": sky, "wind": wind or "calm"}


def test_old_schema_versions_are_upcast_on_read():
    assert load_payload("test.weather", 1, {"sky": "fog and gale"}) == Weather(sky="fog", wind="gale")
    assert load_payload("test.weather", 2, {"sky": "clear", "wind": "calm"}) == Weather(sky="clear", wind="calm")
    with pytest.raises(InvalidCommand, match="newer than this yarnlog"):
        load_payload("test.weather", 3, {})


def test_upcasting_happens_on_read_from_the_store_and_keeps_the_stored_bytes(store):
    import uuid

    from yarnlog.app.verify import check_chain
    from yarnlog.core.envelope import NewEvent, to_recorded

    store.append("w", 0, [NewEvent(str(uuid.uuid4()), "test.weather", 1, "2026-11-21T20:00:00.000000Z", "Maya",
                                   "everyone", {"sky": "rain and storm"})])
    record = store.read("w")[0]
    assert to_recorded(record).payload == Weather(sky="rain", wind="storm")
    assert record.payload == '{"sky":"rain and storm"}' and record.schema_version == 1
    assert check_chain([record], "w") == []


def test_an_override_belongs_to_the_scene_of_the_move_it_lets_through(journal, campaign):
    from yarnlog.core.referee import Override
    from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferTokens

    journal.execute(campaign, StartEpisode(title="Fog"))
    journal.execute(campaign, OpenScene(caller="Maya", title="Docks"))
    recorded = journal.execute(campaign, TransferTokens(source="Ana", destination="Ben", amount=1, reason="loan"),
                               override=Override(by="Maya", reason="a loan"))
    assert [(r.event_type, r.episode, r.scene) for r in recorded] == [
        ("override.recorded", 1, 1), ("yarn.tokens.transferred", 1, 1)]
    assert [(r.episode, r.scene) for r in journal.history(campaign)[-2:]] == [(1, 1), (1, 1)]


def test_a_write_answers_with_its_events_the_state_after_them_and_the_views_brought_to_it(journal, campaign):
    from yarnlog.app.snapshots import view_fingerprint, view_kind

    journal.view(campaign, "tokens")  # someone reads the board: its view is kept, and kept up
    recorded = journal.execute(campaign, AddNote(text="The fog rolls in."), refresh_views=True)
    assert [r.event_type for r in recorded] == ["note"]
    assert recorded.state is not None and recorded.state.sequence == recorded[-1].sequence
    assert recorded.state == journal.state(campaign)
    assert recorded.views == ("tokens",)
    kept = journal.store.load_snapshot(campaign, view_kind("tokens"), view_fingerprint("yarn", "tokens"))
    assert kept is not None and kept.sequence == recorded[-1].sequence
    quiet = journal.execute(campaign, AddNote(text="Nobody asked for the views."))
    assert quiet.views == () and quiet.state is not None and quiet.state.sequence == quiet[-1].sequence
