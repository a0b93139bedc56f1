"""One advice run in a process of its own (``python -m rummikub.web.advice_worker``), so
the web app stays free while it thinks and a cancel can end it at once.

Reads one JSON object on stdin: the situation (``position`` as ``solve -`` reads it, the
opponents' rack sizes, whether each has opened, the pool) and how long to think; writes
:meth:`rummikub.analysis.advice.Advice.to_json` on stdout, or ``{"error": line}``.
"""

from __future__ import annotations

import json
import signal
import sys
from typing import Any


def advise_json(request: dict[str, Any]) -> dict[str, Any]:
    """The advice for one request object (see the module docstring)."""
    from rummikub.analysis.advice import Situation, advise
    from rummikub.models.position import Position

    situation = Situation(
        Position.from_json(request["position"]),
        tuple(int(size) for size in request["opponents"]),
        int(request["pool"]),
        tuple(bool(opened) for opened in request["opened"]),
    )
    advice = advise(
        situation,
        rollouts=None,
        seconds=float(request["seconds"]),
        seed=int(request["seed"]),
        model=str(request["model"]),
        executor="serial",  # this process is the worker: one core, ended by a cancel
    )
    return advice.to_json()


def main() -> None:
    """Answer the request on stdin."""
    from rummikub.models.errors import RummikubError

    if hasattr(signal, "pthread_sigmask"):
        # The server blocks its stop signals in every thread (web/server.py) and a child
        # inherits that: a cancel's SIGTERM would wait until the run had used all its time.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})

    try:
        answer = advise_json(json.loads(sys.stdin.read()))
    except RummikubError as error:
        answer = {"error": " ".join(str(error).split())}
    sys.stdout.write(json.dumps(answer))


if __name__ == "__main__":
    main()
