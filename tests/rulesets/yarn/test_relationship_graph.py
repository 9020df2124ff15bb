"""The relationship map as data ("Defining Relationships", "What You Want From Others"): nodes,
labelled relationships, and wants with the fraught ones marked: "The first and second PCs you name
as your withholders of emotional reward are your fraught relationships"."""

from __future__ import annotations

import pytest

from yarnlog.rulesets.scenes_and_tokens.parts.relationship_map import PC, RECURRING, CharacterNode, RelationshipEdge
from yarnlog.rulesets.scenes_and_tokens.parts.relationships import DeclareWant
from yarnlog.rulesets.yarn.parts.characters.relationship_graph import relationship_graph

from .sample_harbor import CID, harbor_journal


@pytest.fixture(scope="module")
def harbor():
    return harbor_journal()


def test_the_characters_are_the_pcs_with_their_players_then_the_recurring_characters(harbor):
    graph = relationship_graph(harbor.state(CID))
    assert graph.nodes == (
        CharacterNode("Jonah Crane", "Ben", PC), CharacterNode("Iris Vane", "Ana", PC),
        CharacterNode("Nell Harrow", "Fay", PC), CharacterNode("Kit Marlowe", "Cy", PC),
        CharacterNode("Tobias Wren", "Eli", PC), CharacterNode("Rosa Quill", "Dee", PC),
        CharacterNode("Old Tom", None, RECURRING), CharacterNode("Saul Brenner", None, RECURRING),
    )


def test_the_relationships_are_the_ones_the_journal_records_labelled_and_from_who_defined_them(harbor):
    recorded = []
    for r in harbor.history(CID):
        p = r.payload.to_data()
        if r.event_type == "yarn.character.created":
            recorded += [RelationshipEdge(p["name"], rel["other"], rel["nature"]) for rel in p["relationships"]]
        if r.event_type == "yarn.character.relationship_defined":
            recorded.append(RelationshipEdge(p["character"], p["other"], p["nature"]))
    graph = relationship_graph(harbor.state(CID))
    assert list(graph.relationships) == recorded
    assert len(recorded) == 16  # 15 between the six PCs, and Kit's with Old Tom
    assert RelationshipEdge("Iris Vane", "Jonah Crane", "ex-lover") in graph.relationships


def test_every_want_is_there_and_only_wants_of_the_first_two_withholders_are_fraught(harbor):
    wants = [r.payload for r in harbor.history(CID) if r.event_type == "yarn.character.want_declared"]
    named: dict[str, list[str]] = {}
    for want in wants:
        named.setdefault(want.character, [])
        if want.withholder not in named[want.character]:
            named[want.character].append(want.withholder)
    graph = relationship_graph(harbor.state(CID))
    pc_wants = [(w.source, w.target, w.want, w.fraught) for w in graph.wants if w.target not in ("Old Tom",
                                                                                                  "Saul Brenner")]
    expected = [(w.character, w.withholder, w.want, w.withholder in named[w.character][:2]) for w in wants]
    # Grouped by character (in the map's order), each character's wants in the order declared.
    order = [node.name for node in graph.nodes]
    assert pc_wants == sorted(expected, key=lambda want: order.index(want[0]))
    # Each PC of the sample named two withholders: every one of those wants is fraught.
    assert all(fraught for *_, fraught in pc_wants) and len(pc_wants) == 12
    # Old Tom was promoted by Iris's emotional need: a want of hers, never fraught (he is no PC).
    [need] = [w for w in graph.wants if w.target == "Old Tom"]
    assert (need.source, need.fraught) == ("Iris Vane", False)


def test_a_third_withholder_is_wanted_but_not_fraught_and_the_first_two_stay_fraught():
    journal = harbor_journal()
    journal.execute(CID, DeclareWant("Iris Vane", "Rosa Quill", "to leave her father out of the paper",
                                     "the obituary is half written"))
    journal.execute(CID, DeclareWant("Iris Vane", "Jonah Crane", "to take the lamp back",
                                     "he will not hand over the keys"))
    iris = [(w.target, w.fraught) for w in relationship_graph(journal.state(CID)).wants if w.source == "Iris Vane"]
    assert iris == [("Jonah Crane", True), ("Kit Marlowe", True), ("Rosa Quill", False), ("Jonah Crane", True),
                    ("Old Tom", False)]


def test_the_map_can_be_read_as_of_any_event(harbor):
    history = harbor.history(CID)
    [first_want] = [r.sequence for r in history if r.event_type == "yarn.character.want_declared"][:1]
    before = relationship_graph(harbor.state(CID, upto=first_want - 1))
    assert before.wants == () and len(before.nodes) == 6
