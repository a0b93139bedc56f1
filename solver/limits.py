"""Search limits and the status vocabulary shared by every backend."""

from __future__ import annotations

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
    """How long the solver may search, and with how many threads.

    ``deterministic`` bounds the work instead of the clock (CP-SAT's deterministic time,
    roughly a second of work per unit on one core): with one worker, a solve stopped by it
    returns the same move on any machine under any load. The CBC and HiGHS backends only
    have ``seconds``.
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


@dataclass(frozen=True, slots=True)
class RawSolution:
    """What a backend returns: a value for every variable of the formulation, and its status."""

    status: Status
    values: tuple[int, ...]
    seconds: float
