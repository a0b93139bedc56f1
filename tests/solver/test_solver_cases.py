"""Hand-built positions with known best moves; every answer also passes the move validator."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import pytest
from oracle import oracle_answer
from solver_score import solver_score

from rummikub.models import (
    IllegalPositionError,
    Meld,
    Position,
    RuleSet,
    SolverError,
    parse_tiles,
    position_from_text,
)
from rummikub.models.generate import random_position
from rummikub.models.tile import Tile, sorted_tiles
from rummikub.models.validation import move_problems
from rummikub.solver import Move, Objective, Origin, Status, solve
from rummikub.solver.objectives import Level
from rummikub.steps.report import move_json

SolveFn = Callable[..., Move]  # the solve_and_validate fixture of conftest.py
K, E, N, R = Origin.KEPT, Origin.EXTENDED, Origin.NEW, Origin.REBUILT


def norm(text: str) -> str:
    """Tiles in canonical sorted order, so melds compare as multisets."""
    return " ".join(str(t) for t in sorted_tiles(parse_tiles(text)))


def shape(move: Move) -> Counter[tuple[str, Origin]]:
    return Counter((norm(str(new.meld)), new.origin) for new in move.table)


def expect(*melds: tuple[str, Origin]) -> Counter[tuple[str, Origin]]:
    return Counter((norm(text), origin) for text, origin in melds)


def placed(move: Move) -> str:
    return norm(" ".join(str(t) for t in move.placed))


def position(text: str, rules: RuleSet | None = None) -> Position:
    return position_from_text(text) if rules is None else position_from_text(text, rules)


def jokers(move: Move) -> list[tuple[int, int, list[str]]]:
    found = move_json(move)["jokers"]
    assert isinstance(found, list)
    return [(j["meld"], j["position"], j["stands_for"]) for j in found]


# --- jokers --------------------------------------------------------------------------------


def test_new_run_with_a_joker_at_its_end(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("rack: r12 r13 j k1"))
    assert move.is_optimal
    assert placed(move) == norm("r12 r13 j")
    assert shape(move) == expect(("r12 r13 j", N))
    laid = move.table[0].meld.tiles
    assert laid[0].is_joker or laid[-1].is_joker
    assert jokers(move) == [(0, 0, ["r11"])]  # a joker next to r13 can only be r11
    assert list(move.rack_left) == parse_tiles("k1")


def test_joker_extends_a_table_run_at_an_end(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("table: r4 r5 r6\nrack: j"))
    assert placed(move) == "j"
    assert shape(move) == expect(("r4 r5 r6 j", E))
    assert move.table[0].source == 0
    assert move.moved == ()
    ((_, slot, stands),) = jokers(move)
    assert (slot, stands) in [(0, ["r3"]), (3, ["r7"])]


def test_joker_fills_a_gap(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("table: r4 r5 r6\nrack: r8 j"))
    assert placed(move) == norm("r8 j")
    assert shape(move) == expect(("r4 r5 r6 j r8", E))
    assert jokers(move) == [(0, 3, ["r7"])]


def test_joker_completes_a_table_group(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("table: r5 b5 k5\nrack: j"))
    assert placed(move) == "j"
    assert shape(move) == expect(("r5 b5 k5 j", E))
    assert [stands for _, _, stands in jokers(move)] == [["o5"]]


def test_joker_in_a_new_group_keeps_both_readings(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("rack: r5 b5 j"))
    assert shape(move) == expect(("r5 b5 j", N))
    assert [stands for _, _, stands in jokers(move)] == [["k5", "o5"]]


def test_two_jokers_in_one_new_set(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("rack: r5 j j"))
    assert placed(move) == norm("r5 j j")
    assert shape(move) == expect(("r5 j j", N))
    assert len(jokers(move)) == 2


def test_two_jokers_extend_one_table_run(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("table: r4 r5 r6\nrack: j j"))
    assert placed(move) == "j j"
    assert shape(move) == expect(("r4 r5 r6 j j", E))
    assert move.moved == ()


def test_a_rack_joker_joins_a_table_run_that_holds_a_joker(solve_and_validate: SolveFn) -> None:
    # Both jokers stand for tiles that are nowhere in play (k1/k6/k7): the run is extended,
    # not broken up (found by the oracle when survivals stopped listing added jokers).
    move = solve_and_validate(position("table: k2 k3 k4 k5 j\nrack: j"))
    assert placed(move) == "j"
    assert shape(move) == expect(("k2 k3 k4 k5 j j", E))
    assert move.moved == ()


def test_a_table_meld_with_two_jokers_is_extended_around_them(
    solve_and_validate: SolveFn,
) -> None:
    # Both jokers move down to stand for o8 and o9: the meld is kept, extended.
    move = solve_and_validate(position("table: j j o11\nrack: o10 o12 o13"))
    assert placed(move) == norm("o10 o12 o13")
    assert shape(move) == expect(("j j o10 o11 o12 o13", E))
    assert move.moved == ()
    assert sorted(stands for _, _, stands in jokers(move)) == [["o8"], ["o9"]]


def test_a_third_joker_cannot_join_the_set(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("rack: r5 j j j", RuleSet(jokers=3)))
    assert placed(move) == norm("r5 j j")
    assert list(move.rack_left) == parse_tiles("j")
    rules = RuleSet(jokers=3, max_jokers_per_set=3)
    move = solve_and_validate(position("rack: r5 j j j", rules))
    assert shape(move) == expect(("r5 j j j", N))


def test_a_set_of_jokers_alone_where_the_rules_allow_it(solve_and_validate: SolveFn) -> None:
    """Two colours, three jokers per set: 'j j j' is a legal run (any colour, any numbers)."""
    rules = RuleSet(colours=2, jokers=3, max_jokers_per_set=3)
    move = solve_and_validate(position("rack: j j j", rules))
    assert placed(move) == "j j j"


def test_a_joker_swapped_out_of_a_table_run(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("table: r4 j r6\nrack: r5"))
    assert placed(move) == "r5"
    assert shape(move) == expect(("r4 r5 r6 j", E))


# --- long runs -----------------------------------------------------------------------------


LONG = "r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13"


def kept_long_run(move: Move, source: int = 0) -> None:
    (long,) = [new for new in move.table if new.source == source]
    assert long.origin is K
    assert len(long.meld) == 13
    assert str(long.meld) == LONG


def test_long_run_untouched_when_nothing_can_be_played(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("table: r1-13\nrack: k1 b9"))
    assert move.is_draw
    assert len(move.table) == 1
    kept_long_run(move)
    assert move.moved == ()


def test_long_run_untouched_when_the_rack_plays_elsewhere(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("table: r1-13\nrack: b5 k5 o5"))
    assert placed(move) == norm("b5 k5 o5")
    assert shape(move) == expect((LONG, K), ("b5 k5 o5", N))
    kept_long_run(move)
    assert move.moved == ()


def test_long_run_untouched_when_a_group_is_extended(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("table: r1-13 | b5 k5 o5\nrack: r5 k13"))
    assert placed(move) == "r5"
    assert shape(move) == expect((LONG, K), ("r5 b5 k5 o5", E))
    kept_long_run(move)


def test_two_long_runs_and_a_new_run(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("table: r1-13 | b1-13\nrack: r5 r6 r7 k2"))
    assert placed(move) == norm("r5 r6 r7")
    assert shape(move) == expect((LONG, K), (LONG.replace("r", "b"), K), ("r5 r6 r7", N))
    kept_long_run(move)


def test_long_run_extended_to_thirteen(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("table: r2-13\nrack: r1"))
    assert shape(move) == expect((LONG, E))
    assert len(move.table[0].meld) == 13


def test_long_run_rebuilt_in_natural_shape(solve_and_validate: SolveFn) -> None:
    """Taking r1 off r1-13 leaves r2-13: printed as one run, not as pieces of 3..5."""
    move = solve_and_validate(position("table: r1-13\nrack: k1 b1"))
    assert placed(move) == norm("k1 b1")
    assert shape(move) == expect(("r1 k1 b1", R), ("r2-13", R))
    assert move.moved == (Tile.parse("r1"),)  # picked up: only r1 leaves its place
    assert move.scores[Level.KEPT] == 12  # the third level: r2-13 stay


# --- extending and rebuilding --------------------------------------------------------------


def test_extending_a_run(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("table: r1 r2 r3\nrack: r4"))
    assert shape(move) == expect(("r1 r2 r3 r4", E))
    (new,) = move.table
    assert new.source == 0
    assert [str(t) for t in new.placed] == ["r4"]
    assert sum(new.from_rack) == 1


def test_extending_a_run_at_both_ends(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("table: r4 r5 r6\nrack: r3 r7"))
    assert shape(move) == expect(("r3-7", E))


def test_extending_a_group(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("table: r5 b5 k5\nrack: o5 o6"))
    assert shape(move) == expect(("r5 b5 k5 o5", E))
    assert list(move.rack_left) == parse_tiles("o6")


def test_extend_one_meld_and_keep_the_other(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("table: r1 r2 r3 | r4 r5 r6\nrack: r7"))
    assert shape(move) == expect(("r1 r2 r3", K), ("r4 r5 r6 r7", E))
    assert move.moved == ()


def test_splitting_a_run_to_make_a_group(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("table: r3 r4 r5 r6\nrack: k6 b6"))
    assert placed(move) == norm("k6 b6")
    assert shape(move) == expect(("r3 r4 r5", R), ("r6 k6 b6", R))
    assert move.moved == (Tile.parse("r6"),)  # only r6 is picked up
    assert move.scores[Level.KEPT] == 3  # r3 r4 r5 stay where they lie


def test_taking_the_fourth_tile_of_a_group(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("table: r5 b5 k5 o5\nrack: r6 r7"))
    assert shape(move) == expect(("b5 k5 o5", R), ("r5 r6 r7", R))


# --- the initial meld ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rack", "expected"),
    [
        ("r10 r11 r12", "r10 r11 r12"),  # 33
        ("r9 r10 r11", "r9 r10 r11"),  # exactly 30
        ("k10 b10 r10 o1", "k10 b10 r10"),  # 30
        ("r1 r2 r3 b5 k5 o5 r7 r8 r9", "r1 r2 r3 b5 k5 o5 r7 r8 r9"),  # 6 + 15 + 24
        ("r1 r2 r3 b1 b2 b3 k1 k2 k3", ""),  # 18: draw
        ("r8 r9 r10", ""),  # 27: draw
        ("r10 r11 j", "r10 r11 j"),  # the joker counts as r12: 33
        ("r9 j j", "r9 j j"),  # r9-11: 30
        ("r8 r9 j", ""),  # at best r8-10: 27
        ("k13 b13 j", "k13 b13 j"),  # 39
        ("", ""),
    ],
)
def test_initial_meld(solve_and_validate: SolveFn, rack: str, expected: str) -> None:
    move = solve_and_validate(position(f"rack: {rack}\ninitial: yes"))
    assert move.is_optimal
    assert placed(move) == norm(expected)
    assert move.is_draw == (expected == "")
    assert all(new.origin is N for new in move.table)


def test_initial_meld_leaves_the_table_alone(solve_and_validate: SolveFn) -> None:
    text = "table: r4 r5 r6 | b7 k7 o7\nrack: r3 r7 r10 r11 r12\ninitial: yes"
    move = solve_and_validate(position(text))
    assert placed(move) == norm("r10 r11 r12")
    assert shape(move) == expect(("r4 r5 r6", K), ("b7 k7 o7", K), ("r10 r11 r12", N))
    assert [str(new.meld) for new in move.table if new.origin is K] == ["r4 r5 r6", "b7 k7 o7"]
    assert move.moved == ()


def test_initial_meld_cannot_use_the_table_to_reach_the_threshold(
    solve_and_validate: SolveFn,
) -> None:
    move = solve_and_validate(position("table: r4 r5 r6\nrack: r7 r8\ninitial: yes"))
    assert move.is_draw
    assert shape(move) == expect(("r4 r5 r6", K))
    move = solve_and_validate(position("table: r4 r5 r6\nrack: r7 r8"))
    assert placed(move) == norm("r7 r8")


def test_initial_threshold_is_read_from_the_rules(solve_and_validate: SolveFn) -> None:
    fifty = RuleSet(initial_threshold=50)
    assert solve_and_validate(position("rack: r10-13\ninitial: yes", fifty)).is_draw
    move = solve_and_validate(position("rack: r10-12 k13 b13 o13\ninitial: yes", fifty))
    assert placed(move) == norm("r10 r11 r12 k13 b13 o13")
    move = solve_and_validate(position("rack: r10-13\ninitial: yes"))
    assert placed(move) == norm("r10-13")


# --- draws and empty positions -------------------------------------------------------------


def test_nothing_playable_is_a_draw(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("table: r4 r5 r6\nrack: k1 b9 o13"))
    assert move.is_draw
    assert move.placed == () and move.placed_count == 0 and move.placed_value == 0
    assert list(move.rack_left) == sorted_tiles(parse_tiles("k1 b9 o13"))
    assert shape(move) == expect(("r4 r5 r6", K))
    assert move_json(move)["draw"] is True


def test_empty_rack(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("table: r1 r2 r3 | b5 k5 o5\nrack:"))
    assert move.is_draw
    assert [str(m) for m in move.melds] == ["r1 r2 r3", "b5 k5 o5"]
    assert all(new.origin is K for new in move.table)


def test_empty_table(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("rack: r1 r2 r3 k9"))
    assert shape(move) == expect(("r1 r2 r3", N))
    assert list(move.rack_left) == parse_tiles("k9")


def test_empty_position(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(Position())
    assert move.is_draw and move.table == () and move.is_optimal
    move = solve_and_validate(position("rack: j"))
    assert move.is_draw


# --- objectives ----------------------------------------------------------------------------


def test_tiles_and_value_objectives_differ(solve_and_validate: SolveFn) -> None:
    """One joker: r1 r2 j r4 (four tiles, 7 points) or k13 b13 j (three tiles, 26 points)."""
    start = position("rack: r1 r2 r4 k13 b13 j")
    by_tiles = solve_and_validate(start)
    assert by_tiles.objective is Objective.TILES
    assert placed(by_tiles) == norm("r1 r2 r4 j")
    assert (by_tiles.placed_count, by_tiles.placed_value) == (4, 7)
    by_value = solve_and_validate(start, objective="value")
    assert by_value.objective is Objective.VALUE
    assert placed(by_value) == norm("k13 b13 j")
    assert (by_value.placed_count, by_value.placed_value) == (3, 26)
    assert by_tiles.is_optimal and by_value.is_optimal


def test_keep_jokers_holds_back_a_joker_that_adds_nothing(solve_and_validate: SolveFn) -> None:
    start = position("table: r4 r5 r6\nrack: r7 j")
    assert placed(solve_and_validate(start)) == norm("r7 j")
    move = solve_and_validate(start, keep_jokers=True)
    assert placed(move) == "r7"
    assert list(move.rack_left) == parse_tiles("j")
    assert shape(move) == expect(("r4 r5 r6 r7", E))
    assert move_json(move)["keep_jokers"] is True


def test_keep_jokers_still_plays_a_joker_that_helps(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("table: r4 r5 r6\nrack: r8 j"), keep_jokers=True)
    assert placed(move) == norm("r8 j")
    move = solve_and_validate(position("rack: r10 r11 j\ninitial: yes"), keep_jokers=True)
    assert placed(move) == norm("r10 r11 j")


def test_keep_jokers_in_the_initial_meld(solve_and_validate: SolveFn) -> None:
    start = position("rack: r10 r11 r12 j\ninitial: yes")
    assert placed(solve_and_validate(start)) == norm("r10 r11 r12 j")
    assert placed(solve_and_validate(start, keep_jokers=True)) == norm("r10 r11 r12")


def test_keep_jokers_with_the_value_objective(solve_and_validate: SolveFn) -> None:
    move = solve_and_validate(position("rack: k13 b13 j r1"), objective="value", keep_jokers=True)
    assert placed(move) == norm("k13 b13 j")  # the joker lets 26 points go down
    move = solve_and_validate(position("rack: r10 r11 r12 j"), objective="value", keep_jokers=True)
    assert placed(move) == norm("r10 r11 r12")


# --- determinism, errors -------------------------------------------------------------------


def without_seconds(move: Move) -> dict[str, object]:
    result = move_json(move)
    del result["seconds"]
    return result


DETERMINISM = [
    position("table: r1-13 | rbk5 | b7 b8 j\nrack: o5 k6 k7 k8 j b9 o13 o12"),
    *(random_position(seed, table_tiles=30, rack_tiles=14, joker_rate=0.2) for seed in range(4)),
]


@pytest.mark.parametrize("start", DETERMINISM, ids=str)
def test_solving_twice_gives_the_same_answer(start: Position) -> None:
    for objective, keep in [("tiles", False), ("value", True)]:
        first = solve(start, objective=objective, keep_jokers=keep)
        second = solve(start, objective=objective, keep_jokers=keep)
        assert first.status is Status.OPTIMAL
        assert without_seconds(first) == without_seconds(second)
        assert first.table == second.table


def test_solver_errors() -> None:
    with pytest.raises(SolverError, match="objective"):
        solve(Position(), objective="most")
    with pytest.raises(IllegalPositionError):
        solve(Position((), tuple(parse_tiles("r5 r5 r5"))))


@pytest.mark.parametrize("seed", range(12))
def test_random_positions_give_legal_self_consistent_moves(
    solve_and_validate: SolveFn, seed: int
) -> None:
    rules = [RuleSet(), RuleSet(jokers=4, max_jokers_per_set=3), RuleSet(colours=6, numbers=9)]
    start = random_position(
        seed, rules=rules[seed % 3], joker_rate=0.3, initial=seed % 4 == 0, rack_tiles=12
    )
    for objective, keep in [("tiles", False), ("value", True)]:
        assert solve_and_validate(start, objective=objective, keep_jokers=keep).is_optimal


def test_an_opening_holds_a_set_even_with_threshold_zero() -> None:
    """With ``initial_threshold=0`` the first play is still one or more sets of rack tiles:
    r4 alone may not go onto the table, with or without the turn going on after it."""
    text = (
        "rules: threshold=0 continue_after_initial=true\ntable: r1 r2 r3\nrack: r4 k9\ninitial: yes"
    )
    position = position_from_text(text)
    assert solve(position).is_draw
    new_table = [Meld.parse("r1 r2 r3 r4")]
    problems = move_problems(position, new_table, [Tile.parse("r4")])
    assert problems == ["the placed tiles hold no opening meld (no set of rack tiles alone)"]
    with_set = position_from_text(text.replace("rack: r4 k9", "rack: r4 k9 k10 k11"))
    assert sorted(map(str, solve(with_set).placed)) == ["k10", "k11", "k9", "r4"]


@pytest.mark.parametrize("seed", range(40))
def test_threshold_zero_openings_agree_with_the_oracle(seed: int) -> None:
    rules = RuleSet(colours=3, numbers=7, initial_threshold=0, continue_after_initial=True)
    position = replace(
        random_position(seed, table_tiles=6, rack_tiles=5, rules=rules), initial=True
    )
    move = solve(position)
    assert move_problems(position, move.melds, move.placed) == []
    assert solver_score(move) == oracle_answer(position).score
