"""Planner against planner: what decides a game between two hoarders, and two ways out.

    rummikub arena --players planner,planner --games 100 --seed 1 --jobs 2 --record mirror.jsonl
    python benchmarks/planner_mirror.py mirror.jsonl

reads a recorded tournament and reports, for the games whose pool ran out: the rack sizes
at that moment, how often the player with the lower rack value then won, and how the
first play after it went (a player that cannot win a blocked round must play, and its
tiles let the other go out).

The two variants below try to break the standoff; from this folder (``module:callable``
names are found from the current directory):

    cd benchmarks && rummikub arena --players planner,planner_mirror:Early,planner_mirror:Shed \\
        --seats 2 --games 60 --seed 3 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rummikub.arena.planner import Candidate, Planner, PlannerParams
from rummikub.game.protocol import PlayerView


class Early(Planner):
    """Break the standoff as hold-back does: play once the pool holds 10 tiles or fewer."""

    def __init__(self) -> None:
        super().__init__(PlannerParams(pool_low=10))


class Shed(Planner):
    """Play (keeping jokers) once the pool holds 20 or fewer, when every opponent hoards
    (holds 14 tiles or more) and this rack would lose a blocked round."""

    def choose(self, view: PlayerView, options: Sequence[Candidate]) -> Candidate:
        choice = super().choose(view, options)
        if choice.label != "hold" or not view.opened or view.pool_size == 0:
            return choice
        by_label = {c.label: c for c in options}
        full = by_label.get("play all")
        if full is None:
            return choice
        standoff = min(view.opponents_rack_sizes) >= 14 and view.pool_size <= 20
        if standoff and not self._wins_if_blocked(view):
            return by_label.get("keep jokers", full)
        return choice


def _value(tile: str) -> int:
    return 30 if tile == "j" else int(tile[1:])


@dataclass
class _Game:
    racks: list[list[str]]
    pool: int
    turns: int = 0
    exhausted: list[tuple[int, int]] | None = None  # (tiles, value) per seat
    first_play: tuple[int, bool] | None = None  # seat, went out
    winner: int | None = None
    plays: list[int] = field(default_factory=list)


def _read(path: str) -> dict[int, _Game]:
    games: dict[int, _Game] = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            event: dict[str, Any] = json.loads(line)
            kind = event["event"]
            if kind == "deal":
                games[event["game"]] = _Game([list(r) for r in event["racks"]], len(event["pool"]))
                continue
            game = games.get(event.get("game", -1))
            if game is None:
                continue
            if kind == "turn":
                _turn(game, event)
            elif kind == "end":
                game.winner = event["winner"]
    return games


def _turn(game: _Game, event: dict[str, Any]) -> None:
    seat = event["seat"]
    game.turns += 1
    if event["action"] == "draw":
        game.racks[seat].append(event["drew"])
        game.pool -= 1
        if game.pool == 0 and game.exhausted is None:
            game.exhausted = [(len(r), sum(map(_value, r))) for r in game.racks]
    elif event["action"] == "play":
        placed: list[str] = event["placed"]
        if game.exhausted is not None and game.first_play is None:
            game.first_play = (seat, len(placed) == len(game.racks[seat]))
        for tile in placed:
            game.racks[seat].remove(tile)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("record", help="a record written by rummikub arena --record")
    path = parser.parse_args().record
    games = list(_read(path).values())
    dry = [g for g in games if g.exhausted is not None]
    print(f"{len(games)} games, mean {statistics.mean(g.turns for g in games):.1f} turns")
    print(f"the pool ran out in {len(dry)}")
    if not dry:
        return
    sizes = [tiles for g in dry for tiles, _ in g.exhausted or []]
    print(f"  rack sizes then: mean {statistics.mean(sizes):.1f}, min {min(sizes)}")
    lower = sum(
        1
        for g in dry
        if min(range(len(g.racks)), key=lambda s: (g.exhausted or [])[s][1]) == g.winner
    )
    print(f"  won by the lower rack value then: {lower} of {len(dry)}")
    firsts = [g for g in dry if g.first_play is not None]
    out = sum(1 for g in firsts if g.first_play and g.first_play[1])
    lost = sum(
        1 for g in firsts if g.first_play and not g.first_play[1] and g.winner != g.first_play[0]
    )
    print(f"  the first play after it went out in {out} of {len(firsts)}; its player lost {lost}")


if __name__ == "__main__":
    main()
