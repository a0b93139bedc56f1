"""Solves on the decisive levels only (``solve(..., decisive_only=True)``, what players use).

Such a move must place as many tiles, of the same value (and with ``keep_jokers`` as few
rack jokers), as the full solve and as the brute-force oracles, and be legal: every answer
goes through the independent validator here (the solver does not check these itself; the
arena's turn check does in games). Seeded random campaigns: small generalised games against
``tests/oracle.py`` (ordinary turns and openings, jokers on table and rack, every objective),
table jokers under the strict and locked rules against ``tests/oracle_jokers.py``, and
positions of the standard game up to ~90 tiles against the full solve. A short campaign runs
in the default suite, a long one with ``-m slow``.
"""

from __future__ import annotations

import dataclasses
import random
from typing import NamedTuple

import pytest
from joker_positions import RULES as JOKER_RULES
from joker_positions import joker_position, under
from oracle import Score, oracle_answer
from oracle_jokers import joker_oracle_answer

from rummikub.models import JOKER, STANDARD, Position, RuleSet, position_from_text
from rummikub.models.generate import random_position
from rummikub.models.validation import move_problems
from rummikub.solver import Level, Move, Status, solve
from rummikub.solver.catalogue import catalogue
from rummikub.solver.objectives import levels
from rummikub.solver.sets import joker_free

SMALL: dict[str, RuleSet] = {
    "c3n7": RuleSet(colours=3, numbers=7, copies=2, jokers=2),
    "c4n6": RuleSet(colours=4, numbers=6, copies=2, jokers=2),
    "c3n7-1j": RuleSet(colours=3, numbers=7, copies=2, jokers=2, max_jokers_per_set=1),
    "c4n5-len2": RuleSet(colours=4, numbers=5, copies=1, jokers=2, min_len=2),
    "c4n7-wrap": RuleSet(colours=4, numbers=7, copies=2, jokers=2, wrap=True),
}
MODES = (("tiles", False), ("value", False), ("tiles", True), ("value", True))


class Decisive(NamedTuple):
    """What the decisive levels fix: tiles placed, their value, rack jokers placed."""

    placed: int
    value: int
    jokers: int | None  # compared only with keep_jokers (a level then)

    @classmethod
    def of_move(cls, move: Move, keep_jokers: bool) -> Decisive:
        jokers = sum(t.is_joker for t in move.placed) if keep_jokers else None
        return cls(move.placed_count, move.placed_value, jokers)

    @classmethod
    def of_score(cls, score: Score, keep_jokers: bool) -> Decisive:
        return cls(
            score.placed_count, score.placed_value, score.jokers_placed if keep_jokers else None
        )


def _small_position(seed: int) -> Position:
    """A random legal position of a small game: table and rack jokers, a third openings."""
    rng = random.Random(seed)
    rules = SMALL[list(SMALL)[seed % len(SMALL)]]
    initial = seed % 3 == 0
    goes_on = initial and seed % 2 == 1  # the opening turn continues onto the table
    if initial:
        threshold = rng.choice((0, 10, 15, 20, 30))
        rules = dataclasses.replace(
            rules, initial_threshold=threshold, continue_after_initial=goes_on
        )
    small = rules.min_len < 3 or goes_on  # the oracle is slower there: smaller positions
    if initial:
        rack_tiles = rng.randint(3, 6 if goes_on else 12)
    else:
        rack_tiles = rng.randint(0, 6 if small else 8)
    base = random_position(
        seed,
        table_tiles=rng.randint(0, 8 if small else 12),
        rack_tiles=rack_tiles,
        rules=rules,
        joker_rate=rng.choice((0.1, 0.3, 0.5)),
    )
    rack = list(base.rack)
    jokers = sum(t.is_joker for t in (*base.table_tiles(), *rack))
    for _ in range(rng.choice((0, 1, 2))):
        spot = rng.randrange(len(rack)) if rack else None
        if spot is not None and jokers < rules.jokers and not rack[spot].is_joker:
            rack[spot] = JOKER
            jokers += 1
    position = Position(base.table, tuple(rack), initial, rules)
    position.validate()
    return position


def _check(position: Position, objective: str, keep_jokers: bool, expected: Decisive) -> Move:
    """The decisive move's placed tiles against ``expected`` (the oracle's) and the full
    solve's; its legality; its scores and status."""
    fast = solve(position, objective=objective, keep_jokers=keep_jokers, decisive_only=True)
    full = solve(position, objective=objective, keep_jokers=keep_jokers)
    where = f"\n{position.to_text()}objective {objective}, keep_jokers {keep_jokers}"
    assert move_problems(position, fast.melds, fast.placed) == [], f"illegal{where}"
    assert fast.status is Status.OPTIMAL and fast.decisive_only, where
    assert Decisive.of_move(fast, keep_jokers) == expected, f"fast vs oracle{where}"
    assert Decisive.of_move(full, keep_jokers) == expected, f"full vs oracle{where}"
    decisive = levels(fast.objective, keep_jokers, decisive=True)
    assert tuple(fast.scores) == decisive, where
    assert {lv: full.scores[lv] for lv in decisive} == dict(fast.scores), where
    if fast.is_draw:
        assert fast.melds == position.table, f"a draw leaves the table as it was{where}"
    return fast


def _small_campaign(positions: int, start: int) -> None:
    for i in range(positions):
        seed = start + i
        position = _small_position(seed)
        objective, keep = MODES[(seed // 7) % len(MODES)]
        answer = oracle_answer(position, objective, keep)
        _check(position, objective, keep, Decisive.of_score(answer.score, keep))


def test_small_games_against_the_oracle() -> None:
    _small_campaign(150, 50_000)


@pytest.mark.slow
def test_small_games_against_the_oracle_long() -> None:
    _small_campaign(800, 60_000)


def _joker_campaign(positions: int, start: int) -> None:
    names = list(JOKER_RULES)
    for i in range(positions):
        seed = start + i
        base = joker_position(seed, JOKER_RULES[names[seed % len(names)]])
        objective, keep = MODES[(seed // 3) % len(MODES)]
        for rule in ("strict", "locked"):
            position = under(base, rule)
            answer = joker_oracle_answer(position, rule, objective, keep)
            _check(position, objective, keep, Decisive.of_score(answer.score, keep))


def test_table_jokers_under_strict_and_locked() -> None:
    _joker_campaign(40, 70_000)


@pytest.mark.slow
def test_table_jokers_under_strict_and_locked_long() -> None:
    _joker_campaign(200, 80_000)


def _standard_campaign(positions: int, start: int) -> None:
    for i in range(positions):
        seed = start + i
        rng = random.Random(seed)
        position = random_position(
            seed,
            table_tiles=rng.randint(0, 90),
            rack_tiles=rng.randint(1, 20),
            joker_rate=rng.choice((0.0, 0.05, 0.15)),
            rack_jokers=rng.choice((0, 0, 1, 2)),
            initial=seed % 5 == 0,
        )
        objective, keep = MODES[seed % len(MODES)]
        full = solve(position, objective=objective, keep_jokers=keep)
        _check(position, objective, keep, Decisive.of_move(full, keep))


def test_standard_game_against_the_full_solve() -> None:
    _standard_campaign(60, 90_000)


@pytest.mark.slow
def test_standard_game_against_the_full_solve_long() -> None:
    _standard_campaign(400, 100_000)


def test_a_draw_keeps_the_table_and_says_what_it_skipped() -> None:
    position = position_from_text("table: r3 r4 r5 | k9 b9 o9\nrack: k1 b13")
    move = solve(position, decisive_only=True)
    assert move.is_draw and move.melds == position.table
    assert move.moved == () and not move.moved_proved
    assert dict(move.scores) == {Level.PLACED_COUNT: 0, Level.PLACED_VALUE: 0}


def test_a_play_says_it_is_decisive_only() -> None:
    position = position_from_text("table: r3 r4 r5 | k9 b9 o9\nrack: r6 r2 r9")
    move = solve(position, decisive_only=True)
    assert (move.placed_count, move.placed_value) == (3, 17)
    assert move.decisive_only and move.moved == () and not move.moved_proved
    assert move_problems(position, move.melds, move.placed) == []


def test_joker_free_catalogue_is_the_catalogues_joker_free_sets() -> None:
    """``sets_in_play`` reads the joker-free catalogue when no joker is in play: the same
    sets in the same order as the catalogue's sets without jokers."""
    for rules in (STANDARD, *SMALL.values(), RuleSet(colours=5, numbers=9, jokers=3)):
        plain = [s for s in catalogue(rules) if not any(t.is_joker for t in s.tiles)]
        assert plain == list(catalogue(joker_free(rules)))
