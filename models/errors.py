"""The one error hierarchy of the library: everything a user can get wrong, and the one
error for what no user can cause (a broken invariant: a bug)."""

from __future__ import annotations


class RummikubError(Exception):
    """Base class of every error the library raises on bad input or an impossible request."""


class NotationError(RummikubError, ValueError):
    """Text that is not valid tile, meld or position notation."""


class RulesError(RummikubError, ValueError):
    """A rule set whose options contradict each other or are out of range."""


class IllegalMeldError(RummikubError, ValueError):
    """A meld that is neither a legal group nor a legal run under the rules."""


class IllegalPositionError(RummikubError, ValueError):
    """A position that cannot occur: illegal melds, too many copies of a tile, too many jokers."""


class SolverError(RummikubError):
    """The optimiser could not produce an answer (for example a backend is missing)."""


class InternalError(RuntimeError):
    """A broken invariant of the library: a bug, never a user's mistake (the command line
    reports it as one, exit status 1)."""
