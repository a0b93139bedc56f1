"""Serving the web app (``rummikub serve``): listen, say where, run until Ctrl-C.

On loopback (the default) the app answers this machine only and needs no token. On any
other address (``--host 0.0.0.0``, for a phone on the same network) it makes a random
access token, prints the address with it, and refuses every request without it.
"""

from __future__ import annotations

import logging
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import uvicorn

from rummikub.models.errors import RummikubError
from rummikub.web.config import WebConfig, is_loopback
from rummikub.web.security import new_token

GRACEFUL_SECONDS = 2  # open connections get this long after Ctrl-C


class ServeError(RummikubError):
    """The server cannot start: the address cannot be listened on."""


def _outward_address() -> str:
    """This machine's address on its network (no packet is sent), or its name."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
        address: str = probe.getsockname()[0]
        return address
    except OSError:
        return socket.gethostname()
    finally:
        probe.close()


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: any free port)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        raise ServeError(f"cannot listen on {host}: {error.strerror}") from None
    family, kind, proto, _, address = infos[0]
    listener = socket.socket(family, kind, proto)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind(address)
        listener.listen(128)
    except OSError as error:
        listener.close()
        raise ServeError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    listener.set_inheritable(True)
    return listener


@dataclass
class Listening:
    """A bound server, not yet answering: its address to print, then :meth:`run`."""

    listener: socket.socket
    config: WebConfig
    address: str

    def run(self) -> None:
        """Answer requests until Ctrl-C (or SIGTERM); then stop cleanly and return."""
        from rummikub.web.app import create_app  # the pages load once the address is out

        server = uvicorn.Server(
            uvicorn.Config(
                create_app(self.config),
                log_level="warning",
                access_log=False,
                timeout_graceful_shutdown=GRACEFUL_SECONDS,
                lifespan="on",
            )
        )
        quiet = _AnsweredCancels()
        logging.getLogger("uvicorn.error").addFilter(quiet)
        try:
            with _stopped_by_signals(server):
                server.run(sockets=[self.listener])
        except KeyboardInterrupt:  # where signals cannot be masked: uvicorn's own handling
            pass
        finally:
            logging.getLogger("uvicorn.error").removeFilter(quiet)
            self.listener.close()


class _AnsweredCancels(logging.Filter):
    """Drops uvicorn's "Cancel N running task(s), timeout graceful shutdown exceeded" at
    Ctrl-C: the app answers each such request "the server is stopping" (503), so the ERROR
    line told the terminal of a failure that was none."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Cancel %s running task(s)")


STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


@contextmanager
def _stopped_by_signals(server: uvicorn.Server) -> Iterator[None]:
    """Ctrl-C and SIGTERM stop ``server`` gracefully, whatever a solve did to their handlers.

    OR-Tools' CP-SAT sets a SIGINT handler of its own during each solve and leaves the
    default action behind, which would end the server outright (no answer to the open
    requests, no end to the advice workers). So the signals are blocked in every thread
    of the server (the threads it starts inherit the mask) and a watcher thread takes
    them: the first asks the server to stop, a second to stop at once.
    """
    if not hasattr(signal, "pthread_sigmask") or not hasattr(signal, "sigtimedwait"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    done = threading.Event()

    def watch() -> None:
        """Take the stop signals as they come: stop, then stop at once."""
        while not done.is_set():
            if signal.sigtimedwait(STOP_SIGNALS, 0.2) is not None:
                server.force_exit = server.should_exit
                server.should_exit = True

    watcher = threading.Thread(target=watch, name="stop-signals", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def listen(
    host: str = "127.0.0.1",
    port: int = 8000,
    games_dir: str | None = None,
    *,
    make_token: Callable[[], str] = new_token,
) -> Listening:
    """Bind ``host:port`` and make the app's settings; :class:`ServeError` if it cannot."""
    loopback = is_loopback(host)
    listener = _bind(host, port)
    bound = listener.getsockname()[1]
    token = None if loopback else make_token()
    config = WebConfig(games_dir=games_dir, token=token, loopback=loopback)
    shown = host if loopback else (_outward_address() if host in ("0.0.0.0", "::") else host)
    if ":" in shown:
        shown = f"[{shown}]"
    address = f"http://{shown}:{bound}/" + (f"?token={token}" if token else "")
    return Listening(listener, config, address)
