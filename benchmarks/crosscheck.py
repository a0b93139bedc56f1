"""Cross-check at scale: CP-SAT, CBC and the brute-force oracle on many random positions.

Every position is solved by CP-SAT and by CBC (the same formulation, two independent
solvers); every move is checked by the independent validator; positions of the small games
(where brute force is feasible) are also answered by the oracle in ``tests/oracle.py``.
Prints positions, disagreements (must be 0), invalid moves (must be 0) and time per
backend.

    python benchmarks/crosscheck.py --positions 10000 --seed 1
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from oracle import (
    oracle_answer,
)
from solver_score import level_moved, solver_score

from rummikub.models import Position, RuleSet
from rummikub.models.generate import random_position
from rummikub.models.validation import move_problems
from rummikub.solver import Limit, Move, solve

SMALL = (
    RuleSet(colours=3, numbers=7),
    RuleSet(colours=4, numbers=6),
    RuleSet(colours=3, numbers=7, max_jokers_per_set=1),
)


def position_for(seed: int) -> tuple[Position, bool, str, bool]:
    """A seeded position, whether the oracle can answer it, an objective and keep_jokers."""
    rng = random.Random(seed)
    objective = rng.choice(("tiles", "tiles", "value"))
    keep = rng.random() < 0.25
    kind = rng.random()
    if kind < 0.25:  # small game: the oracle can answer it
        rules = rng.choice(SMALL)
        initial = rng.random() < 0.2
        if initial:
            rules = replace(rules, initial_threshold=rng.choice((0, 10, 20, 30)))
        position = random_position(
            seed,
            table_tiles=0 if initial else rng.randint(0, 12),
            rack_tiles=rng.randint(3, 10) if initial else rng.randint(0, 8),
            rules=rules,
            joker_rate=rng.choice((0.1, 0.3)),
            initial=initial,
            rack_jokers=rng.choice((0, 0, 1)),
        )
        return position, True, objective, keep
    initial = kind < 0.35
    table = 0 if initial else rng.choice((0, 10, 20, 30, 40, 50, 60, 70, 76))
    position = random_position(
        seed,
        table_tiles=table,
        rack_tiles=14,
        joker_rate=rng.choice((0.03, 0.08, 0.15)),
        initial=initial,
        rack_jokers=rng.choice((0, 0, 1, 2)),
    )
    return position, False, objective, keep


def scores(move: Move) -> tuple[int, int, int, int]:
    return (
        move.placed_count,
        move.placed_value,
        level_moved(move),
        sum(t.is_joker for t in move.placed),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args()
    limit = Limit(seconds=60)
    times: dict[str, list[float]] = {"cpsat": [], "cbc": [], "oracle": []}
    disagreements: list[str] = []
    invalid: list[str] = []
    unproved = 0
    oracle_checked = 0
    started = time.perf_counter()
    for i in range(args.positions):
        seed = args.seed * 1_000_003 + i
        position, small, objective, keep = position_for(seed)
        moves = {}
        for backend in ("cpsat", "cbc"):
            t = time.perf_counter()
            move = solve(
                position, objective=objective, keep_jokers=keep, limit=limit, backend=backend
            )
            times[backend].append(time.perf_counter() - t)
            moves[backend] = move
            unproved += move.status != "optimal"
            problems = move_problems(position, move.melds, move.placed)
            if problems:
                invalid.append(f"seed {seed} {backend}: {problems[0]}")
        if scores(moves["cpsat"]) != scores(moves["cbc"]):
            disagreements.append(
                f"seed {seed}: cpsat {scores(moves['cpsat'])} cbc {scores(moves['cbc'])}"
            )
        if small:
            t = time.perf_counter()
            expected = oracle_answer(position, objective, keep).score
            times["oracle"].append(time.perf_counter() - t)
            oracle_checked += 1
            got = solver_score(moves["cpsat"])
            if got != expected:
                disagreements.append(f"seed {seed}: oracle {expected} cpsat {got}")
        if (i + 1) % 500 == 0:
            print(f"  {i + 1} positions, {len(disagreements)} disagreements", file=sys.stderr)

    def summary(values: list[float]) -> dict[str, float]:
        if not values:
            return {}
        ordered = sorted(values)
        return {
            "median_ms": round(1000 * statistics.median(ordered), 2),
            "p95_ms": round(1000 * ordered[int(0.95 * (len(ordered) - 1))], 2),
            "max_ms": round(1000 * ordered[-1], 2),
            "total_s": round(sum(ordered), 1),
        }

    report = {
        "positions": args.positions,
        "oracle_checked": oracle_checked,
        "disagreements": len(disagreements),
        "invalid_moves": len(invalid),
        "not_proved_optimal": unproved,
        "time": {name: summary(values) for name, values in times.items()},
        "wall_s": round(time.perf_counter() - started, 1),
        "examples": (disagreements + invalid)[:10],
    }
    if args.json:
        print(json.dumps(report))
        return
    print(f"positions: {report['positions']} (oracle also on {oracle_checked})")
    print(f"disagreements: {report['disagreements']}")
    print(f"invalid moves: {report['invalid_moves']}")
    print(f"not proved optimal: {unproved}")
    for name, figures in report["time"].items():
        if figures:
            print(
                f"{name:7s} median {figures['median_ms']} ms, p95 {figures['p95_ms']} ms, "
                f"max {figures['max_ms']} ms, total {figures['total_s']} s"
            )
    print(f"wall time: {report['wall_s']} s")
    for line in report["examples"]:
        print("  " + line)


if __name__ == "__main__":
    main()
