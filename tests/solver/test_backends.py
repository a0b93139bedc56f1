"""CP-SAT and CBC (two independent solvers on one formulation) agree on every objective level."""

from __future__ import annotations

import pytest
from solver_score import level_moved

from rummikub.models.errors import SolverError
from rummikub.models.generate import random_position
from rummikub.models.position import Position
from rummikub.models.validation import move_problems
from rummikub.solver import Limit, Move, solve

# Generous: CBC and HiGHS count wall-clock time, and CI machines stall at times.
LIMIT = Limit(seconds=120)


def positions() -> list[tuple[str, Position]]:
    """300+ seeded legal positions: empty tables to ~90 tiles in play, jokers, opening melds."""
    cases = []
    for seed in range(320):
        kind = seed % 8
        if kind == 0:
            position = random_position(seed, table_tiles=0, rack_tiles=14, rack_jokers=seed % 3)
        elif kind == 1:
            position = random_position(seed, rack_tiles=14, initial=True, rack_jokers=seed % 2)
        else:
            table = (10, 25, 40, 55, 65, 76)[kind - 2]
            rack = 14 if kind % 2 else 8
            position = random_position(
                seed, table_tiles=table, rack_tiles=rack, joker_rate=0.08, rack_jokers=seed % 2
            )
        cases.append((f"seed{seed}-{len(position.table_tiles()) + len(position.rack)}", position))
    return cases


def scores(move: Move) -> tuple[int, int, int]:
    return move.placed_count, move.placed_value, level_moved(move)


POSITIONS = positions()


def test_positions_span_the_sizes_and_features() -> None:
    sizes = [len(p.table_tiles()) + len(p.rack) for _, p in POSITIONS]
    assert min(sizes) <= 14 and max(sizes) >= 85
    assert any("j" in {str(t) for t in p.table_tiles()} for _, p in POSITIONS)
    assert any("j" in {str(t) for t in p.rack} for _, p in POSITIONS)
    assert sum(p.initial for _, p in POSITIONS) >= 30


@pytest.mark.slow
@pytest.mark.parametrize(("name", "position"), POSITIONS, ids=[n for n, _ in POSITIONS])
def test_cpsat_and_cbc_agree(name: str, position: Position) -> None:
    objective = "value" if name.endswith(("3", "7")) else "tiles"
    keep = name.endswith("5")
    ours = solve(position, objective=objective, keep_jokers=keep, limit=LIMIT)
    cbc = solve(position, objective=objective, keep_jokers=keep, limit=LIMIT, backend="cbc")
    assert ours.status == "optimal" and cbc.status == "optimal", position.to_text()
    for move in (ours, cbc):
        assert move_problems(position, move.melds, move.placed) == [], position.to_text()
    assert scores(ours) == scores(cbc), position.to_text()


def test_highs_agrees_on_a_sample() -> None:
    pytest.importorskip("highspy")
    for _, position in POSITIONS[::16]:
        ours = solve(position, limit=LIMIT)
        highs = solve(position, limit=LIMIT, backend="highs")
        assert highs.status == "optimal"
        assert move_problems(position, highs.melds, highs.placed) == []
        assert scores(ours) == scores(highs), position.to_text()


def test_unknown_backend_is_a_clear_error() -> None:
    with pytest.raises(SolverError, match="unknown backend 'gurobi'"):
        solve(POSITIONS[0][1], backend="gurobi")


def test_missing_backend_package_names_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_pulp(name: str, *args: object, **kwargs: object) -> object:
        if name == "pulp" or name.startswith("pulp."):
            raise ImportError("No module named 'pulp'")
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_pulp)
    with pytest.raises(SolverError, match="pip install pulp"):
        solve(POSITIONS[0][1], backend="cbc")
    from click.testing import CliRunner

    from rummikub.cli.main import main

    result = CliRunner().invoke(main, ["solve", "--rack", "r1 r2 r3", "--backend", "highs"])
    assert result.exit_code == 2
    assert "pip install" in result.stderr and "Traceback" not in result.output
