"""Random positions with jokers on the table, for the tests of the table-joker rules."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from oracle_jokers import joker_meanings

from rummikub.models import JOKER, Colour, JokerRule, Position, RuleSet, Tile
from rummikub.models.generate import full_set, random_position

RULES: dict[str, RuleSet] = {
    "c3n7": RuleSet(colours=3, numbers=7, copies=2, jokers=2),
    "c4n6": RuleSet(colours=4, numbers=6, copies=2, jokers=2),
    "c3n7-1j": RuleSet(colours=3, numbers=7, copies=2, jokers=2, max_jokers_per_set=1),
}


def under(position: Position, joker_rule: str) -> Position:
    """The position played under the same rules but the given table-joker rule."""
    return replace(position, rules=replace(position.rules, joker_rule=JokerRule(joker_rule)))


def joker_position(seed: int, rules: RuleSet, *, partners: bool = False) -> Position:
    """A random position with at least one joker on the table and a rack that often holds
    the tile a table joker stands for, and pairs of tiles that could host a freed joker;
    with ``partners``, often also two tiles that make a meld with the tile a table joker
    stands for, which its set would lose."""
    rng = random.Random(seed)
    for _ in range(200):
        base = random_position(
            rng.randrange(10**9),
            table_tiles=rng.randint(3, 9),
            rack_tiles=0,
            rules=rules,
            joker_rate=rng.choice((0.3, 0.5)),
        )
        if any(m.jokers for m in base.table):
            break
    pool = full_set(rules) - base.table_counts()
    rack: list[Tile] = []

    def take(tile: Tile) -> None:
        if pool[tile] > 0:
            pool[tile] -= 1
            rack.append(tile)

    for meld in base.table:  # the tile a table joker stands for, to free it
        if meld.jokers and rng.random() < 0.75:
            take(rng.choice(rng.choice(joker_meanings(meld, base))))
    for _ in range(rng.choice((0, 1, 1, 2))):  # two tiles that make a meld with a joker
        colour, number = rng.randrange(rules.colours), rng.randint(1, rules.numbers)
        other = number + rng.choice((-2, -1, 1, 2))
        if rng.random() < 0.5 and 1 <= other <= rules.numbers:
            pair = Tile(Colour(colour), other)
        else:
            pair = Tile(Colour((colour + rng.randrange(1, rules.colours)) % rules.colours), number)
        take(Tile(Colour(colour), number))
        take(pair)
    if partners:
        _take_partners(base, rng, take)
    for _ in range(rng.randint(0, 3)):  # tiles that extend the table's melds
        take(rng.choice([t for t in pool.elements() if not t.is_joker]))
    if rng.random() < 0.2:
        take(JOKER)
    position = Position(base.table, tuple(rack), False, rules)
    position.validate()
    return position


def _take_partners(base: Position, rng: random.Random, take: Callable[[Tile], None]) -> None:
    """Two tiles that make a meld with what a table joker stands for, for some jokers."""
    rules = base.rules
    for meld in base.table:
        if meld.jokers and rng.random() < 0.5:
            tile = rng.choice(rng.choice(joker_meanings(meld, base)))
            assert tile.colour is not None and tile.number is not None
            if rng.random() < 0.5:
                colours = [c for c in range(rules.colours) if c != tile.colour]
                for c in rng.sample(colours, 2):
                    take(Tile(Colour(c), tile.number))
            else:
                start = tile.number - rng.randint(0, 2)
                for n in range(max(1, start), min(rules.numbers, start + 2) + 1):
                    if n != tile.number:
                        take(Tile(tile.colour, n))
