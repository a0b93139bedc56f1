"""A deterministic work limit stops CP-SAT at the same point on any machine, so arena games
replay exactly; the arena's solver players are limited by it, not by the clock."""

from __future__ import annotations

import math

import pytest

from rummikub.arena import make_player
from rummikub.arena.planner import Planner
from rummikub.arena.players import SolverPlayer
from rummikub.models import SolverError
from rummikub.models.generate import random_position
from rummikub.models.validation import move_problems
from rummikub.solver import Limit, solve


def test_a_tiny_deterministic_limit_stops_the_search_at_the_same_move_every_time() -> None:
    position = random_position(7, table_tiles=76, rack_tiles=14, joker_rate=0.1, rack_jokers=1)
    tight = Limit(seconds=math.inf, deterministic=1e-3)
    moves = [solve(position, limit=tight) for _ in range(3)]
    assert moves[0].status == "feasible"  # the work limit, not the (infinite) clock, stopped it
    assert len({tuple(map(str, m.melds)) for m in moves}) == 1
    assert move_problems(position, moves[0].melds, moves[0].placed) == []
    roomy = solve(position, limit=Limit(seconds=math.inf, deterministic=5.0))
    assert roomy.status == "optimal" and roomy.placed_count >= moves[0].placed_count


def test_arena_solver_players_are_bounded_by_work_not_by_the_clock() -> None:
    for name in ("max-tiles", "hold-back", "keep-jokers", "sets-only", "max-value"):
        player = make_player(name, 0.5)
        assert isinstance(player, SolverPlayer)
        assert player.limit.deterministic == 0.5 and math.isinf(player.limit.seconds)
    planner = make_player("planner", 0.5)
    assert isinstance(planner, Planner)
    assert planner.solver.limit.deterministic == 0.5 and math.isinf(planner.solver.limit.seconds)


def test_a_deterministic_limit_must_be_positive() -> None:
    with pytest.raises(SolverError, match="deterministic limit must be positive"):
        Limit(deterministic=0)
