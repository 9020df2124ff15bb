"""The snapshot codec: replayed states round-trip exactly, the output is canonical, and nothing but
the whitelisted classes is ever rebuilt from a snapshot's text (no pickle: reading runs no code)."""

from __future__ import annotations

import enum
import functools
import json
import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyrsistent import pmap, pset, pvector

from yarnlog.app.interchange import parse_lines
from yarnlog.app.snapshots import decode_state, encode_state, state_classes, state_codec
from yarnlog.core.codec import Codec, CodecError, fingerprint
from yarnlog.core.envelope import canonical, to_recorded
from yarnlog.core.ruleset import get_ruleset
from yarnlog.core.state import in_context, replay

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "journals" / "lantern-harbor.jsonl"
sys.path.insert(0, str(ROOT / "bench"))
import generate  # noqa: E402


@functools.cache
def history(source: str) -> list:
    lines = SAMPLE.read_text(encoding="utf-8").splitlines() if source == "sample" else \
        [canonical(line) for line in generate.events(700)]
    return in_context([to_recorded(r) for r in parse_lines(lines)])[0]


@functools.cache
def state_at(source: str, sequence: int):
    return replay(history(source)[:sequence])


def timeline_at(source: str, sequence: int):
    return in_context(history(source)[:sequence])[1][-1]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["sample", "generated"]), st.data())
def test_a_replayed_state_round_trips_at_any_sequence(source, data):
    sequence = data.draw(st.integers(1, len(history(source))), label="sequence")
    state, recorded = state_at(source, sequence), timeline_at(source, sequence)
    codec, _ = state_codec("yarn")
    text = encode_state(codec, state, recorded)
    back, timeline = decode_state(codec, text)
    assert back == state
    assert timeline == recorded
    assert encode_state(codec, back, timeline) == text  # canonical: the same state, the same text


def test_the_recorded_timeline_is_written_once_when_no_amendment_changed_it():
    codec, _ = state_codec("yarn")
    state, recorded = state_at("sample", 60), timeline_at("sample", 60)
    shared = replace(state, timeline=recorded)
    text = encode_state(codec, shared, recorded)
    lines = text.split("\n")
    assert json.loads(lines[0])[5][1] is None and lines[2] == "null"  # the state's timeline: the recorded one, once
    back, timeline = decode_state(codec, text)
    assert back == shared and timeline == recorded and back.timeline is timeline
    amended = replace(state, timeline=timeline_at("sample", 40))  # a timeline other than the recorded one
    back, timeline = decode_state(codec, encode_state(codec, amended, recorded))
    assert back.timeline == amended.timeline != recorded == timeline


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Point:
    x: float
    y: int


@dataclass(frozen=True, slots=True)
class Slotted:
    name: str
    at: Point


@dataclass
class Guarded:
    """A field reached through a descriptor: decoding sets it as ``__init__`` would, not past it."""
    level: int

    def __post_init__(self) -> None:
        self.seen = ["init"]


def _level(self: Guarded) -> int:
    return self.__dict__["_level"]


def _set_level(self: Guarded, value: int) -> None:
    self.__dict__["_level"] = value


Guarded.level = property(_level, _set_level)  # type: ignore[assignment]

CODEC = Codec([Colour, Point])
BUILT = Codec([Point, Slotted, Guarded])  # dataclasses built otherwise than Point


@pytest.mark.parametrize("value", [
    None, True, False, 0, 1, -7, 10**30, 0.1, -0.0, 1e300, float("inf"), "", "ü ☃ \"quoted\"",
    [1, (2, 3)], (1, [2]), ((),), [], (), {"a": 1, "b": (2,)}, {(1, "a"): "tuple key", frozenset({1}): "set key",
                                                              3: "int key", Colour.RED: "enum key"},
    frozenset({(1, 2), (3, 4)}), {1, 2}, pmap({"a": pvector([1, 2]), (1,): pset({"x"})}),
    Fraction(7, 3), Point(0.5, 2), [Point(1.0, 1), Colour.BLUE],
])
def test_plain_values_and_containers_round_trip_with_their_types(value):
    back = CODEC.decode(CODEC.encode(value))
    assert back == value and type(back) is type(value)
    if isinstance(value, (list, tuple)):
        assert [type(v) for v in back] == [type(v) for v in value]  # a tuple stays a tuple, 1.0 a float


def test_booleans_ints_and_floats_stay_apart():
    assert CODEC.decode(CODEC.encode([True, 1, 1.0])) == [True, 1, 1.0]
    assert [type(v) for v in CODEC.decode(CODEC.encode([True, 1, 1.0]))] == [bool, int, float]


def test_a_dict_keeps_its_order_and_sets_are_written_in_one_order_whatever_their_history():
    assert list(CODEC.decode(CODEC.encode({"b": 1, "a": 2}))) == ["b", "a"]  # reports print dicts in order
    one, other = frozenset(["x", "y", "z"]), frozenset(["z", "y", "x"])
    assert CODEC.encode(one) == CODEC.encode(other)
    grown = pmap()
    for key in ["k3", "k1", "k2"]:
        grown = grown.set(key, 1)
    assert CODEC.encode(grown) == CODEC.encode(pmap({"k1": 1, "k2": 1, "k3": 1}))


def test_a_dataclass_with_slots_or_a_field_behind_a_descriptor_round_trips():
    slotted = Slotted("a", Point(1.5, 3))
    assert BUILT.decode(BUILT.encode(slotted)) == slotted
    back = BUILT.decode(BUILT.encode(Guarded(4)))
    assert back.level == 4 and back.__dict__ == {"_level": 4}  # no __init__ run, the property's storage used


def wrap(value) -> str:
    """A text as CODEC writes it, around a hand-made (forged) value."""
    return json.dumps(["yarnlog-state", CODEC.classes_hash, value])


@pytest.mark.parametrize("text, message", [
    (wrap(["c", 99]), "not a registered 'c' class"),
    (wrap(["c", "os:system"]), "not a registered 'c' class"),  # names are not looked up at all
    (wrap(["e", 1, "red"]), "not a registered 'e' class"),  # class 1 (Point) is a dataclass, not an enum
    (wrap(["m", 0, []]), "not a registered 'm' class"),
    (wrap(["c", 1, 1.0]), "other fields"),  # Point has two fields
    (wrap(["pickle", "cos\nsystem"]), "unknown tag"),
    (wrap({"__class__": "os.system"}), "bare dict"),
    (wrap(["F", 1, 0]), "malformed"),
    (json.dumps(["yarnlog-state", "0" * 16, 1]), "other classes"),  # another codec's numbering
    (json.dumps(["c", 1, 1.0, 2]), "no yarnlog-state header"),
    ("not json", "not a snapshot"),
])
def test_anything_else_is_refused_with_a_clear_error(text, message):
    with pytest.raises(CodecError, match=message):
        CODEC.decode(text)


def test_a_value_of_an_unregistered_class_is_not_written():
    class Secret:
        pass

    with pytest.raises(CodecError, match="not a registered class"):
        CODEC.encode([Secret()])
    with pytest.raises(CodecError, match="not a dataclass, an enum or a pydantic model"):
        Codec([Secret])


def test_the_whitelist_is_the_cores_and_the_rulesets_state_classes_only():
    names = [f"{c.__module__}:{c.__qualname__}" for c in state_classes(get_ruleset("yarn"))]
    assert "yarnlog.rulesets.yarn.state:YarnState" in names
    assert "yarnlog.core.events:Recorded" in names
    assert all(n.startswith(("yarnlog.core.", "yarnlog.rulesets.yarn.parts.", "yarnlog.rulesets.yarn.rules.",
                             "yarnlog.rulesets.scenes_and_tokens.",
                             "yarnlog.rulesets.yarn.state:")) for n in names)


def test_the_fingerprint_changes_with_the_structure_the_ruleset_or_the_event_schemas():
    @dataclass(frozen=True)
    class Point:  # noqa: F811 - the same name, another field: another structure
        x: float
        z: int

    base = dict(ruleset="yarn", ruleset_title="Yarn 0.1", classes=[Colour, Point], event_versions={"note": 1})
    fp = fingerprint(**base)
    assert fp == fingerprint(**base)
    assert fp != fingerprint(**{**base, "classes": [Colour, globals()["Point"]]})
    assert fp != fingerprint(**{**base, "ruleset_title": "Yarn 0.2"})
    assert fp != fingerprint(**{**base, "event_versions": {"note": 2}})
    assert fp != fingerprint(**{**base, "extra": "other code"})


def test_a_snapshot_of_the_state_is_plain_json_one_piece_a_line_behind_a_header():
    codec, _ = state_codec("yarn")
    text = encode_state(codec, state_at("sample", 50), timeline_at("sample", 50))
    header, *pieces = text.split("\n")
    head = json.loads(header)
    assert head[:5] == ["yarnlog-state-parts", codec.classes_hash, "campaign", "yarn", 50]
    assert head[6] == [len(piece) for piece in pieces]  # each piece found by its length, none read to find it
    assert all(json.loads(piece) is not None or piece == "null" for piece in pieces)
    rules = head[5][3]  # the ruleset's state, split into its parts' slices, and those into their fields
    assert [name for name, _ in rules[1]] == ["economy", "characters", "drama", "combat", "procedure", "powers"]


@dataclass(frozen=True)
class Slices:
    first: tuple
    second: dict
    third: int = 7  # a default: a class attribute the deferred field must shadow


def deferred_slices(codec: Codec, value: Slices):
    from yarnlog.core.deferred import Deferred, deferred_instance

    texts = {name: codec.encode_value(getattr(value, name)) for name in ("first", "second", "third")}
    cells = {name: Deferred(text, 0, len(text), codec.decode_value) for name, text in texts.items()}
    return deferred_instance(Slices, cells), cells


def test_a_dataclass_with_fields_decoded_when_first_read_equals_the_plain_one_and_decodes_only_what_is_read():
    from yarnlog.core.deferred import deferred_fields
    from yarnlog.core.frozen import replace as frozen_replace

    codec = Codec([Slices])
    plain = Slices((1, "a"), {"k": (2, 3)}, 9)
    lazy, cells = deferred_slices(codec, plain)
    assert set(deferred_fields(lazy)) == {"first", "second", "third"}
    assert lazy.third == 9 and cells["third"].decoded and not cells["first"].decoded
    changed = frozen_replace(lazy, second={"k": ()})  # a fold's copy shares what is not decoded yet
    assert set(deferred_fields(changed)) == {"first"} and not cells["first"].decoded
    assert changed.first == (1, "a") and cells["first"].decoded and lazy.first is changed.first
    assert lazy == plain and plain == lazy and repr(lazy) == repr(plain)
    assert hash(frozen_replace(lazy, second=None)) == hash(replace(plain, second=None))
    assert isinstance(lazy, Slices) and replace(lazy, third=1) == Slices((1, "a"), {"k": (2, 3)}, 1)
    assert codec.encode(lazy) == codec.encode(plain)


def test_a_vector_read_and_appended_to_is_written_back_without_being_decoded():
    from yarnlog.core.deferred import Deferred, PendingVector

    codec = Codec([Point])
    for items in ([], [Point(1.0, 2), (3, "x")]):
        text = codec.encode_value(pvector(items))
        cell = Deferred(text, 0, len(text), codec.decode_value)
        grown = PendingVector(cell).append(Point(0.5, 1)).extend(["y"])
        assert grown.text(codec) == codec.encode_value(pvector([*items, Point(0.5, 1), "y"]))
        assert not cell.decoded
        assert grown == pvector([*items, Point(0.5, 1), "y"]) == grown and len(grown) == len(items) + 2
        assert cell.decoded and grown.text(codec) is None  # decoded once used: written as any vector
