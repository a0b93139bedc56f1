"""The strict joker rule in the wildcard form (``solver/table_jokers.py``, wildcard hosts).

When the rack can free a table joker, the strict model says where the freed joker lies
with host copies of joker-free sets and stand-ins counted per tile type, instead of sets
that spell out their jokers. These tests check that form against the explicit one (the
ranking model, ``distinct=True``, still spells out jokers and long host runs: two
independent encodings of the host rule) on random small games and on standard games,
that the move read back from it is legal with the freed joker in a meld with two rack
tiles, and which long runs are listed as hosts.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from joker_positions import RULES, joker_position, under

from rummikub.models import JokerRule, Meld, RuleSet, Tile, position_from_text
from rummikub.models.generate import random_position
from rummikub.models.position import Position
from rummikub.models.validation import move_problems
from rummikub.solver import Limit, solve, solve_top
from rummikub.solver.cpsat import solve_cpsat
from rummikub.solver.formulation import TilePool, formulate_turn
from rummikub.solver.objectives import Objective
from rummikub.solver.sets import mask
from rummikub.solver.table_jokers import long_host_runs, long_hosts

MODES = (("tiles", False), ("value", False), ("tiles", True))


def _optimum(position: Position, objective: str, keep: bool, distinct: bool) -> list[int]:
    model = formulate_turn(position, Objective(objective), keep, distinct=distinct)
    assert (model.stand_ins is None) is distinct, "the forms are not the ones under test"
    raw = solve_cpsat(model, Limit(seconds=60))
    assert raw.status == "optimal"
    return list(model.scores(raw.values).values())


def _small_positions() -> list[tuple[Position, str, bool]]:
    found = []
    for i, seed in enumerate(range(91_000, 91_200)):
        name = list(RULES)[i % 2]  # the two games with two jokers per set (the wildcard form)
        position = under(joker_position(seed, RULES[name]), "strict")
        pool = TilePool.of(position)
        if pool.freeable and pool.wildcard:
            found.append((position, *MODES[i % len(MODES)]))
    return found


def _standard_positions() -> list[tuple[Position, str, bool]]:
    """Mid- and late-game standard positions with table jokers and a rack that frees one."""
    found = []
    for seed in range(300):
        position = random_position(seed, table_tiles=40 + seed % 40, joker_rate=0.1)
        position = under(position, "strict")
        pool = TilePool.of(position)
        if pool.freeable and pool.wildcard:
            found.append((position, *MODES[seed % len(MODES)]))
    return found[:12]


SMALL = _small_positions()
STANDARD = _standard_positions()


def test_samples_are_large_enough() -> None:
    assert len(SMALL) >= 60
    assert len(STANDARD) == 12


@pytest.mark.parametrize("index", range(len(SMALL)))
def test_wildcard_hosts_match_explicit_hosts_small(index: int) -> None:
    position, objective, keep = SMALL[index]
    wildcard = _optimum(position, objective, keep, distinct=False)
    assert wildcard == _optimum(position, objective, keep, distinct=True)
    move = solve(position, objective=objective, keep_jokers=keep)
    assert list(move.scores.values()) == wildcard
    assert move_problems(position, move.melds, move.placed) == []


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(STANDARD)))
def test_wildcard_hosts_match_explicit_hosts_standard(index: int) -> None:
    position, objective, keep = STANDARD[index]
    wildcard = _optimum(position, objective, keep, distinct=False)
    assert wildcard == _optimum(position, objective, keep, distinct=True)


def test_freed_joker_lies_in_a_host() -> None:
    """r6 frees the joker; its host holds two rack tiles (k10 o10 with b10 from the rack),
    and the freed joker is read back into that meld, not into the kept run."""
    position = position_from_text(
        "rules: standard joker_rule=strict\ntable: r5 j r7 | k9 b9 o9\nrack: r6 k10 o10 b10"
    )
    move = solve(position)
    assert move.placed_count == 4
    assert move_problems(position, move.melds, move.placed) == []
    (host,) = [m for m in move.melds if m.jokers]
    assert sorted(str(t) for t in host.tiles if not t.is_joker) == ["b10", "k10", "o10"]


def _runs_with(rack: list[str], two_freed: bool) -> set[tuple[str, ...]]:
    rules = RuleSet()
    counts = Counter(rules.index(Tile.parse(t)) for t in rack)
    in_play = mask(range(rules.joker_index))  # every tile in play
    runs = long_host_runs(rules, counts, in_play, jokers=2, two_freed=two_freed)
    return {tuple(str(t) for t in run.tiles) for run, _ in runs}


def test_long_host_runs_one_freed_joker() -> None:
    runs = _runs_with(["o4", "o5"], two_freed=False)
    # the joker at one end: o1 ... o5 j-less run with the rack tiles near the other end
    assert ("o2", "o3", "o4", "o5", "o6", "o7") in runs
    assert all(len(run) > RuleSet().max_run_in_catalogue for run in runs)
    assert all(run[0][0] == "o" for run in runs)  # only the colour with two rack tiles
    # o4 o5 three places from both ends: no single joker needs the whole run
    assert ("o1", "o2", "o3", "o4", "o5", "o6", "o7", "o8") not in runs


def test_long_host_runs_two_freed_jokers() -> None:
    """J o2 o3 o4 o5 o6 o7 J with o4 o5 from the rack hosts two freed jokers, one at each
    end: no split leaves both with two rack tiles, so the run is listed."""
    runs = _runs_with(["o4", "o5"], two_freed=True)
    assert ("o1", "o2", "o3", "o4", "o5", "o6", "o7", "o8") in runs
    assert _runs_with(["o4"], two_freed=True) == set()


def test_explicit_long_hosts_two_freed_jokers() -> None:
    """The explicit form (ranking, or more jokers than a set may hold) lists a run that
    holds two freed jokers at its ends, but only when two jokers may be freed: J o2 ... o12 J
    with o6 o7 from the rack (its tiles make no other run: it spans 1..13)."""
    rules = RuleSet()
    rack = Counter(rules.index(Tile.parse(t)) for t in ["o6", "o7"])
    available = Counter(dict.fromkeys(range(rules.joker_index), 2)) + Counter(
        {rules.joker_index: 2}
    )

    def runs(two_freed: bool) -> set[tuple[tuple[int, int], ...]]:
        return {s.counts for s in long_hosts(rules, rack, available, two_freed)}

    tiles = Counter(rules.index(t) for t in Meld.parse("j o2-12 j").tiles)
    both_ends = tuple(sorted(tiles.items()))
    assert both_ends in runs(two_freed=True)
    assert both_ends not in runs(two_freed=False)
    assert runs(two_freed=False) <= runs(two_freed=True)


def test_locked_rule_keeps_the_plain_wildcard_form() -> None:
    position, objective, keep = SMALL[0]
    locked = replace(position, rules=replace(position.rules, joker_rule=JokerRule.LOCKED))
    model = formulate_turn(locked, Objective(objective), keep)
    assert model.table_jokers is not None and not model.table_jokers.hosts


# Three jokers in play (more than a set may hold): the explicit form, where the model says
# in which set each staying joker lies. A staying joker may not take the place of a host's
# rack tile (k9 here): the freed joker's set must keep its two rack tiles.
THREE_JOKERS = [
    "rules: standard jokers=3 joker_rule=strict\ntable: j k11 j | k4 k5 k6 j\nrack: k10 k9 k7",
    "rules: standard jokers=3 joker_rule=strict\n"
    "table: b1 j j | k7 b7 j | k5 b5 r5\nrack: r7 b1 k1 b6 r3 k4",
]


@pytest.mark.parametrize("text", THREE_JOKERS)
def test_three_jokers_staying_jokers_leave_the_hosts_rack_tiles(text: str) -> None:
    position = position_from_text(text)
    move = solve(position)
    assert move_problems(position, move.melds, move.placed) == []


def test_staying_jokers_in_copies_of_one_set_go_one_to_each() -> None:
    """The two staying jokers j=b5 and j=b6 land in two copies of b5 b6 b7: at most one
    joker per set (american), so one to each copy, not both in one (found by review in the
    third-best move, which printed 'j=b5 j=b6 b7')."""
    position = position_from_text(
        "rules: american colours=3 numbers=7 jokers=3 initial_threshold=0 "
        "continue_after_initial=yes joker_rule=strict\n"
        "table: r2 r3 j | k6 j r6 | k5 j r5\nrack: r1 b6 b5 k7 b7 b7 k7 b2 b2 b3\ninitial: yes"
    )
    ranked = solve_top(position, 3, objective="value")
    assert len(ranked.moves) == 3
    for move in ranked.moves:
        assert move_problems(position, move.melds, move.placed) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules",
    [RuleSet(colours=3, numbers=8, jokers=3), RuleSet(colours=2, numbers=13, jokers=3)],
    ids=["c3n8", "c2n13"],
)
def test_three_jokers_strict_moves_are_legal(rules: RuleSet) -> None:
    strict = replace(rules, joker_rule=JokerRule.STRICT)
    for seed in range(120):
        position = joker_position(seed, strict)
        move = solve(position)
        problems = move_problems(position, move.melds, move.placed)
        assert problems == [], f"{problems}\n{position.to_text()}"
