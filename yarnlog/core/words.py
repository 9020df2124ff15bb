"""The journal's own events in plain words: one sentence each, for the answer a write prints.

A ruleset says its own events (``Words.narrate``); these are the events every campaign has.
"""

from __future__ import annotations

from typing import Any

from yarnlog.core.events import Recorded


def _then(text: str | None, lead: str = ": ") -> str:
    return f"{lead}{text}" if text else ""


def core_sentence(recorded: Recorded) -> str | None:
    """``recorded`` in one sentence, or ``None`` for an event type the journal does not say."""
    sentence = _sentence(recorded)
    # User text that ends a sentence already ("the vault is open.") gets no second full stop.
    if sentence is not None and sentence.endswith(".") and sentence[:-1].endswith((".", "!", "?", "\u2026")):
        return sentence[:-1]
    return sentence


def _sentence(recorded: Recorded) -> str | None:
    p: dict[str, Any] = recorded.payload.model_dump(mode="json")
    kind, by = recorded.event_type, recorded.recorded_by
    if kind == "note":
        where = f" (filed under scene {p['scene']})" if p.get("scene") else ""
        return f"Note by {by}{where}: {p['text']}"
    if kind == "scene.opened":
        title = f" \u201c{p['title']}\u201d" if p.get("title") else ""
        cast = f" with {', '.join(p['cast'])}" if p.get("cast") else ""
        return f"Scene {p['number']}{title} called by {p['caller']}{cast}{_then(p.get('setting'), ', set in ')}."
    if kind == "scene.closed":
        return f"Scene {p['number']} closed{_then(p.get('summary'))}."
    if kind == "episode.started":
        title = f" \u201c{p['title']}\u201d" if p.get("title") else ""
        return f"Episode {p['number']}{title} started{_then(p.get('theme'), '; theme: ')}."
    if kind == "episode.ended":
        return f"Episode {p['number']} ended."
    if kind == "participant.joined":
        return f"{p['name']} joined the table as {'a GM' if p['role'] == 'gm' else 'a player'}."
    if kind == "participant.left":
        return f"{p['name']} left the table{_then(p.get('reason'))}."
    if kind == "invite.issued":  # the secret is not in the event: only its hash
        return f"{p['by']} gave {p['name']} a link to the players' page."
    if kind == "invite.revoked":
        return f"{p['by']} revoked {p['name']}'s link to the players' page."
    if kind == "correction":
        return f"Event {p['corrects']} corrected (approved by {p['approved_by']}): {p['reason']}."
    if kind == "retraction":
        return f"Event {p['retracts']} retracted (approved by {p['approved_by']}): {p['reason']}."
    if kind == "override.recorded":
        return f"Override recorded by {p['by']}: {p['reason']}."
    if kind == "campaign.options_changed":
        switched = ", ".join(f"{name.replace('_', ' ')} {'on' if on else 'off'}" for name, on in p["options"].items())
        return f"{p['by']} rules the optional rules from now on: {switched}{_then(p.get('reason'), '. Reason: ')}."
    if kind == "campaign.created":
        chosen = ", ".join(f"{name.replace('_', ' ')} {value}" for name, value in (p.get("settings") or {}).items())
        return (f"Campaign {p['campaign_id']} \u201c{p['title']}\u201d created ({p['ruleset']}), GM {p['gm']}"
                f"{_then(chosen, '; settings: ')}.")
    return None
