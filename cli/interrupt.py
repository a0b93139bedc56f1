"""Ctrl-C during a command: the work stops within a second or two, every worker process
ends, one line says "interrupted"; at the game's prompt, the prompt comes back.

Python's own KeyboardInterrupt is not enough here. The solver (OR-Tools CP-SAT) installs a
SIGINT handler of its own during each solve and leaves the default one behind, so a later
Ctrl-C kills the process outright, without a word and with its worker processes still
running; and a Ctrl-C that arrives during a solve only ends that solve. So while a command
runs (:func:`interruptible`), SIGINT is blocked in every thread of the process and in the
worker processes it starts (they inherit the mask: a Ctrl-C reaches them only through this
process), and a watcher thread waits for it. On Ctrl-C the watcher

1. prints ``interrupted`` on stderr (once);
2. ends every worker process this process started (SIGTERM, then SIGKILL);
3. raises KeyboardInterrupt in the main thread, by a signal of its own (SIGUSR1) that
   wakes a thread waiting for results; a solve running in the main thread returns first;
4. outside the prompt, ends the process (exit status 130) when the command has not
   stopped within :data:`GRACE` seconds (a solve in the main thread runs to its limit).

A second Ctrl-C outside the prompt ends the process at once. Where signals cannot be
masked (Windows), Python's KeyboardInterrupt does what it can.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

GRACE = 2.0  # seconds a command has to stop after Ctrl-C before the process ends
EXIT_STATUS = 130  # 128 + SIGINT, as a shell reports a process ended by Ctrl-C
_POLL = 0.2  # seconds between the watcher's looks at whether the command has ended


class _State:
    """The one watcher of this process and what it has seen."""

    depth = 0  # nested interruptible() blocks (a prompt's lines run inside the prompt's)
    prompt = 0  # nested at_prompt() blocks: Ctrl-C returns to the prompt, never exits
    requested = threading.Event()  # Ctrl-C seen since the block (or the prompt's line) began
    announced = False  # "interrupted" already printed for it
    done = threading.Event()  # the outermost block has ended
    watcher: threading.Thread | None = None


def supported() -> bool:
    """Whether signals can be masked and waited for here (POSIX, in the main thread)."""
    return (
        hasattr(signal, "pthread_sigmask")
        and hasattr(signal, "sigtimedwait")
        and threading.current_thread() is threading.main_thread()
    )


def requested() -> bool:
    """Whether Ctrl-C was pressed during the running command."""
    return _State.requested.is_set()


def announce() -> None:
    """Print "interrupted" on stderr, once per Ctrl-C."""
    if not _State.announced:
        _State.announced = True
        sys.stderr.write("interrupted\n")
        sys.stderr.flush()


def end_workers(wait: float = 1.0) -> None:
    """End every worker process this process started: SIGTERM, then SIGKILL after ``wait``."""
    import multiprocessing  # here: not on every start of the command line

    children = multiprocessing.active_children()
    for child in children:
        child.terminate()
    for child in children:
        child.join(wait)
        if child.is_alive():
            child.kill()
            child.join(wait)


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _on_ctrl_c(main: int) -> None:
    """What the watcher does on Ctrl-C (the module docstring)."""
    again = _State.requested.is_set()
    _State.requested.set()
    if again and not _State.prompt:
        announce()
        os._exit(EXIT_STATUS)  # a second Ctrl-C: the user will not wait
    announce()
    end_workers()
    signal.pthread_kill(main, signal.SIGUSR1)
    if not _State.prompt and not _State.done.wait(GRACE):
        sys.stdout.flush()
        os._exit(EXIT_STATUS)


def _watch(main: int) -> None:
    while not _State.done.is_set():
        if signal.sigtimedwait({signal.SIGINT}, _POLL) is not None:
            _on_ctrl_c(main)


@contextmanager
def interruptible() -> Iterator[None]:
    """Run the block with Ctrl-C handled as the module docstring says (nested blocks run
    under the outermost one)."""
    if _State.depth or not supported():
        _State.depth += 1
        try:
            yield
        finally:
            _State.depth -= 1
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    old_usr1 = signal.signal(signal.SIGUSR1, _raise_interrupt)
    _State.depth, _State.announced = 1, False
    _State.requested.clear()
    _State.done.clear()
    _State.watcher = threading.Thread(
        target=_watch, args=(threading.get_ident(),), name="ctrl-c", daemon=True
    )
    _State.watcher.start()  # after the mask: the thread inherits it, as sigtimedwait needs
    try:
        yield
    finally:
        _State.done.set()
        _State.watcher.join()
        _State.depth = 0
        while signal.sigtimedwait({signal.SIGINT}, 0) is not None:
            pass  # a Ctrl-C as the command ended: it has ended
        signal.signal(signal.SIGUSR1, old_usr1)
        handler = signal.getsignal(signal.SIGINT)
        if handler is not None:  # CP-SAT leaves SIGINT's default action: Python's comes back
            signal.signal(signal.SIGINT, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextmanager
def at_prompt() -> Iterator[None]:
    """The game's prompt: a Ctrl-C raises KeyboardInterrupt in the line running (for the
    prompt to catch) but never ends the process."""
    _State.prompt += 1
    try:
        yield
    finally:
        _State.prompt -= 1


def next_line() -> None:
    """A new line of the prompt begins: a Ctrl-C before it is forgotten."""
    _State.requested.clear()
    _State.announced = False
