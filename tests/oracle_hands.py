"""Brute force for hands, independent of the dynamic program: every multiset of a small
game, each decided by a plain search over sets found by trying every small multiset of tiles
against the meld rules (``readings``)."""

from __future__ import annotations

import functools
from itertools import product
from math import comb, prod

from rummikub.models.meld import readings
from rummikub.models.rules import RuleSet


def all_sets(rules: RuleSet) -> list[tuple[tuple[int, ...], int]]:
    """Every legal set of the game as (counts per tile type, best value), by trying every
    multiset of min_len..max(colours, numbers) tiles."""
    types = rules.tile_types
    caps = [rules.copies_of(t) for t in types]
    largest = max(rules.colours, rules.numbers)
    found = []
    for counts in product(*(range(c + 1) for c in caps)):
        size = sum(counts)
        if not rules.min_len <= size <= largest:
            continue
        tiles = [t for t, c in zip(types, counts, strict=True) for _ in range(c)]
        found_readings = readings(tiles, rules)
        if found_readings:
            found.append((counts, max(r.value for r in found_readings)))
    return found


def brute_counts(rules: RuleSet, opening: bool) -> tuple[list[int], list[int]]:
    """(distinct hands, draws) answering yes, for every size 0..total tiles."""
    sets = all_sets(rules)
    types = rules.tile_types
    caps = [rules.copies_of(t) for t in types]

    def fits(hand: tuple[int, ...], counts: tuple[int, ...]) -> bool:
        return all(h >= c for h, c in zip(hand, counts, strict=True))

    def minus(hand: tuple[int, ...], counts: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(h - c for h, c in zip(hand, counts, strict=True))

    @functools.cache
    def winning(hand: tuple[int, ...]) -> bool:
        first = next((i for i, h in enumerate(hand) if h), None)
        if first is None:
            return True
        return any(
            counts[first] and fits(hand, counts) and winning(minus(hand, counts))
            for counts, _ in sets
        )

    @functools.cache
    def best(hand: tuple[int, ...]) -> int:
        first = next((i for i, h in enumerate(hand) if h), None)
        if first is None:
            return 0
        skip = list(hand)
        skip[first] -= 1
        result = best(tuple(skip))
        for counts, value in sets:
            if counts[first] and fits(hand, counts):
                result = max(result, value + best(minus(hand, counts)))
        return result

    threshold = max(rules.initial_threshold, 1)
    total = sum(caps)
    hands = [0] * (total + 1)
    draws = [0] * (total + 1)
    for hand in product(*(range(c + 1) for c in caps)):
        yes = best(hand) >= threshold if opening else winning(hand)
        if yes:
            size = sum(hand)
            hands[size] += 1
            draws[size] += prod(comb(c, h) for c, h in zip(caps, hand, strict=True))
    return hands, draws
