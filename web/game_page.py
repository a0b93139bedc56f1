"""A game's page (``/games/NAME``): the table, your rack, the opponents, the pool, and one
tap for each thing that happens at the table; its best move and its odds.

What a tap records is the event ``rummikub game NAME ...`` records
(:mod:`rummikub.game.companion`), checked by the companion and written by the store; an
opponent's tiles put down are laid out by :func:`rummikub.game.placed.lay_out`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from rummikub.game.companion import (
    Drew,
    Event,
    GameState,
    IllegalEventError,
    NewRound,
    OpponentDrew,
    OpponentPlayed,
    Passed,
    Played,
    Redo,
    Scored,
    Undo,
    apply,
    skipped,
)
from rummikub.game.events import seats_text
from rummikub.game.placed import lay_out
from rummikub.game.store import StoredGame, check_name
from rummikub.game.table_edits import apply_edits
from rummikub.models.errors import RummikubError
from rummikub.solver import Limit, solve
from rummikub.web import forms
from rummikub.web.errors import Refused, one_line, status_of
from rummikub.web.render import keyboard, move_view, page, table_picture, tile_views
from rummikub.web.security import read_form
from rummikub.web.state import WebState, web_state

Maker = Callable[[GameState], Event]
ACTIONS = ("drew", "draw", "placed", "table", "play", "pass", "undo", "redo", "score", "round")


def seat_name(seat: int) -> str:
    """``you`` or ``opponent N``."""
    return "you" if seat == 0 else f"opponent {seat}"


def game_name(request: Request) -> str:
    """The game's name in the address, if it can name a game (else 404)."""
    name: str = request.path_params["name"]
    try:
        return check_name(name)
    except RummikubError as error:
        raise Refused(404, one_line(error)) from None


def game_context(game: StoredGame) -> dict[str, Any]:
    """What the game page shows of ``game``."""
    history = game.history
    state = history.state
    result = state.result
    return {
        "name": game.name,
        "seen": game.version,
        "state": state,
        "status": state.status(),
        "table": table_picture(state.table) if state.table else None,
        "table_text": " | ".join(str(meld) for meld in state.table),
        "rack": tile_views(state.rack),
        "rack_value": state.rules.rack_penalty(state.rack),
        "opponents": [
            {"seat": s, "size": state.rack_sizes[s], "opened": state.opened[s]}
            for s in range(1, state.players)
        ],
        "unseen_keys": keyboard(state.rules, state.unseen()),
        "deal_keys": keyboard(state.rules),
        "can_undo": len(history.done) > 1,
        "can_redo": bool(history.undone),
        "history": [event.describe() for event, _ in history.done],
        "last": history.last.describe(),
        "scores": [(seat_name(s), v) for s, v in enumerate(result.scores)] if result else [],
        "totals": [(seat_name(s), v) for s, v in enumerate(state.totals)],
        "warning": game.warning,
        "seat_name": seat_name,
    }


def _game_page(
    request: Request,
    game: StoredGame,
    fields: forms.Fields | None = None,
    error: str | None = None,
    status: int = 200,
) -> Response:
    context = game_context(game)
    context.update(
        fields=fields or {}, error=error, note=request.query_params.get("note", "")[:2000]
    )
    return page(request, "game.html", context, status)


async def game_page(request: Request) -> Response:
    """The game as it stands."""
    name = game_name(request)
    game = await run_in_threadpool(web_state(request).desk.load, name)
    return _game_page(request, game)


def _seat(fields: forms.Fields) -> int:
    return forms.whole(fields, "seat", 1, 3, 1)


def _one_tile(fields: forms.Fields, state: GameState) -> Drew:
    tiles = forms.tiles(forms.text(fields, "tile"), "tile", state.rules)
    if len(tiles) != 1:
        raise forms.FieldError(f"tile: one tile drawn, got {len(tiles)}")
    return Drew(tiles[0])


def _racks(fields: forms.Fields, state: GameState) -> Scored:
    """The opponents' racks at the end of a round (``rack1``.. in seat order; ``-`` or
    nothing for an empty rack)."""
    racks = []
    for seat in range(1, state.players):
        text = forms.text(fields, f"rack{seat}").strip()
        what = f"{seat_name(seat)}'s rack"
        racks.append(tuple(forms.tiles("" if text == "-" else text, what, state.rules)))
    return Scored(tuple(racks))


def _turn_of(action: str, fields: forms.Fields) -> int | None:
    """The seat whose turn the event of ``action`` is (None: not a turn)."""
    if action in ("drew", "placed", "table"):
        return _seat(fields)
    return 0 if action in ("play", "draw", "pass") else None


def _in_turn(seat: int | None, make: Maker) -> Maker:
    """``make``, refusing a turn of ``seat`` before the seats to play first have played:
    the game would record that they drew (the terminal asks, or takes --skip)."""
    if seat is None:
        return make

    def checked(state: GameState) -> Event:
        event = make(state)
        apply(state, event)  # first what is wrong with the event itself, as the terminal does
        seats = skipped(state, seat) if state.ended is None else ()
        if seats:
            verb = "has" if len(seats) == 1 else "have"
            raise IllegalEventError(
                f"{seats_text(seats)} {verb} not played yet: record their turns first "
                "(drew, or what they played); nothing was recorded"
            )
        return event

    return checked


def _maker(action: str, fields: forms.Fields, notes: list[str], web: WebState) -> Maker:
    """How to make the event of ``action`` from the game's state (read under its lock)."""
    if action == "drew":
        seat = _seat(fields)
        return lambda state: OpponentDrew(seat)
    if action == "placed":
        seat = _seat(fields)

        def placed(state: GameState) -> Event:
            """The play laid out from the tiles put down (its note kept for the page)."""
            tiles = forms.tiles(forms.text(fields, "placed"), "placed", state.rules)
            with web.solves:  # a solve like any other: it waits for a free core
                layout = lay_out(state, seat, tiles, limit=Limit(web.config.solve_seconds))
            if layout.note:
                notes.append(layout.note)
            return layout.event

        return placed
    if action == "table":
        seat = _seat(fields)
        text = forms.text(fields, "table")
        return lambda state: OpponentPlayed(seat, apply_edits(text, state.table, state.rules))
    if action == "play":
        text = forms.text(fields, "table")
        return lambda state: Played(apply_edits(text, state.table, state.rules))
    if action == "draw":
        return lambda state: _one_tile(fields, state)
    if action == "score":
        return lambda state: _racks(fields, state)
    if action == "round":
        first = forms.whole(fields, "first", 0, 3, 0)
        text = forms.text(fields, "rack")
        return lambda state: NewRound(tuple(forms.tiles(text, "rack", state.rules)), first)
    simple: dict[str, Callable[[], Event]] = {"pass": Passed, "undo": Undo, "redo": Redo}
    make = simple[action]
    return lambda state: make()


async def record(request: Request) -> Response:
    """Record what a tap said happened, then show the game (or say why not)."""
    name = game_name(request)
    action: str = request.path_params["action"]
    if action not in ACTIONS:
        raise Refused(404, f"no such thing to record: {action[:40]!r}")
    fields = await read_form(request)
    web = web_state(request)
    desk = web.desk
    notes: list[str] = []
    try:
        seen = forms.text(fields, "seen").strip() or None
        maker = _in_turn(_turn_of(action, fields), _maker(action, fields, notes, web))
        await run_in_threadpool(desk.record, name, maker, seen)
    except (RummikubError, Refused) as error:
        status = error.status if isinstance(error, Refused) else status_of(error)
        if status == 404:
            raise
        game = await run_in_threadpool(desk.load, name)
        return _game_page(request, game, fields, one_line(error), status)
    query = f"?{urlencode({'note': notes[0]})}" if notes else ""
    return RedirectResponse(f"/games/{name}{query}", 303)


def _ended(request: Request, game: StoredGame, what: str) -> Response | None:
    """The game's page saying there is nothing to look for when the round is over."""
    state = game.history.state
    if state.ended is None:
        return None
    return _game_page(request, game, error=f"{state.status()}: no {what}", status=400)


def _best(request: Request, game: StoredGame) -> dict[str, Any]:
    state = web_state(request)
    with state.solves:
        move = solve(game.history.state.position(), limit=Limit(state.config.solve_seconds))
    return {**game_context(game), "best": move_view(move)}


async def best_page(request: Request) -> Response:
    """Your best move now, and the button that records it as played."""
    game = await run_in_threadpool(web_state(request).desk.load, game_name(request))
    ended = _ended(request, game, "move to look for")
    if ended is not None:
        return ended
    context = await run_in_threadpool(_best, request, game)
    state: GameState = context["state"]
    context["note"] = "" if state.to_play == 0 else f"note: {state.status()}"
    return page(request, "best.html", context)


def _odds(request: Request, game: StoredGame) -> dict[str, Any]:
    from rummikub.analysis.position import analyze

    state = web_state(request)
    with state.solves:
        analysis = analyze(game.history.state.position(), limit=Limit(state.config.solve_seconds))
    going = [o for o in analysis.outs if o.goes_out]
    return {
        **game_context(game),
        "chance": analysis.p_go_out_next,
        "going": tile_views(o.tile for o in going),
        "going_count": sum(o.unseen for o in going),
        "unseen_count": sum(o.unseen for o in analysis.outs),
        "unplayable": [(tile_views([u.tile])[0], u.reason) for u in analysis.unplayable],
    }


async def odds_page(request: Request) -> Response:
    """Your chance to go out next turn, the draws that do it, the tiles no move places."""
    game = await run_in_threadpool(web_state(request).desk.load, game_name(request))
    ended = _ended(request, game, "odds to work out")
    if ended is not None:
        return ended
    context = await run_in_threadpool(_odds, request, game)
    return page(request, "odds.html", context)


routes = [
    Route("/games/{name}", game_page, methods=["GET"]),
    Route("/games/{name}/best", best_page, methods=["GET"]),
    Route("/games/{name}/odds", odds_page, methods=["GET"]),
    Route("/games/{name}/{action}", record, methods=["POST"]),
]
