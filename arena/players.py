"""The built-in strategies, the registry that names them, and loading ``module:callable``.

Every built-in is deterministic: the solver runs single-threaded with a fixed seed under a
deterministic work limit, and the heuristics have no randomness, so a seeded game replays
move for move on any machine.
"""

from __future__ import annotations

import importlib
import inspect
import operator
import os
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rummikub.arena.heuristic import extend_table, meld_value, rack_sets
from rummikub.arena.planner import Planner
from rummikub.arena.search import Search
from rummikub.arena.solver_player import TURN_WORK_LIMIT as TURN_WORK_LIMIT
from rummikub.arena.solver_player import SolverPlayer as SolverPlayer
from rummikub.game.errors import ArenaError, PlugInError
from rummikub.game.protocol import DRAW, Action, Player, PlayerView, Reply
from rummikub.models.meld import Meld
from rummikub.models.position import Position
from rummikub.models.tile import Tile
from rummikub.models.validation import move_problems

# TURN_WORK_LIMIT and SolverPlayer live in solver_player.py (the search's play-outs need
# max-tiles players); imported above under their own names, so still importable from here.


class NeverPlay:
    """Always draws: the floor every strategy should beat."""

    def __call__(self, view: PlayerView) -> Action | None:
        return None


class RackOnly(SolverPlayer):
    """Best sets made from the rack alone, never touching the table melds."""

    def best(self, view: PlayerView) -> Reply:
        move = self.solve(Position((), view.rack, not view.opened, view.rules))
        return DRAW if move.is_draw else Reply(view.table + tuple(move.melds), move.placed)


class HoldBack(SolverPlayer):
    """Opens as soon as it can; after that keeps its tiles while the rack holds at least
    ``hold_at`` tiles, unless the best move empties the rack or the pool is down to
    ``pool_low`` tiles."""

    def __init__(
        self, hold_at: int = 8, pool_low: int = 10, time_limit: float = TURN_WORK_LIMIT
    ) -> None:
        super().__init__(time_limit=time_limit)
        self.hold_at = hold_at
        self.pool_low = pool_low

    def __call__(self, view: PlayerView) -> Reply:
        play = self.best(view)
        if play.is_draw or not view.opened:
            return play
        empties = len(play.placed) == len(view.rack)
        if empties or view.pool_size <= self.pool_low or len(view.rack) < self.hold_at:
            return play
        return DRAW


class Heuristic:
    """Human-like, no solver: the obvious sets from the rack, then single tiles laid onto
    the ends of runs and into groups (see :mod:`rummikub.arena.heuristic`)."""

    def __call__(self, view: PlayerView) -> Action | None:
        rules = view.rules
        sets = rack_sets(view.rack, rules)
        if not view.opened:
            if sum(meld_value(m, rules) for m in sets) < rules.initial_threshold or not sets:
                return None
            return Reply(view.table + tuple(sets), tuple(t for m in sets for t in m.tiles))
        placed = [t for m in sets for t in m.tiles]
        left = list(view.rack)
        for tile in placed:
            left.remove(tile)
        position = view.position()

        def legal(table: Sequence[Meld], laid: Sequence[Tile]) -> bool:
            return not move_problems(position, tuple(table), (*placed, *laid))

        table, laid = extend_table(view.table + tuple(sets), left, rules, legal)
        placed += laid
        return Reply(tuple(table), tuple(placed)) if placed else None


@dataclass(frozen=True)
class Strategy:
    """A built-in strategy: its name, a one-line summary, and how to make a fresh player."""

    name: str
    summary: str
    make: Callable[[float], Player]  # takes the solver time limit per move


STRATEGIES: dict[str, Strategy] = {
    s.name: s
    for s in (
        Strategy("never-play", "always draws (the floor)", lambda t: NeverPlay()),
        Strategy(
            "sets-only",
            "best sets from the rack alone (solver), never touches table melds",
            lambda t: RackOnly(time_limit=t),
        ),
        Strategy(
            "max-tiles",
            "greedy: the solver's move placing the most tiles, every turn",
            lambda t: SolverPlayer("tiles", time_limit=t),
        ),
        Strategy(
            "greedy",
            "same strategy as max-tiles, under a second name (a control entrant)",
            lambda t: SolverPlayer("tiles", time_limit=t),
        ),
        Strategy(
            "max-value",
            "the solver's move placing the most value, every turn",
            lambda t: SolverPlayer("value", time_limit=t),
        ),
        Strategy(
            "hold-back",
            "max-tiles moves, but after opening holds its tiles while it has >= 8 unless the "
            "move empties the rack or the pool is <= 10",
            lambda t: HoldBack(time_limit=t),
        ),
        Strategy(
            "planner",
            "opens small, then holds every tile until it can go out or the pool is empty "
            "(never the first to feed the table; see arena/planner.py)",
            lambda t: Planner(work_limit=t),
        ),
        Strategy(
            "search",
            "the planner's candidate moves, each played out on random deals of the unseen "
            "tiles; plays the best (see arena/search.py)",
            lambda t: Search(work_limit=t),
        ),
        Strategy(
            "keep-jokers",
            "max-tiles, but plays a joker only when it lets more real tiles go down",
            lambda t: SolverPlayer("tiles", keep_jokers=True, time_limit=t),
        ),
        Strategy(
            "human",
            "no solver: plays obvious sets from the rack, then extends runs and groups",
            lambda t: Heuristic(),
        ),
    )
}
ALIASES = {
    "never": "never-play",
    "heuristic": "human",
    "rack-only": "sets-only",
    "optimal": "max-tiles",  # its name until the planner showed that most tiles is not best
}


def strategy_names() -> list[str]:
    """The built-in strategy names, in listing order."""
    return list(STRATEGIES)


def is_built_in(spec: str) -> bool:
    """Whether ``spec`` names a built-in strategy (or an alias of one)."""
    return ALIASES.get(spec, spec) in STRATEGIES


def make_player(spec: str, time_limit: float = TURN_WORK_LIMIT) -> Player:
    """A fresh player for a spec: a built-in name, or ``module:callable``.

    ``module:callable`` names either a player (a callable taking a :class:`PlayerView`)
    or a class, which is instantiated with no arguments for every game.
    """
    if is_built_in(spec):
        return STRATEGIES[ALIASES.get(spec, spec)].make(time_limit)
    if ":" not in spec:
        known = ", ".join(STRATEGIES)
        raise ArenaError(f"unknown strategy {spec!r}: use one of {known}, or module:callable")
    module_name, _, attribute = spec.partition(":")
    if not module_name or module_name.startswith("."):
        raise PlugInError(
            f"player {spec!r}: name a module before ':' by its full name (my_bot:play), "
            "importable from the current folder"
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise PlugInError(f"player {spec!r}: cannot import {module_name!r} ({error})") from None
    except Exception as error:  # the plug-in's own code failed as it was imported
        raise PlugInError(f"player {spec!r}: importing it raised {_what(error)}") from None
    target: object = module
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise PlugInError(f"player {spec!r}: {module_name} has no {attribute!r}") from None
    if inspect.isclass(target):
        try:
            target = target()
        except Exception as error:
            raise PlugInError(
                f"player {spec!r}: making one (a class is made with no arguments) raised "
                f"{_what(error)}"
            ) from None
    if not callable(target):
        raise PlugInError(f"player {spec!r}: {attribute!r} is not callable")
    return target


class PlugIn:
    """A player loaded from ``module:callable`` as a tournament seats it: what it raises on
    its turn is its own failure, a :class:`PlugInError` naming it, rather than a failure
    of the arena."""

    def __init__(self, spec: str, player: Callable[[PlayerView], Action | None]) -> None:
        self.spec = spec
        self.player = player

    @property
    def solves(self) -> int:
        """The plug-in's solver calls, if it counts them."""
        counted = getattr(self.player, "solves", 0)
        if isinstance(counted, float) and counted.is_integer():
            return int(counted)
        try:
            if isinstance(counted, bool):
                raise TypeError("a truth value")
            return operator.index(counted)  # an int, or numpy's
        except TypeError:
            raise PlugInError(
                f"player {self.spec!r}: its 'solves' (the solver calls it counts) is "
                f"{counted!r:.40}, not a whole number"
            ) from None

    def __getattr__(self, name: str) -> Any:
        # The plug-in's own attributes (its counters, its name) read through the wrapper.
        if name == "player":  # not set yet (a copy being made): no recursion
            raise AttributeError(name)
        return getattr(self.player, name)

    def __call__(self, view: PlayerView) -> Action | None:
        try:
            return self.player(view)
        except Exception as error:
            raise PlugInError(
                f"player {self.spec!r} (seat {view.seat}) raised on turn {view.turn}: "
                f"{_what(error)}"
            ) from None


def _what(error: BaseException) -> str:
    """The error's type, message and where in the plug-in's code it was raised."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f" ({os.path.basename(frames[-1].filename)}:{frames[-1].lineno})" if frames else ""
    return f"{type(error).__name__}: {error}{where}"
