"""Tournament statistics with the deal as the unit: intervals, Elo from a score, the SPRT.

A tournament plays each deal in every seat order, so the games of one deal share their
tiles and are not independent (duplicate play, as in bridge). Every interval and the SPRT
therefore treat the deal as the unit of observation, the way fishtest's pentanomial model
treats a pair of games with colours reversed:

* A mean over games (win rate, score, a pair's head-to-head score) gets the
  cluster-robust variance of a ratio estimator over deals,
  ``D / (D - 1) * sum_d (y_d - mean * n_d)^2 / N^2`` (``y_d`` the deal's total over its
  ``n_d`` games, ``N`` games in ``D`` deals), and Student's t with ``D - 1`` degrees of
  freedom. With one deal nothing is known about its spread: the interval is everything.
* A proportion gets the Wilson score interval at its effective sample size
  ``p (1 - p) / variance`` (so it stays inside [0, 1]); when every game was won or every
  game lost, each deal counts as one trial.
* A pairwise score ``s`` (1 for a win, 1/2 for a tie, 0 for a loss) converts to an Elo
  difference ``-400 log10(1/s - 1)``; its interval is the score's, converted the same way.
* The SPRT (sequential probability ratio test, as in chess engine testing) weighs
  H0: elo = elo0 against H1: elo = elo1 with the normal log-likelihood ratio of the
  per-deal scores, ``D (s1 - s0) (2 mean - s0 - s1) / (2 var)`` (fishtest's GSPRT). The
  variance carries a prior of half a deal lost and half a deal won, so a handful of
  identical deals cannot decide the test. Wald's bounds ln(beta/(1-alpha)) and
  ln((1-beta)/alpha).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

Z95 = 1.959963984540054
_T95_SMALL = {1: 12.706204736, 2: 4.302652730}


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom (``inf`` at 0).

    Exact for 1 and 2; the Cornish-Fisher expansion in ``1/df`` (error below 0.03 at 3,
    below 0.001 from 8) elsewhere.
    """
    if df <= 0:
        return math.inf
    if df in _T95_SMALL:
        return _T95_SMALL[df]
    z = Z95
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )


def wilson(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
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
class DealSample:
    """One quantity summed per deal: ``totals[d]`` over the ``games[d]`` games of deal ``d``."""

    totals: tuple[float, ...]
    games: tuple[int, ...]

    @classmethod
    def of(cls, per_deal: Mapping[int, tuple[float, int]]) -> DealSample:
        """A sample from ``{deal: (total, games)}``, deals in order."""
        keys = sorted(per_deal)
        return cls(tuple(per_deal[k][0] for k in keys), tuple(per_deal[k][1] for k in keys))

    @property
    def deals(self) -> int:
        """How many deals (independent units)."""
        return len(self.totals)

    @property
    def count(self) -> int:
        """How many games."""
        return sum(self.games)

    @property
    def total(self) -> float:
        """The quantity summed over all games."""
        return sum(self.totals)

    @property
    def mean(self) -> float:
        """Mean per game (0 when there are no games)."""
        return self.total / self.count if self.count else 0.0

    def variance_of_mean(self) -> float:
        """The cluster-robust variance of :attr:`mean`, deals as the units (``inf`` below two
        deals)."""
        deals = self.deals
        if deals < 2:
            return math.inf
        mean, n = self.mean, self.count
        spread = sum((y - mean * g) ** 2 for y, g in zip(self.totals, self.games, strict=True))
        return deals / (deals - 1) * spread / (n * n)

    def interval(self) -> tuple[float, float]:
        """The 95% interval of the mean per game: ``mean ± t(D-1) * sqrt(variance)``."""
        half = t95(self.deals - 1) * math.sqrt(self.variance_of_mean())
        return (self.mean - half, self.mean + half)

    def effective_games(self) -> float:
        """How many independent games the sample is worth for a proportion (0 with one deal)."""
        variance = self.variance_of_mean()
        if math.isinf(variance):
            return 0.0
        p = self.mean
        if p <= 0 or p >= 1:
            return float(self.deals)  # no spread seen: each deal one trial
        if variance == 0:
            return float(self.count)
        return p * (1 - p) / variance

    def proportion_interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of a proportion at the effective sample size."""
        trials = self.effective_games()
        if trials <= 0:
            return (0.0, 1.0)
        return wilson(self.mean * trials, trials, t95(self.deals - 1))


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference with its confidence interval, from the points scored per deal."""

    points: DealSample

    @property
    def games(self) -> int:
        """Games played."""
        return self.points.count

    @property
    def score(self) -> float:
        """Mean score per game (0.5 when there are no games)."""
        return self.points.mean if self.games else 0.5

    @property
    def elo(self) -> float:
        """The Elo difference."""
        return elo_from_score(self.score)

    @property
    def score_interval(self) -> tuple[float, float]:
        """The 95% interval of the score (deals as the units)."""
        return self.points.proportion_interval()

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of the Elo difference (the score's interval converted)."""
        low, high = self.score_interval
        return (elo_from_score(low), elo_from_score(high))


# A bound beyond this asks about scores above 99.7% (or below 0.3%): not a test anyone runs,
# and far enough out the score's logit overflows.
MAX_SPRT_ELO = 1000.0


@dataclass(frozen=True)
class Sprt:
    """Wald's SPRT of H0: elo = ``elo0`` against H1: elo = ``elo1`` (elo0 < elo1)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not all(abs(e) <= MAX_SPRT_ELO for e in (self.elo0, self.elo1)):
            raise ValueError(
                f"SPRT bounds must lie within +-{MAX_SPRT_ELO} Elo, got {self.elo0}, {self.elo1}"
            )
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

    def llr(self, points: DealSample) -> float:
        """The log-likelihood ratio of H1 over H0 from the per-deal scores (normal model)."""
        scores = [t / g for t, g in zip(points.totals, points.games, strict=True) if g]
        if not scores:
            return 0.0
        s0, s1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        mean = sum(scores) / len(scores)
        # The prior: half a deal at 0 and half at 1 join the spread (not the mean).
        weight = len(scores) + 1
        centre = (sum(scores) + 0.5) / weight
        spread = sum((x - centre) ** 2 for x in scores) + 0.5 * centre**2 + 0.5 * (1 - centre) ** 2
        variance = spread / weight
        return len(scores) * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)

    def decision(self, points: DealSample) -> str | None:
        """``"H1"``, ``"H0"``, or ``None`` while the test goes on."""
        llr = self.llr(points)
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None
