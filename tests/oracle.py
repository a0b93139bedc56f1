"""A brute-force oracle for the best move, written without the solver, to check the solver.

It knows the rules only through ``rummikub.models`` (tiles, rule sets, positions, and
:func:`~rummikub.models.meld.readings` to confirm that every meld it builds is legal and to
value a meld for the initial meld). Nothing here comes from ``rummikub.solver``: the
objective order is re-implemented from the docstring of ``solver/objectives.py``.

What it computes
================
The best score vector of a position, as a :class:`Score` (tiles placed, value placed,
table tiles moved, rack jokers placed), under the lexicographic order of the objective:

* ``tiles``: most tiles placed, then most value placed, then fewest moved;
* ``value``: most value placed, then most tiles placed, then fewest moved;
* ``keep_jokers``: the tile count excludes jokers and, right after the first level, come
  fewest rack jokers placed.

Every level is a sum over the melds of the new table, and lexicographic order is compatible
with addition, so one memoised search maximises the whole vector at once.

The search (ordinary turn)
==========================
A table tile must end in a meld, a rack tile may. The state is the multiset of table tiles
still to cover (``req``), the multiset of rack tiles still available (``opt``), and the
set of old table melds already counted as kept (a bit mask). Take the smallest tile left
(colour-major, jokers last). If it is only on the rack, one branch leaves it there for
good. Otherwise it goes into a meld, and the search tries every legal meld that holds it
and is drawn from what is left: groups of any size ``min_len..colours`` and runs of *any*
length. A meld never holds two copies of one number tile, so it uses one copy of the
smallest tile.

Why runs of any length: for the placing levels runs of ``min_len..2*min_len-1`` would do
(a run of ``2*min_len`` or more tiles cuts into two runs of at least ``min_len``, each
with at most the jokers of the whole), but not for the moved level. A long run can be
the only meld that holds an old meld: ``j r5 r6`` fits in ``r1 r2 j r4 r5 r6`` and in no
shorter piece of it, because its joker has to stand for r3. So the oracle uses no length
bound and no splitting lemma at all; with at most 7 numbers in the test games the extra
runs are cheap. When only jokers are left, table jokers go into
melds of jokers alone (legal only under some rules) and rack jokers may stay home. The
tiles of a meld are charged to the table first and to the rack after: copies of a tile
are interchangeable, so that only relabels physical tiles; the rack tiles it uses are
the placed ones. Memoisation is on (req, opt, mask).

Moved tiles
===========
By default moved is the solver's third level (``measure="level"``, see "Tiles picked up"
below). With ``measure="kept"`` a table tile is moved unless its old meld is *kept*.
Kept is defined on multisets: over all partitions of table + placed tiles into legal
melds, and all assignments of old table melds to new melds in which the old melds assigned
to one new meld together fit inside it (multiset inclusion), maximise the number of table
tiles in assigned old melds; moved is the table's tile count minus that. The search does
this directly: each time it forms a new meld it may also assign to it any set of not yet
kept old melds whose union fits in it.

With ``merge=False`` (the default, and the product's definition: see README "objectives")
an old meld must have a new meld of its own (at most one old meld per new meld). The two
readings differ only when two old runs with jokers must share one long new run (about one
random position in 18,000); ``merge=True`` keeps the wider reading for comparison.

Tiles picked up
===============
With ``measure="picked"`` moved is instead the measure of reports
(:func:`rummikub.models.moves.picked_up`), minimised over every table that is best on the
earlier levels: each new meld the search forms may be paired with at most one old meld not
yet paired, and the tiles they have in common (a multiset intersection, jokers included)
stay. Over all partitions and pairings that is the least number of tiles picked up.

``measure="level"`` (the default) is the solver's third level: the same, except that the
jokers of an old meld stay only when it fits in its new meld whole (then all its tiles
stay); otherwise only its real tiles in common stay. On tables without jokers it is
``"picked"``.

Self-checks
===========
:func:`oracle_answer` also rebuilds one best new table (the witness). The tests check it
with the independent validator ``rummikub.models.validation.move_problems`` and recount
its kept tiles with :func:`kept_tiles`, a separate brute force over old-to-new meld
assignments, so the search's bookkeeping is checked too.

The initial meld
================
When ``position.initial`` is true the table is left alone (nothing moves) and the search
only builds melds from rack tiles; it also carries the melds' value (each meld at its best
reading, a joker worth the tile it stands for), capped at the threshold. A placement counts
only if that value reaches ``rules.initial_threshold``; otherwise the player draws (all
zero), which is always allowed.

Under ``rules.continue_after_initial`` the opening turn may go on to the table: every
sub-multiset of the rack that splits exactly into melds worth the threshold is tried as
the opening meld, followed by an ordinary turn in which those tiles must go down (see
:func:`_continued_opening`).

Wrap-around
===========
Under ``rules.wrap`` a run is a stretch of places whose numbers go round the top
(12 13 1 2); :meth:`_Game.melds_with` tries every stretch of at most ``numbers`` places
through the tile, so the oracle needs nothing else.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import combinations, product
from typing import NamedTuple

from rummikub.models.meld import Meld, readings
from rummikub.models.position import Position
from rummikub.models.rules import RuleSet
from rummikub.models.tile import JOKER, Colour, Tile

Counts = tuple[int, ...]  # copies left, indexed by tile type (the joker is the last type)
Shape = tuple[int, ...]  # a meld as the sorted tuple of its tile-type indices
Gain = tuple[int, int, int, int]  # tiles placed, value placed, rack jokers placed, kept
ZERO: Gain = (0, 0, 0, 0)
_Step = tuple[Shape | None, Gain, tuple[Counts, Counts, int] | None]
_OpenStep = tuple[Shape | None, Gain, tuple[Counts, int] | None]


class Score(NamedTuple):
    """The score vector of the best move, every level of the objective."""

    placed_count: int
    placed_value: int
    moved: int
    jokers_placed: int


def objective_key(objective: str, keep_jokers: bool) -> Callable[[Gain], tuple[int, ...]]:
    """The lexicographic key (bigger is better) of a gain under an objective.

    Re-derived from the documented order: tiles → (count, value, kept); value → (value,
    count, kept); keep_jokers counts real tiles only and puts "fewest jokers" second.
    """
    if objective not in ("tiles", "value"):
        raise ValueError(f"unknown objective {objective!r}")

    def key(gain: Gain) -> tuple[int, ...]:
        count, value, jokers, kept = gain
        if keep_jokers:
            real = count - jokers
            first, second = (real, value) if objective == "tiles" else (value, real)
            return (first, -jokers, second, kept)
        first, second = (count, value) if objective == "tiles" else (value, count)
        return (first, second, kept)

    return key


def _add(a: Gain, b: Gain) -> Gain:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


class _Game:
    """Tile types of a rule set as indices, and the legal melds that hold a given tile."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.joker = rules.colours * rules.numbers
        self.size = self.joker + 1
        self.max_jokers = min(rules.max_jokers_per_set, rules.jokers)
        self.tiles: list[Tile] = [
            Tile(Colour(c), n) for c in range(rules.colours) for n in range(1, rules.numbers + 1)
        ] + [JOKER]
        self._legal: dict[Shape, int | None] = {}

    def index(self, tile: Tile) -> int:
        if tile.colour is None or tile.number is None:
            return self.joker
        return int(tile.colour) * self.rules.numbers + tile.number - 1

    def counts(self, tiles: Iterable[Tile]) -> Counts:
        out = [0] * self.size
        for tile in tiles:
            out[self.index(tile)] += 1
        return tuple(out)

    def best_value(self, shape: Shape) -> int:
        """Value of a meld at its best reading; asserts the meld is legal under the rules."""
        if shape not in self._legal:
            found = readings([self.tiles[i] for i in shape], self.rules)
            self._legal[shape] = max((r.value for r in found), default=None)
        value = self._legal[shape]
        assert value is not None, f"oracle built an illegal meld {shape}"
        return value

    def melds_with(self, t: int, avail: Counts) -> list[Shape]:
        """Every legal meld (as a multiset) holding tile type ``t``, drawn from ``avail``.

        ``t`` is the smallest type left, so every smaller type has no copy in ``avail``.
        """
        rules = self.rules
        colour, number = divmod(t, rules.numbers)
        number += 1
        jokers = min(self.max_jokers, avail[self.joker])
        found: set[Shape] = set()
        # Groups: this tile, other colours of the same number, jokers for missing colours.
        others = [
            c * rules.numbers + number - 1
            for c in range(rules.colours)
            if c != colour and avail[c * rules.numbers + number - 1] > 0
        ]
        for extra in range(len(others) + 1):
            for chosen in combinations(others, extra):
                for k in range(jokers + 1):
                    size = 1 + extra + k
                    if rules.min_len <= size <= rules.colours:
                        found.add(tuple(sorted((t, *chosen))) + (self.joker,) * k)
        # Runs of any length through this tile; numbers below it can only be jokers. A run
        # is the places first..last around the tile's place ``number``; place p shows the
        # number p itself, or under wrap-around (p - 1) mod numbers + 1 (12 13 1 2).
        base = colour * rules.numbers
        top = rules.numbers
        for first in range(number - top + 1, number + 1):
            if not rules.wrap and first < max(1, number - jokers):
                continue
            for last in range(number, first + top):
                if last - first + 1 < rules.min_len or (not rules.wrap and last > top):
                    continue
                others = [(p - 1) % top + 1 for p in range(first, last + 1) if p != number]
                below = sum(n < number for n in others)
                if below > jokers:
                    continue
                above = [n for n in others if n > number]
                choices = [(True, False) if avail[base + n - 1] > 0 else (False,) for n in above]
                for real in product(*choices):
                    k = below + sum(not r for r in real)
                    if k > jokers:
                        continue
                    shape = [t] + [base + n - 1 for n, r in zip(above, real, strict=True) if r]
                    found.add(tuple(sorted(shape)) + (self.joker,) * k)
        return sorted(found)

    def joker_melds(self, avail_jokers: int) -> list[Shape]:
        """Legal melds of jokers alone (for example ``j j`` when min_len is 2)."""
        out = []
        for k in range(self.rules.min_len, min(self.max_jokers, avail_jokers) + 1):
            if readings([JOKER] * k, self.rules):
                out.append((self.joker,) * k)
        return out


def _take(game: _Game, shape: Shape, req: Counts, opt: Counts) -> tuple[Counts, Counts, Gain]:
    """Remove a meld's tiles, table copies first; the gain counts the rack copies used."""
    r, o = list(req), list(opt)
    count = value = jokers = 0
    for i in shape:
        if r[i] > 0:
            r[i] -= 1
        else:
            o[i] -= 1
            count += 1
            if i == game.joker:
                jokers += 1
            else:
                value += i % game.rules.numbers + 1
    return tuple(r), tuple(o), (count, value, jokers, 0)


def _fits(inner: Counts, shape: Shape) -> bool:
    have: dict[int, int] = {}
    for i in shape:
        have[i] = have.get(i, 0) + 1
    return all(n <= have.get(i, 0) for i, n in enumerate(inner) if n)


class _Search:
    """The memoised search of one position (see the module docstring)."""

    def __init__(
        self, position: Position, objective: str, keep_jokers: bool, merge: bool, measure: str
    ) -> None:
        self.game = _Game(position.rules)
        self.key = objective_key(objective, keep_jokers)
        self.merge = merge
        self.measure = measure
        self.old = [self.game.counts(m.tiles) for m in position.table]
        self.old_sizes = [len(m.tiles) for m in position.table]
        self.with_jokers = [m.jokers > 0 for m in position.table]
        self.memo: dict[tuple[Counts, Counts, int], Gain | None] = {}
        self.opening: dict[tuple[Counts, int], Gain | None] = {}
        self.threshold = position.rules.initial_threshold

    def _better(self, best: Gain | None, gain: Gain) -> Gain:
        return gain if best is None or self.key(gain) > self.key(best) else best

    def _assignments(self, shape: Shape, mask: int) -> Iterator[tuple[int, int]]:
        """(mask bits, kept tiles) for every set of unkept old melds that fits in a new meld;
        for the measures "picked" and "level": no old meld, or one not yet paired with a new
        meld, and the tiles they have in common (jokers included) stay ("level": an old
        meld's jokers only if it fits whole)."""
        yield 0, 0
        if self.measure in ("picked", "level"):
            have = Counter(shape)
            for m, old in enumerate(self.old):
                if mask >> m & 1:
                    continue
                if self.measure == "level" and self.with_jokers[m]:
                    if _fits(old, shape):  # its jokers stay only if it stays whole
                        yield 1 << m, self.old_sizes[m]
                        continue
                    joker = self.game.joker
                    stay = sum(min(n, have[i]) for i, n in enumerate(old) if n and i != joker)
                else:
                    stay = sum(min(n, have[i]) for i, n in enumerate(old) if n)
                if stay:
                    yield 1 << m, stay
            return
        fitting = [m for m in range(len(self.old)) if not mask >> m & 1]
        fitting = [m for m in fitting if _fits(self.old[m], shape)]
        most = len(fitting) if self.merge else min(1, len(fitting))
        for size in range(1, most + 1):
            for chosen in combinations(fitting, size):
                total = [0] * self.game.size
                for m in chosen:
                    for i, n in enumerate(self.old[m]):
                        total[i] += n
                if size == 1 or _fits(tuple(total), shape):
                    yield sum(1 << m for m in chosen), sum(self.old_sizes[m] for m in chosen)

    def _cover_steps(self, req: Counts, opt: Counts, mask: int) -> Iterator[_Step]:
        """Every first step from a state: leave a rack tile, or form a meld (and keep melds)."""
        game = self.game
        t = next((i for i in range(game.joker) if req[i] or opt[i]), None)
        if t is None:
            if not req[game.joker]:
                yield None, ZERO, None  # only rack jokers (or nothing) left: they may stay home
            shapes = game.joker_melds(req[game.joker] + opt[game.joker])
        else:
            if not req[t]:
                rest = list(opt)
                rest[t] -= 1
                yield None, ZERO, (req, tuple(rest), mask)
            avail = tuple(a + b for a, b in zip(req, opt, strict=True))
            shapes = game.melds_with(t, avail)
        for shape in shapes:
            game.best_value(shape)  # asserts legality
            new_req, new_opt, gain = _take(game, shape, req, opt)
            for bits, kept in self._assignments(shape, mask):
                yield shape, _add(gain, (0, 0, 0, kept)), (new_req, new_opt, mask | bits)

    def cover(self, req: Counts, opt: Counts, mask: int) -> Gain | None:
        """Best gain from covering ``req`` with melds, using any of ``opt``; None if impossible."""
        state = (req, opt, mask)
        if state in self.memo:
            return self.memo[state]
        best: Gain | None = None
        for _, gain, after in self._cover_steps(req, opt, mask):
            sub = ZERO if after is None else self.cover(*after)
            if sub is not None:
                best = self._better(best, _add(gain, sub))
        self.memo[state] = best
        return best

    def cover_witness(self, req: Counts, opt: Counts, mask: int) -> list[Shape]:
        """The melds of one best way to finish from a state (after :meth:`cover` ran on it)."""
        best = self.cover(req, opt, mask)
        for shape, gain, after in self._cover_steps(req, opt, mask):
            sub = ZERO if after is None else self.cover(*after)
            if sub is not None and _add(gain, sub) == best:
                rest = [] if after is None else self.cover_witness(*after)
                return rest if shape is None else [shape, *rest]
        raise AssertionError("no step reaches the best gain")

    def _open_steps(self, opt: Counts, value: int) -> Iterator[_OpenStep]:
        """Every first step of an opening: stop, leave a rack tile, or form a meld."""
        game = self.game
        if value >= self.threshold:
            yield None, ZERO, None
        t = next((i for i in range(game.joker) if opt[i]), None)
        if t is None:
            shapes = game.joker_melds(opt[game.joker])
        else:
            rest = list(opt)
            rest[t] -= 1
            yield None, ZERO, (tuple(rest), value)
            shapes = game.melds_with(t, opt)
        empty = (0,) * game.size
        for shape in shapes:
            worth = game.best_value(shape)
            _, new_opt, gain = _take(game, shape, empty, opt)
            yield shape, gain, (new_opt, min(self.threshold, value + worth))

    def open(self, opt: Counts, value: int) -> Gain | None:
        """Best gain of melds made from ``opt`` once ``value`` (capped) reaches the threshold."""
        state = (opt, value)
        if state in self.opening:
            return self.opening[state]
        best: Gain | None = None
        for _, gain, after in self._open_steps(opt, value):
            sub = ZERO if after is None else self.open(*after)
            if sub is not None:
                best = self._better(best, _add(gain, sub))
        self.opening[state] = best
        return best

    def open_witness(self, opt: Counts, value: int) -> list[Shape]:
        """The melds of one best opening from a state (after :meth:`open` ran on it)."""
        best = self.open(opt, value)
        for shape, gain, after in self._open_steps(opt, value):
            sub = ZERO if after is None else self.open(*after)
            if sub is not None and _add(gain, sub) == best:
                rest = [] if after is None else self.open_witness(*after)
                return rest if shape is None else [shape, *rest]
        raise AssertionError("no step reaches the best gain")


class Answer(NamedTuple):
    """The oracle's best score and one new table that reaches it."""

    score: Score
    table: list[Meld]  # the whole new table (in initial mode: the old melds, then the new)

    def table_text(self) -> str:
        """The new table, one meld per line."""
        return "\n".join(f"  {meld}" for meld in self.table) or "  (empty)"


def oracle_answer(
    position: Position,
    objective: str = "tiles",
    keep_jokers: bool = False,
    merge: bool = False,
    measure: str = "level",
) -> Answer:
    """The best score vector of ``position`` under the objective, by exhaustive search.

    ``measure`` chooses what "moved" counts (see the module docstring): ``"level"`` (the
    solver's third level) the tiles picked up, where an old meld's jokers stay only if it
    stays whole; ``"picked"`` the tiles picked up, :func:`rummikub.models.moves.picked_up`
    minimised over every best table; ``"kept"`` (the solver's third level until issue 12)
    the tiles of old melds that do not survive whole (then ``merge`` chooses the
    definition of a kept table meld).
    """
    position.validate()
    search = _Search(position, objective, keep_jokers, merge, measure)
    game = search.game
    rack = game.counts(position.rack)

    def melds(shapes: list[Shape]) -> list[Meld]:
        return [Meld(tuple(game.tiles[i] for i in shape)) for shape in shapes]

    if position.initial and position.rules.continue_after_initial:
        return _continued_opening(search, position)
    if position.initial:
        found = search.open(rack, 0)
        if found is None or search.key(found) <= search.key(ZERO):
            return Answer(Score(0, 0, 0, 0), list(position.table))
        count, value, jokers, _ = found
        new = melds(search.open_witness(rack, 0))
        return Answer(Score(count, value, 0, jokers), [*position.table, *new])
    table = game.counts(position.table_tiles())
    found = search.cover(table, rack, 0)
    assert found is not None, "the untouched table is always a legal answer"
    count, value, jokers, kept = found
    if count == 0:  # a player who places nothing leaves the table as it was
        return Answer(Score(0, 0, 0, 0), list(position.table))
    moved = len(position.table_tiles()) - kept
    return Answer(Score(count, value, moved, jokers), melds(search.cover_witness(table, rack, 0)))


def _exact_opening(game: _Game, tiles: Counts, memo: dict[Counts, int | None]) -> int | None:
    """The most value of a partition of *all* these tiles into legal melds (None: none)."""
    if tiles in memo:
        return memo[tiles]
    t = next((i for i in range(game.joker) if tiles[i]), None)
    if t is None and not tiles[game.joker]:
        return 0
    shapes = game.joker_melds(tiles[game.joker]) if t is None else game.melds_with(t, tiles)
    best: int | None = None
    for shape in shapes:
        rest = list(tiles)
        for i in shape:
            rest[i] -= 1
        sub = _exact_opening(game, tuple(rest), memo)
        if sub is not None:
            best = max(best or 0, sub + game.best_value(shape))
    memo[tiles] = best
    return best


def _continued_opening(search: _Search, position: Position) -> Answer:
    """The opening turn that may go on to the table (``continue_after_initial``).

    Every sub-multiset S of the rack that splits exactly into legal melds worth the
    threshold is a possible opening meld; the rest of the turn is an ordinary turn in
    which S must go down (it is added to the tiles to cover, and scored as placed) and
    any other rack tile may. The best over all S, or drawing, is the answer.
    """
    game = search.game
    rack = game.counts(position.rack)
    table = game.counts(position.table_tiles())
    memo: dict[Counts, int | None] = {}
    best: tuple[Gain, Counts] | None = None
    for subset in product(*(range(k + 1) for k in rack)):
        if not any(subset):
            continue
        worth = _exact_opening(game, subset, memo)
        if worth is None or worth < search.threshold:
            continue
        req = tuple(a + b for a, b in zip(table, subset, strict=True))
        opt = tuple(a - b for a, b in zip(rack, subset, strict=True))
        found = search.cover(req, opt, 0)
        if found is None:
            continue
        jokers = subset[game.joker]
        value = sum(k * (i % game.rules.numbers + 1) for i, k in enumerate(subset[: game.joker]))
        gain = _add(found, (sum(subset), value, jokers, 0))
        if best is None or search.key(gain) > search.key(best[0]):
            best = (gain, subset)
    table_size = len(position.table_tiles())
    if best is None or search.key(best[0]) <= search.key((0, 0, 0, table_size)):
        return Answer(Score(0, 0, 0, 0), list(position.table))
    (count, value, jokers, kept), subset = best
    req = tuple(a + b for a, b in zip(table, subset, strict=True))
    opt = tuple(a - b for a, b in zip(rack, subset, strict=True))
    shapes = search.cover_witness(req, opt, 0)
    melds = [Meld(tuple(game.tiles[i] for i in shape)) for shape in shapes]
    return Answer(Score(count, value, table_size - kept, jokers), melds)


def oracle_score(
    position: Position,
    objective: str = "tiles",
    keep_jokers: bool = False,
    merge: bool = False,
    measure: str = "level",
) -> Score:
    """The best score vector of ``position`` (see :func:`oracle_answer`)."""
    return oracle_answer(position, objective, keep_jokers, merge, measure).score


def score_of(placed: list[Tile] | tuple[Tile, ...], moved: int) -> Score:
    """The score vector of a given move (placed rack tiles, number of moved table tiles)."""
    return Score(
        len(placed),
        sum(t.number or 0 for t in placed),
        moved,
        sum(t.is_joker for t in placed),
    )


def kept_tiles(old: Sequence[Meld], new: Sequence[Meld], merge: bool = False) -> int:
    """Most table tiles kept when the old melds are fitted into this new table (brute force).

    An independent check of the search's bookkeeping: every old meld goes into one new meld
    that still has room for all its tiles, or nowhere; with ``merge=False`` a new meld takes
    at most one old meld.
    """
    room = [Counter(meld.tiles) for meld in new]
    taken = [False] * len(new)
    order = sorted(old, key=len, reverse=True)

    def best(i: int) -> int:
        if i == len(order):
            return 0
        tiles = Counter(order[i].tiles)
        found = best(i + 1)
        for n, space in enumerate(room):
            if (merge or not taken[n]) and not tiles - space:
                space.subtract(tiles)
                was, taken[n] = taken[n], True
                found = max(found, len(order[i]) + best(i + 1))
                space.update(tiles)
                taken[n] = was
        return found

    return best(0)


def staying_tiles(
    old: Sequence[Meld],
    new: Sequence[Meld],
    old_read: Sequence[Meld] | None = None,
    new_read: Sequence[Meld] | None = None,
    parted_jokers: bool = True,
) -> int:
    """Most table tiles that stay when each old meld is paired with at most one new meld
    and each new meld with at most one old meld (brute force over pairings): an old meld
    without jokers keeps the tiles it has in common with its new meld, one with jokers all
    its tiles if it fits in it whole, else its real tiles in common (none with
    ``parted_jokers=False``, the table-joker rules). The measure ``"level"`` of a table.

    ``old_read``/``new_read``: the melds with their jokers read as tiles (table-joker rules:
    an old meld's meaning, a new meld's staying jokers), for the fit and the common tiles.
    """
    old_read = old if old_read is None else old_read
    new_read = new if new_read is None else new_read
    room = [Counter(meld.tiles) for meld in new_read]

    def stay(i: int, k: int) -> int:
        tiles = Counter(old_read[i].tiles)
        if old[i].jokers:
            if not tiles - room[k]:
                return len(old[i])
            if not parted_jokers:
                return 0
            return sum((Counter(t for t in old[i].tiles if not t.is_joker) & room[k]).values())
        return sum((tiles & room[k]).values())

    weights = [[stay(i, k) for k in range(len(new))] for i in range(len(old))]
    taken = [False] * len(new)

    def best(i: int) -> int:
        if i == len(old):
            return 0
        found = best(i + 1)
        for k in range(len(new)):
            if not taken[k] and weights[i][k]:
                taken[k] = True
                found = max(found, weights[i][k] + best(i + 1))
                taken[k] = False
        return found

    return best(0)
