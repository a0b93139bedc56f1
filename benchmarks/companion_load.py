"""Game companion: how long reading a game file takes as the game grows.

    python benchmarks/companion_load.py                  # a 4-player match to 200, seed 1
    python benchmarks/companion_load.py --players optimal,hold-back --seed 3 --repeat 50

Plays a seeded arena match (every round, every turn), tells it to the companion from seat 0
as a player would (``rummikub game``: the opponents' tables and draws, your draws and
plays, each round's score and the next deal) into a game file, and then times reading the
file back: every command of ``rummikub game`` starts with that read, which replays and
re-checks every event (legal melds, tile counts, the validator for every play). Reports
the events, the file size, and the median read time after a quarter, half and all of the
events, in wall and CPU milliseconds (the machine may be shared).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from rummikub.arena.players import make_player
from rummikub.game.companion import (
    Drew,
    Event,
    NewGame,
    NewRound,
    OpponentDrew,
    OpponentPlayed,
    Passed,
    Played,
    Scored,
)
from rummikub.game.record import GameRecorder
from rummikub.game.rounds import GameConfig, play_game
from rummikub.game.store import GameStore
from rummikub.models.meld import Meld
from rummikub.models.rules import STANDARD
from rummikub.models.tile import Tile


def _tiles(items: list[str]) -> tuple[Tile, ...]:
    return tuple(Tile.parse(t) for t in items)


def companion_events(record: list[dict[str, Any]]) -> list[Event]:
    """A recorded game as seat 0 tells it to the companion (every draw told)."""
    n = len(record[0]["players"])
    events: list[Event] = []
    for e in record:
        if e["event"] == "deal":
            rack, first = _tiles(e["racks"][0]), int(e["first"])
            started = bool(events)
            events.append(NewRound(rack, first) if started else NewGame(n, rack, STANDARD, first))
        elif e["event"] == "turn":
            table = tuple(Meld(_tiles(m)) for m in e.get("table", []))
            seat, action = int(e["seat"]), e["action"]
            if action == "play":
                events.append(Played(table) if seat == 0 else OpponentPlayed(seat, table))
            elif seat != 0:
                events.append(OpponentDrew(seat))
            else:
                events.append(Drew(Tile.parse(e["drew"])) if action == "draw" else Passed())
        elif e["event"] == "end":
            events.append(Scored(tuple(_tiles(r) for r in e["racks"][1:])))
    return events


def _median_read(store: GameStore, repeat: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        store.load("g")
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return 1000 * statistics.median(walls), 1000 * statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", default="optimal,greedy,max-value,keep-jokers")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=20, help="reads timed per point")
    args = parser.parse_args()
    names = args.players.split(",")
    recorder = GameRecorder()
    players = [make_player(name, 5.0) for name in names]
    play_game(players, args.seed, GameConfig(target=200), names=names, recorder=recorder)
    events = companion_events(recorder.events)
    with tempfile.TemporaryDirectory() as folder:
        store = GameStore(Path(folder))
        first, *rest = events
        assert isinstance(first, NewGame)
        game = store.create("g", first)
        marks = {len(events) // 4, len(events) // 2, len(events) - 1}
        rounds = sum(isinstance(e, Scored) for e in events)
        print(f"{args.players}, seed {args.seed}: {rounds} rounds, {len(events)} events")
        print(f"{'events':>7} {'bytes':>7} {'read ms (wall)':>15} {'read ms (CPU)':>14}")
        for number, event in enumerate(rest, 2):
            game = store.record(game, event)
            if number - 1 in marks:
                wall, cpu = _median_read(store, args.repeat)
                size = game.path.stat().st_size
                print(f"{number:>7} {size:>7} {wall:>15.1f} {cpu:>14.1f}")


if __name__ == "__main__":
    main()
