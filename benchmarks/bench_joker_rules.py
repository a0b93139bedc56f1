"""Solve times per table-joker rule (free, strict, locked) on the cross-check positions.

Usage::

    python benchmarks/bench_joker_rules.py                  # 1,500 positions per rule
    python benchmarks/bench_joker_rules.py --positions 300 --json out.json

The positions are those of ``crosscheck.py`` (seeded: empty tables to ~90 tiles in play,
joker rates 3-30 %, a quarter of them small games), each solved under every rule with its
objective and keep-jokers choice, ``Limit(seconds=60, workers=1)``. Every move is checked
by the independent validator under its rule; positions of the small games with a joker on
the table are also answered by the joker-rule oracle (``tests/oracle_jokers.py``) and
every level must agree. Wall and process CPU times per rule (CPU time is less sensitive
to other load on a shared machine). Exit 1 on any invalid move or disagreement.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from common import Summary, fmt_ms, table  # noqa: E402
from crosscheck import position_for  # noqa: E402
from oracle_jokers import joker_oracle_answer  # noqa: E402
from solver_score import solver_score  # noqa: E402

from rummikub.models.jokers import JokerRule  # noqa: E402
from rummikub.models.validation import move_problems  # noqa: E402
from rummikub.solver import Limit, Move, solve  # noqa: E402

RULES = ("free", "strict", "locked")
_VALIDATOR_TAKES_RULE = "joker_rule" in inspect.signature(move_problems).parameters


def problems(move: Move, rule: str) -> list[str]:
    """The validator's complaints about a move under its rule."""
    extra: dict[str, Any] = {"joker_rule": rule} if _VALIDATOR_TAKES_RULE else {}
    return list(move_problems(move.position, move.melds, move.placed, **extra))


def run(positions: int, seed: int, oracle: bool) -> dict[str, dict[str, object]]:
    """Solve every position under every rule; times, checks and failures per rule."""
    limit = Limit(seconds=60)
    solve(position_for(seed * 1_000_003)[0], limit=limit)  # warm: CP-SAT loaded
    results: dict[str, dict[str, object]] = {}
    for rule in RULES:
        wall: list[float] = []
        cpu: list[float] = []
        failures: list[str] = []
        checked = 0
        for i in range(positions):
            number = seed * 1_000_003 + i
            position, small, objective, keep = position_for(number)
            position = replace(position, rules=replace(position.rules, joker_rule=JokerRule(rule)))
            started, cpu_started = time.perf_counter(), time.process_time()
            move = solve(position, objective=objective, keep_jokers=keep, limit=limit)
            wall.append(time.perf_counter() - started)
            cpu.append(time.process_time() - cpu_started)
            if move.status != "optimal":
                failures.append(f"seed {number}: not proved optimal")
            if found := problems(move, rule):
                failures.append(f"seed {number}: invalid move: {found[0]}")
            jokers_on_table = any(m.jokers for m in position.table)
            if oracle and small and jokers_on_table and not position.initial:
                checked += 1
                expected = joker_oracle_answer(position, rule, objective, keep).score
                got = solver_score(move)
                if got != expected:
                    failures.append(f"seed {number}: oracle {expected}, solver {got}")
        results[rule] = {
            "wall": Summary.of(wall),
            "cpu": Summary.of(cpu),
            "oracle_checked": checked,
            "failures": failures,
        }
        print(f"  {rule}: done", file=sys.stderr, flush=True)
    return results


def report(results: dict[str, dict[str, object]]) -> str:
    """The plain-text table."""
    rows = []
    for rule, r in results.items():
        wall, cpu = r["wall"], r["cpu"]
        assert isinstance(wall, Summary) and isinstance(cpu, Summary)
        failures = r["failures"]
        assert isinstance(failures, list)
        rows.append(
            [
                rule,
                str(wall.n),
                *(fmt_ms(v) for v in (wall.median, wall.p99, wall.max)),
                *(fmt_ms(v) for v in (cpu.median, cpu.p99, cpu.max)),
                str(r["oracle_checked"]),
                str(len(failures)),
            ]
        )
    header = ["rule", "n", "med", "p99", "max", "cpu med", "p99", "max", "oracle", "failures"]
    lines = ["solve times per joker rule in ms (wall, then process CPU)", "", table(rows, header)]
    for r in results.values():
        failures = r["failures"]
        assert isinstance(failures, list)
        lines += [f"  {line}" for line in failures[:10]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=1500, help="positions per rule")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-oracle", action="store_true", help="skip the oracle check")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    args = parser.parse_args(argv)
    results = run(args.positions, args.seed, not args.no_oracle)
    print(report(results))
    if args.json:
        payload = {
            rule: {
                "wall": r["wall"].ms(),  # type: ignore[attr-defined]
                "cpu": r["cpu"].ms(),  # type: ignore[attr-defined]
                "oracle_checked": r["oracle_checked"],
                "failures": r["failures"],
            }
            for rule, r in results.items()
        }
        args.json.write_text(json.dumps(payload, indent=2) + "\n")
    return 1 if any(r["failures"] for r in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
