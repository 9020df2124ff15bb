"""The players' page under load: many readers of the board at once, on a generated campaign.

A campaign of EVENTS events (``bench/generate.py``: the sample's mix, repeated) is imported into a
SQLite journal, a player and the GM get their links, and ``yarnlog serve`` runs in a process of its
own on 127.0.0.1. READERS concurrent readers (a connection each) each read a player's board
ROUNDS times; every answer must be a 200 with the board. Beside the board, the
floor: the same readers fetching the server's style sheet (a static file: Starlette and uvicorn
alone, no journal). One reader at a time gives the time a read takes; many at once, the time a
read waits its turn too. The first read of the board after start-up (a cold replay of what the player
may see) is timed apart, and so is the first read after a move (the new event folded into it).

Usage: python bench/players_page.py [EVENTS] [--readers 200] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate  # noqa: E402


@dataclass
class Load:
    """What the readers met: each answer's time in seconds, and the answers that were not the page."""

    times: list[float]
    failures: list[str]

    @property
    def median_ms(self) -> float:
        return statistics.median(self.times) * 1000

    def summary(self) -> str:
        q = statistics.quantiles(self.times, n=10) if len(self.times) > 1 else self.times * 9
        return (f"{len(self.times)} reads, median {self.median_ms:.1f} ms, p90 {q[-1] * 1000:.1f} ms, "
                f"max {max(self.times) * 1000:.1f} ms, {len(self.failures)} failed")


async def _readers(url: str, readers: int, rounds: int, must_hold: str, timeout: float) -> Load:
    times: list[float] = []
    failures: list[str] = []
    start = asyncio.Event()

    async def reader(client: httpx.AsyncClient) -> None:
        await start.wait()
        for _ in range(rounds):
            began = time.perf_counter()
            try:
                r = await client.get(url)
            except httpx.HTTPError as exc:
                failures.append(type(exc).__name__)
                continue
            took = time.perf_counter() - began
            if r.status_code != 200 or must_hold not in r.text:
                failures.append(f"{r.status_code}")
            else:
                times.append(took)

    # One client, a connection for each reader: the readers' side costs as little as it can, so
    # the times are the server's (200 clients of their own cost this process seconds to set up).
    async with httpx.AsyncClient(timeout=timeout, limits=httpx.Limits(max_connections=readers)) as client:
        tasks = [asyncio.create_task(reader(client)) for _ in range(readers)]
        start.set()
        await asyncio.wait_for(asyncio.gather(*tasks), timeout * rounds + 30)
    return Load(times, failures)


def load(url: str, *, readers: int = 200, rounds: int = 5, must_hold: str = "", timeout: float = 30) -> Load:
    """``readers`` concurrent readers each reading ``url`` ``rounds`` times (bounded by ``timeout`` a read)."""
    return asyncio.run(_readers(url, readers, rounds, must_hold, timeout))


def journal_of(events: int, folder: Path) -> tuple[Path, dict[str, str]]:
    """A SQLite journal holding a generated campaign of ``events`` events; the links of Ana and the GM."""
    db = folder / "journal.db"
    source = generate.campaign_file(events)
    yarnlog = [sys.executable, "-m", "yarnlog", "--db", str(db)]
    subprocess.run([*yarnlog, "import", str(source), "--without-trailer"], check=True, capture_output=True)
    links = {}
    for name in ("Ana", "Maya"):
        done = subprocess.run([*yarnlog, "invite", name, "--json"], check=True, capture_output=True, text=True)
        link = json.loads(done.stdout)["link"]
        links[name] = link[link.index("/c/"):]
    return db, links


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("events", type=int, nargs="?", default=10_000)
    parser.add_argument("--readers", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--port", type=int, default=18480)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        began = time.perf_counter()
        db, links = journal_of(args.events, Path(folder))
        print(f"{args.events:,} events imported and invited in {time.perf_counter() - began:.1f} s")
        server = subprocess.Popen([sys.executable, "-m", "yarnlog", "--db", str(db), "serve", "--port",
                                   str(args.port)], stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{args.port}"
        try:
            for _ in range(300):
                try:
                    httpx.get(base + "/static/site.css")
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            for who, link in links.items():
                began = time.perf_counter()
                assert httpx.get(base + link, timeout=600).status_code == 200
                print(f"first read of {who}'s board after start-up: {(time.perf_counter() - began) * 1000:.0f} ms")
            for readers, rounds in ((1, 200), (args.readers, args.rounds)):
                floor = load(base + "/static/site.css", readers=readers, rounds=rounds)
                board = load(base + links["Ana"], readers=readers, rounds=rounds, must_hold="Tokens")
                print(f"{readers} reader(s) at once, floor (the style sheet): {floor.summary()}")
                print(f"{readers} reader(s) at once, a player's board:        {board.summary()} "
                      f"(x{board.median_ms / floor.median_ms:.1f} the floor)")
            # After a move: the first read folds the new event into the player's view (no replay).
            subprocess.run([sys.executable, "-m", "yarnlog", "--db", str(db), "note", "the bell rings"], check=True,
                           capture_output=True)
            time.sleep(1)  # the server reads the heads every 0.2 s
            began = time.perf_counter()
            assert httpx.get(base + links["Ana"], timeout=600).status_code == 200
            print(f"first read of Ana's board after a move: {(time.perf_counter() - began) * 1000:.0f} ms")
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
