"""Speed of the learning environments: steps per second, two and four players.

    python benchmarks/env_speed.py                      # 20 games each, seeds 0..19
    python benchmarks/env_speed.py --games 50 --players 2 4 --learner

Plays ``--games`` whole rounds of ``rummikub_v0`` (the PettingZoo AEC environment) with a
random policy over the action mask, for each number of ``--players``, in this process, and
reports agent steps per second (a step is one agent's action: the solver's candidate moves
of the next turn, the validator's check of this one, the observation), per wall-clock and
per CPU second (the machine may be shared), the solver calls per step and the share of the
time spent finding the candidate moves. ``--learner`` also measures ``rummikub/Rummikub-v0``:
the learner's steps per second against ``planner`` opponents (their turns included).
"""

from __future__ import annotations

import argparse
import functools
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from rummikub.envs import RummikubEnv, moves, rummikub_v0, single_agent

_spent = [0.0]  # seconds inside turn_moves, the candidate moves of a turn


def timed_turn_moves() -> Callable[..., moves.TurnMoves]:
    """``turn_moves`` that adds its time to ``_spent``."""
    inner = moves.turn_moves

    def turn_moves(*args: Any, **kwargs: Any) -> moves.TurnMoves:
        started = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            _spent[0] += time.perf_counter() - started

    return turn_moves


def aec_games(players: int, games: int) -> tuple[int, int]:
    """Random masked games of ``rummikub_v0``; the steps taken and the solver calls."""
    env = rummikub_v0.env(players=players)
    steps = 0
    for seed in range(games):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
    solves: int = env.unwrapped.solver.solves
    return steps, solves


def learner_games(opponents: int, games: int) -> tuple[int, int]:
    """Random masked learner games against ``planner`` opponents; learner steps, solves
    (the learner's candidate moves and the opponents' own)."""
    env = RummikubEnv(opponents=("planner",) * opponents)
    steps = 0
    solves = 0
    for seed in range(games):
        observation, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        terminated = False
        while not terminated:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, _, terminated, _, _ = env.step(action)
            steps += 1
        solves += sum(int(getattr(p, "solves", 0)) for p in env.opponents)
    return steps, solves + env.solver.solves


def measure(label: str, run: Callable[[], tuple[int, int]], games: int) -> None:
    """Run ``run`` and print its figures."""
    _spent[0] = 0.0
    cpu, wall = time.process_time(), time.perf_counter()
    steps, solves = run()
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    print(
        f"{label}: {games} games, {steps} steps ({steps / games:.1f}/game), {solves} solves"
        f" ({solves / steps:.2f}/step)\n"
        f"  wall {wall:.1f} s: {steps / wall:.0f} steps/s, {games / wall:.2f} games/s\n"
        f"  cpu  {cpu:.1f} s: {steps / cpu:.0f} steps per CPU-second,"
        f" {1000 * cpu / steps:.1f} CPU-ms per step;"
        f" candidate moves {100 * _spent[0] / wall:.0f}% of the wall time"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="rounds per measurement")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4], help="table sizes")
    parser.add_argument("--learner", action="store_true", help="also Rummikub-v0 vs planner")
    args = parser.parse_args()
    timed = timed_turn_moves()
    for module in (rummikub_v0, single_agent):  # both took turn_moves by name
        module.__dict__["turn_moves"] = timed
    for players in args.players:
        run = functools.partial(aec_games, players, args.games)
        measure(f"rummikub_v0, {players} players", run, args.games)
    if args.learner:
        for players in args.players:
            run = functools.partial(learner_games, players - 1, args.games)
            measure(f"Rummikub-v0, learner vs {players - 1} planner", run, args.games)


if __name__ == "__main__":
    main()
