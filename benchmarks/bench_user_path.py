"""The whole user path at scale, per joker rule: failures (must be 0) and solve times.

Every position (``tests/user_path.py``: random joker-heavy positions, the presets in turn
with the joker rule set) goes through what a user runs: solve, explain, ``--json`` and the
text render of the CLI, replay of the steps (``rummikub.steps.replay.replay``), the
independent validator (``rummikub.models.validation``) and the independent check of the
steps' table jokers (``tests/joker_steps.py``; a step note counts as a failure too).
Prints, per joker rule, positions,
failures, the solve time median / p95 / p99 / max (wall, in the process) and how many
answers free a table joker (a swap step).

Each position starts from a collected heap, the objects of earlier positions frozen out of
the collector (``gc.collect(); gc.freeze()``, untimed), as a ``rummikub solve`` process
starts: a solve pays for collecting what it allocates itself. Without it (``--gc
as-it-falls``) this long process's full collections, 40-90 ms each on a 2-core machine
once the harness and the caches of thousands of positions are loaded, land inside 1-2% of
the solves and set the p99 of every rule.

    python benchmarks/bench_user_path.py                          # 3,000 positions per rule
    python benchmarks/bench_user_path.py --rules strict --positions 500 --json out.json
    python benchmarks/bench_user_path.py --rules locked --seed 3001 --budget 540   # bounded run
    python benchmarks/bench_user_path.py --gc as-it-falls         # the collector left alone
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from common import percentile
from user_path import (
    JOKER_RULES,
    PRESET_NAMES,
    UserPathError,
    joker_heavy_position,
    rules_for,
    run_user_path,
)


def run_rule(
    joker_rule: str,
    positions: int,
    seed: int,
    budget: float = float("inf"),
    fresh_heap: bool = True,
) -> dict[str, object]:
    """The user path on ``positions`` positions under one joker rule (every preset in turn),
    stopping early once ``budget`` seconds have passed; with ``fresh_heap`` each starts
    from a collected heap with older objects frozen (see the module docstring)."""
    times: list[float] = []
    failures: list[str] = []
    swaps = 0
    start = time.perf_counter()
    done = 0
    try:
        for k in range(positions):
            if time.perf_counter() - start > budget:
                print(
                    f"  {joker_rule}: time budget reached after {done} positions", file=sys.stderr
                )
                break
            preset = PRESET_NAMES[k % len(PRESET_NAMES)]
            position = joker_heavy_position(seed + k, rules_for(preset, joker_rule))
            if fresh_heap:
                gc.collect()
                gc.freeze()
            try:
                result = run_user_path(position, thorough=False)
            except UserPathError as error:
                failures.append(f"seed {seed + k} preset {preset}: {error}")
                continue
            finally:
                done += 1
            times.append(result.solve_seconds)
            swaps += result.swaps
    except KeyboardInterrupt:  # stopped early (timeout -s INT): report what ran
        print(f"  {joker_rule}: interrupted after {done} positions", file=sys.stderr)
    times.sort()
    return {
        "joker_rule": joker_rule,
        "positions": done,
        "failures": len(failures),
        "failure_examples": failures[:3],
        "answers_with_a_swap": swaps,
        "median_ms": 1000 * percentile(times, 50),
        "p95_ms": 1000 * percentile(times, 95),
        "p99_ms": 1000 * percentile(times, 99),
        "max_ms": 1000 * max(times, default=0.0),
        "wall_s": time.perf_counter() - start,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=3000, help="per joker rule")
    parser.add_argument("--rules", nargs="+", choices=JOKER_RULES, default=list(JOKER_RULES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--budget", type=float, default=float("inf"), help="seconds per rule at most (stops early)"
    )
    parser.add_argument(
        "--gc",
        choices=("fresh", "as-it-falls"),
        default="fresh",
        help="start each position from a collected heap (default), or leave the collector alone",
    )
    args = parser.parse_args()
    print(
        f"{'rule':<7} {'positions':>9} {'fail':>5} {'swaps':>6} "
        f"{'median':>8} {'p95':>8} {'p99':>8} {'max':>8} {'wall':>7}"
    )
    rows = []
    for rule in args.rules:
        row = run_rule(rule, args.positions, args.seed, args.budget, args.gc == "fresh")
        rows.append(row)
        print(
            f"{rule:<7} {row['positions']:>9} {row['failures']:>5} "
            f"{row['answers_with_a_swap']:>6} {row['median_ms']:>6.1f}ms {row['p95_ms']:>6.1f}ms "
            f"{row['p99_ms']:>6.1f}ms {row['max_ms']:>6.0f}ms {row['wall_s']:>6.0f}s",
            flush=True,
        )
        for example in row["failure_examples"]:  # type: ignore[attr-defined]
            print("  " + str(example).replace("\n", "\n  "))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    sys.exit(1 if any(row["failures"] for row in rows) else 0)


if __name__ == "__main__":
    main()
