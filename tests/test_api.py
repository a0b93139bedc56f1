"""The public API: ``import rummikub`` and what it promises (names, signatures, laziness)."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import pickle
import pkgutil
import subprocess
import sys
import time
from importlib.metadata import requires
from pathlib import Path

import pytest
from click.testing import CliRunner

import rummikub
from rummikub.models.validation import move_problems
from rummikub.steps.replay import replay

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
MIDGAME = (EXAMPLES / "midgame.txt").read_text()
# The folders mapped to rummikub.*
SUBPACKAGES = ("models", "solver", "steps", "game", "arena", "analysis", "picture", "cli")


def test_every_public_name_is_the_one_its_subpackage_defines() -> None:
    homes = {sub: importlib.import_module(f"rummikub.{sub}") for sub in SUBPACKAGES}
    for name in rummikub.__all__:
        value = getattr(rummikub, name)
        assert any(getattr(home, name, None) is value for home in homes.values()), name
    assert set(rummikub.__all__) <= set(dir(rummikub))
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        _ = rummikub.nothing_here  # type: ignore[attr-defined]


def test_the_typed_imports_list_exactly_the_lazy_names() -> None:
    """What mypy and editors see (the TYPE_CHECKING imports) is what runs (the lazy table)."""
    tree = ast.parse(Path(rummikub.__file__ or "").read_text())
    typed = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.If)
        for inner in node.body
        if isinstance(inner, ast.ImportFrom)
        for alias in inner.names
    }
    assert typed == set(rummikub.__all__)


def _run_python(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return result.stdout


def test_import_rummikub_loads_nothing_heavy_and_cpsat_never_loads_pulp() -> None:
    loaded = json.loads(
        _run_python(
            "import json, sys, rummikub\n"
            "before = sorted(m for m in sys.modules if m.startswith(('rummikub.', 'ortools')))\n"
            f"move = rummikub.solve(rummikub.Position.parse({MIDGAME!r}))\n"
            "print(json.dumps([before, 'pulp' in sys.modules, move.placed_count]))"
        )
    )
    before, pulp_loaded, placed = loaded
    assert before == [] and not pulp_loaded and placed > 0


def test_parse_reads_the_text_format_and_json_text_and_validates() -> None:
    from_text = rummikub.Position.parse("table: k1-4 | rbk7\nrack: o8 k13 j")
    from_json_text = rummikub.Position.parse(json.dumps(from_text.to_json()))
    assert from_text == from_json_text == rummikub.Position.from_json(from_text.to_json())
    assert str(from_text.table[0]) == "k1 k2 k3 k4"
    with pytest.raises(rummikub.NotationError, match="unknown key"):
        rummikub.Position.from_json({"tabel": []})
    with pytest.raises(rummikub.IllegalPositionError, match="3 copies of r5"):
        rummikub.Position.parse("rack: r5 r5 r5")
    with pytest.raises(rummikub.IllegalMeldError):
        rummikub.Position.parse("table: r1 b2 k3\nrack: r4")
    american = rummikub.preset("american")
    assert rummikub.Position.parse("rack: r5", american).rules == american
    said = rummikub.Position.parse("rules: american\nrack: r5")
    assert said.rules == american  # the text's own rules line, unless rules are given
    assert rummikub.Position.parse(said.to_text()).rules == american
    assert rummikub.Position.from_json(said.to_json()).rules == american
    assert rummikub.Position.parse(said.to_text(), rummikub.RuleSet()).rules == rummikub.RuleSet()


def test_the_readme_example_solves_validates_and_explains() -> None:
    position = rummikub.Position.parse("table: k1-4 | o9-13 | rbk7\nrack: o8 k13 j b2")
    move = rummikub.solve(position, objective="tiles", limit=rummikub.Limit(seconds=10))
    assert move.status is rummikub.Status.OPTIMAL and move.placed_count == 3
    assert move_problems(position, move.melds, move.placed) == []
    table, rack = replay(position.table, position.rack, rummikub.explain(move))
    assert sorted(map(str, table)) == sorted(map(str, move.melds))
    assert sorted(map(str, rack)) == sorted(map(str, move.rack_left))
    analysis = rummikub.analyze(position, limit=rummikub.Limit(seconds=10))
    assert analysis.best["tiles"].placed_count == move.placed_count


def test_solve_takes_one_limit_and_formulate_turn_states_its_arguments() -> None:
    from rummikub.solver.formulation import formulate, formulate_turn

    assert "time_limit" not in inspect.signature(rummikub.solve).parameters
    assert inspect.signature(formulate_turn) == inspect.signature(formulate)


def test_one_default_per_time_limit_and_the_cli_shows_it() -> None:
    from rummikub.arena.players import TURN_WORK_LIMIT
    from rummikub.cli.arena import arena
    from rummikub.cli.main import main
    from rummikub.solver import DEFAULT_TIME_LIMIT

    assert rummikub.Limit().seconds == DEFAULT_TIME_LIMIT
    solve_command = main.commands["solve"]
    defaults = {p.name: p.default for p in solve_command.params}
    assert defaults["time_limit"] == DEFAULT_TIME_LIMIT
    assert {p.name: p.default for p in arena.params}["time_limit"] == TURN_WORK_LIMIT


def test_pulp_is_a_core_dependency_so_cbc_works_after_a_plain_install() -> None:
    core = [r for r in requires("rummikub") or [] if "extra ==" not in r]
    assert any(r.startswith("pulp") for r in core), core
    from rummikub.cli.main import main

    result = CliRunner().invoke(
        main, ["solve", "--rack", "r1 r2 r3 k5", "--backend", "cbc", "--time-limit", "120"]
    )
    assert result.exit_code == 0, result.output
    assert "r1 r2 r3" in result.output


def _submodules(package: str) -> set[str]:
    path = importlib.import_module(package).__path__
    return {info.name for info in pkgutil.iter_modules(path)}


@pytest.mark.parametrize("package", ["rummikub", *(f"rummikub.{sub}" for sub in SUBPACKAGES)])
def test_no_public_name_is_also_a_module(package: str) -> None:
    """``rummikub.solver.explain`` once named both a function and its module, so that
    ``import rummikub.solver.explain`` left the function under the module's name."""
    exported = set(getattr(importlib.import_module(package), "__all__", ()))
    assert exported & _submodules(package) == set()


def test_explain_is_the_function_and_its_module_is_the_step_planner() -> None:
    import rummikub.steps.planner as module

    assert inspect.ismodule(module)
    assert rummikub.explain is rummikub.steps.explain is module.explain
    assert inspect.isfunction(rummikub.steps.explain)


def _public_definitions(name: str) -> set[str]:
    """The modules of the package that define a class or function called ``name``."""
    modules = [
        f"rummikub.{sub}.{module}"
        for sub in SUBPACKAGES
        for module in _submodules(f"rummikub.{sub}")
        if module != "__main__"  # runs the CLI on import
    ]
    homes: set[str] = set()
    for module in modules:
        value = getattr(importlib.import_module(module), name, None)
        if (inspect.isclass(value) or inspect.isfunction(value)) and value.__module__ == module:
            homes.add(module)
    return homes


def test_each_public_name_of_the_api_is_defined_once_in_the_package() -> None:
    """One name for one thing: no public class or function of the API shares its name with
    another class or function elsewhere in the package (``Play`` was a step and an arena
    answer)."""
    solver = importlib.import_module("rummikub.solver")
    for name in sorted({*rummikub.__all__, *solver.__all__}):
        value = getattr(solver, name, None) or getattr(rummikub, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert _public_definitions(name) == {value.__module__}, name
    assert _public_definitions("Play") == {"rummikub.steps.replay"}
    assert _public_definitions("Reply") == {"rummikub.game.protocol"}


# --- the API traps of issue 32 ---------------------------------------------------------


def test_positions_under_different_rules_are_different() -> None:
    text = "table: r1 r2 r3\nrack: k5"
    standard = rummikub.Position.parse(text)
    american = rummikub.Position.parse(text, rummikub.preset("american"))
    assert standard != american
    assert len({standard, american}) == 2
    assert standard == rummikub.Position.parse(text)


def test_explain_returns_the_steps_and_their_note() -> None:
    position = rummikub.Position.parse("table: r5 j r7\nrack: r6 b1 b2")
    told = rummikub.explain(rummikub.solve(position))
    assert isinstance(told, rummikub.steps.Walkthrough)
    assert [s.action for s in told] == ["swap", "play"] and len(told) == 2
    assert told.note is None  # the steps keep the joker rule


def test_a_move_is_immutable_and_scores_are_keyed_by_level() -> None:
    move = rummikub.solve(rummikub.Position.parse("table: r5 j r7\nrack: r6 b1 b2"))
    assert isinstance(move.melds, tuple) and isinstance(move.rack_left, tuple)
    assert isinstance(move.table, tuple) and isinstance(move.placed, tuple)
    assert all(isinstance(level, rummikub.solver.Level) for level in move.scores)
    with pytest.raises(TypeError):
        move.scores[rummikub.solver.Level.KEPT] = 0  # type: ignore[index]


def test_a_move_pickles_for_worker_processes() -> None:
    """Process executors send moves between processes (review --executor process)."""
    move = rummikub.solve(rummikub.Position.parse("table: r5 j r7\nrack: r6 b1 b2"))
    again: rummikub.Move = pickle.loads(pickle.dumps(move))
    assert again == move and again.scores == move.scores
    with pytest.raises(TypeError):
        again.scores[rummikub.solver.Level.KEPT] = 0  # type: ignore[index]


def test_options_are_keyword_only() -> None:
    position = rummikub.Position.parse("rack: r1 r2 r3")
    with pytest.raises(TypeError):
        rummikub.solve(position, "tiles")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        rummikub.analyze(position, rummikub.Limit(seconds=5))  # type: ignore[call-arg]
    assert rummikub.solve(position, objective="value").placed_count == 3


def test_a_time_limit_is_the_whole_calls() -> None:
    """solve_top and analyze solve many models; the limit bounds them all together."""
    position = rummikub.Position.parse(
        "table: k1-4 | o9-13 | rbk7 | b3-6 | r10-12\nrack: o8 k13 j b2 r5 r6 k9 b9 o2 o3"
    )
    started = time.perf_counter()
    rummikub.analyze(position, limit=rummikub.Limit(seconds=0.5))
    rummikub.solve_top(position, 20, limit=rummikub.Limit(seconds=0.5))
    assert time.perf_counter() - started < 4  # each within its half second, and a margin


def test_step_is_exported() -> None:
    assert rummikub.Step is rummikub.steps.Step
