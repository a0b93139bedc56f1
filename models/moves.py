"""Which table tiles a move picks up: the measure "moved" of answers and reports.

A player turns the old table into the new one by picking tiles up and putting them down. An
old meld that lives on in the new table *becomes* one new meld: the tiles they have in
common stay where they lie, the others are picked up (and the new meld may get tiles from
elsewhere). Each old meld becomes at most one new meld and each new meld comes from at most
one old meld; the pairing is the one that leaves the most tiles lying (an optimal
assignment). Equal tiles are interchangeable, jokers included: what stays of old meld ``i``
in new meld ``j`` is the multiset intersection of their tiles.

So ``r3 r4 r5`` with ``r2 b5 k5`` from the rack, played as ``r2 r3 r4`` and ``r5 b5 k5``,
picks up one tile (r5); a joker swap (``r5 j r7`` becoming ``r5 r6 r7``) picks up the joker;
splitting ``r1-13`` into ``r1-6`` and ``r7-13`` picks up the six tiles of the shorter part.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence

from rummikub.models.joker_plan import joker_plan, plain
from rummikub.models.meld import Meld
from rummikub.models.position import Position
from rummikub.models.tile import Tile, sorted_tiles


def _max_assignment(weights: Sequence[Sequence[int]]) -> list[int]:
    """For each row, the column assigned to it (or -1) in an assignment of rows to distinct
    columns with the largest total weight (Hungarian method with potentials, O(n³))."""
    rows = len(weights)
    cols = len(weights[0]) if rows else 0
    n = max(rows, cols)
    if n == 0:
        return []
    top = max((w for row in weights for w in row), default=0)
    # Square cost matrix (1-based, row/column 0 is the algorithm's sentinel).
    cost = [[0] * (n + 1) for _ in range(n + 1)]
    for i in range(rows):
        for j in range(cols):
            cost[i + 1][j + 1] = top - weights[i][j]
    for i in range(n + 1):
        for j in range(n + 1):
            if i > rows or j > cols:
                cost[i][j] = top
    inf = float("inf")
    u = [0.0] * (n + 1)
    v = [0.0] * (n + 1)
    owner = [0] * (n + 1)  # column -> row
    way = [0] * (n + 1)
    for i in range(1, n + 1):
        owner[0] = i
        j0 = 0
        least = [inf] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[j0] = True
            i0 = owner[j0]
            delta = inf
            j1 = 0
            for j in range(1, n + 1):
                if not used[j]:
                    reduced = cost[i0][j] - u[i0] - v[j]
                    if reduced < least[j]:
                        least[j] = reduced
                        way[j] = j0
                    if least[j] < delta:
                        delta = least[j]
                        j1 = j
            for j in range(n + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    assigned = [-1] * rows
    for j in range(1, cols + 1):
        if 0 < owner[j] <= rows:
            assigned[owner[j] - 1] = j - 1
    return assigned


def becomes(
    old_table: Sequence[Meld],
    new_table: Sequence[Meld],
    prefer: Mapping[int, int] | None = None,
    fresh: Collection[int] = (),
) -> dict[int, int]:
    """The new meld each old meld becomes: ``{old index: new index}``, one-to-one.

    The pairing leaves the most old tiles lying (see the module docstring); old melds that
    share no tile with their partner are left out (they are taken apart), and no old meld
    becomes one of the ``fresh`` new melds. Among pairings that leave as many tiles, one
    that keeps more old melds whole inside their new meld, and then more of the pairs in
    ``prefer``, is chosen (deterministic).
    """
    if not old_table or not new_table:
        return {}
    prefer = prefer or {}
    olds = [m.counts() for m in old_table]
    news = [m.counts() for m in new_table]
    holders: dict[Tile, list[int]] = {}
    for j, counts in enumerate(news):
        if j in fresh:
            continue
        for tile in counts:
            holders.setdefault(tile, []).append(j)
    # Tiles first; the bonuses (a whole old meld, a preferred pair) only break ties: over a
    # pairing they sum below one tile.
    scale = 3 * len(old_table) + 1
    edges: dict[tuple[int, int], int] = {}
    for i, counts in enumerate(olds):
        for j in {j for tile in counts for j in holders.get(tile, ())}:
            stay = sum(min(n, news[j][tile]) for tile, n in counts.items())
            whole = stay == counts.total()
            edges[(i, j)] = stay * scale + 2 * whole + int(prefer.get(i) == j)
    pairs: dict[int, int] = {}
    for rows, cols in _components(edges):
        weights = [[edges.get((i, j), 0) for j in cols] for i in rows]
        for r, c in enumerate(_max_assignment(weights)):
            if c >= 0 and weights[r][c] >= scale:
                pairs[rows[r]] = cols[c]
    return dict(sorted(pairs.items()))


def _components(edges: Mapping[tuple[int, int], int]) -> list[tuple[list[int], list[int]]]:
    """The connected parts of the bipartite graph of old and new melds sharing tiles."""
    parent: dict[tuple[str, int], tuple[str, int]] = {}

    def find(x: tuple[str, int]) -> tuple[str, int]:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, j in edges:
        parent[find(("old", i))] = find(("new", j))
    parts: dict[tuple[str, int], tuple[list[int], list[int]]] = {}
    for node in sorted(parent):
        side, k = node
        rows, cols = parts.setdefault(find(node), ([], []))
        (rows if side == "old" else cols).append(k)
    return list(parts.values())


def picked_up(
    old_table: Sequence[Meld],
    new_table: Sequence[Meld],
    prefer: Mapping[int, int] | None = None,
    fresh: Collection[int] = (),
) -> list[Tile]:
    """The table tiles a move picks up, sorted: the tiles of each old meld that do not stay
    in the new meld it becomes (all of them when it becomes none).

    Exactly: with ``stay(i, j)`` the multiset intersection of old meld ``i`` and new meld
    ``j`` (jokers are equal to each other), the pairing of old to new melds (each at most
    once) maximises the total size of ``stay``; the answer is the old table's tiles minus
    the ``stay`` of every pair. Its length is the least number of table tiles any pairing
    leaves to pick up, the "moved" of ``solve`` and ``analyze``. ``prefer`` only chooses
    among equally good pairings (see :func:`becomes`), which may differ in the tiles.
    """
    pairs = becomes(old_table, new_table, prefer, fresh)
    left = Counter[Tile]()
    for i, old in enumerate(old_table):
        left += old.counts() - new_table[pairs[i]].counts() if i in pairs else old.counts()
    return sorted_tiles(plain(t) for t in left.elements())


def moved_tiles(
    position: Position,
    new_table: Sequence[Meld],
    placed: Sequence[Tile],
    prefer: Mapping[int, int] | None = None,
    hosts_first: Sequence[int] = (),
) -> list[Tile]:
    """The table tiles a move picks up under the position's joker rule: :func:`picked_up`,
    under the ``strict`` and ``locked`` rules on the tables of
    :func:`rummikub.models.joker_plan.joker_plan` (a table joker lies still only where it
    keeps its meaning; a freed joker is picked up; under ``strict`` a freed joker's new set
    becomes no old meld; ``hosts_first``: see :func:`~rummikub.models.joker_plan.joker_plan`).
    The "moved" of answers and reports."""
    plan = joker_plan(position, new_table, placed, hosts_first)
    if plan is None:
        return picked_up(position.table, new_table, prefer)
    return picked_up(plan.old, plan.new, prefer, plan.fresh)
