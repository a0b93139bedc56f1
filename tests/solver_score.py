"""The solver's answer scored as the oracles score it, for comparisons in tests.

The oracles' "kept" measure counts a table tile as moved unless its whole old meld survives
inside one new meld: the solver's third level (``scores["kept"]`` is its complement). The
move's ``moved`` are the tiles picked up, what reports say (never more than the level's).
"""

from __future__ import annotations

from oracle import Score, score_of

from rummikub.solver import Move
from rummikub.solver.objectives import Level
from rummikub.solver.opening import continues_onto_table


def level_moved(move: Move) -> int:
    """The solver's third level as a count of moved table tiles (see the module docstring)."""
    position = move.position
    if position.initial and not continues_onto_table(position):
        return 0
    return len(position.table_tiles()) - move.scores[Level.KEPT]


def solver_score(move: Move) -> Score:
    """The solver's answer as :func:`oracle.score_of` scores a move."""
    return score_of(move.placed, level_moved(move))
