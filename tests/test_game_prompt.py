"""The interactive prompt (``rummikub game NAME``) in a real pseudo-terminal."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rummikub.cli.main import main

pexpect = pytest.importorskip("pexpect")

RACK = "r3 r4 k9 b9 o9 j k1 k2 b5 b6 o11 o12 r13 k13"
UP = "\x1b[A"
CLEAR_LINE = "\x15"  # ctrl-U
ESCAPE = "\x1b"


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
        child.expect("Tab completes commands and tiles")
        child.expect("opponent 1 to play")  # the prompt says whose turn it is
        child.send('table "r10 r11 r12 | k7 b7 o7"\r')
        child.expect("Recorded: opponent 1 played")
        child.expect("opponent 2 to play")  # the next prompt follows the game

        child.send("hist\t")  # a command completed from its start
        child.expect("history")
        child.send("\r")
        child.expect("2. opponent 1 played: table r10 r11 r12 \\| k7 b7 o7")

        child.send("draw r1\t")  # the tiles you could draw: unseen ones
        child.expect("r10")
        child.expect("r13")
        child.send(ESCAPE + CLEAR_LINE)

        child.send(UP)  # history: the last command comes back
        child.expect("history")
        child.send("\r")
        child.expect("1. new game")

        child.send("draw x9\r")  # a bad line: one error line, the prompt goes on
        child.expect("error: tile: not a tile: 'x9'")
        child.send("draw b7\r")
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
