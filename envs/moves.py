"""The moves an environment offers on a turn: the planner's candidates, each in a fixed slot.

Action ``i`` always means the same kind of move, :data:`SLOTS` ``[i]``: 0 draws a tile (or
passes when the pool is empty), 1 plays the most tiles the rack can place, 2 opens with the
fewest tiles worth the threshold in whole sets of those, 3 keeps the jokers that let no
more real tiles down, 4 keeps back the sets the rack makes on its own and plays the rest,
5 lays only those sets. The moves come from :func:`rummikub.arena.planner.candidates` (the
solver's moves, the ones the ``planner`` strategy and ``advise`` weigh); a slot the turn
does not offer (nothing new to play that way, or not yet opened) is masked out. Draw is
always offered.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from rummikub.arena.planner import Candidate, Solver, candidates
from rummikub.game.protocol import PlayerView, Reply
from rummikub.models.notation import format_tiles
from rummikub.models.tile import sorted_tiles

SLOTS: tuple[str, ...] = ("draw", "play all", "open small", "keep jokers", "keep sets", "sets only")
"""The meaning of each action index (index 0 is the draw)."""
DRAW_ACTION = 0


def action_index(action: object) -> int:
    """``action`` as an index of :data:`SLOTS`: an integer (Python's or NumPy's, or a
    NumPy array of one), else :class:`TypeError`; out of range, :class:`ValueError`. A
    float is refused rather than cut down: it is most likely a learner's bug (an argmax
    over the wrong axis, a raw output)."""
    if isinstance(action, np.ndarray) and action.size == 1:
        action = action.reshape(()).item() if action.dtype.kind in "iu" else action
    if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
        raise TypeError(f"an action is an integer index of {len(SLOTS)} slots, not {action!r}")
    index = int(action)
    if not 0 <= index < len(SLOTS):
        raise ValueError(f"action {index} is out of range: the actions are 0..{len(SLOTS) - 1}")
    return index


# The planner calls its draw "hold" (it keeps the whole rack); every other label is a slot.
_SLOT_OF_LABEL = {"hold": DRAW_ACTION} | {label: i for i, label in enumerate(SLOTS) if i}


class UnknownCandidateError(RuntimeError):
    """The planner offered a kind of move this environment version has no action for."""


@dataclass(frozen=True)
class TurnMoves:
    """The moves offered to the player of ``view``: one candidate or ``None`` per slot."""

    view: PlayerView
    slots: tuple[Candidate | None, ...]

    @property
    def mask(self) -> npt.NDArray[np.int8]:
        """1 for each action offered this turn, 0 for the others."""
        return np.array([c is not None for c in self.slots], dtype=np.int8)

    def legal(self, action: int) -> bool:
        """Whether ``action`` is one of this turn's moves."""
        return 0 <= action < len(self.slots) and self.slots[action] is not None

    def reply(self, action: int) -> Reply:
        """The play of ``action``; :class:`ValueError` when the turn does not offer it."""
        candidate = self.slots[action] if 0 <= action < len(self.slots) else None
        if candidate is None:
            offered = [i for i, c in enumerate(self.slots) if c is not None]
            raise ValueError(f"action {action} is not offered this turn (offered: {offered})")
        return candidate.play

    def names(self) -> dict[int, str]:
        """Each offered action in tile notation: its kind, the tiles it places, the new table."""
        return {
            i: describe(c, self.view.pool_size) for i, c in enumerate(self.slots) if c is not None
        }


def describe(candidate: Candidate, pool_size: int) -> str:
    """A candidate in tile notation: ``play all: k7 r3 r4 r5 -> r3 r4 r5 | k7 b7 o7``."""
    if candidate.play.is_draw:
        return "draw" if pool_size else "pass (the pool is empty)"
    placed = format_tiles(sorted_tiles(candidate.play.placed))
    table = " | ".join(str(meld) for meld in candidate.play.melds)
    return f"{candidate.label}: {placed} -> {table}"


def turn_moves(view: PlayerView, solver: Solver) -> TurnMoves:
    """The moves of this turn in their slots, from the planner's candidates (all of them:
    keep jokers, and keep sets and sets only once the player has opened)."""
    slots: list[Candidate | None] = [None] * len(SLOTS)
    for candidate in candidates(view, solver, keep_jokers=True, partial=True):
        slot = _SLOT_OF_LABEL.get(candidate.label)
        if slot is None:
            # A new kind of candidate changes what the actions mean: a new environment
            # version (rummikub_v1) has to give it a slot, not this one.
            raise UnknownCandidateError(
                f"the planner offers {candidate.label!r}, which has no action in {SLOTS}"
            )
        slots[slot] = candidate
    return TurnMoves(view, tuple(slots))
