"""The web app: its routes (one module per page), its gate, how it answers errors.

:func:`create_app` makes the ASGI app that ``rummikub serve`` runs (any ASGI server can
run it: ``uvicorn --factory`` with a function that calls it). Bad input of any kind is a
4xx with one readable line; an error the library raises on input it accepted is a bug,
answered 500 with one line to report, never a traceback.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from rummikub.models.errors import InternalError, RummikubError
from rummikub.web import advice_page, api, game_page, games_page, solve_page
from rummikub.web.config import WebConfig
from rummikub.web.errors import Refused, one_line, refusal, status_of, wants_json
from rummikub.web.security import Gate
from rummikub.web.state import WebState
from rummikub.web.templates_env import bare_page

STATIC = Path(__file__).parent / "static"
logger = logging.getLogger("rummikub.web")

# Scripts and styles only from this server; no frames; forms only to it.
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; script-src 'self'; form-action 'self'; frame-ancestors 'none'; "
    "base-uri 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",  # "no-referrer" would make form posts "Origin: null"
}


async def home(request: Request) -> Response:
    """The games, where a player at a table starts."""
    return RedirectResponse("/games", 303)


async def _refused(request: Request, error: Exception) -> Response:
    if not isinstance(error, Refused):
        raise InternalError("the Refused handler was given another exception")
    return refusal(request.scope, error)


async def _library_error(request: Request, error: Exception) -> Response:
    if not isinstance(error, RummikubError):
        raise InternalError("the RummikubError handler was given another exception")
    return refusal(request.scope, Refused(status_of(error), one_line(error)))


async def _http_error(request: Request, error: Exception) -> Response:
    if not isinstance(error, HTTPException):
        raise InternalError("the HTTPException handler was given another exception")
    message = {
        404: f"no page at {request.url.path[:80]}",
        405: f"{request.method} is not how {request.url.path[:80]} is used",
    }.get(error.status_code, str(error.detail))
    return refusal(request.scope, Refused(error.status_code, message))


async def _gone(request: Request, error: Exception) -> Response:
    """The client hung up before its request was whole: no one to answer, nothing wrong."""
    return Response(status_code=400)


async def _bug(request: Request, error: Exception) -> Response:
    """Anything else is a bug: one line to report, logged with its traceback."""
    logger.exception("internal error on %s %s", request.method, request.url.path)
    line = f"internal error (a bug in rummikub; please report this line): {type(error).__name__}"
    line += f": {one_line(error)}"[:300]
    if wants_json(request.scope):
        return JSONResponse({"error": line}, 500)
    return HTMLResponse(bare_page(500, line), 500)


class _Headers:
    """Add :data:`SECURITY_HEADERS` to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def with_headers(message: dict[str, object]) -> None:
            """Send ``message``, the response's start with the headers added."""
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))  # type: ignore[call-overload]
                headers += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)  # type: ignore[arg-type]


class _Stopping:
    """A request the server's stop cuts short (Ctrl-C while a solve runs past the grace
    period): a readable 503 instead of uvicorn's bare 500 and a traceback in the terminal.
    Found by review."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def tracked(message: dict[str, object]) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracked)  # type: ignore[arg-type]
        except asyncio.CancelledError:
            if scope["type"] != "http" or started:
                raise
            stopping = Refused(503, "the server is stopping: ask again once it is back")
            await refusal(scope, stopping)(scope, receive, send)


def _routes() -> list[BaseRoute]:
    return [
        Route("/", home, methods=["GET"]),
        *solve_page.routes,
        *games_page.routes,
        *advice_page.routes,  # before a game's other actions: /games/NAME/advise
        *game_page.routes,
        *api.routes,
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]


def create_app(config: WebConfig | None = None) -> Starlette:
    """The web app with ``config`` (loopback, no token, the default games folder)."""
    config = config or WebConfig()
    state = WebState.of_config(config)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        """Nothing to open; on the way out, end every advice run."""
        yield
        state.jobs.close()

    app = Starlette(
        routes=_routes(),
        middleware=[
            Middleware(_Headers),
            Middleware(_Stopping),  # inside _Headers: its 503 has the security headers too
            Middleware(Gate, config=config),
        ],
        exception_handlers={
            Refused: _refused,
            RummikubError: _library_error,
            HTTPException: _http_error,
            ClientDisconnect: _gone,
            Exception: _bug,
        },
        lifespan=lifespan,
    )
    app.state.web = state
    return app
