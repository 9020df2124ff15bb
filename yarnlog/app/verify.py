"""Integrity checking: the hash chain, the payload schemas, and the rules, event by event."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from yarnlog.core.chain import GENESIS, canonical, event_hash
from yarnlog.core.decide import Fault, audit
from yarnlog.core.envelope import StoredEvent, to_recorded
from yarnlog.core.events import Recorded
from yarnlog.core.referee import YarnlogError
from yarnlog.core.ruleset import get_ruleset
from yarnlog.core.state import CORE_EVENT_TYPES, with_context
from yarnlog.core.table import CampaignCreated


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


def check_chain(records: Sequence[StoredEvent], campaign_id: str) -> list[Fault]:
    """Faults in the stored bytes: sequence, canonical form, prev_hash and hash of each event."""
    faults: list[Fault] = []
    prev = GENESIS
    for expected, record in enumerate(records, start=1):
        def fault(problem: str) -> None:
            faults.append(Fault(record.sequence, record.event_type, problem))

        if record.campaign_id != campaign_id:
            fault(f"belongs to campaign {record.campaign_id!r}, not {campaign_id!r}")
        if record.sequence != expected:
            fault(f"sequence gap: expected event {expected}, found {record.sequence}")
        try:
            data = json.loads(record.payload)
        except ValueError as exc:
            fault(f"payload is not valid JSON ({exc})")
            prev = record.hash
            continue
        if canonical(data) != record.payload:
            fault("payload bytes are not in canonical form: the stored text was edited")
        if record.prev_hash != prev:
            fault(f"prev_hash {record.prev_hash[:12]}… does not match the hash of the event before ({prev[:12]}…)")
        computed = event_hash(record.header(), data, record.prev_hash)
        if computed != record.hash:
            fault(f"hash mismatch: stored {record.hash[:12]}…, computed {computed[:12]}…: "
                  "the event was changed after it was recorded")
        prev = record.hash
    return faults


def check_types(records: Sequence[StoredEvent]) -> tuple[list[Recorded], list[Fault]]:
    """Typed events, and faults for payloads that do not validate or do not belong here."""
    faults: list[Fault] = []
    events: list[Recorded] = []
    ruleset = None
    for index, record in enumerate(records):
        try:
            rec = to_recorded(record)
        except YarnlogError as exc:
            faults.append(Fault(record.sequence, record.event_type, str(exc)))
            continue
        if index == 0:
            # (a campaign.created event always loads as a CampaignCreated payload)
            if record.event_type != "campaign.created" or not isinstance(rec.payload, CampaignCreated):
                faults.append(Fault(record.sequence, record.event_type, "the first event must be campaign.created"))
            else:
                try:
                    ruleset = get_ruleset(rec.payload.ruleset)
                except YarnlogError as exc:
                    faults.append(Fault(1, record.event_type, str(exc)))
        elif record.event_type == "campaign.created":
            faults.append(Fault(record.sequence, record.event_type, "a campaign is created only once"))
        allowed = record.event_type in CORE_EVENT_TYPES or (ruleset is not None and ruleset.owns(record.event_type))
        if not allowed:
            faults.append(Fault(record.sequence, record.event_type,
                                f"not an event type of the {ruleset.name if ruleset else 'unknown'} ruleset"))
        events.append(rec)
    return events, faults


def verify(records: Sequence[StoredEvent], campaign_id: str) -> Report:
    """Check a campaign's stored events: chain first, then schemas, then the rules."""
    report = Report(campaign_id=campaign_id, events=len(records), head=records[-1].hash if records else GENESIS)
    if not records:
        report.faults.append(Fault(0, "-", f"no campaign {campaign_id!r} in this journal"))
        return report
    report.faults.extend(check_chain(records, campaign_id))
    events, type_faults = check_types(records)
    report.faults.extend(type_faults)
    if not type_faults:
        report.faults.extend(audit(with_context(events)))
    report.faults.sort(key=lambda f: f.sequence)
    return report
