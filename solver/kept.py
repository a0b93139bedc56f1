"""Kept and extended table melds: the survival columns of the third objective level.

``k[m,c]`` is 1 when old table meld ``m`` survives as candidate ``c`` (the meld as it is,
or extended; see :mod:`~rummikub.solver.extensions`). A column is a meld of the new table
like a set: it adds its tiles to the cover rows. Each old meld survives in at most one
way (``sum_c k[m,c] <= 1``); the level "kept" counts the old melds' tiles that survive
(``sum len(m) k[m,c]``), "untouched" the melds left exactly as they were. Under the
strict/locked joker rules a meld with jokers survives as one reading of its jokers, and
only under the meaning chosen for them (``k[m,c] <= u[m,a]`` summed per meaning).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rummikub.models.meld import Meld
from rummikub.models.position import Position
from rummikub.solver.extensions import Survival, survivals
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
    kept_terms: list[tuple[int, int]] = field(default_factory=list)
    untouched_terms: list[tuple[int, int]] = field(default_factory=list)

    def add_columns(self, model: Formulation, cover: Cover) -> None:
        """``k[m,c]`` for every way each old meld may survive with the tiles in play."""
        for m, meld in enumerate(self.position.table):
            options: list[tuple[int, int]] = []
            for a, shape in self._shapes(m, meld):
                per_meaning: list[tuple[int, int]] = []
                for survival in survivals(shape, model.rules, self._light):
                    if not self._fits(survival):
                        continue
                    var = model.add_variable(f"k{m}_{len(options)}", 0, 1)
                    model.kept[var] = (m, survival)
                    options.append((var, 1))
                    per_meaning.append((var, 1))
                    self.kept_terms.append((var, len(meld)))
                    if survival.added == 0:
                        self.untouched_terms.append((var, 1))
                    cover.add_column(var, survival.counts)
                    if survival.open_jokers:
                        assert self.stand_ins is not None  # open places only in that form
                        self.stand_ins.add_open_slots(model, var, meld, survival)
                if a >= 0 and per_meaning:
                    assert self.table_jokers is not None
                    chosen = self.table_jokers.of_meld[m].choose[a]
                    model.at_most(f"survive as meaning[{m},{a}]", (*per_meaning, (chosen, -1)), 0)
            if len(options) > 1:
                model.add_constraint(f"survive[{m}]", tuple(options), 0, 1)

    def levels(self) -> dict[Level, Terms]:
        """The kept and untouched levels."""
        return {Level.KEPT: tuple(self.kept_terms), Level.UNTOUCHED: tuple(self.untouched_terms)}

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
