"""Rule variants: options, presets, rules files, the catalogue, solving, and the CLI.

Catalogue sizes are pinned and recomputed by an independent counter written here (its own
legality test, no ``readings()``); solver moves under each variant are checked by the
independent validator and, in small games, against the brute-force oracle of
``tests/oracle.py`` (which handles wrap-around and the opening turn that continues).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from itertools import combinations, combinations_with_replacement
from math import comb
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from oracle import oracle_answer
from solver_score import solver_score

from rummikub.cli.main import main
from rummikub.models import (
    JOKER,
    STANDARD,
    Meld,
    MeldKind,
    Position,
    RulesError,
    RuleSet,
    RummikubError,
    Tile,
    position_from_text,
)
from rummikub.models.generate import random_position
from rummikub.models.meld import why_illegal
from rummikub.models.presets import (
    PRESETS,
    preset,
    resolve_rules,
    rules_from_file,
    rules_from_mapping,
)
from rummikub.models.rules import RULE_OPTIONS
from rummikub.models.validation import move_problems, opening_value
from rummikub.solver import Move, solve
from rummikub.solver.catalogue import catalogue
from rummikub.solver.extensions import survivals
from rummikub.steps.report import move_json

WRAP = RuleSet(wrap=True)
CONTINUE = RuleSet(continue_after_initial=True)


def m(text: str) -> Meld:
    return Meld.parse(text)


# --- the rule options -----------------------------------------------------------------------


def test_new_options_default_to_the_standard_game() -> None:
    assert STANDARD.wrap is False
    assert STANDARD.joker_penalty == 30
    assert STANDARD.continue_after_initial is False
    assert STANDARD.max_jokers_per_set == 2 and STANDARD.initial_threshold == 30
    assert STANDARD.changes() == {}
    assert tuple(STANDARD.options()) == RULE_OPTIONS
    fields = tuple(f.name for f in dataclasses.fields(RuleSet) if f.init)
    assert fields == RULE_OPTIONS


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"wrap": "yes"}, "wrap must be true or false"),
        ({"wrap": 1}, "wrap must be true or false"),
        ({"continue_after_initial": None}, "continue_after_initial must be true or false"),
        ({"joker_penalty": -1}, "joker_penalty must be at least 0"),
        ({"joker_penalty": 2.5}, "joker_penalty must be a whole number"),
        ({"colours": True}, "colours must be a whole number"),
        ({"initial_threshold": "50"}, "initial_threshold must be a whole number"),
        ({"colours": 9}, "colours must be 2..8"),
        ({"min_len": 1}, "min_len must be at least 2"),
        ({"max_jokers_per_set": -1}, "max_jokers_per_set must be at least 0"),
    ],
)
def test_bad_options_are_rules_errors(options: dict[str, object], fragment: str) -> None:
    with pytest.raises(RulesError) as info:
        RuleSet(**options)  # type: ignore[arg-type]
    assert fragment in str(info.value)
    assert "\n" not in str(info.value)


def test_joker_penalty_scores_a_rack() -> None:
    rack = [Tile.parse("r5"), JOKER, Tile.parse("b13")]
    assert STANDARD.rack_penalty(rack) == 48
    assert RuleSet(joker_penalty=50).rack_penalty(rack) == 68
    assert STANDARD.penalty(JOKER) == 30 and STANDARD.penalty(Tile.parse("k7")) == 7


def test_run_numbers_go_round_the_top_only_under_wrap() -> None:
    assert WRAP.run_numbers(12, 4) == (12, 13, 1, 2)
    assert list(STANDARD.run_starts(3)) == list(range(1, 12))
    assert list(WRAP.run_starts(3)) == list(range(1, 14))
    assert list(WRAP.run_starts(14)) == []


# --- presets and rules files ----------------------------------------------------------------


def test_presets() -> None:
    assert {"standard", "sabra", "american", "wrap"} <= set(PRESETS)
    assert preset("standard") == STANDARD
    # The 1998 Pressman American edition, as the Vietnamese source describes it: opening 30,
    # at most one joker in a set. "vietnamese" and "pressman" are other names for it.
    american = preset("American")
    assert american.initial_threshold == 30 and american.max_jokers_per_set == 1
    assert american.changes() == {"max_jokers_per_set": 1}
    assert preset("vietnamese") == american == preset("pressman")
    assert preset("wrap").changes() == {"wrap": True}
    assert preset("sabra").initial_threshold == 30
    for p in PRESETS.values():
        assert p.description and "\n" not in p.description
        assert "source" not in p.description.lower().replace("sources'", "")
    assert all(p.rules.initial_threshold == 30 for p in PRESETS.values())  # 50: a house rule


def test_unknown_preset_lists_the_names() -> None:
    with pytest.raises(RulesError) as info:
        preset("polish")
    assert "'polish'" in str(info.value)
    for name in PRESETS:
        assert name in str(info.value)


def test_rules_file_toml(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('preset = "american"\nwrap = true\nthreshold = 50\n')
    rules = rules_from_file(path)
    assert rules.changes() == {"initial_threshold": 50, "wrap": True, "max_jokers_per_set": 1}


def test_rules_file_json(tmp_path: Path) -> None:
    path = tmp_path / "small.json"
    path.write_text(json.dumps({"colours": 3, "numbers": 9, "joker_penalty": 25}))
    rules = rules_from_file(path)
    assert (rules.colours, rules.numbers, rules.joker_penalty) == (3, 9, 25)
    assert rules.initial_threshold == 30  # no preset: the standard game underneath


@pytest.mark.parametrize(
    ("name", "text", "fragments"),
    [
        ("bad.toml", "wrapp = true\n", ["'wrapp'", "bad.toml", "did you mean 'wrap'"]),
        ("bad.json", '{"treshold": 50}', ["'treshold'", "bad.json", "initial_threshold"]),
        ("bad7.json", '{"joker_rule": "loose"}', ["free, strict, locked", "'loose'"]),
        ("bad2.toml", 'preset = "nope"\n', ["'nope'", "bad2.toml", "american"]),
        ("bad3.toml", "wrap = \n", ["bad TOML", "bad3.toml"]),
        ("bad4.json", "{", ["bad JSON", "bad4.json"]),
        ("bad5.toml", "colours = 99\n", ["colours must be", "bad5.toml"]),
        ("bad6.json", "[1, 2]", ["bad6.json", "table of options"]),
    ],
)
def test_bad_rules_files_name_key_and_file(
    tmp_path: Path, name: str, text: str, fragments: list[str]
) -> None:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(RulesError) as info:
        rules_from_file(path)
    message = str(info.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, message


def test_resolve_rules_preset_file_and_overrides(tmp_path: Path) -> None:
    assert resolve_rules() == STANDARD
    assert resolve_rules("wrap", initial_threshold=40).changes() == {
        "wrap": True,
        "initial_threshold": 40,
    }
    assert resolve_rules(None, wrap=None) == STANDARD  # None: not given
    path = tmp_path / "r.toml"
    path.write_text("copies = 3\n")
    assert resolve_rules(str(path), jokers=4).changes() == {"copies": 3, "jokers": 4}
    with pytest.raises(RulesError, match="neither a preset"):
        resolve_rules(str(tmp_path / "missing.toml"))
    with pytest.raises(RulesError, match="neither a preset"):
        resolve_rules("my rules.toml")
    with pytest.raises(RulesError, match=r"one preset at most.*name=value"):
        resolve_rules("american wrap")
    with pytest.raises(RulesError, match="unknown rule option"):
        rules_from_mapping({"preset": "wrap", "wraps": True})


# --- melds under wrap-around ----------------------------------------------------------------


def test_wrapped_runs_are_legal_only_under_wrap() -> None:
    for text in ["r12 r13 r1", "r13 r1 r2", "r12 r13 j r2", "r13 j r2", "j r13 r1 r2 r3"]:
        assert not m(text).is_legal(), text
        assert m(text).is_legal(WRAP), text
    assert m("r5-13 r1-4").is_legal(WRAP)  # the whole colour, from 5 round to 4
    assert not m("r1-13 j").is_legal(WRAP)  # at most 13 tiles
    assert not m("r12 r13 r1 r1").is_legal(WRAP)


def test_wrapped_reading_values_layout_and_jokers() -> None:
    (reading,) = m("r12 r13 r1").readings(WRAP)
    assert reading.kind is MeldKind.RUN and reading.numbers == (12, 13, 1)
    assert reading.value == 26 and reading.last == 1 and reading.cycle == 13
    assert [str(t) for t in reading.laid_out()] == ["r12", "r13", "r1"]
    (reading,) = m("r13 j r2").readings(WRAP)
    assert reading.joker_options(WRAP) == [(Tile.parse("r1"),)]
    assert reading.value == 16
    found = {r.joker_options(WRAP)[0] for r in m("j r1 r2").readings(WRAP)}
    assert found == {(Tile.parse("r3"),), (Tile.parse("r13"),)}
    assert {r.joker_options()[0] for r in m("j r1 r2").readings()} == {(Tile.parse("r3"),)}
    assert all(r.cycle == 0 for r in m("r3 r4 j").readings(WRAP))


def test_why_illegal_explains_the_wrap() -> None:
    for text in ["r12 r13 r1", "r13 j r2", "j r13 r1"]:
        reason = why_illegal(m(text).tiles)
        assert "13 is not followed by 1" in reason and "consecutive" in reason, reason
        assert "wrap-around" in reason
    reason = why_illegal(m("k9 k10 k1").tiles, RuleSet(numbers=10))
    assert "10 is not followed by 1" in reason and "9-10-1" in reason
    assert "r2 and r5-11 are missing (8 tiles)" in why_illegal(m("r1 r4 r3 r13 r12").tiles)
    assert "r2 is missing" in why_illegal(m("r1 r4 r3 r13 r12").tiles, WRAP)
    assert "at most 13 tiles" in why_illegal(m("r1-13 j").tiles, WRAP)
    reason = why_illegal(m("r11 r13 r2").tiles, WRAP)
    assert "r12 and r1 are missing" in reason and "round from 13 to 1" in reason
    with pytest.raises(RummikubError, match="13 is not followed by 1"):
        position_from_text("table: r12 r13 r1")
    assert position_from_text("table: r12 r13 r1", WRAP).table == (m("r12 r13 r1"),)


def test_one_joker_per_set_in_the_vietnamese_preset() -> None:
    rules = preset("vietnamese")
    assert m("r5 j r7").is_legal(rules) and not m("r5 j j").is_legal(rules)
    assert "at most 1" in why_illegal(m("r5 j j").tiles, rules)


# --- the catalogue, against an independent counter ------------------------------------------


def _run_fits(numbers: tuple[int, ...], size: int, top: int, wrap: bool) -> bool:
    """Some stretch of ``size`` consecutive numbers (round the top if wrap) holds them all."""
    if size > top:
        return False
    if not numbers or not wrap:
        return not numbers or max(numbers) - min(numbers) + 1 <= size
    return any(all((n - s) % top < size for n in numbers) for s in range(1, top + 1))


def independent_sets(rules: RuleSet) -> set[tuple[tuple[tuple[int, int], ...], int]]:
    """Every set the optimiser needs, as (real tiles as (colour, number), jokers), counted
    from first principles: groups of min_len..colours tiles of one number in different
    colours, runs of min_len..2*min_len-1 tiles (at most ``numbers``) of one colour whose
    real tiles fit in a stretch of that length, sets of jokers alone; at most
    ``max_jokers_per_set`` jokers (and no more than the game has)."""
    most = min(rules.max_jokers_per_set, rules.jokers)
    longest = min(2 * rules.min_len - 1, rules.numbers)
    found: set[tuple[tuple[tuple[int, int], ...], int]] = set()
    for k in range(most + 1):
        if rules.min_len <= k <= max(rules.colours, longest):
            found.add(((), k))
        for n in range(1, rules.numbers + 1):
            for size in range(1, rules.colours + 1):
                if rules.min_len <= size + k <= rules.colours:
                    for cs in combinations(range(rules.colours), size):
                        found.add((tuple((c, n) for c in cs), k))
        for c in range(rules.colours):
            for size in range(1, longest + 1):
                if rules.min_len <= size + k <= longest:
                    for ns in combinations(range(1, rules.numbers + 1), size):
                        if _run_fits(ns, size + k, rules.numbers, rules.wrap):
                            found.add((tuple((c, n) for n in ns), k))
    return found


def _key(tiles: tuple[Tile, ...]) -> tuple[tuple[tuple[int, int], ...], int]:
    real = sorted((int(t.colour), t.number) for t in tiles if t.colour is not None and t.number)
    return tuple(real), sum(t.is_joker for t in tiles)


# (rules, catalogue size): every count is also recomputed by independent_sets().
PINNED: list[tuple[str, RuleSet, int]] = [
    ("standard", STANDARD, 1173),
    ("no-jokers", RuleSet(jokers=0), 185),
    ("wrap", WRAP, 1417),
    ("wrap-no-jokers", RuleSet(wrap=True, jokers=0), 221),
    ("one-joker-per-set", preset("vietnamese"), 679),
    ("one-joker-per-set-wrap", RuleSet(max_jokers_per_set=1, wrap=True), 819),
    ("two-colours", RuleSet(colours=2), 450),
    ("two-colours-wrap", RuleSet(colours=2, wrap=True), 572),
    ("three-copies", RuleSet(copies=3), 1173),  # copies do not change which sets exist
    ("min-len-2", RuleSet(min_len=2), 640),
    ("min-len-2-wrap", RuleSet(min_len=2, wrap=True), 664),
    ("min-len-4", RuleSet(min_len=4), 2035),
    ("min-len-4-wrap", RuleSet(min_len=4, wrap=True), 3055),
    ("c3n5-wrap", RuleSet(colours=3, numbers=5, wrap=True), 203),  # runs of 5 = whole colour
]


@pytest.mark.parametrize(("rules", "size"), [p[1:] for p in PINNED], ids=[p[0] for p in PINNED])
def test_catalogue_sizes(rules: RuleSet, size: int) -> None:
    sets = catalogue(rules)
    assert len(sets) == size
    assert {_key(s.tiles) for s in sets} == independent_sets(rules)
    for s in sets:  # each set as laid out is legal and valued at its best reading
        readings = Meld(s.tiles).readings(rules)
        assert readings and s.value == max(r.value for r in readings)


def test_joker_free_counts_by_formula() -> None:
    """Runs: colours x (starts per length); groups: numbers x sum of C(colours, size)."""
    for rules in (RuleSet(jokers=0), RuleSet(jokers=0, wrap=True), RuleSet(jokers=0, min_len=4)):
        lengths = range(rules.min_len, 2 * rules.min_len)
        starts = sum(rules.numbers if rules.wrap else rules.numbers - n + 1 for n in lengths)
        groups = sum(comb(rules.colours, k) for k in range(rules.min_len, rules.colours + 1))
        assert len(catalogue(rules)) == rules.colours * starts + rules.numbers * groups


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(colours=2, numbers=5, wrap=True),
        RuleSet(colours=3, numbers=4, wrap=True, min_len=2, jokers=1),
        RuleSet(colours=2, numbers=6, wrap=True, max_jokers_per_set=1, min_len=4),
    ],
    ids=repr,
)
def test_small_wrap_catalogue_against_every_multiset(rules: RuleSet) -> None:
    """Every multiset of tile types up to the longest set, kept if the counter's rules
    accept it: the same sets as the catalogue."""
    longest = max(min(2 * rules.min_len - 1, rules.numbers), rules.colours)
    legal = independent_sets(rules)
    found = set()
    for size in range(rules.min_len, longest + 1):
        for tiles in combinations_with_replacement(rules.tile_types, size):
            if _key(tiles) in legal and len(set(t for t in tiles if not t.is_joker)) == len(
                [t for t in tiles if not t.is_joker]
            ):
                found.add(_key(tiles))
    assert found == {_key(s.tiles) for s in catalogue(rules)}


def test_wrapped_catalogue_runs_are_laid_out_round_the_top() -> None:
    layouts = {tuple(map(str, s.tiles)) for s in catalogue(WRAP) if s.kind is MeldKind.RUN}
    assert ("r12", "r13", "r1") in layouts
    assert ("k11", "k12", "k13", "k1", "k2") in layouts
    assert ("r13", "r1", "r2", "r3", "r4", "r5") not in layouts  # 6 tiles: split instead
    assert not any(tuple(map(str, s.tiles[:2])) == ("r13", "r1") for s in catalogue(STANDARD))


# --- survivals of wrapped table melds -------------------------------------------------------


def _survival_texts(text: str, rules: RuleSet) -> set[str]:
    return {" ".join(map(str, s.tiles)) for s in survivals(m(text), rules)}


def test_survivals_cross_the_top_under_wrap_only() -> None:
    found = _survival_texts("r11 r12 r13", WRAP)
    assert {"r11 r12 r13", "r11 r12 r13 r1", "r11 r12 r13 r1 r2", "r10 r11 r12 r13 r1"} <= found
    assert "r11 r12 r13 r1 r2 r3" not in found  # r1-3 would be a run of its own
    assert not any("r1" in text.split() for text in _survival_texts("r11 r12 r13", STANDARD))
    wrapped = _survival_texts("r13 r1 r2", WRAP)
    assert {"r13 r1 r2", "r12 r13 r1 r2", "r13 r1 r2 r3", "r11 r12 r13 r1 r2"} <= wrapped
    assert len(wrapped) == len(_survival_texts("r12 r13 r1", WRAP))  # the same shape
    # A meld with a joker survives where its joker stands round the top.
    assert "r12 r13 j r2 r3" in _survival_texts("j r2 r3", WRAP)
    assert "r12 r13 j r2 r3" not in _survival_texts("j r2 r3", STANDARD)


@pytest.mark.parametrize("rules", [STANDARD, WRAP, RuleSet(max_jokers_per_set=1)])
@pytest.mark.parametrize("text", ["r3 r4 r5", "k11 k12 k13", "b7 r7 o7", "j r2 r3", "o5 j o7 o8"])
def test_survivals_hold_no_more_jokers_than_are_in_play(rules: RuleSet, text: str) -> None:
    """Capping the jokers at those in play leaves out exactly the layouts that hold more."""
    every = survivals(m(text), rules)
    for in_play in range(m(text).jokers, rules.jokers + 1):
        capped = survivals(m(text), rules, jokers=in_play)
        assert capped == tuple(s for s in every if s.jokers <= in_play)


# --- solving under variants -----------------------------------------------------------------


def _checked(position: Position, **kw: Any) -> Move:
    move = solve(position, **kw)
    problems = move_problems(position, move.melds, move.placed)
    assert problems == [], f"{position.rules.changes()} {position}: {problems}"
    assert move.status == "optimal"
    return move


def test_same_position_under_several_variants() -> None:
    text = "table: r11 r12 r13 | k13 k1 k2\nrack: r1 r2 k12 k3 j b5 b6"
    with pytest.raises(RummikubError, match="13 is not followed by 1"):
        position_from_text(text)
    # r1 r2 after r13, k12 and k3 around k13-2, j b5 b6: everything goes down.
    for rules in (WRAP, RuleSet(wrap=True, max_jokers_per_set=1), RuleSet(wrap=True, copies=3)):
        assert _checked(position_from_text(text, rules)).placed_count == 7
    table = "table: r11 r12 r13 | k11 k12 k13\nrack: r1 r2 k1 j"
    placed = {}
    for name, rules in [
        ("standard", STANDARD),
        ("wrap", WRAP),
        ("min-len-2", RuleSet(min_len=2)),
        ("one-joker", preset("vietnamese")),
        ("wrap-no-jokers", RuleSet(wrap=True, jokers=1, max_jokers_per_set=0)),
    ]:
        placed[name] = _checked(position_from_text(table, rules)).placed_count
    assert placed == {
        "standard": 3,  # r1 r2 j
        "wrap": 4,  # r11-13 r1 r2 and k11-13 k1 j (or similar)
        "min-len-2": 4,  # r1 r2, k1 j
        "one-joker": 3,
        "wrap-no-jokers": 3,  # r1 r2 after r13, k1 after k13; the joker cannot be used
    }


def test_opening_values_follow_the_rules() -> None:
    opening = "rack: r12 r13 r1 k1 k2 k3\ninitial: yes"
    assert _checked(position_from_text(opening, WRAP)).placed_value == 32
    assert _checked(position_from_text(opening)).placed_count == 0
    fifty = "rack: k10 k11 k12 b13 r13 o13\ninitial: yes"
    fifty_rules = RuleSet(initial_threshold=50)  # a house rule, not an edition
    assert _checked(position_from_text(fifty, fifty_rules)).placed_count == 6
    short = "rack: k10 k11 k12 b3 r3 o3\ninitial: yes"
    assert _checked(position_from_text(short)).placed_count == 6
    assert _checked(position_from_text(short, fifty_rules)).placed_count == 0
    assert _checked(position_from_text(short, preset("american"))).placed_count == 6


# Small games for the oracle: wrap-around, one joker per set, min_len 2, and the opening turn
# that continues onto the table.
ORACLE_RULES: dict[str, RuleSet] = {
    "c3n6-wrap": RuleSet(colours=3, numbers=6, wrap=True),
    "c2n7-wrap-1j": RuleSet(colours=2, numbers=7, wrap=True, max_jokers_per_set=1),
    "c3n5-wrap-len2": RuleSet(colours=3, numbers=5, wrap=True, min_len=2, copies=1),
    "c3n6-continue": RuleSet(colours=3, numbers=6, continue_after_initial=True),
    "c3n6-wrap-continue": RuleSet(colours=3, numbers=6, wrap=True, continue_after_initial=True),
}
ORACLE_CASES = [(seed, name) for seed in range(36) for name in ORACLE_RULES]


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "name"), ORACLE_CASES, ids=[f"{n}-{s}" for s, n in ORACLE_CASES])
def test_solver_matches_oracle_under_variants(seed: int, name: str) -> None:
    rng = random.Random(seed)
    rules = ORACLE_RULES[name]
    initial = rules.continue_after_initial and rng.random() < 0.8
    if initial:
        rules = dataclasses.replace(rules, initial_threshold=rng.choice((6, 10, 12, 15, 20)))
    small = rules.min_len < 3
    base = random_position(
        seed,
        table_tiles=rng.randint(0, 8 if small else 12),
        rack_tiles=rng.randint(2, 6 if small else 8),
        rules=rules,
        joker_rate=rng.choice((0.1, 0.3)),
    )
    position = Position(base.table, base.rack, initial, rules)
    position.validate()
    objective = rng.choice(("tiles", "value"))
    keep_jokers = rng.random() < 0.3
    answer = oracle_answer(position, objective, keep_jokers)
    witness_placed = list(
        (
            sum((meld.counts() for meld in answer.table), Counter[Tile]()) - position.table_counts()
        ).elements()
    )
    assert move_problems(position, answer.table, witness_placed) == [], "oracle witness illegal"
    move = _checked(position, objective=objective, keep_jokers=keep_jokers)
    solver_table = [str(meld) for meld in move.melds]
    report = f"{position}\noracle {answer.score}:\n{answer.table_text()}\nsolver {solver_table}"
    assert solver_score(move) == answer.score, report


# --- the opening turn that continues onto the table -----------------------------------------

CONTINUE_TEXT = (
    "table: k10 b10 o10 | k12 b12 o12 | o8 o9 o10 o11\nrack: r10 r11 r12 b11\ninitial: yes"
)


def test_opening_may_continue_onto_the_table() -> None:
    """r10 r11 r12 (33) opens; then r10 and r12 join the groups and r11 b11 o11 is formed
    with o11 from the run: all four rack tiles go down, and no rack-only meld remains."""
    assert _checked(position_from_text(CONTINUE_TEXT)).placed_count == 3
    position = position_from_text(CONTINUE_TEXT, CONTINUE)
    move = _checked(position)
    assert move.placed_count == 4 and move.position.initial and move_json(move)["initial"]
    assert oracle_answer(position).score == solver_score(move)
    assert not any(all(new.from_rack) for new in move.table)


def test_validator_asks_for_an_opening_among_the_placed_tiles() -> None:
    position = position_from_text("table: k1 k2 k3 k4\nrack: k5 b7 r7 o7\ninitial: yes", CONTINUE)
    grown = [m("k1 k2 k3 k4 k5")]
    assert any("no opening meld" in p for p in move_problems(position, grown, [Tile.parse("k5")]))
    full = [m("k1 k2 k3 k4 k5"), m("b7 r7 o7")]
    placed = [Tile.parse(t) for t in ("k5", "b7", "r7", "o7")]
    assert any("no opening meld worth 30" in p for p in move_problems(position, full, placed))
    cheap = dataclasses.replace(CONTINUE, initial_threshold=21)
    position = Position(position.table, position.rack, True, cheap)
    assert move_problems(position, full, placed) == []
    assert opening_value(placed, cheap) == 21


# --- the command line -----------------------------------------------------------------------


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_cli_rules_lists_presets() -> None:
    code, out, _ = run("rules")
    assert code == 0
    words = " ".join(out.split())  # descriptions are wrapped to the terminal
    for p in PRESETS.values():
        assert p.name in out and p.description in words
    assert "--threshold 50 (an opening meld worth 50)" in words  # a house rule, no preset
    assert "max_jokers_per_set 1" in out and "wrap yes" in out
    assert "also: pressman, vietnamese" in out
    code, out, _ = run("rules", "--json")
    payload = json.loads(out)
    names = [p["name"] for p in payload["presets"]]
    assert names == list(PRESETS)
    american = payload["presets"][names.index("american")]
    assert american["changes"] == {"max_jokers_per_set": 1}
    assert american["aliases"] == ["pressman", "vietnamese"]
    assert set(american["rules"]) == set(RULE_OPTIONS)


def test_cli_rules_shows_the_selection(tmp_path: Path) -> None:
    code, out, _ = run("rules", "--rules", "wrap", "--threshold", "40", "--json")
    assert code == 0
    assert json.loads(out)["changes"] == {"wrap": True, "initial_threshold": 40}
    path = tmp_path / "house.toml"
    path.write_text('preset = "vietnamese"\njoker_penalty = 50\n')
    code, out, _ = run("rules", "--rules", str(path))
    assert code == 0 and "max_jokers_per_set 1" in out and "joker_penalty 50" in out


def test_cli_solve_check_analyze_take_rules(tmp_path: Path) -> None:
    code, _, err = run("check", "--table", "r12 r13 r1")
    assert code == 2 and "13 is not followed by 1" in err
    code, out, _ = run("check", "--table", "r12 r13 r1", "--rules", "wrap")
    assert code == 0 and "legal position" in out
    code, out, _ = run("check", "--table", "r12 r13 r1", "--wrap", "--json")
    assert code == 0 and json.loads(out)["legal"] is True
    code, out, _ = run("solve", "--table", "r11 r12 r13", "--rack", "r1 r2", "--wrap", "--json")
    assert code == 0 and json.loads(out)["placed_count"] == 2
    code, out, _ = run("solve", "--table", "r11 r12 r13", "--rack", "r1 r2", "--json")
    assert code == 0 and json.loads(out)["placed_count"] == 0
    code, out, _ = run("solve", "--rack", "k10 k11 k12", "--initial", "--threshold", "50")
    assert code == 0 and "No move" in out and "50" in out
    code, out, _ = run("solve", "--rack", "k10 k11 k12", "--initial", "--threshold", "33")
    assert code == 0 and "place 3 tiles" in out
    position = tmp_path / "pos.txt"
    position.write_text("table: g1 g2 g3\nrack: g4\n")
    code, out, _ = run("solve", str(position), "--colours", "5", "--json")
    assert code == 0 and json.loads(out)["placed"] == ["g4"]
    rules_file = tmp_path / "small.json"
    rules_file.write_text('{"colours": 2, "numbers": 5, "jokers": 0, "wrap": true}')
    small = ("--rack", "k4 k5 b1", "--table", "k1 k2 k3", "--rules", str(rules_file))
    code, out, _ = run("analyze", *small, "--json")
    assert code == 0, out
    assert json.loads(out)["best"]["tiles"]["placed_count"] == 2
    batch = '{"table": [["r12","r13","r1"]], "rack": ["r2"]}\n{"rack": ["r13", "r1"]}\n'
    code, out, _ = run("solve", "--jsonl", "--rules", "wrap", stdin=batch)
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and lines[0]["placed"] == ["r2"] and lines[1]["placed_count"] == 0
    code, out, _ = run(
        "solve", "--table", "k1-4", "--rack", "k10 k11 k12 k5", "--initial",
        "--continue-after-initial", "--json",
    )  # fmt: skip
    assert code == 0 and json.loads(out)["placed_count"] == 4


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--rules", "nope"], "neither a preset"),
        (["--colours", "9"], "colours must be 2..8"),
        (["--min-len", "1"], "--min-len must be at least 2"),  # the flag typed, not the field
        (["--joker-penalty", "-3"], "--joker-penalty must be at least 0"),
        (["--jokers", "0"], "no jokers"),
    ],
)
def test_cli_bad_rules_exit_2_with_one_line(args: list[str], fragment: str) -> None:
    for command in ("solve", "check", "analyze"):
        code, out, err = run(command, "--rack", "r1 j", *args)
        assert code == 2, (command, out, err)
        assert err.count("\n") == 1 and fragment in err and "Traceback" not in err


def test_cli_bad_rules_file_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("wrapp = true\n")
    code, _, err = run("solve", "--rack", "r1", "--rules", str(path))
    assert code == 2 and "'wrapp'" in err and "bad.toml" in err and err.count("\n") == 1
    code, _, err = run("rules", "--rules", str(path))
    assert code == 2 and "'wrapp'" in err


def test_cli_help_lists_the_rule_options() -> None:
    for command in ("solve", "check", "analyze"):
        code, out, _ = run(command, "--help")
        assert code == 0
        for option in (
            "--rules",
            "--colours",
            "--numbers",
            "--copies",
            "--jokers",
            "--min-len",
            "--max-jokers-per-set",
            "--wrap / --no-wrap",
            "--threshold",
            "--joker-penalty",
        ):
            assert option in out, (command, option)
    code, out, _ = run("--help")
    assert code == 0 and "rules" in out
