"""Scoring a round: rack penalties, the winner of a blocked round, and match totals."""

from __future__ import annotations

from collections.abc import Sequence

from rummikub.models.tile import Tile

JOKER_PENALTY = 30  # the standard game's; games pass RuleSet.joker_penalty


def rack_value(rack: Sequence[Tile], joker: int = JOKER_PENALTY) -> int:
    """What a rack left at the end of a round costs: face values, a joker counts ``joker``."""
    return sum(joker if t.is_joker else t.value for t in rack)


def blocked_winner(racks: Sequence[Sequence[Tile]], joker: int = JOKER_PENALTY) -> int:
    """The winner when nobody can play: the lowest rack value, then the fewest tiles, then
    the lowest seat number."""
    return min(range(len(racks)), key=lambda s: (rack_value(racks[s], joker), len(racks[s]), s))


def round_scores(
    racks: Sequence[Sequence[Tile]], winner: int, joker: int = JOKER_PENALTY
) -> tuple[int, ...]:
    """Each seat's score for the round: losers minus their rack value, the winner plus the sum.

    The winner's own rack (empty, or the smallest one in a blocked round) costs nothing.
    Losers holding 15 and 22 give the winner +37 (the example in the rules).
    """
    penalties = [0 if s == winner else rack_value(rack, joker) for s, rack in enumerate(racks)]
    return tuple(sum(penalties) if s == winner else -p for s, p in enumerate(penalties))
