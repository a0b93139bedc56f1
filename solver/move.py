"""The answer: a move (the whole new table and the tiles placed) with its scores and status."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from types import MappingProxyType

from rummikub.models.meld import Meld, MeldKind
from rummikub.models.position import Position
from rummikub.models.tile import Tile, sorted_tiles
from rummikub.solver.limits import Status
from rummikub.solver.objectives import Level, Objective


class Origin(StrEnum):
    """Where a meld of the new table comes from."""

    KEPT = "kept"  # an old table meld, untouched
    EXTENDED = "extended"  # an old table meld with tiles added
    NEW = "new"  # made only of rack tiles
    REBUILT = "rebuilt"  # made (partly) of tiles moved from other table melds


@dataclass(frozen=True, slots=True)
class NewMeld:
    """One meld of the new table, tile by tile marked as coming from the rack or not."""

    meld: Meld
    origin: Origin
    source: int | None  # index of the old table meld it keeps or extends
    from_rack: tuple[bool, ...]

    @property
    def placed(self) -> tuple[Tile, ...]:
        """The tiles of this meld that came from the rack."""
        return tuple(t for t, r in zip(self.meld.tiles, self.from_rack, strict=True) if r)

    def joker_options(
        self, position: Position, meanings: Sequence[Tile | None] | None = None
    ) -> list[tuple[int, list[Tile]]]:
        """For each joker (by position in the meld), every tile it may stand for as laid out.

        A joker whose meaning is known (``meanings``, one per joker in order, such as a table
        joker that keeps its meaning under the strict or locked rule; by default the meld's
        declared ones) stands for that tile alone, and the others for what it leaves them."""
        rules = position.rules
        layout = self.meld.tiles
        slots = [i for i, t in enumerate(layout) if t.is_joker]
        known = self.meld.declared if meanings is None else meanings
        fixed = [known[k] if k < len(known) else None for k in range(len(slots))]
        stated = Counter(t for t in fixed if t is not None)
        options: dict[int, set[Tile]] = {}
        for reading in self.meld.readings(rules):
            is_run = reading.kind is MeldKind.RUN
            if is_run and reading.laid_out() != layout:
                continue
            for combo in reading.joker_options(rules):
                if is_run:
                    if any(f is not None and f != t for f, t in zip(fixed, combo, strict=True)):
                        continue
                    for slot, tile in zip(slots, combo, strict=True):
                        options.setdefault(slot, set()).add(tile)
                elif not stated - Counter(combo):
                    rest = set((Counter(combo) - stated).elements())
                    for slot, meaning in zip(slots, fixed, strict=True):
                        options.setdefault(slot, set()).update({meaning} if meaning else rest)
        if not options and any(fixed):  # meanings that fit no reading: say what the tiles allow
            return self.joker_options(position, ())
        return [(slot, sorted_tiles(tiles)) for slot, tiles in sorted(options.items())]


def table_joker_melds(table: Sequence[NewMeld]) -> list[int]:
    """The new melds holding a joker not marked as from the rack (a table joker)."""
    return [
        j
        for j, nm in enumerate(table)
        if any(t.is_joker and not r for t, r in zip(nm.meld.tiles, nm.from_rack, strict=True))
    ]


@dataclass(frozen=True)
class Move:
    """The best move found for a position, and how sure we are that nothing beats it."""

    position: Position
    table: tuple[NewMeld, ...]
    placed: tuple[Tile, ...]
    # Table tiles picked up (rummikub.models.moves.picked_up); empty in a decisive-only move.
    moved: tuple[Tile, ...]
    status: Status
    objective: Objective
    keep_jokers: bool
    seconds: float
    # Each objective level's value, in lexicographic order (read-only).
    scores: Mapping[Level, int] = field(default_factory=lambda: MappingProxyType({}))
    # Optimised on the levels that decide the game only (``solve(..., decisive_only=True)``):
    # which table it lays, and the tiles it picks up, are any; not checked by the solver.
    decisive_only: bool = False

    def __post_init__(self) -> None:
        # Immutable all through: a caller's dict of scores cannot change the move later.
        object.__setattr__(self, "scores", MappingProxyType(dict(self.scores)))

    def __reduce__(self) -> tuple[type[Move], tuple[object, ...]]:
        # A read-only mapping does not pickle; process executors send moves between
        # processes, so a move pickles as its fields with the scores as a plain dict.
        values = (getattr(self, f.name) for f in fields(self))
        return (Move, tuple(dict(v) if isinstance(v, MappingProxyType) else v for v in values))

    @property
    def melds(self) -> tuple[Meld, ...]:
        """The new table as plain melds."""
        return tuple(m.meld for m in self.table)

    @property
    def placed_count(self) -> int:
        """Rack tiles placed, jokers included."""
        return len(self.placed)

    @property
    def placed_value(self) -> int:
        """Face value of the placed tiles (jokers count 0)."""
        return sum(t.value for t in self.placed)

    @property
    def rack_left(self) -> tuple[Tile, ...]:
        """What stays on the rack, sorted."""
        return tuple(sorted_tiles((Counter(self.position.rack) - Counter(self.placed)).elements()))

    @property
    def is_draw(self) -> bool:
        """True when nothing can be placed: the player draws."""
        return not self.placed

    @property
    def is_optimal(self) -> bool:
        """Whether the move is proved best."""
        return self.status is Status.OPTIMAL

    @property
    def moved_proved(self) -> bool:
        """Whether the table tiles picked up are proved the fewest of the best moves.

        The model's count of kept table tiles is exact when no old meld holds a joker; with
        table jokers it is an upper bound (a meld whose jokers are moved counts as picked up
        whole), so the move found may pick up more than the fewest possible."""
        if not self.is_optimal or self.decisive_only:
            return False
        return not self.moved or not any(meld.jokers for meld in self.position.table)
