"""Hand-made player views for the tests of the arena's strategies."""

from __future__ import annotations

from rummikub.game import PlayerView
from rummikub.models import STANDARD, Meld, Tile


def tiles(text: str) -> tuple[Tile, ...]:
    """Tiles from notation: ``"r1 r2 j"``."""
    return tuple(Tile.parse(t) for t in text.split())


def view(
    rack: str,
    table: str = "",
    *,
    opened: bool = True,
    pool: int = 40,
    opponents: tuple[int, ...] = (14,),
) -> PlayerView:
    """Seat 0's view at turn 10 of round 1: this rack, this table (melds split by ``|``),
    opponents holding ``opponents`` tiles, ``pool`` tiles left, standard rules."""
    melds = tuple(Meld.parse(m) for m in table.split("|") if m.strip())
    own = tiles(rack)
    return PlayerView(
        seat=0,
        rack=own,
        table=melds,
        opened=opened,
        rack_sizes=(len(own), *opponents),
        pool_size=pool,
        scores=(0,) * (len(opponents) + 1),
        turn=10,
        round=1,
        seed=7,
        rules=STANDARD,
    )
