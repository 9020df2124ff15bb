"""The players' page in-process (Starlette's test client): each participant's link opens the
campaign as they may see it; nothing a player may not see is in any of their pages; any other link
answers the same 404; what people typed stays text."""

from __future__ import annotations

import re

import pytest
from htmlcheck import assert_valid_html
from tables import (
    GM_NOTE,
    HIDDEN_ROLL,
    SECRET_TOKEN,
    VOTE_ARITHMETIC,
    client,
    dramasystem_table,
    every_page,
    run,
    yarn_table,
)

from yarnlog.web.server import CSP, NOT_FOUND


@pytest.fixture(scope="module")
def yarn(tmp_path_factory):
    db = tmp_path_factory.mktemp("yarn") / "journal.db"
    return db, yarn_table(db)


@pytest.fixture(scope="module")
def storm(tmp_path_factory):
    db = tmp_path_factory.mktemp("storm") / "journal.db"
    return db, dramasystem_table(db)


@pytest.mark.parametrize("table", ["yarn", "storm"])
def test_every_page_of_every_link_is_valid_html_under_a_strict_policy(request, table):
    db, links = request.getfixturevalue(table)
    with client(db) as c:
        for name, link in links.items():
            for path, text in every_page(c, link).items():
                if not path.endswith("/board"):  # the live fragment is a piece of a page
                    assert_valid_html(text)
                assert "<style" not in text and "style=" not in text, path  # nothing inline: CSP has no unsafe-inline
                assert re.findall(r"<script[^>]*>", text) in ([], ['<script src="/static/live.js" defer>']), path
            r = c.get(link)
            assert r.headers["content-security-policy"] == CSP
            assert "unsafe" not in CSP and "script-src 'self'" in CSP
            assert r.headers["referrer-policy"] == "no-referrer"


def test_the_gm_sees_what_is_planted(yarn, storm):
    """The markers are on the GM's pages: a player's pages without them could have had them."""
    for (db, links), markers in ((yarn, (GM_NOTE, HIDDEN_ROLL, VOTE_ARITHMETIC)), (storm, (GM_NOTE, SECRET_TOKEN))):
        with client(db) as c:
            gm = "\n".join(every_page(c, links["Maya"]).values())
        for marker in markers:
            assert marker.replace("'", "&#39;") in gm, marker


@pytest.mark.parametrize("table", ["yarn", "storm"])
def test_no_player_page_shows_what_is_hidden_from_players(request, table):
    db, links = request.getfixturevalue(table)
    with client(db) as c:
        for name in ("Ana", "Ben"):
            pages = every_page(c, links[name])
            text = "\n".join(pages.values())
            for marker in (GM_NOTE, HIDDEN_ROLL, VOTE_ARITHMETIC, SECRET_TOKEN):
                assert marker not in text and marker.replace("'", "&#39;") not in text, (name, marker)
            assert not re.search(r"&minus; \d+ = -?\d+", text)  # no score of the bennie vote
            assert "(a secret roll)" not in text
    if table == "storm":  # the GM's pile is hidden from a player while the resolution is open (reading 16)
        with client(db) as c:
            assert "hidden until the resolution ends" in c.get(links["Ana"]).text
            assert "set aside" in c.get(links["Maya"]).text and "set aside" not in c.get(links["Ana"]).text


def test_a_player_opens_only_their_own_sheet(yarn):
    db, links = yarn
    with client(db) as c:
        assert c.get(links["Ana"] + "sheet/Iris").status_code == 200
        assert c.get(links["Ana"] + "sheet/Tomas").status_code == 404
        assert c.get(links["Maya"] + "sheet/Tomas").status_code == 200


def test_pages_as_of_the_end_of_a_scene(yarn):
    db, links = yarn
    with client(db) as c:
        first = c.get(links["Ana"] + "?end_of_scene=1").text
        now = c.get(links["Ana"]).text
        # Scene 1: Ana's petition refused, a token from the kitty; by now the token is spent or back.
        assert re.search(r"<td[^>]*>Ana</td><td[^>]*>Iris</td><td[^>]*>1</td>", first), first
        assert "at the end of scene 1" in first and first != now
        assert c.get(links["Ana"] + "?end_of_scene=99").status_code == 404
        assert c.get(links["Ana"] + "?end_of_scene=x").status_code == 404


def test_wrong_revoked_and_other_campaigns_links_answer_the_same_404(yarn, storm, tmp_path):
    db, links = yarn
    _, storm_links = storm
    with client(db) as c:
        ana = links["Ana"]
        secret = ana.rstrip("/").rsplit("/", 1)[1]
        wrong = [ana[:-2] + ("A" if ana[-2] != "A" else "B") + "/",  # one character off
                 "/c/harbor/" + "x" * 43 + "/", "/c/nobody/" + secret + "/", "/", "/c/harbor/",
                 "/c/harbor/" + secret + "/nothing", "/c/harbor/" + "y" * 500 + "/",
                 storm_links["Ana"].replace("/c/storm/", "/c/harbor/")]  # another campaign's secret
        for path in wrong:
            r = c.get(path)
            assert (r.status_code, r.text) == (404, NOT_FOUND), path
            assert "harbor" not in r.text and "Lantern" not in r.text
        assert c.post(ana).status_code == 404  # read-only: no method writes
    copy = tmp_path / "revoked.db"
    copy.write_bytes(db.read_bytes())
    run(copy, "invite", "Ben", "--revoke")
    with client(copy) as c:
        assert c.get(links["Ben"]).status_code == 404
        assert c.get(links["Ana"]).status_code == 200
    run(copy, "invite", "Ana")  # a new link replaces the old one
    with client(copy) as c:
        assert c.get(links["Ana"]).status_code == 404


def test_the_digest_page_checks_a_kept_digest(yarn):
    db, links = yarn
    with client(db) as c:
        page = c.get(links["Ana"] + "digest").text
        digest = re.search(r"<code>(yarnlog1:[^<]+)</code>", page).group(1)
        ok = c.get(links["Ana"] + "digest", params={"kept": digest}).text
        assert "nothing was cut or rewritten" in ok
        forged = digest[:-4] + ("0000" if not digest.endswith("0000") else "1111")
        bad = c.get(links["Ana"] + "digest", params={"kept": forged}).text
        assert 'class="verdict fault"' in bad
