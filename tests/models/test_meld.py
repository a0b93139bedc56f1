"""Melds: groups and runs, jokers and their readings, reasons for illegal melds, notation."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.models import (
    JOKER,
    STANDARD,
    Colour,
    IllegalMeldError,
    Meld,
    MeldKind,
    NotationError,
    RuleSet,
    Tile,
    parse_melds,
    parse_tiles,
    readings,
)
from rummikub.models.meld import why_illegal
from rummikub.models.tile import sorted_tiles

ReadingKey = tuple[MeldKind, int, int, Colour | None]


def m(text: str) -> Meld:
    return Meld.parse(text)


def names(tiles: tuple[Tile, ...] | list[Tile]) -> list[str]:
    return [str(t) for t in tiles]


def keys(meld: Meld, rules: RuleSet = STANDARD) -> set[ReadingKey]:
    return {(r.kind, r.size, r.number, r.colour) for r in meld.readings(rules)}


@st.composite
def legal_melds(draw: st.DrawFn, rules: RuleSet = STANDARD) -> tuple[Meld, list[Tile]]:
    """A legal meld with jokers anywhere, in any order, and the tiles its jokers replaced."""
    if rules.colours >= rules.min_len and draw(st.booleans()):
        number = draw(st.integers(1, rules.numbers))
        colours = draw(
            st.lists(
                st.sampled_from([Colour(c) for c in range(rules.colours)]),
                min_size=rules.min_len,
                max_size=rules.colours,
                unique=True,
            )
        )
        tiles = [Tile(c, number) for c in colours]
    else:
        length = draw(st.integers(rules.min_len, rules.numbers))
        start = draw(st.integers(1, rules.numbers - length + 1))
        colour = Colour(draw(st.integers(0, rules.colours - 1)))
        tiles = [Tile(colour, n) for n in range(start, start + length)]
    most = min(rules.max_jokers_per_set, rules.jokers, len(tiles) - 1)
    slots = draw(st.lists(st.integers(0, len(tiles) - 1), max_size=most, unique=True))
    replaced = [tiles[s] for s in slots]
    for s in slots:
        tiles[s] = JOKER
    return Meld(tuple(draw(st.permutations(tiles)))), replaced


# --- notation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tiles"),
    [
        ("r1 r2 r3", "r1 r2 r3"),
        ("r1,r2,j", "r1 r2 j"),
        ("b5-9", "b5 b6 b7 b8 b9"),
        ("rbk7", "r7 b7 k7"),
        ("RBK7 o7", "r7 b7 k7 o7"),
        ("j r4-5", "j r4 r5"),
    ],
)
def test_meld_parse(text: str, tiles: str) -> None:
    meld = m(text)
    assert str(meld) == tiles
    assert meld.tiles == tuple(parse_tiles(tiles))
    assert len(meld) == len(meld.tiles)


@pytest.mark.parametrize("text", ["", "   ", ",,"])
def test_empty_meld_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError, match="empty"):
        Meld.parse(text)


@pytest.mark.parametrize("text", ["r1 r2 r3 | b1 b2 b3", "r1 r2 r3; b4", "r1\nr2"])
def test_meld_parse_rejects_meld_separators(text: str) -> None:
    with pytest.raises(NotationError, match="separator"):
        Meld.parse(text)


@pytest.mark.parametrize("text", ["r1 r2 x3", "r1 r2 r0", "k3-1"])
def test_meld_parse_names_the_bad_token(text: str) -> None:
    with pytest.raises(NotationError) as info:
        Meld.parse(text)
    assert text.split()[-1] in str(info.value)


@pytest.mark.parametrize("separator", [" | ", "|", ";", " ; ", "\n", "\n\n", " |\n"])
def test_parse_melds_separators(separator: str) -> None:
    melds = parse_melds(separator.join(["r1 r2 r3", "b5-7", "rbk9", "j o1 o2"]))
    assert [str(x) for x in melds] == ["r1 r2 r3", "b5 b6 b7", "r9 b9 k9", "j o1 o2"]


def test_parse_melds_skips_empty_pieces() -> None:
    assert [str(x) for x in parse_melds("| r1 r2 r3 || ;\n b4 b5 b6 |")] == [
        "r1 r2 r3",
        "b4 b5 b6",
    ]
    assert parse_melds("") == []


@given(legal_melds())
def test_meld_round_trips(drawn: tuple[Meld, list[Tile]]) -> None:
    meld, _ = drawn
    assert Meld.parse(str(meld)) == meld
    assert Meld.parse(str(meld).upper()) == meld
    assert Meld.parse(str(meld).replace(" ", ",")) == meld
    assert eval(repr(meld), {"Meld": Meld}) == meld


@given(st.lists(legal_melds(), max_size=6), st.sampled_from(["|", " | ", ";", "\n"]))
def test_meld_lists_round_trip(drawn: list[tuple[Meld, list[Tile]]], separator: str) -> None:
    melds = [meld for meld, _ in drawn]
    assert parse_melds(separator.join(str(x) for x in melds)) == melds


def test_meld_helpers() -> None:
    meld = Meld.of(parse_tiles("r5 j b5 j"))
    assert meld.jokers == 2
    assert meld.counts()[JOKER] == 2
    assert meld.kinds() == {MeldKind.GROUP}
    assert m("r5 j j").kinds() == {MeldKind.GROUP, MeldKind.RUN}
    assert m("r1 r2 r3").kinds() == {MeldKind.RUN}


# --- legal groups and runs -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["r5 b5 k5", "rbko13", "k1 o1 b1", "b5 r5 k5 o5", "o7 k7 r7"],
)
def test_legal_groups(text: str) -> None:
    meld = m(text)
    assert meld.is_legal()
    (reading,) = meld.readings()
    assert reading.kind is MeldKind.GROUP
    assert reading.colour is None
    assert reading.number == meld.tiles[0].number
    assert reading.value == reading.number * len(meld)
    assert reading.joker_options() == [()]


@pytest.mark.parametrize(
    ("text", "start"),
    [("r1 r2 r3", 1), ("r3 r1 r2", 1), ("b11-13", 11), ("k1-13", 1), ("o4-8", 4), ("b7-12", 7)],
)
def test_legal_runs(text: str, start: int) -> None:
    meld = m(text)
    (reading,) = meld.readings()
    assert reading.kind is MeldKind.RUN
    assert reading.number == start
    assert reading.last == start + len(meld) - 1
    assert reading.value == sum(range(start, start + len(meld)))
    assert names(reading.laid_out()) == names(sorted_tiles(meld.tiles))


def test_a_run_of_thirteen_is_legal_and_fourteen_is_not() -> None:
    assert m("r1-13").is_legal()
    assert not m("r1-13 j").is_legal()
    assert not m("r1-13 j").is_legal(RuleSet(numbers=13))
    assert m("r1-13 j").is_legal(RuleSet(numbers=14))


# --- jokers and readings -------------------------------------------------------------------


def test_joker_at_the_end_of_a_run_reads_both_ways() -> None:
    meld = m("r2 r3 j")
    found = {(r.number, r.last): r.joker_options() for r in meld.readings()}
    assert found == {
        (1, 3): [(Tile.parse("r1"),)],
        (2, 4): [(Tile.parse("r4"),)],
    }
    layouts = sorted(names(r.laid_out()) for r in meld.readings())
    assert layouts == [["j", "r2", "r3"], ["r2", "r3", "j"]]


@pytest.mark.parametrize("text", ["j r1 r2", "r1 r2 j", "r2 j r1"])
def test_run_from_one_reads_one_way_only(text: str) -> None:
    (reading,) = m(text).readings()
    assert (reading.kind, reading.number, reading.last) == (MeldKind.RUN, 1, 3)
    assert reading.joker_options() == [(Tile.parse("r3"),)]
    assert names(reading.laid_out()) == ["r1", "r2", "j"]


def test_run_up_to_thirteen_reads_one_way_only() -> None:
    (reading,) = m("r12 r13 j").readings()
    assert (reading.number, reading.last) == (11, 13)
    assert reading.joker_options() == [(Tile.parse("r11"),)]


def test_joker_inside_a_run() -> None:
    (reading,) = m("r4 j r6").readings()
    assert (reading.kind, reading.number) == (MeldKind.RUN, 4)
    assert reading.joker_options() == [(Tile.parse("r5"),)]
    (reading,) = m("r4 j j r7").readings()
    assert reading.joker_options() == [(Tile.parse("r5"), Tile.parse("r6"))]


def test_three_tile_group_joker_is_ambiguous() -> None:
    (reading,) = m("r5 b5 j").readings()
    assert reading.kind is MeldKind.GROUP
    assert reading.joker_options() == [(Tile.parse("k5"),), (Tile.parse("o5"),)]
    assert reading.value == 15


def test_four_tile_group_joker_is_determined() -> None:
    (reading,) = m("r5 j b5 k5").readings()
    assert reading.joker_options() == [(Tile.parse("o5"),)]
    assert names(reading.laid_out()) == ["k5", "b5", "r5", "j"]


def test_two_jokers_in_one_set() -> None:
    meld = m("r5 j j")
    assert meld.is_legal()
    assert keys(meld) == {
        (MeldKind.GROUP, 3, 5, None),
        (MeldKind.RUN, 3, 3, Colour.RED),
        (MeldKind.RUN, 3, 4, Colour.RED),
        (MeldKind.RUN, 3, 5, Colour.RED),
    }
    group = next(r for r in meld.readings() if r.kind is MeldKind.GROUP)
    assert {frozenset(names(list(o))) for o in group.joker_options()} == {
        frozenset({"k5", "b5"}),
        frozenset({"k5", "o5"}),
        frozenset({"b5", "o5"}),
    }
    assert m("r5 b5 j j").is_legal()
    assert m("j r3 j r6 r7").is_legal()
    runs = {r.number: r.joker_options() for r in m("j r12 j").readings() if r.kind is MeldKind.RUN}
    assert runs == {
        10: [(Tile.parse("r10"), Tile.parse("r11"))],
        11: [(Tile.parse("r11"), Tile.parse("r13"))],
    }


@pytest.mark.parametrize("text", ["r5 j j j", "j j j", "r1 r2 j j j", "r5 b5 j j j"])
def test_three_jokers_in_a_set_are_illegal_by_default(text: str) -> None:
    assert not m(text).is_legal()
    assert "3 jokers" in why_illegal(m(text).tiles)


def test_three_jokers_in_a_set_under_house_rules() -> None:
    rules = RuleSet(jokers=3, max_jokers_per_set=3)
    assert m("r5 j j j").is_legal(rules)
    assert m("j j j").is_legal(rules)
    assert not m("j j j").is_legal(RuleSet(jokers=3, max_jokers_per_set=2))


def test_one_joker_per_set_option() -> None:
    rules = RuleSet(max_jokers_per_set=1)
    assert m("r5 b5 j").is_legal(rules)
    assert not m("r5 j j").is_legal(rules)
    assert "at most 1" in why_illegal(m("r5 j j").tiles, rules)


def test_no_jokers_in_a_game_without_jokers() -> None:
    assert not m("r5 b5 j").is_legal(RuleSet(jokers=0))


@settings(max_examples=150)
@given(legal_melds())
def test_any_tiles_of_a_set_may_be_jokers(drawn: tuple[Meld, list[Tile]]) -> None:
    meld, replaced = drawn
    found = meld.readings()
    assert found, f"{meld} should be legal"
    assert meld.readings() == readings(tuple(reversed(meld.tiles)))
    options = [sorted_tiles(option) for reading in found for option in reading.joker_options()]
    assert sorted_tiles(replaced) in options
    for reading in found:
        laid = reading.laid_out()
        assert sorted_tiles(laid) == sorted_tiles(meld.tiles)
        for option in reading.joker_options():
            assert len(option) == meld.jokers
            full = [t for t in meld.tiles if not t.is_joker] + list(option)
            assert Meld.of(full).is_legal()
            assert sum(t.value for t in full) == reading.value


# --- an independent definition of legality, checked against readings() ---------------------


def brute_readings(tiles: list[Tile], rules: RuleSet) -> set[ReadingKey]:
    """Every (kind, size, number, colour) reachable by substituting the jokers, by brute force."""
    real = [t for t in tiles if not t.is_joker]
    jokers = len(tiles) - len(real)
    if jokers > min(rules.max_jokers_per_set, rules.jokers) or len(tiles) < rules.min_len:
        return set()
    if not all(rules.contains(t) for t in real):
        return set()
    universe = list(rules.number_tiles())
    if real:  # every tile of a legal set shares the colour or the number of any other
        universe = [t for t in universe if t.colour == real[0].colour or t.number == real[0].number]
    found: set[ReadingKey] = set()
    for stand_in in product(universe, repeat=jokers):
        full = real + list(stand_in)
        numbers = sorted(t.number for t in full if t.number is not None)
        colours = {t.colour for t in full}
        if len(set(numbers)) == 1 and len(colours) == len(full) <= rules.colours:
            found.add((MeldKind.GROUP, len(full), numbers[0], None))
        consecutive = numbers == list(range(numbers[0], numbers[0] + len(full)))
        if len(colours) == 1 and consecutive:
            found.add((MeldKind.RUN, len(full), numbers[0], full[0].colour))
    return found


@st.composite
def near_melds(draw: st.DrawFn) -> list[Tile]:
    """Short tile lists from two colours and a narrow band of numbers: often legal, often not."""
    low = draw(st.integers(1, 12))
    colours = draw(st.lists(st.sampled_from(list(Colour)[:4]), min_size=1, max_size=2, unique=True))
    tile = st.builds(Tile, st.sampled_from(colours), st.integers(low, min(13, low + 4)))
    return draw(st.lists(st.one_of(tile, tile, tile, st.just(JOKER)), min_size=1, max_size=6))


@settings(max_examples=300)
@given(near_melds())
def test_readings_match_brute_force(tiles: list[Tile]) -> None:
    expected = brute_readings(tiles, STANDARD)
    meld = Meld.of(tiles)
    assert keys(meld) == expected
    assert meld.is_legal() == bool(expected)
    if not expected:
        reason = why_illegal(meld.tiles)
        assert reason
        with pytest.raises(IllegalMeldError) as info:
            meld.check(where="table meld 7")
        assert f"table meld 7 '{meld}' is not a legal set: {reason}" == str(info.value)


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(colours=6, numbers=9),
        RuleSet(colours=3, numbers=7, min_len=2),
        RuleSet(colours=5, numbers=6, jokers=3, max_jokers_per_set=3, min_len=4),
        RuleSet(max_jokers_per_set=1),
        RuleSet(jokers=1),
    ],
    ids=repr,
)
def test_readings_match_brute_force_in_other_games(rules: RuleSet) -> None:
    @settings(max_examples=60, deadline=None)
    @given(st.data())
    def check(data: st.DataObject) -> None:
        tile = st.builds(
            Tile,
            st.sampled_from([Colour(c) for c in range(min(rules.colours, 2))]),
            st.integers(1, rules.numbers),
        )
        size = data.draw(st.integers(1, 6))
        tiles = data.draw(st.lists(st.one_of(tile, st.just(JOKER)), min_size=size, max_size=size))
        if all(t.is_joker for t in tiles):
            return  # sets of jokers alone: see test_a_set_of_jokers_alone_reads_as_runs_too
        assert keys(Meld.of(tiles), rules) == brute_readings(tiles, rules)

    check()


def test_wider_games() -> None:
    six = RuleSet(colours=6, numbers=20)
    assert m("kbrogp5").is_legal(six)
    assert not m("kbrogp5").is_legal()
    assert m("g18 g19 g20").is_legal(six)
    assert not m("g18 g19 g20").is_legal()
    assert not m("r1 r2 r3").is_legal(RuleSet(min_len=4))
    assert m("r1 r2").is_legal(RuleSet(min_len=2))


# --- why a meld is illegal -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("r1 r2", "too short"),
        ("r5 j", "too short"),
        ("r5", "too short"),
        ("r5 r5 b5", "r5 repeats"),
        ("r5 b5 b5 j", "b5 repeats"),
        ("r5 b5 k5 o5 j", "at most 4"),
        ("r1 r2 r4", "consecutive"),
        ("r1 r2 r5 j", "consecutive"),
        ("r1 r1 r2", "r1 repeats"),
        ("r1 b2 k3", "neither"),
        ("r5 b5 r6", "neither"),
        ("r1-13 j", "beyond"),
        ("r12 r13 r1", "consecutive"),  # 13-1 never wraps
        ("r13 r1 r2", "consecutive"),
        ("r13 j r1", "consecutive"),
        ("r14 r15 r16", "r14"),
        ("g5 r5 b5", "g5"),
        ("r5 j j j", "3 jokers"),
    ],
)
def test_why_illegal_reasons(text: str, reason: str) -> None:
    meld = m(text)
    assert not meld.is_legal()
    assert meld.readings() == []
    assert reason in why_illegal(meld.tiles)
    with pytest.raises(IllegalMeldError) as info:
        meld.check()
    assert f"'{meld}'" in str(info.value)
    assert reason in str(info.value)


def test_wrap_around_is_off_by_default() -> None:
    for text in ["r12 r13 r1", "r13 r1 r2", "r12 r13 j r1", "r13 j r2"]:
        assert not m(text).is_legal(), text


def test_why_illegal_blames_jokers_the_game_does_not_have() -> None:
    """Two jokers in one set of a one-joker game: the reason must be the jokers."""
    rules = RuleSet(jokers=1)
    meld = m("r5 j j")
    assert not meld.is_legal(rules)
    assert "joker" in why_illegal(meld.tiles, rules)


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(colours=2, jokers=3, max_jokers_per_set=3),
        RuleSet(jokers=3, max_jokers_per_set=3),
        RuleSet(colours=3, numbers=7, min_len=2),
    ],
    ids=repr,
)
def test_a_set_of_jokers_alone_reads_as_runs_too(rules: RuleSet) -> None:
    """Where the rules allow a set of jokers only, it can stand for any run as well as a group."""
    tiles = [JOKER] * rules.min_len
    assert keys(Meld.of(tiles), rules) == brute_readings(tiles, rules)
    assert Meld.of(tiles).is_legal(rules)
