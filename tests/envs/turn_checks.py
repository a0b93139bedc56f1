"""The check every environment test applies to every turn, independently of the environment."""

from __future__ import annotations

from collections import Counter

from rummikub.game import RoundState, Turn
from rummikub.models import Position
from rummikub.models.generate import full_set
from rummikub.models.validation import move_problems


def check_turn(before: Position, turn: Turn, state: RoundState) -> None:
    """The turn, checked again by the validator against the position before it, the rack it
    left, and every tile of the game still in the game exactly once."""
    if turn.action == "play":
        assert move_problems(before, turn.table, turn.placed) == []
        assert Counter(before.rack) - Counter(turn.placed) == Counter(state.racks[turn.seat])
    else:
        assert state.table == before.table
    assert state.tile_counts() == full_set(state.rules)
