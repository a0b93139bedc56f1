"""The strict joker rule's bounds (``solver/engine.py``, ``_strict_by_bounds``).

Where the strict model spells out its jokers (more jokers in play than a set may hold),
the solver first solves it without the long host runs (a restriction: only strict moves)
and keeps its optimum when it reaches the locked optimum (an upper bound); in the
wildcard form the exact model is solved directly. These tests check, on random small
games with table jokers, that the bounds are bounds (restriction <= exact <= locked,
lexicographically, each model solved directly), that ``solve`` returns the exact model's
optimum with a legal move, and that the joker-rule oracle agrees both where the locked
optimum is a strict move and where it is not.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from oracle_jokers import joker_oracle_answer
from solver_score import solver_score
from test_joker_rules import RULES, joker_position, under

from rummikub.models import JokerRule
from rummikub.models.position import Position
from rummikub.models.validation import move_problems
from rummikub.solver import Limit, solve
from rummikub.solver.cpsat import solve_cpsat
from rummikub.solver.formulation import TilePool
from rummikub.solver.objectives import Objective
from rummikub.solver.opening import formulate_turn
from rummikub.solver.table_jokers import Hosts

SEEDS = range(90_000, 90_060)
MODES = (("tiles", False), ("value", False), ("tiles", True))


def _optimum(position: Position, objective: str, keep: bool, hosts: Hosts) -> list[int]:
    model = formulate_turn(position, Objective(objective), keep, host_sets=hosts)
    raw = solve_cpsat(model, Limit(seconds=30))
    assert raw.status == "optimal"
    return list(model.scores(raw.values).values())


def _strict_positions() -> list[tuple[Position, str, bool]]:
    """Sample positions whose rack can free a table joker, under the strict rule."""
    found = []
    for i, seed in enumerate(SEEDS):
        name = list(RULES)[i % len(RULES)]
        position = under(joker_position(seed, RULES[name]), "strict")
        if TilePool.of(position).freeable:
            objective, keep = MODES[i % len(MODES)]
            found.append((position, objective, keep))
    return found


POSITIONS = _strict_positions()


def test_sample_is_large_enough() -> None:
    assert len(POSITIONS) >= 30


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_bounds_hold_and_solve_returns_the_exact_optimum(index: int) -> None:
    position, objective, keep = POSITIONS[index]
    short = _optimum(position, objective, keep, Hosts.SHORT)
    exact = _optimum(position, objective, keep, Hosts.EXACT)
    locked_position = replace(position, rules=replace(position.rules, joker_rule=JokerRule.LOCKED))
    locked = _optimum(locked_position, objective, keep, Hosts.EXACT)
    assert short <= exact <= locked, (short, exact, locked)
    move = solve(position, objective, keep_jokers=keep)
    assert move.status == "optimal"
    assert list(move.scores.values()) == exact
    assert move_problems(position, move.melds, move.placed) == []


def test_oracle_agrees_whether_or_not_the_locked_optimum_is_strict() -> None:
    """Both branches occur in the sample, and the oracle agrees with ``solve`` in each."""
    branches = {"locked reached": 0, "locked not reached": 0}
    for position, objective, keep in POSITIONS:
        locked_position = replace(
            position, rules=replace(position.rules, joker_rule=JokerRule.LOCKED)
        )
        reached = _optimum(position, objective, keep, Hosts.SHORT) == _optimum(
            locked_position, objective, keep, Hosts.EXACT
        )
        branches["locked reached" if reached else "locked not reached"] += 1
        move = solve(position, objective, keep_jokers=keep)
        expected = joker_oracle_answer(position, "strict", objective, keep).score
        assert solver_score(move) == expected
    assert min(branches.values()) >= 3, branches
