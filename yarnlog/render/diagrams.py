"""Pictures of a campaign: the relationship map and the drama tokens of an episode, as Mermaid
(for Markdown) and as inline SVG (for HTML: no script, no style sheet, no external reference).

Pure functions over the plain data a ruleset's read models build (:mod:`yarnlog.core.charts`:
``RelationshipGraph``, ``TokenSeries``). Every name and label is
user text, so it is data: in Mermaid each character outside a small safe set becomes an entity
code (``#60;``) inside a quoted label, in SVG it is XML-escaped; node and marker ids are made
here, never from names. Layouts are computed, not random, and numbers are printed with a fixed
precision, so the same data always gives the same bytes.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from yarnlog.core.charts import RECURRING, CharacterNode, RelationshipGraph, TokenSeries, WantEdge

SVG_NS = "http://www.w3.org/2000/svg"

#: Colours of the token lines, in order (Okabe & Ito's palette, told apart with colour blindness);
#: past the eighth line they repeat with a dash pattern.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999999")
DASHES = ("", "6 3", "2 3", "8 3 2 3")

RELATIONSHIP_COLOUR = "#555555"
WANT_COLOUR = "#2E6DA4"
FRAUGHT_COLOUR = "#C0392B"

#: Label lengths beyond which a drawn label is cut short with an ellipsis (the whole text stays in
#: the SVG element's <title>, and Mermaid wraps what it is given).
SVG_LABEL = 30
MERMAID_LABEL = 60

_MERMAID_ENCODED = frozenset('"#<>&`$')
_MARKDOWN_SAFE = frozenset(" .,'()-:")


# -- text -------------------------------------------------------------------------------------


#: Bidirectional embeddings, overrides and isolates: they would reorder the text drawn after them.
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _dropped(ch: str) -> bool:
    # Control characters (NUL and the like, which XML forbids), lone surrogates, unassigned code
    # points (U+FFFE, U+FFFF) and bidi controls go; other format characters stay, because joiners
    # (ZWJ, ZWNJ) are part of how some scripts and emoji are written.
    return unicodedata.category(ch) in ("Cc", "Cs", "Cn") or ch in _BIDI_CONTROLS


def plain(text: str) -> str:
    """``text`` on one line: runs of whitespace (newlines, tabs, Unicode separators) become one space,
    and control characters, bidi controls, lone surrogates and unassigned code points are dropped."""
    kept = "".join(" " if ch.isspace() else ch for ch in text if ch.isspace() or not _dropped(ch))
    return " ".join(kept.split())


def shortened(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"


def mermaid_text(text: str) -> str:
    """User text as the inside of a quoted Mermaid label (``"..."``), on one line.

    Inside quotes Mermaid's lexer reads everything up to the next ``"`` as text, so brackets,
    pipes, ``%%`` and ``;`` are harmless there. What is not becomes Mermaid's entity code
    ``#<code point>;``: ``"`` (it would end the label), ``#`` (``#name;`` is itself an entity code),
    ``<``, ``>`` and ``&`` (labels are HTML), a backtick (a Markdown string) and ``$`` (KaTeX math).
    Only these, because Mermaid 11 (11.17 checked) draws entity codes in flowchart labels as
    placeholders rather than characters: the fewer, the more readable the names.
    """
    return "".join(f"#{ord(ch)};" if ch in _MERMAID_ENCODED else ch for ch in plain(text))


def markdown_text(text: str) -> str:
    """User text for a Markdown table cell: anything but letters, digits and spaces becomes a numeric
    HTML character reference, which Markdown prints as the character and never reads as markup."""
    return "".join(ch if ch.isalnum() or ch in _MARKDOWN_SAFE else f"&#{ord(ch)};" for ch in plain(text))


def xml_text(text: str) -> str:
    """User text for SVG character data (XML-escaped, on one line)."""
    return escape(plain(text))


def _n(x: float) -> str:
    """A coordinate, printed the same way every time."""
    return f"{round(x, 1):.1f}"


# -- the relationship map ----------------------------------------------------------------------


def _node_label(node: CharacterNode) -> str:
    return f"{node.name} ({node.player})" if node.player else f"{node.name} (recurring)"


def _want_label(want: WantEdge) -> str:
    return f"{'fraught' if want.fraught else 'wants'}: {want.want}"


def relationship_map_mermaid(graph: RelationshipGraph) -> str:
    """The relationship map as the body of a Mermaid block (``flowchart LR``, without the fences).

    Characters are boxes (recurring characters dashed) named ``n0``, ``n1``... in the graph's
    order; relationships are solid arrows from the character who defined them, labelled with their
    nature; wants are dotted arrows from the one who wants to the withholder, fraught wants thick
    and red, each labelled ``wants: ...`` or ``fraught: ...``.
    """
    ids = {node.name: f"n{i}" for i, node in enumerate(graph.nodes)}
    lines = ["flowchart LR", "    accTitle: Relationship map",
             "    accDescr: Characters, their relationships and their wants; fraught wants in thick red arrows"]
    lines += [f'    {ids[node.name]}["{mermaid_text(_node_label(node))}"]' for node in graph.nodes]
    links = 0
    fraught: list[int] = []
    for rel in graph.relationships:
        if rel.source in ids and rel.target in ids:
            label = mermaid_text(shortened(plain(rel.nature), MERMAID_LABEL))
            lines.append(f'    {ids[rel.source]} -->|"{label}"| {ids[rel.target]}')
            links += 1
    for want in graph.wants:
        if want.source in ids and want.target in ids:
            label = mermaid_text(shortened(plain(_want_label(want)), MERMAID_LABEL))
            arrow = "==>" if want.fraught else "-.->"
            lines.append(f'    {ids[want.source]} {arrow}|"{label}"| {ids[want.target]}')
            if want.fraught:
                fraught.append(links)
            links += 1
    recurring = [ids[node.name] for node in graph.nodes if node.kind == RECURRING]
    if recurring:
        lines.append("    classDef recurring stroke-dasharray: 5 3")
        lines.append(f"    class {','.join(recurring)} recurring")
    if fraught:
        lines.append(f"    linkStyle {','.join(map(str, fraught))} stroke:{FRAUGHT_COLOUR},color:{FRAUGHT_COLOUR}")
    return "\n".join(lines) + "\n"


#: Names longer than this are cut short in their box (the whole name is in the box's <title>).
SVG_NAME = 32


def _box_lines(node: CharacterNode) -> tuple[str, str]:
    return shortened(plain(node.name), SVG_NAME), shortened(plain(node.player or "recurring"), SVG_NAME)


def _box_width(node: CharacterNode) -> float:
    # No font metrics without a browser: about 7.5 px a character of bold 13 px, never narrower than 96.
    return max(96.0, 7.5 * max(len(line) for line in _box_lines(node)) + 20)


_BOX_HEIGHT = 40.0


def _to_edge(cx: float, cy: float, half_w: float, half_h: float, tx: float, ty: float) -> tuple[float, float]:
    """Where the line from a box's centre towards (tx, ty) leaves the box."""
    dx, dy = tx - cx, ty - cy
    if dx == 0 and dy == 0:
        return cx, cy
    scale = min(half_w / abs(dx) if dx else math.inf, half_h / abs(dy) if dy else math.inf)
    return cx + dx * scale, cy + dy * scale


def relationship_map_svg(graph: RelationshipGraph, *, id_prefix: str = "relmap") -> str:
    """The relationship map as an inline ``<svg>`` element.

    Characters sit on a circle in the graph's order, starting at the top; relationships are solid
    grey arrows labelled at their middle; wants curve away from the straight line (so A's want of
    B and B's want of A do not overlap), blue and dotted, fraught ones red, dashed and thicker; a
    legend says which is which. Each arrow's full text is in its ``<title>``. ``id_prefix`` names
    the arrowhead markers (give each map on one page its own).
    """
    if not re.fullmatch(r"[A-Za-z][\w-]*", id_prefix):
        raise ValueError(f"an SVG id prefix is a letter then letters, digits, _ or -, not {id_prefix!r}")
    count = len(graph.nodes)
    radius = max(160.0, 44.0 * count)
    # Room on either side for the widest box, and for the labels of the arrows between side boxes.
    margin = max([150.0, *(_box_width(node) / 2 + 20 for node in graph.nodes)])
    cx, cy = radius + margin, radius + 70.0
    width, plot_height = 2 * cx, 2 * cy
    height = plot_height + 90.0
    places: dict[str, tuple[float, float, float]] = {}  # name -> centre x, centre y, box width
    for i, node in enumerate(graph.nodes):
        angle = -math.pi / 2 + 2 * math.pi * i / max(count, 1)
        places[node.name] = (cx + radius * math.cos(angle), cy + radius * math.sin(angle), _box_width(node))
    markers = {"rel": RELATIONSHIP_COLOUR, "want": WANT_COLOUR, "fraught": FRAUGHT_COLOUR}
    out = [f'<svg xmlns="{SVG_NS}" viewBox="0 0 {_n(width)} {_n(height)}" width="{_n(width)}" '
           f'height="{_n(height)}" role="img" aria-labelledby="{id_prefix}-title" '
           f'font-family="sans-serif" font-size="12">',
           f'<title id="{id_prefix}-title">Relationship map: {count} characters, '
           f'{len(graph.relationships)} relationships, {len(graph.wants)} wants '
           f'({sum(w.fraught for w in graph.wants)} fraught)</title>',
           "<defs>"]
    out += [f'<marker id="{id_prefix}-{name}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="9" '
            f'markerHeight="9" markerUnits="userSpaceOnUse" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>'
            for name, colour in markers.items()]
    out.append("</defs>")
    taken = [_Box(x - w / 2, y - _BOX_HEIGHT / 2, w, _BOX_HEIGHT) for x, y, w in places.values()]
    out.append('<g class="relationships">')
    for rel in graph.relationships:
        if rel.source not in places or rel.target not in places:
            continue
        (x1, y1, w1), (x2, y2, w2) = places[rel.source], places[rel.target]
        sx, sy = _to_edge(x1, y1, w1 / 2, _BOX_HEIGHT / 2, x2, y2)
        ex, ey = _to_edge(x2, y2, w2 / 2, _BOX_HEIGHT / 2, x1, y1)
        out.append(f'<g class="relationship"><title>{xml_text(f"{rel.source} to {rel.target}: {rel.nature}")}'
                   f'</title><line x1="{_n(sx)}" y1="{_n(sy)}" x2="{_n(ex)}" y2="{_n(ey)}" '
                   f'stroke="{RELATIONSHIP_COLOUR}" stroke-width="1.2" marker-end="url(#{id_prefix}-rel)"/>'
                   + _label(*_free_spot(lambda t, sx=sx, sy=sy, ex=ex, ey=ey: (sx + (ex - sx) * t, sy + (ey - sy) * t),
                                        rel.nature, taken), rel.nature, RELATIONSHIP_COLOUR) + "</g>")
    out.append("</g>")
    out.append('<g class="wants">')
    for want in graph.wants:
        if want.source not in places or want.target not in places:
            continue
        (x1, y1, w1), (x2, y2, w2) = places[want.source], places[want.target]
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        # Bend to the left of the direction of travel: the two wants of a pair curve apart.
        qx, qy = (x1 + x2) / 2 + 45 * (y2 - y1) / length, (y1 + y2) / 2 - 45 * (x2 - x1) / length
        sx, sy = _to_edge(x1, y1, w1 / 2, _BOX_HEIGHT / 2, qx, qy)
        ex, ey = _to_edge(x2, y2, w2 / 2, _BOX_HEIGHT / 2, qx, qy)

        def along(t: float, sx: float = sx, sy: float = sy, qx: float = qx, qy: float = qy, ex: float = ex,
                  ey: float = ey) -> tuple[float, float]:
            return ((1 - t) ** 2 * sx + 2 * t * (1 - t) * qx + t * t * ex,
                    (1 - t) ** 2 * sy + 2 * t * (1 - t) * qy + t * t * ey)

        mx, my = _free_spot(along, want.want, taken)
        colour, dash, stroke, kind = ((FRAUGHT_COLOUR, "6 4", "2.2", "fraught") if want.fraught
                                      else (WANT_COLOUR, "2 3", "1.4", "want"))
        title = f"{want.source} wants from {want.target}: {want.want}{' (fraught)' if want.fraught else ''}"
        out.append(f'<g class="{kind}"><title>{xml_text(title)}</title>'
                   f'<path d="M{_n(sx)},{_n(sy)} Q{_n(qx)},{_n(qy)} {_n(ex)},{_n(ey)}" fill="none" '
                   f'stroke="{colour}" stroke-width="{stroke}" stroke-dasharray="{dash}" '
                   f'marker-end="url(#{id_prefix}-{"fraught" if want.fraught else "want"})"/>'
                   + _label(mx, my, want.want, colour) + "</g>")
    out.append("</g>")
    out.append('<g class="characters">')
    for node in graph.nodes:
        x, y, w = places[node.name]
        name, player = _box_lines(node)
        dash = ' stroke-dasharray="5 3"' if node.kind == RECURRING else ""
        out.append(f'<g class="character"><title>{xml_text(_node_label(node))}</title>'
                   f'<rect x="{_n(x - w / 2)}" y="{_n(y - _BOX_HEIGHT / 2)}" width="{_n(w)}" '
                   f'height="{_n(_BOX_HEIGHT)}" rx="8" fill="#FFFFFF" stroke="#333333" stroke-width="1.5"{dash}/>'
                   f'<text x="{_n(x)}" y="{_n(y - 3)}" text-anchor="middle" font-size="13" font-weight="bold">'
                   f'{xml_text(name)}</text>'
                   f'<text x="{_n(x)}" y="{_n(y + 13)}" text-anchor="middle" font-size="11" fill="#555555">'
                   f'{xml_text(player)}</text></g>')
    out.append("</g>")
    out.append(_map_legend(plot_height, id_prefix))
    out.append("</svg>")
    return "\n".join(out) + "\n"


@dataclass(frozen=True)
class _Box:
    """A rectangle of the drawing: a character's box or a label's extent."""

    x: float
    y: float
    w: float
    h: float

    def overlaps(self, other: "_Box") -> bool:
        return (self.x < other.x + other.w and other.x < self.x + self.w
                and self.y < other.y + other.h and other.y < self.y + self.h)


#: No font metrics without a browser: an 11 px label is about 6.2 px a character, 14 px high.
LABEL_CHAR = 6.2
LABEL_HEIGHT = 14.0


def label_box(x: float, y: float, text: str) -> _Box:
    """The extent of a label drawn at (``x``, ``y``) (centred, on its baseline), a little padded."""
    w = LABEL_CHAR * len(shortened(plain(text), SVG_LABEL)) + 6
    return _Box(x - w / 2, y - LABEL_HEIGHT + 2, w, LABEL_HEIGHT + 2)


def _free_spot(along: Any, text: str, taken: list[_Box]) -> tuple[float, float]:
    """Where on its arrow (``along(t)``, t in 0..1) a label overlaps no box nor label placed before,
    nudged off the arrow when it must be; taken into ``taken``. The middle is tried first."""
    tries = [(t, dy) for dy in (0.0, -9.0, 9.0, -18.0, 18.0, -27.0, 27.0)
             for t in (0.5, 0.42, 0.58, 0.34, 0.66, 0.27, 0.73, 0.2, 0.8)]
    best, fewest = None, math.inf
    for t, dy in tries:
        x, y = along(t)
        box = label_box(x, y + dy, text)
        hits = sum(box.overlaps(other) for other in taken)
        if hits < fewest:
            best, fewest = (x, y + dy), hits
        if hits == 0:
            break
    assert best is not None
    taken.append(label_box(*best, text))
    return best


def _label(x: float, y: float, text: str, colour: str) -> str:
    # A white outline behind the letters keeps a label legible where it crosses a line.
    return (f'<text x="{_n(x)}" y="{_n(y)}" text-anchor="middle" font-size="11" fill="{colour}" '
            f'stroke="#FFFFFF" stroke-width="3" paint-order="stroke">'
            f"{xml_text(shortened(plain(text), SVG_LABEL))}</text>")


def _map_legend(top: float, id_prefix: str) -> str:
    rows = (("rel", RELATIONSHIP_COLOUR, "", "1.2", "relationship (arrow from the character who defined it)"),
            ("want", WANT_COLOUR, "2 3", "1.4", "want (arrow from who wants to who withholds)"),
            ("fraught", FRAUGHT_COLOUR, "6 4", "2.2", "fraught want (the first two PCs named as withholders)"))
    out = [f'<g class="legend" transform="translate(20,{_n(top)})">']
    for i, (marker, colour, dash, stroke, text) in enumerate(rows):
        y = 10 + 20 * i
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<line x1="0" y1="{y}" x2="40" y2="{y}" stroke="{colour}" stroke-width="{stroke}"{dashed} '
                   f'marker-end="url(#{id_prefix}-{marker})"/><text x="50" y="{y + 4}">{escape(text)}</text>')
    out.append('<rect x="420" y="2" width="40" height="16" rx="4" fill="#FFFFFF" stroke="#333333" '
               'stroke-dasharray="5 3"/><text x="470" y="14">recurring character</text>')
    out.append("</g>")
    return "".join(out)


# -- drama tokens through an episode -------------------------------------------------------------


def _who(participant: str, character: str | None) -> str:
    return f"{participant} ({character})" if character else participant


def point_labels(series: TokenSeries) -> list[str]:
    """The x axis: ``start``, then ``sc N`` for each scene of the episode."""
    return ["start", *(f"sc {n}" for n in series.scenes)]


def _top(series: TokenSeries) -> int:
    return max([1, *(b for line in series.lines for b in line.balances)])


def token_series_mermaid(series: TokenSeries) -> str:
    """The episode's drama tokens as the body of a Mermaid ``xychart-beta`` block (without the fences).

    One line per participant, in the series' order and coloured from :data:`PALETTE` in that order
    (set in the block's front matter). Mermaid's XY chart draws no legend, so set
    :func:`token_series_table` beside it: its first column names each line's colour. The chart
    itself carries no user text.
    """
    colours = ", ".join(PALETTE[i % len(PALETTE)] for i in range(len(series.lines))) or PALETTE[0]
    labels = ", ".join(f'"{label}"' for label in point_labels(series))
    lines = ["---", "config:", "  themeVariables:", "    xyChart:", f'      plotColorPalette: "{colours}"', "---",
             "xychart-beta", f'    title "Drama tokens, episode {series.episode}"', f"    x-axis [{labels}]",
             f'    y-axis "drama tokens" 0 --> {_top(series)}']
    lines += [f"    line [{', '.join(str(b) for b in line.balances)}]" for line in series.lines]
    return "\n".join(lines) + "\n"


COLOUR_NAMES = {"#0072B2": "blue", "#D55E00": "vermilion", "#009E73": "green", "#CC79A7": "pink",
                "#E69F00": "orange", "#56B4E9": "sky blue", "#000000": "black", "#999999": "grey"}


def _style(i: int) -> tuple[str, str]:
    return PALETTE[i % len(PALETTE)], DASHES[(i // len(PALETTE)) % len(DASHES)]


def token_series_table(series: TokenSeries) -> str:
    """The episode's drama tokens as a Markdown table: one row per participant (the line's colour
    in the charts, who, then the balance at the start and after each scene). Names are escaped as
    character references, so the table holds no markup but its own."""
    head = ["line", "participant", *point_labels(series)]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for i, line in enumerate(series.lines):
        colour, dash = _style(i)
        name = COLOUR_NAMES[colour] + (" dashed" if dash else "")
        rows.append("| " + " | ".join([name, markdown_text(_who(line.participant, line.character)),
                                       *(str(b) for b in line.balances)]) + " |")
    return "\n".join(rows) + "\n"


def token_series_svg(series: TokenSeries) -> str:
    """The episode's drama tokens as an inline ``<svg>`` line chart.

    The x axis is labelled ``start`` and ``sc N`` for each scene, the y axis in whole tokens; each
    participant is one polyline in a colour of :data:`PALETTE` (dashed past the eighth), with a dot
    at each point whose ``<title>`` gives the figure, and a legend row with the balance at the end.
    Lines that share a value are nudged a pixel or two apart so that none hides another.
    """
    labels = point_labels(series)
    top = _top(series)
    left, right, plot_top, plot_height = 56.0, 24.0, 36.0, 220.0
    width = max(480.0, left + right + 56.0 * len(labels))
    plot_width = width - left - right
    bottom = plot_top + plot_height
    height = bottom + 48 + 18 * len(series.lines) + 8
    step_x = plot_width / max(len(labels) - 1, 1)
    tick = max(1, math.ceil(top / 8))

    def x_at(i: int) -> float:
        return left + (step_x * i if len(labels) > 1 else plot_width / 2)

    def y_at(value: float) -> float:
        return bottom - plot_height * value / top

    out = [f'<svg xmlns="{SVG_NS}" viewBox="0 0 {_n(width)} {_n(height)}" width="{_n(width)}" '
           f'height="{_n(height)}" role="img" aria-labelledby="tokens-{series.episode}-title" '
           f'font-family="sans-serif" font-size="11">',
           f'<title id="tokens-{series.episode}-title">Drama tokens held through episode {series.episode}, '
           f"at the start and after each scene</title>",
           '<g class="axes" stroke="#333333">',
           f'<line x1="{_n(left)}" y1="{_n(bottom)}" x2="{_n(left + plot_width)}" y2="{_n(bottom)}"/>',
           f'<line x1="{_n(left)}" y1="{_n(plot_top)}" x2="{_n(left)}" y2="{_n(bottom)}"/>', "</g>",
           '<g class="grid">']
    for value in range(0, top + 1, tick):
        y = y_at(value)
        out.append(f'<line x1="{_n(left)}" y1="{_n(y)}" x2="{_n(left + plot_width)}" y2="{_n(y)}" '
                   f'stroke="#DDDDDD"/><text x="{_n(left - 6)}" y="{_n(y + 4)}" text-anchor="end">{value}</text>')
    for i, label in enumerate(labels):
        out.append(f'<text x="{_n(x_at(i))}" y="{_n(bottom + 16)}" text-anchor="middle">{escape(label)}</text>')
    out.append(f'<text x="{_n(left + plot_width / 2)}" y="{_n(bottom + 32)}" text-anchor="middle">'
               f"episode {series.episode}: start, then after each scene</text>")
    out.append(f'<text x="14" y="{_n(plot_top + plot_height / 2)}" text-anchor="middle" '
               f'transform="rotate(-90 14 {_n(plot_top + plot_height / 2)})">drama tokens</text>')
    out.append("</g>")
    count = len(series.lines)
    for i, line in enumerate(series.lines):
        colour, dash = _style(i)
        nudge = (i - (count - 1) / 2) * 2.0
        who = _who(line.participant, line.character)
        points = [(x_at(k), y_at(b) + nudge) for k, b in enumerate(line.balances)]
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<g class="participant"><title>{xml_text(who)}</title>'
                   f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dashed} '
                   f'points="{" ".join(f"{_n(x)},{_n(y)}" for x, y in points)}"/>')
        for (x, y), balance, label in zip(points, line.balances, labels):
            out.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="2.5" fill="{colour}"><title>'
                       f'{xml_text(f"{who}, {label}: {balance}")}</title></circle>')
        out.append("</g>")
    out.append(f'<g class="legend" transform="translate({_n(left)},{_n(bottom + 48)})">')
    for i, line in enumerate(series.lines):
        colour, dash = _style(i)
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        y = 18 * i
        end = line.balances[-1] if line.balances else 0
        out.append(f'<line x1="0" y1="{y}" x2="28" y2="{y}" stroke="{colour}" stroke-width="2"{dashed}/>'
                   f'<text x="36" y="{y + 4}">{xml_text(_who(line.participant, line.character))}: '
                   f"{end} at the end</text>")
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


# -- pictures for templates -------------------------------------------------------------------


def mermaid_block(body: str) -> str:
    """A Mermaid drawing as a fenced Markdown block."""
    return f"```mermaid\n{body}```\n"


def relationship_map_picture(graph: RelationshipGraph | None, fmt: str) -> str | None:
    """The relationship map a recap template places (``diagrams.relationships``): inline SVG for
    ``html``, a fenced Mermaid block for Markdown, each marked safe for its template (it was built
    here from escaped text); ``None`` when there is no character to draw. Any ruleset's recap may
    take it."""
    from markupsafe import Markup

    from yarnlog.render.text import MarkdownSafe

    if graph is None or not graph.nodes:
        return None
    if fmt == "html":
        return Markup(relationship_map_svg(graph))
    return MarkdownSafe(mermaid_block(relationship_map_mermaid(graph)))
