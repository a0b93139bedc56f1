"""What a game's commands share: the game's name and store from the click context, and the
list of a game's commands (the ``game NAME COMMAND`` group and its prompt)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from rummikub.cli import interrupt

if TYPE_CHECKING:
    from rummikub.game.companion import Event
    from rummikub.game.store import GameStore, StoredGame

GAME_COMMANDS = (
    "show",
    "placed",
    "table",
    "drew",
    "draw",
    "best",
    "advise",
    "play",
    "pass",
    "undo",
    "redo",
    "history",
    "score",
    "round",
)


def game_store(ctx: click.Context) -> GameStore:
    """The games folder of this command line (``--dir``)."""
    store: GameStore = ctx.find_root().meta["rummikub.games"]
    return store


def write(ctx: click.Context, game: StoredGame, event: Event) -> StoredGame:
    """Store ``event`` in ``game``: from here on it is recorded, and a Ctrl-C does not say
    otherwise (:func:`rummikub.cli.interrupt.commit`)."""
    interrupt.commit()
    return game_store(ctx).record(game, event)


def game_name(ctx: click.Context) -> str:
    """The name of the game the command is for (``rummikub game NAME ...``)."""
    name: str = ctx.meta["rummikub.game"]
    return name


def load_game(ctx: click.Context) -> StoredGame:
    """The game as stored, after saying any warning about its file."""
    game = game_store(ctx).load(game_name(ctx))
    if game.warning:
        click.echo(f"warning: {game.warning}", err=True)
    return game
