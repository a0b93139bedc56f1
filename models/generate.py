"""Seeded random positions that could occur in a real game, for tests, benchmarks and the arena.

Tiles are dealt from a shuffled full set; the table is built from legal melds taken from
that pool (runs of any length and groups, jokers standing in at random; runs round the top
under the wrap-around rule), the rack is dealt from what is left.
"""

from __future__ import annotations

import random
from collections import Counter

from rummikub.models.meld import Meld
from rummikub.models.position import Position
from rummikub.models.rules import STANDARD, RuleSet
from rummikub.models.tile import JOKER, Colour, Tile


def full_set(rules: RuleSet = STANDARD) -> Counter[Tile]:
    """Every physical tile of the game as a multiset (106 tiles in the standard game)."""
    pool = Counter({t: rules.copies for t in rules.number_tiles()})
    if rules.jokers:
        pool[JOKER] = rules.jokers
    return pool


def _random_meld(
    rng: random.Random, pool: Counter[Tile], rules: RuleSet, joker_rate: float
) -> Meld | None:
    if rng.random() < 0.5 and rules.numbers >= rules.min_len:
        colour = Colour(rng.randrange(rules.colours))
        length = rng.randint(
            rules.min_len, min(rules.numbers, rules.min_len + rng.choice((0, 0, 1, 2, 4)))
        )
        starts = rules.run_starts(length)  # under wrap-around a run may go round the top
        start = rng.randint(starts[0], starts[-1])
        wanted = [Tile(colour, n) for n in rules.run_numbers(start, length)]
    else:
        number = rng.randint(1, rules.numbers)
        size = rng.randint(rules.min_len, rules.colours) if rules.colours >= rules.min_len else 0
        if not size:
            return None
        colours = rng.sample(range(rules.colours), size)
        wanted = [Tile(Colour(c), number) for c in sorted(colours)]
    take = Counter[Tile]()
    tiles = []
    jokers = 0
    for tile in wanted:
        use_joker = rng.random() < joker_rate
        if not use_joker and pool[tile] - take[tile] > 0:
            take[tile] += 1
            tiles.append(tile)
        elif jokers < rules.max_jokers_per_set and pool[JOKER] - take[JOKER] > 0:
            take[JOKER] += 1
            jokers += 1
            tiles.append(JOKER)
        else:
            return None
    pool.subtract(take)
    return Meld(tuple(tiles))


def random_position(
    seed: int,
    table_tiles: int = 30,
    rack_tiles: int | None = None,
    rules: RuleSet = STANDARD,
    joker_rate: float = 0.05,
    initial: bool = False,
    rack_jokers: int = 0,
) -> Position:
    """A legal position with about ``table_tiles`` on the table and ``rack_tiles`` on the rack
    (by default the rules' rack size).

    ``joker_rate`` is the chance that a table tile is replaced by a joker (while jokers
    last); ``rack_jokers`` jokers (as many as are left) are dealt to the rack first.
    ``initial`` leaves the table empty and marks the opening meld as still to make.
    """
    rng = random.Random(seed)
    rack_tiles = rules.rack_size if rack_tiles is None else rack_tiles
    pool = full_set(rules)
    table: list[Meld] = []
    placed = 0
    attempts = 0
    while not initial and placed < table_tiles and attempts < 50 * (table_tiles + 1):
        attempts += 1
        meld = _random_meld(rng, pool, rules, joker_rate)
        if meld is not None and placed + len(meld) <= table_tiles + rules.min_len:
            table.append(meld)
            placed += len(meld)
        elif meld is not None:
            pool.update(meld.tiles)
    dealt_jokers = min(rack_jokers, pool[JOKER], rack_tiles)
    pool[JOKER] -= dealt_jokers
    remaining = list((+pool).elements())
    remaining.sort(key=Tile.sort_key)
    rng.shuffle(remaining)
    rack = (JOKER,) * dealt_jokers + tuple(remaining[: rack_tiles - dealt_jokers])
    return Position.of(table, rack, initial, rules)
