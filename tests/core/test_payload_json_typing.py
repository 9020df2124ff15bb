"""A stored payload of its type's current schema is typed by the class's own JSON validator, looked up
once (``events.validate_current_json``): the same payload as ``model_validate_json``, an older schema
left to the upcasters, and a type registered again typed by its new class."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from yarnlog.core.events import Payload, event, payload_class, validate_current_json
from yarnlog.core.timeline import SceneOpened


def test_the_current_schema_is_typed_as_model_validate_json_types_it():
    text = SceneOpened(number=2, caller="Ann", cast=["Bo"]).model_dump_json()
    for _ in range(2):  # the first call builds the lookup, the second uses it
        typed = validate_current_json("scene.opened", 1, text)
        assert typed == SceneOpened.model_validate_json(text)
        assert type(typed) is SceneOpened


def test_an_older_schema_or_an_unknown_type_is_left_to_the_general_path():
    assert payload_class("note").schema_version == 2
    assert validate_current_json("note", 1, '{"text": "x"}') is None
    assert validate_current_json("no.such.type", 1, "{}") is None


def test_an_invalid_payload_raises_pydantics_error():
    with pytest.raises(ValidationError):
        validate_current_json("scene.opened", 1, '{"number": 0, "caller": "Ann"}')


@pytest.fixture
def registry_restored():
    from yarnlog.core import events

    before = dict(events._PAYLOADS)
    yield
    events._PAYLOADS.clear()
    events._PAYLOADS.update(before)
    events._VALIDATE_JSON.pop("test.json_typing.registered", None)


def test_a_type_registered_again_is_typed_by_its_new_class(registry_restored):
    @event("test.json_typing.registered")
    class First(Payload):
        text: str

    assert type(validate_current_json("test.json_typing.registered", 1, '{"text": "a"}')) is First

    @event("test.json_typing.registered")
    class First(Payload):  # noqa: F811 (the same name registered again, as a module imported twice)
        text: str
        scene: int = 0

    typed = validate_current_json("test.json_typing.registered", 1, '{"text": "a"}')
    assert type(typed) is First and typed.scene == 0
