"""The game's commands that look without recording: ``show``, ``best`` and ``advise``."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from rummikub.cli.advise import rollout_options
from rummikub.cli.errors import fail, guard
from rummikub.cli.game_context import game_name, load_game
from rummikub.cli.game_render import game_json, opponents_line, render_state
from rummikub.cli.options import (
    color_option,
    json_option,
    objective_options,
    time_limit_option,
)

if TYPE_CHECKING:
    from rummikub.analysis.position import Analysis
    from rummikub.game.companion import GameState
    from rummikub.solver.move import Move


def best_move(state: GameState, objective: str, keep_jokers: bool, seconds: float) -> Move:
    """Your best move in the game now, within ``seconds`` of wall-clock time."""
    from rummikub.solver import Limit, solve

    return solve(
        state.position(), objective=objective, keep_jokers=keep_jokers, limit=Limit(seconds)
    )


@click.command(
    help="""Show the table (numbered, and in one line to paste back), your rack, the
unseen tiles, the opponents and the pool."""
)
@json_option()
@color_option
@click.pass_context
@guard
def show(ctx: click.Context, as_json: bool, color: bool | None) -> None:
    from rummikub.game.companion import state_json

    state = load_game(ctx).history.state
    if as_json:
        click.echo(json.dumps({"name": game_name(ctx), **state_json(state)}))
    else:
        click.echo(render_state(game_name(ctx), state), color=color)


def _odds_lines(analysis: Analysis) -> list[str]:
    """The chance to go out next turn, the draws that go out, the unplayable rack tiles."""
    from rummikub.cli.render import tile_text

    going = [o for o in analysis.outs if o.goes_out]
    unseen = sum(o.unseen for o in analysis.outs)
    lines = [
        f"Chance to go out next turn after one draw: {analysis.p_go_out_next:.1%}"
        f" ({sum(o.unseen for o in going)} of {unseen} unseen tiles)"
    ]
    if going:
        lines.append("Draws that go out: " + " ".join(tile_text(o.tile) for o in going))
    if analysis.unplayable:
        tiles = " ".join(tile_text(u.tile) for u in analysis.unplayable)
        lines.append(f"Unplayable rack tiles: {tiles}")
    return lines


@click.command(
    help="""Your best move now: the same output as solve, with the game's odds.

\b
The outs and the chance to go out next turn count the unseen tiles (the
full set minus the table and your rack); the opponents' rack sizes and the
pool are shown. --json prints solve's JSON object with 'game' and 'odds'.
"""
)
@objective_options
@time_limit_option("answer")
@click.option("--odds/--no-odds", default=True, show_default=True, help="Outs and odds.")
@click.option("--steps/--no-steps", default=True, show_default=True, help="Show the steps.")
@json_option()
@color_option
@click.pass_context
@guard
def best(
    ctx: click.Context,
    objective: str,
    keep_jokers: bool,
    time_limit: float,
    odds: bool,
    steps: bool,
    as_json: bool,
    color: bool | None,
) -> None:
    from rummikub.analysis.position import analyze
    from rummikub.cli.render import render_move
    from rummikub.solver import Limit
    from rummikub.steps.report import move_json

    state = load_game(ctx).history.state
    if state.ended is not None:
        fail(f"{state.status()}: no move to look for")
    analysis = analyze(state.position(), limit=Limit(time_limit)) if odds else None
    if analysis is not None and (objective == "tiles" or not keep_jokers):
        key = "value" if objective == "value" else "keep_jokers" if keep_jokers else "tiles"
        move = analysis.best[key]
    else:
        move = best_move(state, objective, keep_jokers, time_limit)
    if as_json:
        payload = {**move_json(move, steps=steps), "game": game_json(state)}
        if analysis is not None:
            full = analysis.to_json()
            payload["odds"] = {k: full[k] for k in ("outs", "p_go_out_next", "unplayable")}
        click.echo(json.dumps(payload))
        return
    lines = []
    if state.to_play != 0:
        lines.append(click.style(f"note: {state.status()}", fg="yellow"))
    lines += [render_move(move, steps=steps), opponents_line(state)]
    if analysis is not None:
        lines += _odds_lines(analysis)
    if not move.is_draw and move.rack_left:
        lines.append(
            f"Play it all, part or hold? 'rummikub game {game_name(ctx)} advise' weighs them."
        )
    click.echo("\n".join(lines), color=color)


@click.command(
    help="""Play all, play part, or hold? Each candidate move's chance to win the round.

\b
As 'rummikub advise' on the game as it stands: the planner's candidates
(the most tiles, a smaller opening, keeping jokers back, holding) are
played out on random deals of the unseen tiles into the opponents'
racks (at the sizes the game counts) and the pool, under the game's
rules; the highest win chance is recommended. --json prints advise's
JSON object with 'game'. 'play' still records the best move of 'best':
to hold, 'draw TILE'; to play part, 'play TABLE'.
"""
)
@rollout_options
@json_option()
@click.pass_context
@guard
def advise(
    ctx: click.Context,
    model: str,
    rollouts: int,
    seconds: float | None,
    seed: int,
    jobs: int | None,
    executor: str,
    ray_address: str | None,
    as_json: bool,
) -> None:
    from rummikub.analysis.advice import Situation
    from rummikub.cli.advise import give_advice

    state = load_game(ctx).history.state
    if state.ended is not None:
        fail(f"{state.status()}: no move to weigh")
    give_advice(
        Situation.of_game(state),
        model=model,
        rollouts=rollouts,
        seconds=seconds,
        seed=seed,
        jobs=jobs,
        executor=executor,
        ray_address=ray_address,
        as_json=as_json,
        extra={"game": game_json(state)},
        note=None if state.to_play == 0 else f"note: {state.status()}",
    )


VIEW_COMMANDS = (show, best, advise)
