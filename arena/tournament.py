"""Tournaments: a schedule of seat-rotated games, run in parallel, summed up in statistics.

Schedule: every combination of ``seats`` entrants, and for each every seat order; the
orders of one combination share one deal (the same seeded shuffle), so each entrant plays
every hand from every seat ("duplicate" play: the luck of the deal and of the seat cancels
out). Game ``i`` plays lineup ``i mod L`` on deal ``i div seats!``; the deal's seed is a
hash of the tournament seed and the deal number, so the results depend only on the seed
and the entrants, never on ``jobs`` or the executor. Results are consumed in game order,
which also makes the point where an SPRT stops reproducible.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummikub.arena.executors import ordered_map
from rummikub.arena.players import TURN_WORK_LIMIT, PlugIn, is_built_in, make_player
from rummikub.arena.stats import DealSample, EloEstimate, Sprt
from rummikub.game.errors import ArenaError, IllegalPlayError
from rummikub.game.protocol import Player
from rummikub.game.record import Event, GameRecorder
from rummikub.game.rounds import GameConfig, play_game
from rummikub.models.errors import InternalError


def entrant_labels(specs: Sequence[str]) -> list[str]:
    """A unique label per entrant: the spec, with ``#2``, ``#3`` on repeats."""
    seen: dict[str, int] = {}
    labels = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        labels.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return labels


def deal_seed(seed: int, deal: int) -> int:
    """The seed of deal number ``deal`` in a tournament seeded with ``seed`` (64-bit hash)."""
    digest = hashlib.sha256(f"rummikub-arena:{seed}:{deal}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def lineups(entrants: int, seats: int) -> list[tuple[int, ...]]:
    """Every seat order of every combination of entrants, combinations outermost."""
    return [lineup_at(entrants, seats, i) for i in range(math.perm(entrants, seats))]


def lineup_at(entrants: int, seats: int, index: int) -> tuple[int, ...]:
    """The ``index``-th lineup of :func:`lineups`' order (modulo its length), without
    making the list: with 50 entrants at 4 seats it holds 5.5 million lineups."""
    combo_index, order_index = divmod(index % math.perm(entrants, seats), math.factorial(seats))
    combo: list[int] = []  # the combo_index-th combination, in itertools.combinations' order
    start = 0
    for left in range(seats, 0, -1):
        while (count := math.comb(entrants - start - 1, left - 1)) <= combo_index:
            combo_index -= count
            start += 1
        combo.append(start)
        start += 1
    order: list[int] = []  # the order_index-th permutation, in itertools.permutations' order
    for left in range(seats, 0, -1):
        position, order_index = divmod(order_index, math.factorial(left - 1))
        order.append(combo.pop(position))
    return tuple(order)


@dataclass(frozen=True)
class GameTask:
    """One game to play: everything a worker process needs (picklable)."""

    index: int
    deal: int
    seed: int
    lineup: tuple[int, ...]  # entrant index per seat
    specs: tuple[str, ...]  # player spec per seat
    labels: tuple[str, ...]  # entrant label per seat
    config: GameConfig
    time_limit: float
    record: bool


@dataclass(frozen=True)
class GameSummary:
    """What a tournament keeps of a game (per seat unless said otherwise)."""

    index: int
    deal: int
    seed: int
    lineup: tuple[int, ...]
    winner: int  # seat
    scores: tuple[int, ...]  # game score: the round's, or the match total
    round_scores: tuple[tuple[int, ...], ...]  # per round, per seat
    rack_left: tuple[int, ...]  # tiles left at the end of the last round
    first: int  # seat that moved first in the first round
    reasons: tuple[str, ...]  # per round: out or blocked
    turns: int
    seconds: tuple[float, ...]
    solves: tuple[int, ...]
    events: tuple[Event, ...] = ()


def _seated(spec: str, time_limit: float) -> Player:
    """A fresh player for a seat: a plug-in wrapped so that what it raises names it."""
    player = make_player(spec, time_limit)
    return player if is_built_in(spec) else PlugIn(spec, player)


def run_game(task: GameTask) -> GameSummary:
    """Play one scheduled game with fresh players (runs in a worker)."""
    players = [_seated(spec, task.time_limit) for spec in task.specs]
    recorder = GameRecorder(task.index) if task.record else None
    try:
        game = play_game(players, task.seed, task.config, names=task.labels, recorder=recorder)
    except IllegalPlayError as error:
        if is_built_in(task.specs[error.seat]):  # the engine's own strategies play legally
            raise InternalError(f"built-in strategy {error}") from error
        raise
    last = game.rounds[-1]
    return GameSummary(
        index=task.index,
        deal=task.deal,
        seed=task.seed,
        lineup=task.lineup,
        winner=game.winner,
        scores=game.totals,
        round_scores=tuple(r.scores for r in game.rounds),
        rack_left=tuple(len(rack) for rack in last.racks),
        first=game.rounds[0].first,
        reasons=tuple(r.reason for r in game.rounds),
        turns=game.turns,
        seconds=game.seconds,
        solves=game.solves,
        events=tuple(recorder.events) if recorder else (),
    )


def run_chunk(tasks: Sequence[GameTask]) -> list[GameSummary]:
    """Play a few games in one worker call (less inter-process traffic for fast games)."""
    return [run_game(task) for task in tasks]


@dataclass(frozen=True)
class TournamentConfig:
    """A tournament: entrants (player specs), how many games, the seed, how to play them."""

    players: tuple[str, ...]
    games: int
    seed: int = 0
    seats: int | None = None  # players per game; default: all entrants, at most 4
    game: GameConfig = field(default_factory=GameConfig)
    time_limit: float = TURN_WORK_LIMIT
    sprt: Sprt | None = None  # between the first two entrants
    record: bool = False

    def __post_init__(self) -> None:
        if len(self.players) < 2:
            raise ArenaError("a tournament needs at least 2 players")
        if self.games < 1:
            raise ArenaError(f"games must be at least 1, got {self.games}")
        if not 2 <= self.table_size <= 4:
            raise ArenaError(f"a game seats 2 to 4 players, got {self.table_size}")
        if self.table_size > len(self.players):
            raise ArenaError(f"{self.table_size} seats but only {len(self.players)} players")

    @property
    def table_size(self) -> int:
        """Players per game."""
        return self.seats or min(len(self.players), 4)

    @property
    def labels(self) -> list[str]:
        """The entrants' unique labels."""
        return entrant_labels(self.players)

    @property
    def cycle(self) -> int:
        """Games in one full rotation of the schedule (all combinations, all seat orders)."""
        return math.perm(len(self.players), self.table_size)

    def tasks(self) -> Iterator[GameTask]:
        """The scheduled games, in order."""
        block = math.factorial(self.table_size)
        labels = self.labels
        for index in range(self.games):
            lineup = lineup_at(len(self.players), self.table_size, index)
            deal = index // block
            yield GameTask(
                index=index,
                deal=deal,
                seed=deal_seed(self.seed, deal),
                lineup=lineup,
                specs=tuple(self.players[e] for e in lineup),
                labels=tuple(labels[e] for e in lineup),
                config=self.game,
                time_limit=self.time_limit,
                record=self.record,
            )


def _add_to_deal(by_deal: dict[int, list[float]], deal: int, *values: float) -> None:
    """Add ``values`` to deal ``deal``'s running totals (a new deal starts at zeros)."""
    row = by_deal.setdefault(deal, [0.0] * len(values))
    for i, value in enumerate(values):
        row[i] += value


@dataclass
class EntrantStats:
    """Running totals of one entrant; ``by_deal`` holds (wins, score, games) per deal."""

    name: str
    games: int = 0
    wins: int = 0
    scores: list[int] = field(default_factory=list)
    round_scores: list[int] = field(default_factory=list)
    rack_left: int = 0
    seconds: float = 0.0
    solves: int = 0
    turns: int = 0  # length of the games it played
    by_deal: dict[int, list[float]] = field(default_factory=dict)

    def win_sample(self) -> DealSample:
        """Wins per deal."""
        return DealSample.of({d: (row[0], int(row[2])) for d, row in self.by_deal.items()})

    def score_sample(self) -> DealSample:
        """Game scores per deal."""
        return DealSample.of({d: (row[1], int(row[2])) for d, row in self.by_deal.items()})

    def win_interval(self) -> tuple[float, float]:
        """The 95% interval of the win rate, deals as the units."""
        return self.win_sample().proportion_interval()

    def to_json(self, matches: bool) -> dict[str, Any]:
        """The entrant's row of the ``--json`` output (without timings)."""
        low, high = self.win_interval()
        score_low, score_high = self.score_sample().interval()
        mean_score = _mean(self.scores)
        return {
            "name": self.name,
            "games": self.games,
            "deals": len(self.by_deal),
            "wins": self.wins,
            "win_rate": _round(self.wins / self.games if self.games else 0.0),
            "win_rate_ci": [_round(low), _round(high)],
            "mean_score": _round(mean_score),
            "mean_score_ci": [_finite(score_low), _finite(score_high)],
            "mean_round_score": _round(_mean(self.round_scores)),
            "mean_match_score": _round(mean_score) if matches else None,
            "mean_tiles_left": _round(self.rack_left / self.games if self.games else 0.0),
            "mean_turns": _round(self.turns / self.games if self.games else 0.0),
        }


@dataclass
class PairStats:
    """Head-to-head record of entrants ``a`` and ``b`` over the games they played together.

    In a game, the winner ranks first and the others by their game score; ``a`` gets 1
    point for ranking above ``b``, 1/2 for a tie. ``by_deal`` holds (points, games) per deal.
    """

    a: int
    b: int
    wins: int = 0
    draws: int = 0
    losses: int = 0
    by_deal: dict[int, list[float]] = field(default_factory=dict)

    @property
    def games(self) -> int:
        """Games played together."""
        return self.wins + self.draws + self.losses

    def points(self, before: int | None = None) -> DealSample:
        """Points of ``a`` per deal (only deals numbered below ``before``, if given)."""
        return DealSample.of(
            {
                d: (row[0], int(row[1]))
                for d, row in self.by_deal.items()
                if before is None or d < before
            }
        )

    def estimate(self) -> EloEstimate:
        """Elo of ``a`` over ``b``."""
        return EloEstimate(self.points())


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _round(value: float, digits: int = 4) -> float:
    return round(value, digits)


def _elo_json(value: float) -> float | None:
    return None if math.isinf(value) else round(value, 1)


def _finite(value: float) -> float | None:
    return None if math.isinf(value) else _round(value)


@dataclass
class TournamentResult:
    """Everything a tournament measured; :meth:`to_json` is what ``--json`` prints."""

    config: TournamentConfig
    entrants: list[EntrantStats]
    pairs: list[PairStats]
    summaries: list[GameSummary] = field(default_factory=list)
    sprt_llr: float | None = None
    sprt_decision: str | None = None
    seconds: float = 0.0
    interrupted: bool = False  # stopped (Ctrl-C) before the games asked for were played

    @classmethod
    def of(cls, config: TournamentConfig, games: Iterable[GameSummary] = ()) -> TournamentResult:
        """The statistics of these finished games (none: an empty tournament)."""
        labels = config.labels
        result = cls(
            config,
            [EntrantStats(name) for name in labels],
            [PairStats(a, b) for a, b in itertools.combinations(range(len(labels)), 2)],
        )
        for game in games:
            result.add(game)
        return result

    @property
    def games(self) -> int:
        """Games played (fewer than asked when an SPRT stopped early)."""
        return len(self.summaries)

    def add(self, game: GameSummary) -> None:
        """Count one finished game."""
        self.summaries.append(game)
        keys = []
        for seat, entrant in enumerate(game.lineup):
            stats = self.entrants[entrant]
            stats.games += 1
            stats.wins += seat == game.winner
            stats.scores.append(game.scores[seat])
            stats.round_scores.extend(r[seat] for r in game.round_scores)
            stats.rack_left += game.rack_left[seat]
            stats.seconds += game.seconds[seat]
            stats.solves += game.solves[seat]
            stats.turns += game.turns
            _add_to_deal(stats.by_deal, game.deal, seat == game.winner, game.scores[seat], 1)
            keys.append((seat == game.winner, game.scores[seat]))
        rank = dict(zip(game.lineup, keys, strict=True))
        for pair in self.pairs:
            if pair.a in rank and pair.b in rank:
                if rank[pair.a] > rank[pair.b]:
                    pair.wins += 1
                    points = 1.0
                elif rank[pair.a] < rank[pair.b]:
                    pair.losses += 1
                    points = 0.0
                else:
                    pair.draws += 1
                    points = 0.5
                _add_to_deal(pair.by_deal, game.deal, points, 1)
        sprt = self.config.sprt
        deal_done = (game.index + 1) % math.factorial(self.config.table_size) == 0
        if sprt is not None and self.sprt_decision is None and deal_done:
            # The test looks only at whole deals: every seat order played.
            whole = self.pairs[0].points(before=game.deal + 1)
            self.sprt_llr = sprt.llr(whole)
            self.sprt_decision = sprt.decision(whole)

    @property
    def mean_turns(self) -> float:
        """Mean turns per game."""
        return _mean([g.turns for g in self.summaries])

    def sprt_json(self) -> dict[str, Any] | None:
        """The SPRT's state and verdict (``None`` without an SPRT)."""
        sprt = self.config.sprt
        if sprt is None:
            return None
        pair = self.pairs[0]
        a, b = self.entrants[pair.a].name, self.entrants[pair.b].name
        block = math.factorial(self.config.table_size)  # games of a deal: every seat order
        deals = pair.points(before=self.games // block).deals
        stronger = None
        if self.sprt_decision == "H1":
            stronger = a
        elif self.sprt_decision == "H0" and pair.estimate().score < 0.5:
            stronger = b
        return {
            "a": a,
            "b": b,
            "elo0": sprt.elo0,
            "elo1": sprt.elo1,
            "alpha": sprt.alpha,
            "beta": sprt.beta,
            "llr": round(self.sprt_llr or 0.0, 4),
            "deals": deals,  # whole deals of the two, all the test has seen
            "deal_games": deals * block,
            "bounds": [round(sprt.lower, 4), round(sprt.upper, 4)],
            "decision": self.sprt_decision,
            "stronger": stronger,
            "wins": pair.wins,
            "draws": pair.draws,
            "losses": pair.losses,
            "games": self.games,
        }

    def to_json(self, timing: bool = True) -> dict[str, Any]:
        """The result object printed by ``--json``; the ``timing`` part varies between runs."""
        matches = self.config.game.target is not None
        n = self.games
        out: dict[str, Any] = {
            "games": n,
            "seed": self.config.seed,
            "seats": self.config.table_size,
            "target": self.config.game.target,
            "cycle": self.config.cycle,
            "players": [e.to_json(matches) for e in self.entrants],
            "pairs": [
                {
                    "a": self.entrants[p.a].name,
                    "b": self.entrants[p.b].name,
                    "games": p.games,
                    "wins": p.wins,
                    "draws": p.draws,
                    "losses": p.losses,
                    "deals": len(p.by_deal),
                    "score": _round(p.estimate().score),
                    "score_ci": [_round(x) for x in p.estimate().score_interval],
                    "elo": _elo_json(p.estimate().elo),
                    "elo_ci": [_elo_json(x) for x in p.estimate().interval],
                }
                for p in self.pairs
            ],
            "mean_turns": _round(self.mean_turns),
            "mean_rounds": _round(_mean([len(g.reasons) for g in self.summaries])),
            "blocked_rounds": sum(g.reasons.count("blocked") for g in self.summaries),
            "first_mover_win_rate": _round(
                sum(g.first == g.winner for g in self.summaries) / n if n else 0.0
            ),
            "sprt": self.sprt_json(),
            "interrupted": self.interrupted,
        }
        if timing:
            solves = sum(e.solves for e in self.entrants)
            out["timing"] = {
                "seconds": round(self.seconds, 3),
                "games_per_second": round(n / self.seconds, 3) if self.seconds else None,
                "solves": solves,
                "solves_per_second": round(solves / self.seconds, 1) if self.seconds else None,
                "think_seconds_per_game": {
                    e.name: round(e.seconds / e.games, 4) if e.games else 0.0 for e in self.entrants
                },
            }
        return out


# Called after each game with the tournament so far (its newest game last).
Progress = Callable[["TournamentResult"], None]


def _chunks(tasks: Iterator[GameTask], size: int) -> Iterator[list[GameTask]]:
    while chunk := list(itertools.islice(tasks, size)):
        yield chunk


def run_tournament(
    config: TournamentConfig,
    *,
    executor: str = "process",
    jobs: int = 1,
    chunk: int | None = None,
    progress: Progress | None = None,
    ray_address: str | None = None,
) -> TournamentResult:
    """Play the tournament (stopping early if its SPRT decides) and return the statistics."""
    result = TournamentResult.of(config)
    if chunk is None:
        chunk = 1 if config.sprt else max(1, min(8, config.games // (16 * jobs)))
    started = time.perf_counter()
    results = ordered_map(
        run_chunk,
        _chunks(config.tasks(), chunk),
        executor=executor,
        jobs=jobs,
        ray_address=ray_address,
    )
    try:
        for summaries in results:
            for summary in summaries:
                result.add(summary)
                result.seconds = time.perf_counter() - started
                if progress is not None:
                    progress(result)
                if result.sprt_decision is not None:
                    break
            if result.sprt_decision is not None:
                break
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
    result.seconds = time.perf_counter() - started
    return result
