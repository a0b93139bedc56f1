"""OR-Tools CP-SAT backend: turns a :class:`Formulation` into a CP-SAT model and solves it.

Import this module lazily: loading OR-Tools costs about 0.2 s.
"""

from __future__ import annotations

import time

from ortools.sat.python import cp_model

from rummikub.solver.formulation import Formulation, Terms
from rummikub.solver.limits import Limit, RawSolution, Status


class CpSatSession:
    """One CP-SAT model of a formulation, re-solved under changed bounds or goals.

    Building the model is most of the cost of a small solve, so what-if analyses (one more
    tile on the rack, a different goal) change bounds and objective in place instead.
    """

    def __init__(self, model: Formulation) -> None:
        self.formulation = model
        cp = self.cp = cp_model.CpModel()
        self.xs = [cp.new_int_var(v.lower, v.upper, v.name) for v in model.variables]
        for c in model.constraints:
            expr = self._expr(c.terms)
            if c.lower == c.upper:
                cp.add(expr == c.lower)
            else:
                cp.add_linear_constraint(expr, c.lower, c.upper)
        self.set_goal(model.weighted_goal())
        # The untouched table with nothing placed is always legal: a hint to start from.
        for var, (_, survival) in model.kept.items():
            cp.add_hint(self.xs[var], 1 if survival.added == 0 else 0)

    def _expr(self, terms: Terms) -> cp_model.LinearExprT:
        return cp_model.LinearExpr.weighted_sum(
            [self.xs[var] for var, _ in terms], [coef for _, coef in terms]
        )

    def set_goal(self, terms: Terms) -> None:
        """Maximise this expression from now on."""
        self.cp.clear_objective()
        if terms:
            self.cp.maximize(self._expr(terms))

    def set_bounds(self, var: int, lower: int, upper: int) -> None:
        """Change a variable's domain for the next solves."""
        domain = self.xs[var].proto.domain
        domain.clear()
        domain.extend([lower, upper])

    def solve(self, limit: Limit) -> RawSolution:
        """Solve under the limit; ``AssertionError`` if the model has no solution at all."""
        started = time.perf_counter()
        solver = cp_model.CpSolver()
        params = solver.parameters
        params.max_time_in_seconds = limit.seconds
        params.num_workers = limit.workers
        # Measured on this model: presolve and probing cost more than they save
        # (see benchmarks/README.md).
        params.cp_model_presolve = False
        params.cp_model_probing_level = 0
        params.random_seed = 0
        code = solver.solve(self.cp)
        elapsed = time.perf_counter() - started
        if code == cp_model.OPTIMAL:
            status = Status.OPTIMAL
        elif code == cp_model.FEASIBLE:
            status = Status.FEASIBLE
        elif code in (cp_model.INFEASIBLE, cp_model.MODEL_INVALID):
            raise AssertionError(f"CP-SAT reports the model as {solver.status_name(code)}")
        else:
            return RawSolution(Status.UNKNOWN, (), elapsed)
        values = tuple(int(v) for v in solver.values(self.xs))
        return RawSolution(status, values, elapsed)


def solve_cpsat(model: Formulation, limit: Limit) -> RawSolution:
    """Solve the formulation with CP-SAT under the limit (lexicographic goals folded exactly)."""
    started = time.perf_counter()
    raw = CpSatSession(model).solve(limit)
    return RawSolution(raw.status, raw.values, time.perf_counter() - started)
