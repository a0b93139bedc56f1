"""Advice for a game (play all, play part or hold?), off the request path.

``POST /games/NAME/advise`` starts a run (:mod:`.advice_jobs`) and shows its page
(``/advice/ID``), which follows it (``/advice/ID.json``) with a progress bar and a cancel
button (``POST /advice/ID/cancel``), then shows each candidate's win chance as
``rummikub game NAME advise`` prints it.
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from rummikub.analysis.advice import Situation, chance_texts
from rummikub.arena.players import STRATEGIES
from rummikub.models.errors import RummikubError
from rummikub.web import forms
from rummikub.web.advice_jobs import AdviceJob
from rummikub.web.errors import Refused, one_line, status_of
from rummikub.web.game_page import game_context, game_name
from rummikub.web.render import page
from rummikub.web.security import read_form
from rummikub.web.state import web_state

DEFAULT_SECONDS = 10.0
MODEL = "max-tiles"


def _start(request: Request, name: str, fields: forms.Fields) -> AdviceJob:
    """Start a run on the game as it stands (the form's time, seed and opponents' model)."""
    state = web_state(request)
    game = state.desk.load(name)
    now = game.history.state
    if now.ended is not None:
        raise Refused(400, f"{now.status()}: no move to weigh")
    seconds = forms.seconds(fields, "seconds", state.config.max_advice_seconds, DEFAULT_SECONDS)
    seed = forms.whole(fields, "seed", 0, 2**31, 0)
    model = forms.choice(fields, "model", tuple(STRATEGIES), MODEL)
    situation = Situation.of_game(now)
    return state.jobs.start(situation, name, game.version, seconds, seed, model)


async def start(request: Request) -> Response:
    """Start weighing the game's candidates; show the run's page."""
    name = game_name(request)
    fields = await read_form(request)
    try:
        job = await run_in_threadpool(_start, request, name, fields)
    except RummikubError as error:
        raise Refused(status_of(error), one_line(error)) from None
    return RedirectResponse(f"/advice/{job.id}", 303)


def _candidates(advice: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for entry in advice["candidates"]:
        chance, interval = chance_texts(entry)
        score = entry["mean_score"]
        rows.append(
            {
                "move": entry["move"],
                "places": len(entry["placed"]),
                "keeps": len(entry["kept"]),
                "chance": chance,
                "interval": interval,
                "score": "" if score is None else f"{score:+.1f}",
                "placed": " ".join(entry["placed"]) or "-",
                "kept": " ".join(entry["kept"]) or "-",
            }
        )
    return rows


async def job_page(request: Request) -> Response:
    """A run's page: its progress and cancel button, then its advice."""
    job = web_state(request).jobs.get(request.path_params["job"])
    context: dict[str, Any] = {"job": job, "rows": [], "game": None}
    if job.result is not None:
        context["rows"] = _candidates(job.result)
    try:
        game = await run_in_threadpool(web_state(request).desk.load, job.game)
        context["game"] = game_context(game)
        context["moved_on"] = game.version != job.version
    except RummikubError:
        context["moved_on"] = True  # the game is gone
    return page(request, "advice.html", context)


async def job_json(request: Request) -> Response:
    """A run's state as JSON (the page's progress bar follows it)."""
    job = web_state(request).jobs.get(request.path_params["job"])
    return JSONResponse(job.to_json())


async def cancel(request: Request) -> Response:
    """End a run now."""
    await read_form(request)
    job = web_state(request).jobs.cancel(request.path_params["job"])
    return RedirectResponse(f"/advice/{job.id}", 303)


routes = [
    Route("/games/{name}/advise", start, methods=["POST"]),
    Route("/advice/{job}.json", job_json, methods=["GET"]),
    Route("/advice/{job}", job_page, methods=["GET"]),
    Route("/advice/{job}/cancel", cancel, methods=["POST"]),
]
