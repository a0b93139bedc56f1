"""The CP-SAT backend's two speed tricks lean on OR-Tools internals: guarded and tested.

* The lean model class overrides the private ``CpModel._add_pre_pep8_methods``: on the
  OR-Tools versions the tricks are checked on, the hook must exist and be called by
  ``CpModel()`` (else the override silently does nothing: this test says so).
* Importing the backend does not import pandas; ``cp_model.pd`` still reaches the real one.
* The fallbacks (plain ``CpModel``, tricks off for an unchecked version) solve the same.
"""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version
from typing import Any

import pytest

from rummikub.models import position_from_text
from rummikub.solver import cpsat, solve

CHECKED = cpsat.tricks_apply(version("ortools"))  # ortools.__version__, which is untyped


@pytest.mark.skipif(not CHECKED, reason="tricks off on this OR-Tools version")
def test_private_hook_exists_and_is_called() -> None:
    calls: list[int] = []

    class Probe(cpsat.cp_model.CpModel):  # type: ignore[misc]
        def _add_pre_pep8_methods(self) -> None:
            calls.append(1)

    Probe()
    assert calls == [1], "CpModel() no longer calls _add_pre_pep8_methods: review cpsat.py"
    assert cpsat._Model is not cpsat.cp_model.CpModel
    assert not hasattr(cpsat._Model(), "NewIntVar")  # the aliases are skipped


def test_unchecked_versions_switch_the_tricks_off() -> None:
    low, high = cpsat.TRICKS_CHECKED
    assert cpsat.tricks_apply(".".join(map(str, low)) + ".1")
    assert cpsat.tricks_apply(".".join(map(str, high)) + ".9999")
    assert not cpsat.tricks_apply("10.0.0")
    assert not cpsat.tricks_apply("9.9.3996")
    base = cpsat.cp_model.CpModel
    assert cpsat._lean_model_class(base, tricks=False) is base

    class NoHook:
        pass

    assert cpsat._lean_model_class(NoHook, tricks=True) is NoHook


def test_plain_cp_model_fallback_solves_the_same(monkeypatch: Any) -> None:
    position = position_from_text("table: r5 j r7 | k9 b9 o9\nrack: r6 b1 b2 o10 o11 b4")
    lean = solve(position)
    monkeypatch.setattr(cpsat, "_Model", cpsat.cp_model.CpModel)
    plain = solve(position)
    assert plain.scores == lean.scores
    assert sorted(map(str, plain.melds)) == sorted(map(str, lean.melds))


@pytest.mark.skipif(not CHECKED, reason="tricks off on this OR-Tools version")
def test_backend_import_leaves_pandas_alone() -> None:
    code = (
        "import sys\n"
        "from rummikub.solver import cpsat\n"
        "assert 'pandas' not in sys.modules, 'pandas imported'\n"
        "try:\n"
        "    import pandas\n"
        "except ImportError:\n"
        "    raise SystemExit(0)\n"
        "assert cpsat.cp_model.pd.Series is pandas.Series\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
