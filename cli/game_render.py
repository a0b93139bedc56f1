"""What the game's commands print: the state, the numbered table, what an event changed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from rummikub.cli.text import plural

if TYPE_CHECKING:
    from rummikub.game.companion import Event, GameState
    from rummikub.models.meld import Meld
    from rummikub.models.tile import Tile


def seat_name(seat: int) -> str:
    """``you`` for seat 0, else ``opponent N``."""
    return "you" if seat == 0 else f"opponent {seat}"


def opponents_line(state: GameState) -> str:
    """Each opponent's rack size and whether they opened, and the pool."""
    parts = []
    for seat in range(1, state.players):
        opened = "" if state.opened[seat] else ", not opened"
        parts.append(f"{seat}: {plural(state.rack_sizes[seat], 'tile')}{opened}")
    return "Opponents: " + "; ".join(parts) + f"   Pool: {state.pool_size}"


def status_line(state: GameState) -> str:
    """Whose turn it is (or how the round ended), the round and the turn."""
    status = click.style(state.status(), bold=True)
    return f"Now: {status}   (round {state.round}, turn {state.turn + 1})"


def meld_text(meld: Meld, placed: list[Tile] | None = None) -> str:
    """A table meld in colour, a joker's declared meaning kept (``j=r4``); tiles found in
    ``placed`` are starred and taken from it (each copy stars one tile)."""
    from rummikub.cli.render import tile_text

    cells = []
    for tile, token in zip(meld.tiles, meld.tokens(), strict=True):
        star = placed is not None and tile in placed
        if star and placed is not None:
            placed.remove(tile)
        if token == str(tile):
            cells.append(tile_text(tile, star))
        else:
            cells.append(click.style(token + ("*" if star else ""), fg="magenta"))
    return " ".join(cells)


def table_lines(
    table: Sequence[Meld], placed: Sequence[Tile] = (), changed: Sequence[int] = ()
) -> list[str]:
    """The table, one numbered meld a line (the numbers the table's edits take), then the
    whole table in one line to paste back (``table ...``)."""
    from rummikub.game.table_edits import meld_text as short_text

    if not table:
        return ["  (empty)"]
    width = len(str(len(table)))
    left = list(placed)
    lines = []
    for number, meld in enumerate(table, 1):
        mark = click.style("  <", fg="cyan") if number - 1 in changed else ""
        lines.append(f"  {number:>{width}}  {meld_text(meld, left)}{mark}")
    lines.append("  as one line: " + " | ".join(short_text(m) for m in table))
    return lines


def unseen_lines(state: GameState) -> list[str]:
    """The unseen tiles, one colour a line."""
    from rummikub.cli.render import tile_text

    unseen = state.unseen()
    rows: dict[str, list[str]] = {}
    for tile in sorted(unseen):
        key = "j" if tile.is_joker else str(tile)[0]
        rows.setdefault(key, []).extend([tile_text(tile)] * unseen[tile])
    return [f"  {' '.join(cells)}" for cells in rows.values()]


def render_state(name: str, state: GameState) -> str:
    """``show``: the game, whose turn, the numbered table, your rack, the opponents, the
    unseen tiles, the round's scores and the match totals."""
    from rummikub.cli.render import tiles_text
    from rummikub.models.tile import sorted_tiles

    tiles = len(state.table_tiles())
    lines = [
        click.style(f"Game {name}", bold=True)
        + f": {state.players} players, round {state.round}, turn {state.turn + 1}",
        status_line(state),
        f"Table ({plural(len(state.table), 'meld')}, {plural(tiles, 'tile')}):",
        *table_lines(state.table),
    ]
    opened = "opened" if state.opened[0] else "opening meld still to make"
    lines.append(f"Your rack ({len(state.rack)}, {opened}): {tiles_text(sorted_tiles(state.rack))}")
    lines.append(opponents_line(state))
    lines.append(f"Unseen ({state.unseen().total()}: the pool and the opponents' racks):")
    lines += unseen_lines(state)
    if state.result is not None:
        scores = ", ".join(f"{seat_name(s)} {v:+d}" for s, v in enumerate(state.result.scores))
        lines.append(f"Round {state.round}: {scores}")
    if any(state.totals) or state.rounds:
        totals = ", ".join(f"{seat_name(s)} {v:+d}" for s, v in enumerate(state.totals))
        lines.append(f"Match totals (to {state.target}): {totals}")
    return "\n".join(lines)


def say_recorded(
    event: Event, before: GameState, after: GameState, notes: Sequence[str] = ()
) -> None:
    """What an event changed: one line for it, the opponents and whose turn it is now (and
    for a play told by its tiles, the table as the companion laid it out, then ``notes``)."""
    from rummikub.game.companion import OpponentPlayed, Played

    line = f"Recorded: {event.describe()}"
    if isinstance(event, OpponentPlayed | Played):
        seat = event.seat if isinstance(event, OpponentPlayed) else 0
        laid = before.rack_sizes[seat] - after.rack_sizes[seat]
        line += f" ({plural(laid, 'tile')} laid)"
    if isinstance(event, OpponentPlayed) and event.placed:
        tiles = " ".join(map(str, event.placed))
        line = f"Recorded: {seat_name(event.seat)} placed {tiles}, laid out by the companion:"
        changed = _changed(before.table, after.table)
        click.echo(line)
        click.echo(f"Table ({plural(len(after.table), 'meld')}; * placed, < changed):")
        click.echo("\n".join(table_lines(after.table, event.placed, changed)))
    else:
        click.echo(line)
    for note in notes:
        click.echo(note)
    click.echo(opponents_line(after))
    click.echo(status_line(after))


def _changed(old: Sequence[Meld], new: Sequence[Meld]) -> list[int]:
    """The places of the new table whose meld is not the old meld there."""
    return [i for i, meld in enumerate(new) if i >= len(old) or old[i] != meld]


def game_json(state: GameState) -> dict[str, Any]:
    """The game's part of ``best --json`` and ``advise --json``."""
    return {
        "to_play": state.to_play,
        "opponents": [
            {"seat": s, "rack_size": state.rack_sizes[s], "opened": state.opened[s]}
            for s in range(1, state.players)
        ],
        "pool": state.pool_size,
        "unseen_count": state.unseen().total(),
    }
