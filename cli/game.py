"""``rummikub game``: follow a real game turn by turn (a thin layer over the companion).

The state model is :mod:`rummikub.game.companion`, the files :mod:`rummikub.game.store`;
this module holds the group (``new``, ``list``, ``delete``, ``export``) and a game's
commands: those that record (:mod:`rummikub.cli.game_turns`) and those that look
(:mod:`rummikub.cli.game_view`). The interactive prompt (``rummikub game NAME``) is
:mod:`rummikub.cli.game_prompt`.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import click

from rummikub.cli import interrupt
from rummikub.cli.errors import fail
from rummikub.cli.errors import guard as _guard
from rummikub.cli.game_context import GAME_COMMANDS, game_store
from rummikub.cli.game_render import render_state
from rummikub.cli.game_turns import TURN_COMMANDS, parse_tiles
from rummikub.cli.game_view import VIEW_COMMANDS
from rummikub.cli.options import json_option
from rummikub.cli.rule_options import standard_rules_options
from rummikub.models.rules import STANDARD

if TYPE_CHECKING:
    from rummikub.models.rules import RuleSet


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
  rummikub game friday placed r10 r11 r12 k7 b7 o7  # an opponent put these down
  rummikub game friday drew                         # the next opponent drew
  rummikub game friday table 1+ r13                 # the next: r13 on meld 1 (or the table)
  rummikub game friday draw b5                      # you drew b5
  rummikub game friday best                         # your best move (as solve; --json)
  rummikub game friday advise                       # play all, play part or hold?
  rummikub game friday play                         # you made that move
  rummikub game friday play "r3 r4 r5 | ..."        # or you played something else
  rummikub game friday undo                         # take back the last event; redo
  rummikub game friday show                         # table (numbered), rack, unseen, ...
  rummikub game friday score --racks "r3 k5 | - | j"  # end of round: opponents' racks
  rummikub game friday                              # interactive prompt
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


@game.command(
    name="new",
    help=f"""Start a new game: the players, your rack, the rules.

\b
Give all the tiles you were dealt: a rack of another size than the rules
deal ({STANDARD.rack_size} in the standard game) is refused, unless the game deals that
many (--rack-size N). --first says who plays first: 0 you, 1 the player
after you, and so on. Rules as on solve (--rules american, --threshold
40, --joker-rule strict...).
""",
)
@click.argument("name")
@click.option(
    "--players",
    "-n",
    type=click.IntRange(2, 4),
    default=4,
    show_default=True,
    help="Players at the table, you included.",
)
@click.option("--rack", "-r", required=True, help="Your tiles, e.g. 'r3 r4 k9 b9 o9 j ...'.")
@click.option("--first", type=int, default=0, show_default=True, help="Seat that plays first.")
@click.option(
    "--target", type=click.IntRange(min=1), default=200, show_default=True, help="Match target."
)
@standard_rules_options
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

    tiles = tuple(parse_tiles(rack, "--rack"))
    interrupt.commit()
    game_ = game_store(ctx).create(name, NewGame(players, tiles, rules, first, target))
    click.echo(f"New game '{name}' in {game_.path}")
    click.echo(render_state(name, game_.history.state), color=None)


@game.command(name="list", help="List the games, with whose turn it is in each.")
@json_option("Print JSON.")
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


@game.command(
    name="delete",
    help="""Delete a game: its log moves to the trash folder beside the games (.trash),
from where it can be moved back. Asks first on a terminal; --yes in a script.""",
)
@click.argument("name")
@click.option("--yes", "-y", is_flag=True, help="Delete without asking.")
@click.pass_context
@_guard
def delete_game(ctx: click.Context, name: str, yes: bool) -> None:
    store = game_store(ctx)
    store.load(name)  # a missing or unreadable name is refused before asking
    if not yes:
        if not sys.stdin.isatty():
            fail(f"deleting game '{name}' needs --yes when not asked on a terminal")
        if not click.confirm(f"Delete game '{name}'?", default=False):
            fail("nothing deleted")
    interrupt.commit()
    kept = store.delete(name)
    (store.directory / f".{name}.history").unlink(missing_ok=True)  # the prompt's history
    click.echo(f"Deleted game '{name}': its log is kept in {kept} (move it back to restore it)")


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


for _command in (*VIEW_COMMANDS, *TURN_COMMANDS):
    session.add_command(_command)
