"""How the web app says no: one readable line with a 4xx status, as a page or as JSON.

The library's errors (:class:`~rummikub.models.errors.RummikubError`) already carry one
line each; :class:`Refused` is the app's own (a bad field, a missing token, a stale page).
JSON goes to the API's paths (``/api/...`` and those ending in ``.json``) and to requests
that ask for it; everything else gets a page.
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.types import Scope

from rummikub.models.errors import RummikubError


class Refused(Exception):
    """A request the app will not answer as asked: the HTTP status and one line why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = " ".join(message.split())


def one_line(error: BaseException) -> str:
    """An error's message on one line."""
    return " ".join(str(error).split())


def status_of(error: RummikubError) -> int:
    """The HTTP status of a library error: 404 for a game that does not exist, 409 for a
    game changed meanwhile (or since the page was shown), else 400 (bad input, as the
    command line's exit status 2)."""
    from rummikub.game.store import GameChangedError, NoSuchGameError
    from rummikub.web.desk import StaleGameError

    if isinstance(error, NoSuchGameError):
        return 404
    if isinstance(error, GameChangedError | StaleGameError):
        return 409
    return 400


def wants_json(scope: Scope) -> bool:
    """Whether the answer to this request is JSON (the API, or a script's JSON request)."""
    path: str = scope.get("path", "")
    if path.startswith("/api/") or path.endswith(".json"):
        return True
    return Headers(scope=scope).get("accept", "").startswith("application/json")


def refusal(scope: Scope, refused: Refused) -> Response:
    """The response that says no: ``{"error": line}`` or a page holding the line."""
    if wants_json(scope):
        return JSONResponse({"error": refused.message}, refused.status)
    from rummikub.web.templates_env import bare_page

    return HTMLResponse(bare_page(refused.status, refused.message), refused.status)
