"""The objectives, in one place: what "best move" means, level by level.

Levels are compared lexicographically: a move is better if it is better on the first level
that differs. Every level is maximised.

* ``tiles`` (default): (1) most rack tiles placed, (2) most value placed (face values of the
  placed non-joker tiles), (3) fewest table tiles picked up (most that stay).
* ``value``: (1) most value placed, (2) most rack tiles placed, (3) fewest table tiles
  picked up.
* Picked up (level 3): each old table meld becomes at most one meld of the new table (and
  each new meld comes from at most one old meld); the tiles they share stay, the others
  are picked up. An old meld's jokers stay only when it stays whole (kept, or extended),
  and under the strict/locked rules a meld with table jokers stays only whole, else all
  its tiles count as picked up. See :mod:`~rummikub.solver.kept`.
* Last, among moves equal on all of the above: most table melds left exactly as they were
  (an untouched meld disturbs less than an extended one). This level never changes the
  scores above; it makes the answer more natural and more often unique.
* Decisive levels only (``solve(..., decisive_only=True)``, for players and searches):
  the levels that decide the game, (1) and (2) above (and "fewest rack jokers played" with
  ``keep_jokers``). The move found places the same number of tiles and the same value as
  the full answer; which table it lays, and how many table tiles it picks up, is any.
* ``keep_jokers`` modifies either: level (1) counts only non-joker tiles (for ``tiles``), and
  right after the first level comes "fewest rack jokers played", so a joker goes down only
  when it lets more real tiles (or more value) go down.
"""

from __future__ import annotations

from enum import StrEnum


class Objective(StrEnum):
    """The primary goal of a move."""

    TILES = "tiles"
    VALUE = "value"


class Level(StrEnum):
    """One criterion of the lexicographic objective; all are maximised."""

    PLACED_COUNT = "placed_count"  # rack tiles placed, jokers included
    PLACED_REAL = "placed_real"  # rack tiles placed, jokers excluded
    PLACED_VALUE = "placed_value"  # face value of the placed tiles
    FEWEST_JOKERS = "fewest_jokers"  # minus the rack jokers placed
    KEPT = "kept"  # table tiles that stay in the meld their old meld becomes (fewest picked up)
    UNTOUCHED = "untouched"  # table melds left exactly as they were


# The levels that only matter to a person reading the move (how much of the table it
# disturbs), not to the game: what a player placed, and its value, decide every round.
HUMAN_FACING = frozenset({Level.KEPT, Level.UNTOUCHED})


def levels(objective: Objective, keep_jokers: bool, decisive: bool = False) -> tuple[Level, ...]:
    """The lexicographic order of criteria for an objective (``decisive``: without the
    human-facing levels, :data:`HUMAN_FACING`)."""
    count = Level.PLACED_REAL if keep_jokers else Level.PLACED_COUNT
    first, second = (
        (count, Level.PLACED_VALUE) if objective is Objective.TILES else (Level.PLACED_VALUE, count)
    )
    order = [first]
    if keep_jokers:
        order.append(Level.FEWEST_JOKERS)
    order.append(second)
    if not decisive:
        order += [Level.KEPT, Level.UNTOUCHED]
    return tuple(order)
