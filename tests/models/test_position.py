"""Positions: the text format, JSON, round trips, and format errors with their locations."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.models import (
    JOKER,
    STANDARD,
    Colour,
    IllegalMeldError,
    IllegalPositionError,
    Meld,
    NotationError,
    Position,
    RuleSet,
    Tile,
    load_json,
    parse_tiles,
    position_from_any,
    position_from_json,
    position_from_text,
)
from rummikub.models.generate import full_set, random_position


def melds(*texts: str) -> tuple[Meld, ...]:
    return tuple(Meld.parse(t) for t in texts)


@st.composite
def legal_meld(draw: st.DrawFn, rules: RuleSet) -> Meld:
    """A legal group or run (any length) with up to the allowed jokers, tiles in any order."""
    if draw(st.booleans()):
        number = draw(st.integers(1, rules.numbers))
        colours = draw(
            st.lists(
                st.integers(0, rules.colours - 1),
                min_size=rules.min_len,
                max_size=rules.colours,
                unique=True,
            )
        )
        tiles = [Tile(Colour(c), number) for c in colours]
    else:
        length = draw(st.integers(rules.min_len, rules.numbers))
        start = draw(st.integers(1, rules.numbers - length + 1))
        colour = Colour(draw(st.integers(0, rules.colours - 1)))
        tiles = [Tile(colour, n) for n in range(start, start + length)]
    most = min(rules.max_jokers_per_set, rules.jokers, len(tiles) - 1)
    for slot in draw(st.lists(st.integers(0, len(tiles) - 1), max_size=most, unique=True)):
        tiles[slot] = JOKER
    return Meld(tuple(draw(st.permutations(tiles))))


@st.composite
def positions(draw: st.DrawFn, rules: RuleSet = STANDARD) -> Position:
    """A legal position: melds that fit in one full set of tiles, a rack from what is left."""
    pool = full_set(rules)
    table = []
    for meld in draw(st.lists(legal_meld(rules), max_size=8)):
        need = meld.counts()
        if not need - pool:
            pool -= need
            table.append(meld)
    left = sorted(pool.elements(), key=Tile.sort_key)
    picks = draw(st.lists(st.integers(0, len(left) - 1), max_size=16, unique=True))
    rack = tuple(left[i] for i in picks)
    position = Position(tuple(table), rack, draw(st.booleans()), rules)
    position.validate()
    return position


# --- the text format -----------------------------------------------------------------------


def test_text_format_on_one_line() -> None:
    position = position_from_text("table: r1 r2 r3 | b5-7 | rbk9\nrack: k4 k5 o9 j\n")
    assert position.table == melds("r1 r2 r3", "b5 b6 b7", "r9 b9 k9")
    assert position.rack == tuple(parse_tiles("k4 k5 o9 j"))
    assert position.initial is False


def test_text_format_one_meld_per_line_with_comments() -> None:
    text = """
    # a position from a real game
    table:
      r1 r2 r3      # a run
      b5-7
      rbk9 ; o1 o2 o3
    rack: k4 k5   # more below
      o9, j
    initial: yes
    """
    position = position_from_text(text)
    assert position.table == melds("r1 r2 r3", "b5 b6 b7", "r9 b9 k9", "o1 o2 o3")
    assert position.rack == tuple(parse_tiles("k4 k5 o9 j"))
    assert position.initial is True


@pytest.mark.parametrize(
    ("line", "initial"),
    [
        ("initial: yes", True),
        ("initial: YES", True),
        ("initial: true", True),
        ("initial: no", False),
        ("initial: false", False),
        ("", False),
    ],
)
def test_initial_flag(line: str, initial: bool) -> None:
    assert position_from_text(f"rack: r10 r11 r12\n{line}\n").initial is initial


def test_text_keys_are_case_insensitive_and_in_any_order() -> None:
    position = position_from_text("RACK: R5\nInitial: Yes\nTABLE: K1 K2 K3\n")
    assert position == Position(melds("k1 k2 k3"), (Tile.parse("r5"),), True)


def test_empty_text_is_the_empty_position() -> None:
    assert position_from_text("") == Position()
    assert position_from_text("table:\nrack:\n") == Position()
    assert position_from_text("# nothing\n\n") == Position()


def test_to_text_writes_one_meld_per_line() -> None:
    position = Position(melds("r1 r2 r3", "j b5 b6"), tuple(parse_tiles("k4 j")), True)
    assert position.to_text() == "table:\n  r1 r2 r3\n  j b5 b6\nrack: k4 j\ninitial: yes\n"
    assert "initial" not in Position().to_text()


def test_str_is_one_readable_line() -> None:
    position = Position(melds("r1 r2 r3"), tuple(parse_tiles("o9 j k4")), True)
    assert str(position) == "table: r1 r2 r3; rack: k4 o9 j; initial"
    assert str(Position()) == "table: (empty); rack: (empty)"


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("table: r1 r2 r3\nrack: k4 x5\n", 2, "x5"),
        ("table:\n  r1 r2 r3\n  b5 b6 q7\nrack: k1\n", 3, "q7"),
        ("# comment\ntable: r1 r2 r3 | r7-3\n", 2, "r7-3"),
        ("table: r1 r2 r3\n\n\nrack: k1\n  k2 r0\n", 5, "r0"),
        ("table: r1 r2 r3\nrack: k1\nfoo: bar\n", 3, "foo"),
        ("r1 r2 r3\n", 1, "table:"),
        ("table: r1 r2 r3\nrack: k1\nrack: k2\n", 3, "twice"),
        ("rack: k1\ninitial: maybe\n", 2, "maybe"),
        ("table: r1 r2 r3 | rr5\n", 1, "rr5"),
    ],
)
def test_text_errors_name_the_line(text: str, line: int, fragment: str) -> None:
    with pytest.raises(NotationError) as info:
        position_from_text(text)
    message = str(info.value)
    assert f"line {line}" in message
    assert fragment in message
    assert "\n" not in message


def test_text_positions_are_validated() -> None:
    with pytest.raises(IllegalMeldError, match="'r1 r2 r4'"):
        position_from_text("table: r1 r2 r3 | r1 r2 r4\nrack:\n")
    with pytest.raises(IllegalPositionError, match="3 copies of r5"):
        position_from_text("table: rbk5 | r4-6\nrack: r5\n")
    with pytest.raises(IllegalPositionError, match="r14"):
        position_from_text("rack: r14\n")


def test_text_under_other_rules() -> None:
    rules = RuleSet(colours=5, numbers=15)
    position = position_from_text("table: g13 g14 g15\nrack: rbkog15\n", rules)
    assert position.rules == rules
    assert len(position.rack) == 5
    with pytest.raises(IllegalPositionError, match="g13"):
        position_from_text("table: g13 g14 g15\n")


# --- JSON ----------------------------------------------------------------------------------


def test_json_format() -> None:
    obj = {"table": [["r1", "r2", "r3"], ["b5", "b6", "b7"]], "rack": ["k4", "J"], "initial": True}
    position = position_from_json(obj)
    assert position.table == melds("r1 r2 r3", "b5 b6 b7")
    assert position.rack == (Tile.parse("k4"), JOKER)
    assert position.initial is True
    assert position.to_json() == {
        "table": [["r1", "r2", "r3"], ["b5", "b6", "b7"]],
        "rack": ["k4", "j"],
        "initial": True,
    }


def test_json_shorthands_and_defaults() -> None:
    assert position_from_json({"table": ["r3-5", "rbk9"], "rack": "k1 k2 j"}) == Position(
        melds("r3 r4 r5", "r9 b9 k9"), tuple(parse_tiles("k1 k2 j"))
    )
    assert position_from_json({"table": "r3-5 | rbk9"}).table == melds("r3 r4 r5", "r9 b9 k9")
    assert position_from_json({}) == Position()


@pytest.mark.parametrize(
    ("obj", "fragment"),
    [
        ([], "JSON object"),
        (None, "JSON object"),
        ("table: r1 r2 r3", "JSON object"),
        ({"table": 5}, "table"),
        ({"table": {"a": 1}}, "table"),
        ({"table": [5]}, "table[0]"),
        ({"table": [["r1", "r2", 3]]}, "table[0][2]"),
        ({"table": [[]]}, "table[0]: empty"),
        ({"table": [["r1", "r2", "x3"]]}, "x3"),
        ({"table": [["r1-3"]]}, "r1-3"),
        ({"rack": 5}, "rack"),
        ({"rack": [None]}, "rack[0]"),
        ({"rack": ["k1", "rr5"]}, "rack[1]"),
        ({"initial": "yes"}, "initial"),
        ({"initial": 1}, "initial"),
        ({"initial": None}, "initial"),
        ({"tabel": []}, "tabel"),
        ({"table": [], "racks": []}, "racks"),
    ],
)
def test_json_errors(obj: object, fragment: str) -> None:
    with pytest.raises(NotationError) as info:
        position_from_json(obj)
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('{"rack": ["r1"], "rack": ["r2"]}', "duplicate key 'rack'"),
        ('{"table": [], "initial": false, "initial": true}', "duplicate key 'initial'"),
        ('{"rack": [}', "bad JSON"),
        ("", "bad JSON"),
        ("[" * 100_000, "bad JSON"),
    ],
)
def test_load_json_errors(text: str, fragment: str) -> None:
    with pytest.raises(NotationError, match=fragment):
        load_json(text)


def test_json_positions_are_validated() -> None:
    with pytest.raises(IllegalPositionError, match="3 jokers"):
        position_from_json({"table": [["r5", "j", "j"]], "rack": ["j"]})
    with pytest.raises(IllegalMeldError, match="table meld 1"):
        position_from_json({"table": [["r1", "r2", "r4"]]})


def test_position_from_any_reads_both_formats() -> None:
    expected = Position(melds("r1 r2 r3"), (Tile.parse("k4"),))
    assert position_from_any('  {"table": [["r1", "r2", "r3"]], "rack": ["k4"]}') == expected
    assert position_from_any("table: r1 r2 r3\nrack: k4\n") == expected
    with pytest.raises(NotationError, match="duplicate"):
        position_from_any('{"rack": [], "rack": []}')


# --- round trips ---------------------------------------------------------------------------


@settings(max_examples=120)
@given(positions())
def test_text_round_trip(position: Position) -> None:
    assert position_from_text(position.to_text()) == position


@settings(max_examples=120)
@given(positions())
def test_json_round_trip(position: Position) -> None:
    obj = position.to_json()
    assert position_from_json(obj) == position
    text = json.dumps(obj)
    assert position_from_json(load_json(text)) == position
    assert position_from_any(text) == position


@settings(max_examples=40)
@given(positions(RuleSet(colours=6, numbers=20, copies=3, jokers=4, max_jokers_per_set=3)))
def test_round_trips_in_a_bigger_game(position: Position) -> None:
    rules = position.rules
    assert position_from_text(position.to_text(), rules) == position
    assert position_from_json(position.to_json(), rules) == position


@pytest.mark.parametrize("seed", range(10))
def test_generated_positions_round_trip(seed: int) -> None:
    position = random_position(seed, joker_rate=0.2)
    assert position_from_text(position.to_text()) == position
    assert position_from_json(position.to_json()) == position
    total = position.table_counts() + position.rack_counts()
    assert not total - full_set()


def test_position_of_validates_and_equality_ignores_nothing_but_rules() -> None:
    position = Position.of(melds("r1 r2 r3"), parse_tiles("k4"), True)
    assert position == Position(melds("r1 r2 r3"), (Tile.parse("k4"),), True)
    assert position != Position(melds("r1 r2 r3"), (Tile.parse("k4"),), False)
    assert position.table_tiles() == parse_tiles("r1 r2 r3")
    assert position.table_counts() == Counter(parse_tiles("r1 r2 r3"))
    assert position.rack_counts() == Counter(parse_tiles("k4"))
