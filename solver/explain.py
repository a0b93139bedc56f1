"""Explain a move: where each tile of the new table comes from, and steps a person can follow.

:func:`provenance` says, for every tile of the new table, whether it came from the rack or
from which old table meld. Melds the move keeps or extends know their old meld; the other
table tiles are matched to the old melds they left so that tiles of one old meld stay
together (fewest pieces, runs cut into as few consecutive pieces as possible, and no
half-built pieces where a single tile can be taken instead). Equal tiles are interchangeable,
so a rack tile and an equal table tile may trade the places the move marks for them.

:func:`explain` turns that into :mod:`rummikub.models.steps`: the tiles flow from old melds
and the rack into new melds; each connected part of that flow is one independent group of
steps. An old meld whose tiles all go to one new meld stays whole; otherwise it is split
into consecutive pieces, or its odd tiles are taken off, or its joker is swapped for a rack
tile. Each new meld is then played (no piece of an old meld in it), extends its one piece,
or joins several pieces. A group whose old melds are all taken apart to the last tile, or
that would leave many illegal pieces lying about, is described as one rearrangement.
Replaying the steps (:func:`rummikub.models.steps.replay`) on the old position gives
exactly the new table.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations
from typing import Final, Literal

from rummikub.models.errors import SolverError
from rummikub.models.meld import Meld, MeldKind
from rummikub.models.moves import becomes, picked_up
from rummikub.models.rules import RuleSet
from rummikub.models.steps import Extend, Join, Play, Rearrange, Split, Step, Swap, Take
from rummikub.models.tile import JOKER, Tile
from rummikub.solver.move import Move, Origin

RACK: Final = "rack"
Source = int | Literal["rack"]
"""Where a tile of the new table comes from: ``"rack"`` or the index of an old table meld."""

_IMPROVEMENT_PASSES = 50
_MAX_SWAPPED = 3  # jokers freed by one swap at most (bounds the search for tiles to give)
_MAX_AWKWARD = 3  # more illegal pieces than this in one group: one rearrangement step


def _ordered(meld: Meld, rules: RuleSet) -> bool:
    """Whether the order of the meld's tiles matters (it can be read as a run)."""
    kinds = meld.kinds(rules)
    return not kinds or MeldKind.RUN in kinds


@cache
def _legal(tiles: tuple[Tile, ...], rules: RuleSet) -> bool:
    return Meld(tiles).is_legal(rules)


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


def _flow(move: Move) -> _Flow:
    """Match every tile of the new table to the rack or an old meld (see :func:`provenance`)."""
    rules = move.position.rules
    old = move.position.table
    new = move.table
    slots: list[list[Source | None]] = [[None] * len(nm.meld) for nm in new]
    where: list[list[int]] = [[-1] * len(m) for m in old]
    kept_by_solver = {nm.source: j for j, nm in enumerate(new) if nm.source is not None}
    survivor = becomes(old, [nm.meld for nm in new], prefer=kept_by_solver)
    # Per tile type: the tiles that can fill the open positions (the rack's, marked i = -1,
    # and the old tiles that do not stay where they lie), each with the new meld it goes to.
    # Rack tiles start where the move marks them; equal tiles may then trade places.
    items: dict[Tile, list[list[int]]] = defaultdict(list)
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
                items[tile].append([i, p, -1])
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
                items[tile].append([i, p, -1])
    for tile, group in items.items():
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

    ordered = [_ordered(m, rules) for m in old]

    def cost(i: int) -> int:
        return _cost(old[i], where[i], ordered[i], rules) if i >= 0 else 0

    # Local search: exchange the destinations of two equal tiles while that saves pieces.
    for _ in range(_IMPROVEMENT_PASSES):
        improved = False
        for group in items.values():
            for a, b in combinations(group, 2):
                if a[2] == b[2] or a[0] == b[0] == -1:
                    continue
                touched = {a[0], b[0]}
                before = sum(cost(i) for i in touched)
                a[2], b[2] = b[2], a[2]
                for item in (a, b):
                    if item[0] >= 0:
                        where[item[0]][item[1]] = item[2]
                if sum(cost(i) for i in touched) < before:
                    improved = True
                    continue
                a[2], b[2] = b[2], a[2]
                for item in (a, b):
                    if item[0] >= 0:
                        where[item[0]][item[1]] = item[2]
        if not improved:
            break

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


def provenance(move: Move) -> list[tuple[Source, ...]]:
    """For each meld of the new table, for each of its tiles: ``"rack"`` or the old meld index.

    Kept and extended melds hold their old meld; the other moved table tiles are assigned so
    that each old meld falls into as few pieces as possible (consecutive pieces for runs).
    """
    return [tuple(row) for row in _flow(move).sources]


@dataclass
class _Plan:
    """The steps of one connected group of old and new melds, built up meld by meld."""

    steps: list[Step] = field(default_factory=list)
    bases: dict[int, list[Meld]] = field(default_factory=lambda: defaultdict(list))
    loose: dict[int, Counter[Tile]] = field(default_factory=lambda: defaultdict(Counter))
    broken: set[int] = field(default_factory=set)
    awkward: int = 0  # pieces left on the table that are not legal sets
    pieces: int = 0  # old melds or parts of them that stay on the table to build on


def _in_order(tiles: Counter[Tile], layout: Sequence[Tile]) -> tuple[Tile, ...]:
    """The tiles of a multiset in the order they have in ``layout``."""
    left = Counter(tiles)
    out = []
    for tile in layout:
        if left[tile] > 0:
            left[tile] -= 1
            out.append(tile)
    if +left:
        raise AssertionError(f"tiles {left} missing from the layout {layout}")
    return tuple(out)


class _Explainer:
    """Derives the steps of a move from its tile flow."""

    def __init__(self, move: Move, flow: _Flow) -> None:
        self.rules = move.position.rules
        self.initial = move.position.initial
        self.old = move.position.table
        self.new = [nm.meld for nm in move.table]
        self.flow = flow
        self.rack: list[Counter[Tile]] = [
            Counter(t for t, s in zip(m.tiles, row, strict=True) if s == RACK)
            for m, row in zip(self.new, self.flow.sources, strict=True)
        ]

    def _feeders(self, j: int) -> list[int]:
        """The old melds that give tiles to new meld ``j``."""
        return sorted({s for s in self.flow.sources[j] if isinstance(s, int)})

    def _home(self, i: int) -> int:
        """The new meld old meld ``i`` becomes, else the one that receives most of it
        (rather one with rack tiles)."""
        if i in self.flow.survivor:
            return self.flow.survivor[i]
        counts = Counter(self.flow.where[i])
        return max(counts, key=lambda j: (counts[j], len(self.rack[j]) > 0, -j))

    def _frees_jokers(self, i: int) -> bool:
        """Whether a joker of old meld ``i`` leaves for another new meld than its home."""
        home = self._home(i)
        meld = self.old[i]
        return any(
            t.is_joker and j != home for t, j in zip(meld.tiles, self.flow.where[i], strict=True)
        )

    def _piece(self, tiles: Sequence[Tile], j: int) -> Meld:
        """A piece going to new meld ``j``, laid out as there when it is that whole meld."""
        if Counter(tiles) == self.new[j].counts():
            return self.new[j]
        return Meld(tuple(tiles))

    def _set_loose(self, i: int, positions: Sequence[int], plan: _Plan) -> None:
        for p in positions:
            plan.loose[self.flow.where[i][p]][self.old[i].tiles[p]] += 1

    def _swap(self, i: int, home: int, plan: _Plan) -> bool:
        """Free the leaving jokers of old meld ``i`` by giving real tiles of its home meld
        (after taking off its other leaving tiles, when what remains is legal). Records the
        steps; False when no such swap leaves a legal meld."""
        meld = self.old[i]
        dests = self.flow.where[i]
        others = [p for p, j in enumerate(dests) if j != home and not meld.tiles[p].is_joker]
        jokers = [p for p, j in enumerate(dests) if j != home and meld.tiles[p].is_joker]
        if len(jokers) > _MAX_SWAPPED:
            return False
        remainder = meld
        if others:
            remainder = Meld(tuple(t for p, t in enumerate(meld.tiles) if p not in others))
            if not remainder.is_legal(self.rules):
                return False
        for other in self._feeders(home):
            if other not in plan.broken and not self._frees_jokers(other):
                self._break(other, plan)
        kept = list(remainder.tiles)
        for _ in jokers:
            kept.remove(JOKER)
        offers = [(t, True) for t in sorted(self.rack[home].elements()) if not t.is_joker]
        offers += [(t, False) for t in sorted(plan.loose[home].elements()) if not t.is_joker]
        found: list[tuple[bool, tuple[Tile, ...], tuple[Tile, ...], Meld]] = []
        for give in sorted(set(combinations(offers, len(jokers)))):
            tiles = [*kept, *(t for t, _ in give)]
            result = self._piece(tiles, home)
            if result is not self.new[home]:
                readings = result.readings(self.rules)
                if not readings:
                    continue
                result = Meld(readings[0].laid_out())
            rack = tuple(t for t, from_rack in give if from_rack)
            taken = tuple(t for t, from_rack in give if not from_rack)
            found.append((result is not self.new[home], rack, taken, result))
        if not found:
            return False
        _, rack, taken, result = min(found, key=lambda f: f[0])
        if others:
            plan.steps.append(Take(meld, tuple(meld.tiles[p] for p in others), (remainder,)))
            self._set_loose(i, others, plan)
        layout = self.new[home].tiles
        plan.steps.append(
            Swap(
                remainder,
                _in_order(Counter(rack), layout),
                _in_order(Counter(taken), layout),
                result,
            )
        )
        self.rack[home] -= Counter(rack)
        plan.loose[home] -= Counter(taken)
        self._set_loose(i, jokers, plan)
        plan.bases[home].append(result)
        plan.pieces += 1
        return True

    def _break(self, i: int, plan: _Plan) -> None:
        """Step(s) that take old meld ``i`` apart into pieces and loose tiles for its new melds."""
        if i in plan.broken:
            return
        plan.broken.add(i)
        meld = self.old[i]
        dests = self.flow.where[i]
        if len(set(dests)) == 1:
            plan.bases[dests[0]].append(meld)
            plan.pieces += 1
            return
        if self._frees_jokers(i) and self._swap(i, self._home(i), plan):
            return
        ordered = _ordered(meld, self.rules)
        pieces: list[tuple[int, Meld]] = []
        loose: list[int] = []
        for j in dict.fromkeys(dests):
            at = [p for p, d in enumerate(dests) if d == j]
            whole = not ordered or at[-1] - at[0] == len(at) - 1
            real = sum(not meld.tiles[p].is_joker for p in at)
            if whole and len(at) >= 2 and real:
                pieces.append((j, self._piece([meld.tiles[p] for p in at], j)))
            else:
                loose += at
        parts = tuple(piece for _, piece in pieces)
        plan.awkward += sum(not piece.is_legal(self.rules) for piece in parts)
        if loose:
            loose.sort()
            plan.steps.append(Take(meld, tuple(meld.tiles[p] for p in loose), parts))
            self._set_loose(i, loose, plan)
        else:
            plan.steps.append(Split(meld, parts))
        for j, piece in pieces:
            plan.bases[j].append(piece)
            plan.pieces += 1

    def _build(self, j: int, plan: _Plan) -> None:
        """The step that completes new meld ``j`` from its pieces, rack and loose tiles."""
        result = self.new[j]
        bases = plan.bases.pop(j, [])
        rack = _in_order(self.rack[j], result.tiles)
        taken = _in_order(plan.loose.pop(j, Counter()), result.tiles)
        on_table = Counter(t for b in bases for t in b.tiles)
        if on_table + Counter(rack) + Counter(taken) != result.counts():
            raise AssertionError(f"the parts of '{result}' do not add up")
        if not bases:
            plan.steps.append(Play(result, rack, taken))
        elif len(bases) > 1:
            first = {t: q for q, t in reversed(list(enumerate(result.tiles)))}
            bases.sort(key=lambda b: min(first[t] for t in b.tiles if not t.is_joker))
            plan.steps.append(Join(tuple(bases), rack, taken, result))
        elif rack or taken:
            plan.steps.append(Extend(bases[0], rack, taken, result))
        elif bases[0] != result:
            plan.steps.append(Rearrange((bases[0],), (), (), (result,)))

    def _group(self, olds: list[int], news: list[int]) -> list[Step]:
        """The steps of one connected group: each new meld once its parts are ready."""
        plan = _Plan()
        for j in news:
            for i in sorted(self._feeders(j), key=self._frees_jokers):
                self._break(i, plan)
            self._build(j, plan)
        # Described as one rearrangement: a group of old melds all taken apart to the last
        # tile, or one that would leave too many illegal pieces lying about.
        if plan.awkward > _MAX_AWKWARD or (len(olds) > 1 and not plan.pieces):
            rack = tuple(
                t
                for j in news
                for t, s in zip(self.new[j].tiles, self.flow.sources[j], strict=True)
                if s == RACK
            )
            melds = tuple(self.old[i] for i in olds)
            return [Rearrange(melds, rack, (), tuple(self.new[j] for j in news))]
        return plan.steps

    def steps(self) -> list[Step]:
        """Every step, group by group in the order of the new table."""
        parent = list(range(len(self.old) + len(self.new)))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        offset = len(self.old)
        for i, dests in enumerate(self.flow.where):
            for j in dests:
                parent[find(i)] = find(offset + j)
        groups: dict[int, tuple[list[int], list[int]]] = {}
        for j in range(len(self.new)):
            groups.setdefault(find(offset + j), ([], []))[1].append(j)
        for i in range(len(self.old)):
            groups[find(i)][0].append(i)
        order = list(groups.values())
        if self.initial:  # the opening meld (melds of rack tiles alone) goes down first
            order.sort(key=lambda group: bool(group[0]))
        out: list[Step] = []
        for olds, news in order:
            out += self._group(olds, news)
        return out


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
        elif all(t.is_joker for t in old - new):  # tiles added, or a joker swapped out
            out.append((Origin.EXTENDED, i))
        else:
            out.append((Origin.REBUILT, i))
    return out


@dataclass(frozen=True)
class Explanation:
    """A move as a person at the table sees it.

    ``steps`` carry the move out (empty when not asked for); ``provenance`` says, per new
    meld and tile, ``"rack"`` or the old meld it comes from; ``origins`` and ``sources`` say
    per new meld whether it is kept, extended, new or rebuilt and which old meld it becomes
    (see :func:`rummikub.models.moves.becomes`); ``picked_up`` are the table tiles the move
    picks up (:func:`rummikub.models.moves.picked_up`), the "moved" of reports.
    """

    steps: tuple[Step, ...]
    provenance: tuple[tuple[Source, ...], ...]
    origins: tuple[Origin, ...]
    sources: tuple[int | None, ...]
    picked_up: tuple[Tile, ...]


def explanation(move: Move, steps: bool = True) -> Explanation:
    """Everything a report says about a move beyond the move itself, worked out once."""
    flow = _flow(move)
    walkthrough = _Explainer(move, flow).steps() if steps else []
    origins = _origins(move, flow)
    return Explanation(
        tuple(walkthrough),
        tuple(tuple(row) for row in flow.sources),
        tuple(o for o, _ in origins),
        tuple(i for _, i in origins),
        tuple(picked_up(move.position.table, move.melds, flow.prefer)),
    )


def explain(move: Move) -> list[Step]:
    """Steps a person can carry out to turn the old table and rack into the move's new table.

    Replaying them with :func:`rummikub.models.steps.replay` on the move's position gives
    exactly the new table (the same melds, tile for tile) and the move's rack.
    """
    return _Explainer(move, _flow(move)).steps()


def explained(move: Move) -> tuple[list[Step], list[tuple[Source, ...]]]:
    """The steps and the provenance of a move together, the tile flow worked out once."""
    flow = _flow(move)
    return _Explainer(move, flow).steps(), [tuple(row) for row in flow.sources]
