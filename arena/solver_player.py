"""The solver as a player: every turn the solver's best move for an objective.

``max-tiles``, ``max-value`` and the other solver strategies of :mod:`.players` are this
player; the search (:mod:`.search`) also plays it for the opponents in its play-outs.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from rummikub.game.protocol import DRAW, Action, PlayerView, Reply
from rummikub.models.position import Position

if TYPE_CHECKING:
    from rummikub.solver import Move

# Deterministic work per solve (CP-SAT deterministic seconds), not wall-clock time, so a
# game replays move for move on any machine; a typical game position needs 0.001..0.05.
# Not the solver's DEFAULT_TIME_LIMIT (wall-clock seconds of one solve): another quantity.
TURN_WORK_LIMIT = 5.0


class SolverPlayer:
    """Plays the solver's best move for an objective, every turn it can place anything.

    Before opening it solves the rack alone (the opening meld may not touch the table),
    which is the same move as solving the whole position with ``initial`` and faster.
    ``time_limit`` is deterministic work per solve (see :class:`~rummikub.solver.Limit`),
    never the clock. ``solves`` counts the solver calls.
    """

    def __init__(
        self,
        objective: str = "tiles",
        keep_jokers: bool = False,
        time_limit: float = TURN_WORK_LIMIT,
    ) -> None:
        from rummikub.solver import Limit

        self.objective = objective
        self.keep_jokers = keep_jokers
        self.limit = Limit(seconds=math.inf, workers=1, deterministic=time_limit)
        self.solves = 0

    def solve(self, position: Position) -> Move:
        """The solver's best move for a position under this player's objective."""
        from rummikub.solver import solve

        self.solves += 1
        return solve(
            position,
            objective=self.objective,
            keep_jokers=self.keep_jokers,
            limit=self.limit,
            decisive_only=True,  # a player needs what it places, not the tidiest table
        )

    def best(self, view: PlayerView) -> Reply:
        """The best move this turn (a draw when nothing can be placed)."""
        if not view.opened:
            move = self.solve(Position((), view.rack, True, view.rules))
            if move.is_draw:
                return DRAW
            return Reply(view.table + tuple(move.melds), move.placed)
        move = self.solve(view.position())
        return DRAW if move.is_draw else Reply(tuple(move.melds), move.placed)

    def __call__(self, view: PlayerView) -> Action | None:
        return self.best(view)
