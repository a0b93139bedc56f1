"""A solve pauses Python's cyclic garbage collector and leaves it as it found it."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

import rummikub.solver.engine as engine
from rummikub.models import position_from_text
from rummikub.solver import solve, solve_top
from rummikub.solver.formulation import Formulation
from rummikub.solver.limits import Limit, RawSolution

POSITION = position_from_text("table: r5 j r7\nrack: r6 b1 b2 k9 k10 k11")


@pytest.fixture
def collector_seen(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bool]]:
    """Whether the collector was enabled at each backend call of the solves that follow."""
    seen: list[bool] = []
    real = engine.load_backend

    def recording(name: str) -> object:
        backend = real(name)

        def run(model: Formulation, limit: Limit) -> RawSolution:
            seen.append(gc.isenabled())
            return backend(model, limit)

        return run

    monkeypatch.setattr(engine, "load_backend", recording)
    enabled = gc.isenabled()
    yield seen
    gc.enable() if enabled else gc.disable()


def test_solve_pauses_the_collector_and_resumes_it(collector_seen: list[bool]) -> None:
    gc.enable()
    move = solve(POSITION)
    assert move.placed_count == 6  # everything: the joker freed for b1 b2
    assert collector_seen == [False]
    assert gc.isenabled()
    ranked = solve_top(POSITION, 3)
    assert len(ranked.moves) >= 2
    assert collector_seen[1:] and not any(collector_seen[1:])
    assert gc.isenabled()


def test_a_caller_without_the_collector_keeps_it_off(collector_seen: list[bool]) -> None:
    gc.disable()
    solve(POSITION)
    assert collector_seen == [False]
    assert not gc.isenabled()


def test_the_collector_resumes_after_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> object:
        raise RuntimeError("a bug")

    monkeypatch.setattr(engine, "_best_move", broken)
    gc.enable()
    with pytest.raises(RuntimeError, match="a bug"):
        solve(POSITION)
    assert gc.isenabled()
