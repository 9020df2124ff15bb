"""Hostile text from the journal (the safety corpus in every field a user types) stays inert in every
page of the players' page: valid HTML, nothing that runs or loads, no element built from it, and
each link this page writes one of its own."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "safety"))
from hostile import ANA, BEN, CAMPAIGN, GM, hostile_db_fixture  # noqa: E402, F401 (the fixture hostile_db)
from htmlcheck import assert_inert, assert_valid_html, parse  # noqa: E402
from tables import client, every_page, invite  # noqa: E402

#: Elements only a user's text could have built: no template of the page writes them.
TYPED_ELEMENTS = re.compile(r"<(img|iframe|u|b|textarea|style|svg onload|a href=\"javascript)[\s>/]")
#: What the page's own templates write that a generic inertness check refuses: the live board's script
#: (this server's file) and the digest's form (a GET to the same page).
OWN = (re.compile(r'<script src="/static/live\.js" defer></script>'), re.compile(r"<form .*?</form>", re.S),
       re.compile(r'<link rel="icon" href="data:,">'))


@pytest.fixture(scope="module")
def hostile_links(hostile_db, tmp_path_factory):
    db = tmp_path_factory.mktemp("hostile-web") / "hostile.db"
    db.write_bytes(hostile_db[0].read_bytes())
    return db, {name: invite(db, name, CAMPAIGN) for name in (ANA, BEN, GM)}


@pytest.mark.slow
def test_every_page_of_the_hostile_campaign_is_valid_and_inert(hostile_links):
    db, links = hostile_links
    with client(db) as c:
        for name, link in links.items():
            pages = every_page(c, link)
            assert len(pages) > 5
            for path, text in pages.items():
                if not path.endswith("/board"):
                    assert_valid_html(text)
                own = text
                for pattern in OWN:
                    own = pattern.sub("", own)
                assert_inert(own)
                body = own.split("<body", 1)[-1]
                assert not TYPED_ELEMENTS.search(body), (path, TYPED_ELEMENTS.search(body))
                for element in parse(text).iter():
                    for attribute, value in element.attrib.items():
                        if attribute.rsplit("}", 1)[-1] in ("href", "src", "action"):
                            ours = value.startswith(("/c/hostile/", "/static/", "#")) or value == "data:,"
                            assert ours, (path, value)
            assert "&lt;script&gt;alert(1)&lt;/script&gt;" in "".join(pages.values())  # shown, as text
