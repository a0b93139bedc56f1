"""What one running web app is set up with (``rummikub serve``'s options)."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})


def is_loopback(host: str) -> bool:
    """Whether ``host`` names loopback: ``localhost`` or a loopback address (not a name
    that merely starts like one, ``127.example.com``)."""
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class WebConfig:
    """The settings of one app.

    ``token``: the access token every request must carry (``?token=``, the cookie it sets,
    or ``Authorization: Bearer``); ``None`` serves without one, which :mod:`.server` allows
    only on loopback. ``loopback``: the app listens on loopback only, so a request's
    ``Host`` must name loopback (a page elsewhere cannot rebind its own name to this
    server). ``games_dir``: the companion's games folder (as ``rummikub game --dir``).
    """

    games_dir: str | None = None
    token: str | None = None
    loopback: bool = True
    max_seconds: float = 60.0  # the longest solve a request may ask for
    solve_seconds: float = 10.0  # a solve's time limit unless the request says otherwise
    advice_jobs: int = 2  # advice runs at once (each takes a core)
    max_advice_seconds: float = 300.0
