"""End to end: recorded arena games replayed through the companion from one seat's view.

``rummikub arena --record`` writes real games; the engine replays each one (its own
validator re-checking every move) while the companion is told, from one seat, what a player
at that seat would see: the opponents' new tables, its own draws and plays, and (in one of
the two modes) the opponents' draws. After every event the companion's table, rack, unseen
tiles, opponents' rack sizes and pool size must equal the engine's; each round's score and
the match totals must equal the engine's too.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rummikub.cli.main import main
from rummikub.game.companion import (
    Drew,
    Event,
    History,
    NewGame,
    NewRound,
    OpponentDrew,
    OpponentPlayed,
    Passed,
    Played,
    Scored,
    state_json,
)
from rummikub.game.record import read_events, split_games
from rummikub.game.replay import ScriptedPlayer, _deal
from rummikub.game.rounds import GameConfig, RoundState, Turn, play_game
from rummikub.models.meld import Meld
from rummikub.models.rules import STANDARD, RuleSet
from rummikub.models.tile import Tile


@dataclass(frozen=True)
class Snapshot:
    """What the engine knows after a turn, for one seat."""

    table: tuple[Meld, ...]
    rack: Counter[Tile]
    unseen: Counter[Tile]
    sizes: tuple[int, ...]  # every seat's rack size, counted from the viewing seat
    pool: int
    opened: tuple[bool, ...]  # who has made the opening meld, counted from the viewing seat
    next: int  # the seat to play next, counted from the viewing seat


def _record(tmp_path: Path, *args: str) -> list[list[dict[str, Any]]]:
    path = tmp_path / "games.jsonl"
    result = CliRunner().invoke(
        main, ["arena", *args, "--record", str(path), "--no-progress", "--time-limit", "5"]
    )
    assert result.exit_code == 0, result.output
    return split_games(read_events(path.read_text().splitlines()))


def _engine_snapshots(events: list[dict[str, Any]], seat: int) -> list[Snapshot]:
    """Replay the record in the engine, one snapshot per turn as ``seat`` would count it."""
    header = events[0]
    rules = RuleSet(**header["rules"])
    config = GameConfig(rules, int(header["rack_size"]), header["target"])
    names = list(header["players"])
    n = len(names)
    deals = {e["round"]: _deal(e) for e in events if e["event"] == "deal"}
    turns = [e for e in events if e["event"] == "turn"]
    players = [ScriptedPlayer(e for e in turns if e["seat"] == s) for s in range(n)]
    snapshots: list[Snapshot] = []

    def observe(state: RoundState, turn: Turn) -> None:
        unseen = Counter(state.pool)
        for s, other in enumerate(state.racks):
            if s != seat:
                unseen.update(other)
        sizes = tuple(len(state.racks[(seat + r) % n]) for r in range(n))
        opened = tuple(state.opened[(seat + r) % n] for r in range(n))
        following = (turn.seat + 1 - seat) % n
        rack = Counter(state.racks[seat])
        snapshots.append(
            Snapshot(state.table, rack, unseen, sizes, len(state.pool), opened, following)
        )

    play_game(
        players,
        int(header["seed"]),
        config,
        names=names,
        observer=observe,
        deals=lambda r: deals[r],
    )
    assert len(snapshots) == len(turns)
    return snapshots


class LibraryFollower:
    """Tells the companion's state model directly."""

    def __init__(self) -> None:
        self.history: History | None = None

    def record(self, event: Event) -> None:
        if isinstance(event, NewGame):
            self.history = History.begin(event)
        else:
            assert self.history is not None
            self.history = self.history.record(event)

    def view(self) -> dict[str, Any]:
        assert self.history is not None
        return state_json(self.history.state)


class CliFollower:
    """Tells the companion through the commands a player types: rummikub game ... (with
    --skip: an opponent's draw left untold shows at the next event, as the mode says)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _run(self, *args: str) -> str:
        result = CliRunner().invoke(main, ["game", "--dir", str(self.folder), *args])
        assert result.exit_code == 0, (args, result.output)
        return result.stdout

    def record(self, event: Event) -> None:
        self._run(*_command(event))

    def view(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self._run("g", "show", "--json"))
        return data


def _command(event: Event) -> list[str]:
    """The command line that tells the companion ``event``."""
    table = " | ".join(str(m) for m in getattr(event, "table", ()))
    if isinstance(event, NewGame):
        assert event.rules == STANDARD
        rack = " ".join(map(str, event.rack))
        return ["new", "g", "-n", str(event.players), "--rack", rack,
                "--first", str(event.first), "--target", str(event.target)]  # fmt: skip
    if isinstance(event, OpponentPlayed):
        return ["g", "table", "--skip", "--seat", str(event.seat), table]
    if isinstance(event, OpponentDrew):
        return ["g", "drew", "--skip", "--seat", str(event.seat)]
    if isinstance(event, Drew):
        return ["g", "draw", "--skip", str(event.tile)]
    if isinstance(event, Played):
        return ["g", "play", "--skip", table]
    if isinstance(event, Scored):
        return [
            "g",
            "score",
            "--racks",
            " | ".join(" ".join(map(str, r)) or "-" for r in event.racks),
        ]
    if isinstance(event, NewRound):
        rack = " ".join(map(str, event.rack))
        return ["g", "round", "--rack", rack, "--first", str(event.first)]
    assert isinstance(event, Passed)
    return ["g", "pass", "--skip"]


def _assert_same(view: dict[str, Any], snap: Snapshot, where: str) -> None:
    assert view["table"] == [[str(t) for t in m.tiles] for m in snap.table], where
    assert Counter(view["rack"]) == Counter(str(t) for t in snap.rack.elements()), where
    assert view["unseen"] == {str(t): c for t, c in snap.unseen.items() if c}, where
    sizes = [len(view["rack"])] + [o["rack_size"] for o in view["opponents"]]
    assert tuple(sizes) == snap.sizes, where
    assert view["pool"] == snap.pool, where
    opened = [view["opened"]] + [o["opened"] for o in view["opponents"]]
    assert tuple(opened) == snap.opened, where
    if view["round_over"] is None:
        assert view["to_play"] == snap.next, where


def _follow(events: list[dict[str, Any]], seat: int, explicit_draws: bool, follower: Any) -> int:
    """Feed the game to the companion from ``seat``; returns how many states were compared."""
    header = events[0]
    rules = RuleSet(**header["rules"])
    n = len(header["players"])
    snapshots = iter(_engine_snapshots(events, seat))
    started = False
    compared = 0
    round_turns: dict[int, list[dict[str, Any]]] = {}
    for e in events:
        if e["event"] == "turn":
            round_turns.setdefault(int(e["round"]), []).append(e)
    for e in events:
        kind = e["event"]
        if kind == "deal":
            rack = tuple(Tile.parse(t) for t in e["racks"][seat])
            first = (int(e["first"]) - seat) % n
            if not started:
                follower.record(NewGame(n, rack, rules, first, header["target"] or 200))
                started = True
            else:
                follower.record(NewRound(rack, first))
        elif kind == "turn":
            snap = next(snapshots)
            event = _companion_event(e, seat, n, explicit_draws, round_turns)
            if event is not None:
                follower.record(event)
                _assert_same(follower.view(), snap, f"seat {seat}, {e}")
                compared += 1
        elif kind == "end":
            assert follower.view()["round_over"] == e["reason"]
            racks = e["racks"]
            opponents = tuple(
                tuple(Tile.parse(t) for t in racks[(seat + r) % n]) for r in range(1, n)
            )
            follower.record(Scored(opponents))
            view = follower.view()
            assert view["scores"] == [e["scores"][(seat + r) % n] for r in range(n)]
            assert view["winner"] == (int(e["winner"]) - seat) % n
        elif kind == "result":
            assert follower.view()["totals"] == [e["totals"][(seat + r) % n] for r in range(n)]
    return compared


def _companion_event(
    e: dict[str, Any],
    seat: int,
    n: int,
    explicit_draws: bool,
    round_turns: dict[int, list[dict[str, Any]]],
) -> Event | None:
    relative = (int(e["seat"]) - seat) % n
    action = e["action"]
    if action == "play":
        table = tuple(Meld(tuple(Tile.parse(t) for t in m)) for m in e["table"])
        return Played(table) if relative == 0 else OpponentPlayed(relative, table)
    if relative == 0:
        return Drew(Tile.parse(str(e["drew"]))) if action == "draw" else Passed()
    # Left implicit, an opponent's draw shows at the next event; the passes that end a
    # blocked round are told, as a player at the table would when scoring.
    last = round_turns[int(e["round"])][-n:]
    if explicit_draws or (action == "pass" and e in last):
        return OpponentDrew(relative)
    return None


@pytest.mark.parametrize("explicit_draws", [True, False], ids=["draws-told", "draws-implicit"])
def test_four_player_games_every_seat(tmp_path: Path, explicit_draws: bool) -> None:
    games = _record(
        tmp_path, "--players", "optimal,human,never-play,sets-only", "--games", "2", "--seed", "3"
    )
    compared = 0
    for events in games:
        for seat in range(4):
            compared += _follow(events, seat, explicit_draws, LibraryFollower())
    assert compared > 100  # the games are real: many turns were compared


@pytest.mark.slow
def test_two_and_three_player_matches_with_scoring(tmp_path: Path) -> None:
    """Matches of several rounds: score and next round, the totals as the engine's."""
    for players in ("optimal,greedy", "optimal,human,greedy"):
        games = _record(
            tmp_path, "--players", players, "--games", "1", "--seed", "5", "--match",
            "--target", "100",
        )  # fmt: skip
        rounds = sum(1 for e in games[0] if e["event"] == "deal")
        assert rounds >= 2, "a match of one round would not test the next round"
        n = len(players.split(","))
        for seat in range(n):
            follower = LibraryFollower()
            assert _follow(games[0], seat, seat % 2 == 0, follower) > 10


@pytest.mark.slow
def test_the_same_through_the_command_line(tmp_path: Path) -> None:
    """One game from one seat, typed as a player would: the same states as the engine's."""
    games = _record(tmp_path, "--players", "optimal,human,never-play", "--games", "1",
                    "--seed", "8")  # fmt: skip
    assert _follow(games[0], 1, False, CliFollower(tmp_path / "games")) > 5
