"""Arena throughput: four-player games per second with every seat played by the solver.

    python benchmarks/arena_throughput.py                 # 48 games, 2 jobs, then a profile
    python benchmarks/arena_throughput.py --games 200 --jobs 2 --profile-games 10

Plays a tournament of ``--players`` (default: max-tiles x4) in ``--jobs`` worker processes
and reports games/s and solves/s, both per wall-clock second and per CPU second (the
machine may be shared), then profiles ``--profile-games`` games in this process with
cProfile and shows where the time goes: building the model, the CP-SAT search, reading
the move back, the validator, the players and the engine.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import resource
import time

from rummikub.arena.players import make_player
from rummikub.arena.tournament import TournamentConfig, deal_seed, run_tournament
from rummikub.game.rounds import play_game

# (label, file suffix, function name): cumulative time of these functions in the profile.
PARTS = [
    ("whole games", "game/rounds.py", "play_game"),
    ("  players (all of their thinking)", "game/rounds.py", "play_turn"),
    ("    solver.solve", "solver/engine.py", "solve"),
    ("      formulate (catalogue, ILP rows)", "solver/formulation.py", "formulate"),
    ("      CP-SAT: build the model", "solver/cpsat.py", "__init__"),
    ("      CP-SAT: search", "ortools/sat/python/cp_model.py", "solve"),
    ("      extract the move", "solver/extraction.py", "extract"),
    ("  validator (move_problems)", "models/validation.py", "move_problems"),
]


def cpu_seconds() -> float:
    """CPU time of this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def measure(players: tuple[str, ...], games: int, jobs: int, seed: int, limit: float) -> None:
    """Run the tournament and print the throughput figures."""
    config = TournamentConfig(players, games, seed=seed, time_limit=limit)
    cpu, wall = cpu_seconds(), time.perf_counter()
    result = run_tournament(config, executor="process", jobs=jobs)
    wall = time.perf_counter() - wall
    cpu = cpu_seconds() - cpu
    data = result.to_json()
    solves = data["timing"]["solves"]
    turns = sum(g.turns for g in result.summaries)
    print(f"players: {', '.join(players)}; {games} games, {jobs} jobs, seed {seed}")
    print(f"  wall {wall:.1f} s: {games / wall:.2f} games/s, {solves / wall:.0f} solves/s")
    print(
        f"  cpu  {cpu:.1f} s: {games / cpu:.2f} games per CPU-second, "
        f"{solves / cpu:.0f} solves per CPU-second"
    )
    print(
        f"  {turns / games:.1f} turns/game, {solves / games:.1f} solves/game, "
        f"{1000 * cpu / max(solves, 1):.1f} CPU-ms per solve (everything included)"
    )


def profile(players: tuple[str, ...], games: int, seed: int, limit: float, top: int) -> None:
    """Profile ``games`` games in this process and print where the time goes."""
    make_player(players[0], limit)  # load the solver before profiling
    profiler = cProfile.Profile()
    profiler.enable()
    for deal in range(games):
        lineup = [make_player(name, limit) for name in players]
        play_game(lineup, deal_seed(seed, deal), names=players)
    profiler.disable()
    stats = pstats.Stats(profiler)
    table = stats.stats  # type: ignore[attr-defined]
    games_time = [v[3] for (f, _, n), v in table.items() if n == "play_game"]
    total = max(games_time, default=1.0)
    print(f"\nprofile of {games} games in one process (cProfile inflates Python-heavy parts):")
    for label, suffix, name in PARTS:
        seconds = sum(v[3] for (f, _, n), v in table.items() if f.endswith(suffix) and n == name)
        print(f"  {label:<40} {seconds:7.2f} s  {100 * seconds / total:5.1f}%")
    print(f"\ntop {top} functions by own time:")
    stats.sort_stats("tottime").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", default="max-tiles,max-tiles,max-tiles,max-tiles")
    parser.add_argument("--games", type=int, default=48)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=5.0)
    parser.add_argument("--profile-games", type=int, default=10, help="0: no profile")
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    players = tuple(args.players.split(","))
    measure(players, args.games, args.jobs, args.seed, args.time_limit)
    if args.profile_games:
        profile(players, args.profile_games, args.seed, args.time_limit, args.top)


if __name__ == "__main__":
    main()
