"""What one app holds while it runs: its settings, its games, its advice runs, and the
gate that keeps solves from taking more cores than the machine has."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field

from starlette.requests import Request

from rummikub.web.advice_jobs import AdviceJobs
from rummikub.web.config import WebConfig
from rummikub.web.desk import GameDesk


def _cores() -> int:
    return max(1, os.cpu_count() or 1)


@dataclass
class WebState:
    """The running app's settings and shared objects (``request.app.state.web``)."""

    config: WebConfig
    desk: GameDesk
    jobs: AdviceJobs
    # Solves at once: more would only share the cores and each take longer.
    solves: threading.BoundedSemaphore = field(
        default_factory=lambda: threading.BoundedSemaphore(_cores())
    )

    @classmethod
    def of_config(cls, config: WebConfig) -> WebState:
        """The state of a new app."""
        return cls(config, GameDesk(config.games_dir), AdviceJobs(config.advice_jobs))


def web_state(request: Request) -> WebState:
    """The state of the app that serves ``request``."""
    state: WebState = request.app.state.web
    return state
