"""Shared fixtures: a solve that is always checked by the independent move validator."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from rummikub.models import Position, Tile
from rummikub.models.validation import move_problems
from rummikub.solver import Move, Origin, solve
from rummikub.solver.objectives import Level

SolveFn = Callable[..., Move]


def check_bookkeeping(move: Move) -> None:
    """The move's own account (origins, from-rack marks, moved tiles) agrees with the position."""
    position = move.position
    assert Counter(move.placed) == Counter(t for new in move.table for t in new.placed)
    assert Counter(move.rack_left) + Counter(move.placed) == position.rack_counts()
    sources = [new.source for new in move.table if new.source is not None]
    assert len(sources) == len(set(sources)), f"an old meld survives twice: {sources}"
    for new in move.table:
        assert len(new.from_rack) == len(new.meld.tiles)
        if new.origin is Origin.KEPT:
            assert new.source is not None
            assert new.meld.tiles == position.table[new.source].tiles
            assert not any(new.from_rack)
        elif new.origin is Origin.EXTENDED:
            assert new.source is not None
            old = position.table[new.source].counts()
            assert not old - new.meld.counts() and len(new.meld) > sum(old.values())
        elif new.origin is Origin.NEW:
            assert new.source is None and all(new.from_rack)
        else:
            assert new.origin is Origin.REBUILT
            assert not all(new.from_rack)
            if new.source is not None:  # the old meld it becomes, with some of its tiles
                old = position.table[new.source].counts()
                assert old & new.meld.counts() and old - new.meld.counts()
    # Picked up: tiles of old melds that do not lie in the new meld they become, never more
    # than the pairing the solver's third level counts (the sources) leaves.
    became = {new.source: new.meld.counts() for new in move.table if new.source is not None}
    lost = Counter[Tile]()
    for m, meld in enumerate(position.table):
        lost += meld.counts() - became.get(m, Counter())
    assert not Counter(move.moved) - position.table_counts()
    assert len(move.moved) <= lost.total()
    if not position.initial and "kept" in move.scores:
        assert len(move.moved) <= len(position.table_tiles()) - move.scores[Level.KEPT]


def solve_checked(position: Position, **kw: Any) -> Move:
    """``solve`` whose answer must pass ``move_problems`` and be self-consistent."""
    move = solve(position, **kw)
    problems = move_problems(position, move.melds, move.placed)
    assert problems == [], f"illegal move for {position}: {problems}"
    check_bookkeeping(move)
    return move


@pytest.fixture
def solve_and_validate() -> SolveFn:
    """``solve_and_validate(position, **kw)``: solve and assert the validator finds no problem."""
    return solve_checked
