"""The ``rummikub`` command line: parse arguments, call the library, print."""

from __future__ import annotations

import signal


def run() -> None:
    """The ``rummikub`` program (:func:`rummikub.cli.main.run`), with Ctrl-C handled from
    its first line to its last (:func:`rummikub.cli.interrupt.stop_at_start`)."""
    from rummikub.cli import interrupt

    signal.signal(signal.SIGINT, interrupt.stop_at_start)
    try:
        from rummikub.cli.main import run as run_program

        run_program()
    finally:
        if hasattr(signal, "pthread_sigmask"):
            # The command has ended: a Ctrl-C now would only kill the interpreter as it
            # shuts down (its signal handlers are gone by then), after the work was done.
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
