"""A real headless Chromium driving the players' page: Debian's ``chromium`` through its
``chromium-driver`` with Selenium, nothing downloaded at run time; and ``yarnlog serve`` in a
process of its own, on a free port of 127.0.0.1.

Skipped without the browser or its driver, unless ``YARNLOG_REQUIRE_BROWSER=1`` (``.ci/run``),
where their absence fails."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from htmlcheck import CHROMIUM_FLAGS, require_chromium


def require_driver() -> str:
    driver = os.environ.get("YARNLOG_TEST_CHROMEDRIVER") or shutil.which("chromedriver")
    if driver is None:
        if os.environ.get("YARNLOG_REQUIRE_BROWSER") == "1":
            pytest.fail("YARNLOG_REQUIRE_BROWSER=1 but no chromedriver: install Debian's chromium-driver",
                        pytrace=False)
        pytest.skip("no chromedriver (install Debian's chromium-driver)")
    return driver


@contextmanager
def browser(width: int = 360, height: int = 760) -> Iterator[object]:
    """A headless Chromium ``width`` CSS pixels wide (a phone's 360 by default), its console logged."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = require_chromium()
    for flag in CHROMIUM_FLAGS:
        if not flag.startswith("--headless"):
            options.add_argument(flag)
    options.add_argument("--headless=new")
    options.add_argument(f"--window-size={width},{height}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=require_driver()))
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
        yield driver
    finally:
        driver.quit()


def free_port() -> int:
    """A free port of 127.0.0.1, as the kernel hands them out (a fixed range shared by every test
    suite on the machine let another suite's server take the port first: a test then read the
    wrong server's 404)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(db: Path, port: int | None = None, *, workers: int = 1) -> Iterator[str]:
    """``yarnlog --db DB serve`` (with ``--workers``) in its own process until the block ends; its base
    URL. A loaded machine may take long to start it: it has two minutes."""
    port = port or free_port()
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen([sys.executable, "-m", "yarnlog", "--db", str(db), "serve", "--port", str(port),
                                    "--workers", str(workers)], stdout=subprocess.DEVNULL, stderr=errors)
        try:
            deadline = time.monotonic() + 120
            while True:
                with socket.socket() as s:
                    if s.connect_ex(("127.0.0.1", port)) == 0:
                        break
                if process.poll() is not None or time.monotonic() > deadline:
                    errors.seek(0)
                    raise RuntimeError(f"yarnlog serve did not start: {errors.read().decode()}")
                time.sleep(0.05)
            yield f"http://127.0.0.1:{port}"
        finally:
            process.terminate()
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)


def record(db: Path, *args: str) -> None:
    """The GM records a move in another process, as at the table."""
    done = subprocess.run([sys.executable, "-m", "yarnlog", "--db", str(db), *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def overflow(driver) -> int:
    """How many CSS pixels the page is wider than the window (0: no horizontal scrolling)."""
    return int(driver.execute_script(
        "return Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - window.innerWidth"))


def csp_violations(driver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if "Content Security Policy" in e["message"]
            or "Refused to" in e["message"]]
