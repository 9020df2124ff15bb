"""A replay hands a thawed slice to other parts' folds after each change of it (``core.ruleset``'s
``ComposedBuilder``): what grows with the campaign must be shared by those freezes, not copied, or
replay costs more an event the longer the campaign (it did at 1M events: bench/RESULTS.md)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from pyrsistent import PMap, pmap

from yarnlog.app.interchange import parse_lines
from yarnlog.core.envelope import to_recorded
from yarnlog.core.state import Replay, with_context
from yarnlog.rulesets.yarn.parts.characters.sheets import Relationship, in_definition_order, related

SAMPLE = Path(__file__).resolve().parents[3] / "journals" / "lantern-harbor.jsonl"
EVENTS = with_context([to_recorded(r) for r in parse_lines(SAMPLE.read_text(encoding="utf-8").splitlines())])


def test_the_relationships_and_the_armor_are_shared_by_every_freeze_not_copied():
    frame = Replay()
    for recorded in EVENTS:
        frame.fold(recorded)
    first, second = frame.freeze().rules, frame.freeze().rules
    assert first.characters.relationships  # the sample defines relationships and armor
    assert first.combat.armor
    assert first.characters.relationships is second.characters.relationships
    assert first.combat.armor is second.combat.armor
    assert first.characters.cast is second.characters.cast


NAMES = st.sampled_from(["Iris", "Jonah", "Nell", "Old Tom"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(NAMES, NAMES, st.sampled_from(["sister", "rival", "ex-lover"])), max_size=12))
def test_relationships_are_listed_in_the_order_their_pairs_were_first_defined(definitions):
    # A later definition of a pair replaces the earlier one where it stood, as the relationship map
    # and the sheets listed them when the relationships were a dict kept in insertion order.
    kept: dict[frozenset[str], tuple[str, str, str, int]] = {}
    relationships: PMap[frozenset, Relationship] = pmap()
    for sequence, (character, other, nature) in enumerate(definitions, 1):
        kept[frozenset((character, other))] = (character, other, nature, sequence)
        relationships = related(relationships, character, other, nature, sequence)
    assert [(r.character, r.other, r.nature, r.sequence) for r in in_definition_order(relationships)] \
        == list(kept.values())
