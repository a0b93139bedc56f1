"""The game engine: deal, first player, turns checked by the independent validator, scoring.

One round: every player gets the rules' ``rack_size`` tiles (14), each draws a tile to decide who
starts (highest number; a joker counts 0; tied players draw again), those tiles go back
and the pool is reshuffled. Players then move in seat order from the first player. A
player who does not play draws a tile (or passes when the pool is empty). The round ends
when a rack is empty, or when the pool is empty and a full rotation of players has passed
(then the lowest rack value wins, see :func:`~rummikub.game.scoring.blocked_winner`).

A game is one round, or with ``target`` a match of rounds until a player's total reaches
the target. Everything random comes from one ``random.Random(seed)``: the same seed and
the same (deterministic) players give the same game, move for move.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rummikub.game.errors import ArenaError, IllegalPlayError
from rummikub.game.protocol import DRAW, Player, PlayerView, Reply
from rummikub.game.record import GameRecorder
from rummikub.game.scoring import blocked_winner, round_scores
from rummikub.models.generate import full_set
from rummikub.models.meld import Meld
from rummikub.models.position import Position
from rummikub.models.rules import STANDARD, RuleSet
from rummikub.models.tile import Tile, sorted_tiles
from rummikub.models.validation import move_problems

MAX_TURNS = 5_000  # a round always ends well before (each turn shrinks pool or racks)


@dataclass(frozen=True)
class GameConfig:
    """How a game is played: the rules, the rack size, and one round or a match to a target."""

    rules: RuleSet = STANDARD
    rack_size: int | None = None  # None: the rules' (RuleSet.rack_size)
    target: int | None = None  # None: one round; else rounds until a total reaches it
    max_rounds: int = 100  # a match stops here even if nobody reached the target

    def __post_init__(self) -> None:
        if self.deal_size < 1:
            raise ArenaError(f"rack size must be at least 1, got {self.rack_size}")
        if self.target is not None and self.target < 1:
            raise ArenaError(f"match target must be positive, got {self.target}")

    @property
    def deal_size(self) -> int:
        """Tiles dealt to each player: the rack size given, else the rules'."""
        return self.rules.rack_size if self.rack_size is None else self.rack_size


@dataclass
class RoundState:
    """The mutable state of a round in progress. The pool is drawn from its end."""

    rules: RuleSet
    pool: list[Tile]
    racks: list[list[Tile]]
    table: tuple[Meld, ...] = ()
    opened: list[bool] = field(default_factory=list)
    current: int = 0
    turn: int = 0
    passes: int = 0  # consecutive turns without a play while the pool was empty

    def __post_init__(self) -> None:
        if not self.opened:
            self.opened = [False] * len(self.racks)

    @property
    def players(self) -> int:
        """How many players take part."""
        return len(self.racks)

    def tile_counts(self) -> Counter[Tile]:
        """Every tile in the game, wherever it is: pool, racks and table together."""
        counts = Counter(self.pool)
        for rack in self.racks:
            counts.update(rack)
        for meld in self.table:
            counts.update(meld.tiles)
        return counts

    def conserved(self) -> bool:
        """Whether every tile of the full set is accounted for, exactly once."""
        return self.tile_counts() == full_set(self.rules)


@dataclass(frozen=True)
class Deal:
    """How a round began: the draws for the first player, the first player, racks and pool."""

    draws: tuple[tuple[tuple[int, Tile], ...], ...]  # each drawing pass: (seat, tile)
    first: int
    racks: tuple[tuple[Tile, ...], ...]
    pool: tuple[Tile, ...]  # in draw order: the next tile drawn comes first

    def state(self, rules: RuleSet) -> RoundState:
        """A fresh round state for this deal."""
        return RoundState(
            rules=rules,
            pool=list(reversed(self.pool)),
            racks=[list(rack) for rack in self.racks],
            current=self.first,
        )


@dataclass(frozen=True)
class Turn:
    """What happened in one turn. ``action`` is ``play``, ``draw`` or ``pass``."""

    round: int
    turn: int
    seat: int
    action: str
    table: tuple[Meld, ...] = ()  # the new table after a play
    placed: tuple[Tile, ...] = ()
    drew: Tile | None = None
    seconds: float = 0.0  # the player's thinking time (not recorded in game records)


@dataclass(frozen=True)
class RoundResult:
    """The end of a round: who won and how (``out`` or ``blocked``), scores, final racks."""

    round: int
    first: int
    winner: int
    reason: str
    scores: tuple[int, ...]
    racks: tuple[tuple[Tile, ...], ...]
    turns: int


@dataclass(frozen=True)
class GameResult:
    """A finished game: its rounds, the match totals and the winner, and per-seat costs."""

    seed: int
    names: tuple[str, ...]
    rounds: tuple[RoundResult, ...]
    totals: tuple[int, ...]
    winner: int
    seconds: tuple[float, ...]  # thinking time of each seat
    solves: tuple[int, ...]  # solver calls of each seat (players that count them)
    turns_taken: tuple[int, ...]  # turns each seat played, drew or passed

    @property
    def turns(self) -> int:
        """Turns over all rounds."""
        return sum(r.turns for r in self.rounds)


Observer = Callable[[RoundState, Turn], None]


def deal_round(rng: random.Random, players: int, rules: RuleSet, rack_size: int) -> Deal:
    """Shuffle, draw for the first player (highest number; ties draw again), reshuffle, deal."""
    if not 2 <= players <= 4:
        raise ArenaError(f"a game has 2 to 4 players, got {players}")
    pool = sorted(full_set(rules).elements(), key=Tile.sort_key)
    if players * rack_size >= len(pool):
        raise ArenaError(f"{players} racks of {rack_size} tiles leave no pool of {len(pool)}")
    rng.shuffle(pool)
    draws: list[tuple[tuple[int, Tile], ...]] = []
    aside: list[Tile] = []
    candidates = list(range(players))
    while True:
        if len(pool) < len(candidates):  # ties all the way down (tiny rule sets): lowest seat
            first = candidates[0]
            break
        drawn = tuple((seat, pool.pop()) for seat in candidates)
        draws.append(drawn)
        aside.extend(tile for _, tile in drawn)
        best = max(tile.value for _, tile in drawn)
        candidates = [seat for seat, tile in drawn if tile.value == best]
        if len(candidates) == 1:
            first = candidates[0]
            break
    pool.extend(aside)
    rng.shuffle(pool)
    racks = tuple(tuple(pool.pop() for _ in range(rack_size)) for _ in range(players))
    return Deal(tuple(draws), first, racks, tuple(reversed(pool)))


def _as_play(action: object, name: str, seat: int, turn: int) -> Reply:
    """The player's answer as a :class:`Reply`, or :class:`IllegalPlayError` if it is none."""
    if action is None:
        return DRAW
    try:  # a Reply too: its fields may hold lists, and the table must stay a tuple
        play = Reply(tuple(action.melds), tuple(action.placed))  # type: ignore[attr-defined]
    except (AttributeError, TypeError):
        raise IllegalPlayError(
            name, seat, turn, [f"returned {type(action).__name__}, not a play or None"]
        ) from None
    bad: list[object] = [m for m in play.melds if not isinstance(m, Meld)]
    bad += [t for t in play.placed if not isinstance(t, Tile)]
    if bad:
        raise IllegalPlayError(
            name, seat, turn, [f"returned {type(bad[0]).__name__} where melds and tiles belong"]
        )
    return play


def play_turn(
    state: RoundState,
    player: Player,
    name: str,
    *,
    round_no: int = 1,
    scores: Sequence[int] = (),
    seed: int = 0,
) -> Turn:
    """Ask the current player for a move, check it with the validator under the round's
    rules (``state.rules``, the joker rule included) and apply it."""
    seat = state.current
    rack = state.racks[seat]
    view = PlayerView(
        seat=seat,
        rack=tuple(sorted_tiles(rack)),
        table=state.table,
        opened=state.opened[seat],
        rack_sizes=tuple(len(r) for r in state.racks),
        pool_size=len(state.pool),
        scores=tuple(scores) or (0,) * state.players,
        turn=state.turn,
        round=round_no,
        seed=seed,
        rules=state.rules,
    )
    started = time.perf_counter()
    try:
        action = player(view)
    except Exception as error:
        error.add_note(f"raised by player {name!r} (seat {seat}) on turn {state.turn}")
        raise
    seconds = time.perf_counter() - started
    play = _as_play(action, name, seat, state.turn)
    turn_no = state.turn
    state.turn += 1
    if play.is_draw:
        if state.pool:
            tile = state.pool.pop()
            rack.append(tile)
            state.passes = 0
            return Turn(round_no, turn_no, seat, "draw", drew=tile, seconds=seconds)
        state.passes += 1
        return Turn(round_no, turn_no, seat, "pass", seconds=seconds)
    position = Position(state.table, tuple(rack), not state.opened[seat], state.rules)
    problems = move_problems(position, play.melds, play.placed)
    if problems:
        raise IllegalPlayError(name, seat, turn_no, problems)
    for tile in play.placed:
        rack.remove(tile)
    state.table = play.melds
    state.opened[seat] = True
    state.passes = 0
    return Turn(round_no, turn_no, seat, "play", play.melds, play.placed, seconds=seconds)


def play_round(
    state: RoundState,
    players: Sequence[Player],
    names: Sequence[str],
    *,
    round_no: int = 1,
    scores: Sequence[int] = (),
    seeds: Sequence[int] = (),
    observer: Observer | None = None,
    recorder: GameRecorder | None = None,
    seconds: list[float] | None = None,
    turns_taken: list[int] | None = None,
) -> RoundResult:
    """Play a round from ``state`` to its end; ``observer`` sees the state after every turn."""
    n = state.players
    if len(players) != n or len(names) != n:
        raise ArenaError(f"{n} racks but {len(players)} players and {len(names)} names")
    first = state.current
    while True:
        seat = state.current
        turn = play_turn(
            state,
            players[seat],
            names[seat],
            round_no=round_no,
            scores=scores,
            seed=seeds[seat] if seeds else 0,
        )
        if seconds is not None:
            seconds[seat] += turn.seconds
        if turns_taken is not None:
            turns_taken[seat] += 1
        if recorder is not None:
            recorder.turn(turn)
        if observer is not None:
            observer(state, turn)
        if turn.action == "play" and not state.racks[seat]:
            winner, reason = seat, "out"
            break
        if state.passes >= n:
            winner, reason = blocked_winner(state.racks, state.rules), "blocked"
            break
        if state.turn >= MAX_TURNS:
            raise ArenaError(f"round {round_no} did not end after {MAX_TURNS} turns")
        state.current = (seat + 1) % n
    racks = tuple(tuple(sorted_tiles(rack)) for rack in state.racks)
    result = RoundResult(
        round_no,
        first,
        winner,
        reason,
        round_scores(racks, winner, state.rules),
        racks,
        state.turn,
    )
    if recorder is not None:
        recorder.end(result)
    return result


DealSource = Callable[[int], Deal]


def play_game(
    players: Sequence[Player],
    seed: int,
    config: GameConfig | None = None,
    *,
    names: Sequence[str] | None = None,
    recorder: GameRecorder | None = None,
    observer: Observer | None = None,
    deals: DealSource | None = None,
) -> GameResult:
    """Play one game (a round, or a match when ``config.target`` is set) and score it.

    ``deals`` replaces the seeded dealing (replays use it to deal what a record says).
    """
    config = config or GameConfig()
    n = len(players)
    names = tuple(names) if names is not None else tuple(f"player{s}" for s in range(n))
    rng = random.Random(seed)
    seeds = tuple(rng.getrandbits(63) for _ in range(n))
    if recorder is not None:
        recorder.start(seed, names, config, seeds)
    totals = [0] * n
    seconds = [0.0] * n
    turns_taken = [0] * n
    rounds: list[RoundResult] = []
    for round_no in range(1, config.max_rounds + 1):
        deal = deals(round_no) if deals else deal_round(rng, n, config.rules, config.deal_size)
        if recorder is not None:
            recorder.deal(round_no, deal)
        result = play_round(
            deal.state(config.rules),
            players,
            names,
            round_no=round_no,
            scores=totals,
            seeds=seeds,
            observer=observer,
            recorder=recorder,
            seconds=seconds,
            turns_taken=turns_taken,
        )
        rounds.append(result)
        totals = [t + s for t, s in zip(totals, result.scores, strict=True)]
        if config.target is None or max(totals) >= config.target:
            break
    if config.target is None:
        winner = rounds[0].winner
    else:
        winner = max(range(n), key=lambda s: (totals[s], -s))
    solves = tuple(int(getattr(p, "solves", 0)) for p in players)
    game = GameResult(
        seed,
        names,
        tuple(rounds),
        tuple(totals),
        winner,
        tuple(seconds),
        solves,
        tuple(turns_taken),
    )
    if recorder is not None:
        recorder.result(game)
    return game
