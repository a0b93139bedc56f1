"""Tiles and tile-list notation: parsing, canonical printing, shorthands, round trips, errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummikub.models import (
    JOKER,
    STANDARD,
    Colour,
    IllegalPositionError,
    NotationError,
    Position,
    RummikubError,
    Tile,
    format_tiles,
    parse_tiles,
)
from rummikub.models.rules import MAX_NUMBERS
from rummikub.models.tile import COLOUR_LETTERS, sorted_tiles


def number_tiles(
    colours: int = len(COLOUR_LETTERS), numbers: int = MAX_NUMBERS
) -> st.SearchStrategy[Tile]:
    """Non-joker tiles of any game up to the given size."""
    return st.builds(
        Tile, st.sampled_from([Colour(c) for c in range(colours)]), st.integers(1, numbers)
    )


TILES = st.one_of(number_tiles(), st.just(JOKER))
SEPARATORS = st.sampled_from([" ", ",", ", ", " ,", "\t", "  ", " , "])


def ts(text: str) -> list[Tile]:
    return parse_tiles(text)


# --- single tiles --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "colour", "number"),
    [
        ("k4", Colour.BLACK, 4),
        ("b13", Colour.BLUE, 13),
        ("r1", Colour.RED, 1),
        ("o9", Colour.ORANGE, 9),
        ("y9", Colour.ORANGE, 9),
        ("Y9", Colour.ORANGE, 9),
        ("R10", Colour.RED, 10),
        ("K1", Colour.BLACK, 1),
        (" b7 ", Colour.BLUE, 7),
        ("g5", Colour.GREEN, 5),
        ("c40", Colour.CYAN, 40),
    ],
)
def test_tile_parses_colour_and_number(text: str, colour: Colour, number: int) -> None:
    tile = Tile.parse(text)
    assert (tile.colour, tile.number) == (colour, number)
    assert not tile.is_joker
    assert tile.value == number


@pytest.mark.parametrize("text", ["j", "J", " j "])
def test_joker_parses_case_insensitively(text: str) -> None:
    tile = Tile.parse(text)
    assert tile == JOKER
    assert tile.is_joker
    assert tile.value == 0
    assert str(tile) == "j"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("R10", "r10"), ("Y7", "o7"), ("y7", "o7"), ("K13", "k13"), ("J", "j"), ("B01", "b1")],
)
def test_canonical_output_is_lowercase(text: str, canonical: str) -> None:
    assert str(Tile.parse(text)) == canonical


def test_colour_letters_and_yellow() -> None:
    assert [c.letter for c in Colour][:4] == ["k", "b", "r", "o"]
    assert Colour.parse("y") is Colour.ORANGE
    assert Colour.parse("O") is Colour.ORANGE
    with pytest.raises(NotationError, match="'x'"):
        Colour.parse("x")


def test_tile_order_is_colour_major_jokers_last() -> None:
    tiles = ts("j o1 r13 k2 b1 k1 r2")
    assert [str(t) for t in sorted_tiles(tiles)] == ["k1", "k2", "b1", "r2", "r13", "o1", "j"]
    assert [str(t) for t in sorted(tiles)] == ["k1", "k2", "b1", "r2", "r13", "o1", "j"]


def test_tile_constructor_rejects_half_tiles() -> None:
    with pytest.raises(NotationError):
        Tile(Colour.RED, None)
    with pytest.raises(NotationError):
        Tile(None, 5)
    with pytest.raises(NotationError, match="at least 1"):
        Tile(Colour.RED, 0)


@given(TILES)
def test_tile_round_trips(tile: Tile) -> None:
    text = str(tile)
    assert text == text.lower()
    assert Tile.parse(text) == tile
    assert Tile.parse(text.upper()) == tile
    assert eval(repr(tile), {"Tile": Tile}) == tile


@given(st.integers(1, 13))
def test_yellow_is_orange(number: int) -> None:
    assert Tile.parse(f"y{number}") == Tile(Colour.ORANGE, number)
    assert str(Tile.parse(f"Y{number}")) == f"o{number}"


# --- tile lists ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("r1 r2 r3", "r1 r2 r3"),
        ("r1,r2,r3", "r1 r2 r3"),
        ("r1, r2 ,r3", "r1 r2 r3"),
        ("  r1\tr2   r3  ", "r1 r2 r3"),
        ("r3-7", "r3 r4 r5 r6 r7"),
        ("R3-5", "r3 r4 r5"),
        ("y11-13", "o11 o12 o13"),
        ("rbk5", "r5 b5 k5"),
        ("RBKO13", "r13 b13 k13 o13"),
        ("kb1", "k1 b1"),
        ("ybr2", "o2 b2 r2"),
        ("r3-5, rbk9 j", "r3 r4 r5 r9 b9 k9 j"),
        ("j J j", "j j j"),
        ("", ""),
        ("  ,  ", ""),
    ],
)
def test_tile_lists_and_shorthands(text: str, expected: str) -> None:
    assert format_tiles(parse_tiles(text)) == expected


@given(st.lists(TILES, max_size=20), st.data())
def test_tile_list_round_trips(tiles: list[Tile], data: st.DataObject) -> None:
    assert parse_tiles(format_tiles(tiles)) == tiles
    text = ""
    for tile in tiles:
        text += str(tile) + data.draw(SEPARATORS)
    assert parse_tiles(text) == tiles


@given(st.sampled_from((*COLOUR_LETTERS, "y")), st.integers(1, 39), st.integers(1, 39))
def test_run_shorthand_expands(letter: str, low: int, width: int) -> None:
    high = low + width
    colour = Colour.parse(letter)
    assert parse_tiles(f"{letter}{low}-{high}") == [Tile(colour, n) for n in range(low, high + 1)]


@given(
    st.lists(st.sampled_from(COLOUR_LETTERS), min_size=2, max_size=8, unique=True),
    st.integers(1, 40),
)
def test_group_shorthand_expands(letters: list[str], number: int) -> None:
    expected = [Tile(Colour.parse(letter), number) for letter in letters]
    assert parse_tiles("".join(letters) + str(number)) == expected
    assert parse_tiles("".join(letters).upper() + str(number)) == expected


# --- bad tokens ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "token",
    [
        "x5",  # unknown colour
        "r0",  # numbers start at 1
        "r",  # no number
        "5",  # no colour
        "r7-3",  # descending run
        "r5-5",  # one-tile run
        "r0-3",  # run from 0
        "rr5",  # repeated colour in a group
        "rbr5",
        "x3-5",  # unknown colour in the run shorthand
        "rx5",  # unknown colour in the group shorthand
        "j5",
        "r5x",
        "r-5",
        "5r",
        "r1000",
    ],
)
def test_bad_tokens_raise_notation_error_naming_the_token(token: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_tiles(f"k1 {token} k2")
    assert token in str(info.value)
    assert isinstance(info.value, RummikubError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize("text", ["", "   "])
def test_empty_tile_is_an_error(text: str) -> None:
    with pytest.raises(NotationError, match="not a tile"):
        Tile.parse(text)


@pytest.mark.parametrize("text", ["r14", "k20", "b5-14"])
def test_numbers_beyond_the_game_fail_at_validation(text: str) -> None:
    tiles = parse_tiles(text)  # notation allows any number: the rules decide
    assert all(t.number is not None and t.number >= 1 for t in tiles)
    with pytest.raises(IllegalPositionError) as info:
        Position.of(rack=tiles, rules=STANDARD)
    bad = next(t for t in tiles if t.number is not None and t.number > 13)
    assert str(bad) in str(info.value)
    assert "13" in str(info.value)


def test_tile_hashes_are_the_same_in_every_process() -> None:
    """Sets of tiles iterate alike in every run, so the same move gets the same steps (the
    generated hash of the joker, built on hash(None), differed between processes)."""
    import subprocess
    import sys

    code = "from rummikub.models import Tile; print([hash(Tile.parse(t)) for t in ('j', 'r5')])"
    runs = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
        for _ in range(3)
    }
    assert len(runs) == 1 and runs != {""}
