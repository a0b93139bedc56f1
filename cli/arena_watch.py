"""What ``rummikub arena`` does while its games run: the record written game by game, the
progress on stderr (a bar on a terminal, a line every half minute in a log), and on Ctrl-C
the games finished so far, tallied, so that an interrupted tournament still reports.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from rummikub.arena.tournament import TournamentConfig, TournamentResult

LOG_EVERY = 30.0  # seconds between progress lines when stderr is not a terminal


class TournamentWatch:
    """The tournament's progress callback (:data:`rummikub.arena.tournament.Progress`)."""

    def __init__(
        self,
        config: TournamentConfig,
        record: IO[str] | None = None,
        bar: Any = None,  # a click progress bar
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.config, self.record, self.bar, self.log = config, record, bar, log
        self.latest: TournamentResult | None = None
        self.recorded = 0  # games in the record file
        self.started = self.logged = time.perf_counter()

    def __call__(self, result: TournamentResult) -> None:
        self.latest = result
        self.write_record()
        if self.bar is not None:
            self.bar.update(1, status_line(result, names=False))
        if self.log is not None and time.perf_counter() - self.logged >= LOG_EVERY:
            self.logged = time.perf_counter()
            self.log(f"{result.games} of {self.config.games} games; {status_line(result)}")

    def write_record(self) -> None:
        """Add the games finished since the last call to the record (flushed: a run that is
        stopped keeps every game it finished)."""
        if self.record is None or self.latest is None:
            return
        from rummikub.game.record import write_events

        for game in self.latest.summaries[self.recorded :]:
            write_events(game.events, self.record)  # a game in one write
            self.recorded += 1
        self.record.flush()

    def interrupted(self) -> TournamentResult | None:
        """The statistics of the games finished before Ctrl-C (``None`` if none was), tallied
        afresh: the interruption may have come in the middle of counting one."""
        from rummikub.arena.tournament import TournamentResult

        if self.latest is None or not self.latest.summaries:
            return None
        self.write_record()
        result = TournamentResult.of(self.config, list(self.latest.summaries))
        result.seconds = time.perf_counter() - self.started
        result.interrupted = True
        return result


def status_line(result: TournamentResult, names: bool = True) -> str:
    """The first pair's Elo with its interval, and the SPRT's log-likelihood ratio (short,
    without the names and the bounds, for a bar)."""
    pair = result.pairs[0]
    estimate = pair.estimate()
    low, high = estimate.interval
    line = f"Elo {elo_text(estimate.elo)} [{elo_text(low)}, {elo_text(high)}]"
    sprt = result.config.sprt
    if names:
        line = f"{result.entrants[pair.a].name} vs {result.entrants[pair.b].name}: {line}"
    if sprt is not None:
        llr = f"LLR {result.sprt_llr or 0.0:.2f}"
        line += f", SPRT {llr} in [{sprt.lower:.2f}, {sprt.upper:.2f}]" if names else f", {llr}"
    return line


def elo_text(value: float) -> str:
    """An Elo difference as the reports print it: signed, whole, or ``±inf``."""
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{round(value):+d}"


def log_to_stderr(line: str) -> None:
    """One progress line on stderr."""
    click.echo(f"arena: {line}", err=True)
