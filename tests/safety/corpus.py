"""Hostile text: strings a player or GM might type (by mischief or by pasting) that must come out
as text, never as markup, script or terminal control, wherever yarnlog shows them.

``CORPUS`` goes into every free-text field of the hostile campaign (``hostile.py``); ``NAMES``
holds the ones that fit a name the command line takes in a list (``--cast A,B``,
``--face NAME:good=6``): no comma, colon or equals sign.
"""

from __future__ import annotations

from yarnlog.core.limits import name_problem

CORPUS: tuple[str, ...] = (
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "javascript:alert(1)",
    "[the chart](javascript:alert(1))",
    "![the lamp](javascript:alert(1))",
    '<a href="javascript:alert(1)">the pilot</a>',
    "<a href='&#106;avascript:alert(1)'>encoded</a> &lt;script&gt; &amp;amp; &#x3C;b&#x3E;",
    "<svg onload=alert(1)><script>alert(2)</script></svg>",
    '<svg><a xlink:href="javascript:alert(1)"><text x="9" y="9">fog</text></a></svg>',
    "<iframe src=\"javascript:alert(1)\"></iframe><style>body{display:none}</style>",
    "' onmouseover='alert(1)' x='",
    "<!-- open comment <![CDATA[ ]]> </textarea></title>",
    "{{ 7*7 }} {{ config }}",
    "{% raw %}{{ lipsum }}{% endraw %} {# note #}",
    "[bold red]loud[/] [/bold]",
    "[link=https://evil.example]click[/link]",
    "\x1b[31mred\x1b[0m \x1b[2J\x1b[H",
    "\x1b]8;;https://evil.example\x1b\\harbour\x1b]8;;\x1b\\",
    "over\rwritten",
    "bell\x07ring \x08back",
    "\u202egnirts desrever\u202c \u2067isolate\u2069",
    "nul\x00 soh\x01 del\x7f csi\x9b31m nel\x85",
    "*emphasis* __strong__ `code` <b>bold</b> <u>u</u>",
    "line one\nline two\ttabbed",
)

#: Corpus strings usable as a name in a comma-separated list or a NAME=VALUE option: no control or
#: text-direction character either, which a name may not hold (yarnlog.core.limits).
NAMES: tuple[str, ...] = tuple(s for s in CORPUS if not set(s) & set(",:=\n\x00") and s == s.strip()
                               and name_problem(s) is None)

#: Characters that must never reach a terminal raw: C0 controls but tab and newline, DEL, C1,
#: the bidirectional controls and the line and paragraph separators.
TERMINAL_UNSAFE = frozenset(
    [chr(c) for c in range(0x20) if c not in (0x09, 0x0A)] + [chr(c) for c in range(0x7F, 0xA0)]
    + ["\u061c", "\u200e", "\u200f", "\u2028", "\u2029"] + [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2066, 0x206A)]
)
