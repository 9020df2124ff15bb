"""The events a replay builds share, type by type, pydantic's record of the fields they were given
(``core.shared_fields``): the state keeps many of them, and that record was 40% of its memory. The
events stay what they were: equal, with the same fields given, dumped the same, copied apart."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict

from yarnlog.app.interchange import parse_lines
from yarnlog.core.envelope import to_recorded
from yarnlog.core.shared_fields import share_fields_sets
from yarnlog.core.state import stream_stored_in_context, with_context

SAMPLE = Path(__file__).resolve().parents[2] / "journals" / "lantern-harbor.jsonl"
RECORDS = parse_lines(SAMPLE.read_text(encoding="utf-8").splitlines())


def _models(model: BaseModel) -> list[BaseModel]:
    found, pending = [], [model]
    while pending:
        item = pending.pop()
        found.append(item)
        for value in item.__dict__.values():
            values = value if isinstance(value, (list, tuple)) else [value]
            pending.extend(v for v in values if isinstance(v, BaseModel))
    return found


def test_a_replay_builds_events_equal_to_the_stored_ones_sharing_one_set_of_given_fields_a_type():
    built = [recorded for recorded, _ in stream_stored_in_context(RECORDS)]
    assert built == with_context([to_recorded(r) for r in RECORDS])
    # The models of a type given the same fields share one set of their names.
    sets: dict[tuple[type, frozenset[str]], set[int]] = {}
    for recorded, fresh in zip(built, with_context([to_recorded(r) for r in RECORDS]), strict=True):
        assert recorded.model_dump(mode="json") == fresh.model_dump(mode="json")
        for model, unshared in zip(_models(recorded), _models(fresh), strict=True):
            assert model.model_fields_set == unshared.model_fields_set
            sets.setdefault((type(model), frozenset(model.model_fields_set)), set()).add(id(model.model_fields_set))
    assert len(sets) > 10  # the sample's event types and their nested models
    assert all(len(ids) == 1 for ids in sets.values())


def test_a_copy_with_changes_leaves_the_shared_set_and_the_other_events_as_they_were():
    built = [recorded for recorded, _ in stream_stored_in_context(RECORDS)]
    first, second = built[1], built[2]
    names = set(second.model_fields_set)
    changed = first.model_copy(update={"scene": 99})
    assert changed.scene == 99 and first.scene != 99
    assert second.model_fields_set == names


class Draft(BaseModel):
    """A model that is not frozen: assigning a field adds its name to the model's own set."""

    text: str = ""
    scene: int | None = None


class Sealed(BaseModel):
    model_config = ConfigDict(frozen=True)
    text: str = ""
    scene: int | None = None


def test_only_frozen_models_share_their_set():
    a, b = Draft(text="x"), Draft(text="y")
    share_fields_sets(a)
    share_fields_sets(b)
    b.scene = 3
    assert a.model_fields_set == {"text"} and b.model_fields_set == {"text", "scene"}
    c, d = Sealed(text="x"), Sealed(text="y")
    share_fields_sets(c)
    share_fields_sets(d)
    assert c.model_fields_set is d.model_fields_set
    e = Sealed(scene=1)
    share_fields_sets(e)
    assert e.model_fields_set == {"scene"}  # a model given other fields keeps its own set


def test_a_trusted_model_equals_the_validated_one_and_shares_the_set_of_every_field():
    from yarnlog.core.shared_fields import trusted

    built = trusted(Sealed, {"text": "x", "scene": 2})
    assert built == Sealed(text="x", scene=2)
    assert repr(built) == repr(Sealed(text="x", scene=2))
    assert built.model_dump(mode="json") == {"text": "x", "scene": 2}
    assert built.model_fields_set == {"text", "scene"}
    assert trusted(Sealed, {"text": "y", "scene": None}).model_fields_set is built.model_fields_set
    copied = built.model_copy(update={"scene": 3})
    assert copied.scene == 3 and built.scene == 2


def test_only_a_frozen_model_is_built_trusted():
    import pytest

    from yarnlog.core.shared_fields import trusted

    with pytest.raises(TypeError):
        trusted(Draft, {"text": "x", "scene": None})


def test_a_stored_row_whose_header_is_not_typed_is_validated_as_before():
    # The store's columns are typed; a row that is not (text in the sequence) is not taken on trust.
    import dataclasses

    row = dataclasses.replace(RECORDS[0], sequence=str(RECORDS[0].sequence))
    built = next(iter(stream_stored_in_context([row])))[0]
    assert built == with_context([to_recorded(RECORDS[0])])[0]
    assert type(built.sequence) is int
