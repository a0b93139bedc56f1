"""The JSON API: ``POST /api/solve`` and ``POST /api/check``, for other programs.

The body is a position as ``rummikub solve -`` reads it (JSON, or the text format); the
answer is what ``rummikub solve --json`` (``--top K --json``) or ``rummikub check --json``
prints, a bad one ``{"error": line}`` with a 4xx status. Options go in the query as the
command line's options are named (``?objective=value&top=3&time_limit=5``). Stateless:
any number of servers can answer it. Described by ``GET /openapi.json`` and ``GET /api``.
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from rummikub.models.errors import IllegalMeldError, IllegalPositionError, RummikubError
from rummikub.models.position import Position
from rummikub.models.presets import parse_rules_line
from rummikub.solver import Limit, solve, solve_top
from rummikub.steps.report import move_json, ranked_json
from rummikub.web import forms
from rummikub.web.errors import Refused, one_line
from rummikub.web.openapi import CHECK_PARAMETERS, SOLVE_PARAMETERS, spec
from rummikub.web.render import page
from rummikub.web.state import WebState, web_state

MAX_TOP = 100  # as --top


def _switch(request: Request, name: str, default: bool) -> bool:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in ("1", "true", "yes", "on", ""):
        return True
    if word in ("0", "false", "no", "off"):
        return False
    raise Refused(400, f"{name}: true or false, got {raw[:20]!r}")


def _only_known(request: Request, parameters: list[dict[str, Any]]) -> None:
    """Refuse a query option the endpoint does not take (``keep-jokers`` for
    ``keep_jokers`` would otherwise be ignored, and the answer quietly another)."""
    known = [p["name"] for p in parameters]
    for name in request.query_params:
        if name not in known and name != "token":
            raise Refused(
                400, f"unknown option {name[:30]!r}: this endpoint takes {', '.join(known)}"
            )


async def _position(request: Request) -> Position:
    """The body's position, under the ``rules`` of the query when given (as --rules)."""
    body = await request.body()
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise Refused(400, f"not UTF-8 text (bad byte at offset {error.start})") from None
    spec_text = request.query_params.get("rules")
    try:
        rules = parse_rules_line(spec_text, "rules") if spec_text else None
        position = Position.parse(text, rules)
    except RecursionError:
        raise Refused(400, "input nested too deeply") from None
    if _switch(request, "initial", False) and not position.initial:
        position = Position(position.table, position.rack, True, position.rules)
    return position


def _solved(
    position: Position, query: dict[str, str], flags: dict[str, bool], state: WebState
) -> dict[str, Any]:
    """The move (or the ``top`` moves) as JSON, under the query's options."""
    objective = forms.choice(query, "objective", ("tiles", "value"), "tiles")
    config = state.config
    limit = Limit(forms.seconds(query, "time_limit", config.max_seconds, config.solve_seconds))
    keep_jokers = flags["keep_jokers"]
    with state.solves:
        if query.get("top"):
            top = forms.whole(query, "top", 1, MAX_TOP, 1)
            ranked = solve_top(
                position, top, objective=objective, keep_jokers=keep_jokers, limit=limit
            )
            return ranked_json(ranked)
        move = solve(position, objective=objective, keep_jokers=keep_jokers, limit=limit)
    return move_json(move, steps=flags["steps"])


async def solve_api(request: Request) -> Response:
    """``POST /api/solve``: the best move as ``rummikub solve --json`` prints it."""
    _only_known(request, SOLVE_PARAMETERS)
    try:
        position = await _position(request)
        query = dict(request.query_params)
        flags = {
            "keep_jokers": _switch(request, "keep_jokers", False),
            "steps": _switch(request, "steps", True),
        }
        answer = await run_in_threadpool(_solved, position, query, flags, web_state(request))
    except RummikubError as error:
        raise Refused(400, one_line(error)) from None
    return JSONResponse(answer)


async def check_api(request: Request) -> Response:
    """``POST /api/check``: ``{"legal": true, ...}`` as ``rummikub check --json`` prints it;
    a position that reads but breaks a rule: 422 ``{"legal": false, "error": line}``."""
    _only_known(request, CHECK_PARAMETERS)
    try:
        position = await _position(request)
    except (IllegalMeldError, IllegalPositionError) as error:
        return JSONResponse({"legal": False, "error": one_line(error)}, 422)
    except RummikubError as error:
        raise Refused(400, one_line(error)) from None
    return JSONResponse({"legal": True, **position.to_json()})


async def openapi_json(request: Request) -> Response:
    """The API's OpenAPI document."""
    return JSONResponse(spec(web_state(request).config.token is not None))


async def api_page(request: Request) -> Response:
    """The API's description as a page."""
    document = spec(web_state(request).config.token is not None)
    return page(request, "api.html", {"spec": document})


routes = [
    Route("/api/solve", solve_api, methods=["POST"]),
    Route("/api/check", check_api, methods=["POST"]),
    Route("/openapi.json", openapi_json, methods=["GET"]),
    Route("/api", api_page, methods=["GET"]),
]
