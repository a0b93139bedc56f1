"""Where games run: in this process, in a process pool, or on a Ray cluster.

:func:`ordered_map` runs ``fn`` over tasks with at most ``window`` in flight and yields
the results in task order, whatever order they finish in, so a tournament's numbers
(and the point where an SPRT stops) never depend on the executor or the number of jobs.
Closing the iterator early cancels what has not started.
"""

from __future__ import annotations

import multiprocessing
import os
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


def _process_map(fn: Callable[[T], R], tasks: Iterable[T], jobs: int, window: int) -> Iterator[R]:
    # spawn: workers start clean (no inherited solver threads), the same on every platform.
    context = multiprocessing.get_context("spawn")
    # A worker owns its process: Python's collector may come rarely there.
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=collect_rarely)
    pending: deque[Future[R]] = deque()
    try:
        for task in tasks:
            pending.append(pool.submit(fn, task))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


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
