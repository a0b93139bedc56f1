"""The wildcard form: jokers as stand-ins for tiles of joker-free sets.

When no more jokers are in play than a set may hold, and fewer than ``min_len``, the
per-set joker limit cannot bind and no set is made of jokers alone. The sets (and the kept
melds' layouts) are then the joker-free patterns, and

* ``v[t]``   jokers standing in for a tile of type ``t``: cover row ``t`` gets ``- v[t]``
  and the joker row ``+ v[t]`` (so ``sum_t v[t]`` = jokers placed or on the table);
* ``z[c,t]`` for a kept meld with two or more jokers (whose layouts would multiply with
  every pair of joker places): 1 when one of its own jokers stands for ``t`` in column
  ``c``; ``sum_t z[c,t] = jokers * k[c]`` and ``sum_c z[c,t] <= v[t]``.

The form is exact and loses the symmetry of the joker sets; it is the model's fast path.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rummikub.models.meld import Meld
from rummikub.models.rules import RuleSet
from rummikub.models.tile import Tile
from rummikub.solver.catalogue import CatalogueSet
from rummikub.solver.extensions import Survival
from rummikub.solver.program import Cover, Extension, Formulation, tile_names
from rummikub.solver.sets import joker_free, masked


@dataclass
class StandIns(Extension):
    """The wildcard form's joker variables and how to read them back."""

    jokers: int  # jokers in play (placed from the rack or on the table)
    light: bool  # kept melds' jokers left to open places (not ``distinct``)
    of_tile: dict[int, int] = field(default_factory=dict)  # v var -> tile type it stands for
    open_slots: dict[int, tuple[int, int]] = field(default_factory=dict)  # z -> (k var, tile)

    def add_open_slots(self, model: Formulation, var: int, meld: Meld, survival: Survival) -> None:
        """``z[c,t]`` for kept column ``var`` of ``meld``: its jokers are all there, as
        many ``z`` as it has jokers when the column is chosen."""
        own = {model.rules.index(t) for t in meld.tiles if not t.is_joker}
        slots = []
        for t, _ in survival.counts:
            if t not in own:
                z = model.add_variable(f"z{var}_{t}", 0, 1)
                self.open_slots[z] = (var, t)
                slots.append((z, 1))
        model.add_constraint(f"open jokers {var}", (*slots, (var, -survival.open_jokers)), 0, 0)

    def add_columns(self, model: Formulation, cover: Cover) -> None:
        """``v[t]`` for every tile type a set (or, light, a kept column) holds."""
        joker = model.rules.joker_index
        slots_of: dict[int, list[tuple[int, int]]] = {}
        for z, (_, t) in self.open_slots.items():
            slots_of.setdefault(t, []).append((z, 1))
        # The rows these columns add terms to (every column's tiles are in the cover).
        touched = {t for s in model.sets.values() for t, _ in s.counts}
        if self.light:
            touched.update(t for _, survival in model.kept.values() for t, _ in survival.counts)
        names = tile_names(model.rules, "v[{}]")
        for t in sorted(cover.rows):
            if t != joker and t in touched:
                stand_in = model.add_variable(names[t], 0, self.jokers)
                self.of_tile[stand_in] = t
                cover.add(t, stand_in, -1)  # a joker standing for t covers a t
                cover.add(joker, stand_in, 1)  # ... and uses up a joker
                if t in slots_of:  # kept melds' own jokers standing for t are stand-ins
                    model.at_most(f"open slots[{t}]", (*slots_of[t], (stand_in, -1)), 0)

    # -- decoding ---------------------------------------------------------------------

    def standing_in(self, rules: RuleSet, values: tuple[int, ...]) -> Counter[Tile]:
        """Tiles of the solution's sets and kept melds that are jokers standing in."""
        wild = Counter[Tile]()
        types = rules.tile_types
        for var, t in self.of_tile.items():
            if values[var]:  # most stand-ins are unused: no zero entries to walk later
                wild[types[t]] += values[var]
        return wild

    def filled_slots(self, rules: RuleSet, values: tuple[int, ...]) -> list[tuple[int, Tile]]:
        """(kept column, tile) for each kept meld's own joker and the tile it stands for."""
        return [(col, rules.tile_types[t]) for z, (col, t) in self.open_slots.items() if values[z]]

    def untouched(self, values: list[int]) -> None:
        """In the untouched solution a meld kept as it is has its jokers in its open places."""
        stand_in_for = {t: v for v, t in self.of_tile.items()}
        for z, (var, t) in self.open_slots.items():
            if values[var]:
                values[z] = 1
                values[stand_in_for[t]] += 1


def wildcard_sets(
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
    for s, needs in masked(joker_free(rules)):
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


def wildcard_copies(
    found: list[tuple[CatalogueSet, int]], available: Counter[int], jokers: int
) -> list[tuple[CatalogueSet, int]]:
    """Each joker-free set of ``found`` (with its tiles not in play) and its most copies:
    each of its tiles in play at most as often as there are such tiles and jokers, and each
    missing tile takes a joker."""
    count = available.get
    columns = []
    for s, missing in found:
        most = jokers // missing if missing else 1 << 30
        for t, _ in s.counts:
            k = count(t, 0)
            if k and k + jokers < most:
                most = k + jokers
        columns.append((s, most))
    return columns
