"""The journal's remembered state equals a full replay, whatever is recorded in between."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yarnlog.app.journal import Journal
from yarnlog.core.decide import Correct, Retract
from yarnlog.core.referee import YarnlogError
from yarnlog.core.state import replay, with_context
from yarnlog.core.table import AddParticipant, RemoveParticipant
from yarnlog.core.timeline import AddNote, CloseScene, EndEpisode, OpenScene, StartEpisode
from yarnlog.persistence.memory import MemoryStore
from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferTokens

NAMES = ["Ana", "Ben", "Cy"]

commands = st.one_of(
    st.builds(AddNote, text=st.sampled_from(["fog", "rain", "a lie"])),
    st.builds(AddParticipant, name=st.sampled_from(NAMES + ["Dee"])),
    st.builds(RemoveParticipant, name=st.sampled_from(NAMES)),
    st.just(StartEpisode(title="e")),
    st.just(EndEpisode()),
    st.builds(OpenScene, caller=st.sampled_from(NAMES)),
    st.just(CloseScene()),
    st.builds(TransferTokens, source=st.sampled_from(["kitty"] + NAMES), destination=st.sampled_from(NAMES),
              amount=st.integers(1, 2), reason=st.just("ruling")),
    st.builds(Retract, sequence=st.integers(2, 30), reason=st.just("oops")),
    st.builds(Correct, sequence=st.integers(2, 30), changes=st.just({"text": "corrected"}), reason=st.just("typo")),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(commands, min_size=1, max_size=25))
def test_remembered_state_equals_a_full_replay(script):
    store = MemoryStore()
    journal = Journal(store)
    journal.create_campaign("c", title="C", gm="Maya")
    for command in script:
        before = journal.state("c")
        try:
            recorded = journal.execute("c", command)
        except YarnlogError:
            recorded = []
        fresh = Journal(store)
        assert journal.state("c") == replay(fresh.history("c"))
        assert journal.history("c") == fresh.history("c")
        # A journal seeing the campaign for the first time replays it as it streams from the store:
        # the same state, and the same timeline as recorded, as the journal that folded it command by command.
        first_read = Journal(store)
        assert first_read.state("c") == journal.state("c")
        assert first_read.states.latest["c"].timeline == journal.states.latest["c"].timeline
        # The events a command records come back in the context of the state it was decided on.
        bare = [r.model_copy(update={"episode": None, "scene": None}) for r in recorded]
        assert recorded == with_context(bare, before.timeline)
        # The timeline is folded once per event: the state shares the one recorded unless amended.
        if not any(r.event_type in ("correction", "retraction") for r in fresh.history("c")):
            assert journal.state("c").timeline is journal.states.latest["c"].timeline
