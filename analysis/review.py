"""Game review: every turn of a recorded game measured against the solver's proved optimum.

A record (``rummikub arena --record``) is replayed by :func:`~rummikub.game.replay.replay_game`,
which re-checks every move; on each turn the player's position (table, rack, opened or not,
the game's rules) is solved as the engine would judge it, with the objective of the
``max-tiles`` strategy (most tiles placed, then most value). The turn is then compared with
that optimum:

* **shortfall**: tiles and value the optimum places beyond the played move (the value
  shortfall may be negative: the optimum can place more tiles of less value);
* **verdict**, first that applies:

  - ``missed a go-out``: the optimum empties the rack and the player did not;
  - ``held``: the player drew (or passed) although a play was possible — deliberate holding
    is a choice, reported apart from plays that fell short;
  - ``mistake``: the play places :data:`MISTAKE_TILES` (2) or more tiles fewer than the optimum;
  - ``inaccuracy``: the play places 1 tile fewer;
  - ``best``: the play places as many tiles as the optimum (a draw when nothing could be
    placed included).

Per player (by name, so per strategy over a tournament record): **accuracy** is the share
of turns with a possible play where the player placed as many tiles as the optimum (held
turns count as not matched); the **mean shortfall** is over the turns the player played;
held turns have their own count and mean shortfall.

The solves are independent, so they run through :func:`~rummikub.arena.executors.ordered_map`
on every core, and come back in game order: the review never depends on the executor.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from rummikub.arena.executors import ordered_map
from rummikub.game.errors import ArenaError
from rummikub.game.protocol import PlayerView, Reply
from rummikub.game.record import (
    Event,
    melds_json,
    rules_json,
)
from rummikub.game.replay import replay_game
from rummikub.models.meld import Meld
from rummikub.models.notation import tiles_json
from rummikub.models.position import Position
from rummikub.models.rules import RuleSet
from rummikub.models.tile import Tile, sorted_tiles
from rummikub.solver import DEFAULT_TIME_LIMIT, Limit, Move, Objective, Status, solve
from rummikub.steps.report import move_json

MISTAKE_TILES = 2
"""A play this many tiles short of the optimum, or more, is a mistake (fewer: an inaccuracy)."""
OBJECTIVE = Objective.TILES  # the max-tiles strategy's: most tiles, then most value


Chosen = Callable[[int, str], bool]
"""Which turns to review: called with the seat and the player's name."""


class ReviewError(ArenaError):
    """A review that cannot be made as asked (no such game or player in the record)."""


class Verdict(StrEnum):
    """How a turn compares with the optimum (see the module docstring for the thresholds)."""

    BEST = "best"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    MISSED_GO_OUT = "missed a go-out"
    HELD = "held"


@dataclass(frozen=True)
class TurnTask:
    """One turn to review: where it happened, the player's position and what was played."""

    game: int
    round: int
    turn: int
    seat: int
    player: str
    position: Position
    action: str  # play, draw or pass
    table: tuple[Meld, ...]  # the table after a play
    placed: tuple[Tile, ...]
    time_limit: float = DEFAULT_TIME_LIMIT


@dataclass(frozen=True)
class TurnReview:
    """One turn measured against the optimum of its position."""

    task: TurnTask
    optimum: Move

    @property
    def position(self) -> Position:
        """The player's position at the start of the turn."""
        return self.task.position

    @property
    def placed_count(self) -> int:
        """Tiles the player placed."""
        return len(self.task.placed)

    @property
    def placed_value(self) -> int:
        """Face value of the tiles the player placed (jokers 0)."""
        return sum(t.value for t in self.task.placed)

    @property
    def _best(self) -> tuple[int, int]:
        # The bar: the optimum, or the played move if an unproved optimum fell below it.
        return max(
            (self.optimum.placed_count, self.optimum.placed_value),
            (self.placed_count, self.placed_value),
        )

    @property
    def shortfall_tiles(self) -> int:
        """Tiles the optimum places beyond the played move."""
        return self._best[0] - self.placed_count

    @property
    def shortfall_value(self) -> int:
        """Value the optimum places beyond the played move (negative: it places less)."""
        return self._best[1] - self.placed_value

    @property
    def could_play(self) -> bool:
        """Whether any tile could be placed this turn."""
        return self._best[0] > 0

    @property
    def held(self) -> bool:
        """Whether the player drew (or passed) although a play was possible."""
        return self.task.action != "play" and self.could_play

    @property
    def missed_go_out(self) -> bool:
        """Whether the optimum empties the rack and the played move did not."""
        rack = len(self.position.rack)
        return self._best[0] == rack > self.placed_count

    @property
    def matched(self) -> bool:
        """Whether the player placed as many tiles as the optimum."""
        return self.shortfall_tiles == 0

    @property
    def better(self) -> Move | None:
        """The optimum when it beats the played move (on tiles, or on value at equal tiles)."""
        return self.optimum if (self.shortfall_tiles, self.shortfall_value) > (0, 0) else None

    @property
    def verdict(self) -> Verdict:
        """The turn's verdict (thresholds in the module docstring)."""
        if self.missed_go_out:
            return Verdict.MISSED_GO_OUT
        if self.held:
            return Verdict.HELD
        if self.shortfall_tiles >= MISTAKE_TILES:
            return Verdict.MISTAKE
        if self.shortfall_tiles > 0:
            return Verdict.INACCURACY
        return Verdict.BEST

    def to_json(self, steps: bool = True) -> dict[str, Any]:
        """The turn as JSON; ``better`` is the optimum as in ``solve --json`` when it beats
        the played move, else null."""
        task, better = self.task, self.better
        return {
            "game": task.game,
            "round": task.round,
            "turn": task.turn,
            "seat": task.seat,
            "player": task.player,
            "opened": not self.position.initial,
            "position": {
                "table": melds_json(self.position.table),
                "rack": tiles_json(self.position.rack),
                "initial": self.position.initial,
            },
            "action": task.action,
            "placed": tiles_json(sorted_tiles(task.placed)),
            "placed_count": self.placed_count,
            "placed_value": self.placed_value,
            "table": melds_json(task.table) if task.action == "play" else None,
            "optimum": {
                "placed_count": self.optimum.placed_count,
                "placed_value": self.optimum.placed_value,
                "status": str(self.optimum.status),
                "goes_out": self.optimum.placed_count == len(self.position.rack),
            },
            "shortfall": {"tiles": self.shortfall_tiles, "value": self.shortfall_value},
            "could_play": self.could_play,
            "held": self.held,
            "verdict": str(self.verdict),
            "better": _move_json(better, steps) if better is not None else None,
        }


def _move_json(move: Move, steps: bool) -> dict[str, Any]:
    """A move as in ``solve --json``, without its time (so a review is reproducible)."""
    payload = move_json(move, steps=steps)
    payload.pop("seconds", None)
    return payload


def review_turn(task: TurnTask) -> TurnReview:
    """Solve the turn's position for the optimum (runs in a worker)."""
    limit = Limit(seconds=task.time_limit, workers=1)
    return TurnReview(task, solve(task.position, objective=OBJECTIVE, limit=limit))


@dataclass
class PlayerReview:
    """One player's (or strategy's) turns summed up; see the module docstring."""

    name: str
    games: int = 0
    decided: int = 0  # games with a winner (a companion game may still be going on)
    wins: int = 0
    turns: int = 0
    could_play: int = 0  # turns where a play was possible
    matched: int = 0  # of those, turns that placed as many tiles as the optimum
    plays: int = 0
    play_shortfall_tiles: int = 0
    play_shortfall_value: int = 0
    held: int = 0
    held_shortfall_tiles: int = 0
    missed_go_outs: int = 0
    inaccuracies: int = 0
    mistakes: int = 0
    unproved: int = 0  # turns whose optimum the time limit left unproved

    def add(self, turn: TurnReview) -> None:
        """Count one reviewed turn."""
        self.turns += 1
        self.could_play += turn.could_play
        self.matched += turn.could_play and turn.matched
        self.unproved += turn.optimum.status is not Status.OPTIMAL
        if turn.task.action == "play":
            self.plays += 1
            self.play_shortfall_tiles += turn.shortfall_tiles
            self.play_shortfall_value += turn.shortfall_value
        if turn.held:
            self.held += 1
            self.held_shortfall_tiles += turn.shortfall_tiles
        verdict = turn.verdict
        self.missed_go_outs += verdict is Verdict.MISSED_GO_OUT
        self.inaccuracies += verdict is Verdict.INACCURACY
        self.mistakes += verdict is Verdict.MISTAKE

    @property
    def accuracy(self) -> float | None:
        """Share of the turns with a possible play that matched the optimum on tiles."""
        return self.matched / self.could_play if self.could_play else None

    @property
    def win_rate(self) -> float | None:
        """Share of the reviewed games with a winner that this player won."""
        return self.wins / self.decided if self.decided else None

    @property
    def mean_shortfall_tiles(self) -> float | None:
        """Mean tile shortfall over the turns the player played."""
        return self.play_shortfall_tiles / self.plays if self.plays else None

    @property
    def mean_shortfall_value(self) -> float | None:
        """Mean value shortfall over the turns the player played."""
        return self.play_shortfall_value / self.plays if self.plays else None

    @property
    def mean_held_shortfall_tiles(self) -> float | None:
        """Mean tile shortfall over the turns the player held."""
        return self.held_shortfall_tiles / self.held if self.held else None

    def to_json(self) -> dict[str, Any]:
        """Every count and rate by name."""
        return {
            "name": self.name,
            "games": self.games,
            "decided": self.decided,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "turns": self.turns,
            "could_play": self.could_play,
            "matched": self.matched,
            "accuracy": self.accuracy,
            "plays": self.plays,
            "mean_shortfall_tiles": self.mean_shortfall_tiles,
            "mean_shortfall_value": self.mean_shortfall_value,
            "held": self.held,
            "mean_held_shortfall_tiles": self.mean_held_shortfall_tiles,
            "missed_go_outs": self.missed_go_outs,
            "inaccuracies": self.inaccuracies,
            "mistakes": self.mistakes,
            "unproved": self.unproved,
        }


@dataclass
class GameReview:
    """The reviewed turns of one game, its players and its result."""

    number: int
    names: tuple[str, ...]  # by seat
    winner: int | None  # seat; None while a (companion) game goes on
    totals: tuple[int, ...]
    rules: dict[str, Any]  # every rule option the game was played under
    turns: list[TurnReview] = field(default_factory=list)
    seen: tuple[int, ...] | None = None  # the seats whose turns are known; None: every seat

    def to_json(self, steps: bool = True) -> dict[str, Any]:
        """The game, its result and every reviewed turn."""
        return {
            "game": self.number,
            "players": list(self.names),
            "winner": self.names[self.winner] if self.winner is not None else None,
            "totals": list(self.totals),
            "rules": self.rules,
            "turns": [t.to_json(steps) for t in self.turns],
        }


class GameSource(Protocol):
    """A game to review: an arena record's game (:class:`RecordedGame`) or a companion game."""

    @property
    def number(self) -> int: ...

    @property
    def names(self) -> list[str]: ...

    def turn_count(self, chosen: Chosen) -> int:
        """How many turns a review of the chosen players solves (for progress bars)."""
        ...

    def review_tasks(self, chosen: Chosen, time_limit: float) -> tuple[GameReview, list[TurnTask]]:
        """The game (its turns not reviewed yet) and the chosen players' turns to solve."""
        ...


@dataclass(frozen=True)
class RecordedGame:
    """One game of an arena record: its number (the record's ``game``, else its place) and
    its events."""

    number: int
    events: tuple[Event, ...]

    @property
    def names(self) -> list[str]:
        """The players by seat, as the header names them."""
        players = self.events[0].get("players")
        return [str(name) for name in players] if isinstance(players, list) else []

    def turn_count(self, chosen: Chosen) -> int:
        """How many turns a review of the chosen players solves."""
        names = self.names
        return sum(
            1 for e in self.events if e.get("event") == "turn" and chosen(_seat(e), _name(names, e))
        )

    def review_tasks(self, chosen: Chosen, time_limit: float) -> tuple[GameReview, list[TurnTask]]:
        """Replay the game (every move re-checked) and collect the chosen players' turns."""
        names = self.names
        tasks: list[TurnTask] = []

        def watch(view: PlayerView, play: Reply) -> None:
            name = names[view.seat]
            if not chosen(view.seat, name):
                return
            action = "play" if not play.is_draw else "draw" if view.pool_size else "pass"
            tasks.append(
                TurnTask(
                    self.number,
                    view.round,
                    view.turn,
                    view.seat,
                    name,
                    view.position(),
                    action,
                    play.melds if not play.is_draw else (),
                    play.placed,
                    time_limit,
                )
            )

        result = replay_game(self.events, watch)
        rules = rules_json(RuleSet(**self.events[0].get("rules", {})))  # replayed: valid
        game = GameReview(self.number, result.names, result.winner, result.totals, rules)
        return game, tasks


@dataclass
class Review:
    """A whole review: the games, and per player the summed-up turns."""

    games: list[GameReview]
    players: list[PlayerReview]

    def turns(self) -> Iterator[TurnReview]:
        """Every reviewed turn, in game order."""
        for game in self.games:
            yield from game.turns

    def worst(self, count: int | None = None) -> list[TurnReview]:
        """The turns that fell short, worst first: missed go-outs, then by tiles and value
        short; held turns (not blunders) only when they missed a go-out."""
        rank = {Verdict.MISSED_GO_OUT: 0, Verdict.MISTAKE: 1, Verdict.INACCURACY: 2}
        short = [t for t in self.turns() if t.better is not None and t.verdict is not Verdict.HELD]
        short.sort(key=lambda t: (rank.get(t.verdict, 3), -t.shortfall_tiles, -t.shortfall_value))
        return short if count is None else short[:count]

    def to_json(self, steps: bool = True) -> dict[str, Any]:
        """Thresholds, per-player figures and every reviewed turn."""
        return {
            "objective": str(OBJECTIVE),
            "thresholds": {"inaccuracy_tiles": 1, "mistake_tiles": MISTAKE_TILES},
            "players": [p.to_json() for p in self.players],
            "games": [g.to_json(steps) for g in self.games],
        }


def parse_player(spec: str | None, games: Sequence[GameSource]) -> Chosen:
    """Which turns to review: a seat number, a player name, or everyone (``None``)."""
    if spec is None:
        return lambda seat, name: True
    if spec.isdigit():
        seat = int(spec)
        if not any(seat < len(g.names) for g in games):
            seats = max(len(g.names) for g in games)
            raise ReviewError(f"no seat {seat}: the games have seats 0..{seats - 1}")
        return lambda s, name: s == seat
    names = {n for g in games for n in g.names}
    if spec not in names:
        raise ReviewError(f"no player {spec!r} in the record: {', '.join(sorted(names))}")
    return lambda seat, name: name == spec


def turn_count(games: Sequence[GameSource], chosen: Chosen) -> int:
    """How many turns a review of these games and players solves (for progress bars)."""
    return sum(game.turn_count(chosen) for game in games)


def _seat(event: Event) -> int:
    seat = event.get("seat")
    return seat if isinstance(seat, int) else -1  # a bad seat fails in the replay, with its line


def _name(names: Sequence[str], event: Event) -> str:
    seat = _seat(event)
    return names[seat] if 0 <= seat < len(names) else ""


def review_games(
    games: Sequence[GameSource],
    chosen: Chosen,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    executor: str = "serial",
    jobs: int = 1,
    ray_address: str | None = None,
    progress: Callable[[TurnReview], None] | None = None,
) -> Review:
    """Review the chosen players' turns of the games; results come in game order."""
    reviews: list[GameReview] = []
    pending: list[int] = []  # turns still to come back, per game (in order)

    def tasks() -> Iterator[TurnTask]:
        for game in games:
            review, turns = game.review_tasks(chosen, time_limit)
            reviews.append(review)
            pending.append(len(turns))
            yield from turns

    index = 0
    for turn in ordered_map(
        review_turn, tasks(), executor=executor, jobs=jobs, ray_address=ray_address
    ):
        while pending[index] == 0:
            index += 1
        reviews[index].turns.append(turn)
        pending[index] -= 1
        if progress is not None:
            progress(turn)
    return Review(reviews, summarise(reviews, chosen))


def summarise(games: Sequence[GameReview], chosen: Chosen) -> list[PlayerReview]:
    """Per player name: games, wins and the reviewed turns summed up, in order of appearance."""
    players: dict[str, PlayerReview] = {}
    for game in games:
        for seat, name in enumerate(game.names):
            if not chosen(seat, name) or (game.seen is not None and seat not in game.seen):
                continue
            player = players.setdefault(name, PlayerReview(name))
            player.games += 1
            player.decided += game.winner is not None
            player.wins += game.winner == seat
        for turn in game.turns:
            players[turn.task.player].add(turn)
    return list(players.values())
