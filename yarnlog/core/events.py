"""Typed event payloads: one pydantic class per event type, with schema versions and upcasters.

A payload class declares its ``event_type`` and ``schema_version``; :func:`event` registers it.
Stored payloads of an older version are upcast on read by the functions registered with
:func:`upcaster`, one step at a time, and then validated by the current class.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic_core import SchemaValidator

from yarnlog.core.referee import InvalidCommand


class Payload(BaseModel):
    """Base of every event payload. Frozen, and strict about unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    event_type: ClassVar[str]
    schema_version: ClassVar[int] = 1
    #: Recorded between two scenes of an episode, the event is told with the next scene opened in that
    #: episode, which it was made for (a precedence order drawn for it), not outside every scene: see
    #: :func:`yarnlog.core.state.as_told`. Where it was recorded is unchanged for the folds.
    told_with_next_scene: ClassVar[bool] = False
    #: What it is, when only a GM records it ("a ruling": "as ruled by the GM"; "an experience award":
    #: "entirely up to the GM"): a command recorded ``--by`` anyone else is refused, and ``verify``
    #: names such an event (:func:`yarnlog.core.decide.check_event`). Empty: anyone at the table may.
    gm_records: ClassVar[str] = ""

    def gm_only(self) -> str:
        """What of this event only a GM records (empty: anyone at the table may): the whole event's
        ``gm_records``, or a part of it that the book gives the GM (an event says so by overriding)."""
        return self.gm_records

    def to_data(self) -> dict[str, Any]:
        """The payload as plain JSON-compatible data (what is stored and hashed)."""
        return self.model_dump(mode="json")


P = TypeVar("P", bound=type[Payload])

_PAYLOADS: dict[str, type[Payload]] = {}
#: ``fn(data) -> data``: turns a stored payload of one schema version into the next.
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]

_UPCASTERS: dict[tuple[str, int], Upcaster] = {}

#: Each event type's current schema version and its class's JSON validator, once built: what typing a
#: stored payload of the current schema calls, one lookup an event (forgotten when a type is registered).
_VALIDATE_JSON: dict[str, tuple[int, Callable[[str], Any]]] = {}


def event(event_type: str, version: int = 1) -> Callable[[P], P]:
    """Class decorator: register a payload class as the current schema of ``event_type``."""

    def register(cls: P) -> P:
        existing = _PAYLOADS.get(event_type)
        if existing is not None and existing is not cls and existing.__qualname__ != cls.__qualname__:
            raise RuntimeError(f"event type {event_type!r} is registered twice")
        cls.event_type = event_type
        cls.schema_version = version
        _PAYLOADS[event_type] = cls
        _VALIDATE_JSON.pop(event_type, None)
        return cls

    return register


def upcaster(event_type: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Decorator: register ``fn(data) -> data`` that turns version ``from_version`` into the next."""

    def register(fn: Upcaster) -> Upcaster:
        _UPCASTERS[(event_type, from_version)] = fn
        return fn

    return register


def _nothing(event_type: str | None = None) -> None:
    return None


def payload_class(event_type: str) -> type[Payload]:
    """The current payload class of ``event_type``.

    A ruleset registers its event types when it is imported; rulesets are imported lazily, so an
    unknown type whose prefix names a ruleset (``mygame.roll.made``) imports that ruleset first, and
    then, if the type is still unknown, what registers the types of the parts it imports when first
    used (``Rules.load_event_types``).
    """
    if event_type not in _PAYLOADS:
        from yarnlog.core.installed import RULESETS, import_object

        prefix = event_type.split(".", 1)[0]
        if prefix in RULESETS and prefix not in RULESETS.duplicates:
            ruleset = import_object(RULESETS[prefix])
            load = getattr(getattr(ruleset, "rules", None), "load_event_types", _nothing)
            if event_type not in _PAYLOADS:  # a type of a part imported when first used: that part's
                load(event_type)
            if event_type not in _PAYLOADS:  # else every such part's
                load(None)
    try:
        return _PAYLOADS[event_type]
    except KeyError:
        raise InvalidCommand(f"unknown event type {event_type!r}") from None


def current_payload_class(event_type: str) -> type[Payload] | None:
    """The current payload class of ``event_type`` if it is registered already, else None (no import)."""
    return _PAYLOADS.get(event_type)


def validate_current_json(event_type: str, schema_version: int, text: str) -> Payload | None:
    """The payload of ``event_type`` validated from its JSON ``text`` when ``schema_version`` is its
    class's current one (else None: the caller upcasts). Raises pydantic's ``ValidationError``.

    As ``model_validate_json`` of the registered class, without its wrapper's work at each call.
    """
    known = _VALIDATE_JSON.get(event_type)
    if known is None:
        cls = _PAYLOADS.get(event_type)
        if cls is None or cls.schema_version != schema_version:
            return None
        validator = cls.__pydantic_validator__
        if not isinstance(validator, SchemaValidator):  # a class whose build is deferred: built by this call
            return cls.model_validate_json(text)
        known = _VALIDATE_JSON[event_type] = (schema_version, validator.validate_json)
    if known[0] != schema_version:
        return None
    payload: Payload = known[1](text)
    return payload


def known_event_types() -> list[str]:
    return sorted(_PAYLOADS)


def load_payload(event_type: str, schema_version: int, data: dict[str, Any]) -> Payload:
    """Upcast stored ``data`` of ``schema_version`` to the current schema and validate it."""
    cls = payload_class(event_type)
    if schema_version > cls.schema_version:
        raise InvalidCommand(
            f"{event_type} schema version {schema_version} is newer than this yarnlog knows "
            f"({cls.schema_version}); upgrade yarnlog"
        )
    version = schema_version
    while version < cls.schema_version:
        step = _UPCASTERS.get((event_type, version))
        if step is None:
            raise InvalidCommand(f"no upcaster for {event_type} from schema version {version}")
        data = step(dict(data))
        version += 1
    try:
        return cls.model_validate(data)
    except ValidationError as exc:
        raise InvalidCommand(f"{event_type} payload is invalid: {_first_error(exc)}") from None


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ())) or "payload"
    return f"field {where}: {err.get('msg')}"


class Recorded(BaseModel):
    """An event as it stands in the journal: its envelope facts and its typed payload.

    This is what ``evolve`` functions fold over. Its header fields are the stored envelope's
    (:mod:`yarnlog.core.envelope`, which maps one to the other; a test keeps them in step).
    ``episode`` and ``scene`` are not stored: they are the timeline context the event was
    recorded in, derived during replay.
    """

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True, defer_build=True)

    campaign_id: str
    sequence: int
    event_id: str
    event_type: str
    schema_version: int
    recorded_at: str
    recorded_by: str
    visibility: str
    payload: Payload
    episode: int | None = None
    scene: int | None = None
