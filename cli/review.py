"""``rummikub review``: every turn of a recorded game measured against the optimum.

The arena and the solver are imported inside the command, so ``rummikub --help`` stays fast.
"""

from __future__ import annotations

import json
import os
import sys
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from rummikub.cli.errors import InternalFailure, fail, guard
from rummikub.cli.options import (
    color_option,
    executor_options,
    jobs_option,
    json_option,
    progress_option,
    time_limit_option,
)
from rummikub.cli.text import plural

if TYPE_CHECKING:
    from rummikub.analysis.review import PlayerReview, Review, TurnReview

AUTO_JOBS_TURNS = 1000  # below this many solves, starting worker processes costs more than it saves


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _mean(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Columns padded to width; the first left-aligned, the rest right-aligned."""
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        pairs = enumerate(zip(cells, widths, strict=True))
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in pairs)

    return [line(headers)] + [line(r) for r in rows]


def render_players(players: Sequence[PlayerReview]) -> list[str]:
    """The per-player (per-strategy) table, win rates side by side with accuracy."""
    headers = [
        "player", "games", "win rate", "turns", "could play", "accuracy",
        "short tiles", "short value", "held", "held short", "go-outs missed",
        "inaccuracies", "mistakes",
    ]  # fmt: skip
    rows = [
        [
            p.name,
            str(p.games),
            _percent(p.win_rate),
            str(p.turns),
            str(p.could_play),
            _percent(p.accuracy),
            _mean(p.mean_shortfall_tiles),
            _mean(p.mean_shortfall_value, 1),
            str(p.held),
            _mean(p.mean_held_shortfall_tiles),
            str(p.missed_go_outs),
            str(p.inaccuracies),
            str(p.mistakes),
        ]
        for p in players
    ]
    return _table(headers, rows)


def _where(turn: TurnReview) -> str:
    task = turn.task
    where = f"game {task.game}, round {task.round}, turn {task.turn + 1}"  # as the game counts
    return f"{where}: {task.player} (seat {task.seat})"


def _played(turn: TurnReview) -> str:
    from rummikub.cli.render import tiles_text
    from rummikub.models.tile import sorted_tiles

    if turn.task.action == "play":
        count = turn.placed_count
        return (
            f"placed {count} tile{'s' if count != 1 else ''} (value {turn.placed_value}): "
            + tiles_text(sorted_tiles(turn.task.placed))
        )
    return "drew a tile" if turn.task.action == "draw" else "passed (pool empty)"


def _shortfall(turn: TurnReview) -> str:
    """``3 tiles and 25 value short`` (the value may be negative: the optimum places less)."""
    tiles, value = turn.shortfall_tiles, turn.shortfall_value
    text = f"{tiles} tile{'s' if tiles != 1 else ''}"
    if value >= 0:
        return f"{text} and {value} value short"
    return f"{text} short, for {-value} value less"


def render_worst(turn: TurnReview, rank: int) -> list[str]:
    """One turn that fell short: where, the rack, what was played, the better move and steps."""
    from rummikub.cli.render import render_move, tiles_text
    from rummikub.models.tile import sorted_tiles

    better = turn.better
    if better is None:
        raise InternalFailure(f"{_where(turn)} fell short, but no better move was kept")
    head = click.style(f"{rank}. {_where(turn)} - {turn.verdict}", bold=True)
    lines = [f"{head}, {_shortfall(turn)}"]
    opened = "opened" if not turn.position.initial else "not opened yet"
    lines.append(f"   Rack ({opened}): {tiles_text(sorted_tiles(turn.position.rack))}")
    lines.append(f"   Played: {_played(turn)}")
    lines += ["   " + line for line in render_move(better).splitlines()]
    return lines


def render_turn_line(turn: TurnReview) -> str:
    """One line per turn: what was played, the optimum, the verdict."""
    from rummikub.solver import Status

    task = turn.task
    if task.action == "play":
        played = f"placed {turn.placed_count:>2} (value {turn.placed_value:>3})"
    else:
        played = f"{'drew' if task.action == 'draw' else 'passed':<21}"
    best = turn.optimum
    verdict = str(turn.verdict)
    if turn.shortfall_tiles or turn.shortfall_value:
        verdict += f" ({_shortfall(turn)})"
    if best.status is not Status.OPTIMAL:  # the verdict is against the best found
        verdict += " (optimum not proved)"
    return (
        f"  r{task.round} t{task.turn + 1:<3} seat {task.seat} {task.player:<12} {played}"
        f"   optimum {best.placed_count:>2} (value {best.placed_value:>3})   {verdict}"
    )


def render_review(review: Review, top: int, turns: bool) -> str:
    """The human-readable review: players, worst moves with better moves, optionally turns."""
    from rummikub.analysis.review import MISTAKE_TILES

    reviewed = sum(p.turns for p in review.players)
    games = len(review.games)
    legend = (
        "accuracy: turns that placed as many tiles as the optimum, of the turns where a play was"
        " possible (held turns count as not matched); short tiles/value: mean over the turns"
        " played; held: drew although a play was possible (not a blunder; held short: mean"
        f" tiles); inaccuracy: 1 tile short; mistake: {MISTAKE_TILES} or more."
    )
    lines = [
        click.style(
            f"Review of {plural(games, 'game')}, {plural(reviewed, 'turn')}, each against its"
            " optimum (most tiles, then most value)",
            bold=True,
        ),
        "",
        *render_players(review.players),
        "",
        *textwrap.wrap(legend, 100),
    ]
    unproved = sum(p.unproved for p in review.players)
    if unproved:
        lines.append(
            f"note: {unproved} optimum(s) not proved within the time limit (raise --time-limit)"
        )
    worst = review.worst()
    if top:
        lines.append("")
    if worst and top:
        shown = worst[:top]
        lines.append(
            click.style(f"Worst moves ({len(shown)} of {len(worst)} that fell short):", bold=True)
        )
        for rank, turn in enumerate(shown, 1):
            lines.append("")
            lines += render_worst(turn, rank)
    elif not worst:
        lines.append("")
        lines.append(click.style("No move fell short of the optimum.", bold=True))
    if turns:
        for game in review.games:
            lines.append("")
            names = ", ".join(game.names)
            result = f"{game.names[game.winner]} won" if game.winner is not None else "going on"
            lines.append(click.style(f"Game {game.number} ({names}; {result}):", bold=True))
            lines += [render_turn_line(t) for t in game.turns]
    return "\n".join(lines)


@click.command(
    help="""Review recorded games: every turn measured against the proved optimum.

\b
Each turn is solved as the engine judges it (the game's rules, opened or
not) for the move of the max-tiles player: most tiles, then most value.
Verdicts: best (as many tiles as the optimum), inaccuracy (1 tile short),
mistake (2 or more short), missed a go-out (the optimum empties the rack),
held (drew although a play was possible: reported apart, not a blunder).
Per player (per strategy in a tournament record): accuracy, mean
shortfall, held turns and missed go-outs, next to the win rate.
\b
RECORD is a JSON Lines file from `rummikub arena --record`, or a game file
of `rummikub game` (your turns are reviewed); - reads stdin.
--player takes a seat number (0 is the first seat) or a player name.
\b
Examples:
  rummikub arena --players optimal,human --games 2 --record games.jsonl
  rummikub review games.jsonl
  rummikub review games.jsonl --game 1 --player human --turns
  rummikub review games.jsonl --game 1 --player 1 --json
""",
)
@click.argument("record", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--game",
    "-g",
    type=int,
    default=None,
    help="Review only this game (numbered from 0, as in the record).",
)
@click.option("--player", "-p", default=None, help="Review only this seat number or player name.")
@click.option(
    "--top",
    type=click.IntRange(min=0),
    default=5,
    show_default=True,
    help="Worst moves to show with the better move and its steps.",
)
@click.option(
    "--turns/--no-turns",
    default=None,
    help="List every turn (default: when one game is reviewed).",
)
@time_limit_option("turn")
@jobs_option(None, "the solves", f"every core from {AUTO_JOBS_TURNS} turns on, else 1")
@executor_options("the solves")
@json_option()
@progress_option
@color_option
@guard
def review(
    record: str,
    game: int | None,
    player: str | None,
    top: int,
    turns: bool | None,
    time_limit: float,
    jobs: int | None,
    executor: str,
    ray_address: str | None,
    as_json: bool,
    progress: bool | None,
    color: bool | None,
) -> None:
    from rummikub.analysis.review import parse_player, review_games, turn_count
    from rummikub.analysis.review_files import record_games, select_games

    try:
        if record == "-":
            lines = sys.stdin.read().splitlines()
        else:
            with open(record, encoding="utf-8") as handle:
                lines = handle.read().splitlines()
    except OSError as error:
        fail(f"cannot read {record}: {error.strerror or error}")
    except UnicodeDecodeError:
        fail(f"{record}: not UTF-8 text")

    def warn(note: str) -> None:
        click.echo(f"warning: {record}: {note}", err=True)

    games = select_games(record_games(lines, warn), game)
    chosen = parse_player(player, games)
    total = turn_count(games, chosen)
    if jobs is None:
        jobs = os.cpu_count() or 1 if total >= AUTO_JOBS_TURNS else 1
    if executor == "ray":
        from rummikub.arena.executors import import_ray

        import_ray()
    show = sys.stderr.isatty() if progress is None else progress
    bar: Any = None
    if show:
        bar = click.progressbar(length=total, label="turns", file=sys.stderr, show_pos=True)
        bar.__enter__()
    try:
        result = review_games(
            games,
            chosen,
            time_limit=time_limit,
            executor=executor,
            jobs=jobs,
            ray_address=ray_address,
            progress=(lambda _: bar.update(1)) if bar is not None else None,
        )
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    if as_json:
        click.echo(json.dumps(result.to_json()))
    else:
        listing = len(result.games) == 1 if turns is None else turns
        click.echo(render_review(result, top, listing), color=color)
