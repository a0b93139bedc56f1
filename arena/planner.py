"""The ``planner`` strategy: candidate moves from the solver, and a plan for when to hold.

Every turn the planner asks the solver for a few candidate moves (:func:`candidates`):

* ``play all`` — the most tiles the rack can place (the ``max-tiles`` move);
* ``open small`` — before opening, the fewest tiles worth the threshold in whole sets of
  that move;
* ``keep jokers`` — the most real tiles, a joker only where it lets more real tiles down;
* ``hold`` — draw (or pass), keeping the whole rack.

For advice (``partial=True``, :mod:`~rummikub.analysis.advice`) two ways of playing part of
the rack join them once the player has opened: ``keep sets`` holds back the sets the rack
makes on its own (a go-out threat that can be laid any turn) and plays the rest, and
``sets only`` lays just those sets, leaving the table as it is.

It then chooses with a plan tuned in the arena (:class:`PlannerParams`): open as soon as it
can with as little as it can; then hold everything back until the move that empties the
rack. Tiles on the table feed every opponent, while rack tiles that fit now still fit
later (the table only grows), and in a game of hoarders the first to play loses: the
other goes out on the richer table. With the pool empty it passes when its rack is worth
less than what each opponent is expected to hold (a blocked round goes to the lowest
rack), and otherwise plays the most tiles it can, keeping its jokers where they let no
more real tiles down. The knobs that made it play earlier (a small rack, a low pool, an
opponent close to going out) all lost games in the arena; they stay as parameters.

The planner is deterministic: the solver runs single-threaded under a deterministic work
limit, and nothing else is random, so a seeded game replays move for move.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from rummikub.arena.heuristic import meld_value
from rummikub.game.protocol import DRAW, PlayerView, Reply
from rummikub.models.generate import full_set
from rummikub.models.meld import Meld
from rummikub.models.position import Position
from rummikub.models.tile import Tile, sorted_tiles
from rummikub.solver.bounds import cannot_go_out

if TYPE_CHECKING:
    from rummikub.solver import Move

DEFAULT_WORK_LIMIT = 5.0  # deterministic seconds per solve, as for the other solver players


@dataclass(frozen=True)
class Candidate:
    """A move the planner considers: a label, the play, and the rack tiles it keeps back."""

    label: str
    play: Reply
    kept: tuple[Tile, ...]

    @property
    def goes_out(self) -> bool:
        """Whether the move empties the rack."""
        return not self.kept and not self.play.is_draw


@dataclass(frozen=True)
class PlannerParams:
    """The plan's knobs (the defaults are the ones tuned in the arena, see the README)."""

    open_small: bool = True  # open with the fewest tiles worth it in whole sets of play all
    hold_at: int = 0  # after opening, play while the rack holds fewer tiles than this
    pool_low: int = 0  # play when the pool holds at most this many tiles
    danger: int = 0  # play when an opponent holds at most this many tiles (0: never)
    keep_jokers_late: bool = True  # a non-final play keeps its jokers where it can


class Solver:
    """Single-threaded solves under a deterministic work limit; counts them.

    ``decisive`` (the default, for players): the solver optimises only what decides the
    game, the tiles placed and their value (``solve(..., decisive_only=True)``); off for
    moves shown to a person, which also disturb the table as little as they can.
    """

    def __init__(self, work_limit: float = DEFAULT_WORK_LIMIT, *, decisive: bool = True) -> None:
        from rummikub.solver import Limit

        self.limit = Limit(seconds=math.inf, workers=1, deterministic=work_limit)
        self.decisive = decisive
        self.solves = 0

    def play(self, view: PlayerView, keep_jokers: bool = False) -> Reply:
        """The most tiles this turn can place (rack alone before opening); a draw if none."""
        self.solves += 1
        if not view.opened:
            move = self._solve(Position((), view.rack, True, view.rules), keep_jokers)
            return DRAW if move.is_draw else Reply(view.table + tuple(move.melds), move.placed)
        move = self._solve(view.position(), keep_jokers)
        return DRAW if move.is_draw else Reply(tuple(move.melds), move.placed)

    def _solve(self, position: Position, keep_jokers: bool = False) -> Move:
        """The most tiles placed (then value)."""
        from rummikub.solver import solve

        return solve(
            position,
            objective="tiles",
            keep_jokers=keep_jokers,
            limit=self.limit,
            decisive_only=self.decisive,
        )

    def rack_sets(self, view: PlayerView) -> tuple[Meld, ...]:
        """The most tiles the rack can lay in sets of its own (no threshold, no table)."""
        self.solves += 1
        move = self._solve(Position((), view.rack, False, view.rules))
        return () if move.is_draw else tuple(move.melds)


def _left(rack: Sequence[Tile], placed: Sequence[Tile]) -> tuple[Tile, ...]:
    """The rack tiles a play keeps back."""
    left = list(rack)
    for tile in placed:
        left.remove(tile)
    return tuple(sorted_tiles(left))


def smallest_opening(view: PlayerView, full: Reply) -> Reply:
    """The fewest tiles, in whole new melds of an opening play, that still reach the
    threshold.

    Ties go to fewer jokers, then to more value. ``full`` must be an opening play (its new
    melds come after the table's).
    """
    rules = view.rules
    fresh = full.melds[len(view.table) :]
    best: tuple[Meld, ...] = tuple(fresh)
    best_key = (sum(len(m) for m in fresh), sum(m.jokers for m in fresh), 0)
    for size in range(1, len(fresh)):
        for chosen in itertools.combinations(fresh, size):
            value = sum(meld_value(m, rules) for m in chosen)
            if value < rules.initial_threshold:
                continue
            key = (sum(len(m) for m in chosen), sum(m.jokers for m in chosen), -value)
            if key < best_key:
                best, best_key = chosen, key
    return Reply(view.table + best, tuple(t for m in best for t in m.tiles))


def candidates(
    view: PlayerView, solver: Solver, *, keep_jokers: bool = True, partial: bool = False
) -> list[Candidate]:
    """The moves worth weighing this turn: play all, open small, keep jokers, hold (and
    with ``partial``, once opened: keep sets, sets only).

    The list starts with ``play all`` when anything can be placed and always ends with
    ``hold``; moves that place the same tiles as an earlier one are left out.
    """
    found: list[Candidate] = []
    full = solver.play(view)
    if not full.is_draw:
        found.append(Candidate("play all", full, _left(view.rack, full.placed)))
        if not view.opened:
            small = smallest_opening(view, full)
            if len(small.placed) < len(full.placed):
                found.append(Candidate("open small", small, _left(view.rack, small.placed)))
        else:
            if keep_jokers and any(t.is_joker for t in full.placed):
                found.append(Candidate("keep jokers", solver.play(view, keep_jokers=True), ()))
            if partial:
                found += _partial_plays(view, solver)
    found.append(Candidate("hold", DRAW, view.rack))
    return _distinct(view, found)


def _partial_plays(view: PlayerView, solver: Solver) -> list[Candidate]:
    """``keep sets`` and ``sets only`` (see the module docstring) for an opened player."""
    own = solver.rack_sets(view)
    if not own:
        return []
    own_tiles = [t for m in own for t in m.tiles]
    rest = replace(view, rack=_left(view.rack, own_tiles))
    return [
        Candidate("keep sets", solver.play(rest), ()),
        Candidate("sets only", Reply(view.table + own, tuple(own_tiles)), ()),
    ]


def _distinct(view: PlayerView, found: Sequence[Candidate]) -> list[Candidate]:
    """The candidates that play something new (and ``hold``), with what each keeps back."""
    seen: set[tuple[Tile, ...]] = set()
    kept: list[Candidate] = []
    for c in found:
        placed = tuple(sorted_tiles(c.play.placed))
        if placed in seen or (c.play.is_draw and c.label != "hold"):
            continue
        seen.add(placed)
        kept.append(Candidate(c.label, c.play, _left(view.rack, c.play.placed)))
    return kept


def unseen_tiles(view: PlayerView) -> list[Tile]:
    """The tiles this player cannot see: the pool and the other racks, together."""
    unseen = full_set(view.rules)
    unseen.subtract(view.rack)
    for meld in view.table:
        unseen.subtract(meld.tiles)
    return sorted_tiles(unseen.elements())


def rack_value(tiles: Sequence[Tile], joker_penalty: int) -> int:
    """What a rack counts against its owner at the end of a round."""
    return sum(joker_penalty if t.number is None else t.number for t in tiles)


class Planner:
    """The ``planner`` strategy (see the module docstring); ``solves`` counts solver calls."""

    def __init__(
        self, params: PlannerParams | None = None, work_limit: float = DEFAULT_WORK_LIMIT
    ) -> None:
        self.params = params or PlannerParams()
        self.solver = Solver(work_limit)

    @property
    def solves(self) -> int:
        """Solver calls so far."""
        return self.solver.solves

    def choose(self, view: PlayerView, options: Sequence[Candidate]) -> Candidate:
        """The candidate the plan picks from ``options`` (which end with ``hold``)."""
        params = self.params
        by_label = {c.label: c for c in options}
        hold = by_label["hold"]
        full = by_label.get("play all")
        if full is None:
            return hold
        if full.goes_out:
            return full
        if not view.opened:
            small = by_label.get("open small")
            return small if params.open_small and small is not None else full
        if view.pool_size == 0 and self._wins_if_blocked(view):
            return hold
        if not self._pressed(view):
            return hold
        return by_label.get("keep jokers", full) if params.keep_jokers_late else full

    def _pressed(self, view: PlayerView) -> bool:
        """Whether the plan plays short of going out (after opening): a small rack, a low
        pool or an opponent close to going out, as the parameters say."""
        params = self.params
        return (
            len(view.rack) < params.hold_at
            or view.pool_size <= params.pool_low
            or min(view.opponents_rack_sizes) <= params.danger
        )

    def _wins_if_blocked(self, view: PlayerView) -> bool:
        """Whether this rack is worth less than any opponent's expected rack."""
        unseen = unseen_tiles(view)
        penalty = view.rules.joker_penalty
        mean = rack_value(unseen, penalty) / len(unseen) if unseen else 0.0
        mine = rack_value(view.rack, penalty)
        return all(mine < mean * size for size in view.opponents_rack_sizes)

    def __call__(self, view: PlayerView) -> Reply:
        if view.opened and not self._pressed(view) and cannot_go_out(view.position()):
            # The plan holds unless the rack goes out, and a rack tile that fits no set
            # of the tiles in play proves it cannot: no solve (half the turns of a hoard).
            return DRAW
        # The keep-jokers solve is asked for only when the plan is to play short of going
        # out: most turns cost one solve.
        options = candidates(view, self.solver, keep_jokers=False)
        choice = self.choose(view, options)
        thrifty = self.params.keep_jokers_late and view.opened
        playing_short = choice.label == "play all" and not choice.goes_out
        if thrifty and playing_short and any(t.is_joker for t in choice.play.placed):
            choice = self.choose(view, candidates(view, self.solver, keep_jokers=True))
        return choice.play
