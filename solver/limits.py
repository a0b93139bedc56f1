"""Search limits and the status vocabulary shared by every backend."""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import StrEnum

DEFAULT_TIME_LIMIT = 10.0


class Status(StrEnum):
    """How good the returned move is known to be."""

    OPTIMAL = "optimal"  # proved: no better move exists
    FEASIBLE = "feasible"  # legal, but the limit stopped the proof
    UNKNOWN = "unknown"  # the limit hit before any solution was found (internal only)
    INFEASIBLE = "infeasible"  # no solution at all: every move cut off (internal only)


@dataclass(frozen=True, slots=True)
class Limit:
    """How long a call may search, and with how many threads.

    ``seconds`` is the wall-clock budget of the whole call it is given to (:func:`solve`,
    ``solve_top``, ``analyze``: however many models they solve); a call that runs out
    returns the best it found, its status saying it is not proved. ``deterministic`` bounds
    the work instead of the clock, per model solved (CP-SAT's deterministic time, roughly a
    second of work per unit on one core): with one worker, a solve stopped by it returns
    the same move on any machine under any load. The CBC and HiGHS backends only have
    ``seconds``.
    """

    seconds: float = DEFAULT_TIME_LIMIT
    workers: int = 1
    deterministic: float | None = None

    def __post_init__(self) -> None:
        from rummikub.models.errors import SolverError

        if not self.seconds > 0:
            raise SolverError(f"time limit must be positive, got {self.seconds}")
        if self.deterministic is not None and not self.deterministic > 0:
            raise SolverError(f"deterministic limit must be positive, got {self.deterministic}")
        if self.workers < 1:
            raise SolverError(f"workers must be at least 1, got {self.workers}")

    def remaining(self, deadline: float) -> Limit:
        """This limit with the seconds left until ``deadline`` (a ``time.perf_counter()``
        reading; at least a moment, so that a model still returns a solution)."""
        seconds = max(deadline - time.perf_counter(), 0.01)
        return Limit(seconds, self.workers, self.deterministic)


@dataclass(frozen=True, slots=True)
class RawSolution:
    """What a backend returns: a value for every variable of the formulation, and its status."""

    status: Status
    values: tuple[int, ...]
    seconds: float


# What each solver library calls its outcomes: CP-SAT's status names and PuLP's solution
# status words (``pulp.LpSolution``). Anything else (an invalid or unbounded model) is a
# bug in the formulation, never a user's mistake.
_STATUS_WORDS: dict[str, Status] = {
    "OPTIMAL": Status.OPTIMAL,
    "FEASIBLE": Status.FEASIBLE,
    "INFEASIBLE": Status.INFEASIBLE,
    "UNKNOWN": Status.UNKNOWN,
    "Optimal Solution Found": Status.OPTIMAL,
    "Solution Found": Status.FEASIBLE,
    "No Solution Exists": Status.INFEASIBLE,
    "No Solution Found": Status.UNKNOWN,
}


def status_from(backend: str, word: str) -> Status:
    """The status a backend's own status word means; ``RuntimeError`` (a bug) otherwise."""
    try:
        return _STATUS_WORDS[word]
    except KeyError:
        raise RuntimeError(f"{backend} reports the model as {word!r}: a bug in the model") from None
