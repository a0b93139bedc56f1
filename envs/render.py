"""The environments' text rendering: the table, every rack, the moves on offer, the end."""

from __future__ import annotations

from collections.abc import Sequence

from rummikub.envs.moves import TurnMoves
from rummikub.envs.stepped import SteppedRound
from rummikub.models.notation import format_tiles
from rummikub.models.tile import sorted_tiles


def render_round(game: SteppedRound, names: Sequence[str], moves: TurnMoves | None) -> str:
    """The round as text, every rack shown (a rendering is for whoever runs the game)."""
    state = game.state
    lines = [f"turn {state.turn}, pool {len(state.pool)}"]
    table = " | ".join(str(meld) for meld in state.table)
    lines.append(f"table: {table or '(empty)'}")
    for seat, rack in enumerate(state.racks):
        mark = "*" if seat == state.current and not game.over else " "
        opened = "" if state.opened[seat] else " (not opened)"
        tiles = format_tiles(sorted_tiles(rack))
        lines.append(f"{mark} {names[seat]}{opened}: {tiles}")
    if game.result is not None:
        scores = ", ".join(f"{names[s]} {v:+d}" for s, v in enumerate(game.result.scores))
        lines.append(f"{names[game.result.winner]} won ({game.result.reason}): {scores}")
    elif moves is not None:
        lines += [f"  {action}. {name}" for action, name in moves.names().items()]
    return "\n".join(lines)
