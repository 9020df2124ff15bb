"""The players' page served: a Starlette application over one journal, read-only.

Every page lives under a participant's link, ``/c/CAMPAIGN/SECRET/``: the board (live), the
ledger with ``explain`` for each line, the dice statistics, the sheets of the viewer's characters,
the recaps and the digest with its check. Anything else, and any link that is not an open
invitation, answers the same 404, which names no campaign. The board's stream
(``/c/CAMPAIGN/SECRET/events``, server-sent events) sends the viewer's board again whenever the
journal's head moves (polled every :data:`POLL_SECONDS`) and at once on (re)connection, so a page
that lost its connection catches up. The pages carry a strict Content-Security-Policy: the one
script and the style sheet are this server's own files.
"""

from __future__ import annotations

import asyncio
import gzip
import logging
import os
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlencode

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from yarnlog.core.referee import YarnlogError
from yarnlog.render import Templates
from yarnlog.render.templates import shipped_templates
from yarnlog.web.access import participant
from yarnlog.web.pages import Link, NotFound, Pages, Rendered, Report, pages_for
from yarnlog.web.reading import Kept, Reader
from yarnlog.web.seen import Seen

if TYPE_CHECKING:
    from yarnlog.app.journal import Journal

log = logging.getLogger(__name__)

#: How often the journal's heads are read for the live board.
POLL_SECONDS = 0.2
#: A comment line sent on an idle stream, so proxies and the browser keep the connection.
KEEPALIVE_SECONDS = 15.0
#: How long the browser waits before it reconnects a stream that was lost.
RETRY_MS = 1000
#: How many pages are drawn at once (each in a thread): a reader beyond them waits its turn, never
#: turned away. Drawing is Python, so two cores gain nothing from more threads.
DRAWING = 4
#: How many links whose board was read lately are drawn again as soon as the journal moves.
WARM = 64
STATIC = Path(__file__).parent / "static"
#: The web layout and the pages' own templates (the ruleset's recap and sheet extend its page.html.j2).
WEB_TEMPLATES = shipped_templates() / "web"

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": CSP, "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff",
           "Cache-Control": "no-store", "X-Frame-Options": "DENY"}
NOT_FOUND = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not found</title></head>"
             "<body><p>Not found.</p></body></html>\n")


def not_found() -> Response:
    return HTMLResponse(NOT_FOUND, status_code=404, headers=HEADERS)


class Viewer:
    """A request's link checked: the campaign, who it is for, the campaign's pages and templates."""

    def __init__(self, campaign_id: str, secret: str, name: str, pages: Pages, templates: Templates):
        self.campaign_id, self.secret, self.name, self.pages, self.templates = \
            campaign_id, secret, name, pages, templates

    @property
    def base(self) -> str:
        return f"/c/{self.campaign_id}/{self.secret}/"

    def href(self, page: str, arg: Any = None, **query: Any) -> str:
        """The link to ``page`` (with its argument, quoted, and query) under this viewer's link."""
        path = self.base + ("" if page == "board" else page) + (f"/{quote(str(arg), safe='')}" if arg is not None
                                                                   else "")
        given = {k: v for k, v in query.items() if v is not None}
        return path + (f"?{urlencode(given)}" if given else "")


class PlayersPage:
    """The application: ``app`` is the ASGI callable."""

    def __init__(self, journal: Journal, *, poll_seconds: float = POLL_SECONDS):
        self.reader = Reader(journal)
        self.poll_seconds = poll_seconds
        self.moved = asyncio.Condition()
        self.drawing = anyio.CapacityLimiter(DRAWING)
        self._templates: dict[str, Templates] = {}
        self._gzipped = Kept(limit=256)  # the pages as sent compressed, by the key they were drawn under
        #: The boards read lately (link and request): drawn again at each new head, before anyone asks.
        self._warm: OrderedDict[tuple[str, str, str], Request] = OrderedDict()
        page = self._page
        self.app = Starlette(
            routes=[
                Route("/c/{cid}/{secret}/", page(self.board)),
                Route("/c/{cid}/{secret}/board", page(self.board_fragment)),
                Route("/c/{cid}/{secret}/ledger", page(self.ledger)),
                Route("/c/{cid}/{secret}/explain/{n:int}", page(self.explain)),
                Route("/c/{cid}/{secret}/dice", page(self.dice)),
                Route("/c/{cid}/{secret}/sheet/{name:path}", page(self.sheet)),  # a name may hold a slash
                Route("/c/{cid}/{secret}/recap", page(self.recap)),
                Route("/c/{cid}/{secret}/digest", page(self.digest)),
                Route("/c/{cid}/{secret}/events", self.events),
                Mount("/static", StaticFiles(directory=STATIC), name="static"),
            ],
            exception_handlers={404: lambda request, exc: not_found(), 405: lambda request, exc: not_found()},
            lifespan=self._lifespan,
        )

    # -- the journal's heads, polled -----------------------------------------------------------

    @asynccontextmanager
    async def _lifespan(self, app: Starlette) -> AsyncIterator[None]:
        tasks = [asyncio.create_task(self._poll()), asyncio.create_task(self._warm_up())]
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()

    async def _warm_up(self) -> None:
        """Read every campaign and every invited player's view at start-up (from their snapshots), so
        that the first readers find them ready (one who comes sooner waits for the same work)."""
        try:
            await self._thread(self.reader.poll)
            for cid in list(self.reader.heads):
                await self._thread(self.reader.warm, cid)
        except Exception as exc:  # the readers will try again
            log.warning("cannot read the journal at start-up: %s", exc)

    async def _poll(self) -> None:
        while True:
            try:
                moved = await self._thread(self.reader.poll)
                # The campaigns followed are brought to each new head with the boards read lately drawn
                # again at once: the readers who come next find them drawn.
                for cid in moved:
                    if self.reader.is_followed(cid):
                        await self._thread(self._redraw, cid)
            except Exception as exc:  # a database that hiccups: the next poll tries again
                log.warning("cannot read the journal's heads: %s", exc)
                moved = {}
            if moved:
                async with self.moved:
                    self.moved.notify_all()
            await asyncio.sleep(self.poll_seconds)

    async def _thread(self, work: Callable[..., Any], *args: Any) -> Any:
        """``work(*args)`` in a thread, at most :data:`DRAWING` at once (the others wait their turn)."""
        return await anyio.to_thread.run_sync(work, *args, limiter=self.drawing)

    def _redraw(self, cid: str) -> None:
        self.reader.live(cid)
        for (link_cid, secret, _), request in list(self._warm.items()):
            if link_cid == cid:
                self._draw(cid, secret, self.board if request.url.path.endswith("/") else self.board_fragment,
                           request)

    # -- links -----------------------------------------------------------------------------------

    def _viewer(self, cid: str, secret: str) -> Viewer | None:
        if self.reader.head(cid) is None:
            participant(None, secret)  # as long as a campaign's check takes
            return None
        table = self.reader.table(cid)
        name = participant(table.invites, secret)
        if name is None:
            return None
        return Viewer(cid, secret, name, pages_for(table.ruleset), self._templates_of(table.ruleset))

    def _templates_of(self, ruleset: str) -> Templates:
        if ruleset not in self._templates:
            from yarnlog.core.ruleset import get_ruleset

            self._templates[ruleset] = Templates(get_ruleset(ruleset).templates, user=WEB_TEMPLATES)
        return self._templates[ruleset]

    def _page(self, handler: Callable[[Viewer, Request], str]) -> Callable[[Request], Any]:
        """A page behind a link: 404 unless the link is an open invitation; the handler runs in a thread."""

        async def endpoint(request: Request) -> Response:
            cid, secret = request.path_params["cid"], request.path_params["secret"]
            drawn = self._drawn(cid, secret, request)
            if drawn is not None:  # a page already drawn at this head: served from memory, no thread
                return drawn
            response = await self._thread(self._draw, cid, secret, handler, request)
            if handler in (self.board, self.board_fragment) and not request.query_params \
                    and response.status_code == 200:
                self._warm[(cid, secret, request.url.path)] = Request(dict(request.scope))
                self._warm.move_to_end((cid, secret, request.url.path))
                while len(self._warm) > WARM:
                    self._warm.popitem(last=False)
            return response

        return endpoint

    def _draw(self, cid: str, secret: str, handler: Callable[[Viewer, Request], str], request: Request) -> Response:
        """The page drawn for the link, or the 404 (in a thread: it may read the journal)."""
        viewer = self._viewer(cid, secret)
        if viewer is None:
            return not_found()
        # Every page is drawn from what the viewer may see at the head: drawn once per head, and
        # served as drawn to every reader of it until the journal moves.
        key = self._key(cid, viewer.name, request)
        try:
            text = self.reader.page(key, lambda: handler(viewer, request))
        except (NotFound, LookupError, ValueError, YarnlogError):
            return not_found()
        return self._answer(key, text, request)

    def _key(self, cid: str, name: str, request: Request) -> tuple[Any, ...]:
        return cid, self.reader.head(cid), name, request.url.path, str(request.query_params)

    def _drawn(self, cid: str, secret: str, request: Request) -> Response | None:
        """The answer from memory alone (the table and the page as drawn at the head), or ``None``."""
        table = self.reader.kept_table(cid)
        if table is None:
            return None
        name = participant(table.invites, secret)
        if name is None:
            return not_found()
        key = self._key(cid, name, request)
        text = self.reader.kept_page(key)
        return None if text is None else self._answer(key, text, request)

    def _answer(self, key: Any, text: str, request: Request) -> Response:
        """The page, compressed once per head for a browser that takes gzip (a board grows with the
        campaign: its wounds and spends). Only a page whose address has no query: one that echoes what
        a request gave (the digest's check) is never compressed beside the link's secret."""
        if request.query_params or "gzip" not in request.headers.get("accept-encoding", ""):
            return HTMLResponse(text, headers=HEADERS)
        body = self._gzipped.get(key)
        if body is None:
            body = self._gzipped.keep(key, gzip.compress(text.encode(), compresslevel=6, mtime=0))
        return Response(body, media_type="text/html", headers={**HEADERS, "Content-Encoding": "gzip",
                                                               "Vary": "Accept-Encoding"})

    # -- pages -------------------------------------------------------------------------------------

    def _seen(self, viewer: Viewer, request: Request) -> Seen:
        scene = request.query_params.get("end_of_scene")
        if scene is not None and not (scene.isdigit() and 0 < int(scene) < 10**9):
            raise NotFound(scene)
        return self.reader.seen(viewer.campaign_id, viewer.name, int(scene) if scene else None)

    def _html(self, viewer: Viewer, seen: Seen, template: str, *, title: str, live: bool = False,
              **context: Any) -> str:
        nav = [("Board", viewer.href("board"))] + [
            (label, viewer.href(page)) for page, label in (("ledger", "Ledger"), ("dice", "Dice"), ("recap", "Recap"))
            if page in viewer.pages.offered()]
        nav += [(f"Sheet: {c}", viewer.href("sheet", c)) for c in viewer.pages.characters(seen)]
        nav.append(("Digest", viewer.href("digest")))
        text = viewer.templates.render(
            template, nav=nav, page_title=title, live=live, viewer=viewer.name, gm=seen.is_gm,
            campaign=seen.table.title, as_of=seen.upto, href=viewer.href, link_href=self._link_href(viewer),
            **context)
        return text

    @staticmethod
    def _link_href(viewer: Viewer) -> Callable[[Link], str]:
        return lambda link: viewer.href(link.page, link.arg, **dict(link.query))

    def _report(self, viewer: Viewer, request: Request, make: Callable[[Seen], Report], *, live: bool = False,
                scene_links: bool = True) -> str:
        seen = self._seen(viewer, request)
        report = make(seen)
        scene = request.query_params.get("end_of_scene")
        return self._html(viewer, seen, "report.html.j2", title=report.title, report=report,
                          live=live and scene is None, end_of_scene=scene,
                          stream=viewer.href("events") if live else None)

    def board(self, viewer: Viewer, request: Request) -> str:
        return self._report(viewer, request, viewer.pages.board, live=True)

    def board_fragment(self, viewer: Viewer, request: Request) -> str:
        seen = self._seen(viewer, request)
        return self._fragment(viewer, seen)

    def _stream_fragment(self, viewer: Viewer) -> str:
        """The board as a stream sends it, drawn once per head and viewer for all their streams."""
        cid = viewer.campaign_id
        return str(self.reader.page((cid, self.reader.head(cid), viewer.name, "stream"),
                                    lambda: self._fragment(viewer, self.reader.seen(cid, viewer.name))))

    def _fragment(self, viewer: Viewer, seen: Seen) -> str:
        return viewer.templates.render("report_body.html.j2", report=viewer.pages.board(seen), as_of=seen.upto,
                                       link_href=self._link_href(viewer))

    def ledger(self, viewer: Viewer, request: Request) -> str:
        if viewer.pages.ledger is None:
            raise NotFound("ledger")
        return self._report(viewer, request, viewer.pages.ledger)

    def explain(self, viewer: Viewer, request: Request) -> str:
        explain = viewer.pages.explain
        if explain is None:
            raise NotFound("explain")
        n = request.path_params["n"]
        return self._report(viewer, request, lambda seen: explain(seen, n))

    def dice(self, viewer: Viewer, request: Request) -> str:
        if viewer.pages.dice is None:
            raise NotFound("dice")
        return self._report(viewer, request, viewer.pages.dice)

    def _rendered(self, viewer: Viewer, seen: Seen, rendered: Rendered, title: str) -> str:
        return self._html(viewer, seen, rendered.template, title=title, **rendered.context)

    def sheet(self, viewer: Viewer, request: Request) -> str:
        if viewer.pages.sheet is None:
            raise NotFound("sheet")
        seen = self._seen(viewer, request)
        name = request.path_params["name"]
        return self._rendered(viewer, seen, viewer.pages.sheet(seen, name), name)

    def recap(self, viewer: Viewer, request: Request) -> str:
        if viewer.pages.recap is None:
            raise NotFound("recap")
        seen = self._seen(viewer, request)
        episode = request.query_params.get("episode")
        if episode is not None and not episode.isdigit():
            raise NotFound(episode)
        return self._rendered(viewer, seen, viewer.pages.recap(seen, int(episode) if episode else None), "Recap")

    def digest(self, viewer: Viewer, request: Request) -> str:
        from yarnlog.core.digest import parse_digest

        seen = self._seen(viewer, request)
        with self.reader.lock:
            today = self.reader.journal.digest(viewer.campaign_id).line()
        kept = request.query_params.get("kept", "").strip()[:400]
        verdict, ok = None, False
        if kept:
            try:
                with self.reader.lock:
                    problem = self.reader.journal.digest_problem(parse_digest(kept))
                verdict = problem or "The journal extends the digest you kept: nothing was cut or rewritten."
                ok = problem is None
            except YarnlogError as exc:
                verdict, ok = str(exc), False
        return self._html(viewer, seen, "digest.html.j2", title="Digest", digest=today, kept=kept,
                          verdict=verdict, ok=verdict is not None and ok)

    # -- the live board ----------------------------------------------------------------------------

    async def events(self, request: Request) -> Response:
        cid, secret = request.path_params["cid"], request.path_params["secret"]
        viewer = await self._thread(self._viewer, cid, secret)
        if viewer is None:
            return not_found()

        async def stream() -> AsyncIterator[str]:
            sent, shown = None, None
            yield f"retry: {RETRY_MS}\n\n"  # a lost connection is tried again within a second or so
            while True:
                still = await self._thread(self._viewer, cid, secret)
                if still is None:  # revoked while open: the stream ends and says nothing more
                    yield "event: closed\ndata: \n\n"
                    return
                head = self.reader.head(cid)
                if head != sent:
                    html = await self._thread(self._stream_fragment, still)
                    sent = head
                    # Only a board that changed is sent: an event the viewer may not see changes nothing.
                    if html != shown:
                        shown = html
                        yield "event: board\n" + "".join(f"data: {line}\n" for line in html.splitlines()) + "\n"
                if await request.is_disconnected():
                    return
                try:
                    async with self.moved:
                        await asyncio.wait_for(self.moved.wait(), KEEPALIVE_SECONDS)
                except asyncio.TimeoutError:
                    yield ": keep-alive\n\n"

        headers = {**HEADERS, "X-Accel-Buffering": "no"}
        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)


def make_app(journal: Journal, **options: Any) -> Starlette:
    """The players' page over ``journal``, as an ASGI application."""
    return PlayersPage(journal, **options).app


#: Where a worker process of ``yarnlog serve --workers N`` finds the journal it serves.
DB_VARIABLE = "YARNLOG_SERVE_DB"


def app_from_environment() -> Starlette:
    """The players' page over the journal :data:`DB_VARIABLE` names: each worker process of
    ``yarnlog serve --workers N`` makes its own (uvicorn's factory), reading and following the journal
    on its own."""
    from yarnlog.app.bootstrap import bootstrap

    return make_app(bootstrap(os.environ.get(DB_VARIABLE) or None))
