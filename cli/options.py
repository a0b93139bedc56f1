"""The options several commands share, each declared once: how long to search, where work
runs, how to print.

A time limit means one of three things, and every command's help says which:

* ``answer``: the wall-clock budget of the whole answer (``solve``, ``analyze``, the game's
  ``best``, ``play`` and ``placed``): :class:`rummikub.solver.Limit` ``seconds``, however many
  models the answer solves;
* ``turn``: the same budget for each turn of a review (``review``);
* ``work``: deterministic work per solver call (``arena``): CP-SAT's deterministic time, not
  the clock, so that a game replays the same on any machine under any load.

Choices that the library lists (the solver backends, the executors) are read from it when a
command first needs them, so that ``rummikub --help`` does not load the solver.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

DEFAULT_SECONDS = 10.0  # rummikub.solver.DEFAULT_TIME_LIMIT (tested equal; not imported: slow)
DEFAULT_WORK = 5.0  # rummikub.arena.players.TURN_WORK_LIMIT (tested equal)

_TIME_LIMIT_HELP = {
    "answer": "Wall-clock seconds for the whole answer (a ranking or an analysis solves many "
    "models within it); past it the best found is shown, marked as not proved.",
    "turn": "Wall-clock seconds for each turn's solve; an optimum not proved within it is "
    "reported as such.",
    "work": "Deterministic work per solver call, in CP-SAT seconds (about a second of work on "
    "one core): not the clock, so that games replay the same on any machine.",
}


class Number(click.FloatRange):
    """A number in a range, and finite: click's FloatRange lets ``nan`` (which no bound
    compares with) and ``inf`` through, and a time budget of either never ends."""

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


class LazyChoice(click.Choice[str]):
    """A choice whose values are read from the library on first use (not at import)."""

    def __init__(self, load: Callable[[], Sequence[str]]) -> None:
        self._load = load
        self._loaded: tuple[str, ...] | None = None
        super().__init__((), case_sensitive=True)

    @property
    def choices(self) -> tuple[str, ...]:
        """The values, loaded now if not yet."""
        if self._loaded is None:
            self._loaded = tuple(self._load())
        return self._loaded

    @choices.setter
    def choices(self, value: Sequence[str]) -> None:  # click sets it in __init__: ignored
        pass


def _backends() -> Sequence[str]:
    from rummikub.solver.backends import BACKENDS

    return BACKENDS


def _executors() -> Sequence[str]:
    from rummikub.arena.executors import EXECUTORS

    return EXECUTORS


def apply(func: F, options: Sequence[Callable[[Any], Any]]) -> F:
    """``func`` with ``options`` (click decorators) in the order listed in ``--help``."""
    for option in reversed(options):
        func = option(func)
    return func


def time_limit_option(budget: str, default: float = DEFAULT_SECONDS) -> Callable[[F], F]:
    """``--time-limit`` meaning ``budget`` (``answer``, ``turn`` or ``work``: the module
    docstring)."""
    return click.option(
        "--time-limit",
        type=Number(min=0.001, max=86400),
        default=default,
        show_default=True,
        help=_TIME_LIMIT_HELP[budget],
    )


def backend_option(func: F) -> F:
    """``--backend``: the solver backends of :data:`rummikub.solver.backends.BACKENDS`."""
    return click.option(
        "--backend",
        type=LazyChoice(_backends),
        default="cpsat",
        show_default=True,
        help="Solver: OR-Tools CP-SAT, or CBC / HiGHS through PuLP "
        "(HiGHS needs pip install 'rummikub[mip]').",
    )(func)


def jobs_option(default: int | None, what: str, default_text: str = "") -> Callable[[F], F]:
    """``--jobs/-j``: worker processes for ``what``."""
    text = f"Worker processes for {what}" + (
        f" (default: {default_text})." if default_text else "."
    )
    return click.option(
        "--jobs",
        "-j",
        type=click.IntRange(min=1, max=256),
        default=default,
        show_default=default is not None,
        help=text,
    )


def executor_options(what: str) -> Callable[[F], F]:
    """``--executor`` and ``--ray-address``: where ``what`` run."""

    def decorate(func: F) -> F:
        return apply(
            func,
            [
                click.option(
                    "--executor",
                    type=LazyChoice(_executors),
                    default="process",
                    show_default=True,
                    help=f"Where {what} run: local worker processes, a Ray cluster "
                    "(pip install 'rummikub[ray]'), or this process alone.",
                ),
                click.option(
                    "--ray-address",
                    default=None,
                    help="Ray cluster address (default: RAY_ADDRESS).",
                ),
            ],
        )

    return decorate


def json_option(help_text: str = "Print one JSON object.") -> Callable[[F], F]:
    """``--json``."""
    return click.option("--json", "as_json", is_flag=True, help=help_text)


def color_option(func: F) -> F:
    """``--color/--no-color``."""
    return click.option(
        "--color/--no-color", default=None, help="Colour the output (default: on a terminal)."
    )(func)


def progress_option(func: F) -> F:
    """``--progress/--no-progress``."""
    return click.option(
        "--progress/--no-progress",
        default=None,
        help="Progress bar on stderr (default: only on a terminal).",
    )(func)


def seed_option(what: str) -> Callable[[F], F]:
    """``--seed``: the seed of ``what``."""
    return click.option("--seed", type=int, default=0, show_default=True, help=f"Seed of {what}.")


def objective_options(func: F) -> F:
    """``--objective`` and ``--keep-jokers``: what the best move is."""
    return apply(
        func,
        [
            click.option(
                "--objective",
                type=click.Choice(["tiles", "value"]),
                default="tiles",
                show_default=True,
                help="Primary goal: most tiles placed, or most value placed.",
            ),
            click.option("--keep-jokers", is_flag=True, help="Hold jokers back unless they help."),
        ],
    )


def table_rack_options(initial_help: str) -> Callable[[F], F]:
    """``--table``, ``--rack`` and ``--initial``: a position typed on the command line."""

    def decorate(func: F) -> F:
        return apply(
            func,
            [
                click.option("--table", "-t", help="Table melds, e.g. 'k1-4 | o9-13 | rbk7'."),
                click.option("--rack", "-r", help="Rack tiles, e.g. 'o8 k13 j b2'."),
                click.option("--initial", is_flag=True, help=initial_help),
            ],
        )

    return decorate
