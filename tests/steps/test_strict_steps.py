"""Steps under the strict joker rule say what the rule allows.

A *swap* frees a table joker for its tile from the rack, and the freed joker must go into a
new set with two tiles from the rack. A table joker that keeps what it stands for may move
along with its tiles without a swap. So every swap step's joker must end in a new meld (one
no old meld becomes) whose provenance holds two non-joker rack tiles, and a joker that
cannot have been freed is not described as swapped.
"""

from __future__ import annotations

import pytest
from user_path import PRESET_NAMES, joker_heavy_position, rules_for

from rummikub.models import Position, position_from_text
from rummikub.models.validation import move_problems
from rummikub.solver import solve
from rummikub.steps.planner import RACK, explanation
from rummikub.steps.replay import Swap, replay

# The joker of k5 j r5 o5 (standing for b5) ends in b3 b4 j=b5, a set without rack tiles:
# it kept its meaning and moved along; the rack's b5 went into k5 b5 o5. No swap.
MOVED_ALONG = """rules: wrap joker_rule=strict
table: k3 b3 r3 o3 | k2 j k4 k5 | k5 j r5 o5 | b1 r1 o1 | k13 k1 k2 | r2 r3 r4 | r11 r12 r13 r1
  | b13 b1 b2 | o7 o8 o9 | k9 k10 k11 k12 | b4 r4 o4 | o12 o13 o1 o2 | b7 r7 o7
rack: k3 b5 r6"""


def _check_swaps(position: Position) -> int:
    """The swaps of the best move's steps, after checking that each freed joker has a host."""
    move = solve(position)
    told = explanation(move)
    assert move_problems(position, move.melds, move.placed) == []
    table, _ = replay(position.table, position.rack, told.steps, position.rules)
    assert sorted(map(str, table)) == sorted(map(str, move.melds))
    freed = sum(len(s.freed) for s in told.steps if isinstance(s, Swap))
    hosts = sum(
        min(nm.meld.jokers, 2)
        for nm, row, source in zip(move.table, told.provenance, told.sources, strict=True)
        if source is None
        and nm.meld.jokers
        and sum(s == RACK and not t.is_joker for s, t in zip(row, nm.meld.tiles, strict=True)) >= 2
    )
    assert freed <= hosts, f"{freed} swapped jokers, {hosts} hosts: {position.to_text()}"
    return freed


def test_a_joker_that_keeps_its_meaning_is_not_swapped() -> None:
    position = position_from_text(MOVED_ALONG)
    assert _check_swaps(position) == 0
    steps = explanation(solve(position)).steps
    assert not any(isinstance(s, Swap) for s in steps)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_swapped_joker_lands_in_a_host(preset: str) -> None:
    rules = rules_for(preset, "strict")
    swaps = sum(_check_swaps(joker_heavy_position(seed, rules)) for seed in range(20))
    assert swaps >= 3  # the sample exercises swaps


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_swapped_joker_lands_in_a_host_campaign(preset: str) -> None:
    rules = rules_for(preset, "strict")
    swaps = sum(_check_swaps(joker_heavy_position(seed, rules)) for seed in range(20, 220))
    assert swaps >= 30
