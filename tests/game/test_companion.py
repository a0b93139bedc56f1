"""The companion's state model: events round-trip, a blocked round, undo and redo."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.game.companion import (
    Drew,
    Event,
    History,
    IllegalEventError,
    NewGame,
    NewRound,
    OpponentDrew,
    OpponentPlayed,
    Passed,
    Played,
    Redo,
    Scored,
    Undo,
    event_from_json,
    replay,
)
from rummikub.models.meld import Meld
from rummikub.models.presets import preset
from rummikub.models.rules import STANDARD, RuleSet
from rummikub.models.tile import Tile

SMALL = RuleSet(colours=2, numbers=5, copies=1, jokers=0)  # 10 tiles


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(t) for t in text.split())


def test_every_event_round_trips_through_its_stored_form() -> None:
    events: list[Event] = [
        NewGame(3, tiles("r1 r2 j"), preset("american"), 2, 150),
        OpponentPlayed(2, (Meld.parse("j=r4 r5 r6"), Meld.parse("k1 b1 o1"))),
        OpponentDrew(1),
        Drew(Tile.parse("o13")),
        Played((Meld.parse("r1-4"),)),
        Passed(),
        Scored((tiles("r5 j"), ())),
        NewRound(tiles("b1 b2"), 1),
        Undo(),
        Redo(),
    ]
    for event in events:
        assert event_from_json(event.to_json()) == event
        assert event.describe()


def test_a_blocked_round_ends_when_everyone_passed_and_the_lowest_rack_wins() -> None:
    history = History.begin(NewGame(2, tiles("k1 k2 b5 b4"), SMALL))
    assert history.state.pool_size == 2
    history = history.record(Drew(Tile.parse("k3")))
    history = history.record(OpponentDrew(1))
    assert history.state.pool_size == 0 and history.state.rack_sizes == (5, 5)
    with pytest.raises(IllegalEventError, match="the pool is empty"):
        history.record(Drew(Tile.parse("k4")))
    history = history.record(Passed())
    assert history.state.ended is None  # one pass is not a blocked round
    with pytest.raises(IllegalEventError, match="is not over"):
        history.record(Scored((tiles("k4 k5 b1 b2 b3"),)))
    history = history.record(OpponentDrew(1))  # the opponent passes: the pool is empty
    assert history.state.ended == "blocked"
    with pytest.raises(IllegalEventError, match="no more turns"):
        history.record(Passed())
    history = history.record(Scored((tiles("k4 k5 b1 b2 b3"),)))
    result = history.state.result
    assert result is not None and result.reason == "blocked"
    # mine: 1+2+5+4+3 = 15, the opponent's 4+5+1+2+3 = 15: a tie on value and tiles, seat 0
    assert result.winner == 0 and result.scores == (15, -15)


def test_an_opponent_who_goes_out_wins_the_round() -> None:
    history = History.begin(NewGame(2, tiles("r1 r2 r3"), STANDARD, first=1))
    with pytest.raises(IllegalEventError, match="holds 3 tiles"):
        history.record(OpponentPlayed(1, (Meld.parse("o10-13"),)))
    history = history.record(OpponentPlayed(1, (Meld.parse("o11-13"),)))
    assert history.state.ended == "out" and history.state.winner == 1


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["draw", "drew", "undo", "redo"]), max_size=25))
def test_undo_and_redo_are_exact_inverses(script: list[str]) -> None:
    """Whatever the order, the state is the replay of the events in force."""
    supply = iter(tiles("b1 b2 b3 o1 o2 o3 r5 r6 r7 r8 k3 k4 k5 k6 k7 k8 b10 b11 b12 o5 o6"))
    history = History.begin(
        NewGame(4, tiles("r3 r4 k9 b9 o9 j k1 k2 b5 b6 o11 o12 r13 k13"), STANDARD)
    )
    for step in script:
        try:
            if step == "draw":
                history = history.record(Drew(next(supply)))
            elif step == "drew":
                history = history.record(OpponentDrew(history.state.to_play or 1))
            else:
                history = history.record(Undo() if step == "undo" else Redo())
        except IllegalEventError:
            continue
        assert replay(event for event, _ in history.done).state == history.state
