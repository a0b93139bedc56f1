"""The cheap proofs of :mod:`rummikub.solver.bounds` against the full solve: whenever one
says a move cannot happen (an opening, going out), the solver's best move does not make it;
and each says so often enough to be worth asking."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rummikub.models import STANDARD, RuleSet, position_from_text
from rummikub.models.generate import random_position
from rummikub.models.jokers import JokerRule
from rummikub.solver import solve
from rummikub.solver.bounds import cannot_go_out, cannot_open

SMALL = (
    RuleSet(colours=3, numbers=7, copies=2, jokers=2),
    RuleSet(colours=4, numbers=6, copies=2, jokers=2, max_jokers_per_set=1),
    RuleSet(colours=4, numbers=5, copies=1, jokers=2, min_len=2),
    RuleSet(colours=4, numbers=7, copies=2, jokers=2, wrap=True),
)


def test_cannot_open_never_hides_an_opening() -> None:
    """Whenever the bound says no opening exists, the full solve draws (and it does say so
    for most racks that cannot open)."""
    proved = draws = 0
    for seed in range(400):
        rng = random.Random(seed)
        rules = rng.choice([STANDARD, *SMALL])
        threshold = rng.choice((0, 10, 20, 30, 40))
        rules = dataclasses.replace(rules, initial_threshold=threshold)
        position = random_position(
            seed, table_tiles=0, rack_tiles=rng.randint(1, 16), rules=rules, initial=True
        )
        full = solve(position)
        draws += full.is_draw
        if cannot_open(position):
            proved += 1
            assert full.is_draw, position.to_text()
    assert proved > draws / 2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("rack: r9 r10 j\ninitial: yes", False),  # j as r11: 30 exactly
        ("rack: r8 r9 j\ninitial: yes", True),  # at most 8 + 9 + 10 = 27
        ("rack: k13 b13 j\ninitial: yes", False),
        ("rack: k1 k2 k3 b7 o7\ninitial: yes", True),  # only k1-3 (6) is a set
        ("rack: k1 k2 k3\n", False),  # not an opening turn
    ],
)
def test_cannot_open_by_hand(text: str, expected: bool) -> None:
    assert cannot_open(position_from_text(text)) is expected


def test_cannot_go_out_never_hides_a_way_out() -> None:
    """Whenever the bound says the rack cannot all go down, the full solve leaves a tile on
    the rack, under every joker rule; and it says so for a good share of big racks."""
    proved = 0
    for seed in range(300):
        rng = random.Random(seed)
        rules = dataclasses.replace(
            rng.choice([STANDARD, *SMALL]), joker_rule=rng.choice(list(JokerRule))
        )
        position = random_position(
            seed,
            table_tiles=rng.randint(0, 40),
            rack_tiles=rng.randint(1, 25),
            rules=rules,
            joker_rate=0.1,
            rack_jokers=rng.choice((0, 1)),
            initial=seed % 4 == 0,
        )
        if cannot_go_out(position):
            proved += 1
            move = solve(position)
            assert move.placed_count < len(position.rack), position.to_text()
    assert proved >= 40


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("table: r3 r4 r5\nrack: r6 r7", False),
        ("table: r3 r4 r5\nrack: r6 b9", True),  # b9 fits nothing
        ("table: r3 r4 r5\nrack: b9 j", True),  # b9 j needs a third tile or joker
        ("table: r3 r4 r5\nrack: b9 b10 j", False),
        ("table: k9 r9 o9\nrack: b9 b1", True),
        ("rack: k1 k2 k3 b9\ninitial: yes", True),  # the table may not be used
    ],
)
def test_cannot_go_out_by_hand(text: str, expected: bool) -> None:
    assert cannot_go_out(position_from_text(text)) is expected
