"""A companion game (``rummikub game``) as a game to review: your turns against the optimum.

The companion follows a real game from your seat, so only your turns can be reviewed: each
``draw``, ``play`` or ``pass`` event is measured in the position you had before it (the
table, your rack, whether you had opened, the game's rules). The events are replayed by
:func:`~rummikub.game.companion.replay`, which checks each one again (undo and redo
included), as ``rummikub game`` does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise

from rummikub.analysis.review import Chosen, GameReview, TurnTask
from rummikub.game.companion import GameState, History, replay
from rummikub.game.events import (
    ME,
    Drew,
    Passed,
    Played,
    event_from_json,
    seat_text,
)
from rummikub.game.record import Event, rules_json
from rummikub.models.tile import Tile

_ACTIONS = {Drew: "draw", Played: "play", Passed: "pass"}


@dataclass(frozen=True)
class CompanionGame:
    """A companion game's history, as game ``number`` of a review."""

    number: int
    history: History

    @property
    def names(self) -> list[str]:
        """``you``, ``opponent 1``, ... by seat."""
        return [seat_text(seat) for seat in range(self.history.state.players)]

    def _your_turns(self) -> Iterator[tuple[str, GameState, GameState]]:
        """Each of your turns: the action, the state before it and the state after."""
        done = self.history.done
        for (_, before), (event, after) in pairwise(done):
            action = _ACTIONS.get(type(event))
            if action is not None:
                yield action, before, after

    def turn_count(self, chosen: Chosen) -> int:
        """Your turns, if you are chosen."""
        return sum(1 for _ in self._your_turns()) if chosen(ME, seat_text(ME)) else 0

    def review_tasks(self, chosen: Chosen, time_limit: float) -> tuple[GameReview, list[TurnTask]]:
        """The game and your turns to solve."""
        state = self.history.state
        names = tuple(self.names)
        winner = None
        if state.match_over:
            winner = max(range(state.players), key=lambda s: (state.totals[s], -s))
        game = GameReview(
            self.number, names, winner, state.totals, rules_json(state.rules), seen=(ME,)
        )
        if not chosen(ME, names[ME]):
            return game, []
        tasks = [
            TurnTask(
                self.number,
                before.round,
                before.turn,
                ME,
                names[ME],
                before.position(),
                action,
                after.table if action == "play" else (),
                _placed(before.rack, after.rack) if action == "play" else (),
                time_limit,
            )
            for action, before, after in self._your_turns()
        ]
        return game, tasks


def _placed(before: Sequence[Tile], after: Sequence[Tile]) -> tuple[Tile, ...]:
    return tuple((Counter(before) - Counter(after)).elements())


def companion_game(events: Sequence[Event]) -> CompanionGame:
    """The companion game stored as these events (game number 0 of its review)."""
    return CompanionGame(0, replay(event_from_json(e) for e in events))
