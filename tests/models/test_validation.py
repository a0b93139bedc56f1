"""Validation: rule sets, positions (each violation named), and the independent move validator."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

import pytest

from rummikub.models import (
    JOKER,
    STANDARD,
    Colour,
    IllegalMeldError,
    IllegalPositionError,
    Meld,
    Position,
    RulesError,
    RuleSet,
    RummikubError,
    Tile,
    parse_melds,
    parse_tiles,
    position_from_text,
)
from rummikub.models.jokers import JokerRule
from rummikub.models.validation import IllegalMoveError, check_move, move_problems

# --- rule sets -----------------------------------------------------------------------------


def test_standard_rules() -> None:
    rules = RuleSet()
    assert rules == STANDARD
    assert (rules.colours, rules.numbers, rules.copies, rules.jokers) == (4, 13, 2, 2)
    assert (rules.min_len, rules.max_jokers_per_set, rules.initial_threshold) == (3, 2, 30)
    assert rules.total_tiles == 106
    assert len(rules.tile_types) == 53
    assert rules.tile_types[0] == Tile.parse("k1")
    assert rules.tile_types[-1] == JOKER
    assert rules.index(JOKER) == rules.joker_index == 52
    assert rules.max_run_in_catalogue == 5
    assert all(rules.tile_types[rules.index(t)] == t for t in rules.tile_types)
    assert rules.copies_of(JOKER) == 2 and rules.copies_of(Tile.parse("r5")) == 2
    assert len(list(rules.number_tiles())) == 52


def test_rule_sets_are_values() -> None:
    assert RuleSet(initial_threshold=50) == RuleSet(initial_threshold=50)
    assert RuleSet(initial_threshold=50) != STANDARD
    assert hash(RuleSet(jokers=0)) == hash(RuleSet(jokers=0))
    no_jokers = RuleSet(jokers=0)
    assert JOKER not in no_jokers.tile_types
    assert not no_jokers.contains(JOKER)
    assert no_jokers.total_tiles == 104


def test_rules_decide_which_tiles_exist() -> None:
    assert STANDARD.contains(Tile.parse("o13"))
    assert not STANDARD.contains(Tile.parse("o14"))
    assert not STANDARD.contains(Tile.parse("g1"))
    assert RuleSet(colours=5).contains(Tile.parse("g1"))
    assert RuleSet(numbers=20).contains(Tile.parse("o20"))


class NumberOptions(TypedDict, total=False):
    """The whole-number rule options (keyword arguments of :class:`RuleSet`)."""

    colours: int
    numbers: int
    copies: int
    jokers: int
    min_len: int
    max_jokers_per_set: int
    initial_threshold: int


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"colours": 1}, "colours"),
        ({"colours": 9}, "colours"),
        ({"numbers": 0}, "numbers"),
        ({"numbers": 41}, "numbers"),
        ({"copies": 0}, "copies"),
        ({"copies": 9}, "copies"),
        ({"jokers": -1}, "jokers"),
        ({"jokers": 9}, "jokers"),
        ({"min_len": 1}, "min_len"),
        ({"colours": 2, "numbers": 2, "min_len": 3}, "min_len"),
        ({"max_jokers_per_set": -1}, "max_jokers_per_set"),
        ({"initial_threshold": -5}, "initial_threshold"),
    ],
)
def test_invalid_rules(options: NumberOptions, fragment: str) -> None:
    with pytest.raises(RulesError) as info:
        RuleSet(**options)
    assert fragment in str(info.value)
    assert isinstance(info.value, RummikubError)


# --- position validation -------------------------------------------------------------------


def pos(table: str, rack: str = "", rules: RuleSet = STANDARD, initial: bool = False) -> Position:
    return Position.of(parse_melds(table), parse_tiles(rack), initial, rules)


def test_legal_positions() -> None:
    pos("r1 r2 r3 | b5-7 | rbk9", "k4 k5 o9 j")
    pos("r1-13 | r1-13 | j b1 b2 | b1 j b3")  # every copy and both jokers in use
    pos("", "")
    pos("r5 b5 j", "r5")


@pytest.mark.parametrize(
    ("table", "rack", "rules", "error", "fragments"),
    [
        ("r1 r2 r4", "", STANDARD, IllegalMeldError, ["table meld 1", "'r1 r2 r4'", "consecutive"]),
        (
            "r1 r2 r3 | b5 b5 k5",
            "",
            STANDARD,
            IllegalMeldError,
            ["table meld 2", "'b5 b5 k5'", "b5 repeats"],
        ),
        ("r1 r2", "", STANDARD, IllegalMeldError, ["table meld 1", "'r1 r2'", "too short"]),
        ("r12 r13 r1", "", STANDARD, IllegalMeldError, ["'r12 r13 r1'"]),
        ("r5 j j j", "", RuleSet(jokers=4), IllegalMeldError, ["'r5 j j j'", "3 jokers"]),
        ("rbk5 | r4-6", "r5", STANDARD, IllegalPositionError, ["3 copies of r5", "only 2"]),
        ("", "r5 r5 r5", STANDARD, IllegalPositionError, ["3 copies of r5"]),
        ("r5-7 | r5-7", "r6", STANDARD, IllegalPositionError, ["3 copies of r6"]),
        ("r5 j j", "j", STANDARD, IllegalPositionError, ["3 jokers", "only 2"]),
        ("", "j j j", STANDARD, IllegalPositionError, ["3 jokers"]),
        ("rbk5", "r5", RuleSet(copies=1), IllegalPositionError, ["2 copies of r5", "only 1"]),
        ("", "j", RuleSet(jokers=0), IllegalPositionError, ["joker", "no jokers"]),
        ("r5 b5 j", "", RuleSet(jokers=0), IllegalPositionError, ["joker", "table meld 1"]),
        ("", "k1 g5", STANDARD, IllegalPositionError, ["g5", "rack", "colour"]),
        ("g5 r5 b5", "", STANDARD, IllegalPositionError, ["g5", "table meld 1", "'g5 r5 b5'"]),
        ("", "r14", STANDARD, IllegalPositionError, ["r14", "rack", "1 to 13"]),
        ("r12 r13 r14", "", STANDARD, IllegalPositionError, ["r14", "table meld 1"]),
        ("", "b11", RuleSet(numbers=10), IllegalPositionError, ["b11", "1 to 10"]),
    ],
)
def test_illegal_positions_name_the_problem(
    table: str,
    rack: str,
    rules: RuleSet,
    error: type[RummikubError],
    fragments: Sequence[str],
) -> None:
    with pytest.raises(error) as info:
        pos(table, rack, rules)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, (fragment, message)


def test_validate_on_a_hand_made_position() -> None:
    position = Position((Meld.parse("r1 r2 r4"),), ())
    with pytest.raises(IllegalMeldError):
        position.validate()
    position = Position((), (Tile(Colour.RED, 5),) * 3)
    with pytest.raises(IllegalPositionError):
        position.validate()


def test_position_from_text_and_of_agree() -> None:
    for table, rack in [("rbk5 | r4-6", "r5"), ("r1 r2 r4", "k1"), ("", "g5")]:
        with pytest.raises(RummikubError) as direct:
            pos(table, rack)
        with pytest.raises(RummikubError) as parsed:
            position_from_text(f"table: {table}\nrack: {rack}\n")
        assert type(direct.value) is type(parsed.value)
        assert str(direct.value) in str(parsed.value)


# --- the move validator --------------------------------------------------------------------


def problems(position: Position, table: str, placed: str) -> list[str]:
    return move_problems(position, parse_melds(table), parse_tiles(placed))


def test_legal_moves_have_no_problems() -> None:
    position = pos("r1 r2 r3 | b4 k4 o4", "r4 k9")
    assert problems(position, "r1 r2 r3 | b4 k4 o4", "") == []
    assert problems(position, "r1 r2 r3 r4 | b4 k4 o4", "r4") == []
    assert problems(position, "r1 r2 r3 | r4 b4 k4 o4", "r4") == []
    assert problems(position, "o4 r4 k4 b4 | r3 r1 r2", "r4") == []  # order does not matter


def test_rearranging_the_table_is_legal() -> None:
    position = pos("r3 r4 r5 r6", "k6 b6")
    assert problems(position, "r3 r4 r5 | r6 k6 b6", "k6 b6") == []
    position = pos("r1-13", "k1 b1")
    assert problems(position, "r1 k1 b1 | r2-13", "k1 b1") == []


@pytest.mark.parametrize(
    ("table", "placed", "fragment"),
    [
        ("r1 r2 r3 r4 | b4 k4 o4 | k9", "r4 k9", "new meld 3 'k9' is not a legal set: too short"),
        ("r1 r2 r3 | b4 k4 o4 b4", "b4", "placed 1x b4 but the rack holds 0"),
        ("r1 r2 r3 r4 | b4 k4 o4", "r4 r4", "placed 2x r4 but the rack holds 1"),
        ("b4 k4 o4", "", "1x r1 vanished from the table"),
        ("r1 r2 r3 r4 | b4 k4 o4", "", "1x r4 appeared from nowhere"),
        ("r1 r2 r3 | b4 k4 o4", "r4", "1x r4 vanished from the table"),
        ("r2 r3 r4 | b4 k4 o4 | r1 j", "r4", "'r1 j'"),
    ],
)
def test_illegal_moves(table: str, placed: str, fragment: str) -> None:
    position = pos("r1 r2 r3 | b4 k4 o4", "r4 k9")
    found = problems(position, table, placed)
    assert any(fragment in p for p in found), found
    with pytest.raises(IllegalMoveError) as info:
        check_move(position, parse_melds(table), parse_tiles(placed))
    assert fragment in str(info.value)


def test_check_move_accepts_a_legal_move() -> None:
    position = pos("r1 r2 r3", "r4")
    check_move(position, parse_melds("r1 r2 r3 r4"), parse_tiles("r4"))


def test_initial_meld_rules() -> None:
    position = pos("r4 r5 r6", "r7 r10 r11 r12", initial=True)
    assert problems(position, "r4 r5 r6 | r10 r11 r12", "r10 r11 r12") == []
    assert problems(position, "r4 r5 r6", "") == []  # drawing is always allowed
    touched = problems(position, "r4 r5 r6 r7 | r10 r11 r12", "r7 r10 r11 r12")
    assert any("may not touch the table" in p for p in touched)
    rebuilt = problems(position, "r4 r5 r6 r7 | r10 r11 r12", "r7 r10 r11 r12")
    assert rebuilt == touched


@pytest.mark.parametrize(
    ("rack", "table", "worth"),
    [
        ("r1 r2 r3", "r1 r2 r3", 6),
        ("r1 r2 r3 b1 b2 b3 k1 k2 k3", "r1 r2 r3 | b1 b2 b3 | k1 k2 k3", 18),
        ("r8 r9 j", "r8 r9 j", 27),  # the joker at its best is r10: 27
        ("r9 r10 r11", "r9 r10 r11", None),  # exactly 30
        ("r10 r11 j", "r10 r11 j", None),  # r10-12: 33 (the joker may be read as r12)
        ("r9 j j", "r9 j j", None),  # r9-11: 30
        ("k13 b13 j", "k13 b13 j", None),  # 39
        ("r1 r2 r3 b7 k7 o7 r8 r9 r10", "r1 r2 r3 | b7 k7 o7 | r8 r9 r10", None),  # 6+21+27
    ],
)
def test_initial_meld_threshold(rack: str, table: str, worth: int | None) -> None:
    position = pos("", rack, initial=True)
    found = problems(position, table, " ".join(str(t) for m in parse_melds(table) for t in m.tiles))
    if worth is None:
        assert found == []
    else:
        assert found == [f"initial meld worth {worth}; the rules ask for at least 30"]


AS_LAID = "as laid (a run's joker is worth the tile whose place it takes)"


@pytest.mark.parametrize(
    ("table", "free", "fixed"),
    [
        # Under the strict and locked rules a joker stands for the tile whose place it
        # takes: j r9 r10 is r8-10 (27), though its tiles could make r9-11 (30).
        ("j r9 r10", None, 27),
        ("j j r9", None, 27),  # a group of 9s (r7-9 is 24), not r9-11
        ("r9 r10 j", None, None),  # r9-11: 30 as laid
        ("j r10 r11", None, None),  # r9-11
        ("k13 j b13", None, None),  # a group: the joker is o13 or r13 wherever it lies
        ("r8 r9 j", 27, 27),  # r8-10, below the threshold any way
    ],
)
def test_an_opening_runs_jokers_count_as_laid_under_the_table_joker_rules(
    table: str, free: int | None, fixed: int | None
) -> None:
    melds = parse_melds(table)
    placed = [t for m in melds for t in m.tiles]
    for rule in ("free", "strict", "locked"):
        position = pos("", table, RuleSet(joker_rule=JokerRule(rule)), initial=True)
        worth = free if rule == "free" else fixed
        found = move_problems(position, melds, placed)
        if worth is None:
            assert found == [], rule
        else:
            where = f" {AS_LAID}" if rule != "free" and free is None else ""
            assert found == [f"initial meld worth {worth}{where}; the rules ask for at least 30"]
        # Moves recorded before the written order counted are read as before.
        assert move_problems(position, melds, placed, written_order=False) == (
            [] if free is None else found
        )


def test_initial_threshold_is_a_rule() -> None:
    rules = RuleSet(initial_threshold=50)
    position = pos("", "r10 r11 r12 r13", rules, initial=True)
    assert problems(position, "r10 r11 r12 r13", "r10 r11 r12 r13") == [
        "initial meld worth 46; the rules ask for at least 50"
    ]
    position = pos("", "r10 r11 r12 r13", RuleSet(initial_threshold=0), initial=True)
    assert problems(position, "r10 r11 r12 r13", "r10 r11 r12 r13") == []


def test_the_validator_reads_the_position_rules() -> None:
    rules = RuleSet(min_len=2)
    position = pos("", "r1 r2", rules)
    assert problems(position, "r1 r2", "r1 r2") == []
    assert problems(pos("", "r1 r2"), "r1 r2", "r1 r2") != []


def test_an_opening_turn_may_not_re_lay_a_table_joker() -> None:
    """Before the initial meld the table may not be touched: not even a joker moved within
    its meld (r3 r4 j, the joker r5, laid as j r3 r4: r2). Found by review."""
    from rummikub.models import Meld, Position, parse_tiles
    from rummikub.models.validation import move_problems

    position = Position.parse("table: r3 r4 j\nrack: k10 b10 o10\ninitial: yes")
    opening = [Meld.parse("k10 b10 o10")]
    moved = move_problems(position, [Meld.parse("j r3 r4"), *opening], parse_tiles("k10 b10 o10"))
    assert moved == ["the initial meld may not touch the table"]
    assert (
        move_problems(position, [Meld.parse("r3 r4 j"), *opening], parse_tiles("k10 b10 o10")) == []
    )
