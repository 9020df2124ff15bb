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


# -- a correction in words ------------------------------------------------------------------------

#: How long a value may run in a change's words before it is cut (a line must fit 80 columns).
VALUE_WIDTH = 28


def whose(event_type: str, payload: dict[str, Any]) -> str:
    """``Ana's roll``: the first name an event's payload carries (a field of
    :data:`~yarnlog.core.names.NAME_FIELDS`) and the noun of its type (``yarn.roll.made``: roll), or
    ``the note`` when it names nobody."""
    from yarnlog.core.names import NAME_FIELDS

    parts = event_type.split(".")
    noun = (parts[-2] if len(parts) >= 3 else parts[0]).replace("_", " ")
    for key, value in payload.items():
        if key in NAME_FIELDS and isinstance(value, str) and value:
            return f"{value}'s {noun}"
    return f"the {noun}"


def value_words(value: Any) -> str:
    """A recorded value as a person reads it: ``5,4,3`` for faces, yes/no, ``nothing`` for none, a
    long value cut with an ellipsis."""
    if value is None or value == "" or value == [] or value == {}:
        text = "nothing"
    elif isinstance(value, bool):
        text = "yes" if value else "no"
    elif isinstance(value, list) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        text = ",".join(str(v) for v in value)
    elif isinstance(value, list):
        text = ", ".join(value_words(v) for v in value)
    elif isinstance(value, dict):
        text = ", ".join(f"{k.replace('_', ' ')} {value_words(v)}" for k, v in value.items())
    else:
        text = str(value)
    if len(text) > VALUE_WIDTH:
        text = text[:VALUE_WIDTH - 1] + "\u2026"
    return f"\u201c{text}\u201d" if isinstance(value, str) and " " in value else text


def changed(before: Any, after: Any, path: str = "") -> dict[str, tuple[Any, Any]]:
    """The leaves that differ between two payloads (nested objects, and lists of objects of the same
    length, walked), by dotted path (``transfers.0.amount``)."""
    found: dict[str, tuple[Any, Any]] = {}
    if isinstance(before, dict) and isinstance(after, dict):
        for key in [*before, *(k for k in after if k not in before)]:
            found.update(changed(before.get(key), after.get(key), f"{path}.{key}" if path else key))
        return found
    if (isinstance(before, list) and isinstance(after, list) and len(before) == len(after)
            and any(isinstance(item, dict) for item in before)):
        for index, (old, new) in enumerate(zip(before, after)):
            found.update(changed(old, new, f"{path}.{index}"))
        return found
    return {} if before == after else {path: (before, after)}


def _field_name(path: str, paths: list[str]) -> str:
    """A changed field by its own name (``amount``), or by its path where two changed fields share it
    (``dice faces``); list positions are left out."""
    steps = [step for step in path.split(".") if not step.isdigit()]
    leaf = steps[-1]
    shared = sum(1 for other in paths if [s for s in other.split(".") if not s.isdigit()][-1] == leaf) > 1
    return " ".join(steps if shared else [leaf]).replace("_", " ")


def change_words(event_type: str, before: dict[str, Any], after: dict[str, Any],
                 only: tuple[str, ...] | None = None) -> str:
    """``Ana's roll: faces 5,4,3 → 6,6,1``: what a correction changes, field by field in words (a
    field by its own name, or its whole path where two share it); ``only`` keeps the fields under
    those dotted paths (what was typed), the rest being what the rules worked out from them."""
    diff = changed(before, after)
    if only is not None:
        diff = {path: pair for path, pair in diff.items()
                if any(path == key or path.startswith(key + ".") for key in only)}
    if not diff:
        return f"{whose(event_type, before)}: nothing changes"
    said = [f"{_field_name(path, list(diff))} {value_words(old)} \u2192 {value_words(new)}"
            for path, (old, new) in diff.items()]
    return f"{whose(event_type, before)}: {', '.join(said)}"
