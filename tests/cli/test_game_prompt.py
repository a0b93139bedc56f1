"""The interactive prompt (``rummikub game NAME``) in a real pseudo-terminal."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from rummikub.cli.game_prompt import completions, tile_completer
from rummikub.cli.main import main
from rummikub.game.companion import History, NewGame, OpponentPlayed
from rummikub.models.meld import Meld
from rummikub.models.rules import STANDARD
from rummikub.models.tile import Tile

pexpect = pytest.importorskip("pexpect")

RACK = "r3 r4 k9 b9 o9 j k1 k2 b5 b6 o11 o12 r13 k13"
UP = "\x1b[A"
INTERRUPT = "\x03"  # ctrl-C
_CONTROL = r"(?:\x1b\[[0-9;?]*[A-Za-z])*"  # what a terminal may redraw between the letters


def on_screen(text: str) -> str:
    """A pattern for ``text`` as the terminal shows it, redrawn in pieces or not."""
    return _CONTROL.join(re.escape(c) for c in text)


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_the_prompt_in_a_pseudo_terminal(tmp_path: Path) -> None:
    created = CliRunner().invoke(
        main, ["game", "--dir", str(tmp_path), "new", "friday", "--rack", RACK, "--first", "1"]
    )
    assert created.exit_code == 0, created.output
    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "rummikub.cli", "game", "--dir", str(tmp_path), "friday"],
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(30, 100),
    )
    try:
        child.expect("Tab completes commands, the table's melds and tiles")
        child.expect("opponent 1 to play")  # the prompt says whose turn it is
        child.send("table r10 r11 r12 | k7 b7 o7\r")  # no quotes needed at the prompt
        child.expect("Recorded: opponent 1 played")
        child.expect("opponent 2 to play")  # the next prompt follows the game

        child.send("hist\t")  # a command completed from its start
        child.expect(on_screen("history"))
        child.send("\r")
        child.expect("2. opponent 1 played: table r10 r11 r12 \\| k7 b7 o7")

        child.send("draw r1\t")  # the tiles you could draw: unseen ones
        child.expect("r10")
        child.expect("r13")
        child.send(INTERRUPT)  # ctrl-C drops the line; the prompt comes back empty
        child.expect("opponent 2 to play")

        child.send(UP)  # history: the last command comes back
        child.expect(on_screen("history"))
        child.send("\r")
        child.expect("1. new game")

        child.send("draw x9\r")  # a bad line: one error line, the prompt goes on
        child.expect("error: tile: not a tile: 'x9'")
        child.send("draw b7\r")  # opponents 2 and 3 have not played: the prompt asks
        child.expect("opponent 2 and opponent 3 have not played yet: record that they drew\\?")
        child.send("y\r")
        child.expect("Recorded: you drew b7")

        child.send("show\r")
        child.expect("Your rack \\(15")
        child.expect("\x1b\\[31m")  # tiles in colour: red on a terminal
        child.send("quit\r")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    history = (tmp_path / ".friday.history").read_text()
    assert "history" in history and "draw b7" in history  # kept for the next session
    events = (tmp_path / "friday.jsonl").read_text().splitlines()
    assert len(events) == 3 and '"tile":"b7"' in events[-1]
    deleted = CliRunner().invoke(main, ["game", "--dir", str(tmp_path), "delete", "friday", "-y"])
    assert deleted.exit_code == 0 and not (tmp_path / ".friday.history").exists()


def test_completion_offers_commands_then_the_tiles_that_fit() -> None:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    rack = tuple(Tile.parse(t) for t in RACK.split())
    history = History.begin(NewGame(4, rack, STANDARD, first=1))
    state = history.record(OpponentPlayed(1, (Meld.parse("r3 r4 r5 r6 r7 r8"),))).state
    assert completions(state, "")[:4] == ["show", "placed", "table", "drew"]
    drawable = completions(state, "draw ")
    assert "r5" in drawable and "r3" not in drawable and "r4" not in drawable  # both seen
    assert completions(state, "placed ") == drawable  # what an opponent may hold
    # table: the table (whole, then meld by meld), then the tiles that could lie there
    on_table = completions(state, "table ")
    assert on_table[:2] == ["r3-8", "r3-8"] and "|" in on_table
    assert "r13" in completions(state, "table r10 r11 ")  # unseen: may be on a new table
    assert "r3" in completions(state, "play ")  # on the table and your rack: both seen

    completer = tile_completer(lambda: state)

    def complete(text: str) -> list[str]:
        found = completer.get_completions(Document(text), CompleteEvent(completion_requested=True))
        return [c.text for c in found]

    assert complete("hist") == ["history"]
    assert complete("draw r") == [t for t in drawable if t.startswith("r")]
    assert complete('table "o1') == ["o10", "o11", "o12", "o13"]  # inside the quotes too
    assert complete("undo ") == []
    assert complete("table r3") == ["r3-8", "r3-8"]  # the whole table, and meld 1


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_ctrl_c_stops_a_long_advise_and_the_prompt_comes_back(tmp_path: Path) -> None:
    """Ctrl-C in the prompt during advise (worker processes at work): one line,
    "interrupted", within a second or two; the workers end; the game as it was."""
    created = CliRunner().invoke(main, ["game", "--dir", str(tmp_path), "new", "friday",
                                        "--rack", RACK])  # fmt: skip
    assert created.exit_code == 0, created.output
    before = (tmp_path / "friday.jsonl").read_bytes()
    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "rummikub.cli", "game", "--dir", str(tmp_path), "friday"],
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(30, 100),
    )
    try:
        child.expect("your turn")
        child.send("advise --rollouts 5000 --jobs 2\r")
        deadline = time.monotonic() + 30
        while _workers(child.pid) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _workers(child.pid) == 2
        sent = time.monotonic()
        child.send(INTERRUPT)
        child.expect("interrupted")
        child.expect("your turn")  # the prompt is back
        assert time.monotonic() - sent < 3.0
        assert _workers(child.pid) == 0
        child.send("history\r")
        child.expect("1. new game")
        child.send("quit\r")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert (tmp_path / "friday.jsonl").read_bytes() == before


def _workers(pid: int) -> int:
    """The worker processes of ``pid`` (Python's resource tracker is not one)."""
    ps = ["ps", "-ww", "-o", "stat=,args=", "--ppid", str(pid)]
    found = subprocess.run(ps, capture_output=True, text=True).stdout.splitlines()
    return sum("spawn_main" in line and not line.startswith("Z") for line in found)


def _new_game(tmp_path: Path) -> None:
    args = ["game", "--dir", str(tmp_path), "new", "friday", "--rack", RACK, "--first", "1"]
    created = CliRunner().invoke(main, args)
    assert created.exit_code == 0, created.output


def test_a_piped_line_that_is_not_text_is_refused_alone(tmp_path: Path) -> None:
    # Found by review: under a strict UTF-8 input (a usual desktop locale) the whole script
    # ended as "a bug in rummikub", the lines before it not run.
    _new_game(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "rummikub.cli", "game", "--dir", str(tmp_path), "friday"],
        input=b"drew\r\nplaced k\xe91\nhistory\n",
        capture_output=True,
        env=dict(os.environ, PYTHONIOENCODING="utf-8"),
        timeout=120,
    )
    err = done.stderr.decode()
    assert done.returncode == 2 and err == "error: tiles: not a tile: 'k\\udce91' " + (
        "(write a colour letter and a number like r10, or j)\n"
    ), err
    assert b"2. opponent 1 drew" in done.stdout  # the lines around it ran


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_piped_script_after_its_line(tmp_path: Path) -> None:
    # Found by review: a Ctrl-C that came while a line wrote was dropped and the script
    # ran to its end; one between lines said "interrupted" while lines went on recording.
    import signal

    _new_game(tmp_path)
    log = tmp_path / "friday.jsonl"
    child = subprocess.Popen(
        [sys.executable, "-m", "rummikub.cli", "game", "--dir", str(tmp_path), "friday"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert child.stdin is not None and child.stderr is not None
    child.stdin.write(b"drew\nundo\n" * 3000)  # more than it records in the test's time
    child.stdin.close()
    deadline = time.monotonic() + 60
    while log.read_text().count("\n") < 20 and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(child.pid, signal.SIGINT)  # as a terminal sends it: to the whole group
    sent, at_ctrl_c = time.monotonic(), log.read_text().count("\n")
    assert child.wait(timeout=30) == 130
    assert time.monotonic() - sent < 3.0
    assert child.stderr.read().decode() == "interrupted\n"
    assert log.read_text().count("\n") <= at_ctrl_c + 2  # the line running, at most


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_ctrl_c_at_a_question_is_interrupted_not_aborted(tmp_path: Path) -> None:
    # Found by review: click's question turned the Ctrl-C into "aborted", status 1.
    args = ["game", "--dir", str(tmp_path), "new", "friday", "--rack", RACK, "--players", "3"]
    assert CliRunner().invoke(main, [*args, "--first", "1"]).exit_code == 0
    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm")
    for command in (["friday"], ["friday", "draw", "b7"]):  # at the prompt, then the shell
        child = pexpect.spawn(
            sys.executable,
            ["-m", "rummikub.cli", "game", "--dir", str(tmp_path), *command],
            env=env,
            encoding="utf-8",
            timeout=30,
            dimensions=(30, 100),
        )
        try:
            if len(command) == 1:
                child.expect("opponent 1 to play")
                child.send("draw b7\r")
            child.expect("record that they drew\\?")
            child.send(INTERRUPT)
            child.expect("interrupted")
            if len(command) == 1:
                child.expect("opponent 1 to play")  # the prompt is back
                child.send("quit\r")
            child.expect(pexpect.EOF)
            assert "aborted" not in (child.before or "").lower()
        finally:
            child.close()
        assert child.exitstatus == (0 if len(command) == 1 else 130)
    assert (tmp_path / "friday.jsonl").read_text().count("\n") == 1


def test_a_script_may_hold_notes_after_a_hash(tmp_path: Path) -> None:
    # Found by review: '# ...' was an unknown command, and a note after a command its
    # arguments; the docs' shell examples carry such notes.
    _new_game(tmp_path)
    script = "# opponent 1's turn\ndrew   # opponent 1 drew\nhistory\n"
    done = CliRunner().invoke(main, ["game", "--dir", str(tmp_path), "friday"], input=script)
    assert done.exit_code == 0, done.output
    assert "2. opponent 1 drew" in done.stdout
    assert completions(None, "? ") == completions(None, "help ")


STUCK = """
import os, sys
import rummikub.cli.game as game
show = game.session.commands["show"]
plain = show.callback
def stuck(*args, **kwargs):
    os.system("exec setsid -w sleep 8 >/dev/null 2>&1")  # in C, as a long solve in the main thread
    return plain(*args, **kwargs)
show.callback = stuck
sys.argv = ["rummikub", "game", "--dir", sys.argv[1], "friday"]
from rummikub.cli import run
run()
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_ends_a_piped_script_stuck_in_a_line(tmp_path: Path) -> None:
    # Found by review: once the script ran under the prompt's rules, a line stuck in C
    # (a long solve) could not be ended: not after the grace period, nor by a second Ctrl-C.
    import signal

    _new_game(tmp_path)
    script = tmp_path / "stuck.py"
    script.write_text(STUCK)
    child = subprocess.Popen(
        [sys.executable, str(script), str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert child.stdin is not None and child.stderr is not None
    child.stdin.write(b"show\ndrew\n")
    child.stdin.close()
    time.sleep(2.0)  # the show line is stuck
    os.killpg(child.pid, signal.SIGINT)
    sent = time.monotonic()
    assert child.wait(timeout=30) == 130
    assert time.monotonic() - sent < 4.0  # the grace period, not the 8 s
    assert child.stderr.read().decode() == "interrupted\n"
    assert (tmp_path / "friday.jsonl").read_text().count("\n") == 1  # no line after it ran
