"""The ``search`` strategy: the planner's candidate moves weighed by determinized rollouts.

Every turn where the choice is open (something can be placed, and it does not go out) the
player takes the planner's candidate moves (:func:`~rummikub.arena.planner.candidates`:
play all, open small, keep jokers, keep sets, sets only, hold) and plays each one out on
the same random deals of the tiles it cannot see (common random numbers, so a difference
between candidates is not the luck of the deal):

* a deal gives each opponent as many unseen tiles as its rack holds and leaves the rest,
  shuffled, as the pool: what the player knows is its rack, the table, the rack sizes, the
  pool size, and (from the rack sizes it has watched change) which opponents have opened;
* the candidate is made, then every player plays to the end of the round, each move
  checked by the game engine as in any game: the player itself the ``planner``, and its
  opponent the ``planner`` too in a two-player game, but at a larger table every opponent
  ``max-tiles`` (or everyone a given ``rollout`` policy);
* a play-out is worth 1 for a win, else ``place_weight`` (a quarter) times the share of
  the other players this one finishes above (the winner first, then by round score); in
  a two-player game, the win itself.

The last two choices come from four-player tournaments against the planner
(``benchmarks/README.md``): with planners for opponents and the share counted in full, the
search shed tiles to finish above others on points, won rounds half as often as the
planner and lost to it (Elo -26); opponents who play every tile they can, and a play-out
worth the win first, brought it level (Elo +5 [-11, +21]) with the best mean score at the
table. Each alone did not (-4 and -47).

It keeps the planner's own choice unless another candidate beats it, deal by deal, by at
least ``margin`` on average and by ``z`` standard errors of those paired differences; of
the candidates that do, it plays the one with the best mean (the rollouts play the planner
after the first move, so this is one step of policy improvement over it). The test is
there because the best of several means over a few deals is mostly luck: picking it
whenever it led by 0.1 played 31% of two-player games against the planner (SPRT H0).

The budget is deterministic work, not time: ``budget`` turns played out per decision, in
whole deals (every candidate on each deal), at least ``min_deals`` and at most
``max_deals`` deals. Everything random comes from the game's per-seat seed and the turn,
so a seeded game replays move for move on any machine.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rummikub.arena.planner import (
    DEFAULT_WORK_LIMIT,
    Candidate,
    Planner,
    candidates,
    unseen_tiles,
)
from rummikub.arena.solver_player import SolverPlayer
from rummikub.game.protocol import Player, PlayerView, Reply
from rummikub.game.rounds import RoundState, play_round
from rummikub.game.scoring import blocked_winner, round_scores
from rummikub.models.tile import Tile


@dataclass(frozen=True)
class SearchParams:
    """The search's knobs (see the module docstring)."""

    budget: int = 100  # turns played out per decision (deterministic work)
    min_deals: int = 2
    max_deals: int = 16
    margin: float = 0.1  # mean worth a candidate must gain over the planner's choice
    z: float = 2.0  # ... and in standard errors of its paired differences, deal by deal
    place_weight: float = 0.25  # a play-out it does not win: this times the share it beats


@dataclass
class _Watch:
    """What the player has seen of this round: rack sizes at its last turn, who has opened,
    and the turns in a row without a play while the pool was empty."""

    round: int = -1
    turn: int = -1
    sizes: tuple[int, ...] = ()
    pool: int = -1
    opened: list[bool] = field(default_factory=list)

    def update(self, view: PlayerView) -> None:
        """Take in this turn's view."""
        new_round = view.round != self.round or view.turn < self.turn
        if new_round:
            # At its first turn the player has not moved: an opponent with fewer tiles has
            # played (an opening), one with more has drawn.
            self.opened = [size < len(view.rack) for size in view.rack_sizes]
        else:
            shrunk = [now < before for now, before in zip(view.rack_sizes, self.sizes, strict=True)]
            self.opened = [o or s for o, s in zip(self.opened, shrunk, strict=True)]
        self.opened[view.seat] = view.opened
        self.round, self.turn = view.round, view.turn
        self.sizes, self.pool = view.rack_sizes, view.pool_size

    def passes(self, view: PlayerView, before: tuple[int, ...], pool_before: int) -> int:
        """Opponents who passed just before this turn (the pool empty, their racks unchanged),
        counted back from the player before this one."""
        if view.pool_size or pool_before != 0:
            return 0
        count = 0
        n = view.players
        for k in range(1, n):
            seat = (view.seat - k) % n
            if view.rack_sizes[seat] != before[seat]:
                break
            count += 1
        return count


def _worth(scores: Sequence[int], winner: int, seat: int, place_weight: float) -> float:
    """1 for a win, else ``place_weight`` times the share of the other players ``seat``
    finishes above (winner first, then score)."""
    others = [s for s in range(len(scores)) if s != seat]
    if seat == winner:
        return 1.0
    above = sum(1 for s in others if s != winner and scores[seat] > scores[s])
    ties = sum(1 for s in others if s != winner and scores[seat] == scores[s])
    return place_weight * (above + ties / 2) / len(others)


class Search:
    """The ``search`` strategy (see the module docstring); ``solves`` counts its own solver
    calls (the candidates'), ``searched`` the decisions it searched, ``switched`` those
    where it played another candidate than the planner's, ``deals`` the deals and
    ``rollout_turns`` the turns it played out for them."""

    def __init__(
        self,
        params: SearchParams | None = None,
        work_limit: float = DEFAULT_WORK_LIMIT,
        rollout: Callable[[], Player] | None = None,
    ) -> None:
        self.params = params or SearchParams()
        self.work_limit = work_limit
        # A policy every player follows in the play-outs, when given: a new player each.
        self.rollout = rollout
        self.planner = Planner(work_limit=work_limit)
        self.watch = _Watch()
        self.searched = self.switched = self.deals = self.rollout_turns = 0

    @property
    def solves(self) -> int:
        """Solver calls for its own candidate moves."""
        return self.planner.solves

    def __call__(self, view: PlayerView) -> Reply:
        before, pool_before = self.watch.sizes, self.watch.pool
        same_round = view.round == self.watch.round and view.turn >= self.watch.turn
        self.watch.update(view)
        options = candidates(view, self.planner.solver, keep_jokers=True, partial=view.opened)
        default = self.planner.choose(view, options)
        if len(options) < 2 or default.goes_out:
            return default.play
        passes = self.watch.passes(view, before, pool_before) if same_round else 0
        return self._best(view, options, default, passes).play

    def _best(
        self, view: PlayerView, options: list[Candidate], default: Candidate, passes: int
    ) -> Candidate:
        """The candidate :func:`choose` picks from their worths over the rollouts."""
        params = self.params
        rng = random.Random(f"search:{view.seed}:{view.round}:{view.turn}")
        worths: list[list[float]] = [[] for _ in options]
        used = deals = 0
        while deals < params.max_deals and (deals < params.min_deals or used < params.budget):
            deal = _Deal.sample(view, rng)
            seeds = [rng.getrandbits(63) for _ in range(view.players)]
            for i, option in enumerate(options):
                worth, turns = self._play_out(view, deal, option, passes, seeds)
                worths[i].append(worth)
                used += turns
            deals += 1
        picked = choose(worths, options.index(default), params)
        self.searched += 1
        self.switched += options[picked] is not default
        self.deals += deals
        self.rollout_turns += used
        return options[picked]

    def _play_out(
        self, view: PlayerView, deal: _Deal, option: Candidate, passes: int, seeds: list[int]
    ) -> tuple[float, int]:
        """One rollout: the candidate on this deal, then the model to the round's end."""
        seat, n = view.seat, view.players
        racks = [list(r) for r in deal.racks]
        pool = list(deal.pool)
        table = view.table
        played = not option.play.is_draw
        if played:
            for tile in option.play.placed:
                racks[seat].remove(tile)
            if not racks[seat]:
                return 1.0, 0
            table, passes = option.play.melds, 0
        elif pool:
            racks[seat].append(pool.pop())
            passes = 0
        else:
            passes += 1
        opened = list(self.watch.opened)
        opened[seat] = view.opened or played
        state = RoundState(
            view.rules, pool, racks, table, opened, (seat + 1) % n, view.turn + 1, passes
        )
        if passes >= n:  # everyone passed in a row: the round is blocked now
            return _blocked_worth(state, seat, self.params.place_weight), 0
        players = [self._policy(s, seat, n) for s in range(n)]
        names = [f"p{s}" for s in range(n)]
        result = play_round(state, players, names, seeds=seeds)
        worth = _worth(result.scores, result.winner, seat, self.params.place_weight)
        return worth, state.turn - view.turn - 1

    def _policy(self, s: int, seat: int, players: int) -> Player:
        """A fresh player for seat ``s`` of a play-out searched from ``seat``."""
        if self.rollout is not None:
            return self.rollout()
        if s == seat or players == 2:
            return Planner(work_limit=self.work_limit)
        return SolverPlayer("tiles", time_limit=self.work_limit)


def choose(worths: Sequence[Sequence[float]], default: int, params: SearchParams) -> int:
    """The candidate to play, given each candidate's worth on each deal (the same deals):
    the default unless another gains at least ``margin`` on average and ``z`` standard
    errors of the paired differences; of those, the best mean."""
    base = worths[default]
    if len(base) < 2:  # one deal cannot show a difference
        return default
    best, best_gain = default, 0.0
    for i, row in enumerate(worths):
        if i == default:
            continue
        diffs = [w - b for w, b in zip(row, base, strict=True)]
        gain = statistics.fmean(diffs)
        error = statistics.stdev(diffs) / math.sqrt(len(diffs))
        if gain >= params.margin and gain >= params.z * error and gain > best_gain:
            best, best_gain = i, gain
    return best


def _blocked_worth(state: RoundState, seat: int, place_weight: float) -> float:
    """The worth of a round that ends blocked in this state."""
    racks = tuple(tuple(r) for r in state.racks)
    winner = blocked_winner(state.racks, state.rules)
    return _worth(round_scores(racks, winner, state.rules), winner, seat, place_weight)


@dataclass(frozen=True)
class _Deal:
    """One guess at what the player cannot see: every rack (its own as it is) and the pool."""

    racks: tuple[tuple[Tile, ...], ...]
    pool: tuple[Tile, ...]  # drawn from the end

    @classmethod
    def sample(cls, view: PlayerView, rng: random.Random) -> _Deal:
        """Deal the unseen tiles at random: each opponent its rack size, the rest the pool."""
        unseen = unseen_tiles(view)
        rng.shuffle(unseen)
        racks: list[tuple[Tile, ...]] = []
        start = 0
        for seat, size in enumerate(view.rack_sizes):
            if seat == view.seat:
                racks.append(view.rack)
                continue
            racks.append(tuple(unseen[start : start + size]))
            start += size
        return cls(tuple(racks), tuple(unseen[start:]))
