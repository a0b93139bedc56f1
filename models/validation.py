"""The independent move validator: checks a proposed new table against the position.

It knows nothing of the solver: it re-derives legality from the rules alone.

Table jokers (``RuleSet.joker_rule``)
=====================================
Under the ``strict`` and ``locked`` rules (:class:`~rummikub.models.jokers.JokerRule`) the
validator also checks what became of every joker of the old table. A joker of the new table
with a declared meaning (``j=r4``) claims to be a table joker that stayed, standing for that
tile; a joker without one may be a staying table joker (standing for what its new meld lets
it stand for), a freed table joker or a joker from the rack. The move is accepted when some
assignment exists in which

* every old table meld's jokers are read with one legal meaning of that meld (respecting its
  declared meanings; ``j r2 r3`` may be r1 or r4, ``k5 b5 j`` either missing colour), and
  each of its jokers either *stays* or is *freed*;
* the staying jokers match the staying jokers of the new table tile for tile (as many
  standing for r4 before as after), and each *stays with its set*: it lies in a new meld
  that holds a real tile of its old meld (its set may grow, be split or joined; the joker
  goes along with part of it, never alone nor into a set of other tiles). A real tile
  serves one new meld: two jokers of one old meld that end in two new melds need a tile
  of that meld each;
* every freed joker is replaced by a placed rack tile of the tile it stood for (one placed
  tile per freed joker);
* under ``strict`` every freed joker sits in a meld of the new table (a joker not claimed
  as staying) that holds at least two non-joker placed tiles besides the replacement tiles;
  a meld's placed tiles count for that meld only, and a meld with two such jokers may host
  two freed jokers. Under ``locked`` a freed joker may go anywhere.

The search is a brute force over these choices (a game has few jokers). Under ``free``
(the default) table jokers move like any tile and nothing more is checked.

Under every rule a move that places no tile leaves the table as it was: a player who
places nothing draws and may not rearrange.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import combinations, permutations, product

from rummikub.models.errors import RummikubError
from rummikub.models.jokers import JokerRule
from rummikub.models.meld import Meld, Reading, readings, why_illegal
from rummikub.models.notation import format_tiles
from rummikub.models.position import Position
from rummikub.models.rules import RuleSet
from rummikub.models.tile import Tile, sorted_tiles


class IllegalMoveError(RummikubError):
    """A move that breaks the rules: illegal melds, lost table tiles, tiles from nowhere."""


def move_problems(
    position: Position,
    new_table: Sequence[Meld],
    placed: Iterable[Tile],
    *,
    written_order: bool = True,
    with_their_sets: bool = True,
) -> list[str]:
    """Every way the move breaks the position's rules (empty when it is legal).

    Under the ``strict`` and ``locked`` joker rules (``position.rules.joker_rule``) this
    includes the check of the table jokers described in the module docstring; a run's
    jokers stand where it is written (:meth:`Meld.readings_as_laid`) unless
    ``written_order`` is off (any reading, as moves recorded before that rule were read),
    and a joker that is not replaced stays with its set unless ``with_their_sets`` is off
    (anywhere, as moves recorded before that rule were read).
    """
    rules = position.rules
    placed_counts = Counter(placed)
    problems = _illegal_melds(new_table, rules) + _tile_count_problems(
        position, new_table, placed_counts
    )
    if position.initial and placed_counts and rules.continue_after_initial:
        problems += _continued_opening_problems(position, new_table, placed_counts, written_order)
    elif position.initial and placed_counts:
        problems += _opening_problems(position, new_table, written_order)
    if not problems and not placed_counts and _rearranged(position.table, new_table, rules):
        problems.append(
            "nothing is placed, so the table must stay as it was: a player who places no tile "
            "draws and may not rearrange the table"
        )
    legal = all(meld.is_legal(rules) for meld in new_table)
    if rules.joker_rule is not JokerRule.FREE and legal:  # needs the new melds' readings
        problems += table_joker_problems(
            position, new_table, placed_counts, written_order, with_their_sets=with_their_sets
        )
    return problems


def _illegal_melds(new_table: Sequence[Meld], rules: RuleSet) -> list[str]:
    """The new melds that are not legal sets, each with why."""
    problems = []
    for i, meld in enumerate(new_table, 1):
        if not meld.is_legal(rules):
            reason = (
                "no reading lets its jokers stand for the declared tiles"
                if meld.declared and readings(meld.tiles, rules)
                else why_illegal(meld.tiles, rules)
            )
            problems.append(f"new meld {i} '{meld}' is not a legal set: {reason}")
    return problems


def _tile_count_problems(
    position: Position, new_table: Sequence[Meld], placed: Counter[Tile]
) -> list[str]:
    """Placed tiles the rack does not hold; table tiles that vanished or appeared."""
    problems = []
    rack = position.rack_counts()
    for tile, count in placed.items():
        if count > rack[tile]:
            problems.append(f"placed {count}x {tile} but the rack holds {rack[tile]}")
    after = Counter(t for meld in new_table for t in meld.tiles)
    expected = position.table_counts() + placed
    if after == expected:  # the usual case, without sorting every tile
        return problems
    for tile in sorted(set(expected) | set(after), key=Tile.sort_key):
        if after[tile] < expected[tile]:
            problems.append(f"{expected[tile] - after[tile]}x {tile} vanished from the table")
        elif after[tile] > expected[tile]:
            problems.append(f"{after[tile] - expected[tile]}x {tile} appeared from nowhere")
    return problems


def _continued_opening_problems(
    position: Position, new_table: Sequence[Meld], placed: Counter[Tile], written_order: bool
) -> list[str]:
    """An opening turn that went on to the table: the placed tiles must hold sets worth
    the threshold, not counting the tiles that free table jokers later in the turn."""
    # The opening meld (rack tiles only) came first; the turn then went on as usual, so the
    # placed tiles must hold sets worth the threshold, which may since have moved. At least
    # one set, whatever the threshold (a set is worth at least 3, so 1 says it), and not of
    # the tiles that free table jokers later in the turn (those must still be on the rack
    # then): some account of the table jokers must leave an opening.
    rules = position.rules
    need = max(rules.initial_threshold, 1)
    opening_tiles = Counter(placed)
    if rules.joker_rule is not JokerRule.FREE and all(m.is_legal(rules) for m in new_table):
        allows = opening_allows(position, placed)
        witness = table_joker_witness(
            position, new_table, placed, allows=allows, written_order=written_order
        )
        witness = witness or table_joker_witness(
            position, new_table, placed, written_order=written_order
        )
        if witness is not None:
            opening_tiles -= Counter(t for _, freed in witness.old.values() for t in freed)
    value = opening_value(list(opening_tiles.elements()), rules, need)
    if value >= need:
        return []
    problem = (
        f"the placed tiles hold no opening meld worth {rules.initial_threshold} (best {value})"
        if value
        else "the placed tiles hold no opening meld (no set of rack tiles alone)"
    )
    if opening_tiles != placed:
        problem += ", not counting the tiles that free table jokers"
    return [problem]


def _opening_problems(
    position: Position, new_table: Sequence[Meld], written_order: bool
) -> list[str]:
    """An opening turn: the table untouched, new melds worth the threshold (under the
    strict and locked rules a run's jokers worth the tiles whose places they take)."""
    rules = position.rules
    problems = []
    old = Counter(_laid_key(m, rules) for m in position.table)
    new = Counter(_laid_key(m, rules) for m in new_table)
    if old - new:  # a meld gone, or its jokers laid to stand for other tiles
        problems.append("the initial meld may not touch the table")
    as_laid = written_order and rules.joker_rule is not JokerRule.FREE
    laid = {_laid_key(m, rules): m for m in new_table}
    opening = [(laid[key], k) for key, k in (new - old).items()]
    value = _opening_worth(opening, rules, as_laid)
    if value < rules.initial_threshold:
        worth = f"initial meld worth {value}"
        if as_laid and _opening_worth(opening, rules, False) >= rules.initial_threshold:
            worth += " as laid (a run's joker is worth the tile whose place it takes)"
        problems.append(f"{worth}; the rules ask for at least {rules.initial_threshold}")
    return problems


def _opening_worth(melds: list[tuple[Meld, int]], rules: RuleSet, as_laid: bool) -> int:
    """The value of new melds (each with its count), each at its best reading: as it lies
    (the strict and locked rules fix what a joker stands for where it lies), or any."""
    return sum(
        max((r.value for r in _opening_readings(meld, rules, as_laid)), default=0) * k
        for meld, k in melds
    )


def _opening_readings(meld: Meld, rules: RuleSet, as_laid: bool) -> list[Reading]:
    """A new meld's readings as it lies, or any reading of its tiles."""
    return meld.readings_as_laid(rules) if as_laid else readings(meld.tiles, rules)


def _laid_key(meld: Meld, rules: RuleSet) -> tuple[Tiles, tuple[Tiles, ...]]:
    """A meld as a multiset of tiles with what its jokers stand for as laid: two melds with
    the same key are the same meld on the table."""
    tiles = tuple(sorted(meld.tiles, key=Tile.sort_key))
    return tiles, tuple(joker_meanings(meld, rules, as_laid=True)) if meld.jokers else ()


def _rearranged(old: Sequence[Meld], new: Sequence[Meld], rules: RuleSet) -> bool:
    """Whether the new table is another arrangement than the old one (melds compared as
    multisets of tiles, their jokers by what they stand for as laid)."""
    return Counter(_laid_key(m, rules) for m in old) != Counter(_laid_key(m, rules) for m in new)


def opening_value(tiles: Sequence[Tile], rules: RuleSet, enough: int | None = None) -> int:
    """The most value of disjoint legal sets made from these tiles (some may be left over),
    each set at its best reading; the search stops once ``enough`` is reached."""
    goal = enough if enough is not None else sum(rules.numbers for _ in tiles) + 1
    memo: dict[tuple[Tile, ...], int] = {}

    def best(rest: tuple[Tile, ...]) -> int:
        if not rest or rest in memo:
            return memo.get(rest, 0)
        first, others = rest[0], rest[1:]
        found = best(others)  # the smallest tile stays out of the opening
        near = [
            i
            for i, u in enumerate(others)
            if u.is_joker or first.is_joker or u.colour == first.colour or u.number == first.number
        ]
        tried: set[tuple[Tile, ...]] = set()
        longest = max(rules.colours, rules.numbers) - 1  # tiles besides the first
        for size in range(rules.min_len - 1, min(len(near), longest) + 1):
            for chosen in combinations(near, size):
                meld = (first, *(others[i] for i in chosen))
                if meld in tried:
                    continue
                tried.add(meld)
                values = [r.value for r in readings(meld, rules)]
                if values:
                    left = tuple(u for i, u in enumerate(others) if i not in chosen)
                    found = max(found, max(values) + best(left))
                if found >= goal:
                    memo[rest] = found
                    return found
        memo[rest] = found
        return found

    return best(tuple(sorted(tiles, key=Tile.sort_key)))


def check_move(position: Position, new_table: Sequence[Meld], placed: Iterable[Tile]) -> None:
    """Raise :class:`IllegalMoveError` listing what is wrong with the move under the
    position's rules, if anything."""
    problems = move_problems(position, new_table, placed)
    if problems:
        raise IllegalMoveError("; ".join(problems))


# --- table jokers under the strict and locked rules ------------------------------------------

Tiles = tuple[Tile, ...]  # a multiset of tiles as a sorted tuple


def joker_meanings(meld: Meld, rules: RuleSet, as_laid: bool = False) -> list[Tiles]:
    """Every joint meaning of a meld's jokers (sorted tuples), respecting declared meanings;
    ``as_laid``: and the order its tiles lie in (an old table meld's jokers stand for the
    tiles whose places they take, :meth:`Meld.readings_as_laid`)."""
    stated = Counter(d for d in meld.declared if d is not None)
    found: set[Tiles] = set()
    for reading in meld.readings_as_laid(rules) if as_laid else meld.readings(rules):
        for option in reading.joker_options(rules):
            if not stated - Counter(option):
                found.add(tuple(sorted(option)))
    return sorted(found)


def _sub_multisets(tiles: Tiles) -> Iterator[Tiles]:
    """Every sub-multiset of a sorted tuple, once each."""
    seen: set[Tiles] = set()
    for size in range(len(tiles) + 1):
        for chosen in combinations(tiles, size):
            if chosen not in seen:
                seen.add(chosen)
                yield chosen


def _minus(tiles: Tiles, part: Tiles) -> Tiles:
    return tuple(sorted((Counter(tiles) - Counter(part)).elements()))


def _old_choices(meld: Meld, rules: RuleSet, as_laid: bool = True) -> list[tuple[Tiles, Tiles]]:
    """(staying, freed) for one old table meld: a meaning, and which of its jokers are freed."""
    found: set[tuple[Tiles, Tiles]] = set()
    for meaning in joker_meanings(meld, rules, as_laid):
        for freed in _sub_multisets(meaning):
            found.add((_minus(meaning, freed), freed))
    return sorted(found)


def _new_choices(meld: Meld, rules: RuleSet, as_laid: bool = True) -> list[tuple[Tiles, int]]:
    """(staying, other jokers) for one new meld: declared jokers stay, the others may; its
    jokers stand where it is written (a table read as it lies, as its next turn reads it)."""
    declared = tuple(sorted(d for d in meld.declared if d is not None))
    found: set[tuple[Tiles, int]] = set()
    for meaning in joker_meanings(meld, rules, as_laid):
        for extra in _sub_multisets(_minus(meaning, declared)):
            staying = tuple(sorted(declared + extra))
            found.add((staying, meld.jokers - len(staying)))
    return sorted(found)


Hosting = dict[int, tuple[int, tuple[Tile, Tile]]]  # new meld -> (freed jokers, rack tiles)


def _host_options(
    candidates: list[tuple[int, int, set[Tile]]], budget: Counter[Tile], need: int
) -> Iterator[Hosting]:
    """Every way melds (new meld, free joker slots, non-joker tiles) can host ``need``
    freed jokers, each host counting two of its tiles as placed ones, within ``budget``
    placed tiles per type: new meld -> (freed jokers it takes, its two rack tiles)."""
    if need <= 0:
        yield {}
        return
    if not candidates:
        return
    (meld, slots, tiles), rest = candidates[0], candidates[1:]
    usable = sorted(t for t in tiles if budget[t] > 0)
    for a, b in combinations(usable, 2):
        budget[a] -= 1
        budget[b] -= 1
        for found in _host_options(rest, budget, need - slots):
            yield {meld: (min(slots, need), (a, b)), **found}
        budget[a] += 1
        budget[b] += 1
    yield from _host_options(rest, budget, need)


def _pairings(
    old_jokers: list[tuple[int, Tile]], slots: list[tuple[int, Tile]]
) -> Iterator[frozenset[tuple[int, int]]]:
    """Each way to match staying jokers (old meld, tile) to new slots (new meld, tile)
    standing for the same tile, as the set of (new meld, old meld) pairs it makes."""
    tiles = sorted({t for _, t in old_jokers}, key=Tile.sort_key)
    per_tile = []
    for tile in tiles:
        olds = [m for m, t in old_jokers if t == tile]
        news = [n for n, t in slots if t == tile]
        per_tile.append({frozenset(zip(order, olds, strict=True)) for order in permutations(news)})
    seen: set[frozenset[tuple[int, int]]] = set()
    for choice in product(*per_tile):
        pairs = frozenset().union(*choice)
        if pairs not in seen:
            seen.add(pairs)
            yield pairs


def _tiles_beside(
    pairs: Sequence[tuple[int, int]], old: Sequence[Meld], new: Sequence[Meld], rack: Hosting
) -> bool:
    """Whether each (new meld, old meld) pair can have a real tile of the old meld in the
    new meld, no tile serving twice, hosts' rack tiles not counted as table tiles."""
    if not pairs:
        return True
    left_old = {m: Counter(t for t in old[m].tiles if not t.is_joker) for _, m in pairs}
    left_new = {n: Counter(t for t in new[n].tiles if not t.is_joker) for n, _ in pairs}
    for n, (_, tiles) in rack.items():
        if n in left_new:
            left_new[n] -= Counter(tiles)

    def fit(i: int) -> bool:
        if i == len(pairs):
            return True
        n, m = pairs[i]
        for tile in [t for t in left_old[m] if left_old[m][t] and left_new[n][t]]:
            left_old[m][tile] -= 1
            left_new[n][tile] -= 1
            if fit(i + 1):
                return True
            left_old[m][tile] += 1
            left_new[n][tile] += 1
        return False

    return fit(0)


def _with_their_sets(
    position: Position,
    new_table: Sequence[Meld],
    old_jokers: list[tuple[int, Tile]],
    slots: list[tuple[int, Tile]],
    rack: Hosting,
) -> bool:
    """Whether the staying jokers can each lie beside a real tile of their old meld."""
    return any(
        _tiles_beside(sorted(pairs), position.table, new_table, rack)
        for pairs in _pairings(old_jokers, slots)
    )


@dataclass(frozen=True)
class JokerWitness:
    """One way a move treats the table jokers that the rule allows (see the module
    docstring): per old table meld with jokers, the meanings of its jokers that stay and of
    those freed; per new meld with jokers, the meanings of its staying jokers; under
    ``strict``, the new melds that host the freed jokers and how many each."""

    old: dict[int, tuple[Tiles, Tiles]]
    new: dict[int, Tiles]
    hosts: dict[int, int] | None  # None under locked: a freed joker may go to any free slot


def opening_allows(
    position: Position, placed: Counter[Tile]
) -> Callable[[Counter[Tile]], bool] | None:
    """For an opening turn that goes on to the table: whether the placed tiles other than
    those that free table jokers (``freed``) still hold the opening meld. None otherwise."""
    rules = position.rules
    if not (position.initial and rules.continue_after_initial and placed):
        return None  # nothing placed: no opening to keep
    need = max(rules.initial_threshold, 1)

    def allows(freed: Counter[Tile]) -> bool:
        return opening_value(list((placed - freed).elements()), rules, need) >= need

    return allows


def table_joker_witness(
    position: Position,
    new_table: Sequence[Meld],
    placed: Counter[Tile],
    hosts_first: Sequence[int] = (),
    allows: Callable[[Counter[Tile]], bool] | None = None,
    written_order: bool = True,
    *,
    with_their_sets: bool = True,
) -> JokerWitness | None:
    """An assignment of stayed and freed table jokers that fits the joker rule, with as few
    freed jokers as any (None under ``free``, without table jokers, or when none fits), the
    new melds ``hosts_first`` tried first as hosts; with ``allows``, only one whose freed
    jokers' tiles it accepts. The new melds must be legal. ``with_their_sets`` off: staying
    jokers may lie anywhere (to tell that rule's faults from others)."""
    rules = position.rules
    rule = rules.joker_rule
    old = [(i, meld) for i, meld in enumerate(position.table) if meld.jokers]
    if rule is JokerRule.FREE or not old:
        return None
    new = [(j, meld) for j, meld in enumerate(new_table) if meld.jokers]
    new_options = [_new_choices(meld, rules, written_order) for _, meld in new]
    by_staying: dict[Tiles, list[tuple[tuple[Tiles, int], ...]]] = {}
    for reading in product(*new_options):
        staying = tuple(sorted(t for s, _ in reading for t in s))
        by_staying.setdefault(staying, []).append(reading)
    combos = sorted(
        product(*(_old_choices(meld, rules, written_order) for _, meld in old)),
        key=lambda combo: sum(len(f) for _, f in combo),
    )
    for combo in combos:
        staying = tuple(sorted(t for s, _ in combo for t in s))
        freed = Counter(t for _, f in combo for t in f)
        if freed - placed or staying not in by_staying or (allows and not allows(freed)):
            continue
        old_jokers = [(i, t) for (i, _), (s, _) in zip(old, combo, strict=True) for t in s]
        for reading in by_staying[staying]:
            if sum(k for _, k in reading) < freed.total():
                continue
            slots = [(j, t) for (j, _), (s, _) in zip(new, reading, strict=True) for t in s]
            for hosting in _hostings(rule, new, reading, placed - freed, freed, hosts_first):
                rack = hosting or {}
                if with_their_sets and not _with_their_sets(
                    position, new_table, old_jokers, slots, rack
                ):
                    continue
                return JokerWitness(
                    {i: choice for (i, _), choice in zip(old, combo, strict=True)},
                    {j: s for (j, _), (s, _) in zip(new, reading, strict=True)},
                    None if hosting is None else {n: k for n, (k, _) in hosting.items()},
                )
    return None


def _hostings(
    rule: JokerRule,
    new: list[tuple[int, Meld]],
    reading: tuple[tuple[Tiles, int], ...],
    budget: Counter[Tile],
    freed: Counter[Tile],
    hosts_first: Sequence[int],
) -> Iterator[Hosting | None]:
    """Under ``strict`` every way the new melds' free joker slots host the freed jokers;
    under ``locked`` one None (a freed joker may go to any free slot)."""
    if rule is not JokerRule.STRICT:
        yield None
        return
    candidates = sorted(
        (
            (new[n][0], k, {t for t in new[n][1].tiles if not t.is_joker})
            for n, (_, k) in enumerate(reading)
            if k
        ),
        key=lambda c: c[0] not in hosts_first,
    )
    yield from _host_options(candidates, Counter(budget), freed.total())


def _tiles_text(tiles: Iterable[Tile]) -> str:
    return format_tiles(sorted_tiles(tiles)) or "nothing"


def table_joker_problems(
    position: Position,
    new_table: Sequence[Meld],
    placed: Counter[Tile],
    written_order: bool = True,
    *,
    with_their_sets: bool = True,
) -> list[str]:
    """How the new table breaks the position's table-joker rule (empty when some assignment
    of stayed and freed jokers fits it; see the module docstring). The new melds must be
    legal."""
    rules = position.rules
    rule = rules.joker_rule
    old = [(m, meld) for m, meld in enumerate(position.table, 1) if meld.jokers]
    if rule is JokerRule.FREE or not old:
        return []
    witness = table_joker_witness(
        position, new_table, placed, written_order=written_order, with_their_sets=with_their_sets
    )
    if witness is not None:
        return []
    anywhere = table_joker_witness(
        position, new_table, placed, written_order=written_order, with_their_sets=False
    )
    if anywhere is not None:
        return [_left_its_set(position, new_table, anywhere)]
    if rule is JokerRule.STRICT:
        locked = replace(position, rules=replace(rules, joker_rule=JokerRule.LOCKED))
        if table_joker_witness(locked, new_table, placed, written_order=written_order) is not None:
            return [
                "strict joker rule: a freed table joker must go into a meld with at least two "
                "tiles from the rack (besides the tile that replaced it), and no meld of the "
                "new table holds it so"
            ]
    old_options = [_old_choices(meld, rules, written_order) for _, meld in old]
    new = [(i, meld) for i, meld in enumerate(new_table) if meld.jokers]
    new_options = [_new_choices(meld, rules, written_order) for _, meld in new]
    return _diagnose(position, old, old_options, new, new_options, placed, rule)


def _left_its_set(position: Position, new_table: Sequence[Meld], witness: JokerWitness) -> str:
    """Name a staying joker that does not stay with its set (``witness``: an account of the
    jokers that lets them lie anywhere)."""
    rule = position.rules.joker_rule
    for i, (stay, _) in sorted(witness.old.items()):
        meld = position.table[i]
        real = {t for t in meld.tiles if not t.is_joker}
        for tile in stay:
            if not any(
                tile in s and real.intersection(new_table[j].tiles) for j, s in witness.new.items()
            ):
                return (
                    f"{rule} joker rule: the joker standing for {tile} in table meld {i + 1} "
                    f"'{meld}' is not replaced, so it stays with its set: it must end in a "
                    f"meld with {' or '.join(map(str, sorted_tiles(real)))}, and no meld of the "
                    "new table holds it so"
                )
    listed = "; ".join(
        f"table meld {i + 1} '{position.table[i]}'"
        for i, (s, _) in sorted(witness.old.items())
        if s
    )
    return (
        f"{rule} joker rule: a table joker that is not replaced stays with its set (in a meld "
        f"with a real tile of its old meld, a tile beside one joker only), and the jokers of "
        f"{listed} cannot all do so"
    )


def _stands_for(meld: Meld, rules: RuleSet) -> str:
    """``r1 or r4``: what the jokers of a table meld may stand for."""
    return " or ".join(" ".join(map(str, m)) for m in joker_meanings(meld, rules, as_laid=True))


def _diagnose(
    position: Position,
    old: list[tuple[int, Meld]],
    old_options: list[list[tuple[Tiles, Tiles]]],
    new: list[tuple[int, Meld]],
    new_options: list[list[tuple[Tiles, int]]],
    placed: Counter[Tile],
    rule: JokerRule,
) -> list[str]:
    """Name what went wrong with the table jokers, as precisely as cheaply possible."""
    rules = position.rules
    problems: list[str] = []
    can_stand = {t for options in old_options for s, f in options for t in s + f}
    declared = 0
    for i, meld in new:
        for d in meld.declared:
            if d is None:
                continue
            declared += 1
            if d not in can_stand:
                problems.append(
                    f"{rule} joker rule: new meld {i + 1} '{meld}' has a joker j={d} that "
                    f"claims to be a table joker standing for {d}, but no table joker can "
                    f"stand for {d}"
                )
    before = sum(meld.jokers for _, meld in old)
    if declared > before:
        problems.append(
            f"{rule} joker rule: {declared} jokers of the new table claim (by a declared "
            f"meaning) to be table jokers, but the table held {before}"
        )
    if problems:
        return problems
    # A table meld whose jokers can neither stay (new jokers may stand for the same tiles)
    # nor be replaced by placed tiles, even if the other table jokers are left out.
    staying = [Counter(t for s, _ in combo for t in s) for combo in product(*new_options)]
    for (m, meld), options in zip(old, old_options, strict=True):
        if not any(
            not Counter(freed) - placed and any(not Counter(stay) - s for s in staying)
            for stay, freed in options
        ):
            jokers = "a joker" if meld.jokers == 1 else f"{meld.jokers} jokers"
            problems.append(
                f"{rule} joker rule: table meld {m} '{meld}' has {jokers} standing for "
                f"{_stands_for(meld, rules)}; each must stay on the table standing for its "
                "tile or be replaced by that tile from the rack, and this move does neither"
            )
    if problems:
        return problems
    listed = "; ".join(
        f"table meld {m} '{meld}' stands for {_stands_for(meld, rules)}" for m, meld in old
    )
    return [
        f"{rule} joker rule: the table jokers cannot all stay standing for their tiles or "
        f"be replaced by them from the rack (placed: {_tiles_text(placed.elements())}): "
        f"{listed}"
    ]
