"""OR-Tools CP-SAT backend: turns a :class:`Formulation` into a CP-SAT model and solves it.

Import this module lazily: loading OR-Tools costs about 0.2 s.
"""

from __future__ import annotations

import time

from ortools.sat.python import cp_model

from rummikub.solver.formulation import Formulation
from rummikub.solver.limits import Limit, RawSolution, Status


def solve_cpsat(model: Formulation, limit: Limit) -> RawSolution:
    """Solve the formulation with CP-SAT under the limit (lexicographic goals folded exactly)."""
    started = time.perf_counter()
    cp = cp_model.CpModel()
    xs = [cp.new_int_var(v.lower, v.upper, v.name) for v in model.variables]
    for c in model.constraints:
        expr = sum(coef * xs[var] for var, coef in c.terms)
        if c.lower == c.upper:
            cp.add(expr == c.lower)
        else:
            cp.add_linear_constraint(expr, c.lower, c.upper)
    objective = model.weighted_goal()
    if objective:
        cp.maximize(sum(coef * xs[var] for var, coef in objective))
    # The untouched table with nothing placed is always legal: a hint to start from.
    for var, (_, survival) in model.kept.items():
        cp.add_hint(xs[var], 1 if survival.added == 0 else 0)

    solver = cp_model.CpSolver()
    params = solver.parameters
    params.max_time_in_seconds = limit.seconds
    params.num_workers = limit.workers
    # Measured on this model: presolve and probing cost more than they save (see benchmarks/).
    params.cp_model_presolve = False
    params.cp_model_probing_level = 0
    params.random_seed = 0
    code = solver.solve(cp)
    elapsed = time.perf_counter() - started
    if code == cp_model.OPTIMAL:
        status = Status.OPTIMAL
    elif code == cp_model.FEASIBLE:
        status = Status.FEASIBLE
    elif code == cp_model.INFEASIBLE or code == cp_model.MODEL_INVALID:
        raise AssertionError(f"CP-SAT reports the model as {solver.status_name(code)}")
    else:
        return RawSolution(Status.UNKNOWN, (), elapsed)
    values = tuple(int(solver.value(x)) for x in xs)
    return RawSolution(status, values, elapsed)
