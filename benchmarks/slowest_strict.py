"""The slowest strict solves among ``bench_joker_rules.py``'s positions, to study the tail.

Usage::

    python benchmarks/slowest_strict.py --positions 600 --top 10 --json slow.json

Each position (``crosscheck.position_for``, seed 1, as ``bench_joker_rules.py``) is solved
under the strict joker rule; the ``--top`` slowest by process CPU time are listed with their
position numbers (``position_for(number)`` rebuilds them) and written to ``--json``. With
``--numbers`` only those positions are re-timed (each ``--repeat`` times, best CPU time).
Last line: median, p95, p99 and max CPU ms over all positions timed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import percentile  # noqa: E402
from crosscheck import position_for  # noqa: E402

from rummikub.models.jokers import JokerRule  # noqa: E402
from rummikub.models.position import Position  # noqa: E402
from rummikub.solver import Limit, solve  # noqa: E402


def strict_position(number: int) -> tuple[Position, str, bool]:
    """Position ``number`` of the benchmark under the strict rule, objective, keep-jokers."""
    position, _, objective, keep = position_for(number)
    rules = replace(position.rules, joker_rule=JokerRule.STRICT)
    return replace(position, rules=rules), objective, keep


def cpu_ms(number: int, repeat: int) -> tuple[float, dict[str, int]]:
    """The best process CPU time of ``repeat`` strict solves (ms), and the scores."""
    position, objective, keep = strict_position(number)
    best = float("inf")
    scores: dict[str, int] = {}
    for _ in range(repeat):
        started = time.process_time()
        move = solve(position, objective=objective, keep_jokers=keep, limit=Limit(seconds=60))
        best = min(best, (time.process_time() - started) * 1000)
        scores = {str(level): value for level, value in move.scores.items()}
    return best, scores


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--numbers", type=int, nargs="*", help="only these positions")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    solve(strict_position(args.seed * 1_000_003)[0], limit=Limit(seconds=60))  # warm
    numbers = args.numbers or [args.seed * 1_000_003 + i for i in range(args.positions)]
    timed = [(number, *cpu_ms(number, args.repeat)) for number in numbers]
    timed.sort(key=lambda row: -row[1])
    rows = timed if args.numbers else timed[: args.top]
    for number, ms, scores in rows:
        print(f"{number}\t{ms:9.1f} ms\t{list(scores.values())}")
    every_ms = [row[1] for row in timed]
    figures = {q: percentile(every_ms, q) for q in (50, 95, 99, 100)}
    print(
        "cpu ms: " + ", ".join(f"p{q} {v:.1f}" for q, v in figures.items()) + f" ({len(every_ms)})"
    )
    if args.json:
        payload = [{"number": n, "cpu_ms": ms, "scores": s} for n, ms, s in timed]
        args.json.write_text(json.dumps(payload, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
