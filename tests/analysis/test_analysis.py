"""rummikub analyze: best moves per objective, outs, going-out odds, unplayable tiles."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from click.testing import CliRunner

from rummikub.analysis.position import analyze, unseen_tiles
from rummikub.cli.main import main
from rummikub.models import Tile, position_from_text
from rummikub.models.generate import random_position
from rummikub.models.validation import move_problems
from rummikub.solver import Limit, solve


@pytest.mark.parametrize("seed", range(4))
def test_outs_match_a_full_solve_with_the_tile_added(seed: int) -> None:
    position = random_position(seed, table_tiles=12 + 8 * seed, rack_tiles=6, rack_jokers=seed % 2)
    analysis = analyze(position)
    unseen = unseen_tiles(position)
    assert {o.tile: o.unseen for o in analysis.outs} == dict(unseen)
    for out in analysis.outs[:: 3 + seed]:
        bigger = replace(position, rack=(*position.rack, out.tile))
        assert out.placed_count == solve(bigger).placed_count, out
        assert out.goes_out == (out.placed_count == len(bigger.rack))
    expected = sum(o.unseen for o in analysis.outs if o.goes_out) / sum(unseen.values())
    assert analysis.p_go_out_next == pytest.approx(expected)
    for move in analysis.best.values():
        assert move_problems(position, move.melds, move.placed) == []


def test_going_out_draw_and_probability() -> None:
    position = position_from_text("table: r5 r6 r7\nrack: r9 r10")
    analysis = analyze(position)
    going = {str(o.tile) for o in analysis.outs if o.goes_out}
    assert going == {"r8", "r11", "j"}  # r5-10, r9-11, or a joker for r8 or r11
    total = sum(o.unseen for o in analysis.outs)
    assert total == 106 - 5
    assert analysis.p_go_out_next == pytest.approx(6 / total)  # two copies of each


@pytest.mark.slow
def test_unplayable_tiles_with_reasons_agree_with_cbc() -> None:
    position = position_from_text("table: r1 r2 r3 | k5 b5 o5\nrack: r4 k13 b8 j")
    analysis = analyze(position)
    dead = {str(u.tile): u.reason for u in analysis.unplayable}
    assert set(dead) == {"k13", "b8"}  # one joker is not enough: k13 j needs a third tile
    assert "no set can be made" in dead["k13"]
    # CBC counts wall-clock time: a generous limit, so a loaded CI machine cannot stop it.
    by_cbc = analyze(position, limit=Limit(seconds=120), backend="cbc")
    assert {str(u.tile) for u in by_cbc.unplayable} == set(dead)


def test_tile_that_would_strand_the_table_is_unplayable() -> None:
    # k5 b5 r5 is a set, but taking r5 leaves r3 r4 without one.
    position = position_from_text("table: r3 r4 r5\nrack: k5 b5")
    dead = {str(u.tile): u.reason for u in analyze(position).unplayable}
    assert set(dead) == {"k5", "b5"}
    assert "leave other table tiles" in dead["k5"]


def test_initial_position_outs_respect_the_opening_rule() -> None:
    position = position_from_text("rack: r10 r11 k1\ninitial: yes")
    analysis = analyze(position)
    by_tile = {str(o.tile): o for o in analysis.outs}
    assert by_tile["r12"].placed_count == 3 and by_tile["r9"].placed_count == 3
    assert by_tile["j"].placed_count == 3  # j r10 r11 read as r10-12: 33
    assert by_tile["r8"].placed_count == 0
    assert not any(o.goes_out for o in analysis.outs)
    assert sorted(str(u.tile) for u in analysis.unplayable) == ["k1", "r10", "r11"]


def test_analyze_cli_json_schema() -> None:
    result = CliRunner().invoke(main, ["analyze", "examples/jokers.txt", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert set(payload["best"]) == {"tiles", "value", "keep_jokers"}
    for move in payload["best"].values():
        assert move["status"] in ("optimal", "feasible")
    assert 0.0 <= payload["p_go_out_next"] <= 1.0
    assert isinstance(payload["unplayable"], list)
    for out in payload["outs"]:
        assert set(out) == {"tile", "unseen", "placed_count", "goes_out"}
        Tile.parse(out["tile"])
        assert out["unseen"] >= 1


def test_analyze_cli_human() -> None:
    result = CliRunner().invoke(main, ["analyze", "examples/midgame.txt", "--no-color"])
    assert result.exit_code == 0
    assert "Outs" in result.stdout and "Chance to go out" in result.stdout


def test_a_tile_held_by_the_joker_rule_says_so() -> None:
    """Under strict rules k3 could go down only beside the joker of j r2 r3 r4 r5, which
    stays with its set: the reason names the rule (it said other table tiles would be
    left without a set; found by review)."""
    from dataclasses import replace

    from rummikub.analysis import analyze
    from rummikub.models import JokerRule, Position, RuleSet

    rules = RuleSet(colours=3, numbers=6, copies=1, joker_rule=JokerRule.STRICT)
    position = Position.parse("table: j r2 r3 r4 r5\nrack: k5 r6 b1 b5 k3", rules)
    reasons = {str(u.tile): u.reason for u in analyze(position).unplayable}
    assert "stays with its set" in reasons["k3"] and "strict" in reasons["k3"]
    assert "stays with its set" not in reasons["b1"]
    free = replace(position, rules=replace(rules, joker_rule=JokerRule.FREE))
    assert "k3" not in {str(u.tile) for u in analyze(free).unplayable}
