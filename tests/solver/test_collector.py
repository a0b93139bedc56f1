"""A library call leaves Python's garbage collector alone; the ``rummikub`` program and the
arena's workers, which own their processes, let it come rarely."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Iterator

import pytest

from rummikub.models import position_from_text
from rummikub.solver import solve, solve_top
from rummikub.solver.collector import YOUNG_THRESHOLD

POSITION = position_from_text("table: r5 j r7\nrack: r6 b1 b2 k9 k10 k11")


@pytest.fixture
def collector() -> Iterator[None]:
    enabled, threshold = gc.isenabled(), gc.get_threshold()
    yield
    gc.enable() if enabled else gc.disable()
    gc.set_threshold(*threshold)


@pytest.mark.parametrize("enabled", [True, False])
def test_a_solve_leaves_the_collector_as_it_was(collector: None, enabled: bool) -> None:
    gc.enable() if enabled else gc.disable()
    threshold = gc.get_threshold()
    move = solve(POSITION)
    assert move.placed_count == 6  # everything: the joker freed for b1 b2
    assert len(solve_top(POSITION, 3).moves) >= 2
    assert gc.isenabled() is enabled and gc.get_threshold() == threshold


def test_the_program_lets_the_collector_come_rarely() -> None:
    code = (
        "import gc, sys; from rummikub.cli import main as m; "
        "m.main = lambda: print(gc.get_threshold()[0], gc.isenabled()); m.run()"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.split() == [str(YOUNG_THRESHOLD), "True"], result.stderr
