"""Exact search over the sets of a game, for hands the number-by-number program cannot
walk: runs that go round the top (the ``wrap`` house rule).

A hand is taken apart tile by tile: its smallest tile either goes into one of the game's
sets that fits in the hand, or (for the opening question) stays out. Runs longer than
``2 * min_len - 1`` are never needed: they split into shorter legal runs, each with no
more jokers than the whole.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable

from rummikub.models.rules import RuleSet
from rummikub.models.tile import Tile
from rummikub.solver.catalogue import catalogue

Hand = tuple[int, ...]  # count per tile type, in RuleSet.tile_types order


@functools.lru_cache(maxsize=16)
def game_sets(rules: RuleSet) -> tuple[tuple[Hand, int], ...]:
    """Every distinct set of the game (the solver's catalogue: runs no longer than
    ``2 * min_len - 1``) as (counts per tile type, best value)."""
    types = len(rules.tile_types)
    best: dict[Hand, int] = {}
    for s in catalogue(rules):
        held = dict(s.counts)
        counts = tuple(held.get(i, 0) for i in range(types))
        best[counts] = max(best.get(counts, -1), s.value)
    return tuple(sorted(best.items()))


def _counts(tiles: Iterable[Tile], rules: RuleSet) -> Hand:
    counter = Counter(rules.index(t) for t in tiles)
    return tuple(counter[i] for i in range(len(rules.tile_types)))


def _sets_by_first(rules: RuleSet) -> dict[int, list[tuple[Hand, int]]]:
    """The game's sets indexed by their first tile type."""
    table: dict[int, list[tuple[Hand, int]]] = {}
    for counts, value in game_sets(rules):
        first = next(i for i, c in enumerate(counts) if c)
        table.setdefault(first, []).append((counts, value))
    return table


def search_is_winning(tiles: Iterable[Tile], rules: RuleSet) -> bool:
    """Whether every tile of the hand goes into legal sets (exact search)."""
    by_first = _sets_by_first(rules)

    @functools.cache
    def solvable(hand: Hand) -> bool:
        first = next((i for i, c in enumerate(hand) if c), None)
        if first is None:
            return True
        for counts, _ in by_first.get(first, []):
            fits = all(h >= c for h, c in zip(hand, counts, strict=True))
            if fits and solvable(tuple(h - c for h, c in zip(hand, counts, strict=True))):
                return True
        return False

    return solvable(_counts(tiles, rules))


def search_best_value(tiles: Iterable[Tile], rules: RuleSet) -> int:
    """The greatest value of disjoint legal sets from the hand (exact search)."""
    by_first = _sets_by_first(rules)

    @functools.cache
    def best(hand: Hand) -> int:
        first = next((i for i, c in enumerate(hand) if c), None)
        if first is None:
            return 0
        left = list(hand)
        left[first] -= 1
        result = best(tuple(left))  # the first tile stays out
        for counts, value in by_first.get(first, []):
            if all(h >= c for h, c in zip(hand, counts, strict=True)):
                rest = tuple(h - c for h, c in zip(hand, counts, strict=True))
                result = max(result, value + best(rest))
        return result

    return best(_counts(tiles, rules))
