"""Position analysis: the best move under each objective, outs, going-out odds, dead tiles."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, replace

from rummikub.models.generate import full_set
from rummikub.models.jokers import JokerRule
from rummikub.models.position import Position
from rummikub.models.tile import Tile, sorted_tiles
from rummikub.solver.catalogue import catalogue
from rummikub.solver.engine import solve
from rummikub.solver.formulation import Formulation, Variable, formulate_turn
from rummikub.solver.limits import Limit, RawSolution
from rummikub.solver.move import Move
from rummikub.solver.objectives import Objective
from rummikub.solver.opening import continues_onto_table
from rummikub.steps.report import move_json

OBJECTIVES = {
    "tiles": (Objective.TILES, False),
    "value": (Objective.VALUE, False),
    "keep_jokers": (Objective.TILES, True),
}


@dataclass(frozen=True, slots=True)
class Out:
    """What drawing one tile type would give next turn, the table staying the same."""

    tile: Tile
    unseen: int  # copies not on the table or the rack (in the pool or on other racks)
    placed_count: int  # tiles the best move would place with it, the drawn tile included
    goes_out: bool  # the rack could be emptied


@dataclass(frozen=True, slots=True)
class Unplayable:
    """A rack tile that no arrangement of table and rack can place, and why."""

    tile: Tile
    reason: str


@dataclass(frozen=True)
class Analysis:
    """Everything ``rummikub analyze`` reports about a position."""

    position: Position
    best: dict[str, Move]
    outs: tuple[Out, ...]
    unplayable: tuple[Unplayable, ...]
    seconds: float

    @property
    def p_go_out_next(self) -> float:
        """Chance to empty the rack next turn after drawing one unseen tile now (exact)."""
        unseen = sum(out.unseen for out in self.outs)
        if not unseen:
            return 0.0
        return sum(out.unseen for out in self.outs if out.goes_out) / unseen

    def to_json(self) -> dict[str, object]:
        """The JSON object printed by ``rummikub analyze --json``."""
        return {
            "best": {name: move_json(move) for name, move in self.best.items()},
            "outs": [
                {
                    "tile": str(o.tile),
                    "unseen": o.unseen,
                    "placed_count": o.placed_count,
                    "goes_out": o.goes_out,
                }
                for o in self.outs
            ],
            "p_go_out_next": self.p_go_out_next,
            "unplayable": [str(u.tile) for u in self.unplayable],
            "unplayable_reasons": {str(u.tile): u.reason for u in self.unplayable},
            "seconds": round(self.seconds, 6),
        }


def unseen_tiles(position: Position) -> Counter[Tile]:
    """Tiles the player cannot see: the full set minus the table and the rack."""
    return full_set(position.rules) - position.table_counts() - position.rack_counts()


class _WhatIf:
    """One formulation with room for one extra tile of every type, re-solved per question.

    The catalogue filter and the survival columns are built once; each question only
    changes the bounds of the rack variables and the goal.
    """

    def __init__(
        self, position: Position, extra: Counter[Tile], limit: Limit, backend: str, deadline: float
    ) -> None:
        wide = replace(position, rack=position.rack + tuple(sorted_tiles(extra)))
        self.position = position
        self.model = formulate_turn(wide, Objective.TILES)
        self.limit = limit
        self.deadline = deadline
        self.rules = position.rules
        self.rack = Counter(self.rules.index(t) for t in position.rack)
        self.count_goal = tuple((var, 1) for var in self.model.placed)
        self.backend = backend
        self.session = None
        if backend == "cpsat":
            from rummikub.solver.cpsat import CpSatSession

            self.session = CpSatSession(self.model)

    def _solve(self, bounds: dict[int, int], goal: tuple[tuple[int, int], ...]) -> RawSolution:
        if self.session is not None:
            for var, t in self.model.placed.items():
                self.session.set_bounds(var, 0, bounds.get(t, 0))
            self.session.set_goal(goal)
            return self.session.solve(self.limit.remaining(self.deadline))
        from rummikub.solver.engine import load_backend

        model: Formulation = replace(self.model, variables=list(self.model.variables))
        for var, t in model.placed.items():
            v = model.variables[var]
            model.variables[var] = Variable(v.name, 0, bounds.get(t, 0))
        model.goals = []
        solution = load_backend(self.backend)(
            _with_goal(model, goal), self.limit.remaining(self.deadline)
        )
        return solution

    def placed_with(self, drawn: Tile) -> int:
        """Most tiles placeable if ``drawn`` joined the rack."""
        bounds = dict(self.rack)
        t = self.rules.index(drawn)
        bounds[t] = bounds.get(t, 0) + 1
        raw = self._solve(bounds, self.count_goal)
        return self.model.evaluate(self.count_goal, raw.values) if raw.values else 0

    def can_place(self, tile: Tile) -> bool:
        """Whether some legal move places this rack tile."""
        t = self.rules.index(tile)
        goal = tuple((var, 1) for var, tt in self.model.placed.items() if tt == t)
        raw = self._solve(dict(self.rack), goal)
        return bool(raw.values) and self.model.evaluate(goal, raw.values) > 0


def _with_goal(model: Formulation, goal: tuple[tuple[int, int], ...]) -> Formulation:
    from rummikub.solver.formulation import Goal
    from rummikub.solver.objectives import Level

    model.goals = [Goal(Level.PLACED_COUNT, goal)]
    return model


def _why_unplayable(position: Position, tile: Tile) -> str:
    rules = position.rules
    rack_only = position.initial and not continues_onto_table(position)
    pool = position.rack_counts() if rack_only else position.rack_counts() + position.table_counts()
    index = rules.index(tile)
    for s in catalogue(rules):
        counts = dict(s.counts)
        if index in counts and all(pool[rules.tile_types[t]] >= k for t, k in counts.items()):
            if position.initial:
                return (
                    f"no opening meld worth {rules.initial_threshold} from the rack lets it go down"
                )
            return "every set it could join would leave other table tiles without a set"
    where = "on the rack" if rack_only else "on the table and the rack"
    return f"no set can be made with it from the tiles {where}"


def analyze(position: Position, *, limit: Limit | None = None, backend: str = "cpsat") -> Analysis:
    """Best moves per objective, outs for every unseen tile type, and unplayable rack tiles.

    The limit is the whole analysis's (dozens of solves): each solve gets the time left."""
    started = time.perf_counter()
    limit = limit or Limit()
    deadline = started + limit.seconds
    position.validate()
    best = {
        name: solve(
            position,
            objective=objective,
            keep_jokers=keep,
            limit=limit.remaining(deadline),
            backend=backend,
        )
        for name, (objective, keep) in OBJECTIVES.items()
    }
    unseen = unseen_tiles(position)
    extra = Counter(dict.fromkeys(unseen, 1))
    what_if = _WhatIf(position, extra, limit, backend, deadline)
    rack_size = len(position.rack)
    outs = []
    for tile in sorted_tiles(unseen):
        count = what_if.placed_with(tile)
        outs.append(Out(tile, unseen[tile], count, count == rack_size + 1))
    placed = Counter(best["tiles"].placed)
    dead = [
        tile
        for tile in sorted_tiles(position.rack_counts())
        if not placed[tile] and not what_if.can_place(tile)
    ]
    unplayable = _reasons(position, dead, limit, backend, deadline)
    return Analysis(position, best, tuple(outs), tuple(unplayable), time.perf_counter() - started)


def _reasons(
    position: Position, dead: list[Tile], limit: Limit, backend: str, deadline: float
) -> list[Unplayable]:
    """Why each unplayable tile is: under the strict and locked rules, a tile that the free
    rule would let go down is held only by the table jokers staying with their sets."""
    rules = position.rules
    guarded = rules.joker_rule is not JokerRule.FREE and any(m.jokers for m in position.table)
    freely = None
    if guarded and dead:
        free = replace(position, rules=replace(rules, joker_rule=JokerRule.FREE))
        freely = _WhatIf(free, Counter(), limit, backend, deadline)
    found = []
    for tile in dead:
        if freely is not None and freely.can_place(tile):
            why = (
                f"only a table joker could make room for it, and under the {rules.joker_rule} "
                "joker rule a table joker that is not replaced stays with its set"
            )
        else:
            why = _why_unplayable(position, tile)
        found.append(Unplayable(tile, why))
    return found
