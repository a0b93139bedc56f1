"""--top K: the K best structurally different moves, best first, via no-good cuts."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from click.testing import CliRunner

from rummikub.cli.main import main
from rummikub.models import JokerRule, Tile, position_from_text
from rummikub.models.generate import random_position
from rummikub.models.validation import move_problems
from rummikub.solver import Level, solve, solve_top


def structure(move: object) -> tuple[object, ...]:
    placed = tuple(sorted(move.placed, key=Tile.sort_key))  # type: ignore[attr-defined]
    melds = tuple(sorted(tuple(sorted(m.tiles, key=Tile.sort_key)) for m in move.melds))  # type: ignore[attr-defined]
    return placed, melds


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(25))
def test_top_moves_are_legal_distinct_and_ordered(seed: int) -> None:
    position = random_position(seed, table_tiles=seed * 2, rack_tiles=8, joker_rate=0.1)
    ranked = solve_top(position, 4)
    assert 1 <= len(ranked.moves) <= 4
    best = solve(position)
    assert ranked.moves[0].scores == best.scores
    assert structure(ranked.moves[0]) == structure(best)  # one tie-break everywhere
    scores = [list(m.scores.values()) for m in ranked.moves]
    assert scores == sorted(scores, reverse=True)
    assert len({structure(m) for m in ranked.moves}) == len(ranked.moves)
    for move in ranked.moves:
        assert move_problems(position, move.melds, move.placed) == []
    if len(ranked.moves) >= 2:
        assert ranked.unique_optimum == (scores[1] < scores[0])


@pytest.mark.parametrize("rule", ["free", "strict", "locked"])
def test_first_of_top_is_what_solve_prints(rule: str) -> None:
    """``--top K``'s #1 is the move ``solve`` returns, also where optima tie."""
    for seed in range(8):
        position = random_position(seed, table_tiles=20, rack_tiles=10, joker_rate=0.15)
        position = replace(position, rules=replace(position.rules, joker_rule=JokerRule(rule)))
        best = solve(position)
        ranked = solve_top(position, 2)
        assert structure(ranked.moves[0]) == structure(best), f"seed {seed}"


def test_tied_optimum_is_reported_not_unique() -> None:
    # r4 can extend either copy of r1-3: two identical-looking but different tables? No:
    # the same structure. A real tie: k9 fits the group or a new run with k7 k8.
    position = position_from_text("table: k4-6 | rbo9\nrack: k7 k8 k9 b1 b2 b3")
    ranked = solve_top(position, 3)
    assert ranked.moves[0].placed_count == 6
    assert not ranked.unique_optimum or ranked.moves[1].scores != ranked.moves[0].scores


def test_exhausted_when_fewer_moves_exist() -> None:
    ranked = solve_top(position_from_text("rack: r1 r2 r3"), 5)
    assert ranked.exhausted
    assert [m.placed_count for m in ranked.moves] == [3, 0]
    assert ranked.unique_optimum


@pytest.mark.parametrize(
    ("text", "k", "table", "placed"),
    [
        # A table meld's two jokers, kept or moved to a new run: both tables are listed.
        ("table: b7 j j | k4 r4 o4\nrack: b6 b7 b4", 3, "k4 r4 o4 j | b4 j b6 b7", "b4 b6"),
        # A run split round its joker, the rack joker completing the second half.
        ("table: o1 o2 j o4 o5\nrack: j", 5, "o1 o2 j | j o4 o5", "j"),
    ],
)
def test_moves_with_jokers_in_table_melds_are_all_found(
    text: str, k: int, table: str, placed: str
) -> None:
    # Found missing by review when the ranking used the wildcard form's lighter columns
    # (one solution could then stand for two tables, and the cut removed both).
    position = position_from_text(text)
    expected = (sorted(placed.split()), sorted(sorted(m.split()) for m in table.split(" | ")))
    ranked = solve_top(position, k)
    found = [
        (
            sorted(str(t) for t in move.placed),
            sorted(sorted(str(t) for t in m.tiles) for m in move.melds),
        )
        for move in ranked.moves
    ]
    assert expected in found


def test_cli_top_json_and_human() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["solve", "examples/midgame.txt", "--top", "3", "--json"])
    assert result.exit_code == 0
    payload = json.loads(result.stdout)
    assert len(payload["moves"]) == 3 and isinstance(payload["unique_optimum"], bool)
    result = runner.invoke(main, ["solve", "examples/midgame.txt", "--top", "2", "--no-color"])
    assert result.exit_code == 0
    assert "#1" in result.stdout and "#2" in result.stdout and "unique" in result.stdout


def test_top_lists_a_guarded_joker_staying_and_moving() -> None:
    # Found by review of issue 31: under locked (and strict without a host) the ranking
    # used the wildcard form, where a joker staying with its set and one carried off
    # filled the same columns, so after ``k6 b6 r6 | k4 j j`` the cut also removed
    # ``k4 j k6 | b6 r6 j``.
    args = ["solve", "--colours", "3", "--numbers", "6", "--copies", "1"]
    args += ["--joker-rule", "locked", "--table", "j k6 j", "--rack", "r6 b6 k4"]
    result = CliRunner().invoke(main, [*args, "--top", "4", "--json"])
    assert result.exit_code == 0, result.output
    tables = [
        sorted(sorted(meld) for meld in move["table"])
        for move in json.loads(result.stdout)["moves"]
        if len(move["placed"]) == 3
    ]
    assert sorted([["j", "k4", "k6"], ["b6", "j", "r6"]]) in tables
    assert len(tables) == len({str(t) for t in tables}) >= 2


def test_a_long_run_and_the_same_run_split_are_one_move() -> None:
    # Found by review: r1-6 and r1-3 | r4-6 were #1 and #2, pushing out "place r5".
    ranked = solve_top(position_from_text("table: r1-4\nrack: r5 r6"), 4)
    assert [m.placed_count for m in ranked.moves] == [2, 1, 0]
    assert ranked.exhausted and ranked.unique_optimum


def test_which_copy_a_joker_stands_for_makes_no_other_move() -> None:
    # Found by review: after k3-5 | k1 k2 j, the table k1 k2 k3 | j k4 k5 came second with
    # kept 2 (the cut had taken the columns that keep k1-3 with the first table), and the
    # best move was called the unique optimum. It is the same move: the joker is a k3.
    rules = "rules: numbers=5\n"
    ranked = solve_top(position_from_text(rules + "table: k1-5\nrack: j b2"), 3)
    assert [m.placed_count for m in ranked.moves] == [1, 0]
    assert ranked.exhausted and ranked.unique_optimum
    for move in ranked.moves:  # each score is its table's own
        assert move.scores[Level.KEPT] == 5 - len(move.moved)
