"""Advice for a person at the table: play all, play part, or hold — with win chances.

A :class:`Situation` is what a player knows on their turn: the position (table, rack,
whether they have opened), how many tiles each opponent holds and how many are left in
the pool. :func:`advise` takes the planner's candidate moves (:func:`~rummikub.arena.planner
.candidates`, with the ``play part`` ones of an opened player) and estimates each one's
chance to win the round by determinized Monte Carlo rollouts: deal the unseen tiles at
random into the opponents' racks (at their sizes) and the pool, make the move, and play
the round out — this player as the ``planner``, the opponents as ``model`` (a built-in
strategy). Every candidate is played out on the same
deals (common random numbers), so differences between candidates are not deal luck.

Everything random comes from ``seed``: the same situation, seed and number of rollouts
give the same advice on any machine and with any executor.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rummikub.arena.executors import ordered_map
from rummikub.arena.planner import (
    DEFAULT_WORK_LIMIT,
    Candidate,
    Planner,
    Solver,
    candidates,
    unseen_tiles,
)
from rummikub.arena.players import ALIASES, STRATEGIES, make_player
from rummikub.arena.stats import wilson
from rummikub.arena.tournament import deal_seed
from rummikub.game.errors import ArenaError
from rummikub.game.protocol import Player, PlayerView
from rummikub.game.rounds import RoundState, play_round
from rummikub.models.meld import Meld
from rummikub.models.position import Position
from rummikub.models.tile import Tile, sorted_tiles

if TYPE_CHECKING:
    from rummikub.game.companion import GameState


class AdviceError(ArenaError):
    """A situation that cannot be (the tile counts do not add up, no opponents, ...)."""


@dataclass(frozen=True)
class Situation:
    """A player's turn as the player sees it.

    ``opponents`` are the opponents' rack sizes in turn order after this player; ``pool``
    the tiles left to draw. The tiles this player cannot see must be exactly those:
    ``pool + sum(opponents)``. ``opponents_opened`` says whether the opponents have made
    their opening meld: one answer for all, one per opponent, or ``None`` (yes when the
    table has melds).
    """

    position: Position
    opponents: tuple[int, ...]
    pool: int
    opponents_opened: bool | tuple[bool, ...] | None = None

    def __post_init__(self) -> None:
        if not 1 <= len(self.opponents) <= 3:
            raise AdviceError(
                "a game has 2 to 4 players: give 1 to 3 opponents' rack sizes, "
                f"got {len(self.opponents)}"
            )
        if any(size < 1 for size in self.opponents):
            raise AdviceError("an opponent with no tiles has already won: rack sizes must be >= 1")
        if not self.position.rack:
            raise AdviceError("your rack is empty: you have already gone out")
        opened = self.opponents_opened
        if isinstance(opened, tuple) and len(opened) != len(self.opponents):
            raise AdviceError(
                f"{len(self.opponents)} opponents but {len(opened)} opening-meld answers"
            )
        if self.pool < 0:
            raise AdviceError(f"the pool cannot hold {self.pool} tiles")
        unseen = len(unseen_tiles(self.view()))
        if self.pool + sum(self.opponents) != unseen:
            raise AdviceError(
                f"the tiles do not add up: {unseen} tiles are neither on the table nor on your "
                f"rack, but the pool ({self.pool}) and the opponents' racks "
                f"({' + '.join(map(str, self.opponents))}) hold "
                f"{self.pool + sum(self.opponents)}"
            )

    @classmethod
    def of(cls, position: Position, opponents: Sequence[int], pool: int | None = None) -> Situation:
        """A situation; without ``pool``, the pool is whatever the opponents do not hold."""
        if pool is None:
            unseen = len(unseen_tiles(_view(position, tuple(opponents), 0)))
            pool = unseen - sum(opponents)
        return cls(position, tuple(opponents), pool)

    @property
    def players(self) -> int:
        """Players at the table, this one included."""
        return len(self.opponents) + 1

    @classmethod
    def of_game(cls, state: GameState) -> Situation:
        """Your turn in a game the companion follows: its table, your rack, its rules, each
        opponent's rack size and opening, and the pool."""
        opponents = range(1, state.players)
        return cls(
            state.position(),
            tuple(state.rack_sizes[seat] for seat in opponents),
            state.pool_size,
            tuple(state.opened[seat] for seat in opponents),
        )

    @property
    def others_opened(self) -> tuple[bool, ...]:
        """Whether each opponent is taken to have opened."""
        opened = self.opponents_opened
        if isinstance(opened, tuple):
            return opened
        if opened is None:
            opened = bool(self.position.table)
        return (opened,) * len(self.opponents)

    def view(self, seed: int = 0) -> PlayerView:
        """The player's view of this turn (seat 0)."""
        return _view(self.position, self.opponents, self.pool, seed)


def _view(position: Position, opponents: tuple[int, ...], pool: int, seed: int = 0) -> PlayerView:
    return PlayerView(
        seat=0,
        rack=tuple(sorted_tiles(position.rack)),
        table=tuple(position.table),
        opened=not position.initial,
        rack_sizes=(len(position.rack), *opponents),
        pool_size=pool,
        scores=(0,) * (len(opponents) + 1),
        turn=0,
        round=1,
        seed=seed,
        rules=position.rules,
    )


@dataclass(frozen=True)
class Rollout:
    """One play-out: a candidate's move on one random deal of the unseen tiles."""

    situation: Situation
    label: str
    melds: tuple[Meld, ...]
    placed: tuple[Tile, ...]
    deal: int
    seed: int
    model: str
    work_limit: float


def play_out(task: Rollout) -> tuple[bool, int]:
    """Play one rollout to the end of the round: did this player win, and their score."""
    situation = task.situation
    rules = situation.position.rules
    rng = random.Random(deal_seed(task.seed, task.deal))
    unseen = unseen_tiles(situation.view())
    rng.shuffle(unseen)
    racks: list[list[Tile]] = [list(situation.position.rack)]
    for tile in task.placed:
        racks[0].remove(tile)
    start = 0
    for size in situation.opponents:
        racks.append(unseen[start : start + size])
        start += size
    pool = unseen[start:]  # drawn from the end
    table = tuple(situation.position.table)
    passes = 0
    if task.placed:
        table = task.melds
    elif pool:
        racks[0].append(pool.pop())
    else:
        passes = 1
    opened = [bool(task.placed) or not situation.position.initial]
    opened += situation.others_opened
    state = RoundState(rules, pool, racks, table, opened, current=1, turn=1, passes=passes)
    players: list[Player] = [Planner(work_limit=task.work_limit)]
    players += [make_player(task.model, task.work_limit) for _ in situation.opponents]
    names = ["you", *(f"opponent{i}" for i in range(1, situation.players))]
    seeds = [rng.getrandbits(63) for _ in names]
    result = play_round(state, players, names, seeds=seeds)
    return result.winner == 0, result.scores[0]


def play_outs(tasks: Sequence[Rollout]) -> list[tuple[bool, int]]:
    """Several rollouts in one worker call."""
    return [play_out(task) for task in tasks]


@dataclass
class Assessment:
    """A candidate move and what its rollouts say about it."""

    candidate: Candidate
    rollouts: int = 0
    wins: int = 0
    scores: list[int] = field(default_factory=list)

    @property
    def certain(self) -> bool:
        """A move that goes out wins for sure: it needs no rollouts."""
        return self.candidate.goes_out

    @property
    def win_chance(self) -> float | None:
        """The estimated chance to win the round with this move (``None``: not played out,
        as when another move goes out)."""
        if self.certain:
            return 1.0
        return self.wins / self.rollouts if self.rollouts else None

    @property
    def interval(self) -> tuple[float, float] | None:
        """95% Wilson interval of the win chance (each rollout is an independent deal)."""
        if self.certain:
            return (1.0, 1.0)
        return wilson(self.wins, self.rollouts) if self.rollouts else None

    @property
    def mean_score(self) -> float | None:
        """Mean round score over the rollouts (``None`` for a move that goes out)."""
        return sum(self.scores) / len(self.scores) if self.scores else None

    def to_json(self) -> dict[str, Any]:
        """This candidate's entry in ``advise --json``."""
        play = self.candidate.play
        chance, interval = self.win_chance, self.interval
        return {
            "move": self.candidate.label,
            "placed": [str(t) for t in play.placed],
            "kept": [str(t) for t in self.candidate.kept],
            "table": [str(m) for m in play.melds] if play.placed else None,
            "goes_out": self.candidate.goes_out,
            "rollouts": self.rollouts,
            "wins": self.wins,
            "win_chance": None if chance is None else round(chance, 4),
            "win_chance_ci": None if interval is None else [round(e, 4) for e in interval],
            "mean_score": None if self.mean_score is None else round(self.mean_score, 2),
        }


def chance_texts(entry: dict[str, Any]) -> tuple[str, str]:
    """A candidate's win chance and its interval (from :meth:`Assessment.to_json`) as the
    tables show them: "-" for a move not played out, as when another move goes out."""
    if entry["win_chance"] is None:
        return "-", "-"
    low, high = entry["win_chance_ci"]
    return f"{100 * entry['win_chance']:.1f}%", f"{100 * low:.0f}%-{100 * high:.0f}%"


@dataclass
class Advice:
    """Every candidate with its estimate, and the one to play."""

    situation: Situation
    assessments: list[Assessment]
    model: str
    seed: int
    seconds: float = 0.0

    @property
    def best(self) -> Assessment:
        """The recommended move: the highest win chance, then the better mean score (then the
        earlier candidate)."""
        return max(
            self.assessments,
            key=lambda a: (-1.0 if a.win_chance is None else a.win_chance, a.mean_score or 0.0),
        )

    def to_json(self) -> dict[str, Any]:
        """The object ``advise --json`` prints."""
        return {
            "players": self.situation.players,
            "pool": self.situation.pool,
            "opponents": list(self.situation.opponents),
            "model": self.model,
            "seed": self.seed,
            "rollouts": max((a.rollouts for a in self.assessments), default=0),
            "recommended": self.best.candidate.label,
            "candidates": [a.to_json() for a in self.assessments],
            "seconds": round(self.seconds, 3),
        }


def _batches(tasks: Sequence[Rollout], size: int) -> Iterator[list[Rollout]]:
    for start in range(0, len(tasks), size):
        yield list(tasks[start : start + size])


def advise(
    situation: Situation,
    *,
    rollouts: int | None = 32,
    seconds: float | None = None,
    seed: int = 0,
    model: str = "max-tiles",
    work_limit: float = DEFAULT_WORK_LIMIT,
    executor: str = "process",
    jobs: int = 1,
    ray_address: str | None = None,
) -> Advice:
    """Weigh the planner's candidate moves by rollouts; see the module docstring.

    ``rollouts`` deals per candidate; or, with ``seconds``, as many deals as fit in that
    time (in rounds of ``2 * jobs`` deals, at least one round).
    """
    model = ALIASES.get(model, model)
    if model not in STRATEGIES:
        known = ", ".join(STRATEGIES)
        raise AdviceError(f"unknown opponent model {model!r}: use one of {known}")
    if rollouts is not None and rollouts < 1:
        raise AdviceError(f"rollouts must be at least 1, got {rollouts}")
    started = time.perf_counter()
    view = situation.view(seed)
    # The candidates are shown to a person, who lays them at a table: the full answer (the
    # fewest table tiles moved). The rollouts' players solve on the decisive levels only.
    options = candidates(view, Solver(work_limit, decisive=False), keep_jokers=True, partial=True)
    assessments = [Assessment(c) for c in options]
    if any(a.certain for a in assessments):
        advice = Advice(situation, assessments, model, seed)
        advice.seconds = time.perf_counter() - started
        return advice
    step = max(2, 2 * jobs) if seconds is not None else (rollouts or 32)
    done = 0
    while True:
        tasks = [
            Rollout(
                situation,
                a.candidate.label,
                a.candidate.play.melds,
                a.candidate.play.placed,
                deal,
                seed,
                model,
                work_limit,
            )
            for deal in range(done, done + step)
            for a in assessments
        ]
        results = ordered_map(
            play_outs,
            _batches(tasks, len(assessments)),  # one deal, every candidate, per worker call
            executor=executor,
            jobs=jobs,
            ray_address=ray_address,
        )
        for batch in results:
            for assessment, (won, score) in zip(assessments, batch, strict=True):
                assessment.rollouts += 1
                assessment.wins += won
                assessment.scores.append(score)
        done += step
        if seconds is None or time.perf_counter() - started >= seconds:
            break
    advice = Advice(situation, assessments, model, seed)
    advice.seconds = time.perf_counter() - started
    return advice


def describe(assessment: Assessment) -> str:
    """What a candidate does, in words: ``play 5 tiles, keep 9`` or ``hold all 14``."""
    placed, kept = len(assessment.candidate.play.placed), len(assessment.candidate.kept)
    if not placed:
        return f"draw, keep all {kept}"
    if not kept:
        return f"play all {placed}: out"
    return f"play {placed}, keep {kept}"


__all__ = ["Advice", "AdviceError", "Assessment", "Situation", "advise", "describe", "play_out"]
