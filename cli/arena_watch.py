"""What ``rummikub arena`` does while its games run: the record written game by game, the
progress on stderr (a bar on a terminal, a line every half minute in a log), and on Ctrl-C
the games finished so far, tallied, so that an interrupted tournament still reports.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import IO, TYPE_CHECKING, Any

import click

from rummikub.cli.errors import fail

if TYPE_CHECKING:
    from rummikub.arena.tournament import TournamentConfig, TournamentResult
    from rummikub.game.record import Event

LOG_EVERY = 30.0  # seconds between progress lines when stderr is not a terminal


class RecordFile:
    """The ``--record`` file (none: ``path`` None), written game by game: opened when the
    first game ends (an older file of that name stays until then), each game in one write,
    flushed; after a Ctrl-C, cut back to the games written whole."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.handle: IO[bytes] | None = None
        self.mark = (0, 0)  # games written whole, and the bytes they take
        self.writing = False  # in the middle of writing a game

    def __enter__(self) -> RecordFile:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.handle is not None:
            self.handle.close()

    @property
    def games(self) -> int:
        """Games written whole."""
        return self.mark[0]

    def write(self, events: Iterable[Event]) -> None:
        """Add one game."""
        if self.path is None:
            return
        from rummikub.game.record import events_text

        if self.handle is None:
            try:
                # Unbuffered: a write that fails (a full disk) leaves nothing in a buffer
                # for the cut back or the close to fail on again.
                self.handle = open(self.path, "wb", buffering=0)  # noqa: SIM115 - see __exit__
            except OSError as error:
                fail(f"cannot write {self.path}: {error.strerror or error}")
        data = events_text(events).encode()
        self.writing = True
        try:
            rest = data
            while rest:  # a raw write may take part of it
                written = self.handle.write(rest)
                if not written:
                    raise OSError(f"nothing written of {len(rest)} bytes")
                rest = rest[written:]
        except OSError as error:  # a full disk: stop, with the games written whole kept
            with contextlib.suppress(OSError):
                self.repair()
            fail(f"cannot write {self.path}: {error.strerror or error}; the tournament stopped")
        games, size = self.mark
        self.mark = (games + 1, size + len(data))  # one store: a Ctrl-C sees all of it or none
        self.writing = False

    def repair(self) -> None:
        """Drop what a Ctrl-C cut short: the bytes after the last game counted (a game half
        written, or whole but not yet counted, which the next write would repeat). A pipe
        cannot be cut back: a game it was being sent counts as sent."""
        if self.handle is None:
            return
        if self.handle.seekable():
            self.handle.seek(self.mark[1])
            self.handle.truncate()
        elif self.writing:
            self.mark = (self.mark[0] + 1, self.mark[1])
        self.writing = False


class TournamentWatch:
    """The tournament's progress callback (:data:`rummikub.arena.tournament.Progress`)."""

    def __init__(
        self,
        config: TournamentConfig,
        record: RecordFile | None = None,
        bar: Any = None,  # a click progress bar
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.config, self.bar, self.log = config, bar, log
        self.record = record or RecordFile(None)
        self.latest: TournamentResult | None = None
        self.started = time.perf_counter()
        self.logged = -math.inf  # when the last progress line was written (the first: now)
        self.logged_games = 0

    def __call__(self, result: TournamentResult) -> None:
        self.latest = result
        self.write_record()
        if self.bar is not None:
            self.bar.update(1, status_line(result, short=True))
        if time.perf_counter() - self.logged >= LOG_EVERY:
            self.log_line(result)

    def log_line(self, result: TournamentResult) -> None:
        """A progress line in the log (if there is one), unless it would say nothing new."""
        if self.log is not None and result.games != self.logged_games:
            self.logged, self.logged_games = time.perf_counter(), result.games
            self.log(f"{result.games} of {self.config.games} games; {status_line(result)}")

    def write_record(self) -> None:
        """Add the games finished since the last call to the record."""
        if self.latest is not None:
            for game in self.latest.summaries[self.record.games :]:
                self.record.write(game.events)

    def interrupted(self) -> TournamentResult | None:
        """The statistics of the games finished before Ctrl-C (``None`` if none was), tallied
        afresh: the interruption may have come in the middle of counting one. The record
        holds the same games."""
        from rummikub.arena.tournament import TournamentResult

        if self.latest is None or not self.latest.summaries:
            return None
        self.record.repair()
        self.write_record()
        result = TournamentResult.of(self.config, list(self.latest.summaries))
        result.seconds = time.perf_counter() - self.started
        result.interrupted = True
        return result


def status_line(result: TournamentResult, short: bool = False) -> str:
    """The first pair's Elo with its interval, and the SPRT's log-likelihood ratio (for a
    bar, ``short``: without the names, the interval and the bounds)."""
    pair = result.pairs[0]
    estimate = pair.estimate()
    if short:
        line = f"Elo {elo_text(estimate.elo)}"
    else:
        names = f"{result.entrants[pair.a].name} vs {result.entrants[pair.b].name}"
        low, high = estimate.interval
        line = f"{names}: Elo {elo_text(estimate.elo)} [{elo_text(low)}, {elo_text(high)}]"
    sprt = result.config.sprt
    if sprt is not None:
        llr = f"LLR {result.sprt_llr or 0.0:.2f}"
        line += f", {llr}" if short else f", SPRT {llr} in [{sprt.lower:.2f}, {sprt.upper:.2f}]"
    return line


def elo_text(value: float) -> str:
    """An Elo difference as the reports print it: signed, whole, or ``±inf``."""
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{round(value):+d}"


def log_to_stderr(line: str) -> None:
    """One progress line on stderr."""
    click.echo(f"arena: {line}", err=True)
