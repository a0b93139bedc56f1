"""``rummikub serve``: the solver and the game companion as a web app (:mod:`rummikub.web`).

Needs the ``web`` extra (``pip install 'rummikub[web]'``); it loads only when the command
runs.
"""

from __future__ import annotations

import os
import sys
import threading

import click

from rummikub.cli.errors import fail


@click.command(
    help="""Serve the solver and your games as a web app, for a phone at the table.

\b
Prints the address to open; Ctrl-C stops it. By default it answers this
machine only (127.0.0.1). --host 0.0.0.0 lets a phone on the same network
in: the address printed then carries a random access token, and every
request without it is refused.
\b
The games are those of 'rummikub game' (RUMMIKUB_GAMES_DIR or --dir):
a game started in the terminal continues on the phone and back.
\b
Examples:
  rummikub serve
  rummikub serve --host 0.0.0.0 --port 8080
"""
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on (0: any free port).",
)
@click.option(
    "--dir",
    "directory",
    metavar="DIR",
    envvar="RUMMIKUB_GAMES_DIR",
    help="Folder of the games (default: RUMMIKUB_GAMES_DIR, else the user data folder).",
)
def serve(host: str, port: int, directory: str | None) -> None:
    """Listen, print the address, answer until Ctrl-C."""
    # Not under the commands' guard (rummikub.cli.errors): a server owns its Ctrl-C, which
    # stops it gracefully (uvicorn: requests answered, advice workers ended); its only
    # error before it runs is an address it cannot listen on.
    from rummikub.models.errors import RummikubError

    try:
        from rummikub.web.server import listen
    except ImportError as error:
        fail(
            f"rummikub serve needs the web extra ({error.name} is missing): "
            "pip install 'rummikub[web]'"
        )
    try:
        listening = listen(host, port, directory)
    except RummikubError as error:
        fail(str(error))
    click.echo(f"Serving on {listening.address}")
    if listening.config.token is None:
        click.echo("Open it in a browser on this machine; Ctrl-C stops it.")
    else:
        click.echo(
            "Open it on a phone on the same network (keep the token private); Ctrl-C stops it."
        )
    listening.run()
    click.echo("Stopped.")
    _end_without_waiting()


def _end_without_waiting() -> None:
    """A solve the stop cut short runs on in its thread until its own limit (up to a
    minute) and writes nothing: the program ends now rather than wait for it (found by
    review: 27 s after Ctrl-C, and a second Ctrl-C did not help)."""
    busy = [t for t in threading.enumerate() if not t.daemon and t is not threading.main_thread()]
    if any(t.is_alive() for t in busy):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
