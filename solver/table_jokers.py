"""Table jokers under the strict and locked rules: a joker stays (as its tile) or is freed.

For each table meld with jokers, ``u[m,a]`` picks one joint meaning ``a`` of its jokers
(``sum_a u[m,a] = 1``), and per tile type ``t`` the jokers standing for ``t`` either stay
(``stay[m,t]``: still on the table as ``t``, so cover row ``t`` gets ``- stay``: a table
tile of type ``t``) or are freed (``freed[m,t]``: replaced by a ``t`` from the rack, and
a joker to place: the joker row gets ``- freed``):

    stay[m,t] + freed[m,t] = sum_a count_t(meaning a) u[m,a]

A freed joker needs its tile from the rack (``y[t] >= freed + host tiles``). Under strict
rules it must also go into a new meld with at least two (non-joker) rack tiles: hosts
``h[s]`` (copies of joker set ``s`` holding freed jokers, within ``x[s]``) with ``w[s,t]``
rack tiles of type ``t`` in them (``sum_t w[s,t] >= 2 h[s]``) and ``sum_s jokers_s h[s] >=
freed jokers``. Which physical joker sits where does not matter (two jokers can swap
places), so that is exact. With more jokers in play than a set may hold, ``s[c,t]`` says
in which column a staying joker lies, so the per-set joker limit still holds.

A joker that stays must stay with its set (the printed rule): it ends the turn in its old
meld's survival (a ``k`` column of that meld), or in another column ``c`` (a set, or an
added place of another meld's survival) beside a real tile of its old meld. There
``p[m,c,t]`` staying jokers of meld ``m`` standing for ``t`` lie in the copies of ``c`` and
``q[m,c,u]`` copies of ``c`` hold ``m``'s own tile ``u`` (a claim):

    sum_c p[m,c,t] <= stay[m,t] <= sum_c p[m,c,t] + sum of m's survivals holding t
    sum_u q[m,c,u] >= p[m,c,t]       (a copy with m's jokers holds a tile of m; m's jokers
                                      standing for different tiles share copies)
    sum_c q[m,c,u] + r_mu sum k[m,.] <= r_mu   (m's r_mu tiles u, all in its survival if any)
    sum_m (p[m,c,t] + q[m,c,t]) + rack tiles of hosts at t <= x[c]   (one place t per copy)

Tiles of one type are interchangeable, so claims that fit these counts can be laid. When
jokers per set could overflow, the jokers that stay in their own meld's survival get
``p`` variables too (``stay = sum_c p``) and each column caps its jokers.

Runs longer than the catalogue's may host a freed joker too (:func:`long_hosts`): they
are most of the strict model's columns and most of its solve time, yet rarely needed; a
model without them was tried as a first, cheaper solve and dropped (it reached the bound
on 8 of 72 positions that needed more than the relaxed move; benchmarks/README).

In the wildcard form (:mod:`~rummikub.solver.stand_ins`: joker-free sets, jokers as
stand-ins ``v[t]``) the hosts need no joker sets: ``h[s]`` host copies of joker-free set
``s`` (within ``x[s]``), ``w[s,t] <= h[s]`` rack tiles of type ``t`` in them
(``sum_t w[s,t] >= 2 h[s]``), and ``g[t]`` stand-ins for ``t`` that lie in host copies:
``g[t] <= v[t]`` and ``g[t] <= sum_s (h[s] - w[s,t])`` over the sets holding ``t`` (a
host copy's place ``t`` holds a joker or a rack tile, not both), ``sum_t g[t] >= freed
jokers``. Every host copy holds two rack tiles, so a joker anywhere in one may be the
freed one: the per-type sums are exact. Long host runs (:func:`long_host_runs`) are
joker-free runs used only as hosts (``h[s] = x[s]``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations

from rummikub.models.meld import Meld, MeldKind
from rummikub.models.rules import RuleSet
from rummikub.models.tile import JOKER, Tile
from rummikub.solver.catalogue import CatalogueSet
from rummikub.solver.program import Cover, Extension, Formulation
from rummikub.solver.sets import mask
from rummikub.solver.stand_ins import StandIns

Pinned = dict[tuple[int, int], list[tuple[int, int]]]  # (column, tile) -> terms laid there
OwnColumns = list[tuple[int, frozenset[int]]]  # a meld's survival columns and their tiles


@dataclass(frozen=True, slots=True)
class MeldJokers:
    """The table jokers of one meld and their variables.

    ``meanings`` are the possible joint meanings of the meld's jokers (tile-type indices,
    sorted); ``choose[a]`` picks meaning ``a``; per tile type ``t`` the jokers standing for
    it either stay (``stay[t]``) or are freed (``freed[t]``).
    """

    meld: int
    meanings: tuple[tuple[int, ...], ...]
    choose: tuple[int, ...]
    stay: dict[int, int]
    freed: dict[int, int]


@dataclass
class TableJokerRules(Extension):
    """The strict/locked table-joker variables of a model and how to read them back."""

    strict: bool
    meanings: dict[int, tuple[tuple[int, ...], ...]]  # meld -> its jokers' joint meanings
    rack: Counter[int]
    jokers_in_play: int
    melds: list[MeldJokers] = field(default_factory=list)
    of_meld: dict[int, MeldJokers] = field(default_factory=dict)
    hosts: dict[int, int] = field(default_factory=dict)  # h var -> x var of its set
    host_tiles: list[tuple[int, int, int]] = field(default_factory=list)  # (w, x var, tile)
    real: dict[int, Counter[int]] = field(default_factory=dict)  # meld -> its real tiles
    # Off: a staying joker may lie anywhere as its tile (the relaxation solved first).
    with_their_sets: bool = True
    # (meld, tile) -> columns where its one staying joker may lie without a p (uncontested)
    loose: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    # p var -> (meld, column, tile): staying jokers of a meld standing for tile in a column
    placements: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    # q var -> (meld, column, tile): copies of a column holding that meld's own tile
    claims: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    # The wildcard form's stand-ins: hosts are then joker-free sets (see the module docstring).
    stand_ins: StandIns | None = None
    host_stand_ins: dict[int, int] = field(default_factory=dict)  # g var -> tile it stands for

    def add_columns(self, model: Formulation, cover: Cover) -> None:
        """``u``, ``stay`` and ``freed`` per meld with jokers, and their cover terms."""
        joker = model.rules.joker_index
        for m, options in self.meanings.items():
            choose = tuple(model.add_variable(f"u{m}_{a}", 0, 1) for a in range(len(options)))
            model.add_constraint(f"meaning[{m}]", tuple((v, 1) for v in choose), 1, 1)
            jokers = MeldJokers(m, options, choose, {}, {})
            for t in sorted({t for meaning in options for t in meaning}):
                at_most = max(meaning.count(t) for meaning in options)
                stay = jokers.stay[t] = model.add_variable(f"stay{m}_{t}", 0, at_most)
                freed = jokers.freed[t] = model.add_variable(f"freed{m}_{t}", 0, at_most)
                chosen = (
                    (v, -meaning.count(t)) for v, meaning in zip(choose, options, strict=True)
                )
                model.add_constraint(
                    f"stay or free[{m},{t}]", ((stay, 1), (freed, 1), *chosen), 0, 0
                )
                cover.add(t, stay, -1)  # a staying joker is a table tile of type t
                cover.add(joker, freed, -1)  # a freed joker is a joker to place
            self.melds.append(jokers)
            self.of_meld[m] = jokers

    def add_constraints(self, model: Formulation) -> None:
        """Staying jokers stay with their sets; freed jokers need their tile (and, strict, a
        host); one tile per place of a copy; under overflow, jokers per set."""
        capped = self.jokers_in_play > model.rules.max_jokers_per_set
        pinned = self._with_their_sets(model, capped)
        self._replacement(model, pinned)
        self._one_tile_per_place(model, pinned)
        if capped:
            self._jokers_per_set(model)

    def _replacement(self, model: Formulation, pinned: Pinned) -> None:
        placed_var = {t: var for var, t in model.placed.items()}
        uses: dict[int, list[tuple[int, int]]] = {t: [] for t in placed_var}
        freed_terms: list[tuple[int, int]] = []
        for jokers in self.melds:
            for t, var in jokers.freed.items():
                freed_terms.append((var, 1))
                if t not in placed_var:  # no such tile on the rack: this joker cannot be freed
                    model.add_constraint(f"cannot free {var}", ((var, 1),), 0, 0)
                else:
                    uses[t].append((var, 1))
        if self.strict and freed_terms:
            if self.stand_ins is None:
                host_terms = self._hosts(model, placed_var, uses)
            else:
                host_terms = self._wildcard_hosts(model, self.stand_ins, placed_var, uses, pinned)
            freed = tuple((v, -c) for v, c in freed_terms)
            model.at_least("freed jokers in hosts", (*host_terms, *freed), 0)
        for t, terms in uses.items():
            if terms:
                var = placed_var[t]
                model.add_constraint(
                    f"rack supplies {t}", ((var, 1), *((v, -c) for v, c in terms)), 0, self.rack[t]
                )

    def _hosts(
        self,
        model: Formulation,
        placed_var: dict[int, int],
        uses: dict[int, list[tuple[int, int]]],
    ) -> list[tuple[int, int]]:
        """``h[s]`` and ``w[s,t]`` for every joker set with two rack tiles; the jokers
        they hold (``jokers_s h[s]``)."""
        joker = model.rules.joker_index
        host_terms: list[tuple[int, int]] = []
        for var, s in list(model.sets.items()):
            jokers_in = dict(s.counts).get(joker, 0)
            real = [(t, a) for t, a in s.counts if t != joker and t in placed_var]
            if not jokers_in or len(real) == 0 or sum(a for _, a in real) < 2:
                continue
            upper = model.variables[var].upper
            host = model.add_variable(f"h{var}", 0, upper)
            self.hosts[host] = var
            # A host copy is one of the x[s] copies, not an extra one.
            model.at_most(f"host within x{var}", ((host, 1), (var, -1)), 0)
            from_rack = []
            for t, a in real:
                w = _in_copies(model, f"w{var}_{t}", host, a)
                self.host_tiles.append((w, var, t))
                uses[t].append((w, 1))
                from_rack.append((w, 1))
            model.at_least(f"two rack tiles in host {var}", (*from_rack, (host, -2)), 0)
            host_terms.append((host, jokers_in))
        return host_terms

    def _wildcard_hosts(
        self,
        model: Formulation,
        stand_ins: StandIns,
        placed_var: dict[int, int],
        uses: dict[int, list[tuple[int, int]]],
        pinned: Pinned,
    ) -> list[tuple[int, int]]:
        """``h[s]``, ``w[s,t]`` for every joker-free set with two rack tile types, and the
        stand-ins in host copies ``g[t]`` (see the module docstring)."""
        longest = model.rules.max_run_in_catalogue
        bounds = model.variables
        places: dict[int, list[tuple[int, int]]] = {}  # t -> host places of type t, minus w
        for var, s in list(model.sets.items()):
            real = [t for t, _ in s.counts if t in placed_var]
            if len(real) < 2:
                continue
            upper = bounds[var].upper
            if s.kind is MeldKind.RUN and len(s.tiles) > longest:  # only there to host
                host = var
            else:
                host = model.add_variable(f"h{var}", 0, upper)
                model.add_constraint(f"host within x{var}", ((host, 1), (var, -1)), -upper, 0)
            self.hosts[host] = var
            both = len(real) == 2  # both rack tiles in every host copy: w[s,t] = h[s]
            from_rack = []
            for t, _ in s.counts:
                if both and t in real:
                    self.host_tiles.append((host, var, t))
                    uses[t].append((host, 1))
                    continue
                room: list[tuple[int, int]] = [(host, 1)]
                if t in real:
                    w = model.add_variable(f"w{var}_{t}", 0, upper)
                    model.add_constraint(f"w{var}_{t} in host", ((w, 1), (host, -1)), -upper, 0)
                    self.host_tiles.append((w, var, t))
                    uses[t].append((w, 1))
                    from_rack.append((w, 1))
                    room.append((w, -1))
                places.setdefault(t, []).extend(
                    _room_beside(model, var, t, room, pinned.get((var, t)))
                )
            if not both:
                name = f"two rack tiles in host {var}"
                model.add_constraint(name, (*from_rack, (host, -2)), 0, len(real) * upper)
        stand_in_for = {t: v for v, t in stand_ins.of_tile.items()}
        open_slots: dict[int, list[tuple[int, int]]] = {}  # kept melds' own jokers (not hosts)
        for z, (_, t) in stand_ins.open_slots.items():
            open_slots.setdefault(t, []).append((z, 1))
        host_terms: list[tuple[int, int]] = []
        for t, terms in sorted(places.items()):
            if t not in stand_in_for:
                continue
            g = model.add_variable(f"g{t}", 0, stand_ins.jokers)
            self.host_stand_ins[g] = t
            room = [(v, -c) for v, c in terms]  # host copies' places of type t, minus w
            lowest = -sum(bounds[v].upper for v, c in terms if c > 0)
            model.add_constraint(f"host places[{t}]", ((g, 1), *room), lowest, 0)
            among = ((g, 1), *open_slots.get(t, ()), (stand_in_for[t], -1))
            model.at_most(f"stand-ins in hosts[{t}]", among, 0)
            host_terms.append((g, 1))
        return host_terms

    def _with_their_sets(self, model: Formulation, capped: bool) -> Pinned:
        """``p`` and ``q`` (module docstring) for every meld with jokers; the terms they
        put in each contested place ``(column, tile)``."""
        pinned: Pinned = {}
        if not self.with_their_sets:
            if capped:  # only where they lie, for the jokers per set
                self._anywhere(model, pinned)
            return pinned
        open_places = _open_places(model)
        reach = {j.meld: self._reach(model, j, open_places) for j in self.melds}
        crowd = Counter[tuple[int, int]]()  # place -> how many p and q may lie there
        for found in reach.values():
            for col, holds, claimable in found:
                crowd.update((col, t) for t in (*holds, *claimable))
        hosted = self._host_places(model)

        def contested(col: int, tile: int) -> bool:
            return crowd[(col, tile)] > 1 or (col, tile) in hosted

        for jokers in self.melds:
            m = jokers.meld
            placed, claimed, own = self._placements(
                model, jokers, reach[m], pinned, capped, contested
            )
            self._stay_with_their_sets(model, jokers, placed, own, capped)
            for u, count in self.real[m].items():
                if u in claimed:  # a meld that survives keeps all its tiles
                    model.at_most(
                        f"tiles {u} of meld {m}",
                        (*claimed[u], *((k, count) for k, _ in own)),
                        count,
                    )
        return pinned

    def _anywhere(self, model: Formulation, pinned: Pinned) -> None:
        """``p[m,c,t]`` in every column holding ``t`` (any meld's place), ``stay = sum p``:
        where each staying joker lies, for the jokers per set, wherever it goes."""
        joker = model.rules.joker_index
        columns = [(var, s.counts) for var, s in model.sets.items()]
        columns += [(var, survival.counts) for var, (_, survival) in model.kept.items()]
        for jokers in self.melds:
            m = jokers.meld
            placed: dict[int, list[tuple[int, int]]] = {}
            for col, counts in columns:
                for t, a in counts:
                    if t != joker and t in jokers.stay:
                        upper = a * model.variables[col].upper
                        p = model.add_variable(f"p{m}_{col}_{t}", 0, upper)
                        self.placements[p] = (m, col, t)
                        placed.setdefault(t, []).append((p, 1))
                        pinned.setdefault((col, t), []).append((p, 1))
            for t, stay in jokers.stay.items():
                terms = (*placed.get(t, ()), (stay, -1))
                model.add_constraint(f"stay[{m},{t}] placed", terms, 0, 0)

    def _reach(
        self, model: Formulation, jokers: MeldJokers, open_places: dict[int, frozenset[int]]
    ) -> list[tuple[int, list[int], list[int]]]:
        """(column, staying tiles it may hold, the meld's tiles beside them) for every
        column where the meld's staying jokers may lie besides its own survival."""
        m, real = jokers.meld, self.real[jokers.meld]
        found = []
        for col, places in open_places.items():
            if col in model.kept and model.kept[col][0] == m:
                continue
            holds = [t for t in jokers.stay if t in places]
            claimable = [u for u in real if u in places]
            if holds and claimable:
                found.append((col, holds, claimable))
        return found

    def _host_places(self, model: Formulation) -> set[tuple[int, int]]:
        """Places where a strict host's rack tile (or, in the wildcard form, a freed joker)
        may lie: staying jokers and claimed tiles there must count them."""
        if not self.strict:
            return set()
        rack = set(model.placed.values())
        joker = model.rules.joker_index
        found: set[tuple[int, int]] = set()
        for col, s in model.sets.items():
            types = [t for t, _ in s.counts if t != joker]
            if len([t for t in types if t in rack]) < 2:
                continue
            if self.stand_ins is not None:  # any place of a joker-free host copy
                found.update((col, t) for t in types)
            elif dict(s.counts).get(joker):
                found.update((col, t) for t in types if t in rack)
        return found

    def _placements(
        self,
        model: Formulation,
        jokers: MeldJokers,
        reach: list[tuple[int, list[int], list[int]]],
        pinned: Pinned,
        capped: bool,
        contested: Callable[[int, int], bool],
    ) -> tuple[dict[int, list[tuple[int, int]]], dict[int, list[tuple[int, int]]], OwnColumns]:
        """The ``p`` and ``q`` of one meld's jokers, by tile; its survival columns.

        A meld whose jokers are one at a time needs one tile beside its joker: where no
        other ``p`` or ``q`` and no host may take a place of the column, a copy holding its
        joker holds a tile of it (tiles of a kind are interchangeable), so no ``q`` is made
        there; the reader then picks the tile."""
        m, real = jokers.meld, self.real[jokers.meld]
        single = all(len(meaning) == 1 for meaning in jokers.meanings)
        placed: dict[int, list[tuple[int, int]]] = {}
        claimed: dict[int, list[tuple[int, int]]] = {}
        own: OwnColumns = [
            (k, frozenset(t for t, _ in survival.counts))
            for k, (owner, survival) in model.kept.items()
            if owner == m
        ]
        for col, holds, claimable in reach:
            upper = model.variables[col].upper
            claims = []
            if single and not capped and not any(contested(col, v) for v in (*holds, *claimable)):
                for t in holds:  # no p: the column's copies count (see _stay_with_their_sets)
                    self.loose.setdefault((m, t), []).append(col)
                continue
            if not single or any(contested(col, u) for u in claimable):
                for u in claimable:
                    q = model.add_variable(f"q{m}_{col}_{u}", 0, min(upper, real[u]))
                    self.claims[q] = (m, col, u)
                    claims.append((q, 1))
                    claimed.setdefault(u, []).append((q, 1))
                    if contested(col, u):
                        pinned.setdefault((col, u), []).append((q, 1))
            for t in holds:
                p = model.add_variable(f"p{m}_{col}_{t}", 0, upper)
                self.placements[p] = (m, col, t)
                if claims:
                    model.at_least(f"claims for p{m}_{col}_{t}", (*claims, (p, -1)), 0)
                placed.setdefault(t, []).append((p, 1))
                if contested(col, t) or capped:
                    pinned.setdefault((col, t), []).append((p, 1))
                else:
                    model.at_most(f"p{m}_{col}_{t} in copies", ((p, 1), (col, -1)), 0)
        if capped:  # where in its own survival: the jokers per set count them
            for k, types in own:
                for t in jokers.stay:
                    if t in types:
                        p = model.add_variable(f"p{m}_{k}_{t}", 0, 1)
                        self.placements[p] = (m, k, t)
                        placed.setdefault(t, []).append((p, 1))
                        pinned.setdefault((k, t), []).append((p, 1))
        return placed, claimed, own

    def _stay_with_their_sets(
        self,
        model: Formulation,
        jokers: MeldJokers,
        placed: dict[int, list[tuple[int, int]]],
        own: OwnColumns,
        capped: bool,
    ) -> None:
        """A meld's staying jokers lie where ``p`` says or in its survival; a meld whose
        jokers are one at a time lays one elsewhere only when it does not survive."""
        m = jokers.meld
        for t, stay in jokers.stay.items():
            terms = placed.get(t, [])
            if capped:  # every staying joker is placed, in its own survival or elsewhere
                model.add_constraint(f"stay[{m},{t}] placed", (*terms, (stay, -1)), 0, 0)
                continue
            if terms:
                model.at_most(f"stay[{m},{t}] away", (*terms, (stay, -1)), 0)
            survives_with = [(k, -1) for k, types in own if t in types]
            # A joker that is one at a time may lie in any chosen copy of a column that
            # holds its tile and a tile of its meld, where nothing else contests a place.
            loose = [(col, -1) for col in self.loose.get((m, t), ())]
            model.at_most(
                f"stay[{m},{t}] with its set",
                ((stay, 1), *((v, -1) for v, _ in terms), *survives_with, *loose),
                0,
            )
        if all(len(meaning) == 1 for meaning in jokers.meanings):
            away = [
                (p, 1)
                for p, (owner, col, _) in self.placements.items()
                if owner == m and not (col in model.kept and model.kept[col][0] == m)
            ]
            if away:
                model.at_most(f"meld {m} survives or lends", (*away, *((k, 1) for k, _ in own)), 1)

    def _one_tile_per_place(self, model: Formulation, pinned: Pinned) -> None:
        """A place ``t`` of a column holds one tile a copy: staying jokers, claimed tiles
        and hosts' rack tiles there fit in the copies chosen."""
        rack_tiles: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for w, col, t in self.host_tiles:
            rack_tiles.setdefault((col, t), []).append((w, 1))
        for (col, t), terms in pinned.items():
            merged = Counter[int]()
            for var, coef in (*terms, *rack_tiles.get((col, t), ()), (col, -1)):
                merged[var] += coef
            model.at_most(f"one tile at [{col},{t}]", tuple(merged.items()), 0)

    def _jokers_per_set(self, model: Formulation) -> None:
        """A staying table joker is solved as its tile but is still a joker in its set: the
        ``p`` say in which column each lies; cap jokers per set."""
        joker = model.rules.joker_index
        limit = model.rules.max_jokers_per_set
        inside: dict[int, list[tuple[int, int]]] = {}
        for p, (_, col, _) in self.placements.items():
            inside.setdefault(col, []).append((p, 1))
        counts = {var: s.counts for var, s in model.sets.items()}
        counts.update({var: survival.counts for var, (_, survival) in model.kept.items()})
        for col, terms in inside.items():
            own = dict(counts[col]).get(joker, 0)
            # staying + own jokers <= limit per copy of the column
            model.at_most(f"jokers per set {col}", (*terms, (col, own - limit)), 0)

    # -- decoding ---------------------------------------------------------------------

    def staying(self, rules: RuleSet, values: tuple[int, ...]) -> dict[int, Counter[Tile]]:
        """Per meld with jokers: the tiles its staying jokers stand for."""
        return {
            jokers.meld: Counter(
                {rules.tile_types[t]: values[v] for t, v in jokers.stay.items() if values[v]}
            )
            for jokers in self.melds
        }

    def freed(self, values: tuple[int, ...]) -> Counter[int]:
        """Per meld with jokers: how many of its jokers are freed."""
        return Counter(
            {jokers.meld: sum(values[v] for v in jokers.freed.values()) for jokers in self.melds}
        )

    def placed_jokers(
        self, rules: RuleSet, values: tuple[int, ...]
    ) -> list[tuple[int, int, Tile, int]]:
        """(meld, column, tile, count): staying jokers the model lays in a column (another
        meld's place or a set; under overflow their own survival too)."""
        return [
            (m, col, rules.tile_types[t], values[p])
            for p, (m, col, t) in self.placements.items()
            if values[p]
        ]

    def loose_columns(self, rules: RuleSet) -> dict[tuple[int, Tile], list[int]]:
        """(meld, tile) -> the columns where that meld's one staying joker may lie beside a
        tile of its meld without the model saying which (any chosen copy will do)."""
        return {(m, rules.tile_types[t]): cols for (m, t), cols in self.loose.items()}

    def claimed_tiles(
        self, rules: RuleSet, values: tuple[int, ...]
    ) -> list[tuple[int, int, Tile, int]]:
        """(meld, column, tile, count): copies of a column that hold that meld's own tile,
        beside its staying jokers."""
        return [
            (m, col, rules.tile_types[u], values[q])
            for q, (m, col, u) in self.claims.items()
            if values[q]
        ]

    def host_rack_tiles(
        self, rules: RuleSet, values: tuple[int, ...]
    ) -> list[tuple[int, int, Tile, int]]:
        """(x var, hosting copies, rack tile, count) for the rack tiles in host copies."""
        hosting = {col: values[host] for host, col in self.hosts.items()}
        return [
            (col, hosting[col], rules.tile_types[t], values[var]) for var, col, t in self.host_tiles
        ]

    def hosted_stand_ins(self, rules: RuleSet, values: tuple[int, ...]) -> Counter[Tile]:
        """Wildcard form: the tiles that jokers in host copies stand for."""
        return Counter(
            {rules.tile_types[t]: values[g] for g, t in self.host_stand_ins.items() if values[g]}
        )

    def untouched(self, values: list[int], as_is: dict[int, int]) -> None:
        """In the untouched solution every meld keeps its first joker meaning, its jokers
        staying in the meld itself."""
        for jokers in self.melds:
            values[jokers.choose[0]] = 1
            for t in jokers.meanings[0]:
                values[jokers.stay[t]] += 1
        for p, (m, col, t) in self.placements.items():
            if as_is.get(m) == col:
                values[p] = self.of_meld[m].meanings[0].count(t)


def _room_beside(
    model: Formulation,
    col: int,
    t: int,
    room: list[tuple[int, int]],
    laid: list[tuple[int, int]] | None,
) -> list[tuple[int, int]]:
    """The host places ``t`` of column ``col`` free for a stand-in (``room``: host copies
    minus their rack tiles there), less what staying jokers and claimed tiles (``laid``)
    take: ``e <= room`` and ``e <= x - rack tiles - laid``."""
    if not laid:
        return room
    upper = model.variables[col].upper
    e = model.add_variable(f"e{col}_{t}", 0, upper)
    model.at_most(f"e{col}_{t} in hosts", ((e, 1), *((v, -c) for v, c in room)), 0)
    left = Counter[int]({e: 1, col: -1})
    for var, coef in (*laid, *((v, -c) for v, c in room[1:])):  # room[1:]: the -w, if any
        left[var] += coef
    model.at_most(f"e{col}_{t} beside laid", tuple(left.items()), 0)
    return [(e, 1)]


def _open_places(model: Formulation) -> dict[int, frozenset[int]]:
    """Per column, the places other melds' tiles and jokers may take: every tile of a set,
    the added tiles of a survival."""
    joker = model.rules.joker_index
    places = {var: frozenset(t for t, _ in s.counts if t != joker) for var, s in model.sets.items()}
    for var, (_, survival) in model.kept.items():
        tiles = frozenset(t for t, _ in survival.counts if t != joker)
        places[var] = tiles - model.kept_own.get(var, frozenset())
    return places


def joker_meanings(meld: Meld, rules: RuleSet) -> tuple[tuple[int, ...], ...]:
    """Every joint meaning of a table meld's jokers (sorted tile-type indices), as its
    declared meanings and the order it lies in allow (:meth:`Meld.readings_as_laid`)."""
    stated = Counter(d for d in meld.declared if d is not None)
    found: set[tuple[int, ...]] = set()
    for reading in meld.readings_as_laid(rules):
        for option in reading.joker_options(rules):
            if not stated - Counter(option):
                found.add(tuple(sorted(rules.index(t) for t in option)))
    return tuple(sorted(found))


def _in_copies(model: Formulation, name: str, column: int, per_copy: int) -> int:
    """A new variable for tiles that lie in the chosen copies of ``column``: at most
    ``per_copy`` in each."""
    upper = model.variables[column].upper
    var = model.add_variable(name, 0, per_copy * upper)
    model.at_most(f"{name} in {column}", ((var, 1), (column, -per_copy)), 0)
    return var


def long_hosts(
    rules: RuleSet, rack: Counter[int], available: Counter[int], two_freed: bool = False
) -> tuple[CatalogueSet, ...]:
    """Runs longer than the catalogue's that may hold a freed joker under strict rules.

    A long new run is normally formed from catalogue pieces, but the freed joker's piece
    must itself hold two rack tiles, which a long run may only manage as a whole
    (o1 o2 o3 o4 o5 j o7 with o1 and o7 from the rack). Such a run is a core spanning the
    joker and two rack tiles, plus fewer than ``min_len`` tiles on each side (a longer
    overhang is a run of its own): those are added as sets, with a second joker anywhere
    in them where a set may hold two. With ``two_freed`` (the rack may replace two table
    jokers) the core may span both freed jokers and the two rack tiles
    (j o2 o3 o4 o5 o6 o7 j with o4 and o5 from the rack hosts both). With wrap-around the
    numbers are read round the top (positions beyond ``numbers`` are taken modulo it).
    """
    joker = rules.joker_index
    longest = rules.max_run_in_catalogue
    laps = (-1, 0, 1) if rules.wrap else (0,)
    found: dict[tuple[tuple[int, int], ...], CatalogueSet] = {}
    pairs = two_freed and rules.max_jokers_per_set >= 2 and available[joker] >= 2

    def number(position: int) -> int:
        return (position - 1) % rules.numbers + 1

    def add(base: int, lo: int, hi: int, jokers: set[int]) -> None:
        """The run from position ``lo`` to ``hi`` of the colour at ``base``, jokers at
        ``jokers``, if its size and the tiles in play allow it."""
        size = hi - lo + 1
        if size <= longest or size > rules.numbers:
            return
        if not rules.wrap and (lo < 1 or hi > rules.numbers):
            return
        if len(jokers) > available[joker]:
            return
        real = [base + number(n) - 1 for n in range(lo, hi + 1) if n not in jokers]
        if any(available[t] < 1 for t in real):
            return
        counts = tuple(sorted(Counter([*real, *[joker] * len(jokers)]).items()))
        if counts not in found:
            tiles = tuple(
                JOKER if n in jokers else rules.tile_types[base + number(n) - 1]
                for n in range(lo, hi + 1)
            )
            value = sum(number(n) for n in range(lo, hi + 1))
            found[counts] = CatalogueSet(tiles, counts, MeldKind.RUN, value)

    overhangs = [(left, right) for left in range(rules.min_len) for right in range(rules.min_len)]
    for c in range(rules.colours):
        base = c * rules.numbers
        on_rack = sorted(
            n + lap * rules.numbers
            for n in range(1, rules.numbers + 1)
            if rack[base + n - 1]
            for lap in laps
        )
        positions = range(min(laps) * rules.numbers + 1, (max(laps) + 1) * rules.numbers + 1)
        for first, second in combinations(on_rack, 2):
            for p in positions:
                if p in (first, second):
                    continue
                low, high = min(p, first), max(p, second)
                for left, right in overhangs:
                    lo, hi = low - left, high + right
                    add(base, lo, hi, {p})
                    if rules.max_jokers_per_set >= 2:
                        for q in range(lo, hi + 1):
                            if q not in (p, first, second):
                                add(base, lo, hi, {p, q})
                if not pairs:
                    continue
                for q in positions:  # a second freed joker beyond the first one's core
                    if q <= p or q in (first, second):
                        continue
                    low2, high2 = min(low, q), max(high, q)
                    for left, right in overhangs:
                        add(base, low2 - left, high2 + right, {p, q})
    return tuple(found.values())


def long_host_runs(
    rules: RuleSet, rack: Counter[int], in_play: int, jokers: int, two_freed: bool = False
) -> list[tuple[CatalogueSet, int]]:
    """The wildcard form's :func:`long_hosts`: joker-free runs longer than the catalogue's
    that may hold a freed joker with two rack tiles, with how many of their tiles are not
    in play (each a joker).

    A run is needed when a joker somewhere and two of its rack tiles leave fewer than
    ``min_len`` tiles beyond them on each side (a longer overhang is a run of its own):
    with the joker at one end, when the first or the last rack tile is that close to its
    end. With ``two_freed`` (the rack may replace two table jokers) a run may have to hold
    both, one at each end, so every run with two rack tiles is needed.
    """
    found = []
    reach = rules.min_len
    for run, types, needs in _long_runs(rules):
        missing = (needs & ~in_play).bit_count()
        if missing > jokers:
            continue
        on_rack = [i for i, t in enumerate(types) if rack[t]]
        if len(on_rack) < 2:
            continue
        whole = rules.wrap and len(types) == rules.numbers  # it may be read from any number
        if two_freed or whole:
            found.append((run, missing))
            continue
        if on_rack[0] >= reach and len(types) - 1 - on_rack[-1] >= reach:
            continue
        found.append((run, missing))
    return found


@cache
def _long_runs(rules: RuleSet) -> tuple[tuple[CatalogueSet, tuple[int, ...], int], ...]:
    """Every joker-free run longer than the catalogue's, with its tile types in order and
    their bit mask (cached per rule set; a run of every number once, read from any one)."""
    found: dict[tuple[tuple[int, int], ...], tuple[CatalogueSet, tuple[int, ...], int]] = {}
    for c in range(rules.colours):
        base = c * rules.numbers - 1  # base + n is the tile numbered n
        for size in range(rules.max_run_in_catalogue + 1, rules.numbers + 1):
            for first in rules.run_starts(size):
                numbers = rules.run_numbers(first, size)
                types = tuple(base + n for n in numbers)
                counts = tuple(sorted((t, 1) for t in types))
                if counts not in found:
                    tiles = tuple(rules.tile_types[t] for t in types)
                    run = CatalogueSet(tiles, counts, MeldKind.RUN, sum(numbers))
                    found[counts] = (run, types, mask(types))
    return tuple(found.values())
