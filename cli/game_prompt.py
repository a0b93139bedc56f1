"""The interactive prompt of ``rummikub game NAME``: the game's commands, one per line.

It uses prompt_toolkit rather than the standard library's ``cmd``/``readline``:
``readline`` does not exist on Windows and is libedit with other key bindings on macOS,
while prompt_toolkit gives the same tile completion (a menu of the tiles that fit the
command), persistent history and colours on every platform and in any terminal. When
standard input is not a terminal the prompt reads plain lines instead, so a game can also
be driven by a script or a pipe. Each line runs the same click command as on the command
line, so the prompt and the shell cannot drift apart.
"""

from __future__ import annotations

import shlex
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

import click

from rummikub.cli import interrupt
from rummikub.cli.errors import InputError
from rummikub.cli.game_context import GAME_COMMANDS, game_name, game_store, load_game

if TYPE_CHECKING:
    from prompt_toolkit.completion import CompleteEvent, Completer, Completion
    from prompt_toolkit.document import Document

    from rummikub.game.companion import GameState

_PROMPT_HELP = (
    "Commands: " + ", ".join(GAME_COMMANDS) + "; 'help COMMAND' for one, 'quit' to leave. "
    "Tab completes commands, the table's melds and tiles."
)


def candidates(state: GameState | None, before: str) -> list[tuple[str, str]]:
    """What may follow ``before`` (the line up to the word being typed), each with a short
    note for the menu: commands; for ``table`` and ``play`` the table's melds (by number,
    and the whole table) and the tiles that could be on the new table; for ``placed``,
    ``draw`` and ``score`` the tiles you have not seen."""
    parts = before.split()
    if not parts:
        return [(c, "command") for c in (*GAME_COMMANDS, "help", "quit")]
    command = parts[0]
    if command in ("help", "?"):
        return [(c, "command") for c in GAME_COMMANDS] if len(parts) == 1 else []
    if state is None:
        return []
    if command in ("draw", "score", "placed"):
        return [(str(t), "unseen") for t in sorted(state.unseen())]
    if command not in ("table", "play"):
        return []
    from rummikub.game.table_edits import meld_text

    melds = [(meld_text(m), f"meld {n}") for n, m in enumerate(state.table, 1)]
    whole = [(" | ".join(text for text, _ in melds), "the whole table")] if melds else []
    there = Counter(state.table_tiles()) + (
        Counter(state.rack) if command == "play" else state.unseen()
    )
    tiles = [(str(t), "tile") for t in sorted(there)]
    return [*whole, *melds, *tiles, ("|", "between melds")]


def completions(state: GameState | None, before: str) -> list[str]:
    """The words that may follow ``before`` (:func:`candidates` without their notes)."""
    return [text for text, _ in candidates(state, before)]


def tile_completer(state: Callable[[], GameState | None]) -> Completer:
    """A prompt_toolkit completer of :func:`candidates` for the game's current state."""
    from prompt_toolkit.completion import Completer, Completion

    class TileCompleter(Completer):
        def get_completions(
            self, document: Document, complete_event: CompleteEvent
        ) -> Iterator[Completion]:
            word = document.get_word_before_cursor(WORD=True).lstrip("\"'")
            text = document.text_before_cursor
            before = text[: len(text) - len(word)].replace('"', " ").replace("'", " ")
            for candidate, note in candidates(state(), before):
                if candidate.startswith(word.lower()) and candidate != word:
                    yield Completion(candidate, start_position=-len(word), display_meta=note)

    return TileCompleter()


_STATUS = "rummikub.prompt_status"  # the worst exit status of a line so far


def _run_line(ctx: click.Context, line: str) -> bool:
    """Run one prompt line; False when the user asked to leave. A line that fails records
    its exit status (:func:`_failed`)."""
    try:
        args = shlex.split(line, comments=True)  # '# ...' notes in a script, as in a shell
    except ValueError as error:
        click.echo(f"error: {error}", err=True)
        return _failed(ctx, 2)
    if not args:
        return True
    if args[0] in ("quit", "exit", "q"):
        return False
    if args[0] in ("help", "?"):
        if len(args) == 1:
            click.echo(_PROMPT_HELP)
            return True
        args = [args[1], "--help"]
    if args[0] not in GAME_COMMANDS:
        click.echo(f"error: unknown command '{args[0]}'. {_PROMPT_HELP}", err=True)
        return _failed(ctx, 2)
    session = ctx.command  # the game's command group, whose callback runs this prompt
    if not isinstance(session, click.Group):
        raise TypeError("the prompt runs inside a game's command group")
    try:
        with (
            interrupt.running_line(),
            session.make_context(game_name(ctx), args, parent=ctx.parent) as sub,
        ):
            session.invoke(sub)
    except KeyboardInterrupt:  # Ctrl-C between the command's own guards: the same
        interrupt.announce()
        return _failed(ctx, interrupt.EXIT_STATUS)
    except click.ClickException as error:
        if isinstance(error, InputError):
            error.show()
        else:
            click.echo(f"error: {error.format_message()}", err=True)
        return _failed(ctx, error.exit_code or 2)
    except click.exceptions.Exit as error:
        return _failed(ctx, error.exit_code) if error.exit_code else True
    except click.exceptions.Abort:
        if interrupt.requested():  # click's question turns a Ctrl-C into Abort
            interrupt.announce()
            return _failed(ctx, interrupt.EXIT_STATUS)
        click.echo("aborted", err=True)
        return _failed(ctx, 1)
    except SystemExit as error:
        code = error.code if isinstance(error.code, int) else 1
        return _failed(ctx, code) if code else True
    return True


def _failed(ctx: click.Context, code: int) -> bool:
    """Note a failed line's exit status (the worst one is the prompt's when its lines come
    from a pipe, so a script can tell a rejected line); the prompt goes on."""
    ctx.meta[_STATUS] = max(ctx.meta.get(_STATUS, 0), code)
    return True


def _lines_from_terminal(ctx: click.Context, name: str) -> Iterable[str]:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.formatted_text import FormattedText
    from prompt_toolkit.history import FileHistory

    from rummikub.models.errors import RummikubError

    store = game_store(ctx)
    current: list[GameState | None] = [None]

    store.directory.mkdir(parents=True, exist_ok=True)
    prompt: PromptSession[str] = PromptSession(
        history=FileHistory(str(store.directory / f".{name}.history")),
        completer=tile_completer(lambda: current[0]),
        complete_while_typing=False,
    )
    while True:
        try:
            now = store.load(name).history.state
        except RummikubError:  # deleted or damaged meanwhile: the next command says how
            now = None
        current[0] = now
        status = now.status() if now else "unreadable"
        message = FormattedText(
            [("ansicyan bold", name), ("", " · "), ("ansiyellow", status), ("", " > ")]
        )
        try:
            yield prompt.prompt(message)
        except KeyboardInterrupt:
            continue
        except EOFError:
            return


def interactive(ctx: click.Context) -> None:
    """The prompt: the game's commands one per line, until 'quit' or end of input."""
    name = game_name(ctx)
    load_game(ctx)  # a missing or damaged game fails before the prompt opens
    ctx.meta["rummikub.interactive"] = True  # shared by every context: no prompt in a prompt
    script = not sys.stdin.isatty()
    if script:
        lines: Iterable[str] = _lines_from_pipe()
    else:
        click.echo(_PROMPT_HELP)
        lines = _lines_from_terminal(ctx, name)
    # On a terminal a Ctrl-C stops the line running and the prompt comes back; from a pipe
    # it stops the script, after the line running.
    with interrupt.at_prompt(script):
        for line in lines:
            if not _run_line(ctx, line) or interrupt.stopping():
                break
        if interrupt.stopping():
            interrupt.announce()
            ctx.exit(interrupt.EXIT_STATUS)
    if script and ctx.meta.get(_STATUS):
        ctx.exit(ctx.meta[_STATUS])


def _lines_from_pipe() -> Iterator[str]:
    """The script's lines; bytes that are not text in the input's encoding are kept as the
    command line keeps them (a line holding them is refused by its command, not the
    script)."""
    encoding = sys.stdin.encoding or "utf-8"
    for raw in sys.stdin.buffer:
        yield raw.decode(encoding, "surrogateescape").rstrip("\r\n")
