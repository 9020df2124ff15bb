"""The relationship map's labels overlap no other label and no character's box (issue 26: three
pairs overlapped in a six-character campaign), on the committed sample recaps' maps.

The boxes are read back from the committed pages' SVG; a label's extent is estimated with the
drawing's own font measure (11 px text, about 6.2 px a character: no browser metrics here)."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from yarnlog.render.diagrams import label_box

JOURNALS = Path(__file__).resolve().parents[2] / "journals"


def _map(page: str) -> str:
    start = page.index('aria-labelledby="relmap-title"')
    return page[start:page.index("</svg>", start)]


@pytest.mark.parametrize("sample", ["lantern-harbor-recap.html", "copper-reef-recap.html"])
def test_no_label_overlaps_another_label_or_a_character(sample):
    svg = _map((JOURNALS / sample).read_text(encoding="utf-8"))
    boxes = [(float(x), float(y), float(w), float(h)) for x, y, w, h in
             re.findall(r'<rect x="([-\d.]+)" y="([-\d.]+)" width="([\d.]+)" height="([\d.]+)" rx="8"', svg)]
    labels = [(float(x), float(y), unescape(text)) for x, y, text in
              re.findall(r'<text x="([-\d.]+)" y="([-\d.]+)" text-anchor="middle" font-size="11" fill="#'
                         r'[0-9A-F]{6}" stroke="#FFFFFF"[^>]*>([^<]*)</text>', svg)]
    assert len(boxes) >= 6 and len(labels) >= 10
    extents = [label_box(x, y, text) for x, y, text in labels]
    for i, one in enumerate(extents):
        for x, y, w, h in boxes:
            assert not (one.x < x + w and x < one.x + one.w and one.y < y + h and y < one.y + one.h), labels[i]
        for j in range(i + 1, len(extents)):
            assert not one.overlaps(extents[j]), (labels[i], labels[j])
