"""Tiles picked up (issue 12): the solver's third level against the brute-force oracle.

The third level maximises the table tiles that stay in the meld their old meld becomes
(``solver/kept.py``); an old meld's jokers stay only when it stays whole. So on tables
without jokers the solver picks up the least number of tiles of any move that is best on the
placing levels, exactly: the oracle's measure "picked" (every partition, every pairing).
That is checked here on 1,200 small positions (rack jokers included), and the oracle's
own measure against :func:`rummikub.models.moves.picked_up`. The level on tables with
jokers (measure "level") is checked by ``test_oracle.py`` and ``test_joker_rules.py``.
"""

from __future__ import annotations

import random

import pytest
from oracle import oracle_answer
from test_oracle import CASES, RULES, Case

from rummikub.models import JOKER, STANDARD, Position, position_from_text
from rummikub.models.generate import random_position
from rummikub.models.moves import picked_up
from rummikub.models.validation import move_problems
from rummikub.solver import engine, formulation, solve
from rummikub.solver.objectives import Level

SAMPLE = [c for c in CASES if not c.initial][::25]  # every rule set, jokers included
RULE_SETS = [*RULES.values(), STANDARD]
PLAIN_TABLES = 1200


def plain_table_position(seed: int) -> tuple[Position, str, bool]:
    """A small position whose table holds no joker (its rack may), with an objective."""
    rng = random.Random(seed)
    rules = RULE_SETS[seed % len(RULE_SETS)]
    small = rules.min_len < 3
    while True:
        base = random_position(
            rng.randrange(10**9),
            table_tiles=rng.randint(3, 8 if small else 12),
            rack_tiles=rng.randint(1, 6 if small else 8),
            rules=rules,
            joker_rate=0.0,
        )
        if base.table and not any(t.is_joker for t in base.table_tiles()):
            break
    rack = list(base.rack)
    for _ in range(rng.choice((0, 0, 1, 2))):
        if sum(t.is_joker for t in rack) < rules.jokers:
            rack[rng.randrange(len(rack))] = JOKER
    position = Position(base.table, tuple(rack), False, rules)
    position.validate()
    return position, rng.choice(("tiles", "value")), rng.random() < 0.3


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(PLAIN_TABLES))
def test_solver_picks_up_the_least(seed: int) -> None:
    position, objective, keep = plain_table_position(seed)
    move = solve(position, objective=objective, keep_jokers=keep)
    assert move_problems(position, move.melds, move.placed) == []
    answer = oracle_answer(position, objective, keep, measure="picked")
    got = (move.placed_count, move.placed_value, len(move.moved))
    assert got == answer.score[:3], f"\n{position.to_text()}oracle:\n{answer.table_text()}"
    # The level counts what stays: the table's tiles minus those picked up.
    assert move.scores[Level.KEPT] == len(position.table_tiles()) - len(move.moved)


def test_plain_tables_have_rack_jokers_and_cheaper_answers() -> None:
    """The sample is not trivial: rack jokers, and answers the whole-meld level misses."""
    positions = [plain_table_position(seed) for seed in range(0, PLAIN_TABLES, 10)]
    assert sum(any(t.is_joker for t in p.rack) for p, _, _ in positions) >= 20
    cheaper = sum(
        oracle_answer(p, o, k, measure="picked").score.moved
        < oracle_answer(p, o, k, measure="kept").score.moved
        for p, o, k in positions
    )
    assert cheaper >= 10  # 13 of these 120


@pytest.mark.parametrize("seed", range(0, 400, 40))
def test_the_laid_model_decides_where_the_count_of_single_tiles_fails(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should the table found not give every meld counted as keeping one tile a set of its
    own, the model with one-tile columns solves again: forced here, same optimum."""
    position, objective, keep = plain_table_position(seed)
    expected = solve(position, objective=objective, keep_jokers=keep)
    rebuilt: list[bool] = []

    def formulate_turn(*args: object, **kwargs: bool) -> object:
        rebuilt.append(kwargs.get("singles", True) is False)
        return formulation.formulate_turn(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "_singles_hold", lambda *args: False)
    monkeypatch.setattr(engine, "formulate_turn", formulate_turn)
    move = solve(position, objective=objective, keep_jokers=keep)
    assert move.scores == expected.scores and len(move.moved) == len(expected.moved)
    assert move_problems(position, move.melds, move.placed) == []
    assert rebuilt[-1] == any(expected.scores.values())  # re-solved unless a draw


@pytest.mark.parametrize(
    ("text", "moved", "kept"),
    [
        # The Vietnamese rules text's example: r2 r3 r4 and r5 b5 k5, only r5 is picked up.
        ("table: r3 r4 r5\nrack: r2 b5 k5", 1, 2),
        # Cutting r1-13 picks up the shorter part: r1-6 and r7 (r8-13 stays).
        ("table: r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13\nrack: b7 k7", 7, 6),
        # A group gives its fourth tile to a run: o5 is picked up.
        ("table: r5 b5 k5 o5\nrack: o6 o7", 1, 3),
        # r5 takes a joker's place and the joker goes with k4 b4: only the joker moves (the
        # run's real tiles stay; its jokers count as staying only if it stays whole).
        ("table: r2 r3 r4 j r6 j r8\nrack: r5 k4 b4 r11", 1, 5),
    ],
)
def test_picked_up_by_hand(text: str, moved: int, kept: int) -> None:
    position = position_from_text(text)
    move = solve(position)
    assert len(move.moved) == moved and move.scores[Level.KEPT] == kept
    assert oracle_answer(position, measure="picked").score.moved == moved
    assert oracle_answer(position).score.moved == len(position.table_tiles()) - kept


def test_sample_holds_jokers() -> None:
    positions = [c.position() for c in SAMPLE]
    assert len(positions) >= 60
    assert sum(any(t.is_joker for t in p.table_tiles()) for p in positions) >= 10


@pytest.mark.parametrize("case", SAMPLE, ids=[c.id for c in SAMPLE])
def test_picked_measure_of_the_oracle(case: Case) -> None:
    """The oracle's "picked" table picks up what it says (by the assignment of
    ``picked_up``, not a search), is best on the placing levels as the other measures'
    answers, and never picks up more than they move."""
    position = case.position()
    objective, keep = case.objective, case.keep_jokers
    picked = oracle_answer(position, objective, keep, measure="picked")
    level = oracle_answer(position, objective, keep)
    kept = oracle_answer(position, objective, keep, measure="kept")
    assert len(picked_up(position.table, picked.table)) == picked.score.moved
    assert picked.score._replace(moved=0) == kept.score._replace(moved=0)
    assert level.score._replace(moved=0) == kept.score._replace(moved=0)
    assert picked.score.moved <= level.score.moved <= kept.score.moved
