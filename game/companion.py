"""The game companion's state model: a real game, followed from one seat, as a list of events.

The player who uses the companion sits at seat 0 ("you"); the opponents are seats 1..n-1 in
the order they play after you. What the companion is told:

* ``new``: the game starts: players, rules, your rack, who plays first, the match target;
* ``table``: an opponent played, and the whole table is now this (how many tiles they laid
  follows from it);
* ``drew``: an opponent drew (or passed, the pool being empty) — optional: an opponent whose
  turn goes by without a ``table`` event drew;
* ``draw``: you drew this tile; ``play``: you played, the table is now this; ``pass``: you
  could not play and the pool is empty;
* ``score``: the round is over, the opponents' racks were these; ``round``: the next round
  of the match is dealt, your new rack;
* ``undo`` / ``redo``: take back the last event, or bring back the last one taken back.

Everything else follows from the events: who is to play, each opponent's rack size, who has
made the opening meld, the pool size (the full set minus the table and all racks), the
tiles you cannot see (the full set minus the table and your rack), the end of a round and
the match totals. Every event is checked against the rules and the tile counts before it
is taken in; a rejected event raises a one-line :class:`~rummikub.models.errors.RummikubError`
(:class:`IllegalEventError`, or :class:`~rummikub.models.errors.IllegalMeldError` /
:class:`~rummikub.models.errors.IllegalPositionError` for a meld or the tile counts) and
leaves the game as it was. Stored events are read by :mod:`.companion_events` and kept
by :mod:`.companion_store`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rummikub.game.events import (
    FORMAT_VERSION,
    MATCH_TARGET,
    ME,
    CompanionError,
    Drew,
    Event,
    EventFormatError,
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
    melds_json,
)
from rummikub.game.events import seat_text as _seat_text
from rummikub.game.record import rules_json
from rummikub.game.scoring import blocked_winner, round_scores
from rummikub.models.generate import full_set
from rummikub.models.jokers import JokerRule
from rummikub.models.meld import Meld, MeldKind
from rummikub.models.notation import format_tiles, tiles_json
from rummikub.models.position import Position
from rummikub.models.rules import RuleSet
from rummikub.models.tile import Tile, sorted_tiles
from rummikub.models.validation import move_problems


@dataclass(frozen=True)
class RoundOutcome:
    """How a round at the companion ended and what it scored (every seat, yours first)."""

    winner: int
    reason: str  # "out" or "blocked"
    racks: tuple[tuple[Tile, ...], ...]
    scores: tuple[int, ...]


@dataclass(frozen=True)
class GameState:
    """Everything that follows from the events so far, as seen from seat 0."""

    rules: RuleSet
    players: int
    target: int
    round: int
    table: tuple[Meld, ...]
    rack: tuple[Tile, ...]
    rack_sizes: tuple[int, ...]  # every seat's rack size; seat 0 is len(rack)
    opened: tuple[bool, ...]
    to_play: int
    turn: int  # turns taken this round
    passes: int  # consecutive turns without a play while the pool was empty
    ended: str | None = None  # None while the round goes on, else "out" or "blocked"
    winner: int | None = None  # the seat that went out (a blocked round: decided by score)
    result: RoundOutcome | None = None  # set once the round is scored
    totals: tuple[int, ...] = ()
    rounds: tuple[RoundOutcome, ...] = ()

    @property
    def pool_size(self) -> int:
        """Tiles left to draw: the full set minus the table and every rack."""
        return self.rules.total_tiles - len(self.table_tiles()) - sum(self.rack_sizes)

    def table_tiles(self) -> list[Tile]:
        """Every tile on the table."""
        return [t for meld in self.table for t in meld.tiles]

    def unseen(self) -> Counter[Tile]:
        """Tiles you cannot see (in the pool or on the opponents' racks), with their copies."""
        return full_set(self.rules) - Counter(self.table_tiles()) - Counter(self.rack)

    def position(self) -> Position:
        """Your position: the table, your rack, and whether your opening meld is still to make."""
        return Position(self.table, self.rack, not self.opened[ME], self.rules)

    @property
    def match_over(self) -> bool:
        """Whether a scored round brought a player's total to the match target."""
        return self.result is not None and max(self.totals) >= self.target

    def status(self) -> str:
        """One line: whose turn it is, or how the round or match ended."""
        if self.match_over:
            best = max(range(self.players), key=lambda s: (self.totals[s], -s))
            return f"the match is over: {_seat_text(best)} won with {self.totals[best]}"
        if self.result is not None:
            return f"round {self.round} scored: {_seat_text(self.result.winner)} won it"
        if self.ended == "out":
            return f"round over: {_seat_text(self.winner or 0)} went out; score it"
        if self.ended == "blocked":
            return "round over: nobody can play and the pool is empty; score it"
        return "your turn" if self.to_play == ME else f"{_seat_text(self.to_play)} to play"


def start(event: NewGame) -> GameState:
    """The state at the start of a game (the ``new`` event checked)."""
    if not 2 <= event.players <= 4:
        raise IllegalEventError(f"a game has 2 to 4 players, got {event.players}")
    if event.target < 1:
        raise IllegalEventError(f"the match target must be positive, got {event.target}")
    state = GameState(
        rules=event.rules,
        players=event.players,
        target=event.target,
        round=0,
        table=(),
        rack=(),
        rack_sizes=(0,) * event.players,
        opened=(False,) * event.players,
        to_play=ME,
        turn=0,
        passes=0,
        totals=(0,) * event.players,
    )
    return _deal(state, event.rack, event.first)


def _deal(state: GameState, rack: tuple[Tile, ...], first: int) -> GameState:
    """A new round: everyone holds as many tiles as your new rack; ``first`` plays first."""
    n = state.players
    if not 0 <= first < n:
        raise IllegalEventError(f"the first player must be a seat 0..{n - 1}, got {first}")
    if not rack:
        raise IllegalEventError("your rack is empty: give the tiles you were dealt")
    Position.of((), rack, rules=state.rules)  # legal tiles, no more copies than the game has
    if n * len(rack) > state.rules.total_tiles:
        raise IllegalEventError(
            f"{n} racks of {len(rack)} tiles need more than the {state.rules.total_tiles} "
            "tiles of the game"
        )
    return replace(
        state,
        round=state.round + 1,
        table=(),
        rack=tuple(rack),
        rack_sizes=(len(rack),) * n,
        opened=(False,) * n,
        to_play=first,
        turn=0,
        passes=0,
        ended=None,
        winner=None,
        result=None,
    )


def apply(state: GameState, event: Event, *, written_order: bool = True) -> GameState:
    """The state after ``event``, or :class:`IllegalEventError` (the state is unchanged).
    ``written_order`` off: table jokers read as plays were before a run's jokers stood where
    it is written and before a joker that is not replaced had to stay with its set
    (:func:`~rummikub.models.validation.move_problems`), for game files."""
    if isinstance(event, NewGame):
        raise IllegalEventError("the game has already started")
    if isinstance(event, Scored):
        return _score(state, event)
    if isinstance(event, NewRound):
        return _new_round(state, event)
    if state.ended is not None:
        raise IllegalEventError(f"{state.status()}: no more turns this round")
    if isinstance(event, OpponentPlayed):
        return _opponent_played(state, event, written_order)
    if isinstance(event, OpponentDrew):
        state = _skip_to(state, _opponent_seat(state, event.seat))
        return _drew_or_passed(state)
    if isinstance(event, Drew):
        return _you_drew(_skip_to(state, ME), event.tile)
    if isinstance(event, Played):
        return _you_played(_skip_to(state, ME), event.table, written_order)
    if isinstance(event, Passed):
        return _you_passed(_skip_to(state, ME))
    raise IllegalEventError(f"'{event.kind}' is not a game event")


def _next(state: GameState, seat: int) -> int:
    return (seat + 1) % state.players


def _opponent_seat(state: GameState, seat: int) -> int:
    """Check that ``seat`` is an opponent who may move now (a later one skips those before)."""
    n = state.players
    if not 1 <= seat < n:
        raise IllegalEventError(f"opponents sit at seats 1..{n - 1}, got seat {seat}")
    if state.to_play == ME:
        raise IllegalEventError("it is your turn: record your draw, play or pass first")
    if seat < state.to_play:
        raise IllegalEventError(
            f"{_seat_text(seat)} has already had its turn; {_seat_text(state.to_play)} is next"
        )
    return seat


def at_turn_of(state: GameState, seat: int) -> GameState:
    """The state when opponent ``seat`` is to play: the one to play now, or a later one (the
    opponents before it drew, or passed when the pool was empty; see :func:`skipped`).
    :class:`IllegalEventError` when it is your turn, the seat is no opponent or has
    already had its turn, or the round is over."""
    if state.ended is not None:
        raise IllegalEventError(f"{state.status()}: no more turns this round")
    return _skip_to(state, _opponent_seat(state, seat))


def skipped(state: GameState, seat: int) -> tuple[int, ...]:
    """The seats whose turns go by without a play (each drew or passed) before ``seat``
    plays: those between the one to play now and ``seat``."""
    seats: list[int] = []
    current = state.to_play
    while current != seat and len(seats) < state.players:
        seats.append(current)
        current = _next(state, current)
    return tuple(seats)


def _skip_to(state: GameState, seat: int) -> GameState:
    """The opponents between the one to play and ``seat`` did not play: each drew or passed."""
    while state.to_play != seat and state.ended is None:
        state = _drew_or_passed(state)
    if state.ended is not None:
        raise IllegalEventError(f"{state.status()}: no more turns this round")
    return state


def _drew_or_passed(state: GameState) -> GameState:
    """The player to play takes a tile from the pool (a pass when it is empty)."""
    seat = state.to_play
    if state.pool_size > 0:
        sizes = list(state.rack_sizes)
        sizes[seat] += 1
        return _turn_done(state, rack_sizes=tuple(sizes), passes=0)
    return _turn_done(state, passes=state.passes + 1)


def _turn_done(state: GameState, **changes: Any) -> GameState:
    """Advance to the next player, ending the round if everyone passed in a row."""
    seat = state.to_play
    after = replace(state, to_play=_next(state, seat), turn=state.turn + 1, **changes)
    if after.passes >= after.players:
        after = replace(after, ended="blocked")
    return after


def _tiles_text(counts: Counter[Tile]) -> str:
    return format_tiles(sorted_tiles(counts.elements()))


def _table_change(state: GameState, table: tuple[Meld, ...], who: str) -> Counter[Tile]:
    """The tiles laid by a play that leaves ``table``; raises if any table tile vanished."""
    old = Counter(state.table_tiles())
    new = Counter(t for meld in table for t in meld.tiles)
    lost = old - new
    if lost:
        raise IllegalEventError(
            f"the new table lacks {_tiles_text(lost)} that {'was' if lost.total() == 1 else 'were'}"
            " on the table: tiles never leave the table (give the whole table as it is now)"
        )
    laid = new - old
    if not laid:
        hint = "record 'drew'" if who != "you" else "record 'draw TILE' or 'pass'"
        raise IllegalEventError(
            f"the new table holds the same tiles as before: {who} laid nothing ({hint})"
        )
    return laid


def _check_play(
    state: GameState,
    seat: int,
    table: tuple[Meld, ...],
    laid: Counter[Tile],
    written_order: bool = True,
) -> None:
    """The play from ``seat`` is legal: melds, opening meld, table jokers (the validator)."""
    before = Position(state.table, tuple(laid.elements()), not state.opened[seat], state.rules)
    # A game file replays as recorded: plays typed before a run's jokers stood where it is
    # written, or before a joker that is not replaced had to stay with its set, still read.
    problems = move_problems(
        before, table, laid.elements(), written_order=written_order, with_their_sets=written_order
    )
    if problems:
        raise IllegalEventError(f"illegal play by {_seat_text(seat)}: {'; '.join(problems)}")


def check_typed(state: GameState, event: Event) -> None:
    """What a newly typed event must also get right, beyond what replaying a game file
    checks (files written before these checks still read): under the strict and locked
    rules a table's runs with jokers written as they lie; a deal of as many tiles as the
    rules deal (:func:`check_deal`)."""
    if isinstance(event, OpponentPlayed | Played):
        _runs_as_they_lie(event.table, state.rules)
    if isinstance(event, NewRound):
        _round_can_begin(state)  # first: a rack for a round that cannot begin is no matter
        check_deal(state.rules, event.rack)


class DealSizeError(IllegalEventError):
    """A rack at the deal of another size than the rules deal (a tile forgotten, or one
    too many): refused, unless the rules say the game deals that many."""


def check_deal(rules: RuleSet, rack: Sequence[Tile]) -> None:
    """A newly typed deal (``new`` or ``round``): your rack holds ``rules.rack_size`` tiles.
    Game files written before this check still read."""
    if len(rack) != rules.rack_size:
        size = len(rack)
        tiles = "tile" if size == 1 else "tiles"
        raise DealSizeError(
            f"your rack holds {size} {tiles}, but the rules deal {rules.rack_size}: give every "
            f"tile you were dealt (a game that deals {size} says so: --rack-size {size})"
        )


def _runs_as_they_lie(table: tuple[Meld, ...], rules: RuleSet) -> None:
    """Under the strict and locked rules, a run with jokers is written as it lies: each
    joker stands for the tile whose place it takes, and the game keeps that meaning for the
    turns to come (a run typed in no run's order would leave it open)."""
    if rules.joker_rule is JokerRule.FREE:
        return
    for i, meld in enumerate(table, 1):
        if not meld.jokers or sum(d is not None for d in meld.declared) == meld.jokers:
            continue  # every joker declared: nothing left open
        found = meld.readings(rules)
        runs = [r for r in found if r.kind is MeldKind.RUN]
        if not runs or len(runs) < len(found) or any(r.laid_out() == meld.tiles for r in runs):
            continue
        ways = " or ".join(f"'{format_tiles(r.laid_out())}'" for r in runs)
        raise IllegalEventError(
            f"table meld {i} '{meld}': under the {rules.joker_rule} joker rule a joker stands for "
            f"the tile whose place it takes: type the run as it lies ({ways})"
        )


def as_they_lie(table: Iterable[Meld], rules: RuleSet) -> tuple[Meld, ...]:
    """``table`` with each run whose jokers are written in no run's order laid out in the
    order of its first reading, as a newly typed table must be under the strict and locked
    rules (:func:`check_typed`): a solver's table lists a run's tiles in any order."""
    if rules.joker_rule is JokerRule.FREE:
        return tuple(table)
    out = []
    for meld in table:
        found = meld.readings(rules)
        runs = [r for r in found if r.kind is MeldKind.RUN]
        declared = sum(d is not None for d in meld.declared)
        if (
            meld.jokers
            and declared < meld.jokers
            and runs
            and len(runs) == len(found)
            and not any(r.laid_out() == meld.tiles for r in runs)
        ):
            meld = Meld(runs[0].laid_out())  # where each joker lies says what it stands for
        out.append(meld)
    return tuple(out)


def _opponent_played(
    state: GameState, event: OpponentPlayed, written_order: bool = True
) -> GameState:
    seat = _opponent_seat(state, event.seat)
    state = _skip_to(state, seat)
    Position.of(event.table, state.rack, rules=state.rules)  # legal melds, tile counts
    laid = _table_change(state, event.table, _seat_text(seat))
    if event.placed and Counter(event.placed) != laid:
        raise IllegalEventError(
            f"the new table adds {_tiles_text(laid)} to the table, not the tiles placed "
            f"({format_tiles(sorted_tiles(event.placed))})"
        )
    if laid.total() > state.rack_sizes[seat]:
        raise IllegalEventError(
            f"{_seat_text(seat)} holds {state.rack_sizes[seat]} tiles but the new table has "
            f"{laid.total()} more"
        )
    _check_play(state, seat, event.table, laid, written_order)
    return _after_play(state, seat, event.table, state.rack, laid.total())


def _you_drew(state: GameState, tile: Tile) -> GameState:
    if state.pool_size == 0:
        raise IllegalEventError("the pool is empty: nobody can draw (record 'pass')")
    state.rules.check_tile(tile, "drawn")
    Position.of(state.table, (*state.rack, tile), rules=state.rules)
    rack = (*state.rack, tile)
    sizes = (len(rack), *state.rack_sizes[1:])
    return _turn_done(state, rack=rack, rack_sizes=sizes, passes=0)


def _you_played(state: GameState, table: tuple[Meld, ...], written_order: bool = True) -> GameState:
    for i, meld in enumerate(table, 1):
        meld.check(state.rules, where=f"table meld {i}")
    laid = _table_change(state, table, "you")
    missing = laid - Counter(state.rack)
    if missing:
        raise IllegalEventError(
            f"the new table has {_tiles_text(missing)} that is neither on the table nor on "
            "your rack"
        )
    _check_play(state, ME, table, laid, written_order)
    rack = list(state.rack)
    for tile in laid.elements():
        rack.remove(tile)
    return _after_play(state, ME, table, tuple(rack), laid.total())


def _you_passed(state: GameState) -> GameState:
    if state.pool_size > 0:
        raise IllegalEventError(
            f"the pool still holds {state.pool_size} tiles: draw one ('draw TILE') instead"
        )
    return _turn_done(state, passes=state.passes + 1)


def _after_play(
    state: GameState, seat: int, table: tuple[Meld, ...], rack: tuple[Tile, ...], laid: int
) -> GameState:
    sizes = list(state.rack_sizes)
    sizes[seat] -= laid
    if seat == ME:
        sizes[ME] = len(rack)
    opened = list(state.opened)
    opened[seat] = True
    after = _turn_done(
        state, table=table, rack=rack, rack_sizes=tuple(sizes), opened=tuple(opened), passes=0
    )
    if sizes[seat] == 0:
        after = replace(after, ended="out", winner=seat, to_play=seat)
    return after


def _score(state: GameState, event: Scored) -> GameState:
    if state.result is not None:
        raise IllegalEventError(f"round {state.round} is already scored")
    if state.ended is None:
        raise IllegalEventError(
            f"round {state.round} is not over: nobody has gone out and play goes on "
            f"({state.status()})"
        )
    n = state.players
    if len(event.racks) != n - 1:
        raise IllegalEventError(
            f"give {n - 1} opponents' racks (seat 1 first), got {len(event.racks)}"
        )
    for seat, rack in enumerate(event.racks, 1):
        if len(rack) != state.rack_sizes[seat]:
            raise IllegalEventError(
                f"{_seat_text(seat)} holds {state.rack_sizes[seat]} tiles by the game's count; "
                f"the racks give {len(rack)}"
            )
    unseen = state.unseen()
    too_many = Counter(t for rack in event.racks for t in rack) - unseen
    if too_many:
        tile = sorted_tiles(too_many)[0]
        raise IllegalEventError(
            f"the racks hold {too_many[tile] + unseen[tile]}x {tile} but only {unseen[tile]} "
            "are not on the table or your rack"
        )
    racks = (state.rack, *event.racks)
    winner = state.winner if state.ended == "out" else None
    if winner is None:  # a blocked round: the lowest rack wins
        winner = blocked_winner(racks, state.rules)
    scores = round_scores(racks, winner, state.rules)
    result = RoundOutcome(winner, state.ended, racks, scores)
    totals = tuple(t + s for t, s in zip(state.totals, scores, strict=True))
    return replace(state, result=result, totals=totals, rounds=(*state.rounds, result))


def _new_round(state: GameState, event: NewRound) -> GameState:
    _round_can_begin(state)
    return _deal(state, event.rack, event.first)


def _round_can_begin(state: GameState) -> None:
    """A new round needs this one scored, and the match not over."""
    if state.result is None:
        raise IllegalEventError(f"round {state.round} is not scored yet: 'score' it first")
    if state.match_over:
        raise IllegalEventError(state.status())


# --- the log: events with undo and redo ---------------------------------------------------


@dataclass(frozen=True)
class History:
    """The events in force (each with the state after it) and the events taken back."""

    done: tuple[tuple[Event, GameState], ...]
    undone: tuple[tuple[Event, GameState], ...] = ()

    @classmethod
    def begin(cls, event: NewGame) -> History:
        """A history holding only the start of the game."""
        return cls(((event, start(event)),))

    @property
    def state(self) -> GameState:
        """The state after the events in force."""
        return self.done[-1][1]

    def record(self, event: Event, *, written_order: bool = True) -> History:
        """The history with ``event`` taken in (checked first; raises if it is illegal);
        ``written_order`` as in :func:`apply`."""
        if isinstance(event, Undo):
            if len(self.done) == 1:
                raise IllegalEventError("nothing to undo: the game is at its start")
            return History(self.done[:-1], (*self.undone, self.done[-1]))
        if isinstance(event, Redo):
            if not self.undone:
                raise IllegalEventError("nothing to redo")
            return History((*self.done, self.undone[-1]), self.undone[:-1])
        return History((*self.done, (event, apply(self.state, event, written_order=written_order))))

    @property
    def last(self) -> Event:
        """The last event in force."""
        return self.done[-1][0]

    @property
    def next_redo(self) -> Event | None:
        """The event ``redo`` would bring back."""
        return self.undone[-1][0] if self.undone else None


def replay(events: Iterable[Event]) -> History:
    """The history of a whole recorded event list (the first must be ``new``), its plays'
    table jokers read as when they were recorded (:func:`apply`)."""
    items = iter(events)
    first = next(items, None)
    if not isinstance(first, NewGame):
        raise IllegalEventError("a game starts with its 'new' event")
    history = History.begin(first)
    for event in items:
        history = history.record(event, written_order=False)
    return history


def state_json(state: GameState) -> dict[str, Any]:
    """The state as a JSON-ready object (``rummikub game NAME show --json``)."""
    unseen = state.unseen()
    result = state.result
    return {
        "round": state.round,
        "turn": state.turn,
        "players": state.players,
        "to_play": state.to_play,
        "status": state.status(),
        "table": melds_json(state.table),
        "rack": tiles_json(sorted_tiles(state.rack)),
        "rack_value": state.rules.rack_penalty(state.rack),
        "opened": state.opened[ME],
        "opponents": [
            {"seat": s, "rack_size": state.rack_sizes[s], "opened": state.opened[s]}
            for s in range(1, state.players)
        ],
        "pool": state.pool_size,
        "unseen": {str(t): unseen[t] for t in sorted_tiles(unseen)},
        "unseen_count": unseen.total(),
        "round_over": state.ended,
        "winner": state.winner if result is None else result.winner,
        "scores": list(result.scores) if result else None,
        "totals": list(state.totals),
        "target": state.target,
        "match_over": state.match_over,
        "rules": {k: v for k, v in rules_json(state.rules).items()},
    }


__all__ = [
    "FORMAT_VERSION",
    "MATCH_TARGET",
    "ME",
    "CompanionError",
    "DealSizeError",
    "Drew",
    "Event",
    "EventFormatError",
    "GameState",
    "History",
    "IllegalEventError",
    "NewGame",
    "NewRound",
    "OpponentDrew",
    "OpponentPlayed",
    "Passed",
    "Played",
    "Redo",
    "RoundOutcome",
    "Scored",
    "Undo",
    "apply",
    "as_they_lie",
    "at_turn_of",
    "check_deal",
    "check_typed",
    "event_from_json",
    "replay",
    "skipped",
    "start",
    "state_json",
]
