"""What a player sees and what it answers: :class:`PlayerView`, :class:`Reply` and ``Player``.

A player is any callable ``player(view) -> Reply | None``. ``None`` (or a reply that places
nothing) means "draw a tile" (or pass when the pool is empty). Any object with ``melds`` and
``placed`` attributes is accepted as a reply, so a solver :class:`~rummikub.solver.Move` can be
returned as it is. (A *reply* is the whole answer of a turn; a *play* is one step of a move,
:class:`rummikub.steps.replay.Play`.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from rummikub.models.meld import Meld
from rummikub.models.position import Position
from rummikub.models.rules import STANDARD, RuleSet
from rummikub.models.tile import Tile


@dataclass(frozen=True)
class PlayerView:
    """Everything a player may know on its turn, and nothing more (no other rack, no pool order).

    ``rack_sizes`` and ``scores`` are indexed by seat (the player's own entries included);
    ``scores`` are the match totals before this round (zeros in a one-round game).
    ``seed`` is a per-game, per-seat number for players that want reproducible randomness.
    """

    seat: int
    rack: tuple[Tile, ...]
    table: tuple[Meld, ...]
    opened: bool
    rack_sizes: tuple[int, ...]
    pool_size: int
    scores: tuple[int, ...]
    turn: int
    round: int
    seed: int
    rules: RuleSet = STANDARD

    @property
    def players(self) -> int:
        """How many players sit at the table."""
        return len(self.rack_sizes)

    @property
    def opponents_rack_sizes(self) -> tuple[int, ...]:
        """Rack sizes of the other players, in turn order after this player."""
        n = self.players
        return tuple(self.rack_sizes[(self.seat + k) % n] for k in range(1, n))

    def position(self) -> Position:
        """The solver's position for this turn (``initial`` while the player has not opened)."""
        return Position(self.table, self.rack, not self.opened, self.rules)


@dataclass(frozen=True)
class Reply:
    """A player's reply on its turn: the whole new table and the rack tiles that went down.

    A reply that places nothing is a draw (the table is then left as it was).
    """

    melds: tuple[Meld, ...] = ()
    placed: tuple[Tile, ...] = ()

    @property
    def is_draw(self) -> bool:
        """True when nothing is placed: the player draws (or passes on an empty pool)."""
        return not self.placed

    @classmethod
    def of(cls, melds: Sequence[Meld], placed: Sequence[Tile]) -> Reply:
        """A reply from any sequences of melds and tiles."""
        return cls(tuple(melds), tuple(placed))


DRAW = Reply()
"""The answer of a player that does not play this turn."""


class Action(Protocol):
    """Anything with the new table and the placed tiles (a :class:`Reply`, a solver ``Move``)."""

    @property
    def melds(self) -> Sequence[Meld]: ...

    @property
    def placed(self) -> Sequence[Tile]: ...


@runtime_checkable
class Player(Protocol):
    """A strategy: called once per turn with the player's view, returns a reply or ``None``.

    A player may also have a ``solves`` attribute (how many solver calls it made), which the
    arena adds up for its throughput figures.
    """

    def __call__(self, view: PlayerView) -> Action | None: ...
