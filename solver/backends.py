"""The backends by name, and the one translation of their status words into :class:`Status`.

A backend solves a :class:`~rummikub.solver.formulation.Formulation` under a
:class:`Limit` and returns a :class:`RawSolution` whose status says what it found:
``optimal``, ``feasible`` (the limit stopped the proof), ``unknown`` (the limit hit before
any solution) or ``infeasible`` (no solution at all: a ranking whose cuts left none).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from rummikub.models.errors import SolverError
from rummikub.solver.limits import Limit, RawSolution
from rummikub.solver.program import Formulation

Backend = Callable[[Formulation, Limit], RawSolution]


def _cpsat() -> Backend:
    from rummikub.solver.cpsat import solve_cpsat

    return solve_cpsat


def _pulp(engine: str) -> Backend:
    from rummikub.solver.mip import import_pulp, solve_mip

    import_pulp()
    return functools.partial(solve_mip, engine=engine)


# Name -> loader (imports the solver library on first use). The CLI's choices come from here.
_LOADERS: dict[str, Callable[[], Backend]] = {
    "cpsat": _cpsat,
    "cbc": functools.partial(_pulp, "cbc"),
    "highs": functools.partial(_pulp, "highs"),
}
BACKENDS: tuple[str, ...] = tuple(_LOADERS)


def load_backend(name: str) -> Backend:
    """The solve function of a backend by name; imports its solver library now."""
    try:
        loader = _LOADERS[name]
    except KeyError:
        raise SolverError(f"unknown backend {name!r}: use one of {', '.join(BACKENDS)}") from None
    return loader()
