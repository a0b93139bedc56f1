"""The rule that a table joker stays with its set, in the joker-rule oracle and its checker.

Under ``strict`` and ``locked`` a table joker that is not freed (replaced by its tile from
the rack) must end the turn in a meld that still holds a real tile of its old meld,
standing for the same tile; a turn that places nothing leaves the table as it was (under
every rule). These tests check ``tests/oracle_jokers.py`` and ``tests/joker_fate.py`` on
their own, without the solver:

* the named positions of the rule change, with their exact scores and the untouched table;
* hand-made legal and illegal moves for the checker;
* on random small positions with table jokers, the oracle's witness passes the checker and
  scores what the oracle says; under ``locked`` the checker is the whole joker rule, so the
  free oracle's witness, when it passes, places no more than the locked oracle (a check of
  the oracle's completeness), and on tiny positions the oracle agrees with a brute force
  over every partition of the tiles that the checker accepts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from joker_fate import stays_with_its_set, untouched_if_nothing_placed
from joker_positions import RULES, joker_position, under
from oracle import Score, objective_key
from oracle_jokers import JokerAnswer, joker_oracle_answer

from rummikub.models import (
    JokerRule,
    Meld,
    Position,
    RuleSet,
    Tile,
    parse_melds,
    parse_tiles,
    position_from_text,
)
from rummikub.models.meld import readings


def _text(answer: JokerAnswer) -> str:
    return " | ".join(str(m) for m in answer.table)


# --- the named positions --------------------------------------------------------------------


@pytest.mark.parametrize("rule", ["strict", "locked"])
def test_a_joker_is_not_carried_off_alone(rule: str) -> None:
    # Before: k4 b4 j=r4 | r1 r2 r3, the joker leaving its run for a group of rack tiles.
    position = position_from_text("table: r1 r2 r3 j\nrack: b4 k4")
    answer = joker_oracle_answer(position, rule)
    assert answer.score == Score(0, 0, 0, 0)
    assert answer.table == list(position.table) and answer.placed == []
    buggy = parse_melds("r1 r2 r3 | k4 b4 j=r4")
    assert stays_with_its_set(under(position, rule), buggy, parse_tiles("k4 b4")) != []


def test_a_free_joker_still_goes_anywhere() -> None:
    position = position_from_text("table: r1 r2 r3 j\nrack: b4 k4")
    answer = joker_oracle_answer(position, "free")
    assert answer.score == Score(2, 8, 1, 0)
    assert sorted(answer.placed) == sorted(parse_tiles("k4 b4"))
    assert stays_with_its_set(position, answer.table, answer.placed) == []  # free: no check


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        # k10 frees the group's joker, which goes to b11 r11 j; k11 r11 j keeps its joker.
        ("strict", Score(3, 32, 0, 0)),
        # Both jokers freed (k10, b11), and they go to o12 with nothing from the rack.
        ("locked", Score(3, 33, 0, 0)),
        ("free", Score(3, 34, 3, 0)),
    ],
)
def test_a_joker_does_not_go_into_a_run_of_other_tiles(rule: str, expected: Score) -> None:
    # Before, strict placed k10 b11 o12 (33) with k11 r11 j's joker as o11 in o10 j o12,
    # a meld holding neither k11 nor r11.
    position = position_from_text("table: o10 j r10 | k11 r11 j\nrack: o12 b11 k10 r11")
    answer = joker_oracle_answer(position, rule)
    assert answer.score == expected, _text(answer)
    assert untouched_if_nothing_placed(position, answer.table, answer.placed)
    if rule == "strict":
        assert Tile.parse("o12") not in answer.placed, _text(answer)
        assert stays_with_its_set(under(position, rule), answer.table, answer.placed) == []


@pytest.mark.parametrize("rule", ["strict", "locked", "free"])
def test_the_american_position_is_a_draw(rule: str) -> None:
    position = Position.parse(
        f"rules: american joker_rule={rule}\n"
        "table: r4 j o4 b4 | k3 k4 k5 k6 k7 | r5 r6 j r8\nrack: o4"
    )
    answer = joker_oracle_answer(position, rule)
    assert answer.score == Score(0, 0, 0, 0)
    assert answer.table == list(position.table) and answer.placed == []
    assert untouched_if_nothing_placed(position, answer.table, answer.placed)
    # The move found before the fix: the joker standing for k4 traded into the black run
    # for its k4, nothing placed.
    traded = parse_melds("k4 r4 o4 b4 | k3 j=k4 k5 k6 k7 | r5 r6 j r8")
    assert not untouched_if_nothing_placed(position, traded, [])
    if rule != "free":
        assert stays_with_its_set(position, traded, []) != []


# (position, rule, expected score): what the oracle answers where the rule bites.
ORACLE_CASES = [
    # One r3 of j r3 j: its jokers cannot go to r1 j r3 and r3 j r5 (the rack's r3 is not
    # of their set); one run r1-r5 keeps both, and the rack's r3 stays home.
    ("table: j r3 j\nrack: r3 r1 r5", "strict", Score(2, 6, 0, 0)),
    ("table: j r3 j\nrack: r3 r1 r5", "locked", Score(2, 6, 0, 0)),
    ("table: j r3 j\nrack: r3 r1 r5", "free", Score(3, 9, 2, 0)),
    # The group's joker (r5) may not join the red run of other tiles.
    ("table: k5 b5 o5 j | r6 r7 r8\nrack: r4", "strict", Score(0, 0, 0, 0)),
    ("table: k5 b5 o5 j | r6 r7 r8\nrack: r4", "locked", Score(0, 0, 0, 0)),
    ("table: k5 b5 o5 j | r6 r7 r8\nrack: r4", "free", Score(1, 4, 1, 0)),
    # Extending the run its joker lies in is fine.
    ("table: r3 r4 r5 j | r7 r8 r9\nrack: r2", "strict", Score(1, 2, 0, 0)),
    # A split run: the joker goes along with r4 r5, the rack's k3 b3 take an r3.
    ("table: r1 r2 r3 r4 r5 j\nrack: r3 b3 k3", "strict", Score(3, 9, 0, 0)),
    ("table: k5 b5 j\nrack: r5", "strict", Score(1, 5, 0, 0)),
]


@pytest.mark.parametrize(("text", "rule", "expected"), ORACLE_CASES)
def test_oracle_scores(text: str, rule: str, expected: Score) -> None:
    position = position_from_text(text)
    answer = joker_oracle_answer(position, rule)
    assert answer.score == expected, _text(answer)
    assert stays_with_its_set(under(position, rule), answer.table, answer.placed) == []


def test_jokers_alone_stay_together() -> None:
    """An old meld of jokers alone (sets of 2) has no real tile: its jokers stay only all
    in one new meld (the old meld surviving whole)."""
    rules = RuleSet(colours=3, numbers=9, min_len=2, joker_rule=JokerRule.STRICT)
    position = position_from_text("table: j j\nrack: k5 k8", rules)
    assert stays_with_its_set(position, parse_melds("k5 j j k8"), parse_tiles("k5 k8")) == []
    split = stays_with_its_set(position, parse_melds("k5 j | j k8"), parse_tiles("k5 k8"))
    assert len(split) == 1 and "all together" in split[0], split
    answer = joker_oracle_answer(position, "strict")
    assert answer.score == Score(2, 13, 0, 0), _text(answer)


# --- the checker on hand-made moves ---------------------------------------------------------

# (name, position, rule, new table, placed, legal)
MOVES: list[tuple[str, str, str, str, str, bool]] = [
    ("carried-off-alone", "table: r1 r2 r3 j\nrack: b4 k4", "strict",
     "r1 r2 r3 | k4 b4 j=r4", "k4 b4", False),
    ("carried-off-alone-locked", "table: r1 r2 r3 j\nrack: b4 k4", "locked",
     "r1 r2 r3 | k4 b4 j", "k4 b4", False),
    ("into-a-set-of-other-tiles", "table: r3 r4 r5 j | r7 r8 r9\nrack: r2", "strict",
     "r2 r3 r4 r5 | j=r6 r7 r8 r9", "r2", False),
    # The other set's joker has its own tiles there; those do not count for the group's.
    ("another-sets-tile-does-not-count", "table: k5 b5 o5 j | r6 r7 r8 j\nrack: r4", "strict",
     "k5 b5 o5 | r4 j=r5 r6 r7 r8 j=r9", "r4", False),
    ("run-split-joker-along", "table: r1 r2 r3 r4 r5 j\nrack: r3", "strict",
     "r1 r2 r3 | r3 r4 r5 j=r6", "r3", True),
    # Copies are alike: the r3 beside the joker may be the run's own.
    ("run-split-copies-alike", "table: r1 r2 r3 j\nrack: r3 r5", "strict",
     "r1 r2 r3 | r3 j=r4 r5", "r3 r5", True),
    ("run-joined", "table: r3 r4 r5 j | r7 r8 r9\nrack: r2", "strict",
     "r2 r3 r4 r5 j r7 r8 r9", "r2", True),
    ("run-joined-locked", "table: r3 r4 r5 j | r7 r8 r9\nrack: r2", "locked",
     "r2 r3 r4 r5 j=r6 r7 r8 r9", "r2", True),
    # Both jokers of j r3 j (r2, r4) need its single r3; the rack's r3 is not of their set.
    ("two-jokers-one-tile", "table: j r3 j\nrack: r3 r1 r5", "strict",
     "r1 j=r2 r3 | r3 j=r4 r5", "r1 r3 r5", False),
    ("two-jokers-one-tile-other-meld", "table: j r3 j | k3 b3 r3\nrack: r1 r5 o3", "locked",
     "r1 j r3 | r3 j r5 | k3 b3 o3", "r1 r5 o3", False),
    ("two-jokers-share-one-tile", "table: j r3 j\nrack: r5", "strict", "j r3 j r5", "r5", True),
    ("group-extended", "table: k5 b5 j\nrack: r5", "strict", "k5 b5 r5 j=o5", "r5", True),
    ("group-extended-undeclared", "table: k5 b5 j\nrack: r5", "locked", "k5 b5 r5 j", "r5",
     True),
    ("freed-by-its-tile", "table: r5 j r7\nrack: r6 k10 b10", "strict",
     "r5 r6 r7 | k10 b10 j", "r6 k10 b10", True),
    # r4 is not what the joker stands for (r7, as the run is written): not freed, gone.
    ("freed-by-another-tile", "table: r5 r6 j\nrack: r4 k10 b10", "strict",
     "r4 r5 r6 | k10 b10 j", "r4 k10 b10", False),
    # It stays with its set but stands for r4, not r7.
    ("stays-changing-meaning", "table: r5 r6 j\nrack: r3", "locked", "r3 j r5 r6", "r3", False),
    ("untouched", "table: r5 r6 j | k1 b1 r1\nrack: r3", "strict", "k1 b1 r1 | r5 r6 j", "",
     True),
    ("survives-whole-elsewhere", "table: k7 b7 j\nrack: o7", "strict", "k7 o7 b7 j=r7", "o7",
     True),
    ("free-rule-no-check", "table: r1 r2 r3 j\nrack: b4 k4", "free", "r1 r2 r3 | k4 b4 j",
     "k4 b4", True),
]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "rule", "table", "placed", "legal"), [m[1:] for m in MOVES], ids=[m[0] for m in MOVES]
)
def test_checker_on_hand_made_moves(
    text: str, rule: str, table: str, placed: str, legal: bool
) -> None:
    position = under(position_from_text(text), rule)
    problems = stays_with_its_set(position, parse_melds(table), parse_tiles(placed))
    if legal:
        assert problems == []
    else:
        assert problems and all(p.startswith(f"{rule} joker rule: ") for p in problems)
        assert any("table meld" in p for p in problems), problems


def test_checker_names_the_set() -> None:
    position = under(position_from_text("table: r1 r2 r3 j\nrack: b4 k4"), "strict")
    problems = stays_with_its_set(position, parse_melds("r1 r2 r3 | k4 b4 j=r4"), [])
    assert problems == [
        "strict joker rule: table meld 1 'r1 r2 r3 j' has a joker standing for r4; a joker "
        "not replaced by its tile from the rack must end the turn in a meld that also holds "
        "a real tile of its set (r1 r2 r3), standing for the same tile; the new table does "
        "neither"
    ]


@pytest.mark.parametrize("rule", ["strict", "locked", "free"])
def test_untouched_if_nothing_placed(rule: str) -> None:
    position = under(position_from_text("table: r2 r3 j | k5 b5 j | r5 r6 r7\nrack: r8"), rule)

    def untouched(table: str, placed: str = "") -> bool:
        return untouched_if_nothing_placed(position, parse_melds(table), parse_tiles(placed))

    assert untouched("r2 r3 j | k5 b5 j | r5 r6 r7")
    assert untouched("r5 r6 r7 | b5 k5 j=o5 | r2 r3 j=r4")  # the same melds, written so
    assert not untouched("j r2 r3 | k5 b5 j | r5 r6 r7")  # the run's joker moved: now r1
    assert not untouched("r2 r3 j r5 r6 r7 | k5 b5 j")  # two runs joined
    assert not untouched("r2 r3 j | k5 b5 j")  # a meld gone
    assert untouched("r2 r3 j | k5 b5 j | r5 r6 r7 r8", "r8")  # a tile placed: any table


# --- random positions -----------------------------------------------------------------------


def _placing(score: Score, objective: str, keep_jokers: bool) -> tuple[int, ...]:
    count, value, _, jokers = score
    return objective_key(objective, keep_jokers)((count, value, jokers, 0))


def _check_witness(position: Position, rule: str, answer: JokerAnswer) -> None:
    """The oracle's table holds the old tiles and the placed ones in legal melds, places
    what its score says, and passes the checker."""
    rules = position.rules
    assert all(meld.is_legal(rules) for meld in answer.table), _text(answer)
    after = Counter(t for meld in answer.table for t in meld.tiles)
    assert after == position.table_counts() + Counter(answer.placed), _text(answer)
    assert not Counter(answer.placed) - position.rack_counts()
    count, value, _, jokers = answer.score
    assert (len(answer.placed), sum(t.value for t in answer.placed)) == (count, value)
    assert sum(t.is_joker for t in answer.placed) == jokers
    ruled = under(position, rule)
    problems = stays_with_its_set(ruled, answer.table, answer.placed)
    assert problems == [], f"{position}\n{_text(answer)}\n{problems}"
    assert untouched_if_nothing_placed(ruled, answer.table, answer.placed), _text(answer)
    if not answer.placed:
        assert answer.table == list(position.table) and answer.score == Score(0, 0, 0, 0)


MODES = (("tiles", False), ("value", False), ("tiles", True))


def _witness_case(seed: int, game: str, rule: str, mode: tuple[str, bool]) -> None:
    position = joker_position(seed, RULES[game], partners=True)
    objective, keep = mode
    answer = joker_oracle_answer(position, rule, objective, keep)
    _check_witness(position, rule, answer)
    if rule == "locked":  # the checker is the whole locked rule: a passing free move counts
        free = joker_oracle_answer(position, "free", objective, keep)
        ruled = under(position, rule)
        if not stays_with_its_set(ruled, free.table, free.placed) and (
            untouched_if_nothing_placed(ruled, free.table, free.placed)
        ):
            assert _placing(free.score, objective, keep) <= _placing(answer.score, objective, keep)


CASE = {
    "seed": st.integers(0, 10**9),
    "game": st.sampled_from(sorted(RULES)),
    "rule": st.sampled_from(("strict", "locked")),
    "mode": st.sampled_from(MODES),
}


@settings(max_examples=30, derandomize=True, deadline=None)
@given(**CASE)
def test_oracle_witness_passes_the_checker(
    seed: int, game: str, rule: str, mode: tuple[str, bool]
) -> None:
    _witness_case(seed, game, rule, mode)


@pytest.mark.slow
@settings(max_examples=300, derandomize=True, deadline=None)
@given(**CASE)
def test_oracle_witness_passes_the_checker_many(
    seed: int, game: str, rule: str, mode: tuple[str, bool]
) -> None:
    _witness_case(seed, game, rule, mode)


def _melds_with_first(
    tiles: tuple[Tile, ...], rules: RuleSet
) -> Iterator[tuple[Meld, tuple[Tile, ...]]]:
    """Every legal meld holding ``tiles[0]``, laid out as each reading lies, and the rest."""
    first, rest = tiles[0], tiles[1:]
    seen: set[tuple[Tile, ...]] = set()
    for size in range(rules.min_len - 1, len(rest) + 1):
        for chosen in combinations(range(len(rest)), size):
            meld = (first, *(rest[i] for i in chosen))
            if meld in seen:
                continue
            seen.add(meld)
            left = tuple(t for i, t in enumerate(rest) if i not in chosen)
            for laid in {r.laid_out() for r in readings(meld, rules)}:
                yield Meld(laid), left


def _partitions(tiles: tuple[Tile, ...], rules: RuleSet) -> Iterator[list[Meld]]:
    if not tiles:
        yield []
        return
    for meld, left in _melds_with_first(tiles, rules):
        for rest in _partitions(left, rules):
            yield [meld, *rest]


def _brute_locked(position: Position) -> tuple[int, int]:
    """Most tiles, then value, placed by a move the checker accepts under ``locked``: every
    sub-multiset of the rack, every partition of the table and it into legal melds."""
    best = (0, 0)
    rack = sorted(position.rack)
    subsets = {chosen for k in range(len(rack) + 1) for chosen in combinations(rack, k)}
    for placed in sorted(subsets, key=lambda s: (-len(s), -sum(t.value for t in s))):
        score = (len(placed), sum(t.value for t in placed))
        if score <= best:
            continue
        tiles = tuple(sorted(position.table_tiles() + list(placed)))
        for table in _partitions(tiles, position.rules):
            if not stays_with_its_set(position, table, placed):
                best = score
                break
    return best


@settings(max_examples=60, derandomize=True, deadline=None)
@given(seed=st.integers(0, 10**9), game=st.sampled_from(sorted(RULES)))
def test_oracle_matches_a_brute_force_under_locked(seed: int, game: str) -> None:
    position = joker_position(seed, RULES[game], partners=True)
    while len(position.table_tiles()) > 7 or len(position.rack) > 4:
        seed += 1
        position = joker_position(seed, RULES[game], partners=True)
    answer = joker_oracle_answer(position, "locked")
    expected = _brute_locked(under(position, "locked"))
    assert (answer.score.placed_count, answer.score.placed_value) == expected, (
        f"{position}\noracle: {_text(answer)}"
    )
