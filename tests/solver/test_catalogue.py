"""The set catalogue: published counts, and agreement with an independent enumeration."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement

import pytest

from rummikub.models import JOKER, STANDARD, Colour, Meld, MeldKind, RuleSet, Tile, readings
from rummikub.solver.catalogue import CatalogueSet, catalogue

Key = tuple[int, ...]


def key_of(s: CatalogueSet) -> Key:
    return tuple(sorted(i for i, k in s.counts for _ in range(k)))


def test_standard_game_has_1173_sets() -> None:
    assert len(catalogue(STANDARD)) == 1173


def test_standard_game_without_jokers_has_185_sets() -> None:
    sets = catalogue(RuleSet(jokers=0))
    assert len(sets) == 185
    kinds = Counter(s.kind for s in sets)
    assert kinds == {MeldKind.RUN: 120, MeldKind.GROUP: 65}
    assert all(JOKER not in s.tiles for s in sets)


def test_counts_without_jokers_by_shape() -> None:
    sets = catalogue(RuleSet(jokers=0))
    runs = Counter(len(s.tiles) for s in sets if s.kind is MeldKind.RUN)
    groups = Counter(len(s.tiles) for s in sets if s.kind is MeldKind.GROUP)
    assert runs == {3: 4 * 11, 4: 4 * 10, 5: 4 * 9}
    assert groups == {3: 13 * 4, 4: 13}


def test_one_joker_per_set() -> None:
    """With one joker per set every joker-free set gains one variant per tile it could replace."""
    one = catalogue(RuleSet(max_jokers_per_set=1))
    assert catalogue(RuleSet(jokers=1)) == one
    with_joker = [s for s in one if JOKER in s.tiles]
    assert len(one) == 185 + len(with_joker)
    assert {len(s.tiles) for s in with_joker} == {3, 4, 5}


@pytest.mark.parametrize("rules", [STANDARD, RuleSet(jokers=0), RuleSet(max_jokers_per_set=1)])
def test_every_set_is_legal_distinct_and_valued_at_its_best_reading(rules: RuleSet) -> None:
    sets = catalogue(rules)
    keys = [key_of(s) for s in sets]
    assert len(set(keys)) == len(keys)
    for s in sets:
        assert key_of(s) == tuple(sorted(rules.index(t) for t in s.tiles))
        found = Meld(s.tiles).readings(rules)
        assert found, s.tiles
        assert s.kind in {r.kind for r in found}
        assert s.value == max(r.value for r in found)
        assert 3 <= len(s.tiles) <= 5
        assert sum(t.is_joker for t in s.tiles) <= rules.max_jokers_per_set


def test_catalogue_is_cached_per_rule_set() -> None:
    assert catalogue(STANDARD) is catalogue(RuleSet())


def test_joker_sets_take_their_best_value() -> None:
    by_key = {key_of(s): s for s in catalogue(STANDARD)}
    r = [STANDARD.index(Tile(Colour.RED, n)) for n in range(1, 14)]
    j = STANDARD.joker_index
    r2_r3_j = by_key[tuple(sorted([r[1], r[2], j]))]
    assert r2_r3_j.value == 9  # r2-4, not r1-3
    r5_j_j = by_key[tuple(sorted([r[4], j, j]))]
    assert r5_j_j.value == 18  # r5-7 beats r4-6, r3-5 and the group of 5s
    assert by_key[tuple(sorted([r[12], j, j]))].value == 39  # the group of 13s beats r11-13


def independent_catalogue(rules: RuleSet) -> set[Key]:
    """Every legal set of min_len..max(2*min_len-1, colours) tiles, found through readings().

    Real tiles of a set share a colour (runs) or a number (groups), so only such tile sets
    are tried, each with every allowed number of jokers.
    """
    most = min(rules.max_jokers_per_set, rules.jokers)
    longest = max(rules.max_run_in_catalogue, rules.colours)
    cores: set[tuple[Tile, ...]] = set()
    for colour in map(Colour, range(rules.colours)):
        for size in range(1, longest + 1):
            for numbers in combinations(range(1, rules.numbers + 1), size):
                if numbers[-1] - numbers[0] < longest:
                    cores.add(tuple(Tile(colour, n) for n in numbers))
    for number in range(1, rules.numbers + 1):
        for size in range(1, rules.colours + 1):
            for colours in combinations(map(Colour, range(rules.colours)), size):
                cores.add(tuple(Tile(c, number) for c in colours))
    found: set[Key] = set()
    for core in cores:
        for jokers in range(most + 1):
            tiles = core + (JOKER,) * jokers
            if not rules.min_len <= len(tiles) <= longest:
                continue
            ok = [
                r
                for r in readings(tiles, rules)
                if r.kind is MeldKind.GROUP or r.size <= rules.max_run_in_catalogue
            ]
            if ok:
                found.add(tuple(sorted(rules.index(t) for t in tiles)))
    return found


@pytest.mark.parametrize(
    "rules",
    [STANDARD, RuleSet(jokers=0), RuleSet(max_jokers_per_set=1), RuleSet(colours=6, numbers=9)],
    ids=repr,
)
def test_catalogue_matches_an_independent_enumeration(rules: RuleSet) -> None:
    assert {key_of(s) for s in catalogue(rules)} == independent_catalogue(rules)


def brute_catalogue(rules: RuleSet) -> set[Key]:
    """Every multiset of tile types that readings() accepts, tried one by one (small games)."""
    longest = max(rules.max_run_in_catalogue, rules.colours)
    found: set[Key] = set()
    for size in range(rules.min_len, longest + 1):
        for tiles in combinations_with_replacement(rules.tile_types, size):
            ok = [
                r
                for r in readings(tiles, rules)
                if r.kind is MeldKind.GROUP or r.size <= rules.max_run_in_catalogue
            ]
            if ok:
                found.add(tuple(sorted(rules.index(t) for t in tiles)))
    return found


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(colours=3, numbers=6),
        RuleSet(colours=2, numbers=5, jokers=1),
        RuleSet(colours=3, numbers=6, max_jokers_per_set=1),
        RuleSet(colours=5, numbers=4, jokers=3, max_jokers_per_set=3),
        RuleSet(colours=3, numbers=7, min_len=2, jokers=1),
    ],
    ids=repr,
)
def test_catalogue_matches_brute_force_in_small_games(rules: RuleSet) -> None:
    assert {key_of(s) for s in catalogue(rules)} == brute_catalogue(rules)
