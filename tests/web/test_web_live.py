"""The players' page in a real headless Chromium, served by ``yarnlog serve`` in its own process:
a player opens the link on a phone, sees the board, the GM records a petition in another process,
and the page shows the new balance within a second, without a reload; a page that loses its
connection says so and catches up. Every page of the sample campaign fits 360 and 1280 pixels
without horizontal scrolling, and breaks no rule of the Content-Security-Policy."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from browser import browser, csp_violations, free_port, overflow, record, serving
from tables import YARN, invite, run

from yarnlog.app.bootstrap import bootstrap
from yarnlog.app.interchange import import_records, parse_lines

pytestmark = pytest.mark.slow  # a real browser (Selenium, Chromium)

ROOT = Path(__file__).resolve().parents[2]
#: The two sample campaigns (Yarn's and DramaSystem's), by campaign id.
SAMPLES = {"lantern": ROOT / "journals" / "lantern-harbor.jsonl", "reef": ROOT / "journals" / "copper-reef.jsonl"}
#: Where the screenshots of the sample go (``YARNLOG_SCREENSHOTS=journals`` to refresh the committed ones).
SHOTS = os.environ.get("YARNLOG_SCREENSHOTS")

#: The Yarn table up to its first scene called: Ana's petition is the next move.
LIVE_TABLE = YARN[:8]


def tokens_of(driver, name: str) -> str:
    """The drama tokens ``name`` holds, as the board on the page shows them now."""
    return driver.execute_script(
        "for (const row of document.querySelectorAll('#live tr')) {"
        "  const cells = row.querySelectorAll('td');"
        "  if (cells.length && cells[0].textContent === arguments[0]) return cells[2].textContent; }"
        "return null;", name)


def fact(driver, label: str) -> str | None:
    """The fact called ``label`` on the board as the page shows it now."""
    return driver.execute_script(
        "for (const dt of document.querySelectorAll('#live dt')) {"
        "  if (dt.textContent === arguments[0]) return dt.nextElementSibling.textContent; }"
        "return null;", label)


def wait_for(condition, seconds: float) -> float:
    """Poll ``condition`` until true; the seconds it took (fails after ``seconds``)."""
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > seconds:
            pytest.fail(f"not within {seconds} s")
        time.sleep(0.02)
    return time.monotonic() - start


def test_the_board_follows_the_table_live_and_catches_up_after_a_lost_connection(tmp_path):
    db = tmp_path / "journal.db"
    for args in LIVE_TABLE:
        run(db, *args)
    ana = invite(db, "Ana", "harbor")
    port = free_port()
    with browser(360) as driver:
        with serving(db, port) as base:
            driver.get(base + ana)
            wait_for(lambda: "Live" in driver.find_element("id", "status").text, 10)
            assert tokens_of(driver, "Ana") == "0"
            marker = driver.execute_script("window.notReloaded = true; return window.notReloaded")
            record(db, "petition", "refused", "-p", "Iris", "-g", "Tomas")  # Ana gains a token from the kitty
            took = wait_for(lambda: tokens_of(driver, "Ana") == "1", 1.0)
            print(f"\nthe board showed the new balance {took * 1000:.0f} ms after the GM's command returned")
            assert marker and driver.execute_script("return window.notReloaded") is True  # no reload
        # The server is gone: the page says so, and the board stays as it was.
        wait_for(lambda: "Connection lost" in driver.find_element("id", "status").text, 10)
        record(db, "call", "Maya", "--cast", "Tomas", "--mode", "procedural")  # the next scene, while the page is away
        with serving(db, port):
            wait_for(lambda: fact(driver, "Scene") == "2", 15)  # reconnected, and caught up
            assert "Live" in driver.find_element("id", "status").text
        assert csp_violations(driver) == []


@pytest.fixture(scope="module")
def samples(tmp_path_factory):
    """Both samples in one journal; the links of Ana and the GM in each, by campaign."""
    db = tmp_path_factory.mktemp("sample") / "journal.db"
    journal = bootstrap(str(db), create=True)
    for path in SAMPLES.values():
        import_records(journal.store, list(parse_lines(path.read_text(encoding="utf-8").splitlines())))
    journal.close()
    return db, {cid: {name: invite(db, name, cid) for name in ("Ana", "Maya")} for cid in SAMPLES}


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("campaign", SAMPLES)
def test_every_page_of_the_samples_fits_the_screen(samples, campaign, width, tmp_path):
    db, by_campaign = samples
    links = by_campaign[campaign]
    shots = Path(SHOTS) if SHOTS else tmp_path
    with serving(db) as base, browser(width) as driver:
        for name, link in links.items():
            driver.get(base + link)
            pages = [a.get_attribute("href") for a in driver.find_elements("css selector", "nav a")]
            assert len(pages) >= 5
            for page in [base + link, *pages, base + link + "explain/48", base + link + "recap?episode=1"]:
                driver.get(page)
                assert overflow(driver) <= 0, (width, page, overflow(driver))
            driver.get(base + link)
            wait_for(lambda: "Live" in driver.find_element("id", "status").text, 10)
            if name == "Ana" and campaign == "lantern":
                driver.save_screenshot(str(shots / f"players-page-board-{width}.png"))
                driver.get(base + link + "ledger")
                driver.save_screenshot(str(shots / f"players-page-ledger-{width}.png"))
            assert csp_violations(driver) == [], name
    if campaign == "lantern":
        assert (shots / f"players-page-board-{width}.png").read_bytes()[1:4] == b"PNG"
