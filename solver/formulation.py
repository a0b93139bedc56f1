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

Wildcard form (no more jokers in play than a set may hold, fewer than ``min_len``): the
sets and survivals are joker-free layouts, and

* ``v[t]``   jokers standing in for a tile of type t: cover[t] gets ``- v[t]``, and the
  jokers' cover ``sum_t v[t] = jokers on the table + y[joker]``;
* ``z[c,t]`` for a kept meld with two or more jokers (whose layouts would multiply with
  every pair of joker places): 1 when one of its own jokers stands for t in survival
  column c, ``sum_t z[c,t] = jokers * k[c]`` and ``sum_c z[c,t] <= v[t]``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from itertools import combinations

from rummikub.models.jokers import JokerRule
from rummikub.models.meld import Meld, MeldKind
from rummikub.models.position import Position
from rummikub.models.rules import RuleSet
from rummikub.models.tile import JOKER, Tile
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
    joker_rule: JokerRule = JokerRule.FREE
    # Sets spell out their jokers (the wildcard form does not apply): a larger, harder model.
    joker_sets: bool = False
    table_jokers: list[TableJokers] = field(default_factory=list)
    hosts: dict[int, int] = field(default_factory=dict)  # host var -> x var of its set
    host_tiles: dict[int, tuple[int, int]] = field(default_factory=dict)  # w -> (x var, tile)
    stand_ins: dict[int, int] = field(default_factory=dict)  # v var -> tile a joker stands for
    stay_in: dict[int, tuple[int, int]] = field(default_factory=dict)  # var -> (column, tile)
    open_slots: dict[int, tuple[int, int]] = field(default_factory=dict)  # z var -> (k var, tile)
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

    def untouched(self) -> tuple[int, ...]:
        """The always-legal solution: every table meld as it is, nothing placed.

        A meld with table jokers keeps its first joker meaning, and its staying jokers lie
        in the meld itself. The backends start from it; the engine falls back on it when
        the limit hits before any solution.
        """
        values = [0] * len(self.variables)
        as_is: dict[int, int] = {}  # meld -> its survival column as it stands
        for var, (m, survival) in sorted(self.kept.items()):
            if survival.added == 0 and m not in as_is:  # the first: its first joker meaning
                values[var] = 1
                as_is[m] = var
        stand_in_for = {t: v for v, t in self.stand_ins.items()}
        for z, (var, t) in self.open_slots.items():
            if values[var]:  # kept as it is: its jokers fill exactly the open slots
                values[z] = 1
                values[stand_in_for[t]] += 1
        for jokers in self.table_jokers:
            values[jokers.choose[0]] = 1
            for t in jokers.meanings[0]:
                values[jokers.stay[t]] += 1
        for var, (col, t) in self.stay_in.items():
            for jokers in self.table_jokers:
                if as_is.get(jokers.meld) == col:
                    values[var] = jokers.meanings[0].count(t)
        return tuple(values)

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


@dataclass(frozen=True, slots=True)
class TableJokers:
    """The table jokers of one meld under the strict or locked rule, and their variables.

    ``meanings`` are the possible joint meanings of the meld's jokers (tile-type indices,
    sorted); ``choose[a]`` picks meaning ``a``; per tile type ``t`` the jokers standing for
    it either stay (``stay[t]``: a joker on the table, still standing for ``t``) or are
    freed (``freed[t]``: replaced by a ``t`` from the rack).
    """

    meld: int
    meanings: tuple[tuple[int, ...], ...]
    choose: tuple[int, ...]
    stay: dict[int, int]
    freed: dict[int, int]


def _joker_meanings(meld: Meld, rules: RuleSet) -> tuple[tuple[int, ...], ...]:
    stated = Counter(d for d in meld.declared if d is not None)
    found: set[tuple[int, ...]] = set()
    for reading in meld.readings(rules):
        for option in reading.joker_options(rules):
            if not stated - Counter(option):
                found.add(tuple(sorted(rules.index(t) for t in option)))
    return tuple(sorted(found))


def formulate(
    position: Position,
    objective: Objective = Objective.TILES,
    keep_jokers: bool = False,
    joker_rule: JokerRule | str | None = None,
    distinct: bool = False,
) -> Formulation:
    """The integer program for the best move in a (validated) position.

    ``joker_rule`` defaults to the position's rules (``RuleSet.joker_rule``). ``distinct``
    (for ranking moves with no-good cuts, :meth:`Formulation.exclude`): every column's
    tiles say which meld it lays, jokers included, so that one solution is one table. The
    wildcard form's lighter columns (a kept meld's jokers left to stand-ins or open
    places, one column for sets that differ only in tiles nobody holds) are the same
    optimum but not that.
    """
    rules = position.rules
    joker_rule = JokerRule(rules.joker_rule if joker_rule is None else joker_rule)
    model = Formulation(rules)
    model.joker_rule = joker_rule
    joker = rules.joker_index
    rack = Counter(rules.index(t) for t in position.rack)
    table = (
        Counter() if position.initial else Counter(rules.index(t) for t in position.table_tiles())
    )
    guarded = joker_rule is not JokerRule.FREE and table[joker] > 0
    # Under strict/locked rules a table joker is the tile it stands for unless freed.
    meanings = {
        m: _joker_meanings(meld, rules)
        for m, meld in enumerate(position.table)
        if guarded and meld.jokers
    }
    real_table = Counter({t: k for t, k in table.items() if t != joker}) if guarded else table
    available = rack + table
    for options in meanings.values():
        most: Counter[int] = Counter()
        for meaning in options:
            most |= Counter(meaning)
        available += most
    cover: dict[int, list[tuple[int, int]]] = {t: [] for t in available}
    in_play = _mask(t for t, k in available.items() if k > 0)
    jokers_in_play = available[joker]

    hosts_needed = guarded and joker_rule is JokerRule.STRICT  # hosts are explicit joker sets
    wildcard = (
        0 < jokers_in_play <= rules.max_jokers_per_set
        and jokers_in_play < rules.min_len
        and not hosts_needed
    )
    light = wildcard and not distinct  # the wildcard form's lighter columns
    model.joker_sets = jokers_in_play > 0 and not wildcard
    if wildcard:
        # Wildcard form (exact here): sets are the joker-free patterns, and v[t] jokers
        # stand in for tiles of type t. With no more jokers in play than a set may hold, the
        # per-set joker limit cannot bind, no set is made of jokers alone, and the model
        # loses the symmetry of the joker sets.
        for s, missing in _wildcard_sets(rules, in_play, jokers_in_play, merge=light):
            upper = min(  # each missing tile takes a joker
                [available[t] + jokers_in_play for t, _ in s.counts if available[t]]
                + ([jokers_in_play // missing] if missing else [])
            )
            var = model.add_variable(f"x{len(model.sets)}", 0, upper)
            model.sets[var] = s
            for t, a in s.counts:
                cover.setdefault(t, []).append((var, a))
    else:
        # x[s]: only sets made of tiles in play, at most as many copies as the tiles allow.
        extra = _long_hosts(rules, rack, available) if hosts_needed else ()
        for s, needs in (*_masked(rules), *((s, _mask(t for t, _ in s.counts)) for s in extra)):
            if needs & ~in_play:  # a tile of the set is not in play (cheap test first)
                continue
            upper = min((available[t] // a for t, a in s.counts), default=0)
            if upper > 0:
                var = model.add_variable(f"x{len(model.sets)}", 0, upper)  # names stay cheap
                model.sets[var] = s
                for t, a in s.counts:
                    cover[t].append((var, a))

    # Table jokers under strict/locked rules: a meaning per meld, each joker stays or is freed.
    jokers_of: dict[int, TableJokers] = {}
    for m, options in meanings.items():
        choose = tuple(model.add_variable(f"u{m}_{a}", 0, 1) for a in range(len(options)))
        model.constraints.append(Constraint(f"meaning[{m}]", tuple((v, 1) for v in choose), 1, 1))
        jokers = TableJokers(m, options, choose, {}, {})
        for t in sorted({t for meaning in options for t in meaning}):
            at_most = max(meaning.count(t) for meaning in options)
            jokers.stay[t] = model.add_variable(f"stay{m}_{t}", 0, at_most)
            jokers.freed[t] = model.add_variable(f"freed{m}_{t}", 0, at_most)
            model.constraints.append(
                Constraint(
                    f"stay or free[{m},{t}]",
                    (
                        (jokers.stay[t], 1),
                        (jokers.freed[t], 1),
                        *(
                            (v, -meaning.count(t))
                            for v, meaning in zip(choose, options, strict=True)
                        ),
                    ),
                    0,
                    0,
                )
            )
            cover[t].append((jokers.stay[t], -1))  # a staying joker is a table tile of type t
            cover[joker].append((jokers.freed[t], -1))  # a freed joker is a joker to place
        model.table_jokers.append(jokers)
        jokers_of[m] = jokers

    # k[m,c]: each table meld may survive in one way (not in initial-meld mode: untouched).
    kept_terms: list[tuple[int, int]] = []
    untouched_terms: list[tuple[int, int]] = []
    if not position.initial:
        for m, meld in enumerate(position.table):
            options_vars: list[tuple[int, int]] = []
            if m in meanings:
                # Survive as the meld with its jokers read as one meaning (kept even when a
                # joker is swapped for the real tile: the meld's shape is unchanged).
                shapes = [
                    (
                        a,
                        Meld(
                            tuple(t for t in meld.tiles if not t.is_joker)
                            + tuple(rules.tile_types[t] for t in meaning)
                        ),
                    )
                    for a, meaning in enumerate(meanings[m])
                ]
            else:
                shapes = [(-1, meld)]
            for a, shape in shapes:
                per_meaning: list[tuple[int, int]] = []
                for survival in survivals(shape, rules, light):
                    if _fits(survival, in_play, jokers_in_play, light):
                        var = model.add_variable(f"k{m}_{len(options_vars)}", 0, 1)
                        model.kept[var] = (m, survival)
                        options_vars.append((var, 1))
                        per_meaning.append((var, 1))
                        kept_terms.append((var, len(meld)))
                        if survival.added == 0:
                            untouched_terms.append((var, 1))
                        for t, k in survival.counts:
                            cover.setdefault(t, []).append((var, k))
                        if survival.open_jokers:
                            _open_slots(model, var, meld, survival)
                if a >= 0 and per_meaning:
                    choose_var = jokers_of[m].choose[a]
                    model.constraints.append(
                        Constraint(
                            f"survive as meaning[{m},{a}]", (*per_meaning, (choose_var, -1)), -1, 0
                        )
                    )
            if len(options_vars) > 1:
                model.constraints.append(Constraint(f"survive[{m}]", tuple(options_vars), 0, 1))

    if wildcard:
        slots_of: dict[int, list[tuple[int, int]]] = {}
        for z, (_, t) in model.open_slots.items():
            slots_of.setdefault(t, []).append((z, 1))
        columns = (model.sets.keys() | model.kept.keys()) if light else model.sets.keys()
        for t in sorted(cover):
            if t != joker and any(var in columns for var, _ in cover[t]):
                stand_in = model.add_variable(f"v{t}", 0, jokers_in_play)
                model.stand_ins[stand_in] = t
                cover[t].append((stand_in, -1))  # a joker standing for t covers a t
                cover[joker].append((stand_in, 1))  # ... and uses up a joker
                if t in slots_of:  # kept melds' own jokers standing for t are stand-ins
                    model.constraints.append(
                        Constraint(
                            f"open slots[{t}]", (*slots_of[t], (stand_in, -1)), -jokers_in_play, 0
                        )
                    )

    # y[t]: rack tiles placed.
    for t, count in sorted(rack.items()):
        var = model.add_variable(f"y[{rules.tile_types[t]}]", 0, count)
        model.placed[var] = t
        cover[t].append((var, -1))

    for t, terms in sorted(cover.items()):
        model.constraints.append(
            Constraint(f"cover[{rules.tile_types[t]}]", tuple(terms), real_table[t], real_table[t])
        )

    if guarded:
        _joker_replacement(model, rack, joker, strict=joker_rule is JokerRule.STRICT)
        if jokers_in_play > rules.max_jokers_per_set:
            _staying_jokers_per_set(model, joker)

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


def _open_slots(model: Formulation, var: int, meld: Meld, survival: Survival) -> None:
    """``z[c,t]``: 1 when the kept meld's own joker stands for ``t`` in survival column ``c``;
    the meld's jokers are all there: as many ``z`` as it has jokers when ``c`` is chosen."""
    own = {model.rules.index(t) for t in meld.tiles if not t.is_joker}
    slots = []
    for t, _ in survival.counts:
        if t not in own:
            z = model.add_variable(f"z{var}_{t}", 0, 1)
            model.open_slots[z] = (var, t)
            slots.append((z, 1))
    model.constraints.append(
        Constraint(f"open jokers {var}", (*slots, (var, -survival.open_jokers)), 0, 0)
    )


def _fits(survival: Survival, in_play: int, jokers: int, wildcard: bool) -> bool:
    """Whether the tiles in play can make a survival: its tiles are in play, or (in the
    wildcard form) jokers stand in for those that are not."""
    missing = (survival.needs & ~in_play).bit_count()
    if missing and not wildcard:
        return False
    return survival.jokers + missing <= jokers


def _wildcard_sets(
    rules: RuleSet, in_play: int, jokers: int, merge: bool = True
) -> list[tuple[CatalogueSet, int]]:
    """The joker-free sets of the wildcard form with how many of their tiles are not in
    play: those missing at most ``jokers``, in catalogue order (a merged set takes the
    first one's place).

    A missing tile can only be a joker, so sets that differ only in their missing tiles
    are one physical set (r3 r4 j is r2-4 and r3-5 when no r2 or r5 is in play). With
    ``merge`` only the one of highest value is kept: the optimum is the same (value
    counts for the initial meld), but the printed layout of a move is then one of them.
    """
    best: dict[tuple[int, int], tuple[int, int]] = {}  # physical set -> (value, position)
    found: list[tuple[CatalogueSet, int]] = []
    for s, needs in _masked(_joker_free(rules)):
        missing = (needs & ~in_play).bit_count()
        if missing > jokers:
            continue
        key = (needs & in_play, missing)
        if merge and missing and key in best:
            value, at = best[key]
            if s.value > value:
                found[at] = (s, missing)
                best[key] = (s.value, at)
            continue
        best[key] = (s.value, len(found))
        found.append((s, missing))
    return found


def _mask(types: Iterable[int]) -> int:
    """A bit per tile type."""
    bits = 0
    for t in types:
        bits |= 1 << t
    return bits


@cache
def _joker_free(rules: RuleSet) -> RuleSet:
    """The same game without jokers (its catalogue is the wildcard form's sets; cached)."""
    return replace(rules, jokers=0)


@cache
def _masked(rules: RuleSet) -> tuple[tuple[CatalogueSet, int], ...]:
    """The catalogue with the bit mask of the tile types each set needs (cached)."""
    return tuple((s, _mask(t for t, _ in s.counts)) for s in catalogue(rules))


def _long_hosts(
    rules: RuleSet, rack: Counter[int], available: Counter[int]
) -> tuple[CatalogueSet, ...]:
    """Runs longer than the catalogue's that may hold a freed joker under strict rules.

    A long new run is normally formed from catalogue pieces, but the freed joker's piece
    must itself hold two rack tiles, which a long run may only manage as a whole
    (o1 o2 o3 o4 o5 j o7 with o1 and o7 from the rack). Such a run is a core spanning the
    joker and two rack tiles, plus fewer than ``min_len`` tiles on each side (a longer
    overhang is a run of its own): those are added as sets. With wrap-around the numbers
    are read round the top (positions beyond ``numbers`` are taken modulo it).
    """
    joker = rules.joker_index
    longest = rules.max_run_in_catalogue
    span_limit = rules.numbers
    laps = (-1, 0, 1) if rules.wrap else (0,)
    found: dict[tuple[tuple[int, int], ...], CatalogueSet] = {}

    def number(position: int) -> int:
        return (position - 1) % rules.numbers + 1

    for c in range(rules.colours):
        base = c * rules.numbers
        on_rack = sorted(
            n + lap * rules.numbers
            for n in range(1, rules.numbers + 1)
            if rack[base + n - 1]
            for lap in laps
        )
        positions = range(min(laps) * rules.numbers + 1, (max(laps) + 1) * rules.numbers + 1)
        for first, second in combinations(on_rack, 2):
            for p in positions:
                if p in (first, second):
                    continue
                low, high = min(p, first), max(p, second)
                for left in range(rules.min_len):
                    for right in range(rules.min_len):
                        lo, hi = low - left, high + right
                        size = hi - lo + 1
                        if size <= longest or size > span_limit:
                            continue
                        if not rules.wrap and (lo < 1 or hi > rules.numbers):
                            continue
                        others = [n for n in range(lo, hi + 1) if n not in (p, first, second)]
                        seconds = [None] + (others if rules.max_jokers_per_set >= 2 else [])
                        for q in seconds:
                            jokers = {p} if q is None else {p, q}
                            if len(jokers) > available[joker]:
                                continue
                            real = [
                                base + number(n) - 1 for n in range(lo, hi + 1) if n not in jokers
                            ]
                            if any(available[t] < 1 for t in real):
                                continue
                            counts = tuple(sorted(Counter([*real, *[joker] * len(jokers)]).items()))
                            if counts not in found:
                                tiles = tuple(
                                    JOKER if n in jokers else rules.tile_types[base + number(n) - 1]
                                    for n in range(lo, hi + 1)
                                )
                                value = sum(number(n) for n in range(lo, hi + 1))
                                found[counts] = CatalogueSet(tiles, counts, MeldKind.RUN, value)
    return tuple(found.values())


def _staying_jokers_per_set(model: Formulation, joker: int) -> None:
    """A staying table joker is solved as its tile but is still a joker in its set: with
    more jokers in play than a set may hold, say in which set each one lies and cap jokers
    per set. ``s[c,t]`` staying jokers standing for ``t`` in the copies of column ``c``."""
    limit = model.rules.max_jokers_per_set
    staying: dict[int, list[tuple[int, int]]] = {}
    for jokers in model.table_jokers:
        for t, var in jokers.stay.items():
            staying.setdefault(t, []).append((var, -1))
    columns = [(var, s.counts) for var, s in model.sets.items()]
    columns += [(var, survival.counts) for var, (_, survival) in model.kept.items()]
    for col, counts in columns:
        inside = [(t, a) for t, a in counts if t in staying]
        if not inside:
            continue
        upper = model.variables[col].upper
        own = dict(counts).get(joker, 0)
        terms: list[tuple[int, int]] = []
        for t, a in inside:
            var = _in_copies(model, f"s{col}_{t}", col, a)
            model.stay_in[var] = (col, t)
            staying[t].append((var, 1))
            terms.append((var, 1))
        model.constraints.append(
            Constraint(
                f"jokers per set {col}",
                (*terms, (col, own - limit)),
                -(limit + own) * upper - 10,
                0,
            )
        )
    for t, terms in staying.items():
        model.constraints.append(Constraint(f"staying jokers {t}", tuple(terms), 0, 0))


def _in_copies(model: Formulation, name: str, column: int, per_copy: int) -> int:
    """A new variable for tiles that lie in the chosen copies of ``column``: at most
    ``per_copy`` in each."""
    upper = model.variables[column].upper
    var = model.add_variable(name, 0, per_copy * upper)
    model.constraints.append(
        Constraint(f"{name} in {column}", ((var, 1), (column, -per_copy)), -per_copy * upper, 0)
    )
    return var


def _joker_replacement(model: Formulation, rack: Counter[int], joker: int, strict: bool) -> None:
    """A freed table joker needs its tile from the rack; under strict rules it must also go
    into a new meld with at least two (non-joker) rack tiles.

    Hosts: ``h[s]`` copies of joker set ``s`` that hold freed jokers, ``w[s,t]`` the rack
    tiles of type ``t`` in them. Which physical joker sits where does not matter (two jokers
    can swap places), so "freed jokers <= jokers in hosts" is exact.
    """
    placed_var = {t: var for var, t in model.placed.items()}
    uses: dict[int, list[tuple[int, int]]] = {t: [] for t in placed_var}
    freed_terms: list[tuple[int, int]] = []
    for jokers in model.table_jokers:
        for t, var in jokers.freed.items():
            freed_terms.append((var, 1))
            if t not in placed_var:  # no such tile on the rack: this joker cannot be freed
                model.constraints.append(Constraint(f"cannot free {var}", ((var, 1),), 0, 0))
            else:
                uses[t].append((var, 1))
    if strict and freed_terms:
        host_terms: list[tuple[int, int]] = []
        for var, s in list(model.sets.items()):
            jokers_in = dict(s.counts).get(joker, 0)
            real = [(t, a) for t, a in s.counts if t != joker and t in placed_var]
            if not jokers_in or len(real) == 0 or sum(a for _, a in real) < 2:
                continue
            upper = model.variables[var].upper
            host = model.add_variable(f"h{var}", 0, upper)
            model.hosts[host] = var
            # A host copy is one of the x[s] copies, not an extra one.
            model.constraints.append(
                Constraint(f"host within x{var}", ((host, 1), (var, -1)), -upper, 0)
            )
            from_rack = []
            for t, a in real:
                w = _in_copies(model, f"w{var}_{t}", host, a)
                model.host_tiles[w] = (var, t)
                uses[t].append((w, 1))
                from_rack.append((w, 1))
            model.constraints.append(
                Constraint(f"two rack tiles in host {var}", (*from_rack, (host, -2)), 0, 5 * upper)
            )
            host_terms.append((host, jokers_in))
        model.constraints.append(
            Constraint(
                "freed jokers in hosts", (*host_terms, *((v, -c) for v, c in freed_terms)), 0, 10**6
            )
        )
    for t, terms in uses.items():
        if terms:
            var = placed_var[t]
            model.constraints.append(
                Constraint(
                    f"rack supplies {t}", ((var, 1), *((v, -c) for v, c in terms)), 0, rack[t]
                )
            )


def _value(tile: Tile) -> int:
    return tile.value
