"""Python's cyclic garbage collector, set for many solves by the owner of a process.

A solve builds thousands of objects that all stay alive until it returns, so the
collector's young-generation passes during it find nothing to free (they cost up to a
third of building the largest models); what a solve leaves behind is freed by reference
counting. A library call never changes the collector (another thread of the caller's may
depend on it); a program that owns its process (the command line, an arena worker) may
call :func:`collect_rarely` once at its start.
"""

from __future__ import annotations

import gc

# A young-generation pass every 50,000 net allocations instead of 700: rarely during a
# solve, still often enough for a long process to free its cycles.
YOUNG_THRESHOLD = 50_000


def collect_rarely() -> None:
    """Process-wide: keep the objects alive now out of every later pass (the program's
    modules and settings) and let young-generation passes come rarely."""
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
