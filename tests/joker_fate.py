"""An independent check of what became of the table jokers, written from the rules alone.

Under the ``strict`` and ``locked`` table-joker rules (``RULES.md``,
:class:`~rummikub.models.jokers.JokerRule`) every joker on the table at the start of a
turn either

* is **freed**: the tile it stands for is placed from the rack (one placed tile per freed
  joker), or
* **stays with its set**: it ends the turn standing for the same tile, in a meld of the new
  table that also holds at least one *real* (non-joker) tile of its old meld. The set may
  be extended, split or joined with another; the joker may not be carried off alone, nor
  into a set of other tiles only.

Tiles of one type are interchangeable, but each real tile is one physical tile: two staying
jokers of one old meld that end in two different new melds need a real tile of that old
meld each (one tile lies in one meld), two in the same new meld may share one, and a real
tile of old meld A never counts for a joker of old meld B. An old meld of jokers alone
(only when ``min_len`` allows it) has no real tile: its jokers stay only by surviving whole,
all of them, none freed, in one new meld.

:func:`stays_with_its_set` looks for one accounting of the table jokers that satisfies
this (brute force: a game has few jokers) and names the old melds for which none does.
What a joker stands for is read from the melds as they are written
(:meth:`~rummikub.models.meld.Meld.readings_as_laid`: ``j r4 r5 j`` is r3-r6, a group any
way, declared meanings ``j=r4`` respected), for the old melds and the new ones alike. It
checks only this rule: legal melds, tiles that vanish or appear, and where a freed joker
may go under ``strict`` (a new set with two rack tiles) are the validator's business.

:func:`untouched_if_nothing_placed` checks the other rule of a turn, under every joker
rule: a turn that places no rack tile leaves the table exactly as it was.

Nothing here comes from ``rummikub.solver`` nor from ``rummikub.models.validation``,
``joker_plan`` or ``moves``: only the value types of ``rummikub.models``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations, product

from rummikub.models.jokers import JokerRule
from rummikub.models.meld import Meld
from rummikub.models.position import Position
from rummikub.models.rules import RuleSet
from rummikub.models.tile import Tile

Tiles = tuple[Tile, ...]  # a multiset of tiles as a sorted tuple
Stay = tuple[int, Tile]  # a staying joker: (old meld, the tile it stands for)


def meanings(meld: Meld, rules: RuleSet) -> set[Tiles]:
    """Every joint meaning of a meld's jokers as it lies (sorted tuples), respecting its
    declared meanings; ``{()}`` for a meld without jokers, empty for an illegal meld."""
    stated = Counter(d for d in meld.declared if d is not None)
    return {
        tuple(sorted(option))
        for reading in meld.readings_as_laid(rules)
        for option in reading.joker_options(rules)
        if not stated - Counter(option)
    }


def _sub_multisets(tiles: Tiles) -> set[Tiles]:
    return {chosen for size in range(len(tiles) + 1) for chosen in combinations(tiles, size)}


def _minus(tiles: Tiles, part: Tiles) -> Tiles:
    return tuple(sorted((Counter(tiles) - Counter(part)).elements()))


class _Accounting:
    """The search for one accounting of the jokers of some old melds (``tracked``); the
    jokers of the other old melds, and the rack jokers, may lie anywhere."""

    def __init__(
        self, position: Position, new_table: Sequence[Meld], placed: Counter[Tile]
    ) -> None:
        self.rules = position.rules
        self.old = position.table
        self.new = list(new_table)
        self.placed = placed
        self.real_old = [Counter(t for t in m.tiles if not t.is_joker) for m in self.old]
        self.real_new = [Counter(t for t in m.tiles if not t.is_joker) for m in self.new]
        self.with_jokers = [k for k, meld in enumerate(self.new) if meld.jokers]
        self.new_meanings = [sorted(meanings(self.new[k], self.rules)) for k in self.with_jokers]

    def _old_choices(self, m: int) -> list[tuple[Tiles, Tiles]]:
        """(staying, freed) for old meld ``m``: a meaning, and which of its jokers are freed."""
        meld = self.old[m]
        found: set[tuple[Tiles, Tiles]] = set()
        for meaning in meanings(meld, self.rules):
            for freed in _sub_multisets(meaning):
                stay = _minus(meaning, freed)
                if meld.jokers == len(meld) and stay and freed:
                    continue  # jokers alone: they stay only all together
                found.add((stay, freed))
        return sorted(found)

    def find(self, tracked: Sequence[int]) -> dict[Stay, list[int]] | None:
        """One accounting: for each staying joker, the new melds its kind lies in (None when
        there is none). Freed jokers are those not listed."""
        for combo in product(*(self._old_choices(m) for m in tracked)):
            freed = Counter(t for _, f in combo for t in f)
            if freed - self.placed:
                continue
            stays = sorted((m, t) for m, (s, _) in zip(tracked, combo, strict=True) for t in s)
            whole = {
                m for m, (s, _) in zip(tracked, combo, strict=True) if s and not self.real_old[m]
            }
            for slots in product(*self.new_meanings):
                for where in self._places(stays, [Counter(s) for s in slots], 0, []):
                    if self._anchored(stays, where, whole):
                        found: dict[Stay, list[int]] = {}
                        for stay, k in zip(stays, where, strict=True):
                            found.setdefault(stay, []).append(self.with_jokers[k])
                        return found
        return None

    def _places(
        self, stays: list[Stay], slots: list[Counter[Tile]], i: int, where: list[int]
    ) -> Iterator[list[int]]:
        """Every way to put the staying jokers (from ``i`` on) into joker places of the new
        melds that stand for their tiles (``slots``: what each new meld's jokers stand for,
        still unused); equal jokers in nondecreasing meld order."""
        if i == len(stays):
            yield list(where)
            return
        low = where[-1] if i and stays[i - 1] == stays[i] else 0
        tile = stays[i][1]
        for k in range(low, len(slots)):
            if slots[k][tile] > 0:
                slots[k][tile] -= 1
                where.append(k)
                yield from self._places(stays, slots, i + 1, where)
                where.pop()
                slots[k][tile] += 1

    def _anchored(self, stays: list[Stay], where: list[int], whole: set[int]) -> bool:
        """Whether each (new meld, old meld) pair of staying jokers can charge one real tile
        of the new meld to that old meld, each physical tile charged once."""
        pairs = sorted({(self.with_jokers[k], m) for (m, _), k in zip(stays, where, strict=True)})
        for m in whole:  # jokers alone: all of them in one new meld
            if sum(p[1] == m for p in pairs) != 1:
                return False
        pairs = [p for p in pairs if p[1] not in whole]
        left = [Counter(r) for r in self.real_old]  # copies of each old meld not yet charged
        room = [Counter(r) for r in self.real_new]  # copies in each new meld not yet charged

        def charge(i: int) -> bool:
            if i == len(pairs):
                return True
            k, m = pairs[i]
            for tile in sorted(set(room[k]) & set(left[m])):
                if room[k][tile] > 0 and left[m][tile] > 0:
                    room[k][tile] -= 1
                    left[m][tile] -= 1
                    if charge(i + 1):
                        return True
                    room[k][tile] += 1
                    left[m][tile] += 1
            return False

        return charge(0)


def _text(tiles: Iterable[Tile]) -> str:
    return " ".join(str(t) for t in sorted(tiles)) or "nothing"


def stays_with_its_set(
    position: Position, new_table: Sequence[Meld], placed: Iterable[Tile]
) -> list[str]:
    """What is wrong, under the position's ``strict`` or ``locked`` rule, with what the move
    does to the table jokers (see the module docstring): empty when some accounting lets
    every table joker stay with a real tile of its old meld, standing for the same tile, or
    be freed by its tile placed from the rack. Always empty under ``free``."""
    rules = position.rules
    old = [m for m, meld in enumerate(position.table) if meld.jokers]
    if rules.joker_rule is JokerRule.FREE or not old:
        return []
    illegal = [
        f"new meld {k} '{meld}' is not a legal set (its jokers stand for nothing)"
        for k, meld in enumerate(new_table, 1)
        if not meanings(meld, rules)
    ]
    if illegal:
        return illegal
    search = _Accounting(position, new_table, Counter(placed))
    if search.find(old) is not None:
        return []
    rule = rules.joker_rule
    problems = []
    for m in old:
        if search.find([m]) is None:
            meld = position.table[m]
            jokers = "a joker" if meld.jokers == 1 else f"{meld.jokers} jokers"
            read = [_text(s) for s in sorted(meanings(meld, rules))]
            stands = " or ".join(read) if len(read) <= 4 else f"any of {len(read)} meanings"
            if meld.jokers == len(meld):
                how = "jokers alone stay only all together in one meld of the new table, none freed"
            else:
                real = _text(t for t in meld.tiles if not t.is_joker)
                how = (
                    "a joker not replaced by its tile from the rack must end the turn in a "
                    f"meld that also holds a real tile of its set ({real}), standing for the "
                    "same tile; the new table does neither"
                )
            problems.append(
                f"{rule} joker rule: table meld {m + 1} '{meld}' has {jokers} standing for "
                f"{stands}; {how}"
            )
    if not problems:
        melds = ", ".join(f"{m + 1} '{position.table[m]}'" for m in old)
        problems.append(
            f"{rule} joker rule: the jokers of table melds {melds} cannot all stay with a "
            "real tile of their own set or be replaced by their tiles from the rack at once "
            f"(placed: {_text(Counter(placed).elements())})"
        )
    return problems


def _same_meld(old: Meld, new: Meld, rules: RuleSet) -> bool:
    """Whether a new meld is an old one left as it was: the same tiles, its jokers standing
    for tiles they could stand for before (a group's tiles in another order, or a joker's
    meaning declared, are no change; a run's joker moved from one end to the other is)."""
    if sorted(old.tiles) != sorted(new.tiles):
        return False
    now = meanings(new, rules)
    return bool(now) and now <= meanings(old, rules)


def untouched_if_nothing_placed(
    position: Position, new_table: Sequence[Meld], placed: Iterable[Tile]
) -> bool:
    """False when the move places no rack tile yet the new table is not the old one (under
    every joker rule a turn that places nothing leaves the table exactly as it was: each old
    meld is still there, see :func:`_same_meld`); True otherwise."""
    if list(placed):
        return True
    old, new, rules = position.table, list(new_table), position.rules
    if len(old) != len(new):
        return False
    match: list[int | None] = [None] * len(old)  # old meld -> new meld

    def augment(k: int, seen: set[int]) -> bool:  # Kuhn's matching, new meld k
        for m in range(len(old)):
            if m not in seen and _same_meld(old[m], new[k], rules):
                seen.add(m)
                held = match[m]
                if held is None or augment(held, seen):
                    match[m] = k
                    return True
        return False

    return all(augment(k, set()) for k in range(len(new)))
