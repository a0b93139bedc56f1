"""An opponent put these tiles down: the new table, laid out by the solver.

At a real table the player sees which tiles an opponent put down, not always how the
table was rearranged. :func:`lay_out` infers the new table: the legal table holding the
old table's tiles and these, with the fewest table tiles picked up (the solver's own
measure, :mod:`rummikub.solver.objectives` level "kept"), under the game's rules, the
opening meld included for an opponent who has not made it. It is one solve of the
opponent's position with the placed tiles as the rack: every legal table that lays them
all places the most tiles and the most value, so the solver's next level, the fewest
picked up, decides among them.

It refuses, with one line and nothing recorded, tiles the opponent cannot have held (more
than their rack, or more copies than are unseen) and tiles no legal table lays together
(:class:`NotHeldError`, :class:`CannotLayError`). Under the strict and locked joker rules,
where a joker keeps what it stands for, equally good layouts that give a joker another
meaning are told in :attr:`PlacedLayout.note`, with the table edits that record one of
them instead (:mod:`rummikub.game.table_edits`).

Used by ``rummikub game NAME placed`` and by any other face of the companion::

    layout = lay_out(state, seat, tiles)
    history = history.record(layout.event)      # or GameStore.record(game, layout.event)
    if layout.note: print(layout.note)
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from rummikub.game.companion import (
    GameState,
    apply,
    as_they_lie,
    at_turn_of,
    check_typed,
    skipped,
)
from rummikub.game.events import CompanionError, OpponentPlayed, seat_text
from rummikub.game.table_edits import edit_text, meld_key, meld_text
from rummikub.models.errors import RummikubError
from rummikub.models.jokers import JokerRule
from rummikub.models.meld import Meld, readings
from rummikub.models.moves import becomes
from rummikub.models.notation import format_tiles
from rummikub.models.position import Position
from rummikub.models.tile import Tile, sorted_tiles
from rummikub.models.validation import move_problems, opening_value
from rummikub.solver import Level, Limit, Move, Status, solve, solve_top

DEFAULT_SECONDS = 10.0
ALTERNATIVES = 4  # equally good tables looked at for a joker's other meanings
ALTERNATIVES_SECONDS = 1.0  # at most this long (wall clock) looking for them

__all__ = [
    "DEFAULT_SECONDS",
    "CannotLayError",
    "NotHeldError",
    "PlacedError",
    "PlacedLayout",
    "lay_out",
]


class PlacedError(CompanionError):
    """Placed tiles the companion cannot take in (the game is left as it was)."""


class NotHeldError(PlacedError):
    """The opponent cannot have held these tiles: more than their rack, or more copies of
    a tile than are unseen (not on the table or your rack)."""


class CannotLayError(PlacedError):
    """No legal table lays these tiles together with the table's (or, for an opponent who
    has not opened, no opening meld is made of them), or none was found in the time."""


@dataclass(frozen=True)
class PlacedLayout:
    """The table inferred from the tiles an opponent placed, and the event that records it.

    ``table``: the new table, melds kept or grown in their old places (their numbers stay),
    new melds last. ``event``: the :class:`~rummikub.game.events.OpponentPlayed` to record
    (``History.record`` or ``GameStore.record``), its ``placed`` set. ``note``: when equally
    good layouts differ in a way that matters (a joker's meaning under the strict or locked
    rule), what differs and the table edits that record another layout instead; else None.
    ``moved``: the table tiles picked up. ``skipped``: the opponents whose turns go by
    before this play (each drew, or passed when the pool was empty). ``proved``: whether the
    fewest picked up is proved (else the best found in the time). ``alternatives``: the
    equally good tables the note tells of.
    """

    table: tuple[Meld, ...]
    event: OpponentPlayed
    note: str | None
    seat: int
    placed: tuple[Tile, ...]
    moved: tuple[Tile, ...]
    skipped: tuple[int, ...]
    proved: bool
    alternatives: tuple[tuple[Meld, ...], ...] = ()


def lay_out(
    state: GameState, seat: int, tiles: Sequence[Tile], *, limit: Limit | None = None
) -> PlacedLayout:
    """The table after opponent ``seat`` placed ``tiles`` (see the module docstring).

    ``seat`` may be a later opponent than the one to play (those before it drew). Raises a
    one-line :class:`~rummikub.models.errors.RummikubError`: :class:`NotHeldError`,
    :class:`CannotLayError`, or :class:`~rummikub.game.events.IllegalEventError` when it
    is not that opponent's turn. ``limit``: the solver's (by default
    :data:`DEFAULT_SECONDS` of wall-clock time for the whole call).
    """
    placed = tuple(sorted_tiles(tiles))
    turn = at_turn_of(state, seat)
    _check_held(turn, seat, placed)
    limit = limit or Limit(DEFAULT_SECONDS)
    deadline = time.perf_counter() + limit.seconds
    position = Position(turn.table, placed, not turn.opened[seat], turn.rules)
    move = solve(position, limit=limit)
    if len(move.placed) < len(placed):
        raise _cannot_lay(position, seat, move)
    table = in_old_places(turn.table, as_they_lie(move.melds, turn.rules))
    event = OpponentPlayed(seat, table, placed)
    try:
        check_typed(state, event)
        apply(state, event)
    except RummikubError as error:  # the solver's table passed the validator already
        raise RuntimeError(f"the inferred table does not record (a bug): {error}") from None
    others: tuple[tuple[Meld, ...], ...] = ()
    if turn.rules.joker_rule is not JokerRule.FREE and _jokers_moved(turn.table, table, placed):
        search = min(limit.remaining(deadline).seconds, ALTERNATIVES_SECONDS)
        others = _other_meanings(position, move, table, replace(limit, seconds=search))
    return PlacedLayout(
        table=table,
        event=event,
        note=_note(turn, table, others) if others else None,
        seat=seat,
        placed=placed,
        moved=move.moved,
        skipped=skipped(state, seat),
        proved=move.moved_proved,
        alternatives=others,
    )


def _check_held(state: GameState, seat: int, placed: tuple[Tile, ...]) -> None:
    """The opponent may have held ``placed``: not more than their rack, and no more copies
    than are unseen."""
    who = seat_text(seat)
    if not placed:
        raise NotHeldError(f"no tiles given: {who} placed nothing (record that they drew)")
    for tile in placed:
        state.rules.check_tile(tile, "placed")
    if len(placed) > state.rack_sizes[seat]:
        raise NotHeldError(
            f"{who} holds {state.rack_sizes[seat]} tiles, not the {len(placed)} given"
        )
    unseen = state.unseen()
    for tile, count in sorted(Counter(placed).items(), key=lambda kv: kv[0].sort_key()):
        if count > unseen[tile]:
            name = f"{count} jokers" if tile.is_joker else f"{count}x {tile}"
            where = "are" if unseen[tile] != 1 else "is"
            raise NotHeldError(
                f"{who} cannot have placed {name}: only {unseen[tile]} {where} not on the "
                "table or your rack"
            )


def _cannot_lay(position: Position, seat: int, move: Move) -> CannotLayError:
    """Why the tiles do not go down together: an opening meld not made, or what is left."""
    who = seat_text(seat)
    rules = position.rules
    if move.status is not Status.OPTIMAL:
        return CannotLayError(
            f"no table laying {format_tiles(position.rack)} was found in the time: give the "
            "table instead (table ...)"
        )
    if position.initial and rules.continue_after_initial:
        # The opening meld may be followed by the table: only its sets' value can fail.
        value = opening_value(list(position.rack), rules, rules.initial_threshold)
        if value < rules.initial_threshold:
            return CannotLayError(
                f"{who} has not opened, and the sets that {format_tiles(position.rack)} make "
                f"on their own are worth {value}, under the {rules.initial_threshold} an opening "
                "meld needs"
            )
    elif position.initial:
        alone = solve(Position((), position.rack, False, rules), limit=Limit(DEFAULT_SECONDS))
        if len(alone.placed) == len(position.rack):
            value = opening_value(list(position.rack), rules)
            return CannotLayError(
                f"{who} has not opened, and {format_tiles(position.rack)} make sets worth "
                f"{value}, under the {rules.initial_threshold} an opening meld needs"
            )
        left = alone.rack_left
        return CannotLayError(
            f"{who} has not opened, so the tiles must make sets of their own, and "
            f"{format_tiles(left)} {'goes' if len(left) == 1 else 'go'} into none"
        )
    if move.is_draw:
        return CannotLayError(
            f"{format_tiles(position.rack)} cannot go on this table, not even in part"
        )
    return CannotLayError(
        f"{format_tiles(position.rack)} cannot all go on this table: at most "
        f"{len(move.placed)} of them can ({format_tiles(move.placed)})"
    )


def in_old_places(old: Sequence[Meld], new: Sequence[Meld]) -> tuple[Meld, ...]:
    """``new`` ordered so that each meld an old meld became takes that meld's place (its
    number stays), other melds filling the places of melds taken apart, then last."""
    pairs = becomes(old, new)
    slots: list[Meld | None] = [new[pairs[i]] if i in pairs else None for i in range(len(old))]
    rest = [meld for j, meld in enumerate(new) if j not in set(pairs.values())]
    for i, slot in enumerate(slots):
        if slot is None and rest:
            slots[i] = rest.pop(0)
    return tuple(m for m in slots if m is not None) + tuple(rest)


def _jokers_moved(old: Sequence[Meld], new: Sequence[Meld], placed: Sequence[Tile]) -> bool:
    """Whether a joker was placed, or a meld holding a joker is not an old meld as it was:
    only then may an equally good layout give a joker another meaning."""
    if any(t.is_joker for t in placed):
        return True
    before = Counter(tuple(m.tokens()) for m in old if m.jokers)
    after = Counter(tuple(m.tokens()) for m in new if m.jokers)
    return bool(after - before)


def _signature(table: Sequence[Meld], position: Position) -> list[object]:
    """What the table's jokers stand for, meld by meld (sorted): equal for layouts whose
    difference does not matter."""
    rules = position.rules
    return sorted((meld_key(m, rules) for m in table if m.jokers), key=repr)


def _other_meanings(
    position: Position, move: Move, table: tuple[Meld, ...], limit: Limit
) -> tuple[tuple[Meld, ...], ...]:
    """Equally good legal tables (every tile placed, as few picked up) whose jokers stand
    for other tiles: other orders of a meld's tiles, and the next best tables."""
    candidates = [table]
    try:
        ranked = solve_top(position, ALTERNATIVES, limit=limit).moves
    except RummikubError:
        ranked = ()
    kept = move.scores.get(Level.KEPT)
    for other in ranked:
        if len(other.placed) == len(move.placed) and other.scores.get(Level.KEPT) == kept:
            candidates.append(in_old_places(position.table, other.melds))
    seen = [_signature(table, position)]
    found: list[tuple[Meld, ...]] = []
    for candidate in candidates:
        for variant in (candidate, *_reorders(candidate, position)):
            signature = _signature(variant, position)
            if signature not in seen and not move_problems(position, variant, position.rack):
                seen.append(signature)
                found.append(variant)
    return tuple(found)


def _reorders(table: tuple[Meld, ...], position: Position) -> list[tuple[Meld, ...]]:
    """The table with one joker meld laid in another order its tiles allow (r4 r5 j as
    j r4 r5), for melds the old table does not hold as they are."""
    rules = position.rules
    old = {meld_key(m, rules) for m in position.table}
    out = []
    for i, meld in enumerate(table):
        if not meld.jokers or meld.declared or meld_key(meld, rules) in old:
            continue
        for reading in readings(meld.tiles, rules):
            layout = reading.laid_out()
            if layout != meld.tiles:
                out.append((*table[:i], Meld(layout), *table[i + 1 :]))
    return out


def _note(state: GameState, table: tuple[Meld, ...], others: Sequence[tuple[Meld, ...]]) -> str:
    """Which equally good layouts give a joker another meaning, and how to record one."""
    rules = state.rules
    chosen = {meld_key(m, rules) for m in table}
    elsewhere = [{meld_key(m, rules) for m in other} for other in others]
    recorded = [
        meld_text(m)
        for m in table
        if m.jokers and any(meld_key(m, rules) not in keys for keys in elsewhere)
    ]
    ways = []
    for other in others[:3]:
        differ = [meld_text(m) for m in other if m.jokers and meld_key(m, rules) not in chosen]
        ways.append(
            f"'{' | '.join(differ)}' (to record it: undo, then "
            f"'table {edit_text(state.table, other, rules)}')"
        )
    return (
        f"under the {rules.joker_rule} joker rule a joker keeps what it stands for, and "
        f"equally good layouts differ: recorded '{' | '.join(recorded)}'; it may also lie as "
        + "; or ".join(ways)
    )
