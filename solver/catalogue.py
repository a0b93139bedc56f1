"""The set catalogue: every group and every run of min_len..2*min_len-1 tiles, jokers included.

Built constructively from the rule set (not by testing candidate melds), so that the
independent validator in ``rummikub.models`` can check the solver's answers. Under the
wrap-around rule the runs include those that go round the top (12 13 1, 13 1 2); a longer
run still splits into runs of min_len..2*min_len-1 tiles, each a stretch of consecutive
numbers round the top, so the catalogue stays exact. At most ``max_jokers_per_set`` jokers
per set.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from rummikub.models.meld import MeldKind
from rummikub.models.rules import RuleSet
from rummikub.models.tile import JOKER, Colour, Tile


@dataclass(frozen=True, slots=True)
class CatalogueSet:
    """One distinct set (a multiset of tiles) with its best reading.

    ``counts`` pairs tile-type indices (as in ``RuleSet.tile_types``) with multiplicities.
    ``tiles`` is the layout of the highest-value reading, which is also its ``value``
    (jokers counted as the tile they stand for, as the initial meld requires).
    """

    tiles: tuple[Tile, ...]
    counts: tuple[tuple[int, int], ...]
    kind: MeldKind
    value: int


def _layouts(rules: RuleSet) -> Iterator[tuple[MeldKind, tuple[Tile, ...], int]]:
    """Every (kind, laid-out tiles, value) of a set, jokers substituted in every position."""
    max_jokers = min(rules.max_jokers_per_set, rules.jokers)
    longest = min(rules.max_run_in_catalogue, rules.numbers)
    for colour in map(Colour, range(rules.colours)):
        for length in range(rules.min_len, longest + 1):
            # Under the wrap-around rule a run may go round the top (12 13 1): laid out so.
            for start in rules.run_starts(length):
                numbers = rules.run_numbers(start, length)
                real = [Tile(colour, n) for n in numbers]
                yield from _with_jokers(MeldKind.RUN, real, sum(numbers), max_jokers)
    for number in range(1, rules.numbers + 1):
        for size in range(rules.min_len, rules.colours + 1):
            for colours in combinations(map(Colour, range(rules.colours)), size):
                real = [Tile(c, number) for c in colours]
                yield from _with_jokers(MeldKind.GROUP, real, number * size, max_jokers)


def _with_jokers(
    kind: MeldKind, real: list[Tile], value: int, max_jokers: int
) -> Iterator[tuple[MeldKind, tuple[Tile, ...], int]]:
    for jokers in range(max_jokers + 1):
        for positions in combinations(range(len(real)), jokers):
            tiles = tuple(JOKER if i in positions else t for i, t in enumerate(real))
            if kind is MeldKind.GROUP:  # a joker's place in a group means nothing: put it last
                tiles = tuple(t for t in tiles if not t.is_joker) + (JOKER,) * jokers
            yield kind, tiles, value


@cache
def catalogue(rules: RuleSet) -> tuple[CatalogueSet, ...]:
    """Every distinct set the optimiser may form under these rules (cached per rule set)."""
    best: dict[tuple[int, ...], tuple[int, MeldKind, tuple[Tile, ...]]] = {}
    order: list[tuple[int, ...]] = []
    for kind, tiles, value in _layouts(rules):
        key = tuple(sorted(rules.index(t) for t in tiles))
        if key not in best:
            order.append(key)
            best[key] = (value, kind, tiles)
        elif value > best[key][0]:
            best[key] = (value, kind, tiles)
    sets = []
    for key in order:
        value, kind, tiles = best[key]
        counts: dict[int, int] = {}
        for index in key:
            counts[index] = counts.get(index, 0) + 1
        sets.append(CatalogueSet(tiles, tuple(counts.items()), kind, value))
    return tuple(sets)
