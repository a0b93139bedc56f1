"""The candidate sets ``x_j`` of the model: the catalogue filtered to the tiles in play."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import cache

from rummikub.models.rules import RuleSet
from rummikub.solver.catalogue import CatalogueSet, catalogue


def mask(types: Iterable[int]) -> int:
    """A bit per tile type."""
    bits = 0
    for t in types:
        bits |= 1 << t
    return bits


@cache
def joker_free(rules: RuleSet) -> RuleSet:
    """The same game without jokers (its catalogue is the wildcard form's sets; cached)."""
    return replace(rules, jokers=0)


@cache
def masked(rules: RuleSet) -> tuple[tuple[CatalogueSet, int], ...]:
    """The catalogue with the bit mask of the tile types each set needs (cached)."""
    return tuple((s, mask(t for t, _ in s.counts)) for s in catalogue(rules))


def sets_in_play(
    rules: RuleSet, available: Counter[int], extra: Iterable[CatalogueSet] = ()
) -> Iterator[tuple[CatalogueSet, int]]:
    """Each catalogue set (then each of ``extra``) made only of tiles in play, with the most
    copies the tiles allow: ``min_i floor(available_i / s_ij)``."""
    in_play = mask(t for t, k in available.items() if k > 0)
    # Without a joker in play no joker set can be laid: the joker-free catalogue is the same
    # sets in the same order (tests/solver/test_catalogue.py), a sixth of the length.
    plain = rules.jokers and not available[rules.joker_index]
    catalogue_in_play = masked(joker_free(rules) if plain else rules)
    candidates = (*catalogue_in_play, *((s, mask(t for t, _ in s.counts)) for s in extra))
    for s, needs in candidates:
        if needs & ~in_play:  # a tile of the set is not in play (cheap test first)
            continue
        copies = min((available[t] // a for t, a in s.counts), default=0)
        if copies > 0:
            yield s, copies
