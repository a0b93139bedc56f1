"""Exact odds of a hand: the counts against brute force, the decision against the ILP solver
and the exact search, the opening chance against dealt racks through the solver, the CLI."""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from dataclasses import replace
from functools import cache

import pytest
from click.testing import CliRunner
from oracle_hands import brute_counts

from rummikub.analysis.hand_search import game_sets, search_best_value, search_is_winning
from rummikub.analysis.hands import best_opening_value, can_open, is_winning_hand
from rummikub.analysis.odds import (
    CountTooLarge,
    Question,
    _added_tiles_cover,
    _count_by_added_tiles,
    _Counter,
    count_hands,
    estimate_hands,
)
from rummikub.arena.stats import wilson
from rummikub.cli.main import main
from rummikub.models.generate import full_set
from rummikub.models.notation import parse_tiles
from rummikub.models.position import Position
from rummikub.models.presets import preset
from rummikub.models.rules import STANDARD, RuleSet
from rummikub.models.tile import Tile
from rummikub.solver import solve

SMALL_GAMES = {
    "2x5x2": RuleSet(colours=2, numbers=5, copies=2, jokers=0, initial_threshold=12),
    "3x5x1": RuleSet(colours=3, numbers=5, copies=1, jokers=0, initial_threshold=12),
    "2x6x1+2j": RuleSet(colours=2, numbers=6, copies=1, jokers=2, initial_threshold=15),
    "3x4x1+2j": RuleSet(colours=3, numbers=4, copies=1, jokers=2, initial_threshold=10),
    "3x4x1+1j, sets of 2": RuleSet(
        colours=3, numbers=4, copies=1, jokers=1, min_len=2, initial_threshold=8
    ),
}
# Counted in the full suite only (each takes seconds); the quick subset keeps the others.
SLOW_GAMES = {
    "2x5x2+2j": RuleSet(colours=2, numbers=5, copies=2, jokers=2, initial_threshold=12),
    "3x5x1+2j, 1 per set": RuleSet(
        colours=3, numbers=5, copies=1, jokers=2, max_jokers_per_set=1, initial_threshold=15
    ),
    "2x7x1+1j": RuleSet(colours=2, numbers=7, copies=1, jokers=1, initial_threshold=20),
}


@cache
def _brute(name: str, opening: bool) -> tuple[list[int], list[int]]:
    return brute_counts({**SMALL_GAMES, **SLOW_GAMES}[name], opening)


def _check_against_brute_force(name: str, opening: bool) -> None:
    rules = {**SMALL_GAMES, **SLOW_GAMES}[name]
    question = Question.OPENING if opening else Question.WINNING
    rows = count_hands(range(rules.total_tiles + 1), rules, question, max_seconds=None)
    hands, draws = _brute(name, opening)
    assert [r.hands for r in rows] == hands
    assert [r.draws for r in rows] == draws
    assert any(hands[1:-1])  # the game is not trivial for this question


@pytest.mark.parametrize("opening", [False, True], ids=["winning", "opening"])
@pytest.mark.parametrize("name", list(SMALL_GAMES))
def test_counts_equal_brute_force_for_every_size(name: str, opening: bool) -> None:
    _check_against_brute_force(name, opening)


@pytest.mark.slow
@pytest.mark.parametrize("opening", [False, True], ids=["winning", "opening"])
@pytest.mark.parametrize("name", list(SLOW_GAMES))
def test_counts_of_the_bigger_small_games_equal_brute_force(name: str, opening: bool) -> None:
    _check_against_brute_force(name, opening)


def test_the_added_tiles_walk_covers_the_rules_where_a_joker_is_just_its_tile() -> None:
    assert _added_tiles_cover(STANDARD) and _added_tiles_cover(RuleSet(jokers=0))
    assert not _added_tiles_cover(preset("american"))  # one joker per set: the budget walk
    assert not _added_tiles_cover(replace(STANDARD, wrap=True))


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(colours=3, numbers=4, copies=2, jokers=2),
        RuleSet(colours=2, numbers=6, copies=2, jokers=1, min_len=2),
    ],
    ids=["3x4x2+2j", "2x6x2+1j, sets of 2"],
)
def test_added_tiles_walk_equals_the_joker_budget_walk(rules: RuleSet) -> None:
    """Games too big for the brute force: the two walks (jokers as added tiles, jokers as
    a budget the automaton places) count the same winning hands of every size."""
    top = rules.total_tiles
    assert (
        _count_by_added_tiles(rules, top, None)
        == _Counter(rules, Question.WINNING, top, None).run()
    )


def test_totals_are_the_multisets_and_draws_of_each_size() -> None:
    rules = SMALL_GAMES["2x6x1+2j"]
    rows = count_hands(range(rules.total_tiles + 1), rules, max_seconds=None)
    assert sum(r.all_hands for r in rows) == 2**12 * 3
    assert [r.all_draws for r in rows][:3] == [1, 14, 91]


def _constructed_hand(rng: random.Random, rules: RuleSet) -> list[Tile]:
    """A union of random sets of the game, then sometimes one tile swapped or dropped."""
    sets = game_sets(rules)
    pool = full_set(rules)
    hand: Counter[Tile] = Counter()
    for _ in range(rng.randint(1, 4)):
        counts, _ = rng.choice(sets)
        tiles = Counter({rules.tile_types[i]: c for i, c in enumerate(counts) if c})
        if not tiles - (pool - hand):
            hand += tiles
    tiles_list = sorted(hand.elements(), key=Tile.sort_key)
    if tiles_list and rng.random() < 0.5:
        tiles_list.pop(rng.randrange(len(tiles_list)))
        spare = sorted((pool - Counter(tiles_list)).elements(), key=Tile.sort_key)
        if rng.random() < 0.5:
            tiles_list.append(rng.choice(spare))
    return tiles_list


@pytest.mark.parametrize("rules_name", ["standard", "vietnamese"])
def test_decision_agrees_with_the_ilp_solver(rules_name: str) -> None:
    rules = preset(rules_name)
    rng = random.Random(15)
    seen = Counter[bool]()
    for _ in range(25):
        hand = _constructed_hand(rng, rules)
        winning = is_winning_hand(hand, rules)
        move = solve(Position.of((), hand, rules=rules))
        assert winning == (move.placed_count == len(hand)), hand
        opening = solve(Position.of((), hand, initial=True, rules=rules))
        assert can_open(hand, rules) == (not opening.is_draw), hand
        seen[winning] += 1
    assert seen[True] >= 5 and seen[False] >= 5


def test_decision_agrees_with_the_exact_search() -> None:
    rng = random.Random(7)
    for rules in (STANDARD, preset("vietnamese"), RuleSet(min_len=2, colours=3, numbers=7)):
        for _ in range(30):
            hand = _constructed_hand(rng, rules)
            assert is_winning_hand(hand, rules) == search_is_winning(hand, rules), hand
            assert best_opening_value(hand, rules) == search_best_value(hand, rules), hand


@pytest.mark.parametrize(
    ("text", "winning", "value"),
    [
        ("r1 r2 r3", True, 6),
        ("r1 r2 j", True, 6),
        ("r5 b5 j j k9 k10 k11", True, 57),
        ("r1 r2 r3 r4 r5 r6 b4 k4", False, 21),
        ("r10 r11 r12 b10 k10 o10", True, 63),
        ("r1 r2", False, 0),
        ("", True, 0),
    ],
)
def test_known_hands(text: str, winning: bool, value: int) -> None:
    tiles = parse_tiles(text)
    assert is_winning_hand(tiles) is winning
    assert best_opening_value(tiles) == value


def test_one_joker_per_set_under_the_vietnamese_rules() -> None:
    hand = parse_tiles("r5 j j")
    assert is_winning_hand(hand)
    assert not is_winning_hand(hand, preset("vietnamese"))


def test_opening_chance_agrees_with_racks_dealt_through_the_solver() -> None:
    rules = RuleSet(colours=3, numbers=6, copies=1, jokers=1, initial_threshold=15)
    exact = count_hands([6], rules, Question.OPENING, max_seconds=None)[0]

    def solver_opens(hand: list[Tile]) -> bool:
        return not solve(Position.of((), hand, initial=True, rules=rules)).is_draw

    sampled = estimate_hands(
        [6], rules, Question.OPENING, samples=300, seed=3, decide=solver_opens
    )[0]
    assert 0 < sampled.hits < sampled.samples
    assert sampled.low <= exact.chance <= sampled.high


def test_wrap_is_estimated_not_counted() -> None:
    rules = replace(STANDARD, wrap=True)
    from rummikub.models.errors import RulesError

    with pytest.raises(RulesError, match="wrap"):
        count_hands([14], rules)
    row = estimate_hands([3], RuleSet(colours=2, numbers=4, jokers=0, wrap=True), samples=500)[0]
    assert not row.exact and row.low <= row.chance <= row.high


def test_a_count_past_its_time_limit_says_so() -> None:
    with pytest.raises(CountTooLarge, match="longer than"):
        count_hands([14], STANDARD, max_seconds=0.2)
    with pytest.raises(CountTooLarge, match="longer than"):
        count_hands([14], STANDARD, Question.OPENING, max_seconds=0.2)


def test_an_estimate_past_its_time_limit_keeps_the_hands_it_dealt() -> None:
    # Found by review: the estimate had no limit; a 100-tile hand takes ~30 s to decide.
    def slow(hand: list[Tile]) -> bool:
        time.sleep(0.05)
        return len(hand) % 2 == 0

    row = estimate_hands([4], samples=1000, seed=3, decide=slow, max_seconds=0.2)[0]
    assert row.cut_short and 1 <= row.samples < 1000 and row.hits == row.samples
    assert row.to_json()["cut_short"] is True
    whole = estimate_hands([4], samples=5, seed=3, decide=slow, max_seconds=None)[0]
    assert not whole.cut_short and whole.samples == 5
    args = ["odds", "--tiles", "90", "--method", "estimate", "--max-seconds", "0.1"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0 and "dealt hands; stopped at the time limit)" in result.output


def test_wilson_interval() -> None:
    assert wilson(0, 100)[0] == 0.0
    assert wilson(100, 100)[1] == 1.0
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)


# -- the CLI --------------------------------------------------------------------------------

SMALL = ["--colours", "2", "--numbers", "5", "--copies", "1"]


@pytest.mark.slow
def test_cli_counts_the_standard_game_with_its_jokers_exactly() -> None:
    """The standard 14-tile row with both jokers, exact within the default time limit
    (the figures of the first exact run, 2026; the small games above check the method)."""
    result = CliRunner().invoke(main, ["odds", "--tiles", "14", "--method", "exact", "--json"])
    assert result.exit_code == 0, result.output
    row = json.loads(result.output)["rows"][0]
    assert row["exact"] is True
    assert (row["hands"], row["all_hands"]) == (304_564_298, 48_204_860_086_530)
    assert (row["draws"], row["all_draws"]) == (1_084_921_413_998, 105_710_363_656_182_600)


def test_cli_table_prints_exact_integers() -> None:
    result = CliRunner().invoke(main, ["odds", "--tiles", "3..5", "--no-jokers", *SMALL])
    assert result.exit_code == 0, result.output
    assert "3 tiles: 6 of 120 distinct hands (5.0000%)" in result.output
    assert "exact count" in result.output


def test_cli_json_with_jokers_reports_both_counts() -> None:
    args = ["odds", "--tiles", "6", "--json", "--colours", "2", "--numbers", "6", "--jokers", "1"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    row = payload["rows"][0]
    rules = RuleSet(colours=2, numbers=6, jokers=1)
    expected = count_hands([6], rules, max_seconds=None)[0]
    assert (row["hands"], row["draws"], row["all_draws"]) == (
        expected.hands,
        expected.draws,
        expected.all_draws,
    )
    assert row["exact"] is True and payload["question"] == "winning"


def test_cli_opening_with_threshold_option() -> None:
    args = ["odds", "--opening", "--tiles", "6", "--threshold", "12", "--json", *SMALL]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    rules = RuleSet(colours=2, numbers=5, copies=1, initial_threshold=12)
    expected = count_hands([6], rules, Question.OPENING, max_seconds=None)[0]
    assert json.loads(result.output)["rows"][0]["hands"] == expected.hands


def test_cli_wrap_falls_back_to_a_labelled_estimate() -> None:
    args = ["odds", "--tiles", "3", "--wrap", "--samples", "300", *SMALL]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "ESTIMATE" in result.output and "95% interval" in result.output
    assert "not exact" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--tiles", "x"], "--tiles 'x'"),
        (["--tiles", "9..7"], "runs backwards"),
        (["--tiles", "0..3"], "a hand holds at least 1 tile"),
        (["--tiles", "500"], "the game has 106 tiles"),
        (["--tiles", "3", "--wrap", "--method", "exact"], "wrap"),
        (["--colours", "1"], "colours must be"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["odds", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
