"""The players' page under load: many readers of the board at once, on a generated campaign.

A campaign of EVENTS events (``bench/generate.py``: the sample's mix, repeated) is imported into a
SQLite journal (kept in ``--keep DIR`` between runs if given: a 1M-event import takes long), a
player and the GM get their links, and ``yarnlog serve`` runs in a process of its own on 127.0.0.1.

- **First reads**: the board read once after start-up, by the player and by the GM, in a server
  started on a journal no server has read (no state snapshot: the campaign's state and the player's
  view replayed once, and kept as snapshots), then again after a restart (from those snapshots:
  no replay), and the first read after a move (the new event folded into what is kept).
- **Load**: READERS concurrent readers, a connection each, each reading a player's board ROUNDS
  times back to back (the next read as soon as the last answered): every answer must be a 200 with
  the board. The median and p95 are the time from sending a request to the last byte of its answer.
The readers send ``Accept-Encoding: gzip`` as browsers do (the server compresses a page once per head).

- **Floor**: a bare Starlette endpoint returning a constant as long as the board on the wire, under uvicorn with
  the server's own settings, read the same way in the same run, in turns with the board (three
  times each, the reads pooled): what uvicorn and Starlette cost alone on this machine.

Both with one process and with ``--workers`` processes (``yarnlog serve --workers N``). The readers
are one asyncio process speaking HTTP/1.1 on raw connections (httpx costs the readers' process more
than the server costs: it measured itself).

Usage: python bench/players_page.py [EVENTS] [--readers 200] [--rounds 10] [--workers 2] [--keep DIR]
                                    [--kept-views]
       python bench/players_page.py --floor PORT BYTES [--workers N]   (the floor's server alone)
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate  # noqa: E402

#: The settings ``yarnlog serve`` gives uvicorn, for the floor.
UVICORN = {"access_log": False, "log_level": "warning", "timeout_graceful_shutdown": 1, "backlog": 4096}


@dataclass
class Load:
    """What the readers met: each answer's time in seconds, and the answers that were not the page."""

    times: list[float]
    failures: list[str]
    wall: float = 0.0

    @property
    def median_ms(self) -> float:
        return statistics.median(self.times) * 1000

    @property
    def p95_ms(self) -> float:
        return statistics.quantiles(self.times, n=20)[-1] * 1000 if len(self.times) > 1 else self.median_ms

    def add(self, other: Load) -> None:
        self.times += other.times
        self.failures += other.failures
        self.wall += other.wall

    def summary(self) -> str:
        rate = len(self.times) / self.wall if self.wall else 0
        return (f"{len(self.times)} reads, median {self.median_ms:.1f} ms, p95 {self.p95_ms:.1f} ms, "
                f"max {max(self.times) * 1000:.1f} ms, {rate:.0f} reads/s, {len(self.failures)} failed")


async def _get(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes,
               wire: list[int] | None = None, unzipped: dict[bytes, bytes] | None = None) -> tuple[int, bytes]:
    """One request on a kept-alive connection: the status and the body (uvicorn sends its length),
    unzipped if it came compressed (its size on the wire added to ``wire``; a body already unzipped
    once is taken from ``unzipped``: the readers' process must not cost more than the server)."""
    writer.write(request)
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head[9:12])
    length, zipped = 0, False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
        elif name.strip().lower() == b"content-encoding":
            zipped = value.strip() == b"gzip"
    body = await reader.readexactly(length)
    if wire is not None:
        wire.append(len(head) + length)
    if not zipped:
        return status, body
    if unzipped is None:
        return status, gzip.decompress(body)
    if body not in unzipped:
        unzipped[body] = gzip.decompress(body)
    return status, unzipped[body]


def _request(url: str) -> bytes:
    """A GET as a browser sends it (it takes gzip)."""
    parts = urlsplit(url)
    return (f"GET {parts.path}{'?' + parts.query if parts.query else ''} HTTP/1.1\r\n"
            f"Host: {parts.hostname}:{parts.port}\r\nAccept-Encoding: gzip, deflate\r\n\r\n").encode()


async def _readers(url: str, readers: int, rounds: int, must_hold: str, timeout: float, same_as: bytes | None,
                   ) -> Load:
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    request = _request(url)
    needle = must_hold.encode()
    times: list[float] = []
    failures: list[str] = []
    start = asyncio.Event()
    unzipped: dict[bytes, bytes] = {}

    async def reader_task() -> None:
        try:
            connection = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
        except (OSError, asyncio.TimeoutError) as exc:
            failures.extend([type(exc).__name__] * rounds)
            return
        stream, writer = connection
        await start.wait()
        try:
            for done in range(rounds):
                began = time.perf_counter()
                try:
                    status, body = await asyncio.wait_for(_get(stream, writer, request, None, unzipped), timeout)
                except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError) as exc:
                    failures.extend([type(exc).__name__] * (rounds - done))  # the connection is lost
                    return
                took = time.perf_counter() - began
                if status != 200 or needle not in body:
                    failures.append(str(status))
                elif same_as is not None and body != same_as:
                    failures.append("another page")
                else:
                    times.append(took)
        finally:
            writer.close()

    tasks = [asyncio.create_task(reader_task()) for _ in range(readers)]
    await asyncio.sleep(0.5)  # every connection open before the first request
    began = time.perf_counter()
    start.set()
    await asyncio.wait_for(asyncio.gather(*tasks), timeout * rounds + 30)
    return Load(times, failures, time.perf_counter() - began)


def load(url: str, *, readers: int = 200, rounds: int = 10, must_hold: str = "", timeout: float = 30,
         same_as: bytes | None = None) -> Load:
    """``readers`` concurrent readers each reading ``url`` ``rounds`` times (bounded by ``timeout`` a read):
    an answer is a failure unless it is a 200 holding ``must_hold`` (and ``same_as`` byte for byte, if given)."""
    return asyncio.run(_readers(url, readers, rounds, must_hold, timeout, same_as))


def page(url: str, timeout: float = 600, wire: list[int] | None = None) -> bytes:
    """One read of ``url``: its body (unzipped), its size on the wire added to ``wire``."""
    return asyncio.run(asyncio.wait_for(_body(url, wire), timeout))


def journal_of(events: int, folder: Path) -> tuple[Path, dict[str, str]]:
    """A SQLite journal holding a generated campaign of ``events`` events; the links of Ana and the GM.
    A journal already in ``folder`` (with its links in ``links.json``) is used as it is."""
    db, kept = folder / "journal.db", folder / "links.json"
    if db.exists() and kept.exists():
        return db, json.loads(kept.read_text())
    source = generate.campaign_file(events)
    yarnlog = [sys.executable, "-m", "yarnlog", "--db", str(db)]
    subprocess.run([*yarnlog, "import", str(source), "--without-trailer"], check=True, capture_output=True)
    links = {}
    for name in ("Ana", "Maya"):
        done = subprocess.run([*yarnlog, "invite", name, "--json"], check=True, capture_output=True, text=True)
        link = json.loads(done.stdout)["link"]
        links[name] = link[link.index("/c/"):]
    kept.write_text(json.dumps(links))
    return db, links


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(port: int, seconds: float = 600) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise TimeoutError(f"nothing listens on port {port}")


@contextmanager
def running(command: list[str], port: int) -> Iterator[str]:
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    try:
        wait_for(port)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(30)


def serve(db: Path, port: int, workers: int = 1) -> list[str]:
    return [sys.executable, "-m", "yarnlog", "--db", str(db), "serve", "--port", str(port), "--workers", str(workers)]


def floor(port: int, size: int, workers: int = 1) -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), "--floor", str(port), str(size), "--workers", str(workers)]


def serve_floor(port: int, size: int, workers: int) -> None:
    """A bare Starlette endpoint answering ``size`` bytes of constant HTML, under uvicorn as ``serve`` runs it."""
    import os

    import uvicorn

    os.environ["YARNLOG_FLOOR_BYTES"] = str(size)
    uvicorn.run("players_page:floor_app", factory=True, port=port, workers=workers, app_dir=str(Path(__file__).parent),
                **UVICORN)  # type: ignore[arg-type]


def floor_app() -> object:
    import os

    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse
    from starlette.routing import Route

    text = ("<p>Tokens</p>" + "x" * int(os.environ["YARNLOG_FLOOR_BYTES"]))[:int(os.environ["YARNLOG_FLOOR_BYTES"])]

    async def constant(request: object) -> HTMLResponse:
        return HTMLResponse(text)

    return Starlette(routes=[Route("/", constant)])


def timed_read(url: str) -> float:
    """One read of ``url`` (must be a 200), in ms."""
    found = load(url, readers=1, rounds=1, timeout=3600)
    assert not found.failures, found.failures
    return found.times[0] * 1000


def first_reads(db: Path, links: dict[str, str], label: str) -> None:
    port = free_port()
    began = time.perf_counter()
    with running(serve(db, port), port) as base:
        print(f"{label}: server up in {(time.perf_counter() - began):.1f} s")
        for who, link in links.items():
            print(f"{label}: first read of {who}'s board: {timed_read(base + link):.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("events", type=int, nargs="?", default=10_000)
    parser.add_argument("--readers", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="a folder to keep the journal in between runs")
    parser.add_argument("--kept-views", action="store_true",
                        help="keep the players' views already in the journal and skip the first reads (a 1M "
                             "journal's first start replays for many minutes: time it once, apart)")
    parser.add_argument("--floor", type=int, nargs=2, metavar=("PORT", "BYTES"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.floor:
        serve_floor(args.floor[0], args.floor[1], args.workers)
        return
    folder = args.keep or Path(tempfile.mkdtemp())
    folder.mkdir(parents=True, exist_ok=True)
    try:
        began = time.perf_counter()
        db, links = journal_of(args.events, folder)
        print(f"{args.events:,} events imported and invited in {time.perf_counter() - began:.1f} s")
        if not args.kept_views:
            subprocess.run([sys.executable, "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                            "c.execute(\"DELETE FROM snapshots WHERE kind LIKE 'seen:%'\"); c.commit()", str(db)],
                           check=True)
            first_reads(db, links, "no player's view kept")
            first_reads(db, links, "after a restart (from the snapshots)")
        board_url = links["Ana"]
        for workers in sorted({1, args.workers}):
            port = free_port()
            with running(serve(db, port, workers), port) as base:
                # Each worker reads the campaign once before the load (from the snapshots, at start-up).
                first = [timed_read(base + board_url) for _ in range(workers * 4)]
                print(f"{workers} process(es), reads of Ana's board after start-up: "
                      f"{', '.join(f'{t:.0f}' for t in first)} ms")
                wire: list[int] = []
                html = len(page(base + board_url, wire=wire))
                size = wire[0]  # the floor answers as many bytes as the board takes on the wire
                print(f"the board: {html:,} B of HTML, {size:,} B on the wire (gzip, as a browser takes it)")
                floor_port = free_port()
                with running(floor(floor_port, size, workers), floor_port) as floor_base:
                    for readers, rounds in ((1, 200), (args.readers, args.rounds)):
                        # Floor and board in turns, three times, each one's reads pooled: a machine whose
                        # load moves weighs on both alike.
                        bare, board = Load([], []), Load([], [])
                        for _ in range(3):
                            bare.add(load(floor_base + "/", readers=readers, rounds=rounds, must_hold="Tokens"))
                            board.add(load(base + board_url, readers=readers, rounds=rounds, must_hold="Tokens"))
                        print(f"{workers} process(es), {readers} reader(s) at once, floor (bare Starlette, "
                              f"{size} B): {bare.summary()}")
                        print(f"{workers} process(es), {readers} reader(s) at once, a player's board: "
                              f"{board.summary()} (median x{board.median_ms / bare.median_ms:.1f} the floor)")
                if workers == 1:
                    # After a move: the first read finds the new event folded into what is kept, drawn.
                    subprocess.run([sys.executable, "-m", "yarnlog", "--db", str(db), "note", "the bell rings"],
                                   check=True, capture_output=True)
                    time.sleep(2)  # the server reads the heads every 0.2 s
                    print(f"first read of Ana's board after a move: {timed_read(base + board_url):.0f} ms")
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


async def _body(url: str, wire: list[int] | None = None) -> bytes:
    parts = urlsplit(url)
    stream, writer = await asyncio.open_connection(parts.hostname, parts.port)
    try:
        return (await _get(stream, writer, _request(url), wire))[1]
    finally:
        writer.close()


if __name__ == "__main__":
    main()
