"""What an amendment shows before it asks (``correct``, ``retract``, the console's ``undo``): the event
in its own sentence, the ruleset's narration of it (the words the log and the recap use, through
``Words.narrate``), and for a correction the change in words and the event as it would then read;
every line within 80 columns.
"""

from __future__ import annotations

import textwrap
from typing import Any

from yarnlog.cli.output import WIDTH, event_words, terminal_text

INDENT = "  "


def said_of(recorded, state) -> str:
    """``recorded`` in its own sentence; an event its ruleset tells in no sentence of its own (a plain
    scene call, said by the scene's opening) is named by whose it is and its type."""
    from yarnlog.core.words import whose

    text = event_words(recorded, state)
    if text:
        return text
    return f"{whose(recorded.event_type, recorded.payload.to_data())} ({recorded.event_type})"


def corrected(recorded, replacement: dict[str, Any]):
    """``recorded`` as it reads once corrected with ``replacement`` (its whole new payload)."""
    from yarnlog.core.events import load_payload

    payload = load_payload(recorded.event_type, type(recorded.payload).schema_version, replacement)
    return recorded.model_copy(update={"payload": payload})


def amendment_words(recorded, state, replacement: dict[str, Any] | None = None,
                    typed: tuple[str, ...] | None = None, entry: tuple = ()) -> dict[str, Any]:
    """The event an amendment names, in words, as plain data (``--json`` carries it): ``sequence``,
    ``said`` (its sentence); for a correction, ``change`` (the fields ``typed``, in words) and ``now``
    (its sentence once corrected); for a retraction, ``with``: the other events of its ``entry``,
    retracted with it (a GM's override and the move it let through), each with its sentence."""
    from yarnlog.core.words import change_words

    words: dict[str, Any] = {"sequence": recorded.sequence, "said": said_of(recorded, state)}
    others = [r for r in entry if r.sequence != recorded.sequence]
    if others:
        words["with"] = [{"sequence": r.sequence, "said": said_of(r, state)} for r in others]
    if replacement is not None:
        words["change"] = change_words(recorded.event_type, recorded.payload.to_data(), replacement, typed)
        words["now"] = said_of(corrected(recorded, replacement), state)
    return words


def _block(text: str) -> str:
    return textwrap.fill(terminal_text(text), width=WIDTH, initial_indent=INDENT, subsequent_indent=INDENT,
                         break_on_hyphens=False)


def asking_lines(recorded, words: dict[str, Any], retracting: bool) -> list[str]:
    """The lines shown before the question: where and by whom the event was recorded, its sentence,
    then what the retraction does or what the correction changes and how the event would read."""
    where = "".join(f", {name} {n}" for name, n in (("episode", recorded.episode), ("scene", recorded.scene)) if n)
    lines = [f"Event {recorded.sequence}{where}, recorded by {terminal_text(recorded.recorded_by)}:",
             _block(words["said"])]
    if words.get("with"):
        lines.append("Recorded with it in one entry:")
        lines += [_block(f"{other['sequence']}: {other['said']}") for other in words["with"]]
    if retracting:
        lines.append(f"Retracted, every projection leaves {'them' if words.get('with') else 'it'} out; "
                     "the log keeps it all.")
    else:
        lines += ["The correction:", _block(words["change"] + "."), "Corrected, it reads:", _block(words["now"])]
    return lines
