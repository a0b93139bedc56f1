"""OR-Tools CP-SAT backend: turns a :class:`Formulation` into a CP-SAT model and solves it.

Import this module lazily: loading OR-Tools costs about 0.2 s.
"""

from __future__ import annotations

import importlib
import sys
import time
import types
from typing import Any

from rummikub.solver.limits import Limit, RawSolution, Status, status_from
from rummikub.solver.program import Formulation, Terms


class _OnDemand(types.ModuleType):
    """A module that imports the real one on first use."""

    def __getattr__(self, name: str) -> Any:
        return getattr(importlib.import_module(self.__name__), name)


# The two speed tricks below lean on OR-Tools internals, checked on these versions (both
# inclusive); outside them the plain CpModel and a plain import are used, which work the
# same, only slower to start. tests/test_cpsat_tricks.py fails if the internals move.
TRICKS_CHECKED = ((9, 10), (9, 15))
_PRE_PEP8_HOOK = "_add_pre_pep8_methods"


def _version(text: str) -> tuple[int, int]:
    major, minor, *_ = (int(part) for part in [*text.split(".")[:2], "0", "0"])
    return major, minor


def tricks_apply(ortools_version: str) -> bool:
    """Whether the speed tricks were checked on this OR-Tools version."""
    low, high = TRICKS_CHECKED
    return low <= _version(ortools_version) <= high


def _import_cp_model(tricks: bool) -> types.ModuleType:
    """Import CP-SAT without paying ~130 ms for pandas at start-up.

    ``cp_model`` imports pandas only for its pandas-based helpers (variable series), which
    this backend never calls; at import it merely names ``pd.Index`` and ``pd.Series`` in
    type aliases. Unless pandas is already loaded, those names come from a stand-in during
    the import, and afterwards ``cp_model.pd`` imports the real pandas on first use, so
    those helpers still work for anyone else in the process. Should the stand-in not do
    (an OR-Tools that needs more of pandas at import), the plain import follows.
    """
    name = "ortools.sat.python.cp_model"
    if not tricks or name in sys.modules or "pandas" in sys.modules:
        return importlib.import_module(name)
    stand_in = types.ModuleType("pandas")
    stand_in.Index = type("Index", (), {})  # type: ignore[attr-defined]
    stand_in.Series = type("Series", (), {})  # type: ignore[attr-defined]
    sys.modules["pandas"] = stand_in
    try:
        module = importlib.import_module(name)
    except Exception:  # any failure of the trick: import as usual
        sys.modules.pop(name, None)
        sys.modules.pop("pandas", None)
        return importlib.import_module(name)
    finally:
        if sys.modules.get("pandas") is stand_in:
            del sys.modules["pandas"]
    module.pd = _OnDemand("pandas")  # type: ignore[attr-defined]
    return module


def _lean_model_class(base: type, tricks: bool) -> type:
    """``base`` (CpModel) without the pre-PEP 8 method aliases (this backend never uses
    them), or ``base`` itself when the private hook is not there or not checked.

    ``CpModel()`` wraps every ``add_*``/``new_*`` method under its old CamelCase name on
    each construction: 0.1 ms, as much as a whole small solve's model building.
    """
    if not tricks or not callable(getattr(base, _PRE_PEP8_HOOK, None)):
        return base

    def skip_aliases(self: Any) -> None:
        pass

    return type("LeanCpModel", (base,), {_PRE_PEP8_HOOK: skip_aliases})


# Deterministic time of the first, lean search (see CpSatSession.solve). Of the ~60- and
# ~90-tile solves of benchmarks/bench_solve.py, 0.009 is the p90 and 0.028 the p99; 0.02
# gave the smallest total time of 0.01, 0.02 and 0.05 (benchmarks/README.md).
LEAN_WORK = 0.02

_TRICKS = tricks_apply(importlib.import_module("ortools").__version__)
cp_model: Any = _import_cp_model(_TRICKS)
_Model: Any = _lean_model_class(cp_model.CpModel, _TRICKS)


# The variable message class of this OR-Tools version (a pybind11 or a protobuf class).
_VariableProto: Any = type(_Model().proto.variables.add())
_DOMAINS: dict[tuple[int, int], Any] = {}  # (lower, upper) -> a variable proto to copy


def _variable(lower: int, upper: int) -> Any:
    """A variable proto with this domain, shared: the model's repeated field copies it."""
    key = (lower, upper)
    if key not in _DOMAINS:
        variable = _VariableProto()
        variable.domain.extend(key)
        _DOMAINS[key] = variable
    return _DOMAINS[key]


class CpSatSession:
    """One CP-SAT model of a formulation, re-solved under changed bounds or goals.

    Building the model is most of the cost of a small solve, so what-if analyses (one more
    tile on the rack, a different goal) change bounds and objective in place instead.
    """

    def __init__(self, model: Formulation) -> None:
        self.formulation = model
        cp = self.cp = _Model()
        # The CpModelProto is filled directly: no Python expression objects (15% faster
        # on small models than new_int_var/add, with the same solutions); the variables in
        # one call (a quarter of the time of one call per variable).
        proto = cp.proto
        proto.variables.extend([_variable(v.lower, v.upper) for v in model.variables])
        add_constraint = proto.constraints.add
        for c in model.constraints:
            linear = add_constraint().linear
            variables, coefficients = zip(*c.terms, strict=True) if c.terms else ((), ())
            linear.vars.extend(variables)
            linear.coeffs.extend(coefficients)
            linear.domain.extend((c.lower, c.upper))
        # No hint to start from: the untouched table (the old melds' columns) made CP-SAT
        # spend its first work completing it; without it the lean search is about a
        # quarter faster on every size class (benchmarks/README.md, "No hint").
        self.set_goal(model.weighted_goal())

    def set_goal(self, terms: Terms) -> None:
        """Maximise this expression from now on."""
        self.cp.clear_objective()
        if terms:
            objective = self.cp.proto.objective
            objective.vars.extend([var for var, _ in terms])
            objective.coeffs.extend([-coef for _, coef in terms])  # the proto minimises
            objective.scaling_factor = -1.0

    def set_bounds(self, var: int, lower: int, upper: int) -> None:
        """Change a variable's domain for the next solves."""
        domain = self.cp.proto.variables[var].domain
        domain.clear()
        domain.extend([lower, upper])

    def solve(self, limit: Limit) -> RawSolution:
        """Solve under the limit (status ``infeasible`` if the model has no solution).

        First with the lean parameters, for at most ``LEAN_WORK`` of deterministic
        time; a model they have not proved by then is solved again, from the best move
        found, with CP-SAT's cuts on. Measured on these models (benchmarks/README.md):
        the lean search is the fastest on nearly all of them, but a few of the models
        that rank old melds by the tiles that stay take it seconds, which the cuts prove
        in tens of milliseconds. Both bounds are deterministic, so the answer is too.
        """
        started = time.perf_counter()
        first = min(LEAN_WORK, limit.deterministic or LEAN_WORK)
        raw, work = self._run(limit.seconds, first, limit.workers, cuts=False)
        left = limit.seconds - (time.perf_counter() - started)
        more = None if limit.deterministic is None else limit.deterministic - work
        if raw.status not in (Status.FEASIBLE, Status.UNKNOWN) or left <= 0:
            return raw
        if more is not None and more <= 0:
            return raw
        if raw.values:
            self._hint(raw.values)
        again, _ = self._run(left, more, limit.workers, cuts=True)
        if again.status is Status.UNKNOWN:
            again = raw
        return RawSolution(again.status, again.values, time.perf_counter() - started)

    def _hint(self, values: tuple[int, ...]) -> None:
        """Start the next search from this solution."""
        self.cp.clear_hints()
        hint = self.cp.proto.solution_hint
        hint.vars.extend(range(len(values)))
        hint.values.extend(values)

    def _run(
        self, seconds: float, deterministic: float | None, workers: int, cuts: bool
    ) -> tuple[RawSolution, float]:
        """One search; also its deterministic time."""
        started = time.perf_counter()
        solver = cp_model.CpSolver()
        params = solver.parameters
        params.max_time_in_seconds = seconds
        if deterministic is not None:
            params.max_deterministic_time = deterministic
        params.num_workers = workers
        # Measured on this model (benchmarks/README.md): presolve, probing, inprocessing,
        # cuts and symmetry detection cost more than they save on these small models. The
        # whole LP from the start (not constraint by constraint) halves the wildcard and
        # joker-free solves, but stalls some models with explicit joker sets.
        params.cp_model_presolve = False
        params.cp_model_probing_level = 0
        params.use_sat_inprocessing = False
        params.cut_level = 1 if cuts else 0
        params.symmetry_level = 0
        params.add_lp_constraints_lazily = self.formulation.joker_sets
        params.random_seed = 0
        # CP-SAT would otherwise install its own SIGINT handler for the whole process (a
        # library leaves signals to its caller: Ctrl-C reaches the CLI's and the web app's).
        params.catch_sigint_signal = False
        code = solver.solve(self.cp)
        elapsed = time.perf_counter() - started
        work = solver.response_proto.deterministic_time
        status = status_from("CP-SAT", solver.status_name(code))
        if status not in (Status.OPTIMAL, Status.FEASIBLE):
            return RawSolution(status, (), elapsed), work
        values = tuple(solver.response_proto.solution)  # in variable order
        return RawSolution(status, values, elapsed), work


def solve_cpsat(model: Formulation, limit: Limit) -> RawSolution:
    """Solve the formulation with CP-SAT under the limit (lexicographic goals folded exactly)."""
    started = time.perf_counter()
    raw = CpSatSession(model).solve(limit)
    return RawSolution(raw.status, raw.values, time.perf_counter() - started)
