"""The answer: a move (the whole new table and the tiles placed) with its scores and status."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from rummikub.models.meld import Meld, MeldKind
from rummikub.models.notation import tiles_json
from rummikub.models.position import Position
from rummikub.models.tile import Tile, sorted_tiles
from rummikub.solver.limits import Status
from rummikub.solver.objectives import Objective


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
    moved: tuple[Tile, ...]  # table tiles picked up (rummikub.models.moves.picked_up)
    status: Status
    objective: Objective
    keep_jokers: bool
    seconds: float
    scores: dict[str, int] = field(default_factory=dict)  # each objective level, in order

    @property
    def melds(self) -> list[Meld]:
        """The new table as plain melds."""
        return [m.meld for m in self.table]

    @property
    def placed_count(self) -> int:
        """Rack tiles placed, jokers included."""
        return len(self.placed)

    @property
    def placed_value(self) -> int:
        """Face value of the placed tiles (jokers count 0)."""
        return sum(t.value for t in self.placed)

    @property
    def rack_left(self) -> list[Tile]:
        """What stays on the rack, sorted."""
        return sorted_tiles((Counter(self.position.rack) - Counter(self.placed)).elements())

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
        if not self.is_optimal:
            return False
        return not self.moved or not any(meld.jokers for meld in self.position.table)

    def to_json(self, steps: bool = True) -> dict[str, object]:
        """The JSON object printed by ``rummikub solve --json``.

        Per meld, ``provenance`` says where each tile came from (``"rack"`` or the index of
        the old table meld); ``steps`` lists how a person carries the move out.
        """
        from rummikub.steps.planner import RACK, explanation  # it imports us

        told = explanation(self, steps)
        jokers = [
            {"meld": i, "position": slot, "stands_for": tiles_json(tiles)}
            for i, options in enumerate(told.jokers)
            for slot, tiles in options
        ]
        payload: dict[str, object] = {
            "status": str(self.status),
            "objective": str(self.objective),
            "keep_jokers": self.keep_jokers,
            "initial": self.position.initial,
            "draw": self.is_draw,
            "placed": tiles_json(sorted_tiles(self.placed)),
            "placed_count": self.placed_count,
            "placed_value": self.placed_value,
            "table": [tiles_json(m.meld.tiles) for m in self.table],
            "melds": [
                {
                    "tiles": m.meld.tokens(),
                    "origin": str(origin),
                    "source": source,
                    "placed": [str(t) for t, s in zip(m.meld.tiles, row, strict=True) if s == RACK],
                    "provenance": list(row),
                }
                for m, row, origin, source in zip(
                    self.table, told.provenance, told.origins, told.sources, strict=True
                )
            ],
            "jokers": jokers,
            "rack": tiles_json(self.rack_left),
            "goes_out": told.goes_out,
            "opening": [tiles_json(m.tiles) for m in told.opening],
            "opening_value": told.opening_value,
            "moved": len(told.picked_up),
            "moved_tiles": tiles_json(told.picked_up),
            "moved_proved": self.moved_proved,
            "scores": dict(self.scores),
        }
        if steps:
            payload["steps"] = [step.to_json() for step in told.steps]
        payload["seconds"] = round(self.seconds, 6)
        return payload
