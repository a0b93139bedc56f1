"""The engine entry point: best move for a position under an objective and a limit."""

from __future__ import annotations

import functools
import time
from collections import Counter
from collections.abc import Callable

from rummikub.models.errors import SolverError
from rummikub.models.position import Position
from rummikub.solver.extraction import extract
from rummikub.solver.formulation import Formulation, formulate
from rummikub.solver.limits import DEFAULT_TIME_LIMIT, Limit, RawSolution, Status
from rummikub.solver.move import Move
from rummikub.solver.objectives import Objective

Backend = Callable[[Formulation, Limit], RawSolution]
BACKENDS = ("cpsat", "cbc", "highs")


def load_backend(name: str) -> Backend:
    """The solve function of a backend by name; imports its solver library now."""
    if name == "cpsat":
        from rummikub.solver.cpsat import solve_cpsat

        return solve_cpsat
    if name in ("cbc", "highs"):
        from rummikub.solver.mip import _import_pulp, solve_mip

        _import_pulp()
        return functools.partial(solve_mip, engine=name)
    raise SolverError(f"unknown backend {name!r}: use one of {', '.join(BACKENDS)}")


def solve(
    position: Position,
    objective: Objective | str = Objective.TILES,
    *,
    keep_jokers: bool = False,
    limit: Limit | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
    backend: str = "cpsat",
) -> Move:
    """The best move for ``position``: the whole new table and the rack tiles that go down.

    ``objective`` and ``keep_jokers`` choose what "best" means (see
    :mod:`rummikub.solver.objectives`); the result's ``status`` says whether it is proved
    optimal or only the best found within the limit. ``backend`` is ``cpsat`` (OR-Tools,
    the default), ``cbc`` or ``highs`` (through PuLP); all solve the same formulation.
    """
    run_backend = load_backend(backend)  # the solver library loads here, outside the timing
    started = time.perf_counter()
    try:
        goal = Objective(objective)
    except ValueError:
        raise SolverError(f"unknown objective {objective!r}: use tiles or value") from None
    limit = limit or Limit(seconds=time_limit)
    position.validate()
    model = formulate(position, goal, keep_jokers)
    raw = run_backend(model, limit)
    if raw.status is Status.UNKNOWN:
        # No solution within the limit: the untouched table (draw) is always legal.
        values = tuple(
            1 if var in model.kept and model.kept[var][1].added == 0 else 0
            for var in range(len(model.variables))
        )
        status = Status.FEASIBLE
    else:
        values, status = raw.values, raw.status
    table, placed, moved = extract(position, model, values)
    assert not Counter(placed) - position.rack_counts()
    return Move(
        position=position,
        table=table,
        placed=placed,
        moved=moved,
        status=status,
        objective=goal,
        keep_jokers=keep_jokers,
        seconds=time.perf_counter() - started,
    )
