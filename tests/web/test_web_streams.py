"""The live board's event stream, from ``yarnlog serve`` in its own process: a player's stream holds
their board only, says nothing of what the GM records for her eyes only (it does not even move), and
ends when the link is revoked."""

from __future__ import annotations

import threading
import time

import httpx
import pytest
from browser import record, serving
from tables import GM_NOTE, HIDDEN_ROLL, SECRET_TOKEN, VOTE_ARITHMETIC, dramasystem_table, yarn_table

pytestmark = pytest.mark.slow  # a server and its event streams, followed in threads


class Stream:
    """The messages of one event stream, read in a thread as they come."""

    def __init__(self, url: str):
        self.messages: list[tuple[str, str]] = []
        self.done = threading.Event()
        threading.Thread(target=self._read, args=(url,), daemon=True).start()

    def _read(self, url: str) -> None:
        try:
            self._messages(url)
        except httpx.HTTPError:  # the server stopped under the open stream, at the test's end
            pass

    def _messages(self, url: str) -> None:
        event, data = "message", []
        with httpx.stream("GET", url, timeout=30) as r:
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
            for line in r.iter_lines():
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    data.append(line[6:])
                elif line == "":
                    if data:
                        self.messages.append((event, "\n".join(data)))
                    event, data = "message", []
                if self.done.is_set():
                    return

    def boards(self) -> list[str]:
        return [data for event, data in self.messages if event == "board"]

    def wait(self, count: int, seconds: float = 10) -> None:
        deadline = time.monotonic() + seconds
        while len(self.messages) < count:
            assert time.monotonic() < deadline, self.messages
            time.sleep(0.02)


@pytest.mark.parametrize("build", [yarn_table, dramasystem_table])
def test_a_players_stream_carries_nothing_hidden_and_stays_still_for_the_gms_eyes_only(build, tmp_path):
    db = tmp_path / "journal.db"
    links = build(db)
    with serving(db) as base:
        ana, gm = Stream(base + links["Ana"] + "events"), Stream(base + links["Maya"] + "events")
        ana.wait(1), gm.wait(1)
        record(db, "note", GM_NOTE + " again", "--visibility", "gm")  # for the GM's eyes only
        time.sleep(1.0)  # five polls of the heads
        assert len(ana.boards()) == 1, "a player's board moved on an event they may not see"
        record(db, "note", "Everyone hears the bell")
        gm.wait(2)
        time.sleep(0.5)
        text = "\n".join(ana.boards())
        for marker in (GM_NOTE, HIDDEN_ROLL, VOTE_ARITHMETIC, SECRET_TOKEN, "set aside"):
            assert marker not in text
        if build is dramasystem_table:
            assert "set aside" in gm.boards()[-1] and "hidden until the resolution ends" in text
        ana.done.set(), gm.done.set()


def test_a_revoked_links_stream_ends(tmp_path):
    db = tmp_path / "journal.db"
    links = yarn_table(db)
    with serving(db) as base:
        ben = Stream(base + links["Ben"] + "events")
        ben.wait(1)
        record(db, "invite", "Ben", "--revoke")
        ben.wait(2)
        assert ben.messages[-1][0] == "closed"
        assert httpx.get(base + links["Ben"] + "events").status_code == 404
