"""A brute-force oracle for the table-joker rules ``strict`` and ``locked``, without the solver.

It extends the search of ``tests/oracle.py`` (the oracle of the ``free`` rule) and, like it,
knows the rules only through ``rummikub.models`` value types: tiles, melds and their
readings (:meth:`~rummikub.models.meld.Meld.readings`, ``Reading.joker_options`` for what a
table joker may stand for), rule sets and positions. Nothing comes from ``rummikub.solver``
nor from the validator (``rummikub.models.validation``, ``joker_plan``, ``moves``), which
the tests check against this oracle.

The rules (see :class:`~rummikub.models.jokers.JokerRule` and ``RULES.md``)
==========================================================================
* A joker of an old table meld stands for one tile of one legal meaning of that meld. A
  run written in order means what its layout says (``j r2 r3``: r1, each joker the tile
  whose place it takes); a group may be read with any legal meaning (``k5 b5 j``: o5 or
  r5), and a meld written in no reading's order (``r3 j r2``) with any, unless declared
  (``j=r4``); a meld with two jokers has joint meanings (a tuple of tiles).
* Each table joker either **stays** or is **freed**. A freed joker needs the tile it stood
  for from the rack; that tile goes to the table (it is a placed rack tile) and the joker
  becomes a joker to place anywhere (``locked``), or under ``strict`` only in a *new* set:
  a meld of the new table that keeps no old meld and holds at least two non-joker rack
  tiles (the replacement tile does not count); it may be a run of any length.
* A staying joker keeps standing for its tile, and **stays with its set**: it ends the
  turn in a meld of the new table that also holds at least one *real* (non-joker) tile of
  its old meld. Its set may be extended, split or joined with another, but the joker may
  not be carried off alone, nor into a set made only of other tiles. Tiles of one type are
  interchangeable, yet each real tile is one physical tile: two staying jokers of one old
  meld that end in two new melds need a real tile of that old meld each, two in one new
  meld may share one, and a real tile of old meld A never counts for a joker of old meld B.
  (An old meld of jokers alone, possible only when ``min_len`` is at most the jokers a set
  may hold, has no real tile: its jokers stay only all together, none freed, in one new
  meld, which is the old meld surviving whole.)
* A turn that places no rack tile leaves the table exactly as it was, under every rule:
  when nothing can be placed the answer is the untouched table (its melds as they were
  written, nothing moved, ``combination`` None).
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
joker (at most two or three jokers in the test games: a handful of combinations), the
position is transformed and searched like in ``tests/oracle.py``. Tile kinds are extended:

* a staying joker of old meld ``m`` standing for ``t`` becomes a table tile of its own
  kind, "stay ``t`` of ``m``", that counts as ``t`` in every meld (so a third copy of
  ``t`` may exist) but still as a joker for "at most ``max_jokers_per_set`` per meld";
* the real tiles of an old meld ``m`` whose jokers (some of them) stay are split off the
  table supply: "``x`` of ``m``" (as many as ``m`` holds) beside the other copies of ``x``
  on the table. Both are table tiles that must be covered; only a copy of ``m`` anchors
  ``m``'s jokers;
* a freed joker standing for ``t`` takes one ``t`` off the rack and puts it on the table
  (counted as placed: one tile, its value), and adds one joker to the table tiles to cover;
* the old melds, for the moved level, are their real tiles plus the meaning's tiles.

A meld drawn from the remaining tiles charges each of its tiles to a source: another table
copy, a copy of an old meld ``m``, a staying joker or a rack tile (and each joker to a freed
joker or a rack joker). A meld that takes a staying joker of ``m`` must charge at least one
tile to a copy of ``m`` (each physical tile is charged once, so one copy anchors one new
meld). All charges are tried wherever the choice can matter, and dominated ones are
skipped: a copy of ``m`` is charged where another table copy of the tile is left only to
anchor ``m``'s jokers in this meld, and then only one (a copy of ``m`` can do all that
another copy can, so keeping it is never worse); under ``strict`` the rack tiles of a meld
holding a freed joker count; elsewhere another table copy is preferred to a rack copy of
the same tile, which loses nothing (the rack copy is then still free for a later meld).
Under ``strict`` a meld may take a freed joker only if it charges at least two non-joker
tiles to the rack. Which physical freed or rack joker ends where does not matter (two such
jokers can swap places), so "freed jokers sit in such melds" is exactly "every meld
charging a freed joker has two rack tiles". The best score over all combinations is the
answer; a witness table is rebuilt, each meld written as it lies (runs in order) with its
staying jokers declared (``j=t``), so that it reads as it is written.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from typing import NamedTuple

from oracle import ZERO, Answer, Counts, Gain, Score, Shape, _add, _fits, _Game, objective_key
from oracle import oracle_answer as free_oracle_answer

from rummikub.models.meld import Meld, MeldKind, readings
from rummikub.models.position import Position
from rummikub.models.rules import RuleSet
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
    if meld.jokers == len(meld):  # jokers alone lie in the order of every reading
        return sorted(every)
    laid = laid_run_meaning(meld, position)
    as_laid = groups | ({tuple(sorted(laid))} & every if laid is not None else set())
    return sorted(as_laid or every)


@dataclass(frozen=True)
class Combination:
    """One reading of the table jokers: a meaning per old meld, and which jokers are freed."""

    meanings: tuple[Tiles, ...]  # per old table meld (empty for melds without jokers)
    staying: Tiles  # tiles the staying jokers stand for
    freed: Tiles  # tiles the freed jokers stood for (each replaced by a rack tile)
    stays: tuple[Tiles, ...] = ()  # per old table meld: what its staying jokers stand for

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
            stays = tuple(s for _, s, _ in combo)
            yield Combination(tuple(m for m, _, _ in combo), staying, freed, stays)


class Extra(NamedTuple):
    """An extended tile kind: a real tile of old meld ``meld`` (``stay`` false) or a staying
    joker of it standing for the tile (``stay`` true); ``tile`` is the tile's index."""

    meld: int
    tile: int
    stay: bool


def extras_of(position: Position, game: _Game, combo: Combination) -> tuple[Extra, ...]:
    """The extended kinds a combination needs: for every old meld with a staying joker, its
    real tiles and the tiles of its meaning (as staying jokers)."""
    found: list[Extra] = []
    for m, (meld, meaning, stay) in enumerate(
        zip(position.table, combo.meanings, combo.stays, strict=True)
    ):
        if stay:
            real = {game.index(t) for t in meld.tiles if not t.is_joker}
            found += [Extra(m, x, False) for x in sorted(real)]
            found += [Extra(m, x, True) for x in sorted({game.index(t) for t in meaning})]
    return tuple(found)


def anchorable(position: Position, combo: Combination) -> bool:
    """False when an old meld of jokers alone would keep some of its jokers and free others:
    with no real tile, its staying jokers may only survive whole."""
    return all(
        not (stay and len(stay) < len(meaning) and meld.jokers == len(meld))
        for meld, meaning, stay in zip(position.table, combo.meanings, combo.stays, strict=True)
    )


class _RuleSearch:
    """The memoised search of one transformed position (see the module docstring).

    Extended tile indices: ``0..N-1`` real table tiles not split off (as in
    :class:`oracle._Game`; rack counts use the same indices), ``N`` the joker, ``N+1+e`` the
    extended kind ``extras[e]`` (a real tile of an old meld, or a staying joker of it).
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
        extras: Sequence[Extra] = (),
        whole: dict[int, int] | None = None,
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
        self.extras = tuple(extras)
        n = self.n
        # Per tile index: the extended kinds that are table copies of it (split-off real
        # tiles and staying jokers).
        self.copies: list[tuple[int, ...]] = [
            tuple(n + 1 + e for e, x in enumerate(self.extras) if x.tile == i) for i in range(n)
        ]
        self.kind: dict[int, Extra] = {n + 1 + e: x for e, x in enumerate(self.extras)}
        # Old melds of jokers alone (no real tile) whose jokers stay: how many, all of which
        # go together into one new meld.
        self.whole = whole or {}

    def start(self, position: Position, combo: Combination) -> tuple[Counts, Counts]:
        """The first state of a combination: (table tiles to cover, rack tiles)."""
        game, n = self.game, self.n
        req = [0] * (n + 1 + len(self.extras))
        split = {(x.meld, x.tile, x.stay): n + 1 + e for e, x in enumerate(self.extras)}
        for m, meld in enumerate(position.table):
            for t in meld.tiles:
                if not t.is_joker:
                    i = game.index(t)
                    req[split.get((m, i, False), i)] += 1
        for m, stay in enumerate(combo.stays):
            for t in stay:
                req[split[m, game.index(t), True]] += 1
        for t in combo.freed:
            req[game.index(t)] += 1  # the replacement tile, now on the table
        req[n] += len(combo.freed)  # the freed jokers, to place
        opt = list(game.counts(position.rack))
        for t in combo.freed:
            opt[game.index(t)] -= 1
        return tuple(req), tuple(opt)

    def _better(self, best: Gain | None, gain: Gain) -> Gain:
        return gain if best is None or self.key(gain) > self.key(best) else best

    def _anchored(self, pieces: Sequence[Piece], req: Counts) -> bool:
        """Whether every staying joker among a meld's pieces has a real tile of its old meld
        in the meld, and no copy of an old meld is charged where another table copy would
        do (see the module docstring: such a charge is dominated)."""
        kind = self.kind
        stays: Counter[int] = Counter()
        anchors: Counter[int] = Counter()
        spare: list[int] = []  # old melds of copies charged while another copy was left
        for i, from_rack in pieces:
            if from_rack or i <= self.n:
                continue
            x = kind[i]
            if x.stay:
                stays[x.meld] += 1
            else:
                anchors[x.meld] += 1
                if req[x.tile]:
                    spare.append(x.meld)
        for m in spare:
            if m not in stays or anchors[m] > 1:
                return False
        for m, k in stays.items():
            if m in self.whole:
                if k < self.whole[m]:
                    return False
            elif not anchors[m]:
                return False
        return True

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
            sources += [(e, False) for e in self.copies[i] if req[e]]
            if opt[i] and (every or not req[i]):
                sources.append((i, True))
            choices.append(sources)
        for from_table in range(max(0, jokers - opt[n]), min(jokers, req[n]) + 1):
            joker_pieces = ((n, False),) * from_table + ((n, True),) * (jokers - from_table)
            for pieces in product(*choices):
                stays = sum(i > n and self.kind[i].stay for i, _ in pieces)
                if jokers + stays > self.cap:
                    continue
                rack = [i for i, r in pieces if r]
                if self.strict and from_table and len(rack) < 2:
                    continue
                if self.extras and not self._anchored(pieces, req):
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

    def _table(self, req: Counts) -> list[int]:
        """Table copies left per tile index (split-off copies and staying jokers included)."""
        table = list(req[: self.n])
        for e, x in enumerate(self.extras):
            table[x.tile] += req[self.n + 1 + e]
        return table

    def _steps(self, req: Counts, opt: Counts, mask: int) -> Iterator[_Step]:
        game, n = self.game, self.n
        table = self._table(req) if self.extras else req
        t = next((i for i in range(n) if table[i] or opt[i]), None)
        if t is None:
            if not req[n]:
                yield None, ZERO, None  # only rack jokers (or nothing) left: they may stay home
            shapes = game.joker_melds(req[n] + opt[n])
        else:
            if not table[t]:
                rest = list(opt)
                rest[t] -= 1
                yield None, ZERO, (req, tuple(rest), mask)
            avail = (*(table[i] + opt[i] for i in range(n)), req[n] + opt[n])
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
        """A physical meld as it would be printed (as it lies, staying jokers as ``j=t``),
        and its rack tiles."""
        n, tiles = self.n, self.game.tiles
        real: list[Tile] = []
        stays: list[Tile] = []
        for i, _ in pieces:
            if i < n:
                real.append(tiles[i])
            elif i > n:
                x = self.kind[i]
                (stays if x.stay else real).append(tiles[x.tile])
        others = sum(i == n for i, _ in pieces)
        meld = laid_out(real, stays, others, self.game.rules)
        return meld, [tiles[i] for i, r in pieces if r]


def laid_out(real: Sequence[Tile], stays: Sequence[Tile], others: int, rules: RuleSet) -> Meld:
    """A legal meld of these real tiles, jokers standing for ``stays`` (declared) and
    ``others`` more jokers, written as it lies: a run in order with each joker in the place
    of its tile, a group sorted with its jokers last."""
    tiles = (*sorted(real), *(JOKER,) * (len(stays) + others))
    want = Counter(stays)
    for reading in readings(tiles, rules):
        if not any(not want - Counter(option) for option in reading.joker_options(rules)):
            continue
        laid = reading.laid_out()
        if reading.kind is MeldKind.GROUP:
            return Meld(laid, (*sorted(stays), *(None,) * others))
        assert reading.colour is not None
        left = Counter(want)
        declared: list[Tile | None] = []
        for tile, number in zip(laid, reading.numbers, strict=True):
            if tile.is_joker:
                meant = Tile(reading.colour, number)
                declared.append(meant if left[meant] > 0 else None)
                left[meant] -= 1
        return Meld(laid, tuple(declared))
    raise AssertionError(f"no reading of {tiles} lets its jokers stand for {stays}")


class JokerAnswer(NamedTuple):
    """The oracle's best score, one new table that reaches it, and how it reads the jokers."""

    score: Score
    table: list[Meld]  # staying table jokers carry their meaning (j=t)
    placed: list[Tile]  # rack tiles placed, replacement tiles of freed jokers included
    combination: Combination | None  # None for the free rule, initial melds, untouched tables

    def table_text(self) -> str:
        """The new table, one meld per line."""
        return "\n".join(f"  {meld}" for meld in self.table) or "  (empty)"


def untouched(position: Position) -> JokerAnswer:
    """The answer that places nothing: the table exactly as it was."""
    return JokerAnswer(Score(0, 0, 0, 0), list(position.table), [], None)


def _from_free(answer: Answer, position: Position) -> JokerAnswer:
    if answer.score.placed_count == 0:
        return untouched(position)
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
    # One search (and memo) per meaning of the melds and set of melds whose jokers stay.
    searches: dict[tuple[tuple[Tiles, ...], tuple[bool, ...]], _RuleSearch] = {}
    shapes: dict[tuple[int, Counts], list[Shape]] = {}
    best: tuple[Gain, Combination, _RuleSearch, Counts, Counts] | None = None
    for combo in joker_combinations(position):
        if not anchorable(position, combo):
            continue
        staying = tuple(bool(s) for s in combo.stays)
        if (combo.meanings, staying) not in searches:
            whole = {
                m: meld.jokers
                for m, meld in enumerate(position.table)
                if staying[m] and meld.jokers == len(meld)
            }
            searches[combo.meanings, staying] = _RuleSearch(
                game,
                objective,
                keep_jokers,
                joker_rule == "strict",
                combo.old_melds(position),
                shapes,
                [meld.jokers > 0 for meld in position.table],
                extras_of(position, game, combo),
                whole,
            )
        search = searches[combo.meanings, staying]
        state = search.start(position, combo)
        found = search.cover(*state, 0)
        if found is None:
            continue
        gain = _add(found, (len(combo.freed), sum(t.value for t in combo.freed), 0, 0))
        if best is None or key(gain) > key(best[0]):
            best = (gain, combo, search, *state)
    assert best is not None, "the untouched table is always a legal answer"
    gain, combo, search, req_start, opt_start = best
    count, value, jokers, kept = gain
    if count == 0:  # nothing placed: the table stays exactly as it was
        return untouched(position)
    table: list[Meld] = []
    placed = list(combo.freed)
    for pieces in search.witness(req_start, opt_start, 0):
        meld, rack = search.meld(pieces)
        table.append(meld)
        placed += rack
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
