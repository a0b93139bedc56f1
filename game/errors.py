"""Errors of the arena: a player that breaks the rules, a strategy that cannot be found."""

from __future__ import annotations

from collections.abc import Sequence

from rummikub.models.errors import RummikubError


class ArenaError(RummikubError):
    """Base class of the arena's errors (bad player specs, bad records, bad settings)."""


class IllegalPlayError(ArenaError):
    """A player returned an illegal move (or something that is not a move).

    ``player`` is the player's name, ``seat`` its seat, ``turn`` the turn number in the round
    and ``problems`` every rule it broke, as the independent validator words them.
    """

    def __init__(self, player: str, seat: int, turn: int, problems: Sequence[str]) -> None:
        self.player = player
        self.seat = seat
        self.turn = turn
        self.problems = tuple(problems)
        super().__init__(
            f"player {player!r} (seat {seat}) made an illegal move on turn {turn}: "
            + "; ".join(self.problems)
        )

    def __reduce__(self) -> tuple[type[IllegalPlayError], tuple[str, int, int, tuple[str, ...]]]:
        # The default reduction passes only the message; keep every field across processes.
        return (type(self), (self.player, self.seat, self.turn, self.problems))


class PlugInError(ArenaError):
    """A plug-in player (``module:callable``) failed: it could not be loaded or made, or it
    raised on its turn. The plug-in's fault, not the arena's."""


class RecordError(ArenaError):
    """A game record that cannot be read or does not replay to what it claims."""
