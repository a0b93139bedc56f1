"""Human-readable steps of a move, and a strict replay that applies them to a position.

A move is described as a short sequence of actions a person can carry out at the table:
play a new meld, extend a meld, take tiles from a meld, split a meld, join two melds, swap
a joker for a rack tile, trade a table joker for the tile it stands for in another meld, or
lay one meld out anew (its tiles unchanged). A *rearrange* of
several melds at once exists for replaying older descriptions; the explainer
(:mod:`rummikub.steps.planner`) no longer writes it: each of its steps touches at most two
table melds.

Tiles a step lifts off the table without putting them into a meld (a *take*, or the joker
freed by a *swap*) are *loose*: later steps must use them (their ``taken`` tiles), and no
loose tile may remain at the end. Each step names melds by their printed form and carries
its resulting melds exactly as laid out, so :func:`replay` reproduces the new table tile for
tile. Every step is a small frozen value with an ``action`` name, a one-line English
``str()`` and a typed ``to_json()``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from rummikub.models.errors import RummikubError
from rummikub.models.meld import Meld, why_illegal
from rummikub.models.notation import format_tiles
from rummikub.models.notation import tiles_json as _tiles_json
from rummikub.models.rules import STANDARD, RuleSet
from rummikub.models.tile import Tile, sorted_tiles


class StepError(RummikubError):
    """A step that does not apply: a meld not on the table, a tile not on the rack or not
    loose, tiles that do not add up, an illegal resulting meld, or loose tiles left over."""


def _melds_text(melds: Sequence[Meld]) -> str:
    return " | ".join(str(m) for m in melds)


def _listing(tiles: Sequence[Tile]) -> str:
    """``b2``, ``b2 and b6``, ``b2, b6 and b7``."""
    names = [str(t) for t in tiles]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _joker_moves(taken: Sequence[Tile]) -> str:
    """``the joker`` / ``the 2 jokers`` for the jokers among loose tiles, or ''. (Not "the
    freed joker": under the strict rule a table joker that keeps its meaning may move along
    without being swapped out.)"""
    jokers = sum(t.is_joker for t in taken)
    return "" if not jokers else "the joker" if jokers == 1 else f"the {jokers} jokers"


def _added(rack: Sequence[Tile], taken: Sequence[Tile]) -> str:
    """Tiles added by a step: rack tiles plainly, loose tiles marked as taken before."""
    if not taken:
        return _listing(rack)
    if not rack:
        return f"taken {_listing(taken)}"
    return f"{', '.join(str(t) for t in rack)} and taken {_listing(taken)}"


class StepBase:
    """What every step declares, so that :func:`replay` can apply any of them generically.

    A step removes ``inputs`` (melds named by their printed form) from the table, ``rack``
    tiles from the rack and ``taken`` tiles from the loose tiles; it puts ``outputs`` on the
    table and ``freed`` tiles into the loose tiles. Input and output tiles must balance.
    """

    __slots__ = ()
    action: ClassVar[str] = ""

    @property
    def inputs(self) -> tuple[Meld, ...]:
        """Table melds the step picks up (by printed form)."""
        return ()

    @property
    def rack_tiles(self) -> tuple[Tile, ...]:
        """Tiles the step takes from the rack."""
        return ()

    @property
    def taken_tiles(self) -> tuple[Tile, ...]:
        """Loose tiles (lifted off the table by earlier steps) the step uses."""
        return ()

    @property
    def outputs(self) -> tuple[Meld, ...]:
        """Melds the step lays on the table."""
        return ()

    @property
    def freed(self) -> tuple[Tile, ...]:
        """Tiles the step lifts off the table and leaves loose for later steps."""
        return ()

    @property
    def finished(self) -> tuple[Meld, ...]:
        """Output melds that must be legal sets (the rest may be pieces in the making)."""
        return self.outputs

    def shape_problem(self) -> str | None:
        """What is wrong with the step in itself (before looking at the table), if anything."""
        return None

    def to_json(self) -> dict[str, object]:
        """The step as a typed JSON object: ``action``, the step's own fields, and the table
        melds it touches: ``before`` (picked up as they lay) and ``after`` (as laid down)."""
        return {
            **self._fields(),
            "before": [_tiles_json(m.tiles) for m in self.inputs],
            "after": [_tiles_json(m.tiles) for m in self.outputs],
        }

    def _fields(self) -> dict[str, object]:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Play(StepBase):
    """Lay down a new meld made of rack tiles (and loose tiles taken earlier)."""

    action: ClassVar[str] = "play"
    result: Meld
    rack: tuple[Tile, ...]
    taken: tuple[Tile, ...] = ()

    @property
    def rack_tiles(self) -> tuple[Tile, ...]:
        return self.rack

    @property
    def taken_tiles(self) -> tuple[Tile, ...]:
        return self.taken

    @property
    def outputs(self) -> tuple[Meld, ...]:
        return (self.result,)

    def __str__(self) -> str:
        jokers = _joker_moves(self.taken)
        if jokers:  # a joker moves from the table into a new set: say so
            others = [*self.rack, *(t for t in self.taken if not t.is_joker)]
            return f"Move {jokers} into a new set with {_listing(others)} → {self.result}"
        if not self.taken:
            return f"Play {self.result} from your rack"
        if not self.rack:
            return f"Lay down taken {_listing(self.taken)} as {self.result}"
        return f"Play {_listing(self.rack)} with taken {_listing(self.taken)} → {self.result}"

    def _fields(self) -> dict[str, object]:
        return {
            "action": self.action,
            "rack": _tiles_json(self.rack),
            "taken": _tiles_json(self.taken),
            "result": _tiles_json(self.result.tiles),
        }


@dataclass(frozen=True, slots=True)
class Extend(StepBase):
    """Add rack tiles (and loose tiles) to one meld on the table."""

    action: ClassVar[str] = "extend"
    meld: Meld
    rack: tuple[Tile, ...]
    taken: tuple[Tile, ...]
    result: Meld

    @property
    def inputs(self) -> tuple[Meld, ...]:
        return (self.meld,)

    @property
    def rack_tiles(self) -> tuple[Tile, ...]:
        return self.rack

    @property
    def taken_tiles(self) -> tuple[Tile, ...]:
        return self.taken

    @property
    def outputs(self) -> tuple[Meld, ...]:
        return (self.result,)

    def shape_problem(self) -> str | None:
        if not self.rack and not self.taken:
            return "an extension adds at least one tile"
        return None

    def __str__(self) -> str:
        jokers = _joker_moves(self.taken)
        if jokers:  # a joker moves from one meld to another: say so
            real = tuple(t for t in self.taken if not t.is_joker)
            rest = _added(self.rack, real)
            extra = f", with {rest}" if rest else ""
            return f"Move {jokers} to {self.meld}{extra} → {self.result}"
        return f"Extend {self.meld} with {_added(self.rack, self.taken)} → {self.result}"

    def _fields(self) -> dict[str, object]:
        return {
            "action": self.action,
            "meld": _tiles_json(self.meld.tiles),
            "rack": _tiles_json(self.rack),
            "taken": _tiles_json(self.taken),
            "result": _tiles_json(self.result.tiles),
        }


@dataclass(frozen=True, slots=True)
class Take(StepBase):
    """Lift tiles off a meld; they stay loose for later steps. ``left`` is what remains of
    the meld (one piece, several pieces when taken from the middle of a run, or none)."""

    action: ClassVar[str] = "take"
    meld: Meld
    tiles: tuple[Tile, ...]
    left: tuple[Meld, ...]

    @property
    def inputs(self) -> tuple[Meld, ...]:
        return (self.meld,)

    @property
    def outputs(self) -> tuple[Meld, ...]:
        return self.left

    @property
    def freed(self) -> tuple[Tile, ...]:
        return self.tiles

    @property
    def finished(self) -> tuple[Meld, ...]:
        return ()

    def shape_problem(self) -> str | None:
        if not self.tiles:
            return "a take lifts at least one tile"
        return None

    def __str__(self) -> str:
        if not self.left:
            return f"Take all of {self.meld} off the table"
        return f"Take {_listing(self.tiles)} from {self.meld} → {_melds_text(self.left)}"

    def _fields(self) -> dict[str, object]:
        return {
            "action": self.action,
            "meld": _tiles_json(self.meld.tiles),
            "tiles": _tiles_json(self.tiles),
            "results": [_tiles_json(m.tiles) for m in self.left],
        }


@dataclass(frozen=True, slots=True)
class Split(StepBase):
    """Cut a meld into pieces that stay on the table (they may need tiles to become legal)."""

    action: ClassVar[str] = "split"
    meld: Meld
    parts: tuple[Meld, ...]

    @property
    def inputs(self) -> tuple[Meld, ...]:
        return (self.meld,)

    @property
    def outputs(self) -> tuple[Meld, ...]:
        return self.parts

    @property
    def finished(self) -> tuple[Meld, ...]:
        return ()

    def shape_problem(self) -> str | None:
        if len(self.parts) < 2:
            return "a split makes at least two pieces"
        return None

    def __str__(self) -> str:
        return f"Split {self.meld} into {_melds_text(self.parts)}"

    def _fields(self) -> dict[str, object]:
        return {
            "action": self.action,
            "meld": _tiles_json(self.meld.tiles),
            "results": [_tiles_json(m.tiles) for m in self.parts],
        }


@dataclass(frozen=True, slots=True)
class Join(StepBase):
    """Put several melds (or pieces) on the table together into one, adding tiles."""

    action: ClassVar[str] = "join"
    melds: tuple[Meld, ...]
    rack: tuple[Tile, ...]
    taken: tuple[Tile, ...]
    result: Meld

    @property
    def inputs(self) -> tuple[Meld, ...]:
        return self.melds

    @property
    def rack_tiles(self) -> tuple[Tile, ...]:
        return self.rack

    @property
    def taken_tiles(self) -> tuple[Tile, ...]:
        return self.taken

    @property
    def outputs(self) -> tuple[Meld, ...]:
        return (self.result,)

    def shape_problem(self) -> str | None:
        if len(self.melds) < 2:
            return "a join needs at least two melds"
        return None

    def __str__(self) -> str:
        added = _added(self.rack, self.taken)
        extra = f" with {added}" if added else ""
        return f"Join {_melds_text(self.melds)}{extra} → {self.result}"

    def _fields(self) -> dict[str, object]:
        return {
            "action": self.action,
            "melds": [_tiles_json(m.tiles) for m in self.melds],
            "rack": _tiles_json(self.rack),
            "taken": _tiles_json(self.taken),
            "result": _tiles_json(self.result.tiles),
        }


@dataclass(frozen=True, slots=True)
class Swap(StepBase):
    """Replace joker(s) in a meld by real tiles (from the rack, or loose tiles taken earlier);
    the freed jokers become loose for later steps."""

    action: ClassVar[str] = "swap"
    meld: Meld
    rack: tuple[Tile, ...]
    taken: tuple[Tile, ...]
    result: Meld

    @property
    def inputs(self) -> tuple[Meld, ...]:
        return (self.meld,)

    @property
    def rack_tiles(self) -> tuple[Tile, ...]:
        return self.rack

    @property
    def taken_tiles(self) -> tuple[Tile, ...]:
        return self.taken

    @property
    def outputs(self) -> tuple[Meld, ...]:
        return (self.result,)

    @property
    def jokers(self) -> int:
        """How many jokers the swap frees (one per tile given)."""
        return len(self.rack) + len(self.taken)

    @property
    def freed(self) -> tuple[Tile, ...]:
        return tuple(t for t in self.meld.tiles if t.is_joker)[: self.jokers]

    def shape_problem(self) -> str | None:
        if not self.jokers:
            return "a swap gives at least one tile for a joker"
        if any(t.is_joker for t in (*self.rack, *self.taken)):
            return "a swap gives real tiles for jokers"
        if self.meld.jokers < self.jokers:
            return f"'{self.meld}' holds fewer than {self.jokers} joker(s)"
        return None

    def __str__(self) -> str:
        what = "the joker" if self.jokers == 1 else f"{self.jokers} jokers"
        return f"Swap {_added(self.rack, self.taken)} for {what} in {self.meld} → {self.result}"

    def _fields(self) -> dict[str, object]:
        return {
            "action": self.action,
            "meld": _tiles_json(self.meld.tiles),
            "rack": _tiles_json(self.rack),
            "taken": _tiles_json(self.taken),
            "free": _tiles_json(self.freed),
            "result": _tiles_json(self.result.tiles),
        }


@dataclass(frozen=True, slots=True)
class Trade(StepBase):
    """Exchange a table joker in one meld for the tile it stands for in another meld: the
    tile takes the joker's place and the joker the tile's, so both melds read as before."""

    action: ClassVar[str] = "trade"
    meld: Meld  # holds the joker
    other: Meld  # holds the tile
    tile: Tile
    results: tuple[Meld, Meld]  # the two melds after the exchange, in the same order

    @property
    def inputs(self) -> tuple[Meld, ...]:
        return (self.meld, self.other)

    @property
    def outputs(self) -> tuple[Meld, ...]:
        return self.results

    def shape_problem(self) -> str | None:
        if self.tile.is_joker:
            return "a trade gives a real tile for a joker"
        if not self.meld.jokers:
            return f"'{self.meld}' holds no joker"
        if self.tile not in self.other.tiles:
            return f"'{self.other}' holds no {self.tile}"
        got = tuple(m.counts() for m in self.results)
        tile = Counter({self.tile: 1})
        for joker in {t for t in self.meld.tiles if t.is_joker}:
            one = Counter({joker: 1})
            if got == (self.meld.counts() - one + tile, self.other.counts() - tile + one):
                return None
        return "a trade exchanges exactly one joker and its tile between the two melds"

    def __str__(self) -> str:
        return (
            f"Trade the joker standing for {self.tile} in {self.meld} for the {self.tile} in "
            f"{self.other} → {_melds_text(self.results)}"
        )

    def _fields(self) -> dict[str, object]:
        return {
            "action": self.action,
            "meld": _tiles_json(self.meld.tiles),
            "other": _tiles_json(self.other.tiles),
            "tile": str(self.tile),
            "results": [_tiles_json(m.tiles) for m in self.results],
        }


@dataclass(frozen=True, slots=True)
class Rearrange(StepBase):
    """Rebuild several melds, with rack (and loose) tiles, into new melds at once."""

    action: ClassVar[str] = "rearrange"
    melds: tuple[Meld, ...]
    rack: tuple[Tile, ...]
    taken: tuple[Tile, ...]
    results: tuple[Meld, ...]

    @property
    def inputs(self) -> tuple[Meld, ...]:
        return self.melds

    @property
    def rack_tiles(self) -> tuple[Tile, ...]:
        return self.rack

    @property
    def taken_tiles(self) -> tuple[Tile, ...]:
        return self.taken

    @property
    def outputs(self) -> tuple[Meld, ...]:
        return self.results

    def shape_problem(self) -> str | None:
        if not self.results:
            return "a rearrangement makes at least one meld"
        return None

    def __str__(self) -> str:
        added = _added(self.rack, self.taken)
        extra = f" with {added}" if added else ""
        if len(self.melds) == len(self.results) == 1 and not extra:
            return f"Lay {self.melds[0]} out as {self.results[0]}"
        return f"Rearrange {_melds_text(self.melds)}{extra} into {_melds_text(self.results)}"

    def _fields(self) -> dict[str, object]:
        return {
            "action": self.action,
            "melds": [_tiles_json(m.tiles) for m in self.melds],
            "rack": _tiles_json(self.rack),
            "taken": _tiles_json(self.taken),
            "results": [_tiles_json(m.tiles) for m in self.results],
        }


Step = Play | Extend | Take | Split | Join | Swap | Trade | Rearrange
"""Any one step."""


def _missing(have: Counter[Tile], need: Iterable[Tile]) -> list[Tile]:
    return sorted_tiles((Counter(need) - have).elements())


def replay(
    table: Sequence[Meld],
    rack: Sequence[Tile],
    steps: Iterable[Step],
    rules: RuleSet = STANDARD,
) -> tuple[list[Meld], list[Tile]]:
    """Apply ``steps`` to the table and rack: the new table and what is left on the rack.

    Strict: each meld a step names must lie on the table as printed, its rack tiles must be
    on the rack, its taken tiles among the loose tiles; tiles must balance; melds a step
    finishes must be legal under ``rules``. At the end no tile may be loose and every meld
    on the table must be legal. Anything else raises :class:`StepError` naming the step.
    """
    melds = list(table)
    hand = Counter(rack)
    loose = Counter[Tile]()
    for number, step in enumerate(steps, 1):
        where = f"step {number} ({step.action})"
        problem = step.shape_problem()
        if problem:
            raise StepError(f"{where}: {problem}")
        for meld in step.inputs:
            if meld not in melds:
                raise StepError(f"{where}: '{meld}' is not on the table")
            melds.remove(meld)
        short = _missing(hand, step.rack_tiles)
        if short:
            raise StepError(f"{where}: missing from the rack: {format_tiles(short)}")
        short = _missing(loose, step.taken_tiles)
        if short:
            raise StepError(f"{where}: missing from the loose tiles: {format_tiles(short)}")
        if any(not m.tiles for m in step.outputs):
            raise StepError(f"{where}: an empty meld")
        before = Counter(t for m in step.inputs for t in m.tiles)
        before += Counter(step.rack_tiles) + Counter(step.taken_tiles)
        after = Counter(t for m in step.outputs for t in m.tiles) + Counter(step.freed)
        if before != after:
            lost = format_tiles(sorted_tiles((before - after).elements())) or "-"
            extra = format_tiles(sorted_tiles((after - before).elements())) or "-"
            raise StepError(f"{where}: tiles do not add up (lost: {lost}; from nowhere: {extra})")
        for meld in step.finished:
            if not meld.is_legal(rules):
                raise StepError(
                    f"{where}: '{meld}' is not a legal set: {why_illegal(meld.tiles, rules)}"
                )
        hand -= Counter(step.rack_tiles)
        loose -= Counter(step.taken_tiles)
        loose += Counter(step.freed)
        melds.extend(step.outputs)
    if loose:
        raise StepError(f"loose tiles left over: {format_tiles(sorted_tiles(loose.elements()))}")
    for meld in melds:
        if not meld.is_legal(rules):
            raise StepError(f"'{meld}' is left on the table, not a legal set")
    left = []
    for tile in rack:
        if hand[tile] > 0:
            hand[tile] -= 1
            left.append(tile)
    return melds, left
