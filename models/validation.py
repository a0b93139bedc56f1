"""The independent move validator: checks a proposed new table against the position.

It knows nothing of the solver: it re-derives legality from the rules alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from rummikub.models.errors import RummikubError
from rummikub.models.meld import Meld, why_illegal
from rummikub.models.position import Position
from rummikub.models.tile import Tile


class IllegalMoveError(RummikubError):
    """A move that breaks the rules: illegal melds, lost table tiles, tiles from nowhere."""


def move_problems(
    position: Position, new_table: Sequence[Meld], placed: Iterable[Tile]
) -> list[str]:
    """Every way the move breaks the rules (empty when it is legal)."""
    rules = position.rules
    problems: list[str] = []
    placed_counts = Counter(placed)
    for i, meld in enumerate(new_table, 1):
        if not meld.is_legal(rules):
            problems.append(
                f"new meld {i} '{meld}' is not a legal set: {why_illegal(meld.tiles, rules)}"
            )
    rack = position.rack_counts()
    for tile, count in placed_counts.items():
        if count > rack[tile]:
            problems.append(f"placed {count}x {tile} but the rack holds {rack[tile]}")
    before = position.table_counts()
    after = Counter(t for meld in new_table for t in meld.tiles)
    expected = before + placed_counts
    for tile in sorted(set(expected) | set(after), key=Tile.sort_key):
        if after[tile] < expected[tile]:
            problems.append(f"{expected[tile] - after[tile]}x {tile} vanished from the table")
        elif after[tile] > expected[tile]:
            problems.append(f"{after[tile] - expected[tile]}x {tile} appeared from nowhere")
    if position.initial and placed_counts:
        old = Counter(tuple(sorted(m.tiles, key=Tile.sort_key)) for m in position.table)
        new = Counter(tuple(sorted(m.tiles, key=Tile.sort_key)) for m in new_table)
        if old - new:
            problems.append("the initial meld may not touch the table")
        fresh = new - old
        value = sum(
            max((r.value for r in Meld(tiles).readings(rules)), default=0) * k
            for tiles, k in fresh.items()
        )
        if value < rules.initial_threshold:
            problems.append(
                f"initial meld worth {value}; the rules ask for at least {rules.initial_threshold}"
            )
    return problems


def check_move(position: Position, new_table: Sequence[Meld], placed: Iterable[Tile]) -> None:
    """Raise :class:`IllegalMoveError` listing what is wrong with the move, if anything."""
    problems = move_problems(position, new_table, placed)
    if problems:
        raise IllegalMoveError("; ".join(problems))
