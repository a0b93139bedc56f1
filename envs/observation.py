"""What a player observes, as one fixed-shape vector, and the action mask beside it.

The vector (``int16``) holds, in this order, for the rules' tile types ``T``
(:attr:`~rummikub.models.rules.RuleSet.tile_types`: colour-major, the joker last; 53 in the
standard game) and the number of actions ``A`` (:data:`~rummikub.envs.moves.SLOTS`):

* ``rack`` (T): how many of each tile the player holds;
* ``table`` (T): how many of each tile lie on the table;
* ``moves`` (A x T): how many of each tile each offered move places (zeros for a draw and
  for a move not offered);
* ``rack_sizes`` (players): every rack's size, the player's own first, then the others in
  turn order;
* ``pool_size`` (1): tiles left to draw;
* ``opened`` (1): 1 once the player has made its opening meld.

It is what the player's :class:`~rummikub.game.protocol.PlayerView` shows, nothing more.
:meth:`Layout.split` cuts a vector back into these named parts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from rummikub.envs.moves import SLOTS, TurnMoves
from rummikub.game.protocol import PlayerView
from rummikub.models.rules import RuleSet
from rummikub.models.tile import Tile

Observation = dict[str, npt.NDArray[Any]]
"""``{"observation": the vector, "action_mask": one 0/1 per action}``."""

FIELDS = ("rack", "table", "moves", "rack_sizes", "pool_size", "opened")
DTYPE = np.int16


@dataclass(frozen=True)
class Layout:
    """Where each part of the observation lies, for one set of rules and number of players."""

    rules: RuleSet
    players: int

    @property
    def types(self) -> int:
        """Tile types of the game."""
        return len(self.rules.tile_types)

    def lengths(self) -> dict[str, int]:
        """How many entries each field takes."""
        t = self.types
        return dict(zip(FIELDS, (t, t, len(SLOTS) * t, self.players, 1, 1), strict=True))

    def slices(self) -> dict[str, slice]:
        """Each field's place in the vector."""
        out: dict[str, slice] = {}
        start = 0
        for name, length in self.lengths().items():
            out[name] = slice(start, start + length)
            start += length
        return out

    @property
    def size(self) -> int:
        """Length of the vector."""
        return sum(self.lengths().values())

    def high(self) -> npt.NDArray[np.int16]:
        """The largest value of each entry: a tile's copies, a rack of every tile, 1."""
        copies = [self.rules.copies_of(t) for t in self.rules.tile_types]
        everything = self.rules.total_tiles
        parts = (copies, copies, copies * len(SLOTS), [everything] * self.players, [everything])
        return np.array([v for part in parts for v in part] + [1], dtype=DTYPE)

    def space(self) -> spaces.Dict:
        """The observation space: the vector and the action mask."""
        return spaces.Dict(
            {
                "observation": spaces.Box(0, self.high(), shape=(self.size,), dtype=DTYPE),
                "action_mask": spaces.Box(0, 1, shape=(len(SLOTS),), dtype=np.int8),
            }
        )

    def _counts(self, tiles: Iterable[Tile]) -> npt.NDArray[np.int16]:
        out = np.zeros(self.types, dtype=DTYPE)
        for tile in tiles:
            out[self.rules.index(tile)] += 1
        return out

    def vector(self, view: PlayerView, moves: TurnMoves | None) -> npt.NDArray[np.int16]:
        """The observation vector of ``view``; ``moves`` when it is the player's turn."""
        placed = np.zeros((len(SLOTS), self.types), dtype=DTYPE)
        if moves is not None:
            for i, candidate in enumerate(moves.slots):
                if candidate is not None:
                    placed[i] = self._counts(candidate.play.placed)
        parts = (
            self._counts(view.rack),
            self._counts(t for meld in view.table for t in meld.tiles),
            placed.ravel(),
            np.roll(np.array(view.rack_sizes, dtype=DTYPE), -view.seat),
            np.array([view.pool_size, view.opened], dtype=DTYPE),
        )
        return np.concatenate(parts)

    def observe(self, view: PlayerView, moves: TurnMoves | None) -> Observation:
        """The observation of ``view``: the vector, and the mask (all zeros without moves)."""
        mask = moves.mask if moves is not None else np.zeros(len(SLOTS), dtype=np.int8)
        return {"observation": self.vector(view, moves), "action_mask": mask}

    def split(self, vector: npt.NDArray[Any]) -> dict[str, npt.NDArray[Any]]:
        """The named parts of an observation vector (``moves`` as A x T)."""
        parts = {name: vector[where] for name, where in self.slices().items()}
        parts["moves"] = parts["moves"].reshape(len(SLOTS), self.types)
        return parts
