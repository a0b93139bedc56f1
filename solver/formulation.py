"""The integer program of den Hertog & Hulshof (2006), written once for every backend.

Symbols (as in the paper, plus the survival columns for the third objective level):

* ``x[s]``  copies of catalogue set ``s`` formed (0..copies),
* ``k[m,c]`` 1 when table meld ``m`` survives as candidate ``c`` (kept or extended),
* ``y[t]``  rack tiles of type ``t`` placed (0..rack count),
* ``o``     1 when the opening meld is made (initial-meld mode only).

Constraints:

* cover:   for every tile type t,  sum_s a[t,s] x[s] + sum_mc a[t,mc] k[m,c] = table[t] + y[t]
* survive: for every table meld m, sum_c k[m,c] <= 1
* opening: sum_s value[s] x[s] >= threshold * o  and  sum_t y[t] <= rack_size * o
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rummikub.models.position import Position
from rummikub.models.rules import RuleSet
from rummikub.models.tile import Tile
from rummikub.solver.catalogue import CatalogueSet, catalogue
from rummikub.solver.extensions import Survival, survivals
from rummikub.solver.objectives import Level, Objective, levels

Terms = tuple[tuple[int, int], ...]  # (variable index, coefficient)


@dataclass(frozen=True, slots=True)
class Variable:
    """An integer decision variable with bounds."""

    name: str
    lower: int
    upper: int


@dataclass(frozen=True, slots=True)
class Constraint:
    """``lower <= sum(coef * var) <= upper``."""

    name: str
    terms: Terms
    lower: int
    upper: int


@dataclass(frozen=True, slots=True)
class Goal:
    """One lexicographic level: maximise ``sum(coef * var)``."""

    level: Level
    terms: Terms


@dataclass
class Formulation:
    """A solver-independent integer program plus the meaning of its variables."""

    rules: RuleSet
    variables: list[Variable] = field(default_factory=list)
    constraints: list[Constraint] = field(default_factory=list)
    goals: list[Goal] = field(default_factory=list)
    sets: dict[int, CatalogueSet] = field(default_factory=dict)  # var index -> set
    kept: dict[int, tuple[int, Survival]] = field(default_factory=dict)  # var -> (meld, how)
    placed: dict[int, int] = field(default_factory=dict)  # var index -> tile type index
    _value_of: dict[tuple[int, int], int] = field(default_factory=dict, repr=False)
    _sum_of: dict[tuple[tuple[int, int], ...], int] = field(default_factory=dict, repr=False)

    def add_variable(self, name: str, lower: int, upper: int) -> int:
        """Add a variable and return its index."""
        self.variables.append(Variable(name, lower, upper))
        return len(self.variables) - 1

    def bounds(self, terms: Terms) -> tuple[int, int]:
        """Smallest and largest value a linear expression can take within variable bounds."""
        low = high = 0
        for var, coef in terms:
            a, b = coef * self.variables[var].lower, coef * self.variables[var].upper
            low += min(a, b)
            high += max(a, b)
        return low, high

    def evaluate(self, terms: Terms, values: tuple[int, ...]) -> int:
        """The value of a linear expression in a solution."""
        return sum(coef * values[var] for var, coef in terms)

    def scores(self, values: tuple[int, ...]) -> dict[str, int]:
        """Each objective level's value in a solution, in lexicographic order."""
        return {str(goal.level): self.evaluate(goal.terms, values) for goal in self.goals}

    def decisions(self) -> list[int]:
        """The variables that define a move: sets formed, survivals chosen, tiles placed."""
        return sorted([*self.sets, *self.kept, *self.placed])

    def _indicator(self, var: int, value: int) -> int:
        """A 0/1 variable equal to 1 exactly when ``var == value`` (created on first use)."""
        if (var, value) not in self._value_of:
            v = self.variables[var]
            indicators = [
                self.add_variable(f"[{v.name}={j}]", 0, 1) for j in range(v.lower, v.upper + 1)
            ]
            for j, ind in zip(range(v.lower, v.upper + 1), indicators, strict=True):
                self._value_of[(var, j)] = ind
            self.constraints.append(
                Constraint(f"one value of {v.name}", tuple((i, 1) for i in indicators), 1, 1)
            )
            self.constraints.append(
                Constraint(
                    f"value of {v.name}",
                    (
                        *(
                            (i, j)
                            for j, i in zip(range(v.lower, v.upper + 1), indicators, strict=True)
                        ),
                        (var, -1),
                    ),
                    0,
                    0,
                )
            )
        return self._value_of[(var, value)]

    def _melds_by_tiles(self) -> dict[tuple[tuple[int, int], ...], list[int]]:
        """Set and survival variables grouped by the multiset of tiles their meld holds."""
        groups: dict[tuple[tuple[int, int], ...], list[int]] = {}
        for var, s in self.sets.items():
            groups.setdefault(tuple(sorted(s.counts)), []).append(var)
        for var, (_, survival) in self.kept.items():
            groups.setdefault(survival.counts, []).append(var)
        return groups

    def _aggregate(self, key: tuple[tuple[int, int], ...], members: list[int]) -> int:
        """A variable equal to the sum of ``members`` (created on first use)."""
        if key not in self._sum_of:
            upper = sum(self.variables[m].upper for m in members)
            total = self.add_variable(f"melds{len(self._sum_of)}", 0, upper)
            terms = (*((m, 1) for m in members), (total, -1))
            self.constraints.append(Constraint(f"count of melds{len(self._sum_of)}", terms, 0, 0))
            self._sum_of[key] = total
        return self._sum_of[key]

    def exclude(self, values: tuple[int, ...]) -> None:
        """No-good cut: later solutions must place other tiles or build another table.

        "Another table" compares the new table as a multiset of melds, so a meld that is
        kept and the same meld formed afresh count as the same table.
        """
        terms: list[tuple[int, int]] = []
        constant = 0  # the cut is: sum(terms) + constant >= 1

        def differs(var: int, value: int) -> None:
            nonlocal constant
            v = self.variables[var]
            if value == v.lower:
                terms.append((var, 1))  # differs iff var > lower
                constant -= v.lower
            elif value == v.upper:
                terms.append((var, -1))  # differs iff var < upper
                constant += v.upper
            else:
                terms.append((self._indicator(var, value), -1))
                constant += 1

        for var in self.placed:
            differs(var, values[var])
        for key, members in sorted(self._melds_by_tiles().items()):
            count = sum(values[m] for m in members)
            if count == 0:
                terms += [(m, 1) for m in members]  # differs iff any such meld is formed
            else:
                differs(self._aggregate(key, members), count)
        high = self.bounds(tuple(terms))[1]
        self.constraints.append(
            Constraint(f"no-good {len(self.constraints)}", tuple(terms), 1 - constant, high)
        )

    def weighted_goal(self) -> Terms:
        """All levels folded into one objective with weights that keep the order exact."""
        combined: dict[int, int] = {}
        weight = 1
        for goal in reversed(self.goals):
            for var, coef in goal.terms:
                combined[var] = combined.get(var, 0) + weight * coef
            low, high = self.bounds(goal.terms)
            weight *= high - low + 1
        return tuple(sorted(combined.items()))


def formulate(
    position: Position,
    objective: Objective = Objective.TILES,
    keep_jokers: bool = False,
) -> Formulation:
    """The integer program for the best move in a (validated) position."""
    rules = position.rules
    model = Formulation(rules)
    rack = Counter(rules.index(t) for t in position.rack)
    table = (
        Counter() if position.initial else Counter(rules.index(t) for t in position.table_tiles())
    )
    available = rack + table
    cover: dict[int, list[tuple[int, int]]] = {t: [] for t in available}

    # x[s]: only sets made of tiles in play, at most as many copies as the tiles allow.
    for s in catalogue(rules):
        upper = min((available[t] // a for t, a in s.counts), default=0)
        if upper > 0:
            var = model.add_variable(f"x{len(model.sets)}", 0, upper)  # names stay cheap
            model.sets[var] = s
            for t, a in s.counts:
                cover[t].append((var, a))

    # k[m,c]: each table meld may survive in one way (not in initial-meld mode: untouched).
    kept_terms: list[tuple[int, int]] = []
    untouched_terms: list[tuple[int, int]] = []
    if not position.initial:
        for m, meld in enumerate(position.table):
            options: list[tuple[int, int]] = []
            for survival in survivals(meld, rules):
                if all(available[t] >= a for t, a in survival.counts):
                    var = model.add_variable(f"k{m}_{len(options)}", 0, 1)
                    model.kept[var] = (m, survival)
                    options.append((var, 1))
                    kept_terms.append((var, len(meld)))
                    if survival.added == 0:
                        untouched_terms.append((var, 1))
                    for t, a in survival.counts:
                        cover[t].append((var, a))
            if len(options) > 1:
                model.constraints.append(Constraint(f"survive[{m}]", tuple(options), 0, 1))

    # y[t]: rack tiles placed.
    for t, count in sorted(rack.items()):
        var = model.add_variable(f"y[{rules.tile_types[t]}]", 0, count)
        model.placed[var] = t
        cover[t].append((var, -1))

    for t, terms in sorted(cover.items()):
        model.constraints.append(
            Constraint(f"cover[{rules.tile_types[t]}]", tuple(terms), table[t], table[t])
        )

    if position.initial and model.placed:
        opened = model.add_variable("o", 0, 1)
        set_value = tuple((var, s.value) for var, s in model.sets.items())
        model.constraints.append(
            Constraint(
                "opening value",
                (*set_value, (opened, -rules.initial_threshold)),
                0,
                sum(v for _, v in set_value) + rules.initial_threshold,
            )
        )
        rack_size = sum(rack.values())
        model.constraints.append(
            Constraint(
                "opening or nothing",
                (*((var, 1) for var in model.placed), (opened, -rack_size)),
                -rack_size,
                0,
            )
        )

    joker = rules.joker_index
    per_level: dict[Level, Terms] = {
        Level.PLACED_COUNT: tuple((var, 1) for var in model.placed),
        Level.PLACED_REAL: tuple((var, 1) for var, t in model.placed.items() if t != joker),
        Level.PLACED_VALUE: tuple(
            (var, _value(rules.tile_types[t])) for var, t in model.placed.items() if t != joker
        ),
        Level.FEWEST_JOKERS: tuple((var, -1) for var, t in model.placed.items() if t == joker),
        Level.KEPT: tuple(kept_terms),
        Level.UNTOUCHED: tuple(untouched_terms),
    }
    model.goals = [Goal(level, per_level[level]) for level in levels(objective, keep_jokers)]
    return model


def _value(tile: Tile) -> int:
    return tile.value
