"""How every command fails: one line on stderr, exit 2 for bad input, 1 for a bug."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import IO, Any, NoReturn, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


class InputError(click.ClickException):
    """Bad input (or an illegal move): one line on stderr, exit status 2."""

    exit_code = 2

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


def fail(message: str) -> NoReturn:
    """Stop the command with a one-line error and exit status 2."""
    raise InputError(" ".join(message.split()))


def guard(func: F) -> F:
    """Library errors become exit 2, anything unexpected exit 1; never a traceback."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from rummikub.models.errors import RummikubError

        try:
            return func(*args, **kwargs)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except RummikubError as error:
            fail(str(error))
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)
        except Exception as error:  # the promise: no traceback, exit status 1
            notes = " ".join(getattr(error, "__notes__", []))
            message = " ".join(f"{type(error).__name__}: {error} {notes}".split())
            click.echo(f"internal error: {message}", err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]
