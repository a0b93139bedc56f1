"""The integer program of den Hertog & Hulshof (2006), written once for every backend.

The paper's model (:func:`core_model`), for tile types ``i`` and candidate sets ``j``:

* maximise the objective levels (lexicographically; :mod:`~rummikub.solver.objectives`)
* subject to  ``sum_j s_ij x_j = t_i + y_i``  for every tile type ``i``   (tile cover)
* ``x_j in {0, ..., copies_j}``   copies of set ``j`` on the new table      (set copies)
* ``0 <= y_i <= r_i``             rack tiles of type ``i`` placed           (rack bounds)

where ``s_ij`` is how many tiles of type ``i`` set ``j`` holds, ``t_i`` the tiles of
type ``i`` on the table and ``r_i`` on the rack. Jokers are a tile type like any other
(the paper's model: sets spell out their jokers).

:func:`formulate` is that model plus extensions, each in its own module with its
variables, its cover terms and the decoder that reads them back:

* kept and extended melds (:mod:`~rummikub.solver.kept`): the third objective level;
* the wildcard form (:mod:`~rummikub.solver.stand_ins`): joker-free sets and jokers as
  stand-ins, the fast exact form when few jokers are in play;
* strict/locked table jokers (:mod:`~rummikub.solver.table_jokers`);
* the opening meld (:mod:`~rummikub.solver.opening`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rummikub.models.jokers import JokerRule
from rummikub.models.position import Position
from rummikub.models.rules import RuleSet
from rummikub.solver.catalogue import CatalogueSet
from rummikub.solver.kept import KeptMelds
from rummikub.solver.objectives import Level, Objective, levels
from rummikub.solver.opening import (
    OpeningMeld,
    add_opening_witness,
    as_played,
    continues_onto_table,
)
from rummikub.solver.program import (
    Constraint,
    Cover,
    Extension,
    Formulation,
    Goal,
    Terms,
    Variable,
    numbered,
    tile_names,
)
from rummikub.solver.sets import mask, sets_in_play
from rummikub.solver.stand_ins import StandIns, wildcard_copies, wildcard_sets
from rummikub.solver.table_jokers import (
    TableJokerRules,
    joker_meanings,
    long_host_runs,
    long_hosts,
)

__all__ = [
    "Constraint",
    "Formulation",
    "Goal",
    "Terms",
    "TilePool",
    "Variable",
    "core_model",
    "formulate",
    "formulate_turn",
]


@dataclass(frozen=True)
class TilePool:
    """The data of the model: ``r_i``, ``t_i`` and every tile that may lie in a new meld."""

    rules: RuleSet
    rack: Counter[int]  # r_i
    table: Counter[int]  # t_i (under strict/locked rules without the table jokers)
    available: Counter[int]  # rack + table (+ what table jokers may stand for)
    meanings: dict[int, tuple[tuple[int, ...], ...]]  # strict/locked: meld -> joker meanings

    @classmethod
    def of(cls, position: Position) -> TilePool:
        """The pool of a (validated) position under its rules."""
        rules = position.rules
        joker = rules.joker_index
        rack = Counter(rules.index(t) for t in position.rack)
        table = Counter(
            () if position.initial else (rules.index(t) for t in position.table_tiles())
        )
        available = rack.copy()  # rack + table, in the same order, without Counter.__add__
        available.update(table)
        meanings = {}
        if rules.joker_rule is not JokerRule.FREE and table[joker] > 0:
            # A table joker is the tile it stands for (one of its meanings) unless freed:
            # it may lie in a new meld as that tile, or as a joker once freed.
            meanings = {
                m: joker_meanings(meld, rules)
                for m, meld in enumerate(position.table)
                if meld.jokers
            }
            for options in meanings.values():
                most: Counter[int] = Counter()
                for meaning in options:
                    most |= Counter(meaning)
                available += most
            table = Counter({t: k for t, k in table.items() if t != joker})
        return cls(rules, rack, table, available, meanings)

    @property
    def jokers(self) -> int:
        """Jokers in play: on the rack and on the table."""
        return self.available[self.rules.joker_index]

    @property
    def in_play(self) -> int:
        """A bit per tile type in play."""
        return mask(t for t, k in self.available.items() if k > 0)

    @property
    def freeable(self) -> bool:
        """Whether a table joker may be freed: the rack holds a tile one stands for."""
        return any(self.rack[t] for o in self.meanings.values() for m in o for t in m)

    @property
    def freeable_jokers(self) -> int:
        """At most how many table jokers the rack may replace (by the tiles they stand for)."""
        return sum(
            max(sum(1 for t in meaning if self.rack[t]) for meaning in options)
            for options in self.meanings.values()
        )

    @property
    def wildcard(self) -> bool:
        """Whether the wildcard form fits: no more jokers in play than a set may hold, and
        fewer than ``min_len`` (so the per-set joker limit cannot bind)."""
        rules = self.rules
        return 0 < self.jokers <= rules.max_jokers_per_set and self.jokers < rules.min_len

    @property
    def guarded(self) -> bool:
        """Whether table jokers follow the strict or locked rule here."""
        return bool(self.meanings)


def core_model(
    pool: TilePool,
    sets: Iterable[tuple[CatalogueSet, int]],
    objective: Objective = Objective.TILES,
    keep_jokers: bool = False,
    extensions: Sequence[Extension] = (),
    decisive: bool = False,
) -> Formulation:
    """The paper's model for ``sets`` (each with its most copies) and the extensions'
    variables, constraints and levels (see the module docstring); ``decisive``: only the
    levels that decide the game are goals."""
    rules = pool.rules
    model = Formulation(rules)
    cover = Cover(list(pool.available))
    # Inline rather than add_variable / add_column: a model has hundreds of set columns.
    variables, rows, columns = model.variables, cover.rows, model.sets
    sets = list(sets)
    names = numbered("x", len(sets))
    for j, (s, copies) in enumerate(sets):  # x_j in {0..copies}
        x = len(variables)
        variables.append(Variable(names[j], 0, copies))
        columns[x] = s
        for t, a in s.counts:
            rows[t].append((x, a))
    for extension in extensions:
        extension.add_columns(model, cover)
    y_names = tile_names(rules, "y[{}]")
    for t, count in sorted(pool.rack.items()):  # 0 <= y_i <= r_i
        y = len(variables)
        variables.append(Variable(y_names[t], 0, count))
        model.placed[y] = t
        rows[t].append((y, -1))
    table, row_names = pool.table, tile_names(rules, "cover[{}]")
    for t, terms in sorted(rows.items()):  # sum_j s_ij x_j (+ extensions) - y_i = t_i
        model.constraints.append(Constraint(row_names[t], tuple(terms), table[t], table[t]))
    for extension in extensions:
        extension.add_constraints(model)
    per_level = _placing_levels(model)
    for extension in extensions:
        per_level.update(extension.levels())
    order = levels(objective, keep_jokers, decisive)
    model.goals = [Goal(lv, per_level.get(lv, ())) for lv in order]
    return model


def _placing_levels(model: Formulation) -> dict[Level, Terms]:
    """The levels that count the rack tiles placed (``y``)."""
    joker, types = model.rules.joker_index, model.rules.tile_types
    return {
        Level.PLACED_COUNT: tuple((y, 1) for y in model.placed),
        Level.PLACED_REAL: tuple((y, 1) for y, t in model.placed.items() if t != joker),
        Level.PLACED_VALUE: tuple(
            (y, types[t].value) for y, t in model.placed.items() if t != joker
        ),
        Level.FEWEST_JOKERS: tuple((y, -1) for y, t in model.placed.items() if t == joker),
    }


def _candidate_sets(
    pool: TilePool, rules: RuleSet, *, wildcard: bool, hosts: bool, merge: bool
) -> list[tuple[CatalogueSet, int]]:
    """The sets the move may lay: the wildcard form's joker-free sets (their copies) or
    every set with its jokers spelled out; with ``hosts``, the long runs a freed joker may
    need under the strict rule."""
    two_freed = pool.freeable_jokers >= 2  # a long host may have to hold two freed jokers
    if wildcard:
        found = wildcard_sets(rules, pool.in_play, pool.jokers, merge=merge)
        if hosts:
            found += long_host_runs(rules, pool.rack, pool.in_play, pool.jokers, two_freed)
        return wildcard_copies(found, pool.available, pool.jokers)
    extra = long_hosts(rules, pool.rack, pool.available, two_freed) if hosts else ()
    return list(sets_in_play(rules, pool.available, extra))


def formulate(
    position: Position,
    objective: Objective = Objective.TILES,
    keep_jokers: bool = False,
    *,
    distinct: bool = False,
    singles: bool = True,
    anywhere: bool = False,
    decisive: bool = False,
) -> Formulation:
    """The integer program for the best move in a (validated) position, under its rules.

    ``decisive``: only the levels that decide the game (tiles placed, their value; see
    :mod:`~rummikub.solver.objectives`) are goals, and the kept-meld columns that only the
    human-facing levels need are left out. Under the strict/locked rules with table jokers
    they stay (a staying joker may lie in its meld's survival: they carry legality there).

    ``anywhere``: under the strict/locked rules a staying table joker may lie in any meld
    as its tile (not only with its set): a relaxation, solved first because it is smaller
    (its optimum is the answer when its table keeps the rule).

    ``singles``: an old meld that keeps one tile is counted by ``g[m]``, which the
    solution may claim without a table that has it (see
    :meth:`~rummikub.solver.kept.KeptMelds._single`); else by columns, exactly. Ranking
    (``distinct``) counts them by columns.

    ``distinct`` (for ranking moves with no-good cuts, :meth:`Formulation.exclude`): every
    column's tiles say which meld it lays, jokers included, so that one solution is one
    table. The wildcard form's lighter columns (a kept meld's jokers left to stand-ins or
    open places, one column for sets that differ only in tiles nobody holds) are the same
    optimum but not that.
    """
    pool = TilePool.of(position)
    rules = position.rules
    strict = rules.joker_rule is JokerRule.STRICT
    # Under strict rules a freed joker needs a host (a new set with two rack tiles); a
    # joker can only be freed by its tile from the rack, so without one strict is modelled
    # as locked. Ranking (``distinct``) with table jokers under the strict or locked rule
    # keeps the explicit form (sets that spell out their jokers): in the wildcard form a
    # joker staying with its set and one carried off may fill the same joker-free columns,
    # so two tables would be one to the no-good cuts (found by review: k4 j k6 | b6 r6 j
    # was never listed after k6 b6 r6 | k4 j j).
    hosts_needed = strict and pool.freeable
    jokers = pool.jokers
    wildcard = pool.wildcard and not (pool.guarded and distinct)
    extensions: list[Extension] = []
    table_jokers = stand_ins = None
    if wildcard:
        stand_ins = StandIns(jokers, light=not distinct)
    if pool.guarded:
        real = {
            m: Counter(rules.index(t) for t in position.table[m].tiles if not t.is_joker)
            for m in pool.meanings
        }
        table_jokers = TableJokerRules(
            hosts_needed,
            pool.meanings,
            pool.rack,
            jokers,
            stand_ins=stand_ins,
            real=real,
            with_their_sets=not anywhere,
        )
        extensions.append(table_jokers)
    sets = _candidate_sets(pool, rules, wildcard=wildcard, hosts=hosts_needed, merge=not distinct)
    if not position.initial and not (decisive and not pool.guarded):
        kept = KeptMelds(
            position, pool.in_play, jokers, stand_ins, table_jokers, singles and not distinct
        )
        extensions.append(kept)
    if stand_ins is not None:
        extensions.append(stand_ins)  # after the kept melds: their open places
    if position.initial:
        extensions.append(OpeningMeld(sum(pool.rack.values())))
    model = core_model(pool, sets, objective, keep_jokers, extensions, decisive)
    model.joker_sets = jokers > 0 and not wildcard
    model.stand_ins, model.table_jokers = stand_ins, table_jokers
    return model


def formulate_turn(
    position: Position,
    objective: Objective = Objective.TILES,
    keep_jokers: bool = False,
    *,
    distinct: bool = False,
    singles: bool = True,
    anywhere: bool = False,
    decisive: bool = False,
) -> Formulation:
    """:func:`~rummikub.solver.formulation.formulate` for any turn, the opening turn that
    continues onto the table included (same arguments)."""
    played = as_played(position)
    model = formulate(
        played,
        objective,
        keep_jokers,
        distinct=distinct,
        singles=singles,
        anywhere=anywhere,
        decisive=decisive,
    )
    if continues_onto_table(position):
        add_opening_witness(model, position)
    return model
