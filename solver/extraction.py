"""From variable values to a readable new table: melds in natural shape, tiles attributed."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rummikub.models.meld import Meld, MeldKind
from rummikub.models.position import Position
from rummikub.models.tile import Tile
from rummikub.solver.formulation import Formulation
from rummikub.solver.move import NewMeld, Origin


@dataclass
class _Draft:
    tiles: tuple[Tile, ...]
    kind: MeldKind
    source: int | None = None
    original: Counter[Tile] = field(default_factory=Counter)


def _run_span(tiles: tuple[Tile, ...]) -> tuple[int, int]:
    for i, tile in enumerate(tiles):
        if tile.number is not None:
            start = tile.number - i
            return start, start + len(tiles) - 1
    raise ValueError("a run of jokers only has no fixed span")


def _merge_runs(drafts: list[_Draft], max_jokers: int) -> list[_Draft]:
    """Join runs of one colour that continue each other (r1-3 + r4-6 prints as r1-6)."""
    runs = [d for d in drafts if d.kind is MeldKind.RUN and any(not t.is_joker for t in d.tiles)]
    others = [d for d in drafts if d not in runs]
    runs.sort(key=lambda d: (_colour(d), _run_span(d.tiles)))
    merged: list[_Draft] = []
    for run in runs:
        for prev in merged:
            jokers = sum(t.is_joker for t in prev.tiles + run.tiles)
            if (
                _colour(prev) == _colour(run)
                and _run_span(prev.tiles)[1] + 1 == _run_span(run.tiles)[0]
                and jokers <= max_jokers
            ):
                prev.tiles = prev.tiles + run.tiles
                break
        else:
            merged.append(_Draft(run.tiles, run.kind))
    return merged + others


def _colour(draft: _Draft) -> int:
    return next(int(t.colour) for t in draft.tiles if t.colour is not None)


def extract(
    position: Position, model: Formulation, values: tuple[int, ...]
) -> tuple[tuple[NewMeld, ...], tuple[Tile, ...], tuple[Tile, ...]]:
    """The new table, the placed rack tiles and the moved table tiles of a solution."""
    rules = position.rules
    placed = Counter[Tile]()
    for var, t in model.placed.items():
        placed[rules.tile_types[t]] += values[var]

    survived: dict[int, _Draft] = {}
    for var, (m, survival) in model.kept.items():
        if values[var]:
            original = position.table[m]
            tiles = original.tiles if survival.added == 0 else survival.tiles
            survived[m] = _Draft(tiles, survival.kind, m, original.counts())
    if position.initial:
        survived = {
            m: _Draft(meld.tiles, MeldKind.RUN, m, meld.counts())
            for m, meld in enumerate(position.table)
        }
    moved = tuple(
        t for m, meld in enumerate(position.table) if m not in survived for t in meld.tiles
    )

    built: list[_Draft] = []
    for var, s in model.sets.items():
        built += [_Draft(s.tiles, s.kind) for _ in range(values[var])]
    built = _merge_runs(built, rules.max_jokers_per_set)
    built.sort(key=lambda d: [t.sort_key() for t in sorted(d.tiles, key=Tile.sort_key)])

    rack_pool, table_pool = Counter(placed), Counter(moved)
    result: dict[int, NewMeld] = {}
    # Melds made of rack tiles alone are "new"; extensions prefer rack tiles; the rest is rebuilt.
    for i, draft in enumerate(built):
        need = Counter(draft.tiles)
        if not need - rack_pool:
            rack_pool -= need
            result[i] = NewMeld(Meld(draft.tiles), Origin.NEW, None, (True,) * len(draft.tiles))
    kept_melds = []
    for m in sorted(survived):
        draft = survived[m]
        original = Counter(draft.original)
        marks = []
        for tile in draft.tiles:
            if original[tile] > 0:
                original[tile] -= 1
                marks.append(False)
            elif rack_pool[tile] > 0:
                rack_pool[tile] -= 1
                marks.append(True)
            else:
                table_pool[tile] -= 1
                marks.append(False)
        origin = (
            Origin.KEPT if len(draft.tiles) == sum(draft.original.values()) else Origin.EXTENDED
        )
        kept_melds.append(NewMeld(Meld(draft.tiles), origin, m, tuple(marks)))
    for i, draft in enumerate(built):
        if i in result:
            continue
        marks = []
        for tile in draft.tiles:
            if table_pool[tile] > 0:
                table_pool[tile] -= 1
                marks.append(False)
            else:
                rack_pool[tile] -= 1
                marks.append(True)
        origin = Origin.NEW if all(marks) else Origin.REBUILT
        result[i] = NewMeld(Meld(draft.tiles), origin, None, tuple(marks))
    assert not +rack_pool and not +table_pool and not -rack_pool and not -table_pool
    table = tuple(kept_melds) + tuple(result[i] for i in range(len(built)))
    return table, tuple(placed.elements()), moved
