"""Explain a move: where each tile of the new table comes from, and steps a person can follow.

Each old table meld *becomes* at most one new meld, the one that keeps most of its tiles
(:func:`rummikub.models.moves.becomes`); what they have in common stays where it lies, the
other tiles are picked up (the "moved" of reports). :func:`provenance` says, for every
tile of the new table, whether it came from the rack or from which old meld; the picked-up
tiles are matched to the new melds that need them so that tiles of one old meld stay
together (equal tiles are interchangeable, so a rack tile and an equal table tile may trade
the places the move marks for them).

:func:`explain` carries the move out on a simulated table, one step at a time: play a new
meld, swap a joker for its tile, trade a table joker for its tile with another meld, extend
a meld, take tiles off a meld, split a run, join two pieces; each step touches at most two
table melds (plus rack and loose tiles), and the order keeps every set on the table legal
whenever it can (extend before take). Replaying
the steps (:func:`rummikub.steps.replay.replay`) on the old position gives exactly the new
table. :func:`explanation` gives all of it at once, with each new meld's origin, the opening
meld of an opening turn and whether the move goes out.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cache
from itertools import combinations
from typing import Any, Final, Literal, cast, overload

from rummikub.models.errors import InternalError, SolverError
from rummikub.models.joker_plan import (
    JokerPlan,
    Role,
    TableJoker,
    as_meld,
    declared_meanings,
    joker_plan,
    plain,
    tagged,
)
from rummikub.models.jokers import JokerRule
from rummikub.models.meld import Meld, MeldKind, Reading
from rummikub.models.moves import becomes
from rummikub.models.position import Position
from rummikub.models.rules import RuleSet
from rummikub.models.tile import JOKER, Tile, sorted_tiles
from rummikub.solver.move import Move, NewMeld, Origin, table_joker_melds
from rummikub.steps.replay import Extend, Join, Play, Rearrange, Split, Step, Swap, Take, Trade

RACK: Final = "rack"
Source = int | Literal["rack"]
"""Where a tile of the new table comes from: ``"rack"`` or the index of an old table meld."""

FLAW: Final = "this move breaks the table-joker rule (a solver bug): "
LIMIT: Final = "these steps let a table joker change what it stands for: "
_IMPROVEMENT_PASSES = 50
_MAX_SUBSET = 8  # tiles at hand tried in every combination (a meld gets fewer at once)


class _NoSwap(SolverError):
    """A freed table joker's tile is no longer on the rack when its swap comes."""


def _ordered(meld: Meld, rules: RuleSet) -> bool:
    """Whether the order of the meld's tiles matters (it can be read as a run)."""
    kinds = as_meld(meld.tiles, meld.declared).kinds(rules)
    return not kinds or MeldKind.RUN in kinds


@cache
def _legal(tiles: tuple[Tile, ...], rules: RuleSet) -> bool:
    return as_meld(tiles).is_legal(rules)


def _is_set(meld: Meld, rules: RuleSet) -> bool:
    """Whether the meld is a legal set with each staying table joker standing for its tile."""
    return as_meld(meld.tiles, meld.declared).is_legal(rules)


def _cost(meld: Meld, dests: Sequence[int], ordered: bool, rules: RuleSet) -> int:
    """How badly an old meld is cut up when its tiles go to ``dests``: its pieces (blocks of
    consecutive tiles for runs, destinations for groups), the new melds it feeds, and its
    pieces of two or more tiles that are no legal set (they wait on the table, half-built)."""
    blocks: list[list[int]] = []
    if ordered:
        for p, d in enumerate(dests):
            if p == 0 or dests[p - 1] != d:
                blocks.append([])
            blocks[-1].append(p)
    else:
        for d in dict.fromkeys(dests):
            blocks.append([p for p, e in enumerate(dests) if e == d])
    half_built = sum(
        len(b) > 1 and not _legal(tuple(meld.tiles[p] for p in b), rules) for b in blocks
    )
    return len(blocks) + len(set(dests)) + half_built


@dataclass
class _Flow:
    """Tile by tile: the new meld each old table tile goes to and the source of each new tile."""

    where: list[list[int]]  # old meld -> position -> new meld
    sources: list[list[Source]]  # new meld -> position -> rack or old meld
    survivor: dict[int, int] = field(default_factory=dict)  # old meld -> new meld it becomes
    prefer: dict[int, int] = field(default_factory=dict)  # the solver's kept melds


def _goes_as(tile: Tile) -> Tile:
    """The tile an old table tile fills in the new table: a freed joker a host's slot."""
    if isinstance(tile, TableJoker) and tile.role is Role.FREED:
        return tagged(Role.HOSTED, tile.means)
    return tile


Items = dict[Tile, list[list[int]]]  # per tile type: [old meld or -1 (rack), place, new meld]


def _flow(move: Move, fresh: frozenset[int] = frozenset()) -> _Flow:
    """Match every tile of the new table to the rack or an old meld (see :func:`provenance`);
    no old meld becomes one of the ``fresh`` new melds."""
    rules = move.position.rules
    old, new = move.position.table, move.table
    slots: list[list[Source | None]] = [[None] * len(nm.meld) for nm in new]
    where: list[list[int]] = [[-1] * len(m) for m in old]
    kept_by_solver = {nm.source: j for j, nm in enumerate(new) if nm.source is not None}
    survivor = becomes(old, [nm.meld for nm in new], prefer=kept_by_solver, fresh=fresh)
    # Per tile type: the tiles that can fill the open positions (the rack's, marked i = -1,
    # and the old tiles that do not stay where they lie), each with the new meld it goes to.
    # Rack tiles start where the move marks them; equal tiles may then trade places.
    items: Items = defaultdict(list)
    _what_stays(old, new, survivor, slots, where, items)
    open_rack, open_table = _open_places(old, new, survivor, slots, items)
    guarded = rules.joker_rule is not JokerRule.FREE
    _first_destinations(items, open_rack, open_table, where, guarded)
    _trade_equal_tiles(move, items, where, guarded)
    incoming: dict[tuple[int, Tile], list[Source]] = defaultdict(list)
    for tile, group in items.items():
        for i, _, j in group:
            incoming[(j, tile)].append(RACK if i < 0 else i)
    for j, nm in enumerate(new):
        for q, tile in enumerate(nm.meld.tiles):
            if slots[j][q] is None:
                slots[j][q] = incoming[(j, tile)].pop()
    sources = [[s for s in row if s is not None] for row in slots]
    return _Flow(where, sources, survivor, kept_by_solver)


def _what_stays(
    old: Sequence[Meld],
    new: Sequence[NewMeld],
    survivor: dict[int, int],
    slots: list[list[Source | None]],
    where: list[list[int]],
    items: Items,
) -> None:
    """Each old meld that becomes a new one keeps the tiles they share where they lie; the
    rest of its tiles are picked up (into ``items``)."""
    for i, j in survivor.items():
        nm = new[j]
        stay = old[i].counts() & nm.meld.counts()
        # What stays of the old meld: positions not marked as from the rack first.
        fill = Counter(stay)
        for q in sorted(range(len(nm.meld)), key=lambda q: nm.from_rack[q]):
            tile = nm.meld.tiles[q]
            if fill[tile] > 0:
                fill[tile] -= 1
                slots[j][q] = i
        for p, tile in enumerate(old[i].tiles):
            if stay[tile] > 0:
                stay[tile] -= 1
                where[i][p] = j
            else:  # picked up: a joker swapped out, or a tile given to another meld
                items[_goes_as(tile)].append([i, p, -1])


def _open_places(
    old: Sequence[Meld],
    new: Sequence[NewMeld],
    survivor: dict[int, int],
    slots: list[list[Source | None]],
    items: Items,
) -> tuple[dict[Tile, list[int]], dict[Tile, list[int]]]:
    """The places still to fill, marked from the rack or not (the new meld of each), and
    every rack tile and tile of an old meld that becomes none, into ``items``."""
    open_rack: dict[Tile, list[int]] = defaultdict(list)
    open_table: dict[Tile, list[int]] = defaultdict(list)
    for j, nm in enumerate(new):
        for q, tile in enumerate(nm.meld.tiles):
            if nm.from_rack[q]:
                items[tile].append([-1, len(items[tile]), -1])
            if slots[j][q] is None:
                (open_rack if nm.from_rack[q] else open_table)[tile].append(j)
    for i, meld in enumerate(old):
        if i not in survivor:
            for p, tile in enumerate(meld.tiles):
                items[_goes_as(tile)].append([i, p, -1])
    return open_rack, open_table


def _first_destinations(
    items: Items,
    open_rack: dict[Tile, list[int]],
    open_table: dict[Tile, list[int]],
    where: list[list[int]],
    guarded: bool,
) -> None:
    """A new meld for every moving tile. Under the strict and locked rules the rack tiles go
    where the move marks them (a host's two rack tiles, a tile swapped for a joker: pinned
    later): rack tiles first, to the places marked from the rack."""
    for tile, group in items.items():
        if guarded:
            group.sort(key=lambda item: item[0] >= 0)
        targets = open_rack[tile] + open_table[tile]
        if len(group) != len(targets):
            raise SolverError(
                f"the move's tiles do not match the position: {len(group)}x {tile} "
                f"from the rack or moved, {len(targets)}x {tile} to place"
            )
        for item, j in zip(group, targets, strict=True):
            item[2] = j
            if item[0] >= 0:
                where[item[0]][item[1]] = j


def _trade_equal_tiles(move: Move, items: Items, where: list[list[int]], guarded: bool) -> None:
    """Local search: exchange the destinations of two equal tiles while that saves pieces."""
    rules, old = move.position.rules, move.position.table
    ordered = [_ordered(m, rules) for m in old]

    def cost(i: int) -> int:
        return _cost(old[i], where[i], ordered[i], rules) if i >= 0 else 0

    # Under the strict joker rule a freed joker's new set holds two tiles from the rack, and
    # under both a tile swapped for a joker stays where the swap puts it: a rack tile in a
    # set with a joker keeps its place (an equal table tile may not take it).
    holds_joker = [nm.meld.jokers > 0 for nm in move.table]

    def pinned(item: list[int]) -> bool:
        return guarded and item[0] < 0 and holds_joker[item[2]]

    def exchange(a: list[int], b: list[int]) -> None:
        a[2], b[2] = b[2], a[2]
        for item in (a, b):
            if item[0] >= 0:
                where[item[0]][item[1]] = item[2]

    for _ in range(_IMPROVEMENT_PASSES):
        improved = False
        for group in items.values():
            for a, b in combinations(group, 2):
                if a[2] == b[2] or a[0] == b[0] == -1 or pinned(a) or pinned(b):
                    continue
                touched = {a[0], b[0]}
                before = sum(cost(i) for i in touched)
                exchange(a, b)
                if sum(cost(i) for i in touched) < before:
                    improved = True
                    continue
                exchange(a, b)
        if not improved:
            break


def provenance(move: Move) -> list[tuple[Source, ...]]:
    """For each meld of the new table, for each of its tiles: ``"rack"`` or the old meld index.

    Kept and extended melds hold their old meld; the other moved table tiles are assigned so
    that each old meld falls into as few pieces as possible (consecutive pieces for runs).
    """
    return list(explanation(move, steps=False).provenance)


def _tag(move: Move) -> tuple[Move, JokerPlan | None]:
    """The move on the tables of :func:`rummikub.models.joker_plan.joker_plan` (its table
    jokers tagged; a tagged joker of the new table is no rack tile), under the strict and
    locked rules; else the move itself."""
    plan = joker_plan(move.position, move.melds, move.placed, table_joker_melds(move.table))
    if plan is None:
        return move, None
    table = tuple(
        replace(
            nm,
            meld=meld,
            from_rack=tuple(
                not isinstance(t, TableJoker) if t.is_joker else r
                for t, r in zip(meld.tiles, nm.from_rack, strict=True)
            ),
        )
        for nm, meld in zip(move.table, plan.new, strict=True)
    )
    position = replace(move.position, table=plan.old)
    table = _hosts_hold_rack_tiles(_swapped_tiles_stay(table, plan), plan)
    return replace(move, position=position, table=table), plan


def _swapped_tiles_stay(table: tuple[NewMeld, ...], plan: JokerPlan) -> tuple[NewMeld, ...]:
    """The table with from-rack marks traded between equal tiles so that a tile swapped
    for a freed table joker is, where it can be, the rack's copy in the new meld that the
    joker's old meld becomes: the swap then puts it where it stays, and an equal table
    tile goes where the rack's copy was to go."""
    swapped = [
        Counter(t.means for t in old.tiles if isinstance(t, TableJoker) and t.role is Role.FREED)
        for old in plan.old
    ]
    if not any(swapped):  # most moves free no joker: no pairing to work out
        return table
    new = [nm.meld for nm in table]
    prefer = {nm.source: j for j, nm in enumerate(table) if nm.source is not None}
    pairs = becomes(plan.old, new, prefer=prefer, fresh=plan.fresh)
    marks = [list(nm.from_rack) for nm in table]
    for i, j in pairs.items():
        for tile, count in swapped[i].items():
            here = [q for q, t in enumerate(new[j].tiles) if t == tile]
            table_copies = [q for q in here if not marks[j][q]]
            short = count - sum(marks[j][q] for q in here)
            elsewhere = [
                (k, p)
                for k, meld in enumerate(new)
                if k != j and k not in plan.fresh
                for p, t in enumerate(meld.tiles)
                if t == tile and marks[k][p]
            ]
            for q, (k, p) in zip(table_copies[: max(short, 0)], elsewhere, strict=False):
                marks[j][q], marks[k][p] = True, False
    return tuple(replace(nm, from_rack=tuple(m)) for nm, m in zip(table, marks, strict=True))


def _hosts_hold_rack_tiles(table: tuple[NewMeld, ...], plan: JokerPlan) -> tuple[NewMeld, ...]:
    """The table with from-rack marks traded between equal tiles so that each strict host
    holds two rack tiles (the placed tiles the rule counts may lie elsewhere in the move,
    also in another host). Unchanged when no trade gives every host two."""
    hosts = sorted(plan.fresh)
    if not hosts:
        return table
    places: dict[Tile, list[tuple[int, int]]] = defaultdict(list)
    for k, nm in enumerate(table):
        for p, tile in enumerate(nm.meld.tiles):
            if not tile.is_joker:
                places[tile].append((k, p))
    marked = {(k, p) for k, nm in enumerate(table) for p, r in enumerate(nm.from_rack) if r}
    share = _rack_tiles_per_host(places, marked, hosts)
    if share is None:
        return table
    marks = [
        [r and t.is_joker for t, r in zip(nm.meld.tiles, nm.from_rack, strict=True)] for nm in table
    ]
    for tile, where in places.items():
        quota = sum(w in marked for w in where)
        # Keep a mark where it was when it can stay: first the hosts' shares, then the rest.
        chosen = [
            w
            for h in hosts
            for w in sorted((w for w in where if w[0] == h), key=lambda w: w not in marked)[
                : share.get((tile, h), 0)
            ]
        ]
        rest = sorted(
            (w for w in where if w not in chosen),
            key=lambda w: (w not in marked, w[0] in plan.fresh),
        )
        for k, p in chosen + rest[: quota - len(chosen)]:
            marks[k][p] = True
    return tuple(replace(nm, from_rack=tuple(m)) for nm, m in zip(table, marks, strict=True))


def _rack_tiles_per_host(
    places: dict[Tile, list[tuple[int, int]]], marked: set[tuple[int, int]], hosts: list[int]
) -> dict[tuple[Tile, int], int] | None:
    """How many rack copies of each tile type each host holds so that every host holds two,
    or None when no sharing does: a flow from the rack copies of each type to the hosts'
    places of that type, two per host (augmenting paths; the graph has a few nodes, and
    OR-Tools' max flow would cost ~65 ms to import)."""
    supply = {tile: sum(w in marked for w in where) for tile, where in places.items()}
    room = {
        (tile, h): n
        for tile, where in places.items()
        for h in hosts
        if (n := sum(k == h for k, _ in where))
    }
    share: dict[tuple[Tile, int], int] = defaultdict(int)

    def augment(h: int, seen: set[Tile]) -> bool:
        """Give host ``h`` one more rack copy, taking one from another host if need be."""
        for (tile, host), n in room.items():
            if host != h or share[tile, h] >= n or tile in seen:
                continue
            seen.add(tile)
            if sum(share[tile, g] for g in hosts) < supply[tile]:
                share[tile, h] += 1
                return True
            for g in hosts:
                if g != h and share[tile, g] and augment_from(g, tile, seen):
                    share[tile, h] += 1
                    return True
        return False

    def augment_from(g: int, tile: Tile, seen: set[Tile]) -> bool:
        """Host ``g`` gives up a copy of ``tile`` and takes another tile instead."""
        share[tile, g] -= 1
        if augment(g, seen):
            return True
        share[tile, g] += 1
        return False

    for h in hosts:
        for _ in range(2):
            if not augment(h, set()):
                return None
    return dict(share)


def _untagged(steps: Sequence[Step], move: Move, plan: JokerPlan) -> list[Step]:
    """The steps with plain jokers: the old and new melds as written, the melds in between
    with their jokers undeclared."""
    originals = dict(zip(plan.old, move.position.table, strict=True))
    originals.update(zip(plan.new, move.melds, strict=True))

    def meld_of(meld: Meld) -> Meld:
        if meld in originals:
            return originals[meld]
        if not any(isinstance(t, TableJoker) for t in meld.tiles):
            return meld
        return Meld(tuple(plain(t) for t in meld.tiles))

    def value_of(value: object) -> object:
        if isinstance(value, Meld):
            return meld_of(value)
        if isinstance(value, tuple):
            return tuple(value_of(v) for v in value)
        if isinstance(value, Tile):
            return plain(value)
        return value

    def step_of(step: Step) -> Step:
        # One step kind at a time: replace() of the union type cannot be checked.
        untagged: Step = replace(
            cast(Any, step), **{f.name: value_of(getattr(step, f.name)) for f in fields(step)}
        )
        return untagged

    return [step_of(step) for step in steps]


def _laid_out(reading: Reading, tiles: Counter[Tile]) -> tuple[Tile, ...]:
    """The tiles in the order of the reading, each staying table joker where the tile it
    stands for lies (the other jokers in the remaining joker places)."""
    jokers = [t for t in sorted_tiles(tiles.elements()) if t.is_joker]
    layout = list(reading.laid_out())
    if reading.kind is MeldKind.RUN and reading.colour is not None:
        for q, (tile, number) in enumerate(zip(layout, reading.numbers, strict=True)):
            means = Tile(reading.colour, number)
            held = next((t for t in jokers if declared_meanings([t]) == (means,)), None)
            if tile.is_joker and held is not None:
                layout[q] = held
                jokers.remove(held)
    for q, tile in enumerate(layout):
        if tile == JOKER:
            layout[q] = jokers.pop(0)
    return tuple(layout)


def _in_order(tiles: Counter[Tile], layout: Sequence[Tile]) -> tuple[Tile, ...]:
    """The tiles of a multiset in the order they have in ``layout`` (the rest sorted after)."""
    left = Counter(tiles)
    out = []
    for tile in layout:
        if left[tile] > 0:
            left[tile] -= 1
            out.append(tile)
    return (*out, *sorted_tiles(left.elements()))


def _subsets(tiles: Counter[Tile]) -> list[Counter[Tile]]:
    """The non-empty sub-multisets of a few tiles, largest first (all of them first; beyond
    ``_MAX_SUBSET`` tiles, then only parts of the first ones)."""
    every = tuple(sorted_tiles(tiles.elements()))
    items = every[:_MAX_SUBSET]
    # In a fixed order (dict, not set: a joker's hash may differ from run to run), so the
    # same move gets the same steps in every process.
    found = dict.fromkeys(
        tuple(combo) for size in range(len(items), 0, -1) for combo in combinations(items, size)
    )
    if every:
        found.setdefault(every)
    return sorted((Counter(c) for c in found), key=lambda c: -c.total())


def _exchanged(meld: Meld, leaving: Tile, coming: Tile) -> Meld:
    """The meld with ``coming`` in the place of one ``leaving`` tile."""
    at = meld.tiles.index(leaving)
    return Meld((*meld.tiles[:at], coming, *meld.tiles[at + 1 :]))


def _swapped_by(
    jokers: list[tuple[Tile, int]], giving: Counter[Tile]
) -> list[tuple[Tile, int]] | None:
    """Under the strict and locked rules, the leaving jokers these tiles take the places
    of: a table joker only for the tile it stands for (its meld as it lies), another joker
    for any (None when a tile replaces none of them)."""
    freed: list[tuple[Tile, int]] = []
    left = list(jokers)
    for tile in giving.elements():
        match = next((j for j in left if isinstance(j[0], TableJoker) and j[0].means == tile), None)
        if match is None:
            match = next((j for j in left if not isinstance(j[0], TableJoker)), None)
        if match is None:
            return None
        left.remove(match)
        freed.append(match)
    return freed


@dataclass
class _Piece:
    """A meld or piece lying on the table while the move is carried out."""

    meld: Meld
    target: int | None  # the new meld it becomes (part of); None: it is taken apart
    out: list[tuple[Tile, int]]  # tiles still to leave it, each with the new meld it goes to


class _Explainer:
    """Carries a move out step by step on a simulated table and records the steps.

    Each step touches at most two table melds (plus rack and loose tiles). At every point
    the step chosen is the first that applies of: play a new meld whose tiles are all at
    hand; swap a leaving joker for its tile; trade a staying table joker for its tile with
    the meld it goes to; extend a meld with tiles at hand so that it
    stays legal; take leaving tiles off a meld that stays legal (or split off a legal piece);
    join two pieces of one new meld; only then take tiles off a meld that is left broken
    (the one leaving the fewest broken pieces). So broken sets lie on the table only when
    the move cannot be carried out otherwise, and as few at a time as this order finds.
    """

    def __init__(self, move: Move, flow: _Flow, planned: bool = False) -> None:
        self.rules = move.position.rules
        self.planned = planned  # the tables' jokers are tagged (joker_plan): swap the freed
        self.old = move.position.table
        self.new = [nm.meld for nm in move.table]
        self.steps: list[Step] = []
        self.taken_apart = 0  # melds lifted off whole as a last resort (see _take_apart)
        self.rack: dict[int, Counter[Tile]] = defaultdict(Counter)
        self.loose: dict[int, Counter[Tile]] = defaultdict(Counter)
        for j, row in enumerate(flow.sources):
            for tile, source in zip(self.new[j].tiles, row, strict=True):
                if source == RACK:
                    self.rack[j][tile] += 1
        self.pieces: list[_Piece] = []
        for i, meld in enumerate(self.old):
            home = flow.survivor.get(i)
            # A freed joker leaves its meld by a swap, even to come back as a free joker.
            out = [
                (t, j)
                for t, j in zip(meld.tiles, flow.where[i], strict=True)
                if j != home or _goes_as(t) != t
            ]
            self.pieces.append(_Piece(meld, home, out))
        homes = set(flow.survivor.values())
        self.unplayed = [j for j in range(len(self.new)) if j not in homes]
        self.guarded = self.rules.joker_rule is not JokerRule.FREE
        # Where a swapped-out joker may go: anywhere, but under the strict rule only into a
        # new set with two tiles from the rack (else the move keeps that joker's meaning and
        # it moves along, which is no swap).
        strict = self.rules.joker_rule is JokerRule.STRICT
        self.hosts = {
            j
            for j in range(len(self.new))
            if not strict or (j not in homes and self._rack_tiles(flow, j) >= 2)
        }

    # --- helpers --------------------------------------------------------------------------

    def _rack_tiles(self, flow: _Flow, j: int) -> int:
        """How many non-joker tiles of new meld ``j`` come from the rack."""
        pairs = zip(flow.sources[j], self.new[j].tiles, strict=True)
        return sum(s == RACK and not t.is_joker for s, t in pairs)

    def _at_hand(self, j: int) -> Counter[Tile]:
        return self.rack[j] + self.loose[j]

    def _of(self, j: int) -> list[_Piece]:
        return [p for p in self.pieces if p.target == j]

    def _done(self, piece: _Piece) -> bool:
        return (
            piece.target is not None
            and not piece.out
            and piece.meld == self.new[piece.target]
            and len(self._of(piece.target)) == 1
        )

    def _layout(self, tiles: Counter[Tile], j: int | None, order: Sequence[Tile] = ()) -> Meld:
        """Tiles as they are laid down: as the new meld ``j`` when they are all of it, else
        in a legal reading's order, else as they lay (``order``)."""
        if j is not None and tiles == self.new[j].counts():
            return self.new[j]
        found = as_meld(tuple(sorted_tiles(tiles.elements()))).readings(self.rules)
        if found:
            return Meld(_laid_out(found[0], tiles))
        return Meld(_in_order(tiles, order))

    def _legal(self, tiles: Counter[Tile]) -> bool:
        return _legal(tuple(sorted_tiles(tiles.elements())), self.rules)

    def _use(self, j: int, tiles: Counter[Tile]) -> tuple[tuple[Tile, ...], tuple[Tile, ...]]:
        """Take ``tiles`` for new meld ``j`` from the rack first, then from the loose tiles:
        (rack tiles, loose tiles), in the order of the new meld."""
        rack = tiles & self.rack[j]
        taken = tiles - rack
        self.rack[j] -= rack
        self.loose[j] -= taken
        layout = self.new[j].tiles
        return _in_order(rack, layout), _in_order(taken, layout)

    def _remainder(self, piece: _Piece, leaving: Counter[Tile]) -> tuple[Meld, ...]:
        """What is left of a piece when ``leaving`` tiles are lifted off it: one piece, two
        when taken from the middle of a run, none when all go."""
        rest = piece.meld.counts() - leaving
        if not rest:
            return ()
        if self._legal(rest) or not _ordered(piece.meld, self.rules):
            return (self._layout(rest, piece.target, piece.meld.tiles),)
        drop = Counter(leaving)
        blocks: list[list[Tile]] = [[]]
        for tile in piece.meld.tiles:
            if drop[tile] > 0:
                drop[tile] -= 1
                if blocks[-1]:
                    blocks.append([])
            else:
                blocks[-1].append(tile)
        return tuple(self._layout(Counter(b), piece.target, b) for b in blocks if b)

    def _replace(self, piece: _Piece, by: Sequence[_Piece]) -> None:
        at = self.pieces.index(piece)
        self.pieces[at : at + 1] = list(by)

    def _lift(self, piece: _Piece, leaving: list[tuple[Tile, int]]) -> None:
        """Move leaving tiles into the loose tiles of the melds they go to."""
        for tile, j in leaving:
            self.loose[j][tile] += 1
        rest = list(piece.out)
        for item in leaving:
            rest.remove(item)
        piece.out = rest

    # --- the kinds of step, in order of preference ------------------------------------------

    def _play(self) -> bool:
        for j in self.unplayed:
            if not self._of(j) and self._at_hand(j) == self.new[j].counts():
                rack, taken = self._use(j, self.new[j].counts())
                self.steps.append(Play(self.new[j], rack, taken))
                self.unplayed.remove(j)
                self.pieces.append(_Piece(self.new[j], j, []))
                return True
        return False

    def _extend(self, mend: bool = False) -> bool:
        """Add tiles at hand to a piece so that it is legal (``mend``: only to a broken one)."""
        for piece in self.pieces:
            j = piece.target
            if j is None or not self._at_hand(j) or len(self._of(j)) > 1:
                continue
            if mend and _is_set(piece.meld, self.rules):
                continue
            for adding in _subsets(self._at_hand(j)):
                tiles = piece.meld.counts() + adding
                if not self._legal(tiles):
                    continue
                before = piece.meld
                rack, taken = self._use(j, adding)
                piece.meld = self._layout(tiles, None if piece.out else j, before.tiles)
                self.steps.append(Extend(before, rack, taken, piece.meld))
                return True
        return False

    def _swap_freed(self) -> bool:
        """Swap the freed table jokers of a meld for the tiles they stand for, from the rack
        (first of all: the meld still lies as it did, its jokers standing for those tiles).
        A tile given that goes to another new meld leaves again later."""
        for piece in self.pieces:
            freed = [
                (t, d) for t, d in piece.out if isinstance(t, TableJoker) and t.role is Role.FREED
            ]
            if not freed:
                continue
            j = piece.target
            order = ([] if j is None else [j]) + [d for d in range(len(self.new)) if d != j]
            given: list[tuple[Tile, int]] = []
            for joker, _ in freed:
                if not isinstance(joker, TableJoker):
                    raise InternalError("a freed table joker without its tag")
                d = next((d for d in order if self.rack[d][joker.means] > 0), None)
                if d is None:
                    raise _NoSwap(
                        f"no {joker.means} is left on the rack to swap for the table joker "
                        "that stands for it"
                    )
                self.rack[d][joker.means] -= 1
                given.append((joker.means, d))
            before = piece.meld
            tiles = before.counts() - Counter(t for t, _ in freed) + Counter(t for t, _ in given)
            for joker, d in freed:
                piece.out.remove((joker, d))
                self.loose[d][_goes_as(joker)] += 1
            piece.out += [(tile, d) for tile, d in given if d != j]
            piece.meld = self._layout(tiles, None if piece.out else j, before.tiles)
            rack = _in_order(Counter(t for t, _ in given), before.tiles)
            self.steps.append(Swap(before, rack, (), piece.meld))
            return True
        return False

    def _swap(self) -> bool:
        """Swap leaving jokers for their tiles (under the strict and locked rules: tiles from
        the rack, and under strict only a joker going to a set that may host it)."""
        for piece in self.pieces:
            j = piece.target
            jokers = [(t, d) for t, d in piece.out if t.is_joker and d in self.hosts]
            if j is None or not jokers or len(self._of(j)) > 1:
                continue
            at_hand = self.rack[j] if self.guarded else self._at_hand(j)
            real = Counter({t: n for t, n in at_hand.items() if not t.is_joker})
            for giving in _subsets(real):
                if giving.total() > len(jokers):
                    continue
                freed = _swapped_by(jokers, giving) if self.guarded else jokers[: giving.total()]
                if freed is None:
                    continue
                tiles = piece.meld.counts() + giving - Counter(t for t, _ in freed)
                if not self._legal(tiles):
                    continue
                before = piece.meld
                rack, taken = self._use(j, giving)
                self._lift(piece, freed)
                piece.meld = self._layout(tiles, None if piece.out else j, before.tiles)
                self.steps.append(Swap(before, rack, taken, piece.meld))
                return True
        return False

    def _trade(self) -> bool:
        """Exchange a staying table joker leaving one set for the tile it stands for leaving
        another set for the first one's new meld: each takes the other's place, so both
        stay sets and the joker keeps its meaning (two melds trading in a circle cannot
        hand either over first without a broken set or a joker standing for nothing)."""
        for piece in self.pieces:
            j = piece.target
            if j is None or not _is_set(piece.meld, self.rules):
                continue
            for joker, k in piece.out:
                if not isinstance(joker, TableJoker) or joker.role is not Role.STAYS:
                    continue
                tile = joker.means
                other = next(
                    (
                        q
                        for q in self.pieces
                        if q.target == k and (tile, j) in q.out and _is_set(q.meld, self.rules)
                    ),
                    None,
                )
                if other is None:
                    continue
                here = _exchanged(piece.meld, joker, tile)
                there = _exchanged(other.meld, tile, joker)
                if not (_is_set(here, self.rules) and _is_set(there, self.rules)):
                    continue
                before = (piece.meld, other.meld)
                piece.out.remove((joker, k))
                other.out.remove((tile, j))
                piece.meld = self._layout(here.counts(), None if piece.out else j, here.tiles)
                other.meld = self._layout(there.counts(), None if other.out else k, there.tiles)
                self.steps.append(Trade(*before, tile, (piece.meld, other.meld)))
                return True
        return False

    def _segments(self, piece: _Piece) -> list[tuple[int | None, list[Tile]]]:
        """The piece as it lies, cut into stretches of tiles going to one place (None: they
        stay), each with that place."""
        going = list(piece.out)
        out: list[tuple[int | None, list[Tile]]] = []
        for tile in piece.meld.tiles:
            dest = next((d for t, d in going if t == tile), None)
            if dest is not None:
                going.remove((tile, dest))
            if out and out[-1][0] == dest:
                out[-1][1].append(tile)
            else:
                out.append((dest, [tile]))
        return out

    def _lift_plan(
        self, piece: _Piece
    ) -> tuple[list[tuple[Tile, int]], list[tuple[Meld, int | None]]]:
        """Which leaving tiles to lift off a piece, and the pieces that then lie on the table
        with what each becomes: a stretch of a run that is a legal set going whole to a new
        meld not yet begun stays lying, as the start of that meld (a split)."""
        carried: dict[int, list[Tile]] = {}
        if _ordered(piece.meld, self.rules) and _is_set(piece.meld, self.rules):
            segments = self._segments(piece)
            for dest, tiles in segments:
                if (
                    dest is not None
                    and dest in self.unplayed
                    and not self._of(dest)
                    and dest not in carried
                    and sum(d == dest for d, _ in segments) == 1
                    and _legal(tuple(tiles), self.rules)
                ):
                    carried[dest] = tiles
        lifted = [(t, d) for t, d in piece.out if d not in carried]
        if not carried:
            rest = self._remainder(piece, Counter(t for t, _ in lifted))
            return lifted, [(m, piece.target) for m in rest]
        leaving = Counter(t for t, _ in lifted) + Counter(
            t for tiles in carried.values() for t in tiles
        )
        left: list[tuple[Meld, int | None]] = []
        for dest, tiles in self._segments(piece):
            if dest in carried:
                left.append((self._layout(Counter(tiles), dest, tiles), dest))
            elif dest is None:
                left.append((Meld(tuple(tiles)), piece.target))
        home = [k for k, (_, d) in enumerate(left) if d == piece.target]
        home_tiles = piece.meld.counts() - leaving
        if home and home_tiles and (len(home) == 1 or self._legal(home_tiles)):
            order = [t for k in home for t in left[k][0].tiles]
            merged = (self._layout(home_tiles, piece.target, order), piece.target)
            left = [x for k, x in enumerate(left) if k not in home[1:]]
            left[home[0]] = merged
        return lifted, left

    def _take(self, broken: bool) -> bool:
        """Lift the leaving tiles off a piece; ``broken``: also when what stays is no set."""
        best: tuple[int, int, _Piece] | None = None
        for n, piece in enumerate(self.pieces):
            if not piece.out:
                continue
            _, left = self._lift_plan(piece)
            bad = sum(not _is_set(m, self.rules) for m, _ in left)
            if len(left) <= 2 and (not bad or broken) and (best is None or (bad, n) < best[:2]):
                best = (bad, n, piece)
        if best is None:
            return False
        piece = best[2]
        _, left = self._lift_plan(piece)
        jokers_alone = any(
            all(t.is_joker for t in m.tiles)
            # a table joker stands for nothing in a broken piece: none is left in one
            or (self.planned and m.jokers and not _is_set(m, self.rules))
            for m, _ in left
        )
        broken = any(not _is_set(p.meld, self.rules) for p in self.pieces)
        if best[0] and (jokers_alone or broken):
            # Rather than leave a joker alone, or a second broken set, lift this meld off.
            self._take_off(piece)
            return True
        lifted, left = self._lift_plan(piece)
        before = piece.meld
        if not lifted and len(left) == 1:  # it lies on whole as the start of a new set
            left = [(before, left[0][1])]
        self._lift(piece, lifted)
        for _, dest in left:
            if dest is not None and dest != piece.target and dest in self.unplayed:
                self.unplayed.remove(dest)
        self._replace(piece, [_Piece(m, d, []) for m, d in left])
        melds = tuple(m for m, _ in left)
        if lifted:
            self.steps.append(
                Take(before, _in_order(Counter(t for t, _ in lifted), before.tiles), melds)
            )
        elif len(melds) > 1:
            self.steps.append(Split(before, melds))
        return True

    def _retarget(self) -> bool:
        """A meld taken apart whose tiles all go to one new meld already begun is a part of
        it, to join (no step of its own)."""
        for piece in self.pieces:
            dests = {d for _, d in piece.out}
            if piece.target is None and len(dests) == 1 and len(piece.out) == len(piece.meld):
                (d,) = dests
                if self._of(d) and _is_set(piece.meld, self.rules):
                    piece.target, piece.out = d, []
                    return True
        return False

    def _join(self) -> bool:
        for j in {p.target for p in self.pieces if p.target is not None}:
            parts = [p for p in self._of(j) if not p.out]
            if len(parts) < 2:
                continue
            for a, b in combinations(parts, 2):
                for adding in [*_subsets(self._at_hand(j)), Counter[Tile]()]:
                    tiles = a.meld.counts() + b.meld.counts() + adding
                    if not self._legal(tiles):
                        continue
                    rack, taken = self._use(j, adding)
                    joined = _Piece(self._layout(tiles, j if len(parts) == 2 else None), j, [])
                    first = {t: q for q, t in reversed(list(enumerate(self.new[j].tiles)))}
                    melds = sorted(
                        (a.meld, b.meld), key=lambda m: min(first.get(t, 99) for t in m.tiles)
                    )
                    self.pieces.remove(b)
                    self._replace(a, [joined])
                    self.steps.append(Join(tuple(melds), rack, taken, joined.meld))
                    return True
        return False

    def _take_off(self, piece: _Piece) -> None:
        """Lift a whole piece off the table: its tiles go where they are going."""
        staying = piece.meld.counts() - Counter(t for t, _ in piece.out)
        self._lift(piece, list(piece.out))
        j = piece.target
        if j is not None:
            self.loose[j] += staying
        self.pieces.remove(piece)
        self.steps.append(Take(piece.meld, piece.meld.tiles, ()))
        if j is not None and not self._of(j):
            self.unplayed.append(j)

    def _take_whole(self) -> bool:
        """Last resort: lift a whole piece off the table for its new meld."""
        for piece in self.pieces:
            j = piece.target
            if j is not None and not piece.out and len(self._of(j)) > 1:
                self.loose[j] += piece.meld.counts()
                self.pieces.remove(piece)
                self.steps.append(Take(piece.meld, piece.meld.tiles, ()))
                if not self._of(j):
                    self.unplayed.append(j)
                return True
        return False

    def _take_apart(self) -> bool:
        """Last resort: lift a whole piece that still has tiles to give off the table (when
        lifting only those would cut it into more than two pieces)."""
        piece = next((p for p in self.pieces if p.out), None)
        if piece is None:
            return False
        self._take_off(piece)
        self.taken_apart += 1
        return True

    def _relay(self) -> bool:
        """A meld that holds its new tiles but lies otherwise: lay it out as the new meld."""
        for piece in self.pieces:
            j = piece.target
            if (
                j is not None
                and not piece.out
                and len(self._of(j)) == 1
                and piece.meld.counts() == self.new[j].counts()
                and piece.meld != self.new[j]
            ):
                self.steps.append(Rearrange((piece.meld,), (), (), (self.new[j],)))
                piece.meld = self.new[j]
                return True
        return False

    def run(self) -> list[Step]:
        """Every step, until the table is the new table."""
        kinds = (
            *((self._swap_freed,) if self.planned else ()),
            self._retarget,
            lambda: self._extend(mend=True),
            self._play,
            self._swap,
            self._trade,
            self._extend,
            lambda: self._take(broken=False),
            self._join,
            lambda: self._take(broken=True),
            self._take_whole,
            self._take_apart,
            self._relay,
        )
        budget = 4 * (sum(len(m) for m in self.new) + len(self.old)) + 10
        while self.unplayed or not all(self._done(p) for p in self.pieces):
            budget -= 1
            if budget < 0 or not any(kind() for kind in kinds):
                if self.planned:
                    raise SolverError("no order of steps found keeps every table joker's meaning")
                raise SolverError("the explanation found no way to carry out the move (a bug)")
        return self.steps


def _picked_up(move: Move, flow: _Flow) -> list[Tile]:
    """The tiles :func:`rummikub.models.moves.moved_tiles` counts, for the flow's pairing."""
    old, new = move.position.table, move.melds
    left = Counter[Tile]()
    for i, meld in enumerate(old):
        j = flow.survivor.get(i)
        left += meld.counts() - new[j].counts() if j is not None else meld.counts()
    return sorted_tiles(plain(t) for t in left.elements())


def _origins(move: Move, flow: _Flow) -> list[tuple[Origin, int | None]]:
    """Each new meld's origin and the old meld it becomes, by the tile flow."""
    becomes_of = {j: i for i, j in flow.survivor.items()}
    out: list[tuple[Origin, int | None]] = []
    for j, nm in enumerate(move.table):
        i = becomes_of.get(j)
        if i is None:
            rack_only = all(s == RACK for s in flow.sources[j])
            out.append((Origin.NEW if rack_only else Origin.REBUILT, None))
            continue
        old = move.position.table[i].counts()
        new = nm.meld.counts()
        if old == new:
            out.append((Origin.KEPT, i))
        elif all(t.is_joker for t in old - new) and new.total() >= old.total():
            # Tiles added, or a joker swapped out for a tile; jokers given away without
            # a tile for each is an old meld that gave tiles away (rebuilt).
            out.append((Origin.EXTENDED, i))
        else:
            out.append((Origin.REBUILT, i))
    return out


def _meld_value(meld: Meld, rules: RuleSet) -> int:
    """What a meld counts toward the opening: its best reading, jokers as their tiles."""
    return max((r.value for r in meld.readings(rules)), default=0)


def _best_melds(tiles: Sequence[Tile], rules: RuleSet) -> tuple[int, tuple[Meld, ...]]:
    """Disjoint legal sets of these tiles worth the most (some tiles may be left over), with
    as few jokers and then as few sets as that allows (a joker left on the rack need not be
    moved again, say swapped out of the opening meld for a tile the rest of the turn needs
    elsewhere)."""
    memo: dict[tuple[Tile, ...], tuple[int, tuple[Meld, ...]]] = {}

    def rank(value: int, melds: tuple[Meld, ...]) -> tuple[int, int, int]:
        return value, -sum(m.jokers for m in melds), -len(melds)

    def best(rest: tuple[Tile, ...]) -> tuple[int, tuple[Meld, ...]]:
        if not rest:
            return 0, ()
        if rest in memo:
            return memo[rest]
        first, others = rest[0], rest[1:]
        found = best(others)
        near = [
            k
            for k, u in enumerate(others)
            if u.is_joker or first.is_joker or u.colour == first.colour or u.number == first.number
        ]
        longest = max(rules.colours, rules.numbers) - 1
        for size in range(rules.min_len - 1, min(len(near), longest) + 1):
            for chosen in set(combinations(near, size)):
                meld = Meld((first, *(others[k] for k in chosen)))
                value = _meld_value(meld, rules)
                if not value and not meld.is_legal(rules):
                    continue
                left = tuple(u for k, u in enumerate(others) if k not in chosen)
                sub_value, sub = best(left)
                if rank(value + sub_value, (meld, *sub)) > rank(*found):
                    laid = Meld(meld.readings(rules)[0].laid_out())
                    found = (value + sub_value, (laid, *sub))
        memo[rest] = found
        return found

    return best(tuple(sorted_tiles(tiles)))


def _opening(move: Move, flow: _Flow, swapped: Counter[Tile]) -> tuple[Meld, ...]:
    """The opening meld of an opening turn: the new melds of rack tiles alone when they are
    worth enough, else (the turn went on to the table) sets of the placed tiles worth most,
    leaving on the rack the ``swapped`` tiles that replace table jokers later if it can."""
    position = move.position
    if not position.initial or move.is_draw:
        return ()
    rules = position.rules
    own = tuple(
        meld
        for meld, row in zip(move.melds, flow.sources, strict=True)
        if all(source == RACK for source in row)
    )
    left = Counter(position.rack) - Counter(t for m in own for t in m.tiles)
    if sum(_meld_value(m, rules) for m in own) >= rules.initial_threshold and not (swapped - left):
        return own
    kept = list((Counter(move.placed) - swapped).elements())
    value, melds = _best_melds(kept, rules)
    return melds if value >= rules.initial_threshold else _best_melds(move.placed, rules)[1]


def _after_opening(move: Move, opening: Sequence[Meld]) -> Move:
    """The rest of an opening turn that goes on to the table: the same new table, reached
    from the old table with the opening meld laid down and its tiles off the rack."""
    position = move.position
    laid = Counter(t for m in opening for t in m.tiles)
    rack = list(position.rack)
    for tile in laid.elements():
        rack.remove(tile)
    after = Position((*position.table, *opening), tuple(rack), False, position.rules)
    unmark = Counter(laid)
    table = []
    for nm in move.table:
        marks = list(nm.from_rack)
        for q, tile in enumerate(nm.meld.tiles):
            if marks[q] and unmark[tile] > 0:
                unmark[tile] -= 1
                marks[q] = False
        table.append(replace(nm, from_rack=tuple(marks), source=None))
    placed = list(move.placed)
    for tile in laid.elements():
        placed.remove(tile)
    return replace(move, position=after, table=tuple(table), placed=tuple(placed))


def _narration(
    move: Move,
    flow: _Flow,
    opening: Sequence[Meld],
    plan: JokerPlan | None,
    avoid: frozenset[int] = frozenset(),
) -> tuple[list[Step], int]:
    """The steps, and how many melds they take apart as a last resort; an opening that goes
    on to the table lays its opening meld first. With a ``plan`` the move is on its tagged
    tables (see :func:`_tag`). ``avoid``: new melds the steps build afresh although an old
    meld could become them."""
    planned = plan is not None
    fresh = (plan.fresh if plan is not None else frozenset()) | avoid
    if avoid:
        flow = _flow(move, fresh)
    plays: list[Step] = []
    if opening and move.position.rules.continue_after_initial:
        only_opening = Counter(t for m in opening for t in m.tiles) == Counter(move.placed)
        if not (only_opening and all(m in move.melds for m in opening)):
            plays = [Play(m, m.tiles) for m in opening]
            move = _after_opening(move, opening)
            flow = _flow(move, fresh)
    explainer = _Explainer(move, flow, planned)
    return plays + explainer.run(), explainer.taken_apart


def _steps(move: Move, flow: _Flow, opening: Sequence[Meld], plan: JokerPlan | None) -> list[Step]:
    """The steps (see :func:`_narration`). Which new meld an old one becomes is only a way
    to tell the move: where that way finds no order (on tagged tables: none that keeps
    every table joker's meaning) or must take a meld apart, the melds old ones become are
    built afresh, one at a time, then all, and the telling with the fewest melds taken
    apart, then the fewest steps, is kept."""
    best: tuple[list[Step], int] | None = None
    failure: SolverError | None = None
    try:
        best = _narration(move, flow, opening, plan)
    except _NoSwap:
        raise
    except SolverError as error:
        failure = error
    if best is not None and not best[1]:
        return best[0]
    survivors = sorted(set(flow.survivor.values()))
    tries = [frozenset([j]) for j in survivors] + [frozenset(survivors)] * (len(survivors) > 1)
    for avoid in tries:
        try:
            told = _narration(move, flow, opening, plan, avoid)
        except SolverError:
            continue
        if best is None or (told[1], len(told[0])) < (best[1], len(best[0])):
            best = told
    if best is None:
        if failure is None:
            raise InternalError("no narration and no reason why")
        raise failure
    return best[0]


@dataclass(frozen=True)
class Explanation:
    """A move as a person at the table sees it.

    ``steps`` carry the move out (empty when not asked for); ``provenance`` says, per new
    meld and tile, ``"rack"`` or the old meld it comes from; ``origins`` and ``sources`` say
    per new meld whether it is kept, extended, new or rebuilt and which old meld it becomes
    (see :func:`rummikub.models.moves.becomes`); ``picked_up`` are the table tiles the move
    picks up (:func:`rummikub.models.moves.picked_up`), the "moved" of reports. For an
    opening turn, ``opening`` is the opening meld and ``opening_value`` what it counts
    toward the threshold (jokers as the tiles they stand for); ``goes_out`` says the rack
    is emptied. ``flaw`` says why the steps cannot keep the strict or locked joker rule,
    when the move itself breaks it (a solver bug); the steps then carry it out as under
    the free rule. ``jokers`` says per new meld what each joker may stand for
    (:meth:`~rummikub.solver.move.NewMeld.joker_options`; under the strict and locked
    rules a table joker that keeps its meaning in a changed meld stands for that tile
    alone, one in a kept meld for what its layout lets it).
    """

    steps: tuple[Step, ...]
    provenance: tuple[tuple[Source, ...], ...]
    origins: tuple[Origin, ...]
    sources: tuple[int | None, ...]
    picked_up: tuple[Tile, ...]
    opening: tuple[Meld, ...] = ()
    opening_value: int | None = None
    goes_out: bool = False
    flaw: str | None = None
    jokers: tuple[list[tuple[int, list[Tile]]], ...] = ()


def explanation(move: Move, steps: bool = True) -> Explanation:
    """Everything a report says about a move beyond the move itself, worked out once."""
    on_tags, plan = _tag(move)
    flow = _flow(on_tags, plan.fresh if plan is not None else frozenset())
    swapped = Counter(
        t.means
        for meld in (plan.old if plan is not None else ())
        for t in meld.tiles
        if isinstance(t, TableJoker) and t.role is Role.FREED
    )
    opening = _opening(move, flow, swapped)
    walkthrough: list[Step] = []
    flaw = None
    rules = move.position.rules
    guarded = rules.joker_rule is not JokerRule.FREE
    if plan is None and guarded and any(m.jokers for m in move.position.table):
        flaw = FLAW + "its table jokers cannot all keep their meaning or be swapped for their tiles"
    if steps and plan is not None:
        try:
            walkthrough = _untagged(_steps(on_tags, flow, opening, plan), move, plan)
        except SolverError as error:
            # The move needs a swap the steps cannot give (say, its tile went into the
            # opening meld first): a flaw of the move; or no order of steps that keeps every
            # joker's meaning was found. Steps as under the free rule still carry it out.
            flaw = (FLAW if isinstance(error, _NoSwap) else LIMIT) + str(error)
            plain_flow = _flow(move)
            walkthrough = _steps(move, plain_flow, _opening(move, plain_flow, Counter()), None)
    elif steps:
        walkthrough = _steps(move, flow, opening, None)
    origins = _origins(on_tags, flow)
    return Explanation(
        tuple(walkthrough),
        tuple(tuple(row) for row in flow.sources),
        tuple(o for o, _ in origins),
        tuple(i for _, i in origins),
        tuple(_picked_up(on_tags, flow)),
        opening,
        sum(_meld_value(m, rules) for m in opening) if opening else None,
        not move.is_draw and not move.rack_left,
        flaw,
        tuple(
            nm.joker_options(
                move.position,
                # A kept meld's jokers still stand for what its old layout lets them.
                None
                if plan is None or origin is Origin.KEPT
                else declared_meanings(tagged_meld.tiles),
            )
            for nm, tagged_meld, (origin, _) in zip(move.table, on_tags.melds, origins, strict=True)
        ),
    )


@dataclass(frozen=True)
class Walkthrough(Sequence[Step]):
    """The steps of a move (a sequence: iterate, index, count them) and, in ``note``, why
    they could not keep the table-joker rule when the move itself breaks it (a solver bug:
    the steps then carry it out as under the free rule); None when they do."""

    steps: tuple[Step, ...]
    note: str | None = None

    @overload
    def __getitem__(self, index: int) -> Step: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Step]: ...

    def __getitem__(self, index: int | slice) -> Step | Sequence[Step]:
        return self.steps[index]

    def __len__(self) -> int:
        return len(self.steps)


def explain(move: Move) -> Walkthrough:
    """Steps a person can carry out to turn the old table and rack into the move's new table.

    Replaying them with :func:`rummikub.steps.replay.replay` on the move's position gives
    exactly the new table (the same melds, tile for tile) and the move's rack. Their
    ``note`` says when they fall back to the free joker rule (see :class:`Walkthrough`).
    """
    told = explanation(move)
    return Walkthrough(told.steps, told.flaw)


def explained(move: Move) -> tuple[list[Step], list[tuple[Source, ...]]]:
    """The steps and the provenance of a move together, the tile flow worked out once."""
    told = explanation(move)
    return list(told.steps), list(told.provenance)
