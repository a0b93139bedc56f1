"""The Solve page (``GET /solve``): a position by taps or notation, its best move.

A ``GET`` form, so a solved position is an address that can be kept or shared; it solves
when ``go`` is sent (the Best move button), else it only shows the form (for example after
the rules changed, to redraw the keyboard for them).
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from rummikub.models.errors import RummikubError
from rummikub.models.presets import DEFAULT_PRESET
from rummikub.models.rules import STANDARD
from rummikub.solver import Limit, solve, solve_top
from rummikub.web import forms
from rummikub.web.errors import Refused, one_line
from rummikub.web.render import keyboard, move_view, page, ranked_views
from rummikub.web.state import WebState, web_state

FIELDS = ("table", "rack", "initial", "preset", "joker_rule", "rules", "objective", "keep_jokers")
OBJECTIVES = ("tiles", "value")
MAX_TOP = 10
EMPTY_RACK = "Nothing to place: the rack is empty."


def _answer(fields: forms.Fields, state: WebState) -> dict[str, Any]:
    """Solve the form's position: the best move, or the ``top`` best, as views."""
    position = forms.position(fields)
    objective = forms.choice(fields, "objective", OBJECTIVES, "tiles")
    keep_jokers = forms.flag(fields, "keep_jokers")
    top = forms.whole(fields, "top", 1, MAX_TOP, 1)
    config = state.config
    limit = Limit(forms.seconds(fields, "seconds", config.max_seconds, config.solve_seconds))
    if not position.rack:
        return {"rules_used": position.rules, "notice": EMPTY_RACK}
    with state.solves:
        if top > 1:
            ranked = solve_top(
                position, top, objective=objective, keep_jokers=keep_jokers, limit=limit
            )
            views, verdict = ranked_views(ranked)
            return {"rules_used": position.rules, "moves": views, "verdict": verdict}
        move = solve(position, objective=objective, keep_jokers=keep_jokers, limit=limit)
    return {"rules_used": position.rules, "moves": [move_view(move)], "verdict": None}


async def solve_page(request: Request) -> Response:
    """The form, and the best move when asked (``go``)."""
    fields = {k: v for k, v in request.query_params.items()}
    state = web_state(request)
    config = state.config
    context: dict[str, Any] = {
        "fields": fields,
        "moves": [],
        "verdict": None,
        "notice": None,
        "max_top": MAX_TOP,
        "default_seconds": config.solve_seconds,
        "max_seconds": config.max_seconds,
        "default_preset": DEFAULT_PRESET,
    }
    status = 200
    rules = STANDARD
    try:
        rules = forms.rules(fields)
        if fields.get("go"):
            answer = await run_in_threadpool(_answer, fields, state)
            context.update(answer)
    except (RummikubError, Refused) as error:
        context["error"] = one_line(error)
        status = error.status if isinstance(error, Refused) else 400
    context["keys"] = keyboard(context.get("rules_used", rules))
    return page(request, "solve.html", context, status)


routes = [Route("/solve", solve_page, methods=["GET"])]
