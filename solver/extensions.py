"""Ways an existing table meld can survive a move: kept as it is, or extended by added tiles.

A table meld is *kept* when a meld of the new table holds all of its tiles; each new meld
keeps at most one old meld. Such a meld is a run or group containing it. For a meld without
jokers, extending a run by ``min_len`` or more tiles on one side is never needed: that part
is a legal run of its own, so the same move exists with the meld kept and a separate run
beside it. That bounds the candidates to a short list per meld. A meld with jokers may
survive in any longer run that holds its real tiles and as many jokers (its jokers may
stand for other tiles there), so all such runs are candidates, except those reaching
``min_len`` or more tiles beyond the real tiles and jokers on one side (again a run of
its own, and the rest still holds the meld).

Under the wrap-around rule the same holds with runs read round the top (11 12 13 1 2):
a run is a stretch of consecutive *places* whose numbers go on from the top to 1, an
overhang is a stretch of places as well, and a legal run on its own. Every run (of
``min_len``..``numbers`` tiles) that holds the meld's real tiles is considered, from
every first number, so a table run that wraps and extensions that cross 13 -> 1 are both
covered; runs that hold the same tiles are found once. (A run of all ``numbers`` tiles can
be read from any first number; for a meld without jokers only readings that keep the
meld's tiles side by side are needed, the others hold the same tiles.)

In the model's wildcard form a joker is a stand-in for a tile of a joker-free layout, so
there the survivals hold no jokers beyond the meld's own, and a meld with two or more
jokers gets joker-free layouts whose joker places the solver chooses (``open_jokers``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations, product

from rummikub.models.errors import InternalError
from rummikub.models.meld import Meld, MeldKind
from rummikub.models.rules import RuleSet
from rummikub.models.tile import Colour, Tile


@dataclass(frozen=True, slots=True)
class Survival:
    """A legal meld that contains a table meld: its layout, kind and tile counts by type index.

    With ``open_jokers`` the layout leaves out the meld's jokers: it is the meld once that
    many of its added tiles are jokers (a superset of the layouts the pruning above needs).
    """

    tiles: tuple[Tile, ...]
    kind: MeldKind
    counts: tuple[tuple[int, int], ...]
    added: int  # tiles beyond the original meld
    # Wildcard form: the meld's jokers are not in the layout; this many of the layout's
    # tiles that are not the meld's own are jokers standing in (the solver says which).
    open_jokers: int = 0
    needs: int = 0  # a bit per (non-joker) tile type of the layout
    jokers: int = 0  # jokers in the layout
    dropped: int = 0  # tiles of the original meld it does not hold (see :func:`parts`)

    @property
    def as_it_stands(self) -> bool:
        """Whether the layout is the original meld's tiles, no more and no fewer."""
        return self.added == 0 and self.dropped == 0


Layout = tuple[int, ...]  # tile type indices, in order


def _runs(meld: Meld, rules: RuleSet, most_jokers: int, open_: bool) -> list[Layout]:
    real = [t for t in meld.tiles if not t.is_joker]
    jokers = len(meld.tiles) - len(real)
    colours = {t.colour for t in real}
    numbers = [t.number for t in real if t.number is not None]
    if len(colours) > 1 or len(set(numbers)) != len(numbers):
        return []
    numbers_per_colour, min_len = rules.numbers, rules.min_len
    if not most_jokers and not rules.wrap:  # the common case, directly (as below would)
        low, high = min(numbers), max(numbers)
        if high - low + 1 != len(numbers):
            return []
        (colour,) = colours
        if colour is None:
            raise InternalError("a joker among the real tiles of a meld")
        base = int(colour) * numbers_per_colour - 1  # base + n is the tile numbered n
        return [
            tuple(range(base + first, base + last + 1))
            for first in range(max(1, low - min_len + 1), low + 1)
            for last in range(high, min(numbers_per_colour, high + min_len - 1) + 1)
        ]
    joker = rules.joker_index
    mine = set(numbers)
    candidates_colours = list(colours) if real else [Colour(c) for c in range(rules.colours)]
    out: list[Layout] = []
    # A run is the stretch of places first..first+size-1; place p holds number
    # run_numbers(first, size)[p - first] (past the top back to 1 only under wrap-around).
    for colour, size in product(candidates_colours, range(len(meld.tiles), rules.numbers + 1)):
        if colour is None:
            raise InternalError("a joker among the real tiles of a meld")
        if size < min_len:
            continue
        base = int(colour) * numbers_per_colour - 1
        for first in rules.run_starts(size):
            run = rules.run_numbers(first, size)
            if not mine.issubset(run):
                continue
            places = [first + i for i, n in enumerate(run) if n in mine]
            low, high = (places[0], places[-1]) if places else (first + size, first - 1)
            last = first + size - 1
            if not jokers and (
                high - low + 1 > len(numbers)  # the whole colour, read from inside the meld
                or low - first >= min_len
                or last - high >= min_len
            ):
                continue  # an overhang of min_len or more is a run of its own (docstring)
            layout = [base + n for n in run]
            free = [first + i for i, n in enumerate(run) if n not in mine]
            if open_:  # the jokers' places are left open: one joker-free layout
                if any(
                    _needed(first, last, low, high, joker_at, min_len)
                    for joker_at in combinations(free, jokers)
                ):
                    out.append(tuple(layout))
                continue
            for k in range(jokers, min(most_jokers, len(free)) + 1):
                for joker_at in combinations(free, k):
                    if jokers and not _needed(first, last, low, high, joker_at, min_len):
                        continue
                    with_jokers = layout.copy()
                    for p in joker_at:
                        with_jokers[p - first] = joker
                    out.append(tuple(with_jokers))
    return out


def _needed(
    first: int, last: int, low: int, high: int, joker_at: tuple[int, ...], min_len: int
) -> bool:
    """Whether a run must be a candidate: beyond the real tiles and the jokers on each side
    it reaches fewer than ``min_len`` tiles (a longer overhang is a legal run of its own).
    All arguments but ``min_len`` are places in the run (see :func:`_runs`), not numbers."""
    inner_left = min(low, *joker_at) if joker_at else low
    inner_right = max(high, *joker_at) if joker_at else high
    return inner_left - first < min_len and last - inner_right < min_len


def _groups(meld: Meld, rules: RuleSet, most_jokers: int, open_: bool) -> list[Layout]:
    real = [t for t in meld.tiles if not t.is_joker]
    jokers = len(meld.tiles) - len(real)
    numbers = {t.number for t in real}
    colours = [t.colour for t in real]
    if len(numbers) > 1 or len(set(colours)) != len(colours):
        return []
    group_numbers = sorted(n for n in numbers if n is not None) or range(1, rules.numbers + 1)
    joker, shortest = rules.joker_index, max(rules.min_len, len(meld.tiles))
    own = sorted(int(c) for c in colours if c is not None)
    free = [c for c in range(rules.colours) if c not in own]
    out: list[Layout] = []
    for number in group_numbers:
        for extra in range(len(free) + 1):
            for added in combinations(free, extra):
                real_tiles = [c * rules.numbers + number - 1 for c in sorted([*own, *added])]
                if open_:  # the meld's jokers stand for some of the added colours
                    if extra >= jokers and shortest <= len(real_tiles):
                        out.append(tuple(real_tiles))
                    continue
                for k in range(jokers, most_jokers + 1):
                    if shortest <= len(real_tiles) + k <= rules.colours:
                        out.append((*real_tiles, *([joker] * k)))
    return out


@cache
def _survivals_of(
    tiles_key: tuple[Tile, ...], rules: RuleSet, wildcard: bool, most_jokers: int
) -> tuple[Survival, ...]:
    meld = Meld(tiles_key)
    # Open places pay off from two jokers on: a layout per pair of places grows fast.
    open_jokers = meld.jokers if wildcard and meld.jokers >= 2 else 0
    joker, types = rules.joker_index, rules.tile_types
    seen: set[tuple[tuple[int, int], ...]] = set()
    found = []
    for kind, layouts in (
        (MeldKind.RUN, _runs(meld, rules, most_jokers, open_jokers > 0)),
        (MeldKind.GROUP, _groups(meld, rules, most_jokers, open_jokers > 0)),
    ):
        for layout in layouts:
            # A layout's real tiles are all different: each counts once, the jokers last.
            real = sorted(i for i in layout if i != joker)
            jokers = len(layout) - len(real) if rules.jokers else 0
            counts = tuple((i, 1) for i in real) + (((joker, jokers),) if jokers else ())
            if counts in seen:
                continue
            seen.add(counts)
            added = len(layout) - len(meld.tiles)
            needs = 0
            for i in real:
                needs |= 1 << i
            tiles = tuple(types[i] for i in layout)
            found.append(Survival(tiles, kind, counts, added, open_jokers, needs, jokers))
    # The meld as it stands first, then by fewest added tiles: a stable, readable order.
    found.sort(key=lambda s: s.added)
    return tuple(found)


def survivals(
    meld: Meld, rules: RuleSet, wildcard: bool = False, jokers: int | None = None
) -> tuple[Survival, ...]:
    """Every legal meld that contains ``meld`` and that an optimal move may need (cached).

    With ``wildcard`` (the model's wildcard form, where a joker is a stand-in for a tile of
    a joker-free layout) the layouts hold no jokers: a joker added to a kept meld stands in
    for one of its added tiles, and the meld's own jokers for ``open_jokers`` of them.
    Else the layouts hold at most ``jokers`` jokers (the jokers in play; by default as many
    as the rules let a set hold).
    """
    if wildcard:
        most = meld.jokers
    else:
        most = min(rules.max_jokers_per_set, rules.jokers)
        if jokers is not None:
            most = min(most, jokers)
    return _survivals_of(tuple(sorted(meld.tiles, key=Tile.sort_key)), rules, wildcard, most)


def parts(meld: Meld, rules: RuleSet, jokers: int = 0, sharing: int = 1) -> tuple[Survival, ...]:
    """Every legal meld holding some but not all real tiles of ``meld`` (at least
    ``sharing``), or all of them without its jokers, that the new meld it becomes may need
    to be (cached); the real tiles they share stay, the meld's jokers do not.

    A run shares a stretch of the meld (or one tile of a group), a group some of a group's
    colours (or one tile of a run). The layouts hold up to ``jokers`` jokers (none in the
    light wildcard form, where jokers stand in for their tiles). Not needed, as for
    :func:`survivals`: a meld that cuts into two legal melds, each with a real tile, with
    every shared tile in one of them (that one shares as much).
    """
    real = tuple(sorted((t for t in meld.tiles if not t.is_joker), key=Tile.sort_key))
    if not real:
        return ()
    most = min(jokers, rules.max_jokers_per_set, rules.jokers)
    return _parts_of(real, rules, most, sharing, len(meld.tiles))


Part = tuple[MeldKind, tuple[int, ...], int]  # kind, tile type indices, tiles it shares


@cache
def _parts_of(
    tiles: tuple[Tile, ...], rules: RuleSet, jokers: int, sharing: int, whole: int
) -> tuple[Survival, ...]:
    """:func:`parts` of a meld of ``whole`` tiles whose real ones are ``tiles``."""
    found = []
    seen: set[tuple[int, ...]] = set()
    joker, types = rules.joker_index, rules.tile_types
    for kind, indices, shared in (
        *_part_runs(tiles, rules, jokers, sharing, whole),
        *_part_groups(tiles, rules, jokers, sharing, whole),
    ):
        key = tuple(sorted(indices))
        if key in seen:
            continue
        seen.add(key)
        held = key.count(joker) if rules.jokers else 0
        real = key[: len(key) - held]  # the joker has the highest index
        counts = tuple((i, 1) for i in real) + (((joker, held),) if held else ())
        needs = sum(1 << i for i in real)
        layout = tuple(types[i] for i in indices)
        added, dropped = len(layout) - shared, whole - shared
        found.append(Survival(layout, kind, counts, added, 0, needs, held, dropped))
    found.sort(key=lambda s: (s.dropped, s.added))
    return tuple(found)


def _cuts_off(size: int, real: list[int], shared: list[int], min_len: int) -> bool:
    """Whether a run of ``size`` places cuts into two legal runs, each with a real tile
    (at places ``real``), with the ``shared`` places all in one of them."""
    return any(
        real[0] <= k < real[-1] and (shared[-1] <= k or shared[0] > k)
        for k in range(min_len - 1, size - min_len)
    )


def _part_runs(
    tiles: tuple[Tile, ...], rules: RuleSet, jokers: int, sharing: int, whole: int
) -> list[Part]:
    if not jokers and not rules.wrap:
        return _plain_part_runs(tiles, rules, sharing, whole)
    out = []
    for colour in {t.colour for t in tiles}:
        if colour is None:
            raise InternalError("a joker among the real tiles of a meld")
        mine = {t.number for t in tiles if t.colour == colour}
        if len(mine) < sharing:
            continue
        base = int(colour) * rules.numbers - 1  # index base + n is the tile numbered n
        for size in range(rules.min_len, rules.numbers + 1):
            for first in rules.run_starts(size):
                run = rules.run_numbers(first, size)
                if not mine.intersection(run):
                    continue
                for k in range(min(jokers, size - 1) + 1):
                    for joker_at in combinations(range(size), k):
                        real = [p for p in range(size) if p not in joker_at]
                        shared = [p for p in real if run[p] in mine]
                        if len(shared) < sharing or len(shared) == whole:
                            continue
                        if _cuts_off(size, real, shared, rules.min_len):
                            continue
                        layout = tuple(
                            rules.joker_index if p in joker_at else base + n
                            for p, n in enumerate(run)
                        )
                        out.append((MeldKind.RUN, layout, len(shared)))
    return out


def _plain_part_runs(
    tiles: tuple[Tile, ...], rules: RuleSet, sharing: int, whole: int
) -> list[Part]:
    """:func:`_part_runs` without jokers or wrap-around, directly: a run ``c..d`` shares
    ``p..q`` with the meld's stretch ``a..b`` of its colour; it cuts off a legal piece
    without a shared tile unless it is shorter than ``2 * min_len`` or reaches fewer than
    ``min_len`` tiles beyond the shared ones on each side."""
    size, numbers = rules.min_len, rules.numbers
    out = []
    for colour in {t.colour for t in tiles}:
        if colour is None:
            raise InternalError("a joker among the real tiles of a meld")
        mine = sorted(t.number for t in tiles if t.colour == colour and t.number is not None)
        if len(mine) < sharing:
            continue
        base = int(colour) * numbers - 1  # index base + n is the tile numbered n
        for c in range(max(1, mine[0] - 2 * size + 2), mine[-1] + 1):
            for d in range(max(c + size - 1, mine[0]), min(numbers, mine[-1] + 2 * size - 2) + 1):
                shared = [n for n in mine if c <= n <= d]
                if len(shared) < max(sharing, 1) or len(shared) == whole:
                    continue
                short = d - c + 1 < 2 * size
                if not short and (shared[0] - c >= size or d - shared[-1] >= size):
                    continue
                out.append((MeldKind.RUN, tuple(range(base + c, base + d + 1)), len(shared)))
    return out


def _part_groups(
    tiles: tuple[Tile, ...], rules: RuleSet, jokers: int, sharing: int, whole: int
) -> list[Part]:
    out = []
    colours = [Colour(c) for c in range(rules.colours)]
    for number in {t.number for t in tiles}:
        if number is None:
            raise InternalError("a joker among the real tiles of a meld")
        mine = {t.colour for t in tiles if t.number == number}
        if len(mine) < sharing:
            continue
        for size in range(rules.min_len, rules.colours + 1):
            for k in range(min(jokers, size - 1) + 1):
                for chosen in combinations(colours, size - k):
                    shared = len(mine.intersection(chosen))
                    if shared < max(sharing, 1) or shared == whole:
                        continue
                    # Two legal groups, one holding every shared tile, the other a real one.
                    if size - k > shared and max(shared, rules.min_len) <= size - rules.min_len:
                        continue
                    real = tuple(int(c) * rules.numbers + number - 1 for c in chosen)
                    out.append((MeldKind.GROUP, (*real, *([rules.joker_index] * k)), shared))
    return out
