"""The examples of README.md and docs/, run by the test suite through sybil.

Two kinds of fenced block are run, each as one test, each in a fresh temporary folder
that holds a copy of ``examples/`` (so ``examples/midgame.txt`` reads as it does from the
repository root, and whatever an example writes stays out of the repository):

* ``console``: lines starting with ``$ `` are shell commands (a line ending in ``\\`` goes on
  to the next), the lines after each are what it prints (stdout and stderr together, as on a
  terminal). Each command runs in ``bash`` with the installed ``rummikub`` first on PATH,
  ``HOME`` set to the block's folder and the games folder where ``rummikub game`` keeps
  them by default on Linux (``~/.local/share/rummikub/games``). A command must exit 0,
  except one whose output shows an error (an ``error:`` line, or an ``"error"`` key in JSON
  output), which must exit 2 (bad input).
* ``python``: a block that starts with ``>>>`` is a doctest (the whole block one test,
  its printed output compared); any other Python block is run and must print nothing.

Blocks share no state: each starts from a clean folder and namespace, so pytest-xdist may
run them on any worker in any order. Other fenced blocks (``bash``, ``text``, ``toml``,
``json``) are not run: install and development commands, and runs too long for a test.

What is compared (``mask``, applied alike to the expected and the actual output):

* figures that depend on the machine or the run: a duration (``13 ms``, ``0.4 s``,
  ``2 min``), a rate (``22.30 games/s``, ``1024 solves/s``), a worker count (``2 jobs``:
  the default is one per core); in JSON output the values of ``seconds`` and ``timing``;
* the block's folder, printed as ``/home/me`` (it stands in for the user's home);
* trailing spaces at the end of a line, and blank lines at the end of the output;
* ``...`` in the expected output stands for any text, several lines included (doctest's
  ELLIPSIS), to leave out the middle of a long output;
* output that is JSON (one value, or one per line) is compared as data, so the docs may
  lay it out on several lines; ``...`` is not allowed there.

A block preceded by ``<!-- slow -->`` is marked ``@pytest.mark.slow`` (the quick subset,
``pytest -m "not slow"``, leaves it out; CI runs it). A fenced block preceded by
``<!-- file: NAME -->`` is also written as ``NAME`` into the folder of every later runnable
block of its page (a player module that a console block then uses, say): the page's text
decides it, not the order the blocks run in.
"""

from __future__ import annotations

import contextlib
import difflib
import doctest
import io
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sybil import Document, Example, Region, Sybil
from sybil.parsers.markdown import CodeBlockParser

ROOT = Path(__file__).resolve().parent.parent
HOME = "/home/me"
SLOW_MARK = "<!-- slow -->"
_FILE_BLOCK = re.compile(
    r"<!-- file: (?P<name>[\w.-]+) -->\n```[^\n]*\n(?P<text>.*?)^```", re.MULTILINE | re.DOTALL
)
COMMAND_TIMEOUT = 300  # seconds: a hung command fails its example instead of the whole run

_DURATION = re.compile(r"(?<![\w.])\d+(?:\.\d+)? (?:ms|s|min)\b")
_RATE = re.compile(r"(?<![\w.])\d+(?:\.\d+)? (?:games|solves|turns)/s\b")
_JOBS = re.compile(r"(?<![\w.])\d+ jobs?\b")
_MASKED_JSON_KEYS = frozenset({"seconds", "timing"})


def mask(text: str, home: str | None = None) -> str:
    """``text`` with its machine-dependent figures masked and trailing spaces dropped."""
    if home:
        text = text.replace(home, HOME)
    text = _RATE.sub("<rate>", text)
    text = _DURATION.sub("<time>", text)
    text = _JOBS.sub("<jobs>", text)
    return "\n".join(line.rstrip() for line in text.splitlines()).strip("\n")


def _mask_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            key: "<masked>" if key in _MASKED_JSON_KEYS else _mask_json(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_mask_json(item) for item in value]
    return value


def json_values(text: str) -> list[Any] | None:
    """The JSON values ``text`` holds one after another, or None when it is not JSON."""
    decoder = json.JSONDecoder()
    values: list[Any] = []
    position, text = 0, text.strip()
    if not text.startswith(("{", "[")):
        return None
    while position < len(text):
        try:
            value, position = decoder.raw_decode(text, position)
        except json.JSONDecodeError:
            return None
        values.append(_mask_json(value))
        while position < len(text) and text[position].isspace():
            position += 1
    return values


def output_difference(want: str, got: str) -> str | None:
    """None when ``got`` (masked) is what ``want`` (masked) shows, else a readable diff."""
    want_values = json_values(want)
    if want_values is not None:
        got_values = json_values(got)
        if got_values == want_values:
            return None
        want, got = (
            "\n".join(json.dumps(v, indent=1) for v in values)
            for values in (want_values, got_values or [got])
        )
    elif doctest.OutputChecker().check_output(want + "\n", got + "\n", doctest.ELLIPSIS):
        return None
    diff = difflib.unified_diff(
        want.splitlines(), got.splitlines(), "expected", "actual", lineterm=""
    )
    return "\n".join(diff)


@dataclass(frozen=True)
class Command:
    """One ``$ `` command of a console block and the output the docs show for it."""

    line: int  # in the document, for messages
    command: str
    expected: str

    @property
    def expects_error(self) -> bool:
        """Whether the output shows an error: an ``error:`` line or a JSON ``"error"`` key."""
        lines = self.expected.splitlines()
        return any(line.lstrip().startswith(("error:", "Error:", '"error":')) for line in lines)


def parse_console(source: str, first_line: int) -> list[Command]:
    """The commands of a console block's text, each with the lines that follow it."""
    commands: list[Command] = []
    lines = source.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            raise ValueError(
                f"line {first_line + i}: a console block holds '$ ' commands and their output;"
                f" {lines[i]!r} comes before any command"
            )
        start = i
        command = lines[i][2:]
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command = command[:-1] + "\n" + lines[i]
        i += 1
        output: list[str] = []
        while i < len(lines) and not lines[i].startswith("$ "):
            output.append(lines[i])
            i += 1
        commands.append(Command(first_line + start, command, "\n".join(output)))
    return commands


def prepare_folder(folder: Path, files: tuple[tuple[str, str], ...] = ()) -> dict[str, str]:
    """Lay out ``folder`` for one example; the environment its commands run in."""
    shutil.copytree(ROOT / "examples", folder / "examples", dirs_exist_ok=True)
    for name, text in files:
        (folder / name).write_text(text, encoding="utf-8")
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"FORCE_COLOR", "CLICOLOR_FORCE", "NO_COLOR", "RAY_ADDRESS"}
        and not key.startswith(("RUMMIKUB_", "XDG_", "PYTEST_"))
    }
    scripts = Path(sys.executable).parent  # the virtualenv's bin/ (or Scripts\)
    env.update(
        PATH=os.pathsep.join([str(scripts), env.get("PATH", "")]),
        HOME=str(folder),
        RUMMIKUB_GAMES_DIR=str(folder / ".local" / "share" / "rummikub" / "games"),
        PYTHONUNBUFFERED="1",  # stdout and stderr interleave as on a terminal
        COLUMNS="100",
        LC_ALL="C.UTF-8",
        PYTHONIOENCODING="utf-8",
    )
    return env


def run_console(
    commands: list[Command], folder: Path, files: tuple[tuple[str, str], ...] = ()
) -> str | None:
    """Run the commands in order in ``folder``; the first failure, or None."""
    env = prepare_folder(folder, files)
    if shutil.which("rummikub", path=env["PATH"]) is None:
        return "the rummikub command is not installed (pip install -e .)"
    home = str(folder)
    for command in commands:
        done = subprocess.run(
            ["bash", "-c", command.command],
            cwd=folder,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=COMMAND_TIMEOUT,
            check=False,
        )
        got = mask(done.stdout.decode("utf-8", "replace"), home)
        difference = output_difference(mask(command.expected, home), got)
        wanted_status = 2 if command.expects_error else 0
        if difference is not None:
            return f"line {command.line}: $ {command.command}\n{difference}"
        if done.returncode != wanted_status:
            return (
                f"line {command.line}: $ {command.command}\nexit status {done.returncode},"
                f" expected {wanted_status}\n{got}"
            )
    return None


@dataclass(frozen=True)
class Block:
    """A runnable block: its text, where it starts, whether it is marked slow, its files."""

    source: str
    line: int
    slow: bool
    files: tuple[tuple[str, str], ...] = ()  # (name, text) of the page's file blocks before it


def _block(example: Example) -> Block:
    block = example.parsed
    assert isinstance(block, Block)
    return block


def _folder(example: Example) -> Path:
    folder = example.namespace["tmp_path"]
    assert isinstance(folder, Path)
    return folder


class _RunnableBlockParser(CodeBlockParser):
    """Fenced blocks of one language, each parsed into a ``Block``."""

    def __call__(self, document: Document) -> Any:
        file_blocks = [
            (match.start(), match["name"], match["text"])
            for match in _FILE_BLOCK.finditer(document.text)
        ]
        for region in super().__call__(document):
            assert isinstance(region, Region)
            before = document.text[: region.start].rstrip()
            line = document.text.count("\n", 0, region.start) + 2  # the block's first line
            files = tuple((name, text) for start, name, text in file_blocks if start < region.start)
            slow = before.endswith(SLOW_MARK)
            region.parsed = Block(str(region.parsed), line, slow, files)
            yield region


class ConsoleParser(_RunnableBlockParser):
    """``console`` blocks: shell commands and the output the docs show for them."""

    language = "console"

    def evaluate(self, example: Example) -> str | None:
        block = _block(example)
        commands = parse_console(block.source, block.line)
        return run_console(commands, _folder(example), block.files)


class _Checker(doctest.OutputChecker):
    """doctest's comparison after ``mask``."""

    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        return output_difference(mask(want), mask(got)) is None


class PythonParser(_RunnableBlockParser):
    """``python`` blocks: a doctest (``>>>``), or code that must print nothing."""

    language = "python"

    def evaluate(self, example: Example) -> str | None:
        block = _block(example)
        name = f"{Path(example.path).name}, line {block.line}"
        globs: dict[str, Any] = {"__name__": "__docs__"}
        prepare_folder(_folder(example), block.files)
        with contextlib.chdir(_folder(example)):
            if block.source.lstrip().startswith(">>>"):
                test = doctest.DocTestParser().get_doctest(
                    block.source, globs, name, example.path, block.line - 1
                )
                report = io.StringIO()
                runner = doctest.DocTestRunner(checker=_Checker(), optionflags=doctest.ELLIPSIS)
                result = runner.run(test, out=report.write, clear_globs=True)
                return report.getvalue() if result.failed else None
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                exec(compile(block.source, name, "exec"), globs)
        if printed.getvalue():
            shown = printed.getvalue()
            return f"{name}: prints output but shows none (write it as a doctest):\n{shown}"
        return None


def sybil() -> Sybil:
    """The README's and docs/' runnable examples, for pytest (see the root conftest.py)."""
    return Sybil(
        parsers=[ConsoleParser(), PythonParser()],
        path=str(ROOT),
        patterns=["README.md", "docs/*.md"],
        excludes=["benchmarks/*", "build/*", "site/*", ".venv/*", "tests/*"],
        fixtures=["tmp_path"],
        name="docs",
    )


def is_slow(example: Example) -> bool:
    """Whether a collected example is marked ``<!-- slow -->`` in its document."""
    return isinstance(example.parsed, Block) and example.parsed.slow
