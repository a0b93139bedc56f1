"""Rummikub: the best legal move for a position, proved optimal, and the steps to play it.

The small public API::

    import rummikub

    position = rummikub.Position.parse("table: k1-4 | o9-13 | rbk7\\nrack: o8 k13 j b2")
    move = rummikub.solve(position, objective="tiles", limit=rummikub.Limit(seconds=10))
    print(move.status, move.placed_count, [str(m) for m in move.melds])
    for step in rummikub.explain(move):
        print(step)

Everything here is also importable from the subpackages that define it
(:mod:`rummikub.models`, :mod:`rummikub.solver`, :mod:`rummikub.steps`,
:mod:`rummikub.analysis`). The names load on
first use, so ``import rummikub`` (and the ``rummikub`` command) stays fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rummikub.analysis import Analysis, analyze
    from rummikub.models import (
        IllegalMeldError,
        IllegalPositionError,
        JokerRule,
        Meld,
        NotationError,
        Position,
        RulesError,
        RuleSet,
        RummikubError,
        SolverError,
        Tile,
        preset,
    )
    from rummikub.solver import Limit, Move, Objective, RankedMoves, Status, solve, solve_top
    from rummikub.steps import Step, explain, move_json

_HOMES = {
    "IllegalMeldError": "rummikub.models",
    "IllegalPositionError": "rummikub.models",
    "JokerRule": "rummikub.models",
    "Meld": "rummikub.models",
    "NotationError": "rummikub.models",
    "Position": "rummikub.models",
    "RuleSet": "rummikub.models",
    "RulesError": "rummikub.models",
    "RummikubError": "rummikub.models",
    "SolverError": "rummikub.models",
    "Tile": "rummikub.models",
    "preset": "rummikub.models",
    "Analysis": "rummikub.analysis",
    "Limit": "rummikub.solver",
    "Move": "rummikub.solver",
    "Objective": "rummikub.solver",
    "RankedMoves": "rummikub.solver",
    "Status": "rummikub.solver",
    "analyze": "rummikub.analysis",
    "explain": "rummikub.steps",
    "Step": "rummikub.steps",
    "move_json": "rummikub.steps",
    "solve": "rummikub.solver",
    "solve_top": "rummikub.solver",
}
_SUBPACKAGES = ("models", "solver", "steps", "game", "arena", "analysis", "picture", "cli")

__all__ = [
    "Analysis",
    "IllegalMeldError",
    "IllegalPositionError",
    "JokerRule",
    "Limit",
    "Meld",
    "Move",
    "NotationError",
    "Objective",
    "Position",
    "RankedMoves",
    "RuleSet",
    "RulesError",
    "RummikubError",
    "SolverError",
    "Status",
    "Step",
    "Tile",
    "analyze",
    "explain",
    "move_json",
    "preset",
    "solve",
    "solve_top",
]


if not TYPE_CHECKING:  # type checkers see the imports above, so a misspelt name is an error

    def __getattr__(name: str) -> object:
        """Import a public name (or a subpackage) the first time it is used."""
        if name in _HOMES:
            value = getattr(importlib.import_module(_HOMES[name]), name)
        elif name in _SUBPACKAGES:
            value = importlib.import_module(f"{__name__}.{name}")
        else:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    return sorted([*__all__, *_SUBPACKAGES])
