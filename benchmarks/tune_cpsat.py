"""CP-SAT parameter study on our formulation: speed distribution and determinism per setting.

Usage::

    python benchmarks/tune_cpsat.py --configs fast       # ~25 min: 400 positions x 3 solves
    python benchmarks/tune_cpsat.py --configs slow --per-class 10 --repeats 2 --seconds 5
    python benchmarks/tune_cpsat.py --per-class 20 --repeats 2 --configs current,core-lp
    python benchmarks/tune_cpsat.py --list               # the configurations and their params
    python benchmarks/tune_cpsat.py --json out.json      # also per-config digests of solutions
    python benchmarks/tune_cpsat.py --compare out.json   # same solutions as an earlier process?

(``--configs all``, the default, runs the slow ones on every position too: hours.)

It does not touch ``rummikub.solver``: the model comes from ``formulate`` and is handed to
a local copy of ``solve_cpsat`` that takes the CP-SAT parameters, whether to add the hint
(the untouched table), and how to treat the lexicographic objective (folded into one
weighted objective, or solved level by level with each optimum fixed before the next).

For every position every configuration is solved ``--repeats`` times in a row (positions
outer, configurations inner, so that drift of the machine hits all configurations alike).
Timed: building the CpModel plus ``CpSolver.solve`` (the part the parameters change);
``formulate`` is timed once per position and reported separately. The figures use the
first solve of each position; the repeats serve the determinism check: a configuration is
*deterministic here* when every repeat returned exactly the same value for every variable.
Every configuration's optimum (the tuple of level values) must equal the reference's;
a mismatch is reported as an error (a wrong "optimal" answer).

Positions: the size classes of ``common.CLASSES`` except the empty table (20 to 90 tiles in
play) plus a ~75 class, half of them with joker_rate 0.15 (joker-heavy), half with 0.05.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import SizeClass, Summary, fmt_ms, table, tiles_in_play
from ortools.sat.python import cp_model

from rummikub.models.generate import random_position
from rummikub.models.position import Position
from rummikub.solver.formulation import Formulation, Goal, formulate

Params = dict[str, Any]

EACH = (1, 1, 1, 1, 1)  # every level its own solve
# The first production setting, which most configurations below vary.
BASE: Params = {"num_workers": 1, "cp_model_presolve": False, "cp_model_probing_level": 0}
# Today's production setting (solver/cpsat.py): BASE plus these, and the LP built lazily
# only for models with explicit joker sets (``Config.lazy_lp_for_joker_sets``).
LEAN: Params = {
    **BASE,
    "use_sat_inprocessing": False,
    "cut_level": 0,
    "symmetry_level": 0,
    "add_lp_constraints_lazily": False,
}


@dataclass(frozen=True)
class Config:
    """One way of solving: CP-SAT parameters, hint or not, weighted or level by level."""

    name: str
    params: Params
    hint: bool = True
    stages: tuple[int, ...] = ()  # levels per separate solve, the rest folded into the last
    proto: bool = False  # build the CpModelProto directly instead of through expressions
    # (deterministic time budget, params): when the first search has not proved optimality
    # within the budget, go on with these params from its best solution. Deterministic.
    fallback: tuple[float, Params] | None = None
    # As production: add_lp_constraints_lazily on exactly for models with explicit joker
    # sets (the whole LP up front stalls some of those).
    lazy_lp_for_joker_sets: bool = False
    note: str = ""

    @property
    def staged(self) -> bool:
        """Whether the levels are split over more than one solve."""
        return bool(self.stages)


def _configs() -> list[Config]:
    lp, core = cp_model.LP_SEARCH, {**BASE, "optimize_with_core": True}
    slow = "slow"
    return [
        Config("current", LEAN, proto=True, lazy_lp_for_joker_sets=True, note="solver/cpsat.py"),
        Config("lean-lazy-lp", {**LEAN, "add_lp_constraints_lazily": True}, proto=True),
        Config("lean-whole-lp", LEAN, proto=True, note="also for joker sets: stalls some"),
        Config("base", BASE, note="the first production setting"),
        Config("base-proto", BASE, proto=True, note="same, CpModelProto filled directly"),
        Config("inprocessing-off", {**BASE, "use_sat_inprocessing": False}, proto=True),
        Config("cut0", {**BASE, "cut_level": 0}, proto=True),
        Config("whole-lp", {**BASE, "add_lp_constraints_lazily": False}, proto=True),
        Config("no-hint", BASE, hint=False),
        Config("defaults-w1", {"num_workers": 1}, note=slow),
        Config("defaults-w2", {"num_workers": 2}, note=slow),
        Config("defaults-w8", {"num_workers": 8}, note=slow),
        Config("presolve-on", {**BASE, "cp_model_presolve": True}, note=slow),
        Config(
            "presolve-on-probe2",
            {**BASE, "cp_model_presolve": True, "cp_model_probing_level": 2},
            note=slow,
        ),
        Config("w2", {**BASE, "num_workers": 2}),
        Config("w4", {**BASE, "num_workers": 4}),
        Config("w8", {**BASE, "num_workers": 8}),
        Config("w2-interleave", {**BASE, "num_workers": 2, "interleave_search": True}, note=slow),
        Config("w4-interleave", {**BASE, "num_workers": 4, "interleave_search": True}, note=slow),
        Config("w8-interleave", {**BASE, "num_workers": 8, "interleave_search": True}, note=slow),
        Config("lin0", {**BASE, "linearization_level": 0}, note=slow),
        Config("lin2", {**BASE, "linearization_level": 2}),
        Config("sym0", {**BASE, "symmetry_level": 0}),
        Config("sym4", {**BASE, "symmetry_level": 4}),
        Config("fixed-search", {**BASE, "search_branching": cp_model.FIXED_SEARCH}, note=slow),
        Config(
            "portfolio-search", {**BASE, "search_branching": cp_model.PORTFOLIO_SEARCH}, note=slow
        ),
        Config(
            "quick-restart-search",
            {**BASE, "search_branching": cp_model.PORTFOLIO_WITH_QUICK_RESTART_SEARCH},
            note=slow,
        ),
        Config("lp-search", {**BASE, "search_branching": lp}),
        Config("pseudo-cost-search", {**BASE, "search_branching": cp_model.PSEUDO_COST_SEARCH}),
        Config("lin2-lp-search", {**BASE, "linearization_level": 2, "search_branching": lp}),
        Config("lexicographic", BASE, stages=EACH, note="levels in turn, hint kept"),
        Config("lexicographic-no-hint", BASE, hint=False, stages=EACH),
        Config("count-then-rest", BASE, stages=(1,), note="2 solves"),
        Config("core", core),
        Config("core-lp", {**core, "search_branching": lp}),
        Config("core-lp-no-hint", {**core, "search_branching": lp}, hint=False),
        Config("core-lp-proto", {**core, "search_branching": lp}, proto=True),
        Config("core-lin2", {**core, "linearization_level": 2}),
        Config("core-lin2-lp", {**core, "linearization_level": 2, "search_branching": lp}),
        Config("core-lp-w2", {**core, "search_branching": lp, "num_workers": 2}),
        Config(
            "core-lp-w2-interleave",
            {**core, "search_branching": lp, "num_workers": 2, "interleave_search": True},
            note=slow,
        ),
    ]


CONFIGS = _configs()
TUNE_CLASSES = (
    SizeClass("~20", 6),
    SizeClass("~40", 26),
    SizeClass("~60", 46),
    SizeClass("~75", 61),
    SizeClass("~90", 76),
)


def tune_positions(per_class: int, base_seed: int = 7_000_000) -> list[tuple[str, Position]]:
    """Seeded positions: every class, alternating joker rates 0.05 and 0.15."""
    out = []
    for size in TUNE_CLASSES:
        for i in range(per_class):
            rate = 0.15 if i % 2 else 0.05
            seed = base_seed + 1000 * size.table_tiles + i
            position = random_position(
                seed, table_tiles=size.table_tiles, rack_tiles=size.rack_tiles, joker_rate=rate
            )
            out.append((f"{size.name}{'J' if rate > 0.1 else ''}", position))
    return out


# --- a local, parameterised copy of solver/cpsat.py -------------------------------------


@dataclass
class Outcome:
    """What one solve returned."""

    optimal: bool
    values: tuple[int, ...]
    levels: tuple[int, ...]
    build: float
    solve: float
    cpu: float  # process CPU seconds for build + solve (all threads): robust to other load
    dtime: float  # CP-SAT deterministic time, summed over the stages

    @property
    def total(self) -> float:
        """Model build plus solve, seconds."""
        return self.build + self.solve


def _build(model: Formulation, hint: bool, proto: bool) -> cp_model.CpModel:
    """The CpModel without objective: like solver/cpsat.py, or straight into the proto."""
    cp = cp_model.CpModel()
    if proto:  # fill the CpModelProto fields directly: no Python expression objects
        p = cp.proto
        for v in model.variables:
            p.variables.add().domain.extend((v.lower, v.upper))
        for c in model.constraints:
            linear = p.constraints.add().linear
            linear.vars.extend([var for var, _ in c.terms])
            linear.coeffs.extend([coef for _, coef in c.terms])
            linear.domain.extend((c.lower, c.upper))
    else:  # what solver/cpsat.py does
        xs = [cp.new_int_var(v.lower, v.upper, v.name) for v in model.variables]
        for c in model.constraints:
            expr = cp_model.LinearExpr.weighted_sum(
                [xs[var] for var, _ in c.terms], [coef for _, coef in c.terms]
            )
            if c.lower == c.upper:
                cp.add(expr == c.lower)
            else:
                cp.add_linear_constraint(expr, c.lower, c.upper)
    if hint:  # the untouched table with nothing placed
        kept = sorted(model.kept.items())
        _hint(cp, [var for var, _ in kept], [int(s.added == 0) for _, (_, s) in kept])
    return cp


def _hint(cp: cp_model.CpModel, variables: list[int], values: list[int]) -> None:
    hint = cp.proto.solution_hint
    hint.vars.extend(variables)
    hint.values.extend(values)


def _maximize(cp: cp_model.CpModel, terms: tuple[tuple[int, int], ...]) -> None:
    objective = cp.proto.objective
    objective.vars.extend([var for var, _ in terms])
    objective.coeffs.extend([-coef for _, coef in terms])  # the proto minimises
    objective.scaling_factor = -1.0


def _fix(cp: cp_model.CpModel, terms: tuple[tuple[int, int], ...], value: int) -> None:
    linear = cp.proto.constraints.add().linear
    linear.vars.extend([var for var, _ in terms])
    linear.coeffs.extend([coef for _, coef in terms])
    linear.domain.extend((value, value))


def _solver(params: Params, seconds: float) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.random_seed = 0
    for key, value in params.items():
        current = getattr(solver.parameters, key)
        if isinstance(value, list):  # a repeated field (subsolvers)
            current.extend(value)
        elif isinstance(value, int) and type(current) not in (int, bool):  # an enum
            setattr(solver.parameters, key, type(current)(value))
        else:
            setattr(solver.parameters, key, value)
    return solver


def _level_values(model: Formulation, values: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sum(c * values[v] for v, c in goal.terms) for goal in model.goals)


def _fold(model: Formulation, goals: list[Goal]) -> tuple[tuple[int, int], ...]:
    """Levels folded into one objective exactly as Formulation.weighted_goal does."""
    combined: dict[int, int] = {}
    weight = 1
    for goal in reversed(goals):
        for var, coef in goal.terms:
            combined[var] = combined.get(var, 0) + weight * coef
        low, high = model.bounds(goal.terms)
        weight *= high - low + 1
    return tuple(sorted(combined.items()))


def staged_goals(model: Formulation, stages: tuple[int, ...]) -> list[tuple[tuple[int, int], ...]]:
    """The objective of each successive solve: ``stages`` levels each, then the rest."""
    if not stages:
        return [model.weighted_goal()]
    out = []
    rest = list(model.goals)
    for size in stages:
        if len(rest) <= 1:
            break
        out.append(_fold(model, rest[:size]))
        rest = rest[size:]
    if rest:
        out.append(_fold(model, rest))
    return out


def _run(
    cp: cp_model.CpModel, config: Config, seconds: float
) -> tuple[Any, cp_model.CpSolver, float]:
    """One CP-SAT solve; with a fallback, a deterministic budget first, then the fallback."""
    if config.fallback is None:
        solver = _solver(config.params, seconds)
        return solver.solve(cp), solver, solver.deterministic_time
    budget, params = config.fallback
    solver = _solver({**config.params, "max_deterministic_time": budget}, seconds)
    code = solver.solve(cp)
    spent = solver.deterministic_time
    if code == cp_model.OPTIMAL:
        return code, solver, spent
    if code == cp_model.FEASIBLE:  # go on from the best solution found so far
        cp.clear_hints()
        _hint(cp, list(range(len(cp.proto.variables))), list(solver.response_proto.solution))
    second = _solver(params, seconds)
    code = second.solve(cp)
    return code, second, spent + second.deterministic_time


def solve_variant(model: Formulation, config: Config, seconds: float) -> Outcome:
    """Solve like solver/cpsat.py does, with the configuration's choices."""
    if config.lazy_lp_for_joker_sets:
        lazy = {"add_lp_constraints_lazily": model.joker_sets}
        config = replace(config, params={**config.params, **lazy})
    started = time.perf_counter()
    cpu_started = time.process_time()
    cp = _build(model, config.hint, config.proto)
    goals = [terms for terms in staged_goals(model, config.stages) if terms]
    if goals:
        _maximize(cp, goals[0])
    built = time.perf_counter()
    dtime = 0.0
    optimal = True
    values: tuple[int, ...] = ()
    for i, terms in enumerate(goals):
        if i:
            cp.clear_objective()
            _maximize(cp, terms)
        code, solver, spent = _run(cp, config, seconds)
        dtime += spent
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            optimal = False
            values = tuple(0 for _ in model.variables)  # no answer: counted as a timeout
            break
        optimal = optimal and code == cp_model.OPTIMAL
        values = tuple(solver.response_proto.solution)
        if i + 1 < len(goals):
            _fix(cp, terms, round(solver.objective_value))
            if config.hint:  # start the next stage from this solution
                cp.clear_hints()
                _hint(cp, list(range(len(values))), list(values))
    if not goals:  # nothing to optimise (an empty rack): the single feasible point
        solver = _solver(config.params, seconds)
        solver.solve(cp)
        values = tuple(solver.response_proto.solution)
    finished = time.perf_counter()
    cpu = time.process_time() - cpu_started
    return Outcome(
        optimal, values, _level_values(model, values), built - started, finished - built, cpu, dtime
    )


# --- the study --------------------------------------------------------------------------


@dataclass
class ConfigResult:
    """Everything measured for one configuration."""

    config: Config
    times: list[float] = field(default_factory=list)  # first solve of each position
    solve_times: list[float] = field(default_factory=list)
    cpu_times: list[float] = field(default_factory=list)
    by_class: dict[str, list[float]] = field(default_factory=dict)
    not_optimal: int = 0
    wrong: list[int] = field(default_factory=list)  # position indices with another optimum
    nondeterministic: list[int] = field(default_factory=list)
    digest: Any = field(default_factory=hashlib.sha256)


def study(
    positions: list[tuple[str, Position]],
    configs: list[Config],
    repeats: int,
    seconds: float,
    progress: Callable[[str], None],
) -> tuple[list[ConfigResult], list[float]]:
    """Solve every position with every configuration; return results and formulate times."""
    results = [ConfigResult(c) for c in configs]
    formulate_times = []
    reference = Config("reference", {**BASE, "linearization_level": 2})
    # Warm-up: CP-SAT loaded, caches (catalogue, survivals) filled.
    warm = formulate(positions[len(positions) // 2][1])
    for config in configs:
        solve_variant(warm, config, seconds)
    for index, (label, position) in enumerate(positions):
        started = time.perf_counter()
        model = formulate(position)
        formulate_times.append(time.perf_counter() - started)
        expected = solve_variant(model, reference, 60.0).levels
        for result in results:
            outcomes = [solve_variant(model, result.config, seconds) for _ in range(repeats)]
            first = outcomes[0]
            result.times.append(first.total)
            result.solve_times.append(first.solve)
            result.cpu_times.append(first.cpu)
            result.by_class.setdefault(label.rstrip("J"), []).append(first.total)
            result.by_class.setdefault(
                "jokers 0.15" if label.endswith("J") else "jokers 0.05", []
            ).append(first.total)
            if not all(o.optimal for o in outcomes):
                result.not_optimal += 1
            elif first.levels != expected:
                result.wrong.append(index)
            if any(o.values != first.values for o in outcomes[1:]):
                result.nondeterministic.append(index)
            result.digest.update(repr((index, first.values)).encode())
        if (index + 1) % 25 == 0:
            progress(f"  {index + 1}/{len(positions)} positions")
    return results, formulate_times


OVERALL_HEADER = [
    "config",
    "median",
    "p95",
    "p99",
    "max",
    "mean",
    "cpu med",
    "cpu p95",
    "cpu p99",
    "med/cur",
    "p95/cur",
    "timeout",
    "wrong",
    "nondet",
]


def overall_row(r: ConfigResult, base: Summary) -> list[str]:
    """One configuration's distribution, its ratios to 'current', its failures."""
    s = Summary.of(r.times)
    u = Summary.of(r.cpu_times)
    return [
        r.config.name,
        *(fmt_ms(x) for x in (s.median, s.p95, s.p99, s.max, s.mean)),
        *(fmt_ms(x) for x in (u.median, u.p95, u.p99)),
        f"{s.median / base.median:.2f}",
        f"{s.p95 / base.p95:.2f}",
        str(r.not_optimal),
        str(len(r.wrong)),
        f"{len(r.nondeterministic)}",
    ]


def per_class_table(ranked: list[ConfigResult], base: ConfigResult) -> str:
    """Median/p95 of each configuration in each class of positions."""
    classes = sorted(base.by_class, key=lambda c: (c.startswith("jokers"), len(c), c))
    rows = []
    for r in ranked:
        cells = [r.config.name]
        for c in classes:
            s = Summary.of(r.by_class[c])
            cells.append(f"{fmt_ms(s.median)}/{fmt_ms(s.p95)}")
        rows.append(cells)
    return table(rows, ["config", *classes])


def configuration_lines(results: list[ConfigResult]) -> list[str]:
    """What each configuration sets."""
    lines = []
    for r in results:
        extra = [] if r.config.hint else ["no hint"]
        if r.config.proto:
            extra.append("proto built directly")
        if r.config.staged:
            extra.append(f"levels solved in stages of {r.config.stages}")
        params = ", ".join(f"{k}={v}" for k, v in r.config.params.items())
        lines.append(
            f"  {r.config.name}: {params}{'; ' if extra else ''}{', '.join(extra)}"
            f"{'  -- ' + r.config.note if r.config.note else ''}"
        )
    return lines


def report(results: list[ConfigResult], formulate_times: list[float], repeats: int) -> str:
    """Plain-text tables: overall distribution, per class medians, determinism."""
    base = next((r for r in results if r.config.name == "current"), results[0])
    base_summary = Summary.of(base.times)
    ranked = sorted(results, key=lambda r: Summary.of(r.times).p95)
    f = Summary.of(formulate_times)
    build = Summary.of([t - s for t, s in zip(base.times, base.solve_times, strict=True)])
    lines = [
        f"CP-SAT build+solve in ms over {len(base.times)} positions (first of {repeats} solves "
        f"each); ratios vs 'current'; cpu = process CPU time (all threads; less sensitive to "
        f"other load); nondet = positions whose {repeats} solves differed",
        "",
        table([overall_row(r, base_summary) for r in ranked], OVERALL_HEADER),
        "",
        "per class: median/p95 ms",
        "",
        per_class_table(ranked, base),
        "",
        f"formulate (same for every config): median {fmt_ms(f.median)} ms, "
        f"p95 {fmt_ms(f.p95)} ms, max {fmt_ms(f.max)} ms",
        f"CpModel build within 'current': median {fmt_ms(build.median)} ms, "
        f"p95 {fmt_ms(build.p95)} ms",
        "",
        "configurations:",
        *configuration_lines(results),
    ]
    return "\n".join(lines)


def to_json(results: list[ConfigResult], positions: list[tuple[str, Position]]) -> Any:
    """Figures and solution digests per configuration."""
    import ortools

    return {
        "python": platform.python_version(),
        "ortools": ortools.__version__,  # type: ignore[attr-defined]
        "positions": len(positions),
        "configs": {
            r.config.name: {
                "params": {
                    k: v if isinstance(v, int | float) else str(v)
                    for k, v in r.config.params.items()
                },
                "hint": r.config.hint,
                "stages": list(r.config.stages),
                "all": Summary.of(r.times).ms(),
                "all_cpu": Summary.of(r.cpu_times).ms(),
                "by_class": {c: Summary.of(t).ms() for c, t in r.by_class.items()},
                "timeouts": r.not_optimal,
                "wrong": [positions[i][1].to_text() for i in r.wrong],
                "nondeterministic_positions": r.nondeterministic,
                "digest": r.digest.hexdigest(),
                "slowest": [
                    {
                        "index": i,
                        "label": positions[i][0],
                        "ms": round(r.times[i] * 1000, 1),
                        "position": positions[i][1].to_text(),
                    }
                    for i in sorted(range(len(r.times)), key=lambda i: -r.times[i])[:3]
                ],
            }
            for r in results
        },
    }


def compare(results: list[ConfigResult], old_path: Path) -> str:
    """Which configurations returned other solutions than in an earlier process."""
    old = json.loads(old_path.read_text())["configs"]
    lines = [f"solutions compared with {old_path} (another process):"]
    for r in results:
        if r.config.name not in old:
            continue
        same = old[r.config.name]["digest"] == r.digest.hexdigest()
        lines.append(f"  {r.config.name}: {'same' if same else 'DIFFERENT'}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--per-class", type=int, default=80, help="positions per size class (5 classes)"
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="solves per position and configuration (determinism check)",
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="time limit per solve")
    parser.add_argument(
        "--configs", default="all", help="comma-separated names, or all / fast / slow"
    )
    parser.add_argument("--list", action="store_true", help="list the configurations")
    parser.add_argument("--json", type=Path, help="write figures and solution digests here")
    parser.add_argument("--compare", type=Path, help="a --json file from an earlier run")
    args = parser.parse_args(argv)

    configs = CONFIGS
    if args.list:
        for c in configs:
            print(
                f"{c.name}: {c.params} hint={c.hint} stages={c.stages} proto={c.proto}"
                f"{' (slow)' if c.note == 'slow' else ''}"
            )
        return 0
    if args.configs == "fast":
        configs = [c for c in configs if c.note != "slow"]
    elif args.configs == "slow":
        configs = [c for c in configs if c.note == "slow" or c.name == "current"]
    elif args.configs != "all":
        wanted = args.configs.split(",")
        unknown = set(wanted) - {c.name for c in configs}
        if unknown:
            parser.error(f"unknown configurations: {', '.join(sorted(unknown))}")
        configs = [c for c in configs if c.name in wanted]
    positions = tune_positions(args.per_class)
    sizes = [tiles_in_play(p) for _, p in positions]
    print(
        f"{len(positions)} positions, {min(sizes)}-{max(sizes)} tiles in play, "
        f"{len(configs)} configurations x {args.repeats} solves",
        file=sys.stderr,
    )
    results, formulate_times = study(
        positions,
        configs,
        args.repeats,
        args.seconds,
        lambda line: print(line, file=sys.stderr, flush=True),
    )
    print(report(results, formulate_times, args.repeats))
    if args.compare:
        print()
        print(compare(results, args.compare))
    if args.json:
        args.json.write_text(json.dumps(to_json(results, positions), indent=2) + "\n")
    return 1 if any(r.wrong for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
