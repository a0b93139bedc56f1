"""End to end: recorded arena games replayed through the companion from one seat's view.

``rummikub arena --record`` writes real games; the engine replays each one (its own
validator re-checking every move) while the companion is told, from one seat, what a player
at that seat would see: the opponents' new tables, its own draws and plays, and (in one of
the two modes) the opponents' draws. After every event the companion's table, rack, unseen
tiles, opponents' rack sizes and pool size must equal the engine's; each round's score and
the match totals must equal the engine's too.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from rummikub.arena.companion import (
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
)
from rummikub.arena.game import GameConfig, RoundState, Turn, play_game
from rummikub.arena.record import read_events, split_games
from rummikub.arena.replay import ScriptedPlayer, _deal
from rummikub.cli.main import main
from rummikub.models.meld import Meld
from rummikub.models.rules import RuleSet
from rummikub.models.tile import Tile


@dataclass(frozen=True)
class Snapshot:
    """What the engine knows after a turn, for one seat."""

    table: tuple[Meld, ...]
    rack: Counter[Tile]
    unseen: Counter[Tile]
    sizes: tuple[int, ...]  # every seat's rack size, counted from the viewing seat
    pool: int


def _record(tmp_path: Path, *args: str) -> list[list[dict[str, object]]]:
    path = tmp_path / "games.jsonl"
    result = CliRunner().invoke(
        main, ["arena", *args, "--record", str(path), "--no-progress", "--time-limit", "5"]
    )
    assert result.exit_code == 0, result.output
    return split_games(read_events(path.read_text().splitlines()))


def _engine_snapshots(events: list[dict[str, object]], seat: int) -> list[Snapshot]:
    """Replay the record in the engine, one snapshot per turn as ``seat`` would count it."""
    header = events[0]
    rules = RuleSet(**header["rules"])  # type: ignore[arg-type]
    config = GameConfig(rules, int(header["rack_size"]), header["target"])  # type: ignore[call-overload, arg-type]
    names = list(header["players"])  # type: ignore[call-overload]
    n = len(names)
    deals = {e["round"]: _deal(e) for e in events if e["event"] == "deal"}
    turns = [e for e in events if e["event"] == "turn"]
    players = [ScriptedPlayer(e for e in turns if e["seat"] == s) for s in range(n)]
    snapshots: list[Snapshot] = []

    def observe(state: RoundState, turn: Turn) -> None:
        unseen = Counter(state.pool)
        for s, rack in enumerate(state.racks):
            if s != seat:
                unseen.update(rack)
        sizes = tuple(len(state.racks[(seat + r) % n]) for r in range(n))
        snapshots.append(
            Snapshot(state.table, Counter(state.racks[seat]), unseen, sizes, len(state.pool))
        )

    play_game(
        players,
        int(header["seed"]),  # type: ignore[call-overload]
        config,
        names=names,
        observer=observe,
        deals=lambda r: deals[r],
    )
    assert len(snapshots) == len(turns)
    return snapshots


def _assert_same(history: History, snap: Snapshot, where: str) -> None:
    state = history.state
    assert [m.tiles for m in state.table] == [m.tiles for m in snap.table], where
    assert Counter(state.rack) == snap.rack, where
    assert state.unseen() == snap.unseen, where
    assert state.rack_sizes == snap.sizes, where
    assert state.pool_size == snap.pool, where


def _follow(events: list[dict[str, object]], seat: int, explicit_draws: bool) -> int:
    """Feed the game to the companion from ``seat``; returns how many states were compared."""
    header = events[0]
    rules = RuleSet(**header["rules"])  # type: ignore[arg-type]
    n = len(header["players"])  # type: ignore[arg-type]
    snapshots = iter(_engine_snapshots(events, seat))
    history: History | None = None
    compared = 0
    round_turns: dict[int, list[dict[str, object]]] = {}
    for e in events:
        if e["event"] == "turn":
            round_turns.setdefault(int(e["round"]), []).append(e)  # type: ignore[call-overload]
    for e in events:
        kind = e["event"]
        if kind == "game":
            continue
        if kind == "deal":
            rack = tuple(Tile.parse(t) for t in e["racks"][seat])  # type: ignore[index]
            first = (int(e["first"]) - seat) % n  # type: ignore[call-overload]
            if history is None:
                target = header["target"] or 200
                history = History.begin(NewGame(n, rack, rules, first, target))  # type: ignore[arg-type]
            else:
                history = history.record(NewRound(rack, first))
            continue
        assert history is not None
        if kind == "turn":
            snap = next(snapshots)
            event = _companion_event(e, seat, n, explicit_draws, round_turns)
            if event is None:
                continue
            history = history.record(event)
            _assert_same(history, snap, f"seat {seat}, {e}")
            compared += 1
        elif kind == "end":
            state = history.state
            assert state.ended == e["reason"]
            racks = e["racks"]
            opponents = tuple(
                tuple(Tile.parse(t) for t in racks[(seat + r) % n])  # type: ignore[index]
                for r in range(1, n)
            )
            history = history.record(Scored(opponents))
            result = history.state.result
            assert result is not None
            scores = e["scores"]
            assert result.scores == tuple(scores[(seat + r) % n] for r in range(n))  # type: ignore[index]
            assert result.winner == (int(e["winner"]) - seat) % n  # type: ignore[call-overload]
        elif kind == "result":
            totals = e["totals"]
            assert history.state.totals == tuple(totals[(seat + r) % n] for r in range(n))  # type: ignore[index]
    return compared


def _companion_event(
    e: dict[str, object],
    seat: int,
    n: int,
    explicit_draws: bool,
    round_turns: dict[int, list[dict[str, object]]],
) -> Event | None:
    relative = (int(e["seat"]) - seat) % n  # type: ignore[call-overload]
    action = e["action"]
    if action == "play":
        table = tuple(Meld(tuple(Tile.parse(t) for t in m)) for m in e["table"])  # type: ignore[attr-defined]
        return Played(table) if relative == 0 else OpponentPlayed(relative, table)
    if relative == 0:
        return Drew(Tile.parse(str(e["drew"]))) if action == "draw" else Passed()
    # Left implicit, an opponent's draw shows at the next event; the passes that end a
    # blocked round are told, as a player at the table would when scoring.
    last = round_turns[int(e["round"])][-n:]  # type: ignore[call-overload]
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
            compared += _follow(events, seat, explicit_draws)
    assert compared > 100  # the games are real: many turns were compared


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
            assert _follow(games[0], seat, explicit_draws=seat % 2 == 0) > 10
