"""JSON Lines interchange: one canonical event per line, hashes included, and a trailer.

An export is the journal's exact bytes in a portable form; an import checks every line, the
chain and the rules before it writes anything, so a bad file changes nothing. The last line is
the trailer: the number of events, the head hash and the Merkle root (the root ``yarnlog digest``
prints), so a file cut short at a line break (a cut tail is a sound chain) is refused.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import IO, Any, get_type_hints

from pydantic import ConfigDict, Field, ValidationError, create_model

from yarnlog.app.verify import AMENDMENT_TYPES, Parsed, verify
from yarnlog.core.chain import remembered_hashes
from yarnlog.core.digest import CAMPAIGN_ID
from yarnlog.core.envelope import StoredEvent, canonical, from_line, to_line
from yarnlog.core.limits import MAX_DEPTH, campaign_id_problem, check_data, name_problem
from yarnlog.core.merkle import TreeHasher, leaf_hash
from yarnlog.core.names import NAME_FIELDS
from yarnlog.core.referee import InvalidCommand
from yarnlog.persistence.protocol import EventRecorder

HEX64 = r"^[0-9a-f]{64}$"

#: What a line's fields must look like beyond their type; the fields themselves are the envelope's.
_CONSTRAINTS: dict[str, Any] = {
    "campaign_id": Field(pattern=f"^{CAMPAIGN_ID}$"),
    "sequence": Field(ge=1),
    "event_id": Field(pattern=r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"),
    "event_type": Field(min_length=1),
    "schema_version": Field(ge=1),
    "recorded_at": Field(pattern=r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$"),
    "recorded_by": Field(min_length=1),
    "visibility": Field(min_length=1),
    "prev_hash": Field(pattern=HEX64),
    "hash": Field(pattern=HEX64),
}

#: Each envelope field as ``(type, constraint)``, the payload as a JSON object (built at run time).
_LINE_FIELDS: dict[str, Any] = {
    name: (dict if name == "payload" else kind, _CONSTRAINTS.get(name, ...))
    for name, kind in get_type_hints(StoredEvent).items()
}

#: The shape of one line of an export: the stored event's fields, the payload as a JSON object.
ExportedEvent = create_model("ExportedEvent", __config__=ConfigDict(extra="forbid", strict=True), **_LINE_FIELDS)


#: A subset of what :data:`ExportedEvent` accepts, checked without building a model: the envelope's
#: exact keys, exact types (no bool for an int, as in strict mode), its patterns restricted to
#: ASCII, its text valid Unicode. A line passing it is valid; any other line goes to the model,
#: which accepts it or words the error. (``re.fullmatch`` stands for the model's anchored patterns.)
_FAST_PATTERNS = {
    "campaign_id": re.compile(CAMPAIGN_ID),
    "event_id": re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
    "recorded_at": re.compile(r"[0-9]{4}-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9](\.[0-9]+)?Z"),
    "prev_hash": re.compile(r"[0-9a-f]{64}"),
    "hash": re.compile(r"[0-9a-f]{64}"),
}
_FIELDS = frozenset(_LINE_FIELDS)
_TEXT_FIELDS = ("event_type", "recorded_by", "visibility")
_INT_LIMIT = 2**63  # well inside what the model reads as an int


def _plainly_valid(data: Any) -> bool:
    """Whether ``data`` (a parsed line) is certainly a valid :data:`ExportedEvent`."""
    if type(data) is not dict or data.keys() != _FIELDS or type(data["payload"]) is not dict:
        return False
    for name in ("sequence", "schema_version"):
        value = data[name]
        if type(value) is not int or not 1 <= value < _INT_LIMIT:
            return False
    for name in _TEXT_FIELDS:
        value = data[name]
        if type(value) is not str or not value or not (value.isascii() or _is_unicode(value)):
            return False
    for name, pattern in _FAST_PATTERNS.items():
        value = data[name]
        if type(value) is not str or pattern.fullmatch(value) is None:
            return False
    return True


def _is_unicode(text: str) -> bool:
    """Whether ``text`` is valid Unicode (JSON can spell a lone surrogate, which the model refuses)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


#: The trailer's one key: no event line has it, so the two cannot be taken for each other.
TRAILER = "trailer"


@dataclass(frozen=True, slots=True)
class Trailer:
    """An export's last line: how many events it holds, the last one's hash, and their Merkle root."""

    campaign_id: str
    events: int
    head_hash: str
    merkle_root: str

    def line(self) -> str:
        return canonical({TRAILER: {"campaign_id": self.campaign_id, "events": self.events,
                                    "head_hash": self.head_hash, "merkle_root": self.merkle_root}}) + "\n"


def export_lines(store: EventRecorder, campaign_id: str) -> Iterator[str]:
    """The campaign as JSON Lines, one canonical event per line, streamed from the store, then the trailer."""
    records = store.iter_read(campaign_id)
    first = next(records, None)
    if first is None:
        raise InvalidCommand(f"no campaign {campaign_id!r} in this journal")
    tree, last = TreeHasher(), first
    for last in chain((first,), records):
        tree.add(leaf_hash(last.hash))
        yield canonical(to_line(last)) + "\n"
    yield Trailer(campaign_id, tree.size, last.hash, tree.root().hex()).line()


@dataclass(frozen=True, slots=True)
class Export:
    """A parsed export: its events, the file line each came from, and its trailer (None if it has none)."""

    records: list[StoredEvent]
    line_numbers: list[int]
    trailer: Trailer | None
    #: Each record's payload as parsed from its line (its stored text was made canonical from it).
    payloads: list[Any]


#: The longest line an import reads: an event with a note of the longest text and its envelope
#: fits many times over; a longer line is refused after this many bytes, never read whole.
MAX_LINE_BYTES = 1 << 20


def file_lines(stream: IO[bytes]) -> Iterator[bytes]:
    """The lines of an export as bytes, each read up to :data:`MAX_LINE_BYTES` + 1 bytes: memory per line
    stays bounded whatever the file holds (a longer line comes out cut, for :func:`parse_lines` to refuse)."""
    while True:
        line = stream.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        yield line
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            return  # the rest of that line is never read: the import stops at it


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _decoded(number: int, line: str | bytes) -> str:
    """One line as text: refused when longer than :data:`MAX_LINE_BYTES` or not UTF-8."""
    if len(line) > MAX_LINE_BYTES:
        raise InvalidCommand(f"line {number}: a line of an export is at most {MAX_LINE_BYTES:,} bytes; "
                             "nothing imported")
    if isinstance(line, str):
        return line
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidCommand(f"line {number}: not UTF-8 text (byte 0x{line[exc.start]:02x} at column {exc.start + 1}); "
                             "an export is UTF-8") from None


def _parsed(number: int, line: str) -> Any:
    """One line's JSON; refused when it is not JSON, holds NaN or Infinity, or nests too deep."""
    try:
        return json.loads(line, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise InvalidCommand(f"line {number}: not valid JSON ({exc.msg} at column {exc.colno})") from None
    except ValueError as exc:  # well-formed, but a value cannot be read (an integer of over 4300 digits)
        raise InvalidCommand(f"line {number}: not valid JSON ({exc})") from None
    except RecursionError:  # the parser recurses: nesting thousands deep exhausts the stack before a limit
        raise InvalidCommand(f"line {number}: data is nested at most {MAX_DEPTH} levels deep") from None


def _limits_problem(data: dict[str, Any]) -> str | None:
    """The first limit an event's envelope or payload breaks (:mod:`yarnlog.core.limits`), worded, or ``None``:
    an import carries nothing a command could not have recorded."""
    problem = campaign_id_problem(data["campaign_id"])
    if problem is not None:
        return f"field campaign_id: {problem}"
    for field, what in (("recorded_by", "a name"), ("event_type", "an event type"), ("visibility", "a visibility")):
        value = data[field].removeprefix("participant:") if field == "visibility" else data[field]
        problem = name_problem(value, what)
        if problem is not None:
            return f"field {field}: {problem}"
    problem = check_data(data["payload"], NAME_FIELDS, where="payload")
    return None if problem is None else f"field {problem}"


def parse_lines(lines: Iterable[str | bytes]) -> list[StoredEvent]:
    """Validate every line's shape; the first bad line raises, naming the line and field.

    A trailer, if there is one, is checked (:func:`read_export`); a file may lack it here.
    """
    return read_export(lines, require_trailer=False).records


def read_export(lines: Iterable[str | bytes], *, require_trailer: bool = True) -> Export:
    """Every line of an export checked: each event's shape, then the trailer against the events.

    Without ``require_trailer`` a file with no trailer is read (an export older than trailers, or
    lines made by a program); one that has a trailer is always held to it.
    """
    records: list[StoredEvent] = []
    numbers: list[int] = []
    payloads: list[Any] = []
    trailer: Trailer | None = None
    for number, raw in enumerate(lines, start=1):
        line = _decoded(number, raw)  # bytes (file_lines) are decoded here, line by line
        if not line.strip():
            continue
        if trailer is not None:
            raise InvalidCommand(f"line {number}: after the trailer, which must be the export's last line")
        data = _parsed(number, line)
        if type(data) is dict and data.keys() == {TRAILER}:
            trailer = _trailer(number, data[TRAILER])
            continue
        if not _plainly_valid(data):
            try:
                data = ExportedEvent.model_validate(data).model_dump()
            except ValidationError as exc:
                err = exc.errors()[0]
                where = ".".join(str(p) for p in err["loc"]) or "line"
                raise InvalidCommand(f"line {number}, field {where}: {err['msg']}") from None
        problem = _limits_problem(data)
        if problem is not None:
            raise InvalidCommand(f"line {number}, {problem}; nothing imported")
        records.append(from_line(data))
        numbers.append(number)
        payloads.append(data["payload"])
    if not records:
        raise InvalidCommand("the file holds no events")
    ids = {r.campaign_id for r in records}
    if len(ids) != 1:
        raise InvalidCommand(f"an export holds one campaign; this file mixes {', '.join(sorted(ids))}")
    _refuse_repeated_event_ids(records)
    if trailer is None:
        if require_trailer:
            raise InvalidCommand(f"the file ends at line {numbers[-1]} without its trailer: it was cut short, or "
                                 "written before exports had one (re-export it, or import it with --without-trailer)")
    else:
        _check_trailer(trailer, records)
    return Export(records, numbers, trailer, payloads)


_TRAILER_KEYS = frozenset({"campaign_id", "events", "head_hash", "merkle_root"})
_HEX = re.compile(r"[0-9a-f]{64}")


def _trailer(number: int, data: Any) -> Trailer:
    """The trailer on line ``number``, its shape checked."""
    if (type(data) is not dict or data.keys() != _TRAILER_KEYS or type(data["events"]) is not int
            or not all(type(data[k]) is str for k in ("campaign_id", "head_hash", "merkle_root"))
            or not _HEX.fullmatch(data["head_hash"]) or not _HEX.fullmatch(data["merkle_root"])):
        raise InvalidCommand(f"line {number}: not a valid trailer (campaign_id, events, head_hash, merkle_root)")
    return Trailer(**data)


def _check_trailer(trailer: Trailer, records: Sequence[StoredEvent]) -> None:
    """The trailer must count the events before it, end at their last hash and give their root."""
    if trailer.events != len(records):
        raise InvalidCommand(f"the trailer counts {trailer.events} events but the file holds {len(records)}: "
                             "events were cut or added; nothing imported")
    if trailer.campaign_id != records[0].campaign_id:
        raise InvalidCommand(f"the trailer is of campaign {trailer.campaign_id}, the events of "
                             f"{records[0].campaign_id}; nothing imported")
    if trailer.head_hash != records[-1].hash:
        raise InvalidCommand("the trailer's head hash is not the last event's: the file was changed; nothing imported")
    tree = TreeHasher()
    for record in records:
        tree.add(leaf_hash(record.hash))
    if tree.root().hex() != trailer.merkle_root:
        raise InvalidCommand("the trailer's Merkle root is not that of the events: the file was changed; "
                             "nothing imported")


def _refuse_repeated_event_ids(records: list[StoredEvent]) -> None:
    """An event id names one event: a file that gives one to two events is refused, naming both lines
    (counting events; blank lines are skipped)."""
    seen: dict[str, int] = {}
    for number, record in enumerate(records, start=1):
        first = seen.setdefault(record.event_id, number)
        if first != number:
            raise InvalidCommand(f"event {number}: event id {record.event_id} is already that of event {first}; "
                                 "each event has its own id: nothing imported")


def import_records(store: EventRecorder, records: list[StoredEvent], *,
                   line_numbers: Sequence[int] | None = None,
                   payloads: Sequence[Any] | None = None) -> tuple[int, int]:
    """Write the events the store lacks; return (already present, newly written).

    Importing an export of a campaign already in the store is a no-op when it is identical,
    appends only the newer events when it extends the stored journal, and is refused when
    the two journals diverge, or when an event of the file differs in any byte from the one
    stored (the file was changed, though not its hashes). The stored events are streamed, never
    held whole; the journal they make with the new ones is verified in one pass (chain,
    payloads, rules), then the new ones are written in one transaction (the store's batched
    insert). Messages name the file's line (``line_numbers``, one per record; by default the
    records' positions).
    ``payloads``, if given, are the records' payloads as parsed from their lines by :func:`read_export`,
    which held them to the limits: the check reads those instead of parsing and serializing each
    payload again, and does not hold them to the limits a second time.
    """
    def line(index: int) -> int:
        return line_numbers[index] if line_numbers is not None else index + 1

    campaign_id = records[0].campaign_id
    stored = store.last_sequence(campaign_id)
    for index, (mine, theirs) in enumerate(zip(store.iter_read(campaign_id, upto=stored), records)):
        if mine.hash != theirs.hash:
            raise InvalidCommand(
                f"line {line(index)}: the file diverges from the stored campaign {campaign_id!r} at event "
                f"{mine.sequence}: nothing imported"
            )
        if mine != theirs:
            raise InvalidCommand(
                f"line {line(index)}: event {theirs.sequence} differs from the stored one but keeps its hash: "
                "the file was changed after it was exported; nothing imported"
            )
    if len(records) < stored:
        return len(records), 0
    new = records[stored:]
    checked: Iterable[StoredEvent | Parsed] = new if payloads is None else (
        Parsed(record, payload, limits_checked=True) for record, payload in zip(new, payloads[stored:]))
    combined = chain(store.iter_read(campaign_id, upto=stored), checked)
    amendments = chain(store.iter_read(campaign_id, upto=stored, event_types=AMENDMENT_TYPES),
                       (r for r in new if r.event_type in AMENDMENT_TYPES))
    with remembered_hashes():  # the insert trigger checks each hash the check below has worked out
        report = verify(combined, campaign_id, amendments=amendments)
        if report.ok:
            store.append_verbatim(new, expected_sequence=stored)
    if not report.ok:
        first = report.faults[0]
        where = next((i for i, r in enumerate(records) if r.sequence == first.sequence), None)
        at = f"line {line(where)}: " if where is not None else ""
        raise InvalidCommand(
            f"{at}event {first.sequence} ({first.event_type}): {first.problem}; nothing imported"
        )
    return stored, len(new)
