"""The optimisation: set catalogue, the ILP formulation, backends, and the best move."""

from rummikub.solver.catalogue import CatalogueSet, catalogue
from rummikub.solver.engine import RankedMoves, solve, solve_top
from rummikub.solver.limits import Limit, Status
from rummikub.solver.move import Move, NewMeld, Origin
from rummikub.solver.objectives import Level, Objective, levels

__all__ = [
    "CatalogueSet",
    "Level",
    "Limit",
    "Move",
    "NewMeld",
    "Objective",
    "Origin",
    "RankedMoves",
    "Status",
    "catalogue",
    "levels",
    "solve",
    "solve_top",
]
