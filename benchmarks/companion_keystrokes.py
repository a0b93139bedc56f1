"""Game companion: how many characters a player types to record an opponent's play.

    python benchmarks/companion_keystrokes.py                     # 300 games, 3 players
    python benchmarks/companion_keystrokes.py --games 100 --joker-rule strict --jobs 2

Plays seeded arena games (one round each, three players in every seat order of
``--players``) and follows each from seat 0 with the companion, as a player at the table
would. For every opponent play it finds the shortest command, typed at the prompt of
``rummikub game NAME``, that records that play exactly (the same melds, and under the
strict and locked rules each joker standing for the same tile):

* ``placed TILES``: the tiles put down (short notation: ``r3-5``, ``rbk9``), when the
  table the companion lays out (:func:`rummikub.game.placed.lay_out`) is the one played;
* ``table EDITS``: edits of the numbered melds (``3+ r6``, ``2,5= ...``, ``+ o1-3``) or
  the whole table in short notation, whichever is shorter
  (:func:`rummikub.game.table_edits.edit_text`).

It reports the median, 90th percentile and mean characters per opponent play, which of
the two commands was the shortest how often, and, for comparison, the whole table typed
in full notation as ``table`` needed before (issue 33: a median of 158 over 36 plays of a
hand-played match).
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import time
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from rummikub.arena.executors import ordered_map
from rummikub.arena.players import make_player
from rummikub.game.companion import (
    Drew,
    Event,
    History,
    NewGame,
    OpponentDrew,
    OpponentPlayed,
    Passed,
    Played,
)
from rummikub.game.placed import lay_out
from rummikub.game.record import GameRecorder
from rummikub.game.rounds import GameConfig, play_game
from rummikub.game.table_edits import edit_text, meld_text, same_table, tiles_text
from rummikub.models.errors import RummikubError
from rummikub.models.jokers import JokerRule
from rummikub.models.meld import Meld
from rummikub.models.rules import STANDARD, RuleSet
from rummikub.models.tile import Tile
from rummikub.solver import Limit

WORK = 5.0  # the players' deterministic work per solve, as the arena's default


@dataclass(frozen=True)
class Play:
    """One opponent play: the shortest command that records it, and the old way."""

    command: str  # the shortest exact command, as typed at the prompt
    kind: str  # "placed", "table edits" or "whole table"
    before: int  # characters of 'table' with the whole table in full notation


def _tiles(items: list[str]) -> tuple[Tile, ...]:
    return tuple(Tile.parse(t) for t in items)


def _shortest(history: History, seat: int, new: tuple[Meld, ...], placed: tuple[Tile, ...]) -> Play:
    """The shortest command recording opponent ``seat``'s play of ``new``."""
    state = history.state
    rules = state.rules
    edits = edit_text(state.table, new, rules)
    whole = " | ".join(meld_text(m) for m in new)
    options = [("table " + edits, "whole table" if edits == whole else "table edits")]
    try:
        layout = lay_out(state, seat, placed, limit=Limit(10.0))
        if same_table(layout.table, new, rules):
            options.append(("placed " + tiles_text(placed), "placed"))
    except RummikubError:
        pass  # not laid out as played: the table is given instead
    command, kind = min(options, key=lambda option: len(option[0]))
    before = len("table " + " | ".join(str(m) for m in new))
    return Play(command, kind, before)


def _told(e: dict[str, Any], seat: int, table: tuple[Meld, ...]) -> Event:
    """The event a player at seat 0 records for a turn of the record."""
    action = e["action"]
    if seat != 0:
        return OpponentPlayed(seat, table) if action == "play" else OpponentDrew(seat)
    if action == "play":
        return Played(table)
    return Drew(Tile.parse(e["drew"])) if action == "draw" else Passed()


def measure_game(task: tuple[int, tuple[str, ...], str]) -> tuple[list[Play], int]:
    """One seeded game followed from seat 0: each opponent play's commands, and how many
    opponent turns were draws (each one 'drew')."""
    seed, names, joker_rule = task
    rules: RuleSet = replace(STANDARD, joker_rule=JokerRule(joker_rule))
    recorder = GameRecorder()
    players = [make_player(name, WORK) for name in names]
    play_game(players, seed, GameConfig(rules=rules, target=None), names=list(names),
              recorder=recorder)  # fmt: skip
    events = recorder.events
    deal = next(e for e in events if e["event"] == "deal")
    history = History.begin(NewGame(len(names), _tiles(deal["racks"][0]), rules, deal["first"]))
    plays: list[Play] = []
    draws = 0
    for e in events:
        if e["event"] != "turn":
            continue
        seat = int(e["seat"])
        table = tuple(Meld.parse(" ".join(m)) for m in e.get("table", []))
        if seat != 0 and e["action"] == "play":
            plays.append(_shortest(history, seat, table, _tiles(e["placed"])))
        draws += seat != 0 and e["action"] != "play"
        history = history.record(_told(e, seat, table))
    return plays, draws


def _percentile(values: list[int], share: float) -> int:
    """The nearest-rank percentile: the smallest value with ``share`` of them at or below."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(len(ordered) * share) - 1)]


def report(plays: list[Play], draws: int, games: int, seconds: float) -> None:
    """The figures: characters per opponent play now and before, and the commands used."""
    now = [len(p.command) for p in plays]
    before = [p.before for p in plays]
    print(f"{games} games, {len(plays)} opponent plays, {draws} opponent draws ({seconds:.0f} s)")
    print(f"{'characters per opponent play':<34} {'median':>6} {'p90':>5} {'mean':>6} {'max':>5}")
    for label, values in (("shortest exact command", now), ("whole table, full (before)", before)):
        print(
            f"  {label:<32} {statistics.median(values):>6.0f} {_percentile(values, 0.9):>5}"
            f" {statistics.mean(values):>6.1f} {max(values):>5}"
        )
    kinds = Counter(p.kind for p in plays)
    shares = ", ".join(f"{kind} {100 * n / len(plays):.1f}%" for kind, n in kinds.most_common())
    print(f"shortest command: {shares}")
    turns = now + [len("drew")] * draws
    print(
        f"per opponent turn, draws included ('drew', 4 characters): median "
        f"{statistics.median(turns):.0f}, p90 {_percentile(turns, 0.9)}"
    )
    for kind in kinds:
        example = next(p.command for p in plays if p.kind == kind)
        print(f"  e.g. {example}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", default="max-tiles,human,hold-back")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--joker-rule", choices=[r.value for r in JokerRule], default="free")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    lineups = list(itertools.permutations(args.players.split(",")))
    tasks = [(args.seed + g, lineups[g % len(lineups)], args.joker_rule) for g in range(args.games)]
    started = time.perf_counter()
    plays: list[Play] = []
    draws = 0
    for found, drawn in ordered_map(measure_game, tasks, jobs=args.jobs):
        plays += found
        draws += drawn
    print(f"players {args.players} (every seat order), joker rule {args.joker_rule}")
    report(plays, draws, args.games, time.perf_counter() - started)


if __name__ == "__main__":
    main()
