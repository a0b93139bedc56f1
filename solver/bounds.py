"""Cheap proofs about a position's best move, without a model: what it surely cannot do.

Both rest on one fact: a rack tile can only be placed in a set whose other tiles are in
play (on the rack, or on the table where the turn may use it), jokers standing in for the
tiles that are not. A tile in no such set stays on the rack whatever the move. The proofs
hold under every joker rule (the strict and locked rules only take moves away).
"""

from __future__ import annotations

from collections import Counter

from rummikub.models.position import Position
from rummikub.models.rules import RuleSet
from rummikub.solver.opening import continues_onto_table
from rummikub.solver.sets import joker_free, mask, masked


def _fitting(rules: RuleSet, in_play: Counter[int]) -> tuple[int, int]:
    """The tile types (a bit each) that lie in some set of the tiles ``in_play`` (tile
    type -> count, jokers included), and the highest value of a tile in such a set."""
    jokers = in_play.get(rules.joker_index, 0) if rules.jokers else 0
    own = mask(t for t, k in in_play.items() if k and not (rules.jokers and t == rules.joker_index))
    covered, top = 0, 0
    for s, needs in masked(joker_free(rules)):
        if (needs & ~own).bit_count() <= jokers:
            covered |= needs & own
            top = max(top, max(rules.tile_types[t].value for t, _ in s.counts))
    return covered, top


def cannot_open(position: Position) -> bool:
    """Whether an opening turn that may not touch the table (the default rules) surely
    places nothing: no sets of its rack alone are worth the threshold (at least one set).

    By an upper bound: each rack tile that lies in some set the rack can make counts its
    value, and each joker the highest value of such a set's tiles. It settles most opening
    turns of a rack that cannot open (in four-player ``max-tiles`` games, 155 of 195), which
    then need no model.
    """
    if not position.initial or continues_onto_table(position):
        return False
    rules = position.rules
    rack = Counter(rules.index(t) for t in position.rack)
    covered, top = _fitting(rules, rack)
    types = rules.tile_types
    jokers = sum(t.is_joker for t in position.rack)
    bound = jokers * top + sum(
        types[t].value * k for t, k in rack.items() if covered >> t & 1 and not types[t].is_joker
    )
    return bound < max(rules.initial_threshold, 1)


def cannot_go_out(position: Position) -> bool:
    """Whether the rack surely cannot all go down this turn: some real rack tile lies in no
    set of the tiles in play (the rack, and the table unless the turn may not touch it).

    A hoarding player asks every turn whether it can go out; with a rack of 20-30 tiles
    this settles about half of those turns (planner against planner) without a model."""
    rules = position.rules
    in_play = Counter(rules.index(t) for t in position.rack)
    if not position.initial or continues_onto_table(position):
        in_play.update(rules.index(t) for meld in position.table for t in meld.tiles)
    covered, _ = _fitting(rules, in_play)
    real = mask(rules.index(t) for t in position.rack if not t.is_joker)
    return real & ~covered != 0
