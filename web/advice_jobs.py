"""Advice off the request path: each run in a worker process (:mod:`.advice_worker`),
watched by a thread, with its progress, its answer, and a cancel that ends it at once.

Advice thinks for a set time (:func:`rummikub.analysis.advice.advise` with ``seconds``:
as many rollouts as fit), so its progress is the time it has had of that time. The worker
runs in a session of its own: a Ctrl-C meant for the server does not reach it halfway
through starting; the server ends every worker when it stops (:meth:`AdviceJobs.close`).
"""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from rummikub.analysis.advice import Situation
from rummikub.models.errors import InternalError
from rummikub.web.errors import Refused

KEEP_FINISHED = 50  # finished runs kept for their pages, the oldest dropped first
GRACE_SECONDS = 30.0  # past its time, a run still thinking is waited for this long


@dataclass
class AdviceJob:
    """One advice run: for which game (at which version), how long, and how it went."""

    id: str
    game: str
    version: str  # the game's StoredGame.version when the run began
    seconds: float
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    result: dict[str, Any] | None = None
    error: str | None = None
    cancelled: bool = False
    process: subprocess.Popen[bytes] | None = None

    @property
    def done(self) -> bool:
        """Whether the run is over (answered, failed or cancelled)."""
        return self.finished is not None

    @property
    def progress(self) -> float:
        """How far the run is, 0 to 1: the share of its thinking time it has had."""
        if self.done:
            return 1.0
        return min(0.99, (time.monotonic() - self.started) / self.seconds)

    def to_json(self) -> dict[str, Any]:
        """The run's state as ``GET /advice/ID.json`` answers it."""
        return {
            "id": self.id,
            "game": self.game,
            "version": self.version,
            "seconds": self.seconds,
            "progress": round(self.progress, 3),
            "done": self.done,
            "cancelled": self.cancelled,
            "error": self.error,
            "advice": self.result,
        }


def _answer(job: AdviceJob, request: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    """The worker's advice, or why there is none (``None`` for both when cancelled)."""
    process = job.process
    if process is None:
        raise InternalError("an advice job read before its process started")
    try:
        out, err = process.communicate(
            json.dumps(request).encode(), timeout=job.seconds + GRACE_SECONDS
        )
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        return None, f"advice took more than {job.seconds + GRACE_SECONDS:.0f} s: stopped"
    if job.cancelled:
        return None, None
    if process.returncode != 0:
        lines = err.decode(errors="replace").strip().splitlines()
        return None, "advice failed: " + (lines[-1] if lines else f"exit {process.returncode}")
    try:
        answer = json.loads(out.decode())
    except ValueError:
        return None, "advice failed: the worker's answer is not JSON"
    if "error" in answer:
        return None, str(answer["error"])
    return answer, None


class AdviceJobs:
    """The advice runs of one app: at most ``limit`` at once (each takes a core)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._jobs: dict[str, AdviceJob] = {}
        self._lock = threading.Lock()

    def start(
        self, situation: Situation, game: str, version: str, seconds: float, seed: int, model: str
    ) -> AdviceJob:
        """Start weighing ``situation`` (of the game ``game`` at ``version``)."""
        request = {
            "position": situation.position.to_json(),
            "opponents": list(situation.opponents),
            "opened": list(situation.others_opened),
            "pool": situation.pool,
            "seconds": seconds,
            "seed": seed,
            "model": model,
        }
        with self._lock:
            running = [j for j in self._jobs.values() if not j.done]
            if len(running) >= self.limit:
                raise Refused(
                    429,
                    f"{len(running)} advice runs are thinking already: wait for one to finish "
                    "or cancel it",
                )
            job = AdviceJob(secrets.token_urlsafe(8), game, version, seconds)
            job.process = subprocess.Popen(
                [sys.executable, "-m", "rummikub.web.advice_worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
            self._jobs[job.id] = job
            self._forget_old()
        watcher = threading.Thread(target=self._watch, args=(job, request), daemon=True)
        watcher.start()
        return job

    def _watch(self, job: AdviceJob, request: dict[str, Any]) -> None:
        """Feed the worker its request and take its answer (or note how it ended)."""
        try:
            job.result, job.error = _answer(job, request)
        finally:
            job.finished = time.monotonic()

    def get(self, job_id: str) -> AdviceJob:
        """The run of this id (404 when there is none)."""
        with self._lock:
            job = self._jobs.get(job_id)
        if job is None:
            raise Refused(404, "no such advice run (it may have been forgotten: start another)")
        return job

    def cancel(self, job_id: str) -> AdviceJob:
        """End the run now (nothing happens to a run already over)."""
        job = self.get(job_id)
        if not job.done and job.process is not None:
            job.cancelled = True
            job.process.terminate()
        return job

    def _forget_old(self) -> None:
        finished = sorted((j for j in self._jobs.values() if j.done), key=lambda j: j.started)
        for job in finished[: max(0, len(finished) - KEEP_FINISHED)]:
            del self._jobs[job.id]

    def close(self) -> None:
        """End every run still thinking (the server is stopping)."""
        with self._lock:
            jobs = list(self._jobs.values())
        for job in jobs:
            if not job.done and job.process is not None:
                job.cancelled = True
                job.process.terminate()
        for job in jobs:
            if job.process is not None:
                try:
                    job.process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    job.process.kill()
