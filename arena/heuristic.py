"""A human-like player without the solver: play the obvious sets, then extend table melds.

Sets from the rack are found greedily (long runs and groups, in whichever order places
more tiles; then jokers complete pairs). Before opening it plays those sets if they are
worth the threshold; after opening it also lays single rack tiles onto table melds (the
end of a run, the fourth tile of a group) as long as one fits. It never rearranges the
table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from rummikub.models.jokers import JokerRule
from rummikub.models.meld import Meld, readings
from rummikub.models.rules import RuleSet
from rummikub.models.tile import JOKER, Colour, Tile
from rummikub.models.validation import joker_meanings


def _runs(counts: Counter[Tile], rules: RuleSet) -> list[Meld]:
    """Take the longest runs of distinct consecutive numbers out of ``counts``."""
    found: list[Meld] = []
    for c in range(rules.colours):
        colour = Colour(c)
        while True:
            best: list[Tile] = []
            current: list[Tile] = []
            for n in range(1, rules.numbers + 2):
                tile = Tile(colour, n) if n <= rules.numbers else None
                if tile is not None and counts[tile] > 0:
                    current.append(tile)
                    continue
                if len(current) > len(best):
                    best = current
                current = []
            if len(best) < rules.min_len:
                break
            counts.subtract(best)
            found.append(Meld(tuple(best)))
    return found


def _groups(counts: Counter[Tile], rules: RuleSet) -> list[Meld]:
    """Take groups (one tile per colour of a number) out of ``counts``."""
    found: list[Meld] = []
    for n in range(1, rules.numbers + 1):
        while True:
            tiles = [Tile(Colour(c), n) for c in range(rules.colours)]
            present = [t for t in tiles if counts[t] > 0]
            if len(present) < rules.min_len:
                break
            counts.subtract(present)
            found.append(Meld(tuple(present)))
    return found


def _with_jokers(counts: Counter[Tile], jokers: int, rules: RuleSet) -> list[Meld]:
    """Complete pairs (near neighbours of a colour, or two colours of a number) with jokers."""
    found: list[Meld] = []
    need = rules.min_len - 2
    if need < 1 or need > rules.max_jokers_per_set:
        return found
    for tile in sorted(+counts, key=lambda t: -t.value):  # high tiles first: more value
        while jokers >= need and counts[tile] > 0:
            partner = None
            for other in sorted(+counts, key=lambda t: -t.value):
                if other == tile or counts[other] <= 0:
                    continue
                candidate = (tile, other) + (JOKER,) * need
                if readings(candidate, rules):
                    partner = other
                    break
            if partner is None:
                break
            counts[tile] -= 1
            counts[partner] -= 1
            jokers -= need
            found.append(Meld((tile, partner) + (JOKER,) * need))
    return found


def rack_sets(rack: Sequence[Tile], rules: RuleSet, use_jokers: bool = True) -> list[Meld]:
    """Disjoint legal sets made of rack tiles, found greedily (not necessarily the most)."""
    best: list[Meld] = []
    best_key = (-1, -1)
    for order in ("runs", "groups"):
        counts = Counter(t for t in rack if not t.is_joker)
        jokers = len(rack) - sum(counts.values())
        if order == "runs":
            melds = _runs(counts, rules) + _groups(counts, rules)
        else:
            melds = _groups(counts, rules) + _runs(counts, rules)
        if use_jokers:
            melds += _with_jokers(counts, jokers, rules)
        key = (sum(len(m) for m in melds), sum(meld_value(m, rules) for m in melds))
        if key > best_key:
            best, best_key = melds, key
    return best


def meld_value(meld: Meld, rules: RuleSet) -> int:
    """The meld's value for the opening threshold (jokers count as what they stand for)."""
    return max((r.value for r in meld.readings(rules)), default=0)


Legal = Callable[[Sequence[Meld], Sequence[Tile]], bool]
"""Whether a table and the tiles laid onto it so far make a legal move."""
Grow = Callable[[list[Meld], int, Tile, list[Tile]], "Meld | None"]


def extend_table(
    table: Sequence[Meld], rack: Sequence[Tile], rules: RuleSet, legal: Legal | None = None
) -> tuple[list[Meld], list[Tile]]:
    """Lay single real rack tiles onto table melds while any fits; the new table and the tiles
    laid. Under the strict and locked joker rules a meld holding a joker is grown as under
    the free rule where ``legal`` accepts the whole move that makes, else one tile at a time
    where it accepts each step (without ``legal``: only where the melds' jokers keep standing
    for the tiles they stand for as they lie)."""

    def laid_on(melds: list[Meld], i: int, tile: Tile, laid: list[Tile]) -> Meld | None:
        return _laid_on(melds[i], tile, rules)

    def checked(melds: list[Meld], i: int, tile: Tile, laid: list[Tile]) -> Meld | None:
        return _kept_legal(melds, i, tile, laid, rules, legal)

    if rules.joker_rule is JokerRule.FREE or not any(m.jokers for m in table):
        return _extend(table, rack, laid_on)
    if legal is not None:
        # A freed joker may need the tiles laid after the one that freed it (two rack
        # tiles beside it, under strict): the whole move first, then step by step.
        loose = _extend(table, rack, laid_on)
        if legal(*loose):
            return loose
    return _extend(table, rack, checked)


def _extend(
    table: Sequence[Meld], rack: Sequence[Tile], grow: Grow
) -> tuple[list[Meld], list[Tile]]:
    """Lay single real rack tiles onto the melds, each where ``grow`` lays it, until none fits."""
    melds = list(table)
    left = sorted((t for t in rack if not t.is_joker), key=Tile.sort_key)
    laid: list[Tile] = []
    changed = True
    while changed:
        changed = False
        for tile in list(left):
            for i in range(len(melds)):
                grown = grow(melds, i, tile, laid)
                if grown is not None:
                    melds[i] = grown
                    left.remove(tile)
                    laid.append(tile)
                    changed = True
                    break
    return melds, laid


def _laid_on(meld: Meld, tile: Tile, rules: RuleSet) -> Meld | None:
    """``meld`` with ``tile`` laid on, or None where it does not fit: laid out in order, or
    with a joker as it lay with the tile at the end (its jokers read any way they may)."""
    found = readings((*meld.tiles, tile), rules)
    if not found:
        return None
    return Meld((*meld.tiles, tile)) if meld.jokers else Meld(found[0].laid_out())


def _kept_legal(
    melds: list[Meld], i: int, tile: Tile, laid: list[Tile], rules: RuleSet, legal: Legal | None
) -> Meld | None:
    """Meld ``i`` with ``tile`` laid on where the joker rule allows it, or None."""
    meld = melds[i]
    if not meld.jokers:
        return _laid_on(meld, tile, rules)
    before = set(joker_meanings(meld, rules, as_laid=True))
    layouts = [Meld(r.laid_out()) for r in readings((*meld.tiles, tile), rules)]
    keeping = [m for m in layouts if before & set(joker_meanings(m, rules, as_laid=True))]
    if legal is None:
        return keeping[0] if keeping else None
    # Layouts that keep a joker's meaning first: the others are legal only where the move
    # frees the joker (its tile laid in its place) or the meld is new this turn.
    for grown in keeping + [m for m in layouts if m not in keeping]:
        if legal([*melds[:i], grown, *melds[i + 1 :]], [*laid, tile]):
            return grown
    return None
