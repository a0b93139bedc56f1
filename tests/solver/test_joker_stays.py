"""The printed joker rule (issue 31): under ``strict`` and ``locked`` a table joker that is
not replaced stays with its set, and under every rule a turn that places nothing leaves the
table as it was. The positions an audit found, through the command line, the game companion
and the arena."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from joker_fate import stays_with_its_set, untouched_if_nothing_placed
from oracle_jokers import joker_oracle_answer
from solver_score import solver_score
from user_path import PRESET_NAMES, joker_heavy_position, rules_for

from rummikub.cli.main import main
from rummikub.game.errors import IllegalPlayError
from rummikub.game.protocol import PlayerView, Reply
from rummikub.game.rounds import RoundState, play_turn
from rummikub.models import Meld, Position, parse_tiles
from rummikub.models.jokers import JokerRule
from rummikub.models.rules import RuleSet
from rummikub.models.validation import move_problems
from rummikub.solver import solve

JOKER_RULES = ("strict", "locked")


def solve_json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["solve", *args, "--json"])
    assert result.exit_code == 0, result.output
    payload: dict[str, Any] = json.loads(result.stdout)
    return payload


def assert_untouched_draw(payload: dict[str, Any], table: list[list[str]]) -> None:
    assert payload["draw"] is True and payload["placed"] == []
    assert payload["moved"] == 0 and payload["moved_tiles"] == []
    assert payload["steps"] == []
    assert payload["table"] == table


@pytest.mark.parametrize("rule", JOKER_RULES)
def test_a_joker_that_is_not_replaced_does_not_walk_off(rule: str) -> None:
    """r1 r2 r3 j with b4 k4 on the rack: the joker (r4) may not leave r1-r3 for a group
    of 4s, so nothing can be placed."""
    payload = solve_json("--table", "r1 r2 r3 j", "--rack", "b4 k4", "--joker-rule", rule)
    assert_untouched_draw(payload, [["r1", "r2", "r3", "j"]])


def test_under_free_rules_the_joker_still_moves() -> None:
    payload = solve_json("--table", "r1 r2 r3 j", "--rack", "b4 k4")
    assert payload["placed"] == ["k4", "b4"] and payload["goes_out"] is True
    table = payload["table"]
    assert isinstance(table, list)
    assert sorted(sorted(meld) for meld in table) == [["b4", "j", "k4"], ["r1", "r2", "r3"]]


def test_one_rack_tile_frees_no_joker_by_a_walk() -> None:
    """The joker of k11 r11 j (b11 or o11) may not move into o10 o11 o12 as o11 while b11
    takes its place: that is neither staying with its set nor a swap with two rack tiles."""
    args = ("--table", "o10 j r10 | k11 r11 j", "--rack", "o12 b11 k10 r11")
    payload = solve_json(*args, "--joker-rule", "strict")
    for meld in payload["table"]:
        if "j" in meld and "o12" in meld:
            pytest.fail(f"a table joker walked into {meld}")
    result = CliRunner().invoke(main, ["solve", *args, "--joker-rule", "strict"])
    assert "Take j from k11" not in result.stdout
    assert "o12" in payload["rack"]


def test_a_draw_leaves_the_table_as_it_was() -> None:
    """Nothing can be placed (american, strict): the answer draws and rearranges nothing
    (the joker of r4 j o4 b4, standing for k4, was traded into the black run)."""
    table = "r4 j o4 b4 | k3 k4 k5 k6 k7 | r5 r6 j r8"
    payload = solve_json(
        "--rules", "american", "--joker-rule", "strict", "--table", table, "--rack", "o4"
    )
    assert_untouched_draw(
        payload,
        [["r4", "j", "o4", "b4"], ["k3", "k4", "k5", "k6", "k7"], ["r5", "r6", "j", "r8"]],
    )
    text = (
        CliRunner()
        .invoke(
            main,
            [
                "solve",
                "--rules",
                "american",
                "--joker-rule",
                "strict",
                "--table",
                table,
                "--rack",
                "o4",
            ],
        )
        .stdout
    )
    assert "0 table tiles moved" in text and "Steps:" not in text


@pytest.mark.parametrize("rule", ["free", *JOKER_RULES])
def test_every_rule_draws_without_rearranging(rule: str) -> None:
    """A rack that cannot be placed under any rule: the table comes back as it was."""
    table = "k3 k4 k5 k6 k7 | j r5 r6 | b9 o9 k9 r9"
    payload = solve_json("--table", table, "--rack", "o1", "--joker-rule", rule)
    assert_untouched_draw(
        payload, [["k3", "k4", "k5", "k6", "k7"], ["j", "r5", "r6"], ["b9", "o9", "k9", "r9"]]
    )


def test_the_companion_refuses_a_joker_carried_off(tmp_path: Path) -> None:
    """An opponent's r10 r11 r12 j -> r10 r11 r12 | k13 o13 j is refused in one line that
    names the joker, its meld and the rule, and the game is unchanged."""
    games = tmp_path / "games"

    def run(*args: str) -> tuple[int, str, str]:
        result = CliRunner().invoke(main, ["game", "--dir", str(games), *args])
        return result.exit_code, result.stdout, result.stderr

    rack = "r1 r2 k5 b6 o7 o8 b2 k2 r6 b11 o3 k9 b12 r7"
    code, _, err = run(
        "new", "g", "--players", "2", "--rack", rack, "--first", "1", "--joker-rule", "strict"
    )
    assert code == 0, err
    assert run("g", "table", "r10 r11 r12 j")[0] == 0
    assert run("g", "draw", "k1")[0] == 0
    before = run("g", "show", "--json")[1]
    code, _, err = run("g", "table", "r10 r11 r12 | k13 o13 j")
    assert code == 2
    message = err.strip()
    assert "\n" not in message
    assert "the joker standing for r13 in table meld 1 'r10 r11 r12 j' is not replaced" in message
    assert "stays with its set" in message
    assert run("g", "show", "--json")[1] == before


@pytest.mark.parametrize("rule", JOKER_RULES)
def test_the_arena_refuses_a_reply_that_carries_a_joker_off(rule: str) -> None:
    rules = replace(RuleSet(), joker_rule=JokerRule(rule))
    state = RoundState(
        rules,
        pool=list(parse_tiles("k1 k2")),
        racks=[list(parse_tiles("b4 k4 o9")), list(parse_tiles("b5 b6"))],
        table=(Meld.parse("r1 r2 r3 j"),),
        opened=[True, True],
    )

    def walk_off(view: PlayerView) -> Reply:
        return Reply((Meld.parse("r1 r2 r3"), Meld.parse("k4 b4 j")), tuple(parse_tiles("b4 k4")))

    with pytest.raises(IllegalPlayError) as caught:
        play_turn(state, walk_off, "walker")
    assert any(
        "joker standing for r4 in table meld 1 'r1 r2 r3 j' is not replaced" in p
        for p in caught.value.problems
    )


CAMPAIGN = 300  # random joker positions per rule, the presets in turn


def _campaign_position(seed: int, rule: str) -> Position:
    preset = PRESET_NAMES[seed % len(PRESET_NAMES)]
    return joker_heavy_position(31_000 + seed, rules_for(preset, rule), small=True)


@pytest.mark.slow
@pytest.mark.parametrize("rule", JOKER_RULES)
def test_random_joker_positions_keep_the_rule(rule: str) -> None:
    """Seeded random positions with table jokers (every preset in turn): each answer is
    legal (the validator), every joker that is not replaced stays with its set and a draw
    is the untouched table (the independent checker of tests/joker_fate.py), and the score
    is the brute-force oracle's (tests/oracle_jokers.py, written from the rules)."""
    failures = []
    draws = 0
    for seed in range(CAMPAIGN):
        position = _campaign_position(seed, rule)
        move = solve(position)
        where = f"seed {seed}:\n{position.to_text()}"
        problems = move_problems(position, move.melds, move.placed)
        problems += stays_with_its_set(position, move.melds, move.placed)
        if not untouched_if_nothing_placed(position, move.melds, move.placed):
            problems.append("a draw rearranged the table")
        expected = joker_oracle_answer(position, rule).score
        if solver_score(move) != expected:
            problems.append(f"scores {solver_score(move)}, the oracle {expected}")
        if problems:
            failures.append(f"{where}\n  " + "\n  ".join(problems))
        draws += move.is_draw
    assert not failures, "\n".join(failures[:5])
    assert draws >= 5  # the campaign exercises draws too


def test_a_game_file_recorded_before_the_rule_still_reads(tmp_path: Path) -> None:
    """A game file holding a play that carried a joker off (recorded before the rule)
    replays as recorded: the game opens, and newly typed plays follow the rule."""
    games = tmp_path / "games"

    def run(*args: str) -> tuple[int, str, str]:
        result = CliRunner().invoke(main, ["game", "--dir", str(games), *args])
        return result.exit_code, result.stdout, result.stderr

    rack = "r1 r2 k5 b6 o7 o8 b2 k2 r6 b11 o3 k9 b12 r7"
    assert (
        run("new", "g", "--players", "2", "--rack", rack, "--first", "1", "--joker-rule", "strict")[
            0
        ]
        == 0
    )
    assert run("g", "table", "r10 r11 r12 j")[0] == 0
    assert run("g", "draw", "k1")[0] == 0
    walk_off = {"event": "table", "seat": 1, "table": [["r10", "r11", "r12"], ["k13", "o13", "j"]]}
    with (games / "g.jsonl").open("a") as log:
        log.write(json.dumps(walk_off) + "\n")
    code, out, err = run("g", "show", "--json")
    assert code == 0, err
    state = json.loads(out)
    assert state["table"] == [["r10", "r11", "r12"], ["k13", "o13", "j"]]
    code, _, err = run("g", "undo")
    assert code == 0, err
    code, _, err = run("g", "table", "r10 r11 r12 | k13 o13 j")  # typed now: refused
    assert code == 2 and "stays with its set" in err
