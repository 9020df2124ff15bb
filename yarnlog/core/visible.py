"""Control characters shown, never obeyed: the visible stand-in every output puts in their place.

A terminal acts on an escape, a carriage return or a bell rather than showing it; a Markdown file
would carry it raw to whatever prints it. Wherever user text is written for a person, each such
character is replaced by its Unicode control picture (ESC as U+241B), so it reads as what was typed.
"""

from __future__ import annotations

import re


def picture(char: str) -> str:
    """The visible stand-in of one control character: its control picture (ESC U+241B, CR U+240D,
    DEL U+2421), or the replacement character for those without one (C1, text-direction marks)."""
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)
    if code == 0x7F:
        return "\u2421"
    return "\ufffd"


def pictured(pattern: re.Pattern[str], text: str) -> str:
    """``text`` with every character ``pattern`` matches shown as its :func:`picture`."""
    return pattern.sub(lambda match: picture(match.group()), text)
