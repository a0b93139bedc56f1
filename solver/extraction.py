"""From variable values to a readable new table: melds in natural shape, tiles attributed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations, product

from rummikub.models.meld import Meld, MeldKind
from rummikub.models.position import Position
from rummikub.models.tile import JOKER, Tile
from rummikub.solver.formulation import Formulation
from rummikub.solver.move import NewMeld, Origin
from rummikub.solver.table_jokers import TableJokerRules


class ExtractionError(RuntimeError):
    """A solution that cannot be read back as a table: a bug in the model or the reader."""


# Per column: (old meld, its staying jokers laid there, its own tiles claimed there; None
# when a staying joker may lie anywhere, in the relaxation solved first).
Wants = list[tuple[int, Counter[Tile], Counter[Tile] | None]]


def _by_column(
    laid: Sequence[tuple[int, int, Tile, int]],
    claims: Sequence[tuple[int, int, Tile, int]] | None,
    old: Sequence[Meld],
) -> dict[int, Wants]:
    """The staying jokers laid outside their own meld and the claimed tiles, by column.
    Where the model claims no tile (a meld with one joker, nothing else contesting the
    column's places) any tile of the old meld may be the one beside its joker."""
    found: dict[int, dict[int, tuple[Counter[Tile], Counter[Tile]]]] = {}
    for m, col, tile, count in laid:
        found.setdefault(col, {}).setdefault(m, (Counter(), Counter()))[0][tile] += count
    if claims is None:
        return {col: [(m, j, None) for m, (j, _) in melds.items()] for col, melds in found.items()}
    claimed = set()
    for m, col, tile, count in claims:
        if m in found.get(col, {}):
            found[col][m][1][tile] += count
            claimed.add((m, col))
    for col, melds in found.items():
        for m, (_, tiles) in melds.items():
            if (m, col) not in claimed:
                tiles.update(t for t in old[m].tiles if not t.is_joker)
    return {col: [(m, j, q) for m, (j, q) in melds.items()] for col, melds in found.items()}


def _lay_with_their_sets(
    targets: list[_Draft], wants: Wants, keep_real: dict[int, Counter[Tile]], limit: int
) -> None:
    """Turn tiles of the copies of one column into the staying jokers laid there, each copy
    that takes jokers of an old meld beside a tile of that meld kept real (claimed), within
    ``limit`` jokers a copy. Copies are interchangeable: any fitting choice is one table."""
    free = [
        Counter(d.tiles) - keep_real.get(id(d), Counter()) - Counter({JOKER: 99}) for d in targets
    ]
    room = [limit - d.jokers() for d in targets]
    plan = _fit(wants, free, room)
    if plan is None:
        raise ExtractionError(f"staying jokers {wants} do not fit beside their melds' tiles")
    for copy, tiles, claimed in plan:
        draft = targets[copy]
        for tile in tiles:
            draft.to_joker(tile, 1)
        if claimed is not None:
            keep_real.setdefault(id(draft), Counter())[claimed] += 1


def _lay_beside(
    drafts: list[_Draft], tile: Tile, count: int, old: Meld, keep_real: dict[int, Counter[Tile]]
) -> int:
    """Turn ``tile`` into staying jokers of ``old`` in drafts that hold it and a free tile
    of ``old`` (kept real there), one a draft; how many."""
    mine = [t for t in old.tiles if not t.is_joker]
    done = 0
    for draft in drafts:
        if done == count:
            break
        free = Counter(draft.tiles) - keep_real.get(id(draft), Counter())
        beside = next((u for u in mine if free[u] > 0), None)
        if free[tile] > 0 and beside is not None and draft.to_joker(tile, 1):
            keep_real.setdefault(id(draft), Counter())[beside] += 1
            done += 1
    return done


def _lay_anywhere(
    left: dict[int, Counter[Tile]],
    built: list[_Draft],
    survived: dict[int, _Draft],
    keep_real: dict[int, Counter[Tile]],
    old: Sequence[Meld],
) -> None:
    """The relaxation's staying jokers the model laid nowhere: each in a set holding its
    tile, beside a tile of its old meld where one does (so that the table keeps the rule
    whenever it can), else in another meld's survival."""
    for m, tiles in left.items():
        mine = {t for t in old[m].tiles if not t.is_joker}
        for tile, count in (+tiles).items():
            drafts = sorted(built, key=lambda d: not mine.intersection(d.tiles))  # stable
            others = [d for k, d in survived.items() if k != m]
            for draft, kept in [*((d, False) for d in drafts), *((d, True) for d in others)]:
                if count:
                    skip = keep_real.get(id(draft), Counter())
                    if kept:  # another meld's own tiles stay real
                        skip = skip + draft.original
                    count -= draft.to_joker(tile, count, skip=skip)
            if count:
                raise ExtractionError(f"a staying joker as {tile} has no place")


Plan = list[tuple[int, set[Tile], Tile | None]]  # (copy, tiles that become jokers, claimed)


def _fit(wants: Wants, free: list[Counter[Tile]], room: list[int]) -> Plan | None:
    """A choice of copies for each meld's staying jokers and claimed tiles (a search over
    a handful of copies), or None."""
    if not wants:
        return []
    (_, jokers, claims), rest = wants[0], wants[1:]
    for per_copy in _spreads(jokers, len(free)):
        for chosen in _claims(per_copy, claims, free, room):
            left, space = [Counter(f) for f in free], list(room)
            for copy, tiles, claimed in chosen:
                left[copy] -= Counter([*tiles, *([claimed] if claimed else [])])
                space[copy] -= len(tiles)
            after = _fit(rest, left, space)
            if after is not None:
                return chosen + after
    return None


def _spreads(jokers: Counter[Tile], copies: int) -> Iterator[dict[int, set[Tile]]]:
    """Ways to put each tile's staying jokers in distinct copies (fewest copies first)."""
    tiles = sorted(jokers, key=Tile.sort_key)
    options = [list(combinations(range(copies), jokers[t])) for t in tiles]
    spreads = []
    for choice in product(*options):
        per_copy: dict[int, set[Tile]] = {}
        for tile, where in zip(tiles, choice, strict=True):
            for copy in where:
                per_copy.setdefault(copy, set()).add(tile)
        spreads.append(per_copy)
    yield from sorted(spreads, key=len)


def _claims(
    per_copy: dict[int, set[Tile]],
    claims: Counter[Tile] | None,
    free: list[Counter[Tile]],
    room: list[int],
) -> Iterator[Plan]:
    """Every way to give each copy in ``per_copy`` a claimed tile, when its jokers fit
    (``claims`` None: no tile needed beside them)."""
    copies = sorted(per_copy)
    if any(len(per_copy[c]) > room[c] or any(free[c][t] < 1 for t in per_copy[c]) for c in copies):
        return
    if claims is None:
        yield [(c, per_copy[c], None) for c in copies]
        return
    choices = [[u for u in claims if free[c][u] > 0 and u not in per_copy[c]] for c in copies]
    for picked in product(*choices):
        if not Counter(picked) - claims:
            yield [(c, per_copy[c], u) for c, u in zip(copies, picked, strict=True)]


def _as_written(table: tuple[NewMeld, ...], old: tuple[Meld, ...]) -> tuple[NewMeld, ...]:
    """The new table with each meld made of an old meld's tiles lying as that meld was
    written: its jokers read as its layout lets them (the model may have read an ambiguous
    joker otherwise, or laid a group's joker elsewhere; nothing depends on it), so an
    untouched meld needs no step. The from-rack marks go with their tiles."""
    left: dict[tuple[tuple[int, int], ...], list[int]] = {}  # tiles -> old melds, not yet used
    for i, meld in enumerate(old):
        left.setdefault(_tiles_key(meld), []).append(i)
    out = []
    for nm in table:
        same = left.get(_tiles_key(nm.meld))
        if same:
            i = nm.source if nm.source in same else same[0]
            same.remove(i)
            marks: dict[Tile, list[bool]] = {}
            for tile, mark in zip(nm.meld.tiles, nm.from_rack, strict=True):
                marks.setdefault(tile, []).append(mark)
            nm = replace(nm, meld=old[i], from_rack=tuple(marks[t].pop() for t in old[i].tiles))
        out.append(nm)
    return tuple(out)


def _tiles_key(meld: Meld) -> tuple[tuple[int, int], ...]:
    """The meld's tiles as a multiset, hashable (jokers are equal to each other); by their
    sort keys, which hash and compare without calling back into Python."""
    return tuple(sorted([t.sort_key() for t in meld.tiles]))


@dataclass
class _Draft:
    tiles: tuple[Tile, ...]
    kind: MeldKind
    source: int | None = None
    original: Counter[Tile] = field(default_factory=Counter)
    meanings: dict[int, Tile] = field(default_factory=dict)  # joker position -> its tile

    def jokers(self) -> int:
        return sum(t.is_joker for t in self.tiles)

    def meld(self) -> Meld:
        declared = tuple(self.meanings.get(i) for i, t in enumerate(self.tiles) if t.is_joker)
        return Meld(self.tiles, declared)

    def to_joker(
        self, tile: Tile, limit: int, skip: Counter[Tile] | None = None, declare: bool = True
    ) -> int:
        """Turn up to ``limit`` copies of ``tile`` into jokers standing for it (declared when
        the joker must keep that meaning); the first ``skip[tile]`` copies are left alone.
        Returns how many."""
        tiles = list(self.tiles)
        done = 0
        seen = 0
        for i, t in enumerate(tiles):
            if done == limit:
                break
            if t == tile:
                seen += 1
                if skip is not None and seen <= skip[tile]:
                    continue
                tiles[i] = JOKER
                if declare:
                    self.meanings[i] = tile
                done += 1
        if done and self.kind is MeldKind.GROUP:  # a joker's place in a group means nothing
            order = sorted(range(len(tiles)), key=lambda i: tiles[i].is_joker)
            self.meanings = {order.index(i): t for i, t in self.meanings.items()}
            tiles = [tiles[i] for i in order]
        self.tiles = tuple(tiles)
        return done


def _run_span(tiles: tuple[Tile, ...]) -> tuple[int, int]:
    for i, tile in enumerate(tiles):
        if tile.number is not None:
            start = tile.number - i
            return start, start + len(tiles) - 1
    raise ValueError("a run of jokers only has no fixed span")


def _merge_runs(drafts: list[_Draft], max_jokers: int, longest: int) -> list[_Draft]:
    """Join runs of one colour that continue each other (r1-3 + r4-6 prints as r1-6), up to
    ``longest`` tiles (under wrap-around, r1-3 + r4 r5 r1 must not become r1-5 r1)."""
    kinds = [d.kind is MeldKind.RUN and any(not t.is_joker for t in d.tiles) for d in drafts]
    runs = [d for d, run in zip(drafts, kinds, strict=True) if run]
    others = [d for d, run in zip(drafts, kinds, strict=True) if not run]
    runs.sort(key=lambda d: (_colour(d), _run_span(d.tiles)))
    merged: list[_Draft] = []
    for run in runs:
        colour, (start, _) = _colour(run), _run_span(run.tiles)
        for prev in merged:
            if (
                _colour(prev) == colour
                and _run_span(prev.tiles)[1] + 1 == start
                and len(prev.tiles) + len(run.tiles) <= longest
                and sum(t.is_joker for t in prev.tiles + run.tiles) <= max_jokers
            ):
                offset = len(prev.tiles)
                prev.meanings.update({offset + i: t for i, t in run.meanings.items()})
                prev.tiles = prev.tiles + run.tiles
                break
        else:
            merged.append(_Draft(run.tiles, run.kind, meanings=dict(run.meanings)))
    return merged + others


def _colour(draft: _Draft) -> int:
    return next(int(t.colour) for t in draft.tiles if t.colour is not None)


def _declared_positions(meld: Meld) -> dict[int, Tile]:
    slots = [i for i, t in enumerate(meld.tiles) if t.is_joker]
    return {i: d for i, d in zip(slots, meld.declared, strict=False) if d is not None}


def extract(
    position: Position, model: Formulation, values: tuple[int, ...]
) -> tuple[tuple[NewMeld, ...], tuple[Tile, ...]]:
    """The new table (each new meld marking its rack tiles) and the placed rack tiles of a
    solution."""
    reader = _Reader(position, model, values)
    reader.survivals()
    reader.copies_of_sets()
    if model.table_jokers is not None:
        reader.table_jokers(model.table_jokers)
    reader.stand_ins()
    return reader.table(), tuple(reader.placed.elements())


class _Reader:
    """One solution read back, step by step (see :func:`extract`)."""

    def __init__(self, position: Position, model: Formulation, values: tuple[int, ...]) -> None:
        self.position, self.model, self.values = position, model, values
        rules = self.rules = position.rules
        self.placed = Counter[Tile]()
        for var, t in model.placed.items():
            self.placed[rules.tile_types[t]] += values[var]
        # Under strict/locked rules, table jokers that stayed are solved as the tile they
        # stand for; they are turned back into jokers below: in their own meld's survival,
        # or where the model lays them beside a tile of their old meld.
        jokers = model.table_jokers
        self.stay = jokers.staying(rules, values) if jokers else {}
        self.freed = jokers.freed(values) if jokers else Counter[int]()
        self.anywhere = jokers is not None and not jokers.with_their_sets
        self.laid = [
            (m, col, tile, count)
            for m, col, tile, count in (jokers.placed_jokers(rules, values) if jokers else ())
            if not (col in model.kept and model.kept[col][0] == m)
        ]
        self.own = {m: Counter(tiles) for m, tiles in self.stay.items()}
        for m, _, tile, count in self.laid:
            self.own[m][tile] -= count
        self.survived: dict[int, _Draft] = {}
        self.parted: set[int] = set()  # survivals that gave tiles away
        self.built: list[_Draft] = []
        self.copies: dict[int, list[_Draft]] = {}
        self.real_in: dict[int, Counter[Tile]] = {}  # id of a host copy's draft -> rack tiles
        self.keep_real: dict[int, Counter[Tile]] = {}  # id of a draft -> tiles kept real

    def survivals(self) -> None:
        """The old melds that become a new meld (a survival column), their staying jokers
        in them; on an opening turn the whole table as it is."""
        chosen = self.model.chosen_survivals(self.values)
        self.parted = {m for m, survival in chosen.items() if survival.dropped}
        for m, survival in chosen.items():
            old = self.position.table[m]
            mine = +self.own.pop(m, Counter())
            if survival.as_it_stands and not self.freed[m] and mine == self.stay.get(m, Counter()):
                draft = _Draft(old.tiles, survival.kind, m, old.counts())
                draft.meanings = _declared_positions(old)
            else:
                draft = _Draft(survival.tiles, survival.kind, m, old.counts())
                for tile, count in mine.items():
                    draft.to_joker(tile, count)
            draft.original[JOKER] -= self.freed[m]
            self.survived[m] = draft
        if self.position.initial:
            self.survived = {
                m: _Draft(meld.tiles, MeldKind.RUN, m, meld.counts(), _declared_positions(meld))
                for m, meld in enumerate(self.position.table)
            }

    def copies_of_sets(self) -> None:
        """A draft per chosen copy of each set."""
        for var, s in self.model.sets.items():
            if self.values[var]:
                self.copies[var] = [_Draft(s.tiles, s.kind) for _ in range(self.values[var])]
                self.built += self.copies[var]

    def table_jokers(self, jokers: TableJokerRules) -> None:
        """Hosts' rack tiles, then the staying jokers where the model lays them."""
        rules, values = self.rules, self.values
        # Under strict rules a host set holds a freed joker with rack tiles: those tiles
        # stay real there. In turn over the hosting copies, so that each holds two of them.
        turn = Counter[int]()
        for col, hosting, tile, count in jokers.host_rack_tiles(rules, values):
            for _ in range(count):
                draft = self.copies[col][turn[col] % hosting]
                turn[col] += 1
                self.real_in.setdefault(id(draft), Counter())[tile] += 1
        self.keep_real.update({key: Counter(tiles) for key, tiles in self.real_in.items()})
        claims = None if self.anywhere else jokers.claimed_tiles(rules, values)
        for col, wants in _by_column(self.laid, claims, self.position.table).items():
            _lay_with_their_sets(
                self._targets(col), wants, self.keep_real, rules.max_jokers_per_set
            )
        if self.anywhere:
            return
        for (m, tile), cols in jokers.loose_columns(rules).items():
            if self.own.get(m, Counter())[tile] > 0:
                drafts = [d for col in cols for d in self._targets(col)]
                self.own[m][tile] -= _lay_beside(
                    drafts, tile, self.own[m][tile], self.position.table[m], self.keep_real
                )
        if any(+left for left in self.own.values()):
            raise ExtractionError(f"staying table jokers with no place: {self.own}")

    def _targets(self, col: int) -> list[_Draft]:
        """The drafts of a column: a survival's meld, or the copies of a set."""
        if col in self.model.kept:
            return [self.survived[self.model.kept[col][0]]] if self.values[col] else []
        return self.copies.get(col, [])

    def stand_ins(self) -> None:
        """The jokers the model counts as standing in for tiles (the wildcard form), and
        in the relaxation the staying jokers it laid nowhere."""
        model, rules, values = self.model, self.rules, self.values
        self.built.sort(key=lambda d: id(d) in self.real_in)  # hosts last
        wild = Counter[Tile]()
        if model.stand_ins is not None:  # jokers standing in for tiles of sets, kept melds
            wild = model.stand_ins.standing_in(rules, values)
            for col, tile in model.stand_ins.filled_slots(rules, values):
                # a kept meld's own jokers, where they are: a meld kept as it is was laid
                # out as the original, jokers included.
                draft = self.survived[model.kept[col][0]]
                as_laid = model.kept[col][1].added == 0
                wild[tile] -= 1 if as_laid else draft.to_joker(tile, 1, declare=False)
            if model.table_jokers is not None:  # strict: the jokers in host copies
                self._hosted(model.table_jokers.hosted_stand_ins(rules, values), wild)
        if self.anywhere:  # after the hosts' jokers: those have their places there
            hosts_last = sorted(self.built, key=lambda d: id(d) in self.real_in)
            _lay_anywhere(self.own, hosts_last, self.survived, self.keep_real, self.position.table)
        if not +wild:  # no joker stands in (most solutions): nothing to lay
            return
        for draft in self.built:
            for tile in [t for t, k in wild.items() if k > 0]:
                skip = self.keep_real.get(id(draft))  # host rack tiles, tiles beside jokers
                wild[tile] -= draft.to_joker(tile, wild[tile], skip=skip, declare=False)
        for draft in self.survived.values():  # a joker standing in for an added tile
            skip = draft.original + self.keep_real.get(id(draft), Counter())
            for tile in list(+wild):
                wild[tile] -= draft.to_joker(tile, wild[tile], skip=skip, declare=False)
        if +wild:
            raise ExtractionError(f"jokers standing in with no place: {+wild}")

    def _hosted(self, hosted: Counter[Tile], wild: Counter[Tile]) -> None:
        """The jokers that lie in host copies (freed ones among them), in those copies."""
        hosts = [d for d in self.built if id(d) in self.real_in]
        for tile, count in hosted.items():
            wild[tile] -= count
            for draft in hosts:
                if count:
                    skip = self.keep_real[id(draft)]
                    count -= draft.to_joker(tile, 1, skip=skip, declare=False)
            if count:
                raise ExtractionError("a joker the model counts in a host has no place")

    def table(self) -> tuple[NewMeld, ...]:
        """The new melds, each tile marked as from the rack or not, with their origins."""
        built = _merge_runs(self.built, self.rules.max_jokers_per_set, self.rules.numbers)
        built.sort(key=lambda d: sorted([t.sort_key() for t in d.tiles]))
        moved = [  # the tiles of melds that do not survive: what new melds are built from
            t
            for m, meld in enumerate(self.position.table)
            if m not in self.survived
            for t in meld.tiles
        ]
        rack_pool, table_pool = Counter(self.placed), Counter(moved)
        table_pool[JOKER] += sum(self.freed[m] for m in self.survived)  # freed from survivals
        for draft in self.survived.values():
            # A tile of a surviving meld that now lies elsewhere (a staying joker that moved
            # along, or the real tile it stood for) is a moved table tile like any other.
            away = draft.original - Counter(draft.tiles)
            draft.original -= away
            table_pool += away
        result: dict[int, NewMeld] = {}
        # Melds of rack tiles alone are "new"; extensions prefer rack tiles; the rest rebuilt.
        for i, draft in enumerate(built):
            need = Counter(draft.tiles)
            if all(rack_pool[t] >= k for t, k in need.items()):
                rack_pool -= need
                result[i] = NewMeld(draft.meld(), Origin.NEW, None, (True,) * len(draft.tiles))
        kept_melds = [self._survivor(m, rack_pool, table_pool) for m in sorted(self.survived)]
        for i, draft in enumerate(built):
            if i not in result:
                marks = tuple(_from_second(table_pool, rack_pool, tile) for tile in draft.tiles)
                origin = Origin.NEW if all(marks) else Origin.REBUILT
                result[i] = NewMeld(draft.meld(), origin, None, marks)
        if +rack_pool or +table_pool or -rack_pool or -table_pool:
            raise ExtractionError(f"tiles left over: rack {rack_pool}, table {table_pool}")
        melds = tuple(kept_melds) + tuple(result[i] for i in range(len(built)))
        return _as_written(melds, self.position.table)

    def _survivor(self, m: int, rack_pool: Counter[Tile], table_pool: Counter[Tile]) -> NewMeld:
        """The new meld old meld ``m`` becomes: its own tiles, then rack tiles, then others."""
        draft = self.survived[m]
        original = Counter(draft.original)
        marks = []
        for tile in draft.tiles:
            if original[tile] > 0:
                original[tile] -= 1
                marks.append(False)
            else:
                marks.append(not _from_second(rack_pool, table_pool, tile))
        if m in self.parted:
            origin = Origin.REBUILT
        elif len(draft.tiles) == len(self.position.table[m]):
            origin = Origin.KEPT
        else:
            origin = Origin.EXTENDED
        return NewMeld(draft.meld(), origin, m, tuple(marks))


def _from_second(first: Counter[Tile], second: Counter[Tile], tile: Tile) -> bool:
    """Take ``tile`` from ``first`` if it holds one, else from ``second``; whether it came
    from ``second``."""
    if first[tile] > 0:
        first[tile] -= 1
        return False
    second[tile] -= 1
    return True
