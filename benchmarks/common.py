"""Shared pieces of the benchmark scripts: seeded positions by size class, the peer solver
adapter, and percentile statistics.

The peer is ``rummikub-solver`` (PyPI, import ``rummikub_solver``): the same den Hertog &
Hulshof set-cover ILP, solved through cvxpy with HiGHS (or SciPy's HiGHS). Its tiles are
integers ``colour_index * numbers + number`` (1-based) with colours in the order of its
``Colour`` enum (BLACK, BLUE, ORANGE, RED, ...) and the joker last. Our colours are in the
order BLACK, BLUE, RED, ORANGE, so red and orange swap places in the translation.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rummikub.models.generate import random_position
from rummikub.models.position import Position
from rummikub.models.rules import STANDARD
from rummikub.models.tile import Colour, Tile

if TYPE_CHECKING:
    import rummikub_solver


@dataclass(frozen=True, slots=True)
class SizeClass:
    """Positions with about ``in_play`` tiles in play: table tiles plus a 14-tile rack."""

    name: str
    table_tiles: int  # target for random_position (it may overshoot by up to min_len - 1)
    rack_tiles: int = 14

    @property
    def in_play(self) -> int:
        """Nominal tiles in play."""
        return self.table_tiles + self.rack_tiles


CLASSES: tuple[SizeClass, ...] = (
    SizeClass("empty+14", 0),
    SizeClass("~20", 6),
    SizeClass("~40", 26),
    SizeClass("~60", 46),
    SizeClass("~90", 76),
)

# Every third position is joker-heavy (a joker stands in for a tile with probability 0.15
# when the table is built); the others use the generator's default rate.
JOKER_RATES = (0.05, 0.05, 0.15)


def class_positions(size: SizeClass, count: int, base_seed: int = 0) -> list[Position]:
    """``count`` seeded positions of one size class (the same on every run)."""
    out = []
    for i in range(count):
        seed = base_seed + 100_000 * (size.table_tiles + 1) + i
        rate = JOKER_RATES[i % len(JOKER_RATES)]
        out.append(
            random_position(
                seed, table_tiles=size.table_tiles, rack_tiles=size.rack_tiles, joker_rate=rate
            )
        )
    return out


def tiles_in_play(position: Position) -> int:
    """Table tiles plus rack tiles."""
    return len(position.table_tiles()) + len(position.rack)


# --- statistics -------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation between closest ranks."""
    if not values:
        return math.nan
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    rank = (len(ordered) - 1) * q / 100
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


@dataclass(frozen=True, slots=True)
class Summary:
    """Distribution of a list of timings, in seconds."""

    n: int
    median: float
    p95: float
    p99: float
    max: float
    mean: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Summary:
        """Summarise timings."""
        if not values:
            return cls(0, math.nan, math.nan, math.nan, math.nan, math.nan)
        return cls(
            len(values),
            statistics.median(values),
            percentile(values, 95),
            percentile(values, 99),
            max(values),
            statistics.fmean(values),
        )

    def ms(self) -> dict[str, float]:
        """The figures in milliseconds, rounded, for JSON output."""
        return {
            "n": self.n,
            "median_ms": round(self.median * 1000, 3),
            "p95_ms": round(self.p95 * 1000, 3),
            "p99_ms": round(self.p99 * 1000, 3),
            "max_ms": round(self.max * 1000, 3),
            "mean_ms": round(self.mean * 1000, 3),
        }


def fmt_ms(seconds: float) -> str:
    """Milliseconds with a precision that suits the magnitude."""
    ms = seconds * 1000
    if math.isnan(ms):
        return "-"
    if ms < 10:
        return f"{ms:.2f}"
    if ms < 1000:
        return f"{ms:.1f}"
    return f"{ms:.0f}"


def table(rows: Sequence[Sequence[str]], header: Sequence[str]) -> str:
    """A plain-text table with right-aligned columns (the first left-aligned)."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        parts = [
            str(c).ljust(w) if i == 0 else str(c).rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(header), rule, *(line(r) for r in rows)])


# --- the peer solver --------------------------------------------------------------------

# Our Colour index -> the peer's colour index (its enum order: BLACK, BLUE, ORANGE, RED).
_PEER_COLOUR = {
    Colour.BLACK: 0,
    Colour.BLUE: 1,
    Colour.ORANGE: 2,
    Colour.RED: 3,
    Colour.GREEN: 4,
    Colour.PURPLE: 5,  # MAGENTA in the peer
    Colour.WHITE: 6,
    Colour.CYAN: 7,
}


def peer_tile_id(
    tile: Tile, numbers: int = STANDARD.numbers, colours: int = STANDARD.colours
) -> int:
    """The peer's integer id of one of our tiles (standard rules: 1..52, joker 53)."""
    if tile.colour is None or tile.number is None:
        return numbers * colours + 1
    return _PEER_COLOUR[tile.colour] * numbers + tile.number


def check_peer_colour_order() -> None:
    """Fail loudly if the peer's colour enum is not in the order the mapping assumes."""
    import rummikub_solver

    rules = rummikub_solver.RuleSet()
    for ours, index in _PEER_COLOUR.items():
        if ours >= STANDARD.colours:
            continue
        peer_tile = rules.tiles[index * STANDARD.numbers]  # the "1" of that colour
        assert isinstance(peer_tile, rummikub_solver.Number), peer_tile
        name = "ORANGE" if ours is Colour.ORANGE else ours.name
        assert peer_tile.colour.name == name, (ours, peer_tile.colour)
    joker = rules.tiles[-1]
    assert isinstance(joker, rummikub_solver.Joker)
    assert int(joker) == peer_tile_id(Tile(None, None))


class Peer:
    """One warm ``rummikub_solver.RuleSet`` (its cvxpy problems are built once)."""

    def __init__(self, backend: str | None = "SCIPY") -> None:
        """``backend``: a ``MILPSolver`` name, or None for the peer's own default (HIGHS
        through highspy when that is installed, else SCIPY; SCIPY measured faster here)."""
        import rummikub_solver

        self._mod = rummikub_solver
        chosen = None if backend is None else rummikub_solver.MILPSolver(backend)
        self.rules: rummikub_solver.RuleSet = rummikub_solver.RuleSet(solver_backend=chosen)

    def state(self, position: Position) -> Any:
        """The peer's GameState for a (non-initial) position."""
        state = self.rules.new_game()
        state.initial = position.initial
        table = [peer_tile_id(t) for t in position.table_tiles()]
        rack = [peer_tile_id(t) for t in position.rack]
        if table:
            state.add_table(*table)
        if rack:
            state.add_rack(*rack)
        return state

    def solve_count(self, position: Position) -> int:
        """Tiles the peer places in TILE_COUNT mode (0 when it proposes nothing)."""
        solution = self.rules.solve(self.state(position), self._mod.SolverMode.TILE_COUNT)
        return 0 if solution is None else len(solution.tiles)

    @property
    def backend(self) -> str:
        """The MILP backend cvxpy hands the problem to."""
        return str(self.rules.backend)


def peer_version() -> str:
    """The installed peer's version, or 'not installed'."""
    try:
        import rummikub_solver
    except ImportError:
        return "not installed"
    return str(rummikub_solver.__version__)
