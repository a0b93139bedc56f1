"""PuLP backend: the same :class:`Formulation` solved by CBC (bundled with PuLP) or HiGHS.

Import this module lazily (only the runs that use it pay for importing PuLP); HiGHS needs the
optional package ``highspy`` (``pip install 'rummikub[mip]'``).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterator
from typing import Any

from rummikub.models.errors import SolverError
from rummikub.solver.limits import Limit, RawSolution, Status, status_from
from rummikub.solver.program import Formulation

# The folded objective takes integer values: any gap below 1 proves optimality exactly.
_ABSOLUTE_GAP = 0.5


@contextlib.contextmanager
def quiet_stdout() -> Iterator[None]:
    """Silence native code that writes to file descriptor 1 (HiGHS prints a banner there)."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "wb") as devnull:
            os.dup2(devnull.fileno(), 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def import_pulp() -> Any:
    try:
        import pulp
    except ImportError:  # a dependency of rummikub, so only in a broken install
        raise SolverError("backend needs the package 'pulp': pip install pulp") from None
    return pulp


def solve_mip(model: Formulation, limit: Limit, engine: str = "cbc") -> RawSolution:
    """Solve the formulation with CBC or HiGHS through PuLP under the limit."""
    pulp = import_pulp()
    if engine == "highs":
        try:
            import highspy  # noqa: F401
        except ImportError:
            raise SolverError(
                "backend 'highs' needs the package 'highspy': pip install highspy"
            ) from None
        backend = pulp.HiGHS(
            msg=False,
            timeLimit=limit.seconds,
            gapRel=0,
            gapAbs=_ABSOLUTE_GAP,
            threads=limit.workers,
            random_seed=0,
        )
    else:
        backend = pulp.PULP_CBC_CMD(  # the CBC binary bundled with PuLP 2.x/3.x
            _skip_v4_deprecation=True,
            msg=False,
            timeLimit=limit.seconds,
            gapRel=0,
            gapAbs=_ABSOLUTE_GAP,
            threads=limit.workers,
        )

    started = time.perf_counter()
    problem = pulp.LpProblem("rummikub", pulp.LpMaximize)
    xs = [
        problem.add_variable(f"v{i}", v.lower, v.upper, pulp.LpInteger)
        for i, v in enumerate(model.variables)
    ]
    objective = model.weighted_goal()
    problem += pulp.lpSum(coef * xs[var] for var, coef in objective) if objective else 0
    for i, c in enumerate(model.constraints):
        expr = pulp.lpSum(coef * xs[var] for var, coef in c.terms)
        if c.lower == c.upper:
            problem += expr == c.lower, f"c{i}"
        else:
            problem += expr >= c.lower, f"c{i}lo"
            problem += expr <= c.upper, f"c{i}hi"
    # No warm start: PuLP passes initial values only with warmStart=True, and the models
    # solve in milliseconds from scratch (the values set here before did nothing).
    try:
        with quiet_stdout():
            problem.solve(backend)
    except pulp.PulpSolverError as error:
        raise SolverError(f"{engine} failed: {' '.join(str(error).split())}") from None
    elapsed = time.perf_counter() - started
    status = status_from(engine, pulp.LpSolution[problem.sol_status])
    if status not in (Status.OPTIMAL, Status.FEASIBLE):
        return RawSolution(status, (), elapsed)
    values = tuple(round(float(x.varValue or 0)) for x in xs)
    return RawSolution(status, values, elapsed)
