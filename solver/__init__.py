"""The optimisation: the best move (or the K best) for a position, its steps, its analysis.

The set catalogue, the formulation and the backends are internals in their own modules
(:mod:`~rummikub.solver.catalogue`, :mod:`~rummikub.solver.formulation`, ...).
"""

from rummikub.solver.analysis import Analysis, analyze
from rummikub.solver.engine import RankedMoves, solve, solve_top
from rummikub.solver.explanation import explain
from rummikub.solver.limits import DEFAULT_TIME_LIMIT, Limit, Status
from rummikub.solver.move import Move, NewMeld, Origin
from rummikub.solver.objectives import Level, Objective

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "Analysis",
    "Level",
    "Limit",
    "Move",
    "NewMeld",
    "Objective",
    "Origin",
    "RankedMoves",
    "Status",
    "analyze",
    "explain",
    "solve",
    "solve_top",
]
