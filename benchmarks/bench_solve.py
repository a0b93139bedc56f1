"""Warm solve times by size class: our solver (full lexicographic objective) vs the peer.

Usage::

    python benchmarks/bench_solve.py                 # 200 positions per class
    python benchmarks/bench_solve.py --per-class 50 --json results.json

Both solvers are imported and have solved one position before any timing starts (warm).
Each position is solved once by each solver, interleaved, and timed with
``time.perf_counter`` around the public call: ``rummikub.solver.solve(position)`` for us,
``RuleSet.solve(state, SolverMode.TILE_COUNT)`` for the peer (the GameState is built
outside the timed region; building it is a few microseconds).

The peer maximises the number of rack tiles placed (one level); we maximise tiles placed,
then value placed, then tiles kept. So the first level must agree: the number of tiles
placed is compared on every position and every disagreement is printed with the position.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (
    CLASSES,
    Peer,
    Summary,
    check_peer_colour_order,
    class_positions,
    fmt_ms,
    peer_version,
    table,
    tiles_in_play,
)

from rummikub.models.position import Position
from rummikub.solver import Limit, Status, solve
from rummikub.solver.mip import quiet_stdout  # HiGHS prints to fd 1 behind Python's back


@dataclass
class ClassResult:
    """Timings and checks for one size class."""

    name: str
    ours: list[float] = field(default_factory=list)
    peer: list[float] = field(default_factory=list)
    ours_cpu: list[float] = field(default_factory=list)
    peer_cpu: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    not_optimal: int = 0
    disagreements: list[tuple[Position, int, int]] = field(default_factory=list)


def run(
    per_class: int, workers: int, seconds: float, with_peer: bool, backend: str | None
) -> list[ClassResult]:
    """Solve every position of every class with both solvers."""
    limit = Limit(seconds=seconds, workers=workers)
    peer = Peer(backend) if with_peer else None
    if peer is not None:
        print(f"  peer backend: {peer.backend}", file=sys.stderr)
    if peer is not None:
        check_peer_colour_order()
    # Warm-up: imports done, CP-SAT loaded, the peer's cvxpy problems compiled.
    with quiet_stdout():  # HiGHS prints a banner on its first solve
        for warm in class_positions(CLASSES[2], 3, base_seed=9_999_000):
            solve(warm, limit=limit)
            if peer is not None:
                peer.solve_count(warm)

    results = []
    for size in CLASSES:
        result = ClassResult(size.name)
        for position in class_positions(size, per_class):
            result.sizes.append(tiles_in_play(position))
            started, cpu = time.perf_counter(), time.process_time()
            move = solve(position, objective="tiles", keep_jokers=False, limit=limit)
            result.ours.append(time.perf_counter() - started)
            result.ours_cpu.append(time.process_time() - cpu)
            if move.status is not Status.OPTIMAL:
                result.not_optimal += 1
            if peer is not None:
                started, cpu = time.perf_counter(), time.process_time()
                count = peer.solve_count(position)
                result.peer.append(time.perf_counter() - started)
                result.peer_cpu.append(time.process_time() - cpu)
                if count != move.placed_count:
                    result.disagreements.append((position, move.placed_count, count))
        results.append(result)
        print(f"  {size.name}: done", file=sys.stderr, flush=True)
    return results


TIMING_HEADER = ["ours med", "p95", "p99", "max", "peer med", "p95", "p99", "max"]
RATIO_HEADER = ["med ratio", "p95 ratio"]


def timing_cells(ours_times: list[float], peer_times: list[float]) -> list[str]:
    """Our and the peer's median, p95, p99 and max, then the median and p95 ratios."""
    ours, peer = Summary.of(ours_times), Summary.of(peer_times)
    cells = [fmt_ms(x) for x in (ours.median, ours.p95, ours.p99, ours.max)]
    cells += [fmt_ms(x) for x in (peer.median, peer.p95, peer.p99, peer.max)]
    cells.append(f"{ours.median / peer.median:.2f}" if peer.n else "-")
    cells.append(f"{ours.p95 / peer.p95:.2f}" if peer.n else "-")
    return cells


def totals(results: list[ClassResult]) -> list[str]:
    """Our figures over every position, what was not proved, the disagreements."""
    total = Summary.of([t for r in results for t in r.ours])
    lines = [
        f"ours over all {total.n} positions: median {fmt_ms(total.median)} ms, "
        f"p95 {fmt_ms(total.p95)} ms, p99 {fmt_ms(total.p99)} ms, max {fmt_ms(total.max)} ms",
        f"ours not proved optimal within the limit: {sum(r.not_optimal for r in results)}",
    ]
    if any(r.peer for r in results):
        disagreements = [d for r in results for d in r.disagreements]
        checked = sum(len(r.peer) for r in results)
        lines.append(f"placed_count disagreements with the peer: {len(disagreements)} of {checked}")
        for position, ours_count, peer_count in disagreements:
            lines.append(f"--- ours places {ours_count}, the peer {peer_count}:")
            lines.append(position.to_text().rstrip())
    return lines


def report(results: list[ClassResult], backend: str) -> str:
    """The plain-text tables."""
    wall_rows = [
        [r.name, f"{min(r.sizes)}-{max(r.sizes)}", str(len(r.ours)), *timing_cells(r.ours, r.peer)]
        for r in results
    ]
    cpu_rows = [[r.name, *timing_cells(r.ours_cpu, r.peer_cpu)] for r in results]
    lines = [
        "warm solve wall times in ms (ours / peer ratios: lower is better for us); "
        f"peer backend {backend}",
        "",
        table(wall_rows, ["class", "in play", "n", *TIMING_HEADER, *RATIO_HEADER]),
        "",
        "the same solves in process CPU ms (less sensitive to other load on the machine)",
        "",
        table(cpu_rows, ["class", *TIMING_HEADER, *RATIO_HEADER]),
        "",
        *totals(results),
    ]
    return "\n".join(lines)


def to_json(results: list[ClassResult], backend: str) -> dict[str, object]:
    """Machine-readable results."""
    import os

    import ortools

    return {
        "load_average": os.getloadavg(),
        "python": platform.python_version(),
        "ortools": ortools.__version__,  # type: ignore[attr-defined]
        "peer": peer_version(),
        "peer_backend": backend,
        "classes": [
            {
                "class": r.name,
                "in_play": [min(r.sizes), max(r.sizes)],
                "ours": Summary.of(r.ours).ms(),
                "peer": Summary.of(r.peer).ms() if r.peer else None,
                "ours_cpu": Summary.of(r.ours_cpu).ms(),
                "peer_cpu": Summary.of(r.peer_cpu).ms() if r.peer else None,
                "not_optimal": r.not_optimal,
                "disagreements": [
                    {"position": p.to_text(), "ours": a, "peer": b} for p, a, b in r.disagreements
                ],
            }
            for r in results
        ],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-class", type=int, default=200, help="positions per size class")
    parser.add_argument("--workers", type=int, default=1, help="our CP-SAT workers")
    parser.add_argument("--seconds", type=float, default=10.0, help="our time limit per solve")
    parser.add_argument("--no-peer", action="store_true", help="time only our solver")
    parser.add_argument(
        "--peer-backend",
        default="SCIPY",
        help="the peer's MILP backend (SCIPY, HIGHS, ...; 'default' = its own "
        "choice: HIGHS when highspy is installed). SCIPY is the faster here",
    )
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    args = parser.parse_args(argv)

    with_peer = not args.no_peer
    if with_peer and peer_version() == "not installed":
        print("rummikub_solver is not installed: timing ours only", file=sys.stderr)
        with_peer = False
    backend = None if args.peer_backend == "default" else args.peer_backend
    results = run(args.per_class, args.workers, args.seconds, with_peer, backend)
    print(report(results, args.peer_backend))
    if args.json:
        args.json.write_text(json.dumps(to_json(results, args.peer_backend), indent=2) + "\n")
    disagreements = sum(len(r.disagreements) for r in results)
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
