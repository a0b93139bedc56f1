"""The path a user runs works under every joker rule and preset (issue 10).

Solve → explain → JSON and text → replay of the steps → independent validator, on random
joker-heavy positions (a fixed-seed sample; ``benchmarks/bench_user_path.py`` runs thousands),
the README's commands through the CLI, and the strict/locked answers of small positions
against the brute-force joker-rule oracle.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle_jokers import joker_oracle_answer
from user_path import (
    JOKER_RULES,
    PRESET_NAMES,
    joker_heavy_position,
    rules_for,
    run_user_path,
)

from rummikub.cli.main import main
from rummikub.models import JokerRule, RuleSet
from rummikub.solver import solve

SMALL_RULES = (
    RuleSet(colours=3, numbers=7),
    RuleSet(colours=4, numbers=6),
    RuleSet(colours=3, numbers=7, max_jokers_per_set=1),
)


@pytest.mark.slow
@settings(max_examples=45, derandomize=True, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    joker_rule=st.sampled_from(JOKER_RULES),
    preset=st.sampled_from(PRESET_NAMES),
)
def test_user_path_on_joker_heavy_positions(seed: int, joker_rule: str, preset: str) -> None:
    run_user_path(joker_heavy_position(seed, rules_for(preset, joker_rule)))


@pytest.mark.parametrize("joker_rule", ["strict", "locked"])
def test_small_positions_match_the_joker_oracle(joker_rule: str) -> None:
    for seed in range(12):
        rules = SMALL_RULES[seed % len(SMALL_RULES)]
        position = joker_heavy_position(
            5_000 + seed, replace(rules, joker_rule=JokerRule(joker_rule)), small=True
        )
        answer = joker_oracle_answer(position, joker_rule)
        run_user_path(position)
        move = solve(position)
        expected = (answer.score.placed_count, answer.score.placed_value)
        assert (move.placed_count, move.placed_value) == expected, (
            f"solver and oracle disagree on\n{position.to_text()}"
        )


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.mark.parametrize("joker_rule", JOKER_RULES)
def test_the_textbook_joker_swap(joker_rule: str) -> None:
    position = ["--table", "r5 j r7", "--rack", "r6 b1 b2", "--joker-rule", joker_rule]
    code, out = _run("solve", *position)
    assert code == 0, out
    code, out = _run("solve", *position, "--json")
    assert code == 0, out
    payload = json.loads(out)
    assert payload["placed_count"] == 3
    [run] = [m for m in payload["melds"] if m["tiles"] == ["r5", "r6", "r7"]]
    # The run is that meld, changed: its joker swapped for r6; only the joker moves.
    assert (run["origin"], run["source"]) == ("extended", 0)
    assert payload["moved"] == 1 and payload["moved_tiles"] == ["j"]
    assert payload["steps"][0]["action"] == "swap"
    assert payload["steps"][0]["meld"] == ["r5", "j", "r7"]


@pytest.mark.parametrize("joker_rule", ["strict", "locked"])
@pytest.mark.parametrize(
    "options", [(), ("--json",), ("--no-steps",), ("--top", "2"), ("--json", "--no-steps")]
)
def test_the_readme_joker_example_under_the_official_rules(
    joker_rule: str, options: tuple[str, ...]
) -> None:
    code, out = _run("solve", "examples/jokers.txt", "--joker-rule", joker_rule, *options)
    assert code == 0, out
    assert "error" not in out


@pytest.mark.parametrize("joker_rule", ["strict", "locked"])
def test_analyze_under_the_official_rules(joker_rule: str) -> None:
    position = ["--table", "r5 j r7", "--rack", "r6 b1 b2", "--colours", "3", "--numbers", "7"]
    code, out = _run("analyze", *position, "--joker-rule", joker_rule)
    assert code == 0, out
    code, out = _run("analyze", *position, "--json", "--joker-rule", joker_rule)
    assert code == 0, out
    best = json.loads(out)["best"]["tiles"]
    assert (best["placed_count"], best["moved"]) == (3, 1)
