"""Planner decision time: how long the ``planner`` thinks per turn, and where the time goes.

    python benchmarks/planner_decision.py                    # 6 games, planner vs hold-back
    python benchmarks/planner_decision.py --games 20 --players planner,hold-back,max-tiles,max-tiles

Plays ``--games`` games in this one process (one core) with the planner in the first seat
of ``--players`` (seeded, so the same turns every run), times every planner decision and
splits it into the solver calls (formulation, model building and CP-SAT search) and the
rest (candidate bookkeeping, the smallest opening, the blocked-round estimate). Times are
CPU time of this process (``time.process_time``: the machine may be shared, and a loaded
machine stretches wall-clock time, not CPU time); the wall-clock median is printed too.
Reports the median, 90th percentile and maximum decision time, solver calls per decision,
and the same for each kind of decision (hold, play, open, go out).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from rummikub.arena.planner import Planner
from rummikub.arena.players import make_player
from rummikub.arena.tournament import deal_seed
from rummikub.game.protocol import PlayerView, Reply
from rummikub.game.rounds import play_game


class TimedPlanner(Planner):
    """The planner, recording each decision's time, solver time and kind."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[tuple[str, float, float, int]] = []  # kind, total, solver, solves
        self.wall: list[float] = []
        self._solver_seconds = 0.0
        play = self.solver.play

        def timed(view: PlayerView, keep_jokers: bool = False) -> Reply:
            started = time.process_time()
            try:
                return play(view, keep_jokers)
            finally:
                self._solver_seconds += time.process_time() - started

        self.solver.play = timed  # type: ignore[method-assign]

    def __call__(self, view: PlayerView) -> Reply:
        solves, self._solver_seconds = self.solves, 0.0
        started, wall = time.process_time(), time.perf_counter()
        play = super().__call__(view)
        total = time.process_time() - started
        self.wall.append(time.perf_counter() - wall)
        if play.is_draw:
            kind = "hold"
        elif len(play.placed) == len(view.rack):
            kind = "go out"
        elif not view.opened:
            kind = "open"
        else:
            kind = "play"
        self.records.append((kind, total, self._solver_seconds, self.solves - solves))
        return play


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) by linear interpolation."""
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def report(label: str, records: list[tuple[str, float, float, int]]) -> None:
    """One line of figures for a group of decisions."""
    totals = [r[1] * 1000 for r in records]
    solver = sum(r[2] for r in records) / max(sum(r[1] for r in records), 1e-12)
    solves = sum(r[3] for r in records) / len(records)
    print(
        f"  {label:<8} {len(records):>6} {statistics.median(totals):>9.1f}"
        f" {percentile(totals, 0.9):>8.1f} {max(totals):>8.1f} {solves:>7.2f} {100 * solver:>7.0f}%"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", default="planner,hold-back")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    others = args.players.split(",")[1:]
    planner = TimedPlanner()
    started = time.perf_counter()
    for game in range(args.games):
        players = [planner, *(make_player(spec) for spec in others)]
        play_game(players, deal_seed(args.seed, game))
    wall = time.perf_counter() - started
    records = planner.records
    print(f"{args.games} games ({args.players}), seed {args.seed}, {wall:.1f} s in one process")
    print(f"  wall-clock median per decision {1000 * statistics.median(planner.wall):.1f} ms;")
    print("  CPU time per decision:")
    print(
        f"  {'kind':<8} {'turns':>6} {'median ms':>9} {'p90 ms':>8} {'max ms':>8} "
        f"{'solves':>7} {'solver':>8}"
    )
    report("all", records)
    by_kind: dict[str, list[tuple[str, float, float, int]]] = defaultdict(list)
    for record in records:
        by_kind[record[0]].append(record)
    for kind in ("hold", "play", "open", "go out"):
        if by_kind[kind]:
            report(kind, by_kind[kind])


if __name__ == "__main__":
    main()
