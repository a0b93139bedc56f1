"""The main thread's Ctrl-C handler: it raises once per Ctrl-C, and never inside an import
or the code that starts, reaps and counts worker processes (an exception there loses a
worker's exit, and the process pool's shutdown waits for that worker forever)."""

from __future__ import annotations

import concurrent.futures.process
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from types import FrameType

import pytest

from rummikub.cli import interrupt


def _run_as_if_in(path: str, source: str, **names: object) -> dict[str, object]:
    """Run ``source`` as code of the file ``path`` (a library's, to the handler); its names."""
    namespace = dict(names)
    exec(compile(source, path, "exec"), namespace)
    return namespace


def _frame_in(path: str) -> FrameType:
    """A frame whose code says it lives in ``path`` (as a library's function does)."""
    frame = _run_as_if_in(path, "frame = sys._getframe()", sys=sys)["frame"]
    assert isinstance(frame, FrameType)
    return frame


@pytest.fixture
def wanted() -> Iterator[None]:
    """A Ctrl-C that the watcher wants raised in the main thread, in a block that runs."""
    ended = interrupt._State.done.is_set()
    interrupt._State.done.clear()
    interrupt._State.target = None  # outside the prompt
    interrupt._State.raising.set()
    yield
    interrupt._State.target = None
    interrupt._State.raising.clear()
    interrupt._State.requested.clear()
    interrupt._State.announced = False
    if ended:
        interrupt._State.done.set()


def test_it_raises_once_per_ctrl_c(wanted: None) -> None:
    with pytest.raises(KeyboardInterrupt):
        interrupt._raise_interrupt(signal.SIGUSR1, sys._getframe())
    interrupt._raise_interrupt(signal.SIGUSR1, sys._getframe())  # the watcher's repeats


def test_nothing_is_raised_when_no_ctrl_c_is_wanted() -> None:
    interrupt._raise_interrupt(signal.SIGUSR1, sys._getframe())


@pytest.mark.parametrize(
    "path",
    [
        os.path.join(os.path.dirname(multiprocessing.__file__), "popen_fork.py"),
        concurrent.futures.process.__file__,
        "<frozen importlib._bootstrap>",
    ],
    ids=["multiprocessing", "process pool", "import"],
)
def test_it_waits_in_imports_and_in_worker_bookkeeping(wanted: None, path: str) -> None:
    frame = _frame_in(path)
    assert interrupt._in_unsafe_code(frame)
    interrupt._raise_interrupt(signal.SIGUSR1, frame)  # not now: the watcher sends again
    assert interrupt._State.raising.is_set()
    with pytest.raises(KeyboardInterrupt):
        interrupt._raise_interrupt(signal.SIGUSR1, sys._getframe())


def test_at_the_prompt_only_a_running_line_is_interrupted(
    wanted: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(interrupt, "end_workers", lambda: None)
    interrupt._State.raising.clear()
    with interrupt.at_prompt():
        interrupt._on_ctrl_c(threading.get_ident())  # between lines: forgotten
        assert not interrupt._State.raising.is_set()
        assert capsys.readouterr().err == ""
        with interrupt.running_line():
            ended = interrupt._State.line
        # A Ctrl-C for a line that has just ended: no signal is sent, none raises.
        sender = threading.Thread(
            target=interrupt._interrupt_main, args=(threading.get_ident(), math.inf, ended)
        )
        sender.start()
        sender.join(timeout=2)
        assert not sender.is_alive()
        interrupt._raise_interrupt(signal.SIGUSR1, sys._getframe())
        with pytest.raises(KeyboardInterrupt), interrupt.running_line():
            interrupt._State.target = interrupt._State.line
            interrupt._State.raising.set()
            interrupt._raise_interrupt(signal.SIGUSR1, sys._getframe())
        assert not interrupt._State.raising.is_set()


def test_at_the_prompt_a_line_long_inside_multiprocessing_is_still_interrupted(
    wanted: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A loaded machine can keep the main thread starting workers past GRACE: the line is
    interrupted when it comes out (the prompt has no exit to fall back on)."""
    monkeypatch.setattr(interrupt, "GRACE", 0.05)
    monkeypatch.setattr(interrupt, "end_workers", lambda: None)
    bookkeeping = os.path.join(os.path.dirname(multiprocessing.__file__), "popen_spawn_posix.py")
    source = "def start(watcher):\n    watcher.start()\n    time.sleep(0.5)"
    start = _run_as_if_in(bookkeeping, source, time=time)["start"]
    assert callable(start)
    previous = signal.signal(signal.SIGUSR1, interrupt._raise_interrupt)
    watcher = threading.Thread(target=interrupt._on_ctrl_c, args=(threading.get_ident(),))
    try:
        with interrupt.at_prompt(), interrupt.running_line():
            left: list[float] = []
            with pytest.raises(KeyboardInterrupt):
                start(watcher)  # Ctrl-C, then 10 x GRACE in multiprocessing: not raised there
                left.append(time.monotonic())
                time.sleep(5)  # but at once after it
            assert left and time.monotonic() - left[0] < 1.0
    finally:
        watcher.join(timeout=5)
        signal.signal(signal.SIGUSR1, previous)
        interrupt._State.requested.clear()
    assert not watcher.is_alive()  # it stopped sending once the line was interrupted
    assert capsys.readouterr().err == "interrupted\n"
