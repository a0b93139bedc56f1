"""The game's commands that record what happened: an opponent's play (``placed`` or
``table``), a draw, your play or pass, undo and redo, the score and the next round.

Each parses, asks the companion (:mod:`rummikub.game`) and prints; a command that would
also record turns for other seats (opponents between the one to play and the one named)
says which and asks, on a terminal, or needs ``--skip`` in a script.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import click

from rummikub.cli.errors import InternalFailure, fail, guard
from rummikub.cli.game_context import load_game, write
from rummikub.cli.game_render import say_recorded, status_line
from rummikub.cli.options import objective_options, time_limit_option
from rummikub.models.rules import STANDARD

if TYPE_CHECKING:
    from rummikub.game.companion import Event, GameState
    from rummikub.game.placed import PlacedLayout
    from rummikub.game.store import StoredGame
    from rummikub.models.meld import Meld
    from rummikub.models.tile import Tile

EDITS_HELP = """\b
TABLE is the whole table, or edits of the table as 'show' numbers it:
  3+ r6                 add r6 to meld 3
  2,5= r1-4 | k4-6      melds 2 and 5 are now these melds
  + o1-3                a new meld
Edits may follow each other: '3+ r6 + o1-3'. In a shell, quote a
table that holds '|'."""


def parse_tiles(text: str, what: str) -> list[Tile]:
    """Tiles in notation, or a one-line error naming ``what`` was given."""
    from rummikub.models import RummikubError
    from rummikub.models import parse_tiles as parse

    try:
        return parse(text)
    except RummikubError as error:
        fail(f"{what}: {error}")


def _new_table(text: str, state: GameState) -> tuple[Meld, ...]:
    """The table a ``table`` or ``play`` argument gives: whole, or edits of the table now."""
    from rummikub.game.table_edits import apply_edits
    from rummikub.models import RummikubError

    try:
        return apply_edits(text, state.table, state.rules)
    except RummikubError as error:
        fail(f"table: {error}")


def skip_option(func: Callable[..., object]) -> Callable[..., object]:
    """``--skip``: the turns of the players before go by as draws (asked on a terminal)."""
    return click.option(
        "--skip",
        is_flag=True,
        help="The opponents before this one have not played: record that they drew (on a "
        "terminal the command asks instead).",
    )(func)


def _check_skipped(state: GameState, seat: int, skip: bool) -> None:
    """Turns of other seats this event would record: allowed with --skip or once confirmed."""
    from rummikub.game.companion import skipped
    from rummikub.game.events import seats_text

    if state.ended is not None:
        return  # the companion refuses the event itself, saying why
    seats = skipped(state, seat)
    if not seats or skip:
        return
    who = seats_text(seats)
    verb = "has" if len(seats) == 1 else "have"
    if sys.stdin.isatty():
        if click.confirm(f"{who} {verb} not played yet: record that they drew?", default=False):
            return
        fail("nothing recorded")
    fail(
        f"{who} {verb} not played yet: this would record that they drew; record their turns "
        "first ('drew'), or add --skip"
    )


def record(
    ctx: click.Context,
    make: Callable[[GameState], Event],
    skip: bool,
    notes: Callable[[], Sequence[str]] = tuple,
) -> StoredGame:
    """Take in the event ``make`` builds from the game as read, store it, say what changed
    (and ``notes``, asked for once the event is stored).

    The event is made from the same read of the game that the write checks, so a game
    changed meanwhile by another process is refused rather than written over.
    """
    from rummikub.game.companion import OpponentDrew, OpponentPlayed, check_typed

    game = load_game(ctx)
    before = game.history.state
    event = make(before)
    check_typed(before, event)
    game.history.record(event)  # what is wrong with the event is said before any question
    seat = event.seat if isinstance(event, OpponentPlayed | OpponentDrew) else 0
    _check_skipped(before, seat, skip)
    game = write(ctx, game, event)
    say_recorded(event, before, game.history.state, notes())
    return game


def opponent(state: GameState, seat: int | None) -> int:
    """The opponent an event is for: ``seat``, or the one to play."""
    if seat is not None:
        return seat
    if state.to_play == 0 and state.ended is None:
        fail("it is your turn: record your draw, play or pass first")
    return state.to_play


@click.command(
    help="""An opponent put TILES down: the companion lays out the table.

\b
It finds the legal table holding the table's tiles and these with the
fewest table tiles picked up (the solver's measure), under the game's
rules (an opponent who has not opened must open with them), records it
and shows it numbered, placed tiles starred. Tiles that cannot go down
together, or that the opponent cannot have held, are refused and
nothing is recorded. If the real table lies otherwise, 'undo' and give
it with 'table' (a note says so where a joker's place matters).
  placed k11 k12 k13
  placed r6 o1-3 --seat 2
""",
)
@click.argument("tiles", metavar="TILES", nargs=-1, required=True)
@click.option("--seat", type=int, default=None, help="The opponent who played (default: next).")
@skip_option
@time_limit_option("answer")
@click.pass_context
@guard
def placed(
    ctx: click.Context, tiles: tuple[str, ...], seat: int | None, skip: bool, time_limit: float
) -> None:
    from rummikub.game.placed import lay_out
    from rummikub.solver import Limit

    given = parse_tiles(" ".join(tiles), "tiles")
    found: list[PlacedLayout] = []

    def laid_out(state: GameState) -> Event:
        found.append(lay_out(state, opponent(state, seat), given, limit=Limit(time_limit)))
        return found[-1].event

    def notes() -> list[str]:
        layout = found[-1]
        lines = []
        if layout.moved:
            proof = "" if layout.proved else " (the fewest is not proved: check the layout)"
            lines.append(f"Picked up and laid again: {' '.join(map(str, layout.moved))}{proof}")
        if layout.note:
            lines.append(click.style(f"note: {layout.note}", fg="yellow"))
        return lines

    record(ctx, laid_out, skip, notes)


@click.command(
    help=f"""An opponent played: give the table as it is now.

{EDITS_HELP}
The opponent is the next one to play, or --seat N. When you see only
the tiles put down, 'placed TILES' lays the table out for you.
"""
)
@click.argument("melds", metavar="TABLE", nargs=-1, required=True)
@click.option("--seat", type=int, default=None, help="The opponent who played (default: next).")
@skip_option
@click.pass_context
@guard
def table(ctx: click.Context, melds: tuple[str, ...], seat: int | None, skip: bool) -> None:
    from rummikub.game.companion import OpponentPlayed

    text = " ".join(melds)
    record(ctx, lambda state: OpponentPlayed(opponent(state, seat), _new_table(text, state)), skip)


@click.command(help="An opponent drew instead of playing (or passed, the pool being empty).")
@click.option("--seat", type=int, default=None, help="The opponent (default: the next).")
@skip_option
@click.pass_context
@guard
def drew(ctx: click.Context, seat: int | None, skip: bool) -> None:
    from rummikub.game.companion import OpponentDrew

    record(ctx, lambda state: OpponentDrew(opponent(state, seat)), skip)


@click.command(help="You drew TILE from the pool.")
@click.argument("tile")
@skip_option
@click.pass_context
@guard
def draw(ctx: click.Context, tile: str, skip: bool) -> None:
    from rummikub.game.companion import Drew

    tiles = parse_tiles(tile, "tile")
    if len(tiles) != 1:
        fail(f"draw takes one tile, got {len(tiles)}")
    record(ctx, lambda state: Drew(tiles[0]), skip)


@click.command(name="pass", help="You do not play, and the pool is empty (nothing to draw).")
@skip_option
@click.pass_context
@guard
def pass_turn(ctx: click.Context, skip: bool) -> None:
    from rummikub.game.companion import Passed

    record(ctx, lambda state: Passed(), skip)


@click.command(
    help=f"""You played: the best move (as 'best' shows it), or the table as you left it.

\b
  play                        # you carried out the best move
  play "r3 r4 r5 | k7 b7 o7"  # you played something else: the new table
{EDITS_HELP}
"""
)
@click.argument("melds", metavar="[TABLE]", nargs=-1)
@objective_options
@time_limit_option("answer")
@skip_option
@click.pass_context
@guard
def play(
    ctx: click.Context,
    melds: tuple[str, ...],
    objective: str,
    keep_jokers: bool,
    time_limit: float,
    skip: bool,
) -> None:
    from rummikub.game.companion import Played, as_they_lie

    if melds:
        text = " ".join(melds)
        record(ctx, lambda state: Played(_new_table(text, state)), skip)
        return

    def best_played(state: GameState) -> Played:
        from rummikub.cli.game_view import best_move

        if state.ended is not None:
            fail(f"{state.status()}: no more turns this round")
        move = best_move(state, objective, keep_jokers, time_limit)
        if move.is_draw:
            fail("no move places a tile: draw one ('draw TILE'), or 'pass' when the pool is empty")
        return Played(as_they_lie(move.melds, state.rules))

    record(ctx, best_played, skip)


@click.command(help="Take back the last event (repeatable, back to the start).")
@click.pass_context
@guard
def undo(ctx: click.Context) -> None:
    from rummikub.game.companion import Undo

    game = load_game(ctx)
    last = game.history.last
    game = write(ctx, game, Undo())
    click.echo(f"Undone: {last.describe()}")
    click.echo(status_line(game.history.state))


@click.command(help="Bring back the event taken back last.")
@click.pass_context
@guard
def redo(ctx: click.Context) -> None:
    from rummikub.game.companion import Redo

    game = load_game(ctx)
    event = game.history.next_redo
    game = write(ctx, game, Redo())
    click.echo(f"Redone: {event.describe() if event else ''}")
    click.echo(status_line(game.history.state))


@click.command(help="List the events in force, oldest first.")
@click.pass_context
@guard
def history(ctx: click.Context) -> None:
    done = load_game(ctx).history.done
    width = len(str(len(done)))
    for number, (event, _) in enumerate(done, 1):
        click.echo(f"{number:>{width}}. {event.describe()}")


def _racks(text: str) -> tuple[tuple[Tile, ...], ...]:
    """Opponents' racks separated by ``|`` (``-`` or nothing for an empty rack)."""
    from rummikub.models.notation import MELD_SEPARATORS

    pieces = MELD_SEPARATORS.split(text)
    return tuple(
        tuple(parse_tiles("" if p.strip() == "-" else p, f"--racks, rack {i}"))
        for i, p in enumerate(pieces, 1)
    )


@click.command(
    help=f"""End of round: give the opponents' racks; scores it, adds to the match totals.

\b
Racks in seat order separated by |, - for an empty rack:
  score --racks "r3 k5 | - | j o13"
A round someone went out of is won by them; a blocked round by the lowest
rack value. Losers score minus their rack (a joker {STANDARD.joker_penalty} in the standard
game), the winner the sum.
"""
)
@click.option("--racks", required=True, help="The opponents' racks, seat 1 first, '|' between.")
@click.pass_context
@guard
def score(ctx: click.Context, racks: str) -> None:
    from rummikub.cli.game_render import seat_name
    from rummikub.game.companion import Scored

    state = record(ctx, lambda state: Scored(_racks(racks)), skip=True).history.state
    result = state.result
    if result is None:
        raise InternalFailure("a scored round has no result")
    scores = ", ".join(f"{seat_name(s)} {v:+d}" for s, v in enumerate(result.scores))
    totals = ", ".join(f"{seat_name(s)} {v:+d}" for s, v in enumerate(state.totals))
    click.echo(f"Round {state.round}: {scores}")
    click.echo(f"Match totals (to {state.target}): {totals}")


@click.command(
    name="round",
    help="Deal the next round of the match: your new rack (as many tiles as the game deals).",
)
@click.option("--rack", "-r", required=True, help="Your new tiles.")
@click.option("--first", type=int, default=0, show_default=True, help="Seat that plays first.")
@click.pass_context
@guard
def next_round(ctx: click.Context, rack: str, first: int) -> None:
    from rummikub.game.companion import NewRound

    tiles = tuple(parse_tiles(rack, "--rack"))
    record(ctx, lambda state: NewRound(tiles, first), skip=True)


TURN_COMMANDS = (placed, table, drew, draw, pass_turn, play, undo, redo, history, score, next_round)
