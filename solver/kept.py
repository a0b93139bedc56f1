"""Kept, extended and parted table melds: the columns of the third objective level.

``k[m,c]`` is 1 when old table meld ``m`` becomes candidate ``c``, a meld of the new table
like a set (it adds its tiles to the cover rows): the meld as it is, or extended (see
:func:`~rummikub.solver.extensions.survivals`), or for a meld without jokers a meld that
holds some of its tiles (:func:`~rummikub.solver.extensions.parts`). Each old meld becomes
at most one candidate (``sum_c k[m,c] <= 1``) and each column is one new meld, so the
pairing of old and new melds is one to one, as in :func:`rummikub.models.moves.picked_up`.
The level "kept" counts the old melds' tiles that stay (``sum |m & c| k[m,c]``): the table
tiles not picked up. It is the least number picked up exactly when no old meld holds a
joker. A meld's jokers stay only when it stays whole (kept or extended); under the
strict/locked rules a meld with table jokers becomes a new meld only that way.
"Untouched" counts the melds left exactly as they were. Under the strict/locked joker
rules a meld with jokers survives as one reading of its jokers, and only under the
meaning chosen for them (``k[m,c] <= u[m,a]`` summed per meaning).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rummikub.models.errors import InternalError
from rummikub.models.meld import Meld
from rummikub.models.position import Position
from rummikub.models.rules import RuleSet
from rummikub.solver.extensions import Survival, parts, survivals
from rummikub.solver.objectives import Level
from rummikub.solver.program import Cover, Extension, Formulation, Terms
from rummikub.solver.stand_ins import StandIns
from rummikub.solver.table_jokers import TableJokerRules


@dataclass
class KeptMelds(Extension):
    """The survival columns of a model's old table melds."""

    position: Position
    in_play: int  # a bit per tile type in play
    jokers_in_play: int
    stand_ins: StandIns | None
    table_jokers: TableJokerRules | None
    # One tile that stays counted by ``g[m]`` (see :meth:`_single`) rather than by columns.
    singles: bool = True
    kept_terms: list[tuple[int, int]] = field(default_factory=list)
    untouched_terms: list[tuple[int, int]] = field(default_factory=list)

    def add_columns(self, model: Formulation, cover: Cover) -> None:
        """``k[m,c]`` for every way each old meld may survive with the tiles in play."""
        slots = self._slots(model) if self.singles else {}
        for m, meld in enumerate(self.position.table):
            options: list[tuple[int, int]] = []
            for a, shape in self._shapes(m, meld):
                per_meaning: list[tuple[int, int]] = []
                own = frozenset(model.rules.index(t) for t in shape.tiles if not t.is_joker)
                for survival in self._ways(shape, model.rules, a):
                    if not self._fits(survival):
                        continue
                    var = model.add_variable(f"k{m}_{len(options)}", 0, 1)
                    model.kept[var] = (m, survival)
                    model.kept_own[var] = own
                    options.append((var, 1))
                    per_meaning.append((var, 1))
                    self.kept_terms.append((var, len(meld) - survival.dropped))
                    if survival.as_it_stands:
                        self.untouched_terms.append((var, 1))
                    cover.add_column(var, survival.counts)
                    if survival.open_jokers:
                        if self.stand_ins is None:
                            raise InternalError("open joker places in a model without stand-ins")
                        self.stand_ins.add_open_slots(model, var, meld, survival)
                if a >= 0 and per_meaning:
                    if self.table_jokers is None:
                        raise InternalError(
                            "a table joker's meaning without the table-joker columns"
                        )
                    chosen = self.table_jokers.of_meld[m].choose[a]
                    model.at_most(f"survive as meaning[{m},{a}]", (*per_meaning, (chosen, -1)), 0)
            if self.singles and any(not t.is_joker for t in meld.tiles) and self._as_is(m):
                options.append((self._single(model, m, meld, slots), 1))
            if len(options) > 1:
                model.add_constraint(f"survive[{m}]", tuple(options), 0, 1)
        if model.singles:  # each g[m] a set of its own
            terms = [(g, 1) for g in model.singles] + [(x, -1) for x in model.sets]
            model.at_most("singles", tuple(terms), 0)

    def _slots(self, model: Formulation) -> dict[int, list[tuple[int, int]]]:
        """Per tile type, the sets holding it: (set variable, tiles of that type)."""
        slots: dict[int, list[tuple[int, int]]] = {}
        for x, s in model.sets.items():
            for t, count in s.counts:
                slots.setdefault(t, []).append((x, count))
        return slots

    def _single(
        self, model: Formulation, m: int, meld: Meld, slots: dict[int, list[tuple[int, int]]]
    ) -> int:
        """``g[m]``: old meld ``m`` becomes a set that holds one of its tiles (it keeps one).

        Counted, not laid: ``g[m]`` needs a set holding a tile of ``m``'s kinds
        (``g[m] <= sum of such tiles in sets``) and no two ``g`` the same set (``sum g <=
        sum x``). Copies of a tile are interchangeable, so that is all a table where
        each such meld has a set of its own needs; whether the table found has one is
        checked after the solve (:func:`~rummikub.solver.engine`), and the model with
        one-tile columns decides where it does not. An upper bound that is met is exact.
        """
        g = model.add_variable(f"g{m}", 0, 1)
        model.singles[g] = m
        self.kept_terms.append((g, 1))
        holding: dict[int, int] = {}
        for t in {model.rules.index(tile) for tile in meld.tiles if not tile.is_joker}:
            for x, count in slots.get(t, ()):
                holding[x] = holding.get(x, 0) + count
        model.at_most(f"single[{m}]", ((g, 1), *((x, -c) for x, c in holding.items())), 0)
        return g

    def levels(self) -> dict[Level, Terms]:
        """The kept and untouched levels."""
        return {Level.KEPT: tuple(self.kept_terms), Level.UNTOUCHED: tuple(self.untouched_terms)}

    def _ways(self, shape: Meld, rules: RuleSet, a: int) -> tuple[Survival, ...]:
        """The meld's survivals, then (for a meld read as it lies) the melds it may become
        with some of its real tiles."""
        found = survivals(shape, rules, self._light, self.jokers_in_play)
        if a >= 0:
            return found
        jokers = 0 if self._light else self.jokers_in_play
        # With singles, a meld that keeps one tile is counted by g[m] (see _single).
        return found + parts(shape, rules, jokers, 2 if self.singles else 1)

    def _as_is(self, m: int) -> bool:
        """Whether old meld ``m`` is read as it lies (not by the meanings of its jokers)."""
        return self.table_jokers is None or m not in self.table_jokers.meanings

    @property
    def _light(self) -> bool:
        return self.stand_ins is not None and self.stand_ins.light

    def _shapes(self, m: int, meld: Meld) -> list[tuple[int, Meld]]:
        """The meld, or under strict/locked rules the meld with its jokers read as each
        meaning (kept even when a joker is swapped for its tile: the shape is unchanged)."""
        if self.table_jokers is None or m not in self.table_jokers.meanings:
            return [(-1, meld)]
        rules = self.position.rules
        real = tuple(t for t in meld.tiles if not t.is_joker)
        return [
            (a, Meld(real + tuple(rules.tile_types[t] for t in meaning)))
            for a, meaning in enumerate(self.table_jokers.meanings[m])
        ]

    def _fits(self, survival: Survival) -> bool:
        """Whether the tiles in play can make a survival: its tiles are in play, or (in the
        light wildcard form) jokers stand in for those that are not."""
        missing = (survival.needs & ~self.in_play).bit_count()
        if missing and not self._light:
            return False
        return survival.jokers + missing <= self.jokers_in_play
