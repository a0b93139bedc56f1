"""Scoring a round: rack penalties, the winner of a blocked round, and match totals.

What a rack costs is the rules' (:meth:`~rummikub.models.rules.RuleSet.rack_penalty`: face
values, a joker ``RuleSet.joker_penalty``); nothing here keeps a penalty of its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummikub.models.rules import STANDARD, RuleSet
from rummikub.models.tile import Tile


def rack_value(rack: Sequence[Tile], rules: RuleSet = STANDARD) -> int:
    """What a rack left at the end of a round costs under the rules."""
    return rules.rack_penalty(rack)


def blocked_winner(racks: Sequence[Sequence[Tile]], rules: RuleSet = STANDARD) -> int:
    """The winner when nobody can play: the lowest rack value, then the fewest tiles, then
    the lowest seat number."""
    return min(range(len(racks)), key=lambda s: (rack_value(racks[s], rules), len(racks[s]), s))


def round_scores(
    racks: Sequence[Sequence[Tile]], winner: int, rules: RuleSet = STANDARD
) -> tuple[int, ...]:
    """Each seat's score for the round: losers minus their rack value, the winner plus the sum.

    The winner's own rack (empty, or the smallest one in a blocked round) costs nothing.
    Losers holding 15 and 22 give the winner +37 (the example in the rules).
    """
    penalties = [0 if s == winner else rack_value(rack, rules) for s, rack in enumerate(racks)]
    return tuple(sum(penalties) if s == winner else -p for s, p in enumerate(penalties))
