"""The brute-force oracle's "picked" measure (tiles picked up, issue 12) checks itself.

The solver's third level still counts whole kept melds; this measure is what it should
minimise instead. Here only the oracle is checked: its best table really picks up what
it says (by :func:`rummikub.models.moves.picked_up`, an assignment, not a search), it is
best on the placing levels exactly as the "kept" measure's answer, and it never picks up
more tiles than the "kept" answer moves (a meld kept whole is one way to pair it).
"""

from __future__ import annotations

import pytest
from oracle import oracle_answer
from test_oracle import CASES, Case

from rummikub.models import position_from_text
from rummikub.models.moves import picked_up

SAMPLE = [c for c in CASES if not c.initial][::25]  # every rule set, jokers included


def test_sample_holds_jokers() -> None:
    positions = [c.position() for c in SAMPLE]
    assert len(positions) >= 60
    assert sum(any(t.is_joker for t in p.table_tiles()) for p in positions) >= 10


@pytest.mark.parametrize("case", SAMPLE, ids=[c.id for c in SAMPLE])
def test_picked_measure_of_the_oracle(case: Case) -> None:
    position = case.position()
    objective, keep = case.objective, case.keep_jokers
    picked = oracle_answer(position, objective, keep, measure="picked")
    kept = oracle_answer(position, objective, keep, measure="kept")
    assert len(picked_up(position.table, picked.table)) == picked.score.moved
    assert picked.score._replace(moved=0) == kept.score._replace(moved=0)
    assert picked.score.moved <= kept.score.moved


@pytest.mark.parametrize(
    ("text", "moved"),
    [
        # The Vietnamese rules text's example: r2 r3 r4 and r5 b5 k5, only r5 is picked up.
        ("table: r3 r4 r5\nrack: r2 b5 k5", 1),
        # A joker swap picks up the joker.
        ("table: r5 j r7\nrack: r6 b1 b2", 1),
    ],
)
def test_picked_measure_by_hand(text: str, moved: int) -> None:
    position = position_from_text(text)
    assert oracle_answer(position, measure="picked").score.moved == moved
