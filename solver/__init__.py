"""The optimisation: the integer program of a position and its best move (or the K best).

Set catalogue, formulation, kept melds, joker rules and backends are internals in their own
modules (:mod:`~rummikub.solver.catalogue`, :mod:`~rummikub.solver.formulation`, ...).
"""

from rummikub.solver.engine import RankedMoves, solve, solve_top
from rummikub.solver.limits import DEFAULT_TIME_LIMIT, Limit, Status
from rummikub.solver.move import Move, NewMeld, Origin
from rummikub.solver.objectives import Level, Objective

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "Level",
    "Limit",
    "Move",
    "NewMeld",
    "Objective",
    "Origin",
    "RankedMoves",
    "Status",
    "solve",
    "solve_top",
]
