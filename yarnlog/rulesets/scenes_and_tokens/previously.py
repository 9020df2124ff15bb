"""A "previously on" for the next session: a few sentences to read aloud, from a recap's stories.

Each scene gives one line: how it ended (its summary), else the GM's last note of it, else the
last thing its story tells (the petition's answer, the force, the cards). The most recent scenes are kept, within
:data:`WORDS` words, so it reads aloud in about a minute.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from yarnlog.rulesets.scenes_and_tokens.story import SENTENCE_ENDS

#: About a minute read aloud.
WORDS = 150


def previously(title: str, scenes: Iterable[tuple[str, str, Sequence[str]]]) -> str:
    """``scenes``: each scene's summary (or ``""``), the GM's last note of it (or ``""``) and its
    story's sentences, in order."""
    said = []
    for summary, note, story in scenes:
        line = summary.strip() or note.strip() or (story[-1] if len(story) > 1 else "")
        if line:
            said.append(line if line.endswith(SENTENCE_ENDS) else line + ".")
    kept: list[str] = []
    count = 0
    for line in reversed(said):
        words = len(line.split())
        if kept and count + words > WORDS:
            break
        kept.insert(0, line)
        count += words
    return f"Previously, on {title}: " + " ".join(kept) if kept else f"Previously, on {title}: nothing yet."
