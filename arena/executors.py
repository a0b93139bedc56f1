"""Where games run: in this process, in a process pool, or on a Ray cluster.

:func:`ordered_map` runs ``fn`` over tasks with at most ``window`` in flight and yields
the results in task order, whatever order they finish in, so a tournament's numbers
(and the point where an SPRT stops) never depend on the executor or the number of jobs.
Closing the iterator early, or an exception in the caller (Ctrl-C), cancels what has not
started and ends the worker processes of what has.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, TypeVar

from rummikub.game.errors import ArenaError
from rummikub.solver.collector import collect_rarely

T = TypeVar("T")
R = TypeVar("R")
EXECUTORS = ("process", "ray", "serial")


def ordered_map(
    fn: Callable[[T], R],
    tasks: Iterable[T],
    *,
    executor: str = "process",
    jobs: int = 1,
    window: int | None = None,
    ray_address: str | None = None,
) -> Iterator[R]:
    """Results of ``fn(task)`` in task order, computed by the chosen executor."""
    if jobs < 1:
        raise ArenaError(f"jobs must be at least 1, got {jobs}")
    window = window or 4 * jobs
    if executor == "serial" or (executor == "process" and jobs == 1):
        return (fn(task) for task in tasks)
    if executor == "process":
        return _process_map(fn, tasks, jobs, window)
    if executor == "ray":
        return _ray_map(fn, tasks, window, ray_address)
    raise ArenaError(f"unknown executor {executor!r}: use one of {', '.join(EXECUTORS)}")


def worker_start() -> None:
    """What a worker process does first: it owns its process, so Python's collector may
    come rarely there; and it leaves Ctrl-C to the process that started it (SIGINT
    blocked), which ends its workers when it is interrupted (:func:`_process_map`): a
    terminal's Ctrl-C reaches every process of the group, and a worker that took it
    would die or lose a task while the others went on."""
    collect_rarely()
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


def _process_map(fn: Callable[[T], R], tasks: Iterable[T], jobs: int, window: int) -> Iterator[R]:
    # spawn: workers start clean (no inherited solver threads), the same on every platform.
    context = multiprocessing.get_context("spawn")
    mask = _signal_mask()
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=worker_start)
    # Starting Python's resource tracker (on the pool's first lock) unblocks SIGINT in this
    # thread (multiprocessing.resource_tracker.ensure_running): the caller's mask stands.
    _set_signal_mask(mask)
    pending: deque[Future[R]] = deque()
    try:
        for task in tasks:
            pending.append(pool.submit(fn, task))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    except BaseException:
        # Interrupted, failed, or closed early: no result of a running task is wanted, so
        # its worker ends now rather than when the task would.
        _end_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _signal_mask() -> set[int | signal.Signals] | None:
    """The calling thread's blocked signals (None where there are no masks)."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, ())


def _set_signal_mask(mask: set[int | signal.Signals] | None) -> None:
    if mask is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate the pool's worker processes (the pool then shuts down as broken)."""
    # Python 3.14 has pool.terminate_workers(); before it, the pool's own process table.
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        if process.is_alive():
            process.terminate()


def import_ray() -> Any:
    """The ``ray`` module, or an :class:`ArenaError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ArenaError(
            "--executor ray needs Ray: pip install 'rummikub[ray]' (or pip install ray)"
        ) from None
    return ray


def _ray_map(
    fn: Callable[[T], R], tasks: Iterable[T], window: int, address: str | None
) -> Iterator[R]:
    ray = import_ray()
    if not ray.is_initialized():
        address = address or os.environ.get("RAY_ADDRESS")
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    window = max(window, 2 * int(ray.cluster_resources().get("CPU", 1)))
    remote = ray.remote(num_cpus=1)(fn)
    pending: deque[Any] = deque()
    try:
        for task in tasks:
            pending.append(remote.remote(task))
            if len(pending) >= window:
                yield ray.get(pending.popleft())
        while pending:
            yield ray.get(pending.popleft())
    finally:
        for ref in pending:
            ray.cancel(ref)
