"""Tournament statistics: Wilson intervals, Elo from a score, and the SPRT.

* Win rates get the Wilson score interval (95% by default), which stays inside [0, 1]
  and behaves at 0 and 100%.
* A pairwise score ``s`` (1 for a win, 1/2 for a tie, 0 for a loss, over the games two
  entrants played together) converts to an Elo difference ``-400 log10(1/s - 1)``; its
  error bars are the Wilson interval of ``s`` converted the same way (infinite at 0 or 1).
* The SPRT (sequential probability ratio test, as in chess engine testing) weighs
  H0: elo = elo0 against H1: elo = elo1 with the binomial log-likelihood ratio (a tie is
  half a win and half a loss) and stops at Wald's bounds ln(beta/(1-alpha)) and
  ln((1-beta)/alpha).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (``(0, 1)`` when there are no trials)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)


def elo_from_score(score: float) -> float:
    """Elo difference for an expected score in [0, 1] (``±inf`` at the ends)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def score_from_elo(elo: float) -> float:
    """Expected score of the stronger side for an Elo difference."""
    return 1 / (1 + 10 ** (-elo / 400))


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference with its confidence interval, from ``points`` over ``games``."""

    games: int
    points: float

    @property
    def score(self) -> float:
        """Mean score per game (0.5 when there are no games)."""
        return self.points / self.games if self.games else 0.5

    @property
    def elo(self) -> float:
        """The Elo difference."""
        return elo_from_score(self.score)

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of the Elo difference (from the Wilson interval of the score)."""
        low, high = wilson(self.points, self.games)
        return (elo_from_score(low), elo_from_score(high))


@dataclass(frozen=True)
class Sprt:
    """Wald's SPRT of H0: elo = ``elo0`` against H1: elo = ``elo1`` (elo0 < elo1)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"SPRT needs elo0 < elo1, got {self.elo0}, {self.elo1}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError("SPRT alpha and beta must be between 0 and 0.5")

    @property
    def lower(self) -> float:
        """Accept H0 at or below this log-likelihood ratio."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept H1 at or above this log-likelihood ratio."""
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, wins: int, draws: int, losses: int) -> float:
        """The binomial log-likelihood ratio of H1 over H0 (a draw is half a win, half a loss)."""
        p0, p1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        points = wins + draws / 2
        against = losses + draws / 2
        return points * math.log(p1 / p0) + against * math.log((1 - p1) / (1 - p0))

    def decision(self, wins: int, draws: int, losses: int) -> str | None:
        """``"H1"``, ``"H0"``, or ``None`` while the test goes on."""
        llr = self.llr(wins, draws, losses)
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None
