"""``rummikub game``: follow a real game turn by turn (a thin layer over the companion).

The state model is :mod:`rummikub.game.companion`, the files
:mod:`rummikub.game.store`; this module parses, calls them and prints. The
interactive prompt (``rummikub game NAME``) is :mod:`rummikub.cli.game_prompt`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from rummikub.cli.advise import rollout_options
from rummikub.cli.errors import fail
from rummikub.cli.errors import guard as _guard
from rummikub.cli.game_context import GAME_COMMANDS, game_name, game_store, load_game

if TYPE_CHECKING:
    from rummikub.game.companion import Event, GameState
    from rummikub.game.store import StoredGame
    from rummikub.models.meld import Meld
    from rummikub.models.rules import RuleSet
    from rummikub.models.tile import Tile
    from rummikub.solver.move import Move


# --- parsing and loading ----------------------------------------------------------------------


def _tiles(text: str, what: str) -> list[Tile]:
    from rummikub.models import RummikubError, parse_tiles

    try:
        return parse_tiles(text)
    except RummikubError as error:
        fail(f"{what}: {error}")


def _melds(text: str, what: str) -> tuple[Meld, ...]:
    from rummikub.models import RummikubError, parse_melds

    try:
        return tuple(parse_melds(text))
    except RummikubError as error:
        fail(f"{what}: {error}")


def _racks(text: str) -> tuple[tuple[Tile, ...], ...]:
    """Opponents' racks separated by ``|`` (``-`` or nothing for an empty rack)."""
    from rummikub.models.notation import MELD_SEPARATORS

    pieces = MELD_SEPARATORS.split(text)
    return tuple(
        tuple(_tiles("" if p.strip() == "-" else p, f"--racks, rack {i}"))
        for i, p in enumerate(pieces, 1)
    )


def _record(ctx: click.Context, event: Event | Callable[[GameState], Event]) -> StoredGame:
    """Take in ``event`` (or the event made from the game's state), store it, say what changed.

    The event is made from the same read of the game that the write checks, so a game
    changed meanwhile by another process is refused rather than written over.
    """
    game = load_game(ctx)
    before = game.history.state
    if callable(event):
        event = event(before)
    game = game_store(ctx).record(game, event)
    _say_recorded(event, before, game.history.state)
    return game


# --- output -----------------------------------------------------------------------------------


def _seat(seat: int) -> str:
    return "you" if seat == 0 else f"opponent {seat}"


def _opponents_line(state: GameState) -> str:
    parts = []
    for seat in range(1, state.players):
        opened = "" if state.opened[seat] else ", not opened"
        parts.append(f"{seat}: {state.rack_sizes[seat]} tiles{opened}")
    return "Opponents: " + "; ".join(parts) + f"   Pool: {state.pool_size}"


def _status_line(state: GameState) -> str:
    status = click.style(state.status(), bold=True)
    return f"Now: {status}   (round {state.round}, turn {state.turn + 1})"


def _say_recorded(event: Event, before: GameState, after: GameState) -> None:
    from rummikub.game.companion import OpponentPlayed, Played

    line = f"Recorded: {event.describe()}"
    if isinstance(event, OpponentPlayed):
        laid = before.rack_sizes[event.seat] - after.rack_sizes[event.seat]
        line += f" ({laid} tile{'s' if laid != 1 else ''} laid)"
    elif isinstance(event, Played):
        laid = len(before.rack) - len(after.rack)
        line += f" ({laid} tile{'s' if laid != 1 else ''} laid)"
    click.echo(line)
    skipped = _skipped(event, before)
    if skipped:
        names = ", ".join(_seat(seat) for seat in skipped)
        click.echo(f"No play recorded for {names}: counted as drawing a tile")
    click.echo(_opponents_line(after))
    click.echo(_status_line(after))


def _skipped(event: Event, before: GameState) -> list[int]:
    """The opponents whose turns went by without an event before ``event``."""
    from rummikub.game.companion import Drew, OpponentDrew, OpponentPlayed, Passed, Played

    if isinstance(event, OpponentPlayed | OpponentDrew):
        seat = event.seat
    elif isinstance(event, Drew | Played | Passed):
        seat = 0
    else:
        return []
    skipped = []
    current = before.to_play
    while current != seat:
        skipped.append(current)
        current = (current + 1) % before.players
    return skipped


def _unseen_lines(state: GameState) -> list[str]:
    from rummikub.cli.render import tile_text

    unseen = state.unseen()
    rows: dict[str, list[str]] = {}
    for tile in sorted(unseen):
        key = "j" if tile.is_joker else str(tile)[0]
        rows.setdefault(key, []).extend([tile_text(tile)] * unseen[tile])
    return [f"  {' '.join(cells)}" for cells in rows.values()]


def _meld_text(meld: Meld) -> str:
    """A table meld in colour, a joker's declared meaning kept (``j=r4``)."""
    from rummikub.cli.render import tile_text

    return " ".join(
        tile_text(tile) if token == str(tile) else click.style(token, fg="magenta")
        for tile, token in zip(meld.tiles, meld.tokens(), strict=True)
    )


def _render_state(name: str, state: GameState) -> str:
    from rummikub.cli.render import tiles_text
    from rummikub.models.tile import sorted_tiles

    tiles = len(state.table_tiles())
    lines = [
        click.style(f"Game {name}", bold=True)
        + f": {state.players} players, round {state.round}, turn {state.turn + 1}",
        _status_line(state),
        f"Table ({len(state.table)} melds, {tiles} tiles):",
    ]
    lines += [f"  {_meld_text(meld)}" for meld in state.table] or ["  (empty)"]
    opened = "opened" if state.opened[0] else "opening meld still to make"
    lines.append(f"Your rack ({len(state.rack)}, {opened}): {tiles_text(sorted_tiles(state.rack))}")
    lines.append(_opponents_line(state))
    lines.append(f"Unseen ({state.unseen().total()}: the pool and the opponents' racks):")
    lines += _unseen_lines(state)
    if state.result is not None:
        scores = ", ".join(f"{_seat(s)} {v:+d}" for s, v in enumerate(state.result.scores))
        lines.append(f"Round {state.round}: {scores}")
    if any(state.totals) or state.rounds:
        totals = ", ".join(f"{_seat(s)} {v:+d}" for s, v in enumerate(state.totals))
        lines.append(f"Match totals (to {state.target}): {totals}")
    return "\n".join(lines)


def _game_json(state: GameState) -> dict[str, Any]:
    return {
        "to_play": state.to_play,
        "opponents": [
            {"seat": s, "rack_size": state.rack_sizes[s], "opened": state.opened[s]}
            for s in range(1, state.players)
        ],
        "pool": state.pool_size,
        "unseen_count": state.unseen().total(),
    }


# --- the command group ------------------------------------------------------------------------


class _GameGroup(click.Group):
    """``game new|list|delete|export``, or a game's name followed by one of its commands."""

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if name in self.commands or name.startswith("-"):
            return super().resolve_command(ctx, args)
        return name, session, args[1:]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_commands(ctx, formatter)
        rows = [(c, session.commands[c].get_short_help_str(60)) for c in GAME_COMMANDS]
        with formatter.section("Commands of a game (rummikub game NAME COMMAND)"):
            formatter.write_dl(rows)


@click.group(
    cls=_GameGroup,
    help="""Follow a real game turn by turn: a named game that mirrors the real one.

\b
You are seat 0; the opponents are seats 1, 2, 3 in the order they play
after you. Tell the game what happens; it keeps the table, your rack, the
opponents' rack sizes, the pool and the unseen tiles, checks every change
against the rules and the tile counts, and gives the best move.
\b
Examples:
  rummikub game new friday --players 4 --rack "r3 r4 k9 b9 o9 j k1 k2 b5 b6 o11 o12 r13 k13"
  rummikub game friday table "r10 r11 r12 | k7 b7 o7"   # an opponent played: the table now
  rummikub game friday drew                            # the next opponent drew instead
  rummikub game friday draw b5                         # you drew b5
  rummikub game friday best                            # your best move (as solve; --json)
  rummikub game friday advise                          # play all, play part or hold?
  rummikub game friday play                            # you made that move
  rummikub game friday play "r3 r4 r5 | ..."           # or you played something else
  rummikub game friday undo                            # take back the last event; redo
  rummikub game friday show                            # table, rack, unseen, opponents, pool
  rummikub game friday score --racks "r3 k5 | - | j"   # end of round: opponents' racks
  rummikub game friday                                 # interactive prompt
  rummikub game list | delete NAME | export NAME
\b
Games are kept in the user data folder (RUMMIKUB_GAMES_DIR or --dir to change)
as append-only JSON Lines logs.
""",
)
@click.option(
    "--dir",
    "directory",
    metavar="DIR",
    envvar="RUMMIKUB_GAMES_DIR",
    help="Folder of the games (default: RUMMIKUB_GAMES_DIR, else the user data folder).",
)
@click.pass_context
def game(ctx: click.Context, directory: str | None) -> None:
    from rummikub.game.store import GameStore

    ctx.find_root().meta["rummikub.games"] = GameStore(directory)


def _rules_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """The rule options of ``solve`` (``--rules``, ``--threshold``, ...) on ``game new``."""
    # Imported here, after ``game`` exists: cli.main registers it when first imported.
    from rummikub.cli.main import _rules_options as with_rules

    return with_rules(func)


@game.command(
    name="new",
    help="""Start a new game: the players, your rack, the rules.

\b
Everyone is dealt as many tiles as your rack holds (14 in the standard game).
--first says who plays first: 0 you, 1 the player after you, and so on.
Rules as on solve (--rules american, --threshold 40, --joker-rule strict...).
""",
)
@click.argument("name")
@click.option("--players", "-n", type=click.IntRange(2, 4), default=4, show_default=True)
@click.option("--rack", "-r", required=True, help="Your tiles, e.g. 'r3 r4 k9 b9 o9 j ...'.")
@click.option("--first", type=int, default=0, show_default=True, help="Seat that plays first.")
@click.option(
    "--target", type=click.IntRange(min=1), default=200, show_default=True, help="Match target."
)
@_rules_options
@click.pass_context
@_guard
def new_game(
    ctx: click.Context,
    name: str,
    players: int,
    rack: str,
    first: int,
    target: int,
    rules: RuleSet,
) -> None:
    from rummikub.game.companion import NewGame

    tiles = tuple(_tiles(rack, "--rack"))
    game_ = game_store(ctx).create(name, NewGame(players, tiles, rules, first, target))
    click.echo(f"New game '{name}' in {game_.path}")
    if len(tiles) != 14:
        click.echo(f"note: everyone is dealt {len(tiles)} tiles, as many as your rack holds")
    click.echo(_render_state(name, game_.history.state), color=None)


@game.command(name="list", help="List the games, with whose turn it is in each.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
@_guard
def list_games(ctx: click.Context, as_json: bool) -> None:
    from rummikub.models.errors import RummikubError

    store = game_store(ctx)
    rows = []
    for name in store.names():
        try:
            status = store.load(name).history.state.status()
        except RummikubError as error:
            status = f"unreadable: {error}"
        rows.append((name, status))
    if as_json:
        click.echo(json.dumps({"dir": str(store.directory), "games": dict(rows)}))
        return
    if not rows:
        click.echo(f"No games in {store.directory} (start one with 'rummikub game new NAME')")
    for name, status in rows:
        click.echo(f"{name}  {status}")


@game.command(name="delete", help="Delete a game and its event log.")
@click.argument("name")
@click.pass_context
@_guard
def delete_game(ctx: click.Context, name: str) -> None:
    store = game_store(ctx)
    store.delete(name)
    (store.directory / f".{name}.history").unlink(missing_ok=True)  # the prompt's history
    click.echo(f"Deleted game '{name}'")


@game.command(
    name="export",
    help="""Print a game's current position as a position file (for solve, analyze, check).

\b
  rummikub game export friday > now.txt && rummikub analyze now.txt
""",
)
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="The position as JSON instead of text.")
@click.pass_context
@_guard
def export_game(ctx: click.Context, name: str, as_json: bool) -> None:
    stored = game_store(ctx).load(name)
    state = stored.history.state
    position = state.position()
    if as_json:
        click.echo(json.dumps(position.to_json()))
        return
    text = position.to_text()
    click.echo(f"# game {name}, round {state.round}, turn {state.turn + 1}: {state.status()}")
    changes = state.rules.changes()
    if changes and not text.startswith("rules:"):  # a format without a rules line
        rules = ", ".join(f"{k}={v}" for k, v in changes.items())
        click.echo(f"# rules: {rules} (pass the same options to solve)")
    click.echo(text, nl=False)


# --- one game's commands ----------------------------------------------------------------------


@click.group(
    invoke_without_command=True,
    help="A game's commands; without one, an interactive prompt for them.",
)
@click.pass_context
def session(ctx: click.Context) -> None:
    from rummikub.game.store import BadGameNameError, check_name

    name = ctx.info_name or ""
    try:
        check_name(name)
    except BadGameNameError as error:  # a mistyped command reads as a bad game name
        fail(f"{error}; the commands are new, list, delete, export and a game's name")
    ctx.meta["rummikub.game"] = name
    if ctx.invoked_subcommand is None and not ctx.meta.get("rummikub.interactive"):
        from rummikub.cli.game_prompt import interactive

        _guard(interactive)(ctx)


@session.command(help="Show the table, your rack, the unseen tiles, the opponents and the pool.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--color/--no-color", default=None, help="Colour (default: on a terminal).")
@click.pass_context
@_guard
def show(ctx: click.Context, as_json: bool, color: bool | None) -> None:
    from rummikub.game.companion import state_json

    state = load_game(ctx).history.state
    if as_json:
        click.echo(json.dumps({"name": game_name(ctx), **state_json(state)}))
    else:
        click.echo(_render_state(game_name(ctx), state), color=color)


@session.command(
    help="""An opponent played: give the whole table as it is now.

\b
The opponent is the next one to play, or --seat N (those before N drew).
  table "r10 r11 r12 | k7 b7 o7"
"""
)
@click.argument("melds", metavar="TABLE", nargs=-1, required=True)
@click.option("--seat", type=int, default=None, help="The opponent who played (default: next).")
@click.pass_context
@_guard
def table(ctx: click.Context, melds: tuple[str, ...], seat: int | None) -> None:
    from rummikub.game.companion import OpponentPlayed

    new_table = _melds(" ".join(melds), "table")
    _record(ctx, lambda state: OpponentPlayed(_opponent(state, seat), new_table))


def _opponent(state: GameState, seat: int | None) -> int:
    if seat is not None:
        return seat
    if state.to_play == 0 and state.ended is None:
        fail("it is your turn: record your draw, play or pass first")
    return state.to_play


@session.command(
    help="An opponent drew instead of playing (or passed, the pool being empty).\n\n"
    "Optional: an opponent whose turn goes by without a table change drew."
)
@click.option("--seat", type=int, default=None, help="The opponent (default: the next).")
@click.pass_context
@_guard
def drew(ctx: click.Context, seat: int | None) -> None:
    from rummikub.game.companion import OpponentDrew

    _record(ctx, lambda state: OpponentDrew(_opponent(state, seat)))


@session.command(help="You drew TILE from the pool.")
@click.argument("tile")
@click.pass_context
@_guard
def draw(ctx: click.Context, tile: str) -> None:
    from rummikub.game.companion import Drew

    tiles = _tiles(tile, "tile")
    if len(tiles) != 1:
        fail(f"draw takes one tile, got {len(tiles)}")
    _record(ctx, Drew(tiles[0]))


@session.command(name="pass", help="You do not play, and the pool is empty (nothing to draw).")
@click.pass_context
@_guard
def pass_turn(ctx: click.Context) -> None:
    from rummikub.game.companion import Passed

    _record(ctx, Passed())


def _move_options(func: Callable[..., Any]) -> Callable[..., Any]:
    options = [
        click.option(
            "--objective",
            type=click.Choice(["tiles", "value"]),
            default="tiles",
            show_default=True,
            help="Most tiles placed, or most value placed.",
        ),
        click.option("--keep-jokers", is_flag=True, help="Hold jokers back unless they help."),
        click.option(
            "--time-limit",
            type=click.FloatRange(min=0.001, max=86400),
            default=10.0,
            show_default=True,
            help="Seconds the solver may search.",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _best_move(state: GameState, objective: str, keep_jokers: bool, seconds: float) -> Move:
    from rummikub.solver import Limit, solve

    return solve(
        state.position(), objective=objective, keep_jokers=keep_jokers, limit=Limit(seconds)
    )


@session.command(
    help="""Your best move now: the same output as solve, with the game's odds.

\b
The outs and the chance to go out next turn count the unseen tiles (the
full set minus the table and your rack); the opponents' rack sizes and the
pool are shown. --json prints solve's JSON object with 'game' and 'odds'.
"""
)
@_move_options
@click.option("--odds/--no-odds", default=True, show_default=True, help="Outs and odds.")
@click.option("--steps/--no-steps", default=True, show_default=True, help="Show the steps.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--color/--no-color", default=None, help="Colour (default: on a terminal).")
@click.pass_context
@_guard
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
    from rummikub.cli.render import render_move, tile_text
    from rummikub.solver import Limit
    from rummikub.steps.report import move_json

    state = load_game(ctx).history.state
    if state.ended is not None:
        fail(f"{state.status()}: no move to look for")
    analysis = analyze(state.position(), limit=Limit(time_limit)) if odds else None
    if analysis is not None and objective == "tiles":
        move = analysis.best["keep_jokers" if keep_jokers else "tiles"]
    elif analysis is not None and not keep_jokers:
        move = analysis.best["value"]
    else:
        move = _best_move(state, objective, keep_jokers, time_limit)
    if as_json:
        payload = {**move_json(move, steps=steps), "game": _game_json(state)}
        if analysis is not None:
            full = analysis.to_json()
            payload["odds"] = {k: full[k] for k in ("outs", "p_go_out_next", "unplayable")}
        click.echo(json.dumps(payload))
        return
    lines = []
    if state.to_play != 0:
        lines.append(click.style(f"note: {state.status()}", fg="yellow"))
    lines.append(render_move(move, steps=steps))
    lines.append(_opponents_line(state))
    if analysis is not None:
        going = [o for o in analysis.outs if o.goes_out]
        unseen = sum(o.unseen for o in analysis.outs)
        lines.append(
            f"Chance to go out next turn after one draw: {analysis.p_go_out_next:.1%}"
            f" ({sum(o.unseen for o in going)} of {unseen} unseen tiles)"
        )
        if going:
            lines.append("Draws that go out: " + " ".join(tile_text(o.tile) for o in going))
        if analysis.unplayable:
            lines.append(
                "Unplayable rack tiles: " + " ".join(tile_text(u.tile) for u in analysis.unplayable)
            )
    if not move.is_draw and move.rack_left:
        lines.append(
            f"Play it all, part or hold? 'rummikub game {game_name(ctx)} advise' weighs them."
        )
    click.echo("\n".join(lines), color=color)


@session.command(
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
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
@_guard
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
        extra={"game": _game_json(state)},
        note=None if state.to_play == 0 else f"note: {state.status()}",
    )


@session.command(
    help="""You played: the best move (as 'best' shows it), or the table as you left it.

\b
  play                        # you carried out the best move
  play "r3 r4 r5 | k7 b7 o7"  # you played something else: the whole new table
"""
)
@click.argument("melds", metavar="[TABLE]", nargs=-1)
@_move_options
@click.pass_context
@_guard
def play(
    ctx: click.Context,
    melds: tuple[str, ...],
    objective: str,
    keep_jokers: bool,
    time_limit: float,
) -> None:
    from rummikub.game.companion import Played

    if melds:
        _record(ctx, Played(_melds(" ".join(melds), "table")))
        return

    def best_played(state: GameState) -> Played:
        if state.ended is not None:
            fail(f"{state.status()}: no more turns this round")
        move = _best_move(state, objective, keep_jokers, time_limit)
        if move.is_draw:
            fail("no move places a tile: draw one ('draw TILE'), or 'pass' when the pool is empty")
        return Played(tuple(move.melds))

    _record(ctx, best_played)


@session.command(help="Take back the last event (repeatable, back to the start).")
@click.pass_context
@_guard
def undo(ctx: click.Context) -> None:
    from rummikub.game.companion import Undo

    game_ = load_game(ctx)
    last = game_.history.last
    game_ = game_store(ctx).record(game_, Undo())
    click.echo(f"Undone: {last.describe()}")
    click.echo(_status_line(game_.history.state))


@session.command(help="Bring back the event taken back last.")
@click.pass_context
@_guard
def redo(ctx: click.Context) -> None:
    from rummikub.game.companion import Redo

    game_ = load_game(ctx)
    event = game_.history.next_redo
    game_ = game_store(ctx).record(game_, Redo())
    click.echo(f"Redone: {event.describe() if event else ''}")
    click.echo(_status_line(game_.history.state))


@session.command(help="List the events in force, oldest first.")
@click.pass_context
@_guard
def history(ctx: click.Context) -> None:
    done = load_game(ctx).history.done
    width = len(str(len(done)))
    for number, (event, _) in enumerate(done, 1):
        click.echo(f"{number:>{width}}. {event.describe()}")


@session.command(
    help="""End of round: give the opponents' racks; scores it, adds to the match totals.

\b
Racks in seat order separated by |, - for an empty rack:
  score --racks "r3 k5 | - | j o13"
A round someone went out of is won by them; a blocked round by the lowest
rack value. Losers score minus their rack (a joker 30), the winner the sum.
"""
)
@click.option("--racks", required=True, help="The opponents' racks, seat 1 first, '|' between.")
@click.pass_context
@_guard
def score(ctx: click.Context, racks: str) -> None:
    from rummikub.game.companion import Scored

    game_ = _record(ctx, Scored(_racks(racks)))
    state = game_.history.state
    assert state.result is not None
    scores = ", ".join(f"{_seat(s)} {v:+d}" for s, v in enumerate(state.result.scores))
    totals = ", ".join(f"{_seat(s)} {v:+d}" for s, v in enumerate(state.totals))
    click.echo(f"Round {state.round}: {scores}")
    click.echo(f"Match totals (to {state.target}): {totals}")


@session.command(name="round", help="Deal the next round of the match: your new rack.")
@click.option("--rack", "-r", required=True, help="Your new tiles.")
@click.option("--first", type=int, default=0, show_default=True, help="Seat that plays first.")
@click.pass_context
@_guard
def next_round(ctx: click.Context, rack: str, first: int) -> None:
    from rummikub.game.companion import NewRound

    tiles = tuple(_tiles(rack, "--rack"))
    _record(ctx, NewRound(tiles, first))
    if len(tiles) != 14:
        click.echo(f"note: everyone is dealt {len(tiles)} tiles, as many as your rack holds")
