"""The Games pages: the companion's games (``GET /games``) and a new one (``/games/new``).

The same games as ``rummikub game list`` and ``rummikub game new``: the files of the
games folder (:mod:`rummikub.game.store`).
"""

from __future__ import annotations

import contextlib
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from rummikub.game.companion import NewGame
from rummikub.models.errors import RummikubError
from rummikub.models.presets import DEFAULT_PRESET
from rummikub.models.rules import STANDARD, RuleSet
from rummikub.web import forms
from rummikub.web.errors import Refused, one_line, status_of
from rummikub.web.render import keyboard, page
from rummikub.web.security import read_form
from rummikub.web.state import web_state

NEW_FIELDS = ("name", "players", "first", "target", "rack", "preset", "joker_rule", "rules")


def _listing(request: Request) -> list[dict[str, str]]:
    """Each game's name and whose turn it is (or why its file does not read)."""
    desk = web_state(request).desk
    rows = []
    for name in desk.names():
        try:
            status = desk.load(name).history.state.status()
        except RummikubError as error:
            status = f"unreadable: {one_line(error)}"
        rows.append({"name": name, "status": status})
    return rows


async def games(request: Request) -> Response:
    """The list of games."""
    folder = str(web_state(request).desk.store.directory)
    try:
        rows = await run_in_threadpool(_listing, request)
    except RummikubError as error:  # the games folder is not a folder
        context = {"games": [], "folder": folder, "error": one_line(error)}
        return page(request, "games.html", context, status_of(error))
    return page(request, "games.html", {"games": rows, "folder": folder})


def _new_form(request: Request, fields: forms.Fields, error: str | None, status: int) -> Response:
    """The new-game form with what was typed kept, and the keyboard of its rules."""
    rules: RuleSet = STANDARD  # the keyboard of the standard game while the rules are wrong
    with contextlib.suppress(RummikubError, Refused):
        rules = forms.rules(fields)
    context: dict[str, Any] = {
        "fields": fields,
        "keys": keyboard(rules),
        "error": error,
        "default_preset": DEFAULT_PRESET,
    }
    return page(request, "new_game.html", context, status)


def free_name(taken: list[str]) -> str:
    """The first of ``game-1``, ``game-2``, ... not taken: a name that needs no typing."""
    number = 1
    while f"game-{number}" in taken:
        number += 1
    return f"game-{number}"


async def new_game_form(request: Request) -> Response:
    """An empty new-game form (or one with the fields of the address, to redraw it)."""
    fields = {k: v for k, v in request.query_params.items() if k in NEW_FIELDS}
    if "name" not in fields:
        try:
            taken = await run_in_threadpool(web_state(request).desk.names)
        except RummikubError:
            taken = []
        fields["name"] = free_name(taken)
    return _new_form(request, fields, None, 200)


def _create(request: Request, fields: forms.Fields) -> str:
    name = forms.text(fields, "name").strip()
    players = forms.whole(fields, "players", 2, 4, 4)
    first = forms.whole(fields, "first", 0, players - 1, 0)
    target = forms.whole(fields, "target", 1, 100_000, 200)
    rules = forms.rules(fields)
    rack = tuple(forms.tiles(forms.text(fields, "rack"), "rack", rules))
    web_state(request).desk.create(name, NewGame(players, rack, rules, first, target))
    return name


async def new_game(request: Request) -> Response:
    """Start the game the form describes, then show it."""
    fields = await read_form(request)
    try:
        name = await run_in_threadpool(_create, request, fields)
    except Refused as refused:
        return _new_form(request, fields, refused.message, refused.status)
    except RummikubError as error:
        return _new_form(request, fields, one_line(error), status_of(error))
    return RedirectResponse(f"/games/{name}", 303)


routes = [
    Route("/games", games, methods=["GET"]),
    Route("/games/new", new_game_form, methods=["GET"]),
    Route("/games/new", new_game, methods=["POST"]),
]
