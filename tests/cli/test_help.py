"""Every command's ``--help`` states only options that command has, with defaults that hold.

Each command's help is read as a user reads it: a flag named in a line is an option of
that command, or of the command the line names (``rummikub game NAME best ...``); a
default the help text states is the option's default; and only a command that reads a
position says that the position's own rules are the default.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import click
import pytest
from click.testing import CliRunner

from rummikub.cli.main import main

FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]*[a-z]")
STATED_DEFAULT = re.compile(r"\(default: ([^)]*)\)|Default: ([^.]*)\.")


def commands(
    group: click.Group = main, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """Every command with the words that run it (a game's commands as ``game NAME cmd``)."""
    for name, command in sorted(group.commands.items()):
        words = (*path, name)
        yield words, command
        if isinstance(command, click.Group):
            yield from commands(command, words)
    if path == ("game",):
        from rummikub.cli.game import session

        for name, command in sorted(session.commands.items()):
            yield ("game", "NAME", name), command


def flags(command: click.Command) -> set[str]:
    """The command's option names, ``--x`` and ``--no-x`` alike."""
    found = {"--help"}
    for param in command.params:
        if isinstance(param, click.Option):
            found.update(o for o in (*param.opts, *param.secondary_opts) if o.startswith("--"))
    return found


def named(line: str) -> click.Command | None:
    """The command a help line names (``rummikub game friday best --json``), if any."""
    words = line.split("rummikub ", 1)[1].split() if "rummikub " in line else []
    command: click.Command = main
    for word in words:
        if not isinstance(command, click.Group):
            break
        if word in command.commands:
            command = command.commands[word]
        elif command.name == "game" and not word.startswith("-"):
            from rummikub.cli.game import session

            command = session  # a game's name
        else:
            break
    return None if command is main else command


def help_text(words: tuple[str, ...]) -> str:
    args = [w if w != "NAME" else "friday" for w in words]
    result = CliRunner().invoke(main, [*args, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    return result.output


ALL = list(commands())


@pytest.mark.parametrize("words,command", ALL, ids=[" ".join(w) for w, _ in ALL])
def test_help_names_only_options_the_command_has(
    words: tuple[str, ...], command: click.Command
) -> None:
    own = flags(command)
    for line in help_text(words).splitlines():
        # Before 'rummikub ...' a flag is this command's; after it, the named command's.
        head, _, tail = line.partition("rummikub ")
        other = named(line)
        theirs = flags(other) if other is not None else own
        for part, allowed in ((head, own), (tail, theirs)):
            for flag in FLAG.findall(part):
                assert flag in allowed, f"'{' '.join(words)} --help' names {flag}: {line.strip()}"


@pytest.mark.parametrize("words,command", ALL, ids=[" ".join(w) for w, _ in ALL])
def test_stated_defaults_hold(words: tuple[str, ...], command: click.Command) -> None:
    reads_a_position = any(p.name == "position" for p in command.params)
    for param in command.params:
        if not isinstance(param, click.Option) or not param.help:
            continue
        if "position's own rules" in param.help:
            assert reads_a_position, f"{' '.join(words)} {param.opts[0]}: no position here"
        for match in STATED_DEFAULT.finditer(param.help):
            stated = (match.group(1) or match.group(2)).strip()
            default = param.to_info_dict()["default"]  # None when the option has none
            if default is None or isinstance(default, bool) or callable(default):
                # No literal default: the text says what happens instead, and is not a
                # value the option would take.
                assert not re.fullmatch(r"[\d.]+", stated), (words, param.opts, stated)
            else:
                assert str(default) in stated, (words, param.opts, stated, default)
