"""The paper's model alone (``core_model``: tile cover, set copies, rack bounds, objective
levels; jokers only as explicit joker sets) against the brute-force oracle.

The published examples of den Hertog & Hulshof (2006) could not be found in a form that
states their exact tiles, so the core model is checked on random small positions instead:
its best tiles placed and value placed must equal the oracle's (which knows nothing of
the solver), and the move read from its solution must pass the independent validator.
The extensions (kept melds, stand-ins, table-joker rules, the opening) are left out: the
levels the core model decides are the placing ones.
"""

from __future__ import annotations

import random

import pytest
from oracle import oracle_answer

from rummikub.models import JOKER, Position, RuleSet
from rummikub.models.generate import random_position
from rummikub.models.validation import move_problems
from rummikub.solver import Limit, Objective
from rummikub.solver.cpsat import solve_cpsat
from rummikub.solver.extraction import extract
from rummikub.solver.formulation import TilePool, core_model
from rummikub.solver.objectives import Level
from rummikub.solver.sets import sets_in_play

GAMES = (
    RuleSet(colours=3, numbers=7, copies=2, jokers=2),
    RuleSet(colours=4, numbers=6, copies=2, jokers=2),
    RuleSet(colours=3, numbers=7, copies=2, jokers=2, max_jokers_per_set=1),
)
SEEDS = range(120)


def _position(seed: int) -> Position:
    rng = random.Random(seed)
    base = random_position(
        seed,
        table_tiles=rng.randint(0, 12),
        rack_tiles=rng.randint(0, 8),
        rules=GAMES[seed % len(GAMES)],
        joker_rate=rng.choice((0.0, 0.1, 0.3)),
    )
    rack = list(base.rack)
    if rack and rng.random() < 0.3 and sum(t.is_joker for t in base.table_tiles()) < 2:
        rack[0] = JOKER
    position = Position(base.table, tuple(rack), False, base.rules)
    position.validate()
    return position


@pytest.mark.parametrize("seed", SEEDS)
def test_core_model_places_what_the_oracle_places(seed: int) -> None:
    position = _position(seed)
    objective = Objective.VALUE if seed % 3 == 0 else Objective.TILES
    pool = TilePool.of(position)
    model = core_model(pool, sets_in_play(position.rules, pool.available), objective)
    assert [g.level for g in model.goals][:2] == (
        [Level.PLACED_VALUE, Level.PLACED_COUNT]
        if objective is Objective.VALUE
        else [Level.PLACED_COUNT, Level.PLACED_VALUE]
    )
    raw = solve_cpsat(model, Limit(seconds=30))
    assert raw.status == "optimal"
    scores = model.scores(raw.values)
    expected = oracle_answer(position, str(objective)).score
    got = (scores[Level.PLACED_COUNT], scores[Level.PLACED_VALUE])
    assert got == (expected.placed_count, expected.placed_value), position.to_text()
    table, placed = extract(position, model, raw.values)
    problems = move_problems(position, [m.meld for m in table], placed)
    if not placed:  # the paper's model alone may lay a draw's table anew; the engine does not
        problems = [p for p in problems if not p.startswith("nothing is placed")]
    assert problems == []
