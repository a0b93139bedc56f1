"""Review throughput: turns reviewed per second, one process against ``--jobs`` processes.

    python benchmarks/review_throughput.py                  # 12 games of human,hold-back,optimal
    python benchmarks/review_throughput.py --games 48 --jobs 2 --json out.json

Records a seeded tournament (in this process), then reviews every turn of it with
``rummikub.analysis.review.review_games`` twice: serially, and through the process executor
with ``--jobs`` workers (the same figures, as the review never depends on the executor; the
script checks it). Reports turns per wall-clock second and per CPU second (this process and
its workers: the machine may be shared), and the share of optima proved.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from typing import Any

from rummikub.analysis.review import RecordedGame, review_games
from rummikub.arena.tournament import TournamentConfig, run_tournament


def cpu_seconds() -> float:
    """CPU time of this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def record(players: tuple[str, ...], games: int, seed: int) -> list[RecordedGame]:
    """A seeded tournament's games as a record holds them."""
    config = TournamentConfig(players, games, seed=seed, record=True)
    result = run_tournament(config, executor="serial")
    return [RecordedGame(s.index, tuple(s.events)) for s in result.summaries]


def measure(games: list[RecordedGame], executor: str, jobs: int) -> dict[str, Any]:
    """Review every turn of the games and time it."""
    cpu, wall = cpu_seconds(), time.perf_counter()
    review = review_games(games, lambda seat, name: True, executor=executor, jobs=jobs)
    wall = time.perf_counter() - wall
    cpu = cpu_seconds() - cpu
    turns = sum(p.turns for p in review.players)
    unproved = sum(p.unproved for p in review.players)
    return {
        "executor": executor,
        "jobs": jobs,
        "turns": turns,
        "wall_seconds": round(wall, 2),
        "cpu_seconds": round(cpu, 2),
        "turns_per_second": round(turns / wall, 1),
        "turns_per_cpu_second": round(turns / cpu, 1),
        "proved": 1 - unproved / turns,
        "players": [p.to_json() for p in review.players],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="human,hold-back,optimal")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", dest="json_path", metavar="FILE")
    args = parser.parse_args()
    players = tuple(args.players.split(","))
    games = record(players, args.games, args.seed)
    runs = [measure(games, "serial", 1), measure(games, "process", args.jobs)]
    if runs[0]["players"] != runs[1]["players"]:
        raise SystemExit("the review changed with the executor: a bug")
    print(f"players {args.players}; {args.games} games, seed {args.seed}")
    for run in runs:
        print(
            f"  {run['executor']:<7} {run['jobs']} job(s): {run['turns']} turns in"
            f" {run['wall_seconds']:.1f} s wall ({run['turns_per_second']:.0f} turns/s),"
            f" {run['cpu_seconds']:.1f} s CPU ({run['turns_per_cpu_second']:.0f} turns per"
            f" CPU-second); {100 * run['proved']:.1f}% of optima proved"
        )
    for p in runs[0]["players"]:
        print(
            f"  {p['name']:<10} win rate {100 * p['win_rate']:5.1f}%  accuracy"
            f" {100 * (p['accuracy'] or 0):5.1f}%  held {p['held']:>3}  mistakes {p['mistakes']:>3}"
        )
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as handle:
            json.dump({"args": vars(args), "runs": runs}, handle, indent=1)


if __name__ == "__main__":
    main()
