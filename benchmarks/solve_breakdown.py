"""Where an arena player's solve spends its time, and the floor CP-SAT sets under it.

    python benchmarks/solve_breakdown.py --games 40

Plays ``--games`` seeded four-player ``max-tiles`` games in this process (the games of
``arena_throughput.py``), timing each stage of every solve with the clock, not a profiler
(which inflates the Python parts): checking the position, ``formulate``, building the
CP-SAT model, CP-SAT's search, reading the move back, and the game engine's check of the
move. Then it solves every model the games asked for again, with CP-SAT alone and the
players' parameters: the time per model by its number of variables, a least-squares line
in that number, and the time CP-SAT takes before its search starts (a deterministic limit
of 1e-9), which no search parameter can save. Figures are CPU time of this process.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

import rummikub.game.rounds as rounds
import rummikub.models.position as position_module
import rummikub.solver as solver_package
import rummikub.solver.cpsat as cpsat
import rummikub.solver.engine as engine
from rummikub.arena.players import make_player
from rummikub.arena.tournament import deal_seed
from rummikub.solver.program import Formulation

SPENT: defaultdict[str, float] = defaultdict(float)  # stage -> CPU seconds
CALLS: Counter[str] = Counter()
MODELS: list[Formulation] = []


def _timed(function: Callable[..., Any], stage: str) -> Callable[..., Any]:
    """``function``, adding its CPU time to ``stage``."""

    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            SPENT[stage] += time.process_time() - started
            CALLS[stage] += 1

    return timed


def _kept(function: Callable[..., Formulation]) -> Callable[..., Formulation]:
    """``function`` (which makes a model), keeping each model for the second part."""

    def keep(*args: Any, **kwargs: Any) -> Formulation:
        model = function(*args, **kwargs)
        MODELS.append(model)
        return model

    return keep


def _wrap(owner: object, name: str, stage: str, keep: bool = False) -> None:
    """Time ``owner.name`` as ``stage`` (``keep``: also keep the models it makes)."""
    function = getattr(owner, name)
    setattr(owner, name, _timed(_kept(function) if keep else function, stage))


def instrument() -> None:
    """Time the stages of a solve (module attributes are looked up at call time)."""
    _wrap(engine, "formulate_turn", "formulate", keep=True)
    _wrap(cpsat.CpSatSession, "__init__", "CP-SAT model")
    _wrap(cpsat.CpSatSession, "_run", "CP-SAT search")
    _wrap(engine, "extract", "reading the move")
    _wrap(position_module.Position, "validate", "checking the position")
    _wrap(rounds, "move_problems", "engine's check of the move")
    _wrap(rounds, "play_turn", "whole turn")
    # The players import ``solve`` from the package: time it there.
    _wrap(solver_package, "solve", "solve")


def play(games: int, seed: int) -> float:
    """Play the games; their CPU seconds."""
    names = ["max-tiles"] * 4
    started = time.process_time()
    for deal in range(games):
        players = [make_player(name) for name in names]
        rounds.play_game(players, deal_seed(seed, deal), names=names)
    return time.process_time() - started


def report_stages(games: int, seconds: float) -> None:
    """CPU ms per game and per solve of each stage."""
    solves = CALLS["solve"]
    print(f"{games} games, {solves} solves, {1000 * seconds / games:.1f} CPU-ms a game")
    print("| stage | calls | ms a game | ms a solve |")
    print("| --- | --- | --- | --- |")
    for stage, spent in sorted(SPENT.items(), key=lambda item: -item[1]):
        per_game, per_solve = 1000 * spent / games, 1000 * spent / solves
        print(f"| {stage} | {CALLS[stage]} | {per_game:.1f} | {per_solve:.3f} |")


def _cpsat_seconds(model: Formulation, deterministic: float | None) -> float:
    """CPU seconds of one CP-SAT search of the model with the players' parameters."""
    session = cpsat.CpSatSession(model)
    started = time.process_time()
    session._run(60.0, deterministic, 1, cuts=False)
    return time.process_time() - started


def report_floor() -> None:
    """CP-SAT alone on every model: by size, a line in the variables, the time before
    the search."""
    sizes = [len(m.variables) for m in MODELS]
    full = [_cpsat_seconds(m, None) * 1000 for m in MODELS]
    before = [_cpsat_seconds(m, 1e-9) * 1000 for m in MODELS]
    print(f"\nCP-SAT alone on the {len(MODELS)} models (CPU ms):")
    print("| variables | models | median | mean | before the search (median) |")
    print("| --- | --- | --- | --- | --- |")
    for low in range(0, max(sizes) + 40, 40):
        picked = [i for i, n in enumerate(sizes) if low <= n < low + 40]
        if picked:
            times = [full[i] for i in picked]
            head = statistics.median(before[i] for i in picked)
            print(
                f"| {low}-{low + 39} | {len(picked)} | {statistics.median(times):.2f} | "
                f"{statistics.fmean(times):.2f} | {head:.2f} |"
            )
    slope, intercept = statistics.linear_regression(sizes, full)
    print(f"least squares: {intercept:.3f} ms + {slope * 1000:.1f} us per variable")
    print(f"mean {statistics.fmean(full):.3f} ms a model, {sum(full) / 1000:.2f} s in all")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    make_player("max-tiles")  # load the solver before timing
    instrument()
    seconds = play(args.games, args.seed)
    report_stages(args.games, seconds)
    report_floor()


if __name__ == "__main__":
    main()
