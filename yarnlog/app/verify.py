"""Integrity checking: the hash chain, the payload schemas, and the rules, event by event."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from yarnlog.core.chain import GENESIS, canonical, stored_event_hash
from yarnlog.core.corrections import Amendments, Correction, Retraction
from yarnlog.core.decide import Fault, audit_stream
from yarnlog.core.envelope import HASHED_FIELDS, StoredEvent, parsed_payload, stored_payload, to_recorded
from yarnlog.core.events import Payload, Recorded
from yarnlog.core.limits import check_data
from yarnlog.core.names import NAME_FIELDS
from yarnlog.core.referee import YarnlogError
from yarnlog.core.ruleset import Ruleset, get_ruleset
from yarnlog.core.state import CORE_EVENT_TYPES, stream_payloads_in_context
from yarnlog.core.table import CampaignCreated
from yarnlog.persistence.protocol import EventRecorder


@dataclass
class Report:
    """What ``verify`` found: ``ok`` only if there is no fault at all."""

    campaign_id: str
    events: int = 0
    head: str = GENESIS
    faults: list[Fault] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.faults

    def to_data(self) -> dict:
        return {
            "campaign_id": self.campaign_id,
            "ok": self.ok,
            "events": self.events,
            "head": self.head,
            "faults": [f.__dict__ for f in self.faults],
        }


#: The event types that amend earlier events: a streaming check gathers them before the rest.
AMENDMENT_TYPES = frozenset({Correction.event_type, Retraction.event_type})


class Parsed(NamedTuple):
    """A stored event made from parsed data (an import's line), and that data: its payload text is
    ``canonical(payload)`` by construction, so the check neither parses it again nor compares its form.

    ``limits_checked``: the payload's data was already held to the limits (an import's lines are,
    by :func:`~yarnlog.app.interchange.read_export`), so the check does not walk it again.
    """

    record: StoredEvent
    payload: Any
    limits_checked: bool = False


#: What :meth:`_ChainCheck.check` returns for a payload that is not JSON.
_UNREADABLE = object()
#: A record given without its parsed payload (any JSON value, ``null`` included, may be one).
_NOT_PARSED = object()


class _ChainCheck:
    """The stored bytes of one event after another: sequence, canonical form, prev_hash, hash."""

    def __init__(self, campaign_id: str) -> None:
        self.campaign_id = campaign_id
        self.expected = 1
        self.prev = GENESIS
        self.faults: list[Fault] = []

    def check(self, record: StoredEvent, parsed: Any = _NOT_PARSED) -> Any:
        """Note the faults of the next event; its payload parsed (``_UNREADABLE`` if it is not JSON).

        ``parsed`` is the data the record's payload text was made from (:class:`Parsed`), if any.
        Each payload is serialized once: its canonical text is both compared with the stored
        text and spliced into the hashed body (:func:`~yarnlog.core.chain.stored_event_hash`).
        """
        def fault(problem: str) -> None:
            self.faults.append(Fault(record.sequence, record.event_type, problem))

        expected, self.expected = self.expected, self.expected + 1
        if record.campaign_id != self.campaign_id:
            fault(f"belongs to campaign {record.campaign_id!r}, not {self.campaign_id!r}")
        if record.sequence != expected:
            fault(f"sequence gap: expected event {expected}, found {record.sequence}")
        if parsed is not _NOT_PARSED:
            data, text = parsed, record.payload
        else:
            try:
                data = json.loads(record.payload)
            except ValueError as exc:
                fault(f"payload is not valid JSON ({exc})")
                self.prev = record.hash
                return _UNREADABLE
            text = canonical(data)
            if text != record.payload:
                fault("payload bytes are not in canonical form: the stored text was edited")
        if record.prev_hash != self.prev:
            fault(f"prev_hash {record.prev_hash[:12]}… does not match the hash of the event before ({self.prev[:12]}…)")
        computed = stored_event_hash(record.header(), text, record.prev_hash)
        if computed != record.hash:
            fault(f"hash mismatch: stored {record.hash[:12]}…, computed {computed[:12]}…: "
                  "the event was changed after it was recorded")
        self.prev = record.hash
        return data


class _TypeCheck:
    """The payload of one event after another: schema, upcasting, and the campaign's event types."""

    def __init__(self) -> None:
        self.index = 0
        self.ruleset: Ruleset | None = None
        self.faults: list[Fault] = []

    def check(self, record: StoredEvent, data: Any = _UNREADABLE) -> Recorded | None:
        """The typed event (None if its payload does not load), noting its faults."""
        payload = self.payload(record, data)
        if payload is None:
            return None
        return Recorded(**{name: getattr(record, name) for name in HASHED_FIELDS}, payload=payload)

    def payload(self, record: StoredEvent, data: Any = _UNREADABLE) -> Payload | None:
        """The typed payload (None if it does not load), noting its faults: the event itself is built
        once, in its context (:func:`~yarnlog.core.state.stream_payloads_in_context`).

        ``data`` is the payload already parsed, when the caller has parsed it: it is not parsed twice.
        """
        index, self.index = self.index, self.index + 1
        try:
            payload = stored_payload(record) if data is _UNREADABLE else parsed_payload(record, data)
        except YarnlogError as exc:
            self.faults.append(Fault(record.sequence, record.event_type, str(exc)))
            return None
        if index == 0:
            # (a campaign.created event always loads as a CampaignCreated payload)
            if record.event_type != "campaign.created" or not isinstance(payload, CampaignCreated):
                self.faults.append(Fault(record.sequence, record.event_type,
                                         "the first event must be campaign.created"))
            else:
                if payload.campaign_id != record.campaign_id:
                    self.faults.append(Fault(record.sequence, record.event_type,
                                             f"creates campaign {payload.campaign_id!r} but is filed under "
                                             f"{record.campaign_id!r}"))
                try:
                    self.ruleset = get_ruleset(payload.ruleset)
                except YarnlogError as exc:
                    self.faults.append(Fault(1, record.event_type, str(exc)))
        elif record.event_type == "campaign.created":
            self.faults.append(Fault(record.sequence, record.event_type, "a campaign is created only once"))
        ruleset = self.ruleset
        if not (record.event_type in CORE_EVENT_TYPES or (ruleset is not None and ruleset.owns(record.event_type))):
            self.faults.append(Fault(record.sequence, record.event_type,
                                     f"not an event type of the {ruleset.name if ruleset else 'unknown'} ruleset"))
        return payload


def check_chain(records: Iterable[StoredEvent], campaign_id: str) -> list[Fault]:
    """Faults in the stored bytes: sequence, canonical form, prev_hash and hash of each event."""
    chain = _ChainCheck(campaign_id)
    for record in records:
        chain.check(record)
    return chain.faults


def check_types(records: Iterable[StoredEvent]) -> tuple[list[Recorded], list[Fault]]:
    """Typed events, and faults for payloads that do not validate or do not belong here."""
    types = _TypeCheck()
    events = [rec for rec in map(types.check, records) if rec is not None]
    return events, types.faults


def verify(records: Iterable[StoredEvent | Parsed], campaign_id: str, *,
           amendments: Iterable[StoredEvent] | None = None) -> Report:
    """Check a campaign's stored events: chain first, then schemas, then the rules.

    One pass, which keeps no event once it is checked: each payload is parsed once, for the
    chain, and validated from that parse; the typed event goes on in context to the rules
    audit. The audit needs the corrections and retractions before the events they amend:
    ``amendments`` are the stored events of :data:`AMENDMENT_TYPES` among ``records`` (those
    that load are used; one that does not is a payload fault, and then the rules are not
    audited at all). Without it, ``records`` is read twice, so it must then be a sequence.
    A record may come :class:`Parsed` (an import's new events), its payload's parse reused.
    The faults are those of the chain, then of the payloads, then of the rules, by sequence.
    """
    if amendments is None:
        records = records if isinstance(records, Sequence) else list(records)
        amendments = [r for r in map(_record_of, records) if r.event_type in AMENDMENT_TYPES]
    gathered = Amendments()
    for record in amendments:
        try:
            gathered.add(to_recorded(record))
        except YarnlogError:
            pass  # a payload fault, reported where the event is checked below
    report = Report(campaign_id=campaign_id)
    chain, types = _ChainCheck(campaign_id), _TypeCheck()

    # The limit each payload's stored data breaks, by sequence, checked on the data the chain check
    # parsed (not the typed payload dumped again) and handed to the audit, which takes it out.
    limits: dict[int, str | None] = {}

    def typed() -> Iterator[tuple[Payload, StoredEvent]]:
        """Every record checked; the typed payloads passed on while no payload has failed to check."""
        for item in records:
            if isinstance(item, Parsed):
                record, parsed, checked = item
            else:
                record, parsed, checked = item, _NOT_PARSED, False
            report.events += 1
            report.head = record.hash
            data = chain.check(record, parsed)
            payload = types.payload(record, data)
            if payload is not None and not types.faults:
                # An older schema's data is upcast: its fields are not the payload's, so the typed one is checked.
                if data is not _UNREADABLE and record.schema_version == type(payload).schema_version:
                    limits[record.sequence] = None if checked else check_data(data, NAME_FIELDS)
                yield payload, record

    events = typed()
    failure: Exception | None = None
    try:
        rule_faults = audit_stream((rec for rec, _ in stream_payloads_in_context(events)), gathered, limits=limits)
    except Exception as exc:  # noqa: BLE001 - raised below, as the whole-history audit raised it, if it is run
        failure, rule_faults = exc, []
    deque(events, maxlen=0)  # the rest (if the audit stopped early) is still checked
    if not report.events:
        report.faults.append(Fault(0, "-", f"no campaign {campaign_id!r} in this journal"))
        return report
    report.faults.extend(chain.faults)
    report.faults.extend(types.faults)
    if not types.faults:
        if failure is not None:
            raise failure
        report.faults.extend(rule_faults)
    report.faults.sort(key=lambda f: f.sequence)
    return report


def _record_of(item: StoredEvent | Parsed) -> StoredEvent:
    return item.record if isinstance(item, Parsed) else item


def verify_stored(store: EventRecorder, campaign_id: str, *, batch: int = 1000) -> Report:
    """:func:`verify` of a campaign as stored, streamed from the store: memory stays flat in its length.

    Two reads of the same events (the journal is append-only, so both stop at the event that
    was last when the check began): the amendments first, by their type, then everything.
    """
    last = store.last_sequence(campaign_id)
    return verify(store.iter_read(campaign_id, upto=last, batch=batch), campaign_id,
                  amendments=store.iter_read(campaign_id, upto=last, batch=batch, event_types=AMENDMENT_TYPES))
