"""A solver-independent integer program: variables, linear constraints, lexicographic goals.

:class:`Formulation` is what every backend solves. Beyond the bare program it names the
variable families a move is read from: the paper's ``x`` (sets) and ``y`` (rack tiles
placed), the kept-meld columns ``k``, and the two optional joker families (the wildcard
form's stand-ins, the strict/locked table-joker variables), each decoded by its own
module (:mod:`~rummikub.solver.stand_ins`, :mod:`~rummikub.solver.table_jokers`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from rummikub.models.rules import RuleSet
from rummikub.solver.catalogue import CatalogueSet
from rummikub.solver.objectives import Level

if TYPE_CHECKING:
    from rummikub.solver.extensions import Survival
    from rummikub.solver.stand_ins import StandIns
    from rummikub.solver.table_jokers import TableJokerRules

Terms = tuple[tuple[int, int], ...]  # (variable index, coefficient)


# Names are for reading a model, never for solving it; a solve names hundreds of variables
# and rows, so the names are made once (formatting a tile costs more than a small column).
@cache
def tile_names(rules: RuleSet, pattern: str) -> tuple[str, ...]:
    """``pattern`` (``"y[{}]"``) with each tile type of the rules, by tile type index."""
    return tuple(pattern.format(tile) for tile in rules.tile_types)


_NUMBERED: dict[str, list[str]] = {}


def numbered(prefix: str, count: int) -> list[str]:
    """``prefix0``, ``prefix1``, ... at least ``count`` of them (made once, then shared)."""
    names = _NUMBERED.setdefault(prefix, [])
    names.extend(f"{prefix}{i}" for i in range(len(names), count))
    return names


# Variables and constraints are named tuples: a model builds hundreds of each per solve,
# and a tuple is made in half the time of a frozen dataclass.
class Variable(NamedTuple):
    """An integer decision variable with bounds."""

    name: str
    lower: int
    upper: int


class Constraint(NamedTuple):
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
    sets: dict[int, CatalogueSet] = field(default_factory=dict)  # x var -> its set
    placed: dict[int, int] = field(default_factory=dict)  # y var -> tile type index
    kept: dict[int, tuple[int, Survival]] = field(default_factory=dict)  # k var -> (meld, how)
    # k var -> the places of its old meld's own tiles (a table joker's place as its meaning)
    kept_own: dict[int, frozenset[int]] = field(default_factory=dict)
    singles: dict[int, int] = field(default_factory=dict)  # g var -> old meld that keeps a tile
    # Sets spell out their jokers (the wildcard form does not apply): a larger, harder model.
    joker_sets: bool = False
    stand_ins: StandIns | None = None  # the wildcard form's joker variables
    table_jokers: TableJokerRules | None = None  # strict/locked table-joker variables
    _value_of: dict[tuple[int, int], int] = field(default_factory=dict, repr=False)
    _sum_of: dict[tuple[tuple[int, int], ...], int] = field(default_factory=dict, repr=False)

    def add_variable(self, name: str, lower: int, upper: int) -> int:
        """Add a variable and return its index."""
        self.variables.append(Variable(name, lower, upper))
        return len(self.variables) - 1

    def add_constraint(self, name: str, terms: Terms, lower: int, upper: int) -> None:
        """Add ``lower <= sum(coef * var) <= upper``."""
        self.constraints.append(Constraint(name, terms, lower, upper))

    def at_most(self, name: str, terms: Terms, upper: int) -> None:
        """Add ``sum(coef * var) <= upper``; the other side is the expression's own least
        value within the variable bounds (never binding, unlike a guessed big M)."""
        self.add_constraint(name, terms, min(self.bounds(terms)[0], upper), upper)

    def at_least(self, name: str, terms: Terms, lower: int) -> None:
        """Add ``sum(coef * var) >= lower`` (the upper side as in :meth:`at_most`)."""
        self.add_constraint(name, terms, lower, max(self.bounds(terms)[1], lower))

    def bounds(self, terms: Terms) -> tuple[int, int]:
        """Smallest and largest value a linear expression can take within variable bounds."""
        variables = self.variables
        low = high = 0
        for var, coef in terms:
            v = variables[var]
            if coef >= 0:
                low += coef * v.lower
                high += coef * v.upper
            else:
                low += coef * v.upper
                high += coef * v.lower
        return low, high

    def evaluate(self, terms: Terms, values: tuple[int, ...]) -> int:
        """The value of a linear expression in a solution."""
        return sum(coef * values[var] for var, coef in terms)

    def scores(self, values: tuple[int, ...]) -> dict[Level, int]:
        """Each objective level's value in a solution, in lexicographic order."""
        return {goal.level: self.evaluate(goal.terms, values) for goal in self.goals}

    def chosen_singles(self, values: tuple[int, ...]) -> list[int]:
        """The old melds a solution counts as keeping one tile in a set of their own."""
        return [m for g, m in self.singles.items() if values[g]]

    def chosen_survivals(self, values: tuple[int, ...]) -> dict[int, Survival]:
        """The kept-meld columns of a solution: old meld -> how it survives."""
        return {m: survival for var, (m, survival) in self.kept.items() if values[var]}

    def untouched(self) -> tuple[int, ...]:
        """The always-legal solution: every table meld as it is, nothing placed.

        A meld with table jokers keeps its first joker meaning, and its staying jokers lie
        in the meld itself. CBC and HiGHS start from it; the engine falls back on it when
        the limit hits before any solution.
        """
        values = [0] * len(self.variables)
        as_is: dict[int, int] = {}  # meld -> its survival column as it stands
        for var, (m, survival) in sorted(self.kept.items()):
            if survival.as_it_stands and m not in as_is:  # the first: its first joker meaning
                values[var] = 1
                as_is[m] = var
        if self.stand_ins is not None:
            self.stand_ins.untouched(values)
        if self.table_jokers is not None:
            self.table_jokers.untouched(values, as_is)
        return tuple(values)

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

    def exclude(self, values: tuple[int, ...]) -> None:
        """No-good cut: later solutions must place other tiles or build another table.

        "Another table" compares the new table as a multiset of melds, so a meld that is
        kept and the same meld formed afresh count as the same table. That is only exact
        when a column's tiles say which meld it lays: build the model with
        ``formulate(..., distinct=True)``.
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
        self.at_least(f"no-good {len(self.constraints)}", tuple(terms), 1 - constant)

    def _indicator(self, var: int, value: int) -> int:
        """A 0/1 variable equal to 1 exactly when ``var == value`` (created on first use)."""
        if (var, value) not in self._value_of:
            v = self.variables[var]
            values = range(v.lower, v.upper + 1)
            indicators = [self.add_variable(f"[{v.name}={j}]", 0, 1) for j in values]
            for j, ind in zip(values, indicators, strict=True):
                self._value_of[(var, j)] = ind
            self.add_constraint(f"one value of {v.name}", tuple((i, 1) for i in indicators), 1, 1)
            weighted = tuple((i, j) for j, i in zip(values, indicators, strict=True))
            self.add_constraint(f"value of {v.name}", (*weighted, (var, -1)), 0, 0)
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
            self.add_constraint(f"count of melds{len(self._sum_of)}", terms, 0, 0)
            self._sum_of[key] = total
        return self._sum_of[key]


class Cover:
    """The left-hand sides of the paper's tile cover, row by row: for tile type ``i``,
    ``sum_j s_ij x_j`` plus whatever an extension adds (kept melds, stand-ins, staying
    jokers) minus ``y_i``. Rows are emitted once every family has added its terms."""

    def __init__(self, types: list[int]) -> None:
        self.rows: defaultdict[int, list[tuple[int, int]]] = defaultdict(list)
        for t in types:
            self.rows[t] = []

    def add(self, tile: int, var: int, coef: int) -> None:
        """``coef * var`` in the row of ``tile``."""
        self.rows[tile].append((var, coef))

    def add_column(self, var: int, counts: tuple[tuple[int, int], ...]) -> None:
        """A meld column: ``a * var`` in the row of each tile type it holds ``a`` of."""
        rows = self.rows  # as add(), inline: this is called for every column of a model
        for t, a in counts:
            rows[t].append((var, a))


class Extension:
    """A family of variables added to the paper's model (kept melds, joker stand-ins,
    table-joker rules, the opening meld). Each adds its columns and cover terms before
    the rack variables, its own constraints after the cover, and may feed objective
    levels; its module also reads its variables back from a solution."""

    def add_columns(self, model: Formulation, cover: Cover) -> None:
        """Add variables and their terms in the cover rows."""

    def add_constraints(self, model: Formulation) -> None:
        """Add constraints once the cover rows and the rack variables ``y`` exist."""

    def levels(self) -> dict[Level, Terms]:
        """Terms this family contributes to objective levels."""
        return {}
