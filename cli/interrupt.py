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
   wakes a thread waiting for results; a solve running in the main thread returns first.
   The signal is sent again until it is taken: its handler lets it pass while the main
   thread is inside an import (where it was lost) or multiprocessing's own code, where
   an exception between two steps loses a worker (one reaped by ``waitpid`` but never
   marked ended stays "alive" to its pool, whose shutdown then waits for it forever).
   At the prompt it is sent until the line it was for (:func:`running_line`) has ended
   and taken only in that line, so it never ends the prompt itself; a Ctrl-C between
   lines is forgotten. When the prompt reads a script from a pipe, a Ctrl-C also stops the
   script: no line runs after the one it came in (even one that made its change);
4. outside the prompt on a terminal, ends the process (exit status 130) when the command
   (or the script's line) has not stopped within :data:`GRACE` seconds (a solve in the
   main thread runs to its limit).

A second Ctrl-C outside the prompt on a terminal ends the process at once. Where signals cannot be
masked (Windows), Python's KeyboardInterrupt does what it can.

A command that writes what the user gave (the game's events) calls :func:`commit` first:
a Ctrl-C before it stops the command with nothing written, one after it is not acted on,
so "interrupted" never follows a change that was made.
"""

from __future__ import annotations

import math
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

GRACE = 2.0  # seconds a command has to stop after Ctrl-C before the process ends
_RESEND = 0.02  # seconds between signals to the main thread until it raises
EXIT_STATUS = 130  # 128 + SIGINT, as a shell reports a process ended by Ctrl-C
_POLL = 0.2  # seconds between the watcher's looks at whether the command has ended


class _State:
    """The one watcher of this process and what it has seen."""

    depth = 0  # nested interruptible() blocks (a prompt's lines run inside the prompt's)
    prompt = 0  # nested at_prompt() blocks: Ctrl-C returns to the prompt, never exits
    script = False  # the prompt reads a script (a pipe): a Ctrl-C stops it after its line
    stopping = threading.Event()  # ... and one has come
    requested = threading.Event()  # Ctrl-C seen since the block (or the prompt's line) began
    raising = threading.Event()  # KeyboardInterrupt wanted in the main thread, not yet raised
    taken = threading.Event()  # ... raised, for the Ctrl-C since the block (or line) began
    target: int | None = None  # ... in this line of the prompt (None: outside the prompt)
    line: int | None = None  # the prompt's line running (at the prompt, only a line is interrupted)
    lines = 0  # the prompt's lines begun
    announced = False  # "interrupted" already printed for it
    committing = False  # the command makes its change: Ctrl-C is not acted on (commit())
    began = False  # a command's block has begun (before it, stop_at_start ends the program)
    lock = threading.Lock()  # whether a Ctrl-C came before the change began, or not at all
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
        # On a terminal, over whatever the line holds (a progress bar, the echoed ^C).
        sys.stderr.write(("\r\033[K" if sys.stderr.isatty() else "") + "interrupted\n")
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
    if not _State.raising.is_set() or _State.done.is_set() or _State.target != _State.line:
        return  # raised already, the block has ended, or the line it was for has
    if _in_unsafe_code(frame):
        return  # not here: the watcher sends the signal again
    _State.raising.clear()
    _State.taken.set()
    raise KeyboardInterrupt


def settle() -> None:
    """Wait, after the command caught what a Ctrl-C did to its work (the KeyboardInterrupt,
    or a worker pool that lost its workers first), until the KeyboardInterrupt sent to the
    main thread has come and gone: the command can then report what it finished without
    being stopped halfway, within the :data:`GRACE` it has."""
    while _State.requested.is_set() and not _State.taken.is_set() and not _State.done.is_set():
        try:
            time.sleep(_RESEND)
        except KeyboardInterrupt:
            return


# An import: a KeyboardInterrupt raised there was lost (the line ran on to its end in a
# stress loop; module code may catch everything), and leaves a module half run.
_IMPORT_MACHINERY = "<frozen importlib."


def _unsafe_files() -> tuple[str, ...]:
    """Where the main thread must not be interrupted: imports, and the code that starts,
    reaps and counts worker processes (once imported)."""
    files = [_IMPORT_MACHINERY]
    for name in ("multiprocessing", "concurrent.futures.process"):
        module = sys.modules.get(name)
        path = getattr(module, "__file__", None)
        if path:
            files.append(os.path.dirname(path) + os.sep if name == "multiprocessing" else path)
    return tuple(files)


def _in_unsafe_code(frame: FrameType | None) -> bool:
    """Whether the thread of ``frame`` is inside an import, multiprocessing's code or the
    process pool's."""
    files = _unsafe_files()
    while frame is not None:
        if frame.f_code.co_filename.startswith(files):
            return True
        frame = frame.f_back
    return False


def _interrupt_main(main: int, deadline: float, line: int | None = None) -> None:
    """Signal the main thread until its handler has raised KeyboardInterrupt (no later than
    ``deadline`` on the monotonic clock, and no longer than the block, or at the prompt the
    ``line``, runs); a second Ctrl-C meanwhile ends the process, outside the prompt."""
    _State.target = line
    _State.raising.set()
    while (
        _State.raising.is_set()
        and not _State.done.is_set()
        and _State.line == line
        and time.monotonic() < deadline
    ):
        signal.pthread_kill(main, signal.SIGUSR1)
        if _ctrl_c_within(_RESEND) and (not _State.prompt or _State.script):
            os._exit(EXIT_STATUS)  # a second Ctrl-C: the user will not wait


def _ctrl_c_within(seconds: float) -> bool:
    """Whether Ctrl-C comes within ``seconds`` (the watcher's thread waits for it)."""
    return signal.sigtimedwait({signal.SIGINT}, seconds) is not None


def _on_ctrl_c(main: int) -> None:
    """What the watcher does on Ctrl-C (the module docstring)."""
    with _State.lock:
        if _State.done.is_set():
            return  # the command has ended: it ends as it would have
        if _State.script:
            _State.stopping.set()  # whatever the line does, no line runs after it
        if _State.committing:
            return  # the change is made: the command (or line) ends as it would have
        again = _State.requested.is_set()
        _State.requested.set()
    if again and not _State.prompt:
        announce()
        os._exit(EXIT_STATUS)  # a second Ctrl-C: the user will not wait
    line = _State.line
    if _State.prompt and line is None and not _State.script:
        return  # between the prompt's lines: nothing runs to interrupt
    announce()
    end_workers()
    if _State.prompt and not _State.script:
        # The line is interrupted however long the main thread stays inside multiprocessing
        # (a loaded machine can keep it there past GRACE): nothing else would stop it.
        _interrupt_main(main, math.inf, line)
        return
    # A command, or a script's line: stopped within GRACE, or the process ends.
    deadline = time.monotonic() + GRACE
    _interrupt_main(main, deadline, line)
    while not _State.done.is_set():
        left = deadline - time.monotonic()
        if _ctrl_c_within(_POLL if left <= 0 else min(left, _POLL)) or (
            left <= 0 and not _State.committing  # a change being written ends first
        ):
            sys.stdout.flush()
            os._exit(EXIT_STATUS)  # not stopped in time, or a second Ctrl-C


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
    _State.began = True
    _State.depth, _State.announced = 1, False
    _State.requested.clear()
    _State.taken.clear()
    _State.done.clear()
    _State.watcher = threading.Thread(
        target=_watch, args=(threading.get_ident(),), name="ctrl-c", daemon=True
    )
    _State.watcher.start()  # after the mask: the thread inherits it, as sigtimedwait needs
    try:
        yield
    finally:
        _State.done.set()  # first: from here on a late signal raises nothing
        _State.raising.clear()
        _State.watcher.join()
        _end_commit()
        _State.depth = 0
        while signal.sigtimedwait({signal.SIGINT}, 0) is not None:
            pass  # a Ctrl-C as the command ended: it has ended
        signal.signal(signal.SIGUSR1, old_usr1)
        handler = signal.getsignal(signal.SIGINT)
        if handler is not None:  # CP-SAT leaves SIGINT's default action: Python's comes back
            signal.signal(signal.SIGINT, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextmanager
def at_prompt(script: bool = False) -> Iterator[None]:
    """The game's prompt: a Ctrl-C raises KeyboardInterrupt in the line running (for the
    prompt to catch) but never ends the process. ``script``: the lines come from a pipe,
    and a Ctrl-C also stops the script: :func:`stopping` says so once the line has ended
    (between lines, the KeyboardInterrupt comes in the main thread wherever it is)."""
    _State.prompt += 1
    _State.script = script
    _State.stopping.clear()
    try:
        yield
    finally:
        _State.prompt -= 1
        _State.script = False
        _State.raising.clear()


def stopping() -> bool:
    """Whether a Ctrl-C has stopped the prompt's script (:func:`at_prompt`)."""
    return _State.stopping.is_set()


@contextmanager
def running_line() -> Iterator[None]:
    """A line of the prompt runs: a Ctrl-C before it is forgotten, and one that comes as it
    ends raises nothing once it has ended."""
    if _State.stopping.is_set():
        raise KeyboardInterrupt  # a script's Ctrl-C came as this line began: it does not run
    _State.requested.clear()
    _State.raising.clear()
    _State.taken.clear()
    _State.announced = False
    _State.lines += 1
    _State.line = _State.lines
    try:
        yield
    finally:
        _State.line = None
        _State.raising.clear()
        _end_commit()


def commit() -> None:
    """The command makes the change the user asked for now, and then only reports it: a
    Ctrl-C that came before stops the command here, before anything is written; one from
    now until the command (or the prompt's line) ends is not acted on."""
    with _State.lock:
        stopped = _State.requested.is_set()
        _State.committing = not stopped and _State.depth > 0
    while stopped:
        # The watcher raises KeyboardInterrupt in this thread (it is on its way), or ends
        # the process after GRACE; either way nothing is written.
        time.sleep(_RESEND)


def _end_commit() -> None:
    """A command or the prompt's line has ended: Ctrl-C is acted on again."""
    with _State.lock:
        _State.committing = False


def stop_at_start(signum: int, frame: FrameType | None) -> None:
    """SIGINT's handler for the whole program (:func:`rummikub.cli.run`): while it loads
    and reads its arguments a Ctrl-C ends it at once (nothing has begun: one line, exit
    130, not a traceback nor click's "Aborted!"); once a command has run, one that comes as
    the program ends is not acted on: the command ended as it would have."""
    if _State.began:
        return
    announce()
    # Not an exception: one raised in a callback of the import system is ignored there,
    # and the command would go on after "interrupted".
    os._exit(EXIT_STATUS)
