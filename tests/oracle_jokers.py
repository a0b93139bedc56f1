"""A brute-force oracle for the table-joker rules ``strict`` and ``locked``, without the solver.

It extends the search of ``tests/oracle.py`` (the oracle of the ``free`` rule) and, like it,
knows the rules only through ``rummikub.models``: tiles, rule sets, positions, and
:meth:`~rummikub.models.meld.Meld.readings` / ``Reading.joker_options`` for what a table
joker may stand for. Nothing comes from ``rummikub.solver`` nor from the validator
(``rummikub.models.validation``), which the tests check against this oracle.

The rules (see :class:`~rummikub.models.jokers.JokerRule` and the product decisions)
===================================================================================
* A joker of an old table meld stands for one tile of one legal meaning of that meld. A
  run written in order means what its layout says (``j r2 r3``: r1, each joker the tile
  whose place it takes); a group may be read with any legal meaning (``k5 b5 j``: o5 or
  r5), and a meld written in no reading's order (``r3 j r2``) with any, unless declared
  (``j=r4``); a meld with two jokers has joint meanings (a tuple of tiles).
* Each table joker either **stays** or is **freed**. A staying joker keeps standing for its
  tile and is treated as that tile: it may move along when its meld is rearranged, into
  any meld that needs that tile. A freed joker needs the tile it stood for from the rack;
  that tile goes to the table (it is a placed rack tile) and the joker becomes a joker to
  place anywhere (``locked``), or under ``strict`` only in a *new* set: a meld of the new
  table that keeps no old meld and holds at least two non-joker rack tiles (the
  replacement tile does not count); it may be a run of any length.
* ``moved`` is the solver's third level: each old meld is paired with at most one meld of
  the new table (and each new meld with at most one old meld); an old meld without jokers
  keeps the tiles they have in common, one with jokers keeps all its tiles if it fits (as
  a multiset, its jokers read as the tiles of the chosen meaning) and none otherwise; the
  rest are moved. So a meld whose joker was swapped for its real tile survives.
* Initial-meld positions leave the table untouched under every rule: they are answered by
  the ``free`` oracle.

The search
==========
For every combination of a meaning per old joker meld and a stay/free choice per table
joker (at most two jokers in the test games: a handful of combinations), the position is
transformed and searched like in ``tests/oracle.py``:

* a staying joker standing for ``t`` becomes a table tile of its own kind, "stay ``t``",
  that counts as ``t`` in every meld (so a third copy of ``t`` may exist) but still as a
  joker for the rule "at most ``max_jokers_per_set`` jokers per meld";
* a freed joker standing for ``t`` takes one ``t`` off the rack and puts it on the table
  (counted as placed: one tile, its value), and adds one joker to the table tiles to cover;
* the old melds, for the moved level, are their real tiles plus the meaning's tiles.

A meld drawn from the remaining tiles charges each of its tiles to a source: a real table
tile, a staying joker or a rack tile (and each joker to a freed joker or a rack joker). All
charges are tried wherever the choice can matter (under ``strict`` the rack tiles of a meld
holding a freed joker count; a staying joker counts as a joker); elsewhere a real table
copy is preferred to a rack copy of the same tile, which loses nothing (the rack copy is
then still free for a later meld). Under ``strict`` a meld may take a freed joker only if
it charges at least two non-joker tiles to the rack. Which physical joker ends where does
not matter (two jokers can swap places), so "freed jokers sit in such melds" is exactly
"every meld charging a freed joker has two rack tiles". The best score over all
combinations is the answer; a witness table (staying jokers printed ``j=t``) is rebuilt.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from typing import NamedTuple

from oracle import ZERO, Answer, Counts, Gain, Score, Shape, _add, _fits, _Game, objective_key
from oracle import oracle_answer as free_oracle_answer

from rummikub.models.meld import Meld, MeldKind
from rummikub.models.position import Position
from rummikub.models.tile import JOKER, Tile

Tiles = tuple[Tile, ...]  # a multiset of tiles as a sorted tuple
Piece = tuple[int, bool]  # (extended tile index, charged to the rack)
Physical = tuple[Piece, ...]  # a meld as it lies: every tile with its source
_Step = tuple[Physical | None, Gain, tuple[Counts, Counts, int] | None]
RULES = ("free", "strict", "locked")


def laid_run_meaning(meld: Meld, position: Position) -> Tiles | None:
    """What the jokers stand for, in order, when the tiles are written as a run in order
    (one colour, each real tile's number its place past the first): the tile whose place
    each joker takes (``j r2 r3``: r1). None when they are not so written."""
    rules = position.rules
    real = [(i, t) for i, t in enumerate(meld.tiles) if not t.is_joker]
    if not real or not meld.jokers or any(t.colour != real[0][1].colour for _, t in real):
        return None
    first, tile = real[0]
    start = (tile.number or 0) - first

    def number(place: int) -> int:
        n = start + place
        return (n - 1) % rules.numbers + 1 if rules.wrap else n

    if not rules.wrap and (start < 1 or start + len(meld.tiles) - 1 > rules.numbers):
        return None
    if any(t.number != number(i) for i, t in real):
        return None
    return tuple(Tile(tile.colour, number(i)) for i, t in enumerate(meld.tiles) if t.is_joker)


def joker_meanings(meld: Meld, position: Position) -> list[Tiles]:
    """The joint meanings of a table meld's jokers (sorted tuples), respecting declared ones
    and the order it is written in (see the module docstring)."""
    rules = position.rules
    stated = Counter(d for d in meld.declared if d is not None)
    every: set[Tiles] = set()
    groups: set[Tiles] = set()
    for reading in meld.readings(rules):
        for option in reading.joker_options(rules):
            if not stated - Counter(option):
                every.add(tuple(sorted(option)))
                if reading.kind is MeldKind.GROUP:
                    groups.add(tuple(sorted(option)))
    laid = laid_run_meaning(meld, position)
    as_laid = groups | ({tuple(sorted(laid))} & every if laid is not None else set())
    return sorted(as_laid or every)


@dataclass(frozen=True)
class Combination:
    """One reading of the table jokers: a meaning per old meld, and which jokers are freed."""

    meanings: tuple[Tiles, ...]  # per old table meld (empty for melds without jokers)
    staying: Tiles  # tiles the staying jokers stand for
    freed: Tiles  # tiles the freed jokers stood for (each replaced by a rack tile)

    def old_melds(self, position: Position) -> list[Meld]:
        """The old table melds with their jokers read as the tiles of this combination."""
        return [
            Meld(tuple(t for t in meld.tiles if not t.is_joker) + meaning)
            for meld, meaning in zip(position.table, self.meanings, strict=True)
        ]


def joker_combinations(position: Position) -> Iterator[Combination]:
    """Every combination of meanings and stay/free choices whose freed tiles are on the rack."""
    per_meld: list[list[tuple[Tiles, Tiles, Tiles]]] = []
    for meld in position.table:
        options: set[tuple[Tiles, Tiles, Tiles]] = set()
        for meaning in joker_meanings(meld, position) if meld.jokers else [()]:
            for size in range(len(meaning) + 1):
                for freed in combinations(meaning, size):
                    stay = tuple(sorted((Counter(meaning) - Counter(freed)).elements()))
                    options.add((meaning, stay, freed))
        per_meld.append(sorted(options))
    rack = position.rack_counts()
    for combo in product(*per_meld):
        freed = tuple(sorted(t for _, _, f in combo for t in f))
        if not Counter(freed) - rack:
            staying = tuple(sorted(t for _, s, _ in combo for t in s))
            yield Combination(tuple(m for m, _, _ in combo), staying, freed)


class _RuleSearch:
    """The memoised search of one transformed position (see the module docstring).

    Extended tile indices: ``0..N-1`` real tiles (as in :class:`oracle._Game`), ``N`` the
    joker, ``N+1+t`` a staying joker standing for tile ``t``.
    """

    def __init__(
        self,
        game: _Game,
        objective: str,
        keep_jokers: bool,
        strict: bool,
        old: list[Meld],
        shapes: dict[tuple[int, Counts], list[Shape]],
        with_jokers: Sequence[bool],
    ) -> None:
        self.game = game
        self.n = game.joker
        self.key = objective_key(objective, keep_jokers)
        self.strict = strict
        self.cap = self.game.max_jokers
        self.old = [self.game.counts(m.tiles) for m in old]
        self.old_sizes = [len(m.tiles) for m in old]
        self.with_jokers = list(with_jokers)  # the old melds that hold jokers
        self.memo: dict[tuple[Counts, Counts, int], Gain | None] = {}
        self.shapes = shapes  # melds_with by (tile, tiles available), shared between searches

    def _better(self, best: Gain | None, gain: Gain) -> Gain:
        return gain if best is None or self.key(gain) > self.key(best) else best

    def _charges(self, shape: Shape, req: Counts, opt: Counts) -> Iterator[tuple[Physical, Gain]]:
        """Every way to charge a meld's tiles to table, staying-joker and rack copies."""
        n = self.n
        jokers = shape.count(n)
        every = self.strict and jokers > 0 and req[n] > 0  # rack tiles may decide a host
        choices: list[list[Piece]] = []
        for i in shape:
            if i == n:
                continue
            sources: list[Piece] = []
            if req[i]:
                sources.append((i, False))
            if req[n + 1 + i]:
                sources.append((n + 1 + i, False))
            if opt[i] and (every or not req[i]):
                sources.append((i, True))
            choices.append(sources)
        for from_table in range(max(0, jokers - opt[n]), min(jokers, req[n]) + 1):
            joker_pieces = ((n, False),) * from_table + ((n, True),) * (jokers - from_table)
            for pieces in product(*choices):
                stays = sum(i > n for i, _ in pieces)
                if jokers + stays > self.cap:
                    continue
                rack = [i for i, r in pieces if r]
                if self.strict and from_table and len(rack) < 2:
                    continue
                value = sum(i % self.game.rules.numbers + 1 for i in rack)
                count = len(rack) + jokers - from_table
                yield tuple(pieces) + joker_pieces, (count, value, jokers - from_table, 0)

    def _assignments(self, shape: Shape, mask: int) -> Iterator[tuple[int, int]]:
        """(mask bit, tiles that stay): pair no old meld, or one unpaired old meld, with the
        new meld: an old meld with jokers if it fits whole (all its tiles stay), one
        without jokers by the tiles they have in common (a staying joker counts as its
        tile: which copy lies where is free)."""
        yield 0, 0
        have = Counter(shape)
        for m, old in enumerate(self.old):
            if mask >> m & 1:
                continue
            if self.with_jokers[m]:
                if _fits(old, shape):
                    yield 1 << m, self.old_sizes[m]
                continue
            stay = sum(min(k, have[i]) for i, k in enumerate(old) if k)
            if stay:
                yield 1 << m, stay

    def _steps(self, req: Counts, opt: Counts, mask: int) -> Iterator[_Step]:
        game, n = self.game, self.n
        t = next((i for i in range(n) if req[i] or opt[i] or req[n + 1 + i]), None)
        if t is None:
            if not req[n]:
                yield None, ZERO, None  # only rack jokers (or nothing) left: they may stay home
            shapes = game.joker_melds(req[n] + opt[n])
        else:
            if not req[t] and not req[n + 1 + t]:
                rest = list(opt)
                rest[t] -= 1
                yield None, ZERO, (req, tuple(rest), mask)
            avail = (*(req[i] + opt[i] + req[n + 1 + i] for i in range(n)), req[n] + opt[n])
            if (t, avail) not in self.shapes:
                self.shapes[t, avail] = game.melds_with(t, avail)
            shapes = self.shapes[t, avail]
        for shape in shapes:
            game.best_value(shape)  # asserts legality
            for pieces, gain in self._charges(shape, req, opt):
                # Under strict rules a freed joker's meld is a new set: it keeps no old meld.
                host = self.strict and any(i == n and not r for i, r in pieces)
                r, o = list(req), list(opt)
                for i, from_rack in pieces:
                    if from_rack:
                        o[i] -= 1
                    else:
                        r[i] -= 1
                for bits, kept in self._assignments(shape, mask):
                    if host and bits:
                        continue
                    yield pieces, _add(gain, (0, 0, 0, kept)), (tuple(r), tuple(o), mask | bits)

    def cover(self, req: Counts, opt: Counts, mask: int) -> Gain | None:
        """Best gain from covering ``req`` with melds, using any of ``opt``; None if impossible."""
        state = (req, opt, mask)
        if state in self.memo:
            return self.memo[state]
        best: Gain | None = None
        for _, gain, after in self._steps(req, opt, mask):
            sub = ZERO if after is None else self.cover(*after)
            if sub is not None:
                best = self._better(best, _add(gain, sub))
        self.memo[state] = best
        return best

    def witness(self, req: Counts, opt: Counts, mask: int) -> list[Physical]:
        """The melds of one best way to finish from a state (after :meth:`cover` ran on it)."""
        best = self.cover(req, opt, mask)
        for pieces, gain, after in self._steps(req, opt, mask):
            sub = ZERO if after is None else self.cover(*after)
            if sub is not None and _add(gain, sub) == best:
                rest = [] if after is None else self.witness(*after)
                return rest if pieces is None else [pieces, *rest]
        raise AssertionError("no step reaches the best gain")

    def meld(self, pieces: Physical) -> tuple[Meld, list[Tile]]:
        """A physical meld as it would be printed (staying jokers as ``j=t``), and its rack
        tiles."""
        n, tiles = self.n, self.game.tiles
        real = sorted(tiles[i] for i, _ in pieces if i < n)
        stays = sorted(tiles[i - n - 1] for i, _ in pieces if i > n)
        others = sum(i == n for i, _ in pieces)
        meld = Meld((*real, *(JOKER,) * (len(stays) + others)), (*stays, *(None,) * others))
        return meld, [tiles[i] for i, r in pieces if r]


class JokerAnswer(NamedTuple):
    """The oracle's best score, one new table that reaches it, and how it reads the jokers."""

    score: Score
    table: list[Meld]  # staying table jokers carry their meaning (j=t)
    placed: list[Tile]  # rack tiles placed, replacement tiles of freed jokers included
    combination: Combination | None  # None for the free rule and initial melds

    def table_text(self) -> str:
        """The new table, one meld per line."""
        return "\n".join(f"  {meld}" for meld in self.table) or "  (empty)"


def _from_free(answer: Answer, position: Position) -> JokerAnswer:
    placed = Counter(t for m in answer.table for t in m.tiles) - position.table_counts()
    return JokerAnswer(answer.score, answer.table, list(placed.elements()), None)


def joker_oracle_answer(
    position: Position, joker_rule: str, objective: str = "tiles", keep_jokers: bool = False
) -> JokerAnswer:
    """The best score vector of ``position`` under a table-joker rule, by exhaustive search."""
    if joker_rule not in RULES:
        raise ValueError(f"unknown joker rule {joker_rule!r}")
    if joker_rule == "free" or position.initial or not any(m.jokers for m in position.table):
        return _from_free(free_oracle_answer(position, objective, keep_jokers), position)
    position.validate()
    key = objective_key(objective, keep_jokers)
    game = _Game(position.rules)
    n = game.joker
    searches: dict[tuple[Tiles, ...], _RuleSearch] = {}  # one memo per meaning of the melds
    shapes: dict[tuple[int, Counts], list[Shape]] = {}
    best: tuple[Gain, Combination, _RuleSearch, Counts, Counts] | None = None
    for combo in joker_combinations(position):
        if combo.meanings not in searches:
            old = combo.old_melds(position)
            searches[combo.meanings] = _RuleSearch(
                game,
                objective,
                keep_jokers,
                joker_rule == "strict",
                old,
                shapes,
                [meld.jokers > 0 for meld in position.table],
            )
        search = searches[combo.meanings]
        req = [0] * (2 * n + 1)
        for t in position.table_tiles():
            if not t.is_joker:
                req[game.index(t)] += 1
        for t in combo.staying:
            req[n + 1 + game.index(t)] += 1
        for t in combo.freed:
            req[game.index(t)] += 1  # the replacement tile, now on the table
        req[n] += len(combo.freed)  # the freed jokers, to place
        opt = list(game.counts(position.rack)) + [0] * n
        for t in combo.freed:
            opt[game.index(t)] -= 1
        state = (tuple(req), tuple(opt))
        found = search.cover(*state, 0)
        if found is None:
            continue
        gain = _add(found, (len(combo.freed), sum(t.value for t in combo.freed), 0, 0))
        if best is None or key(gain) > key(best[0]):
            best = (gain, combo, search, *state)
    assert best is not None, "the untouched table is always a legal answer"
    gain, combo, search, req_start, opt_start = best
    table: list[Meld] = []
    placed = list(combo.freed)
    for pieces in search.witness(req_start, opt_start, 0):
        meld, rack = search.meld(pieces)
        table.append(meld)
        placed += rack
    count, value, jokers, kept = gain
    moved = len(position.table_tiles()) - kept
    return JokerAnswer(Score(count, value, moved, jokers), table, placed, combo)


def reads_as(meld: Meld) -> Meld:
    """A new meld with its declared (staying) jokers replaced by the tiles they stand for."""
    meanings = iter(meld.declared)
    tiles = []
    for tile in meld.tiles:
        meaning = next(meanings, None) if tile.is_joker else None
        tiles.append(meaning if meaning is not None else tile)
    return Meld(tuple(tiles))


def survives(old: Meld, new: Meld) -> bool:
    """Whether an old meld (jokers read as tiles) fits in a new meld (staying jokers read
    as their tiles) as a multiset."""
    return not Counter(old.tiles) - Counter(reads_as(new).tiles)


def kept_tiles_read(old: Sequence[Meld], new: Sequence[Meld]) -> int:
    """Most table tiles kept when the old melds (jokers read as tiles) are fitted one per
    new meld into the new table (staying jokers read as their tiles): a brute force."""
    order = sorted(old, key=len, reverse=True)
    taken = [False] * len(new)

    def best(i: int) -> int:
        if i == len(order):
            return 0
        found = best(i + 1)
        for k, meld in enumerate(new):
            if not taken[k] and survives(order[i], meld):
                taken[k] = True
                found = max(found, len(order[i]) + best(i + 1))
                taken[k] = False
        return found

    return best(0)
