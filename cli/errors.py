"""How every command fails: one line on stderr, exit 2 for bad input, 1 for a bug.

A bug is anything the library raises once the input has been read and checked: a legal
position always has an answer. Its line says it is a bug and carries the position as JSON
(see :func:`answering`), so the report can be reproduced.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from rummikub.cli import interrupt

if TYPE_CHECKING:
    from rummikub.models.position import Position

F = TypeVar("F", bound=Callable[..., Any])
POSITION_KEY = "position"  # the position being answered, in the click context, for bug reports


class InputError(click.ClickException):
    """Bad input (or an illegal move): one line on stderr, exit status 2."""

    exit_code = 2

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


class InternalFailure(Exception):
    """The library failed on input it had accepted: a bug, whatever the error's class."""


class OneLineGroup(click.Group):
    """The ``rummikub`` group: click's own errors (an unknown option, a value out of its
    range) as one line on stderr like every other bad input, not its usage block."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command line; as a program, exit with its status."""
        run = functools.partial(super().main, args, prog_name, complete_var, False, **extra)
        if not standalone_mode:
            return run()
        try:
            status: object = run()
        except click.UsageError as error:
            where = f" (see '{error.ctx.command_path} --help')" if error.ctx else ""
            message = " ".join(error.format_message().split()).rstrip(".")
            click.echo(f"error: {message}{where}", err=True)
            sys.exit(error.exit_code)
        except click.ClickException as error:
            error.show()
            sys.exit(error.exit_code)
        except click.exceptions.Abort:  # click's: EOF at a question (Ctrl-C is ours)
            click.echo("Aborted!", err=True)
            sys.exit(1)
        # ``ctx.exit(n)`` returns n here; a command's own return value is no status.
        sys.exit(status if isinstance(status, int) else 0)


def fail(message: str) -> NoReturn:
    """Stop the command with a one-line error and exit status 2."""
    raise InputError(" ".join(message.split()))


def check_writable(path: str, option: str) -> None:
    """Stop with a one-line error unless the file that ``option`` names can be written."""
    if not path:
        fail(f"{option} needs a file name")
    folder = os.path.dirname(path) or "."
    if os.path.isdir(path):
        fail(f"cannot write {path}: it is a folder")
    if not os.path.isdir(folder):
        fail(f"cannot write {path}: no folder {folder}")
    if not os.access(path if os.path.exists(path) else folder, os.W_OK):
        fail(f"cannot write {path}: permission denied")


@contextmanager
def answering(position: Position) -> Iterator[None]:
    """Answer a checked position: any library error inside is a bug (exit 1), reported
    with the position."""
    from rummikub.models.errors import RummikubError

    context = click.get_current_context(silent=True)
    if context is not None:
        context.meta[POSITION_KEY] = position
    try:
        yield
    except RummikubError as error:
        raise InternalFailure(f"{type(error).__name__}: {error}") from error


def _bug_report(error: BaseException) -> str:
    """One line: what failed, that it is a bug, and the position (JSON) it failed on."""
    notes = " ".join(getattr(error, "__notes__", []))
    what = str(error) if isinstance(error, InternalFailure) else f"{type(error).__name__}: {error}"
    line = "internal error (a bug in rummikub; please report this line): " + " ".join(
        f"{what} {notes}".split()
    )
    context = click.get_current_context(silent=True)
    position = context.meta.get(POSITION_KEY) if context is not None else None
    if position is not None:
        try:
            line += "; position: " + json.dumps(position.to_json(), separators=(",", ":"))
        except Exception:  # the report must come out even if the position cannot print
            line += f"; position: {position}"
    return line


def guard(func: F) -> F:
    """Library errors become exit 2, anything unexpected exit 1; never a traceback. Ctrl-C
    stops the command (:mod:`rummikub.cli.interrupt`): one line, exit 130."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from rummikub.models.errors import RummikubError

        try:
            with interrupt.interruptible():
                return func(*args, **kwargs)
        except click.exceptions.Abort:
            if interrupt.requested():  # click's question turns a Ctrl-C into Abort
                _interrupted()
            raise
        except (click.exceptions.ClickException, click.exceptions.Exit):
            raise
        except KeyboardInterrupt:
            _interrupted()
        except RummikubError as error:
            if interrupt.requested():
                _interrupted()
            fail(str(error))
        except BrokenPipeError:
            # The reader stopped reading (`| head`): nothing more to say, and no bug.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(0)
        except Exception as error:  # the promise: no traceback, exit status 1
            if interrupt.requested():
                _interrupted()
            click.echo(_bug_report(error), err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


def _interrupted() -> NoReturn:
    """The command was interrupted: whatever the work raised on its way out (a worker pool
    that lost its workers, ...) is the interruption, not a bug. Exit 130."""
    interrupt.announce()
    sys.exit(interrupt.EXIT_STATUS)
