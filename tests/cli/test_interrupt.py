"""Ctrl-C as a terminal sends it (SIGINT to the whole process group) during long commands:
each stops within seconds, ends its worker processes and says one line, "interrupted"."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rummikub.cli.main import main

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT are POSIX"),
    pytest.mark.slow,
]

STOP_WITHIN = 3.0  # seconds from Ctrl-C to the end of every process (the issue: "a second or two")
BIG = """rules: joker_rule=strict
table: r1-13 | b1-13 | k1-13 | o1-11 | j r5 r6 | b4 j b6 | k2-5 | o7 o8 o9
rack: r3 r4 r7 b7 b8 b9 k6 k7 k8 o10 o11 o12 k9 b10 r8 r9 o4 o5 o6 k10 o13 r12
"""
ADVISE = ["advise", "--table", "k1-4 | o9-13", "--rack", "o8 k13 j b2 r5 r6 r7 b9 k9 o3",
          "--opponents", "8 9", "--rollouts", "3000"]  # fmt: skip


def _alive(group: int) -> list[str]:
    """The processes of the group still running (a zombie has ended; nobody reaps it here)."""
    found = subprocess.run(
        ["ps", "-o", "pid=,stat=,args=", "-g", str(group)], capture_output=True, text=True
    ).stdout.splitlines()
    return [line for line in found if line.split()[1][0] != "Z"]


def _children(pid: int) -> int:
    found = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True)
    return len(found.stdout.split())


def interrupt(args: list[str], *, workers: int = 0, started: float = 2.0) -> tuple[int, str, float]:
    """Run ``rummikub ARGS`` in a process group of its own, wait until it works (``workers``
    worker processes up, or ``started`` seconds), send SIGINT to the group as a terminal's
    Ctrl-C does; its exit status, its stderr and the seconds until the group was gone."""
    code, _, err, seconds = interrupt_with_output(args, workers=workers, started=started)
    return code, err, seconds


def interrupt_with_output(
    args: list[str], *, workers: int = 0, started: float = 2.0
) -> tuple[int, str, str, float]:
    """:func:`interrupt`, with the command's stdout (second)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "rummikub.cli", *args],
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        if workers:
            while _children(process.pid) < workers + 1 and time.monotonic() < deadline:
                time.sleep(0.1)  # the workers and Python's resource tracker
            time.sleep(1.0)  # the workers have taken their first tasks
        else:
            time.sleep(started)
        assert process.poll() is None, "the command ended before it was interrupted"
        sent = time.monotonic()
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=30)
        while _alive(process.pid) and time.monotonic() - sent < 30:
            time.sleep(0.05)
        return process.returncode, out, err, time.monotonic() - sent
    finally:
        if _alive(process.pid):
            os.killpg(process.pid, signal.SIGKILL)


def _assert_stopped(code: int, err: str, seconds: float) -> None:
    assert code == 130, err
    assert err == "interrupted\n"  # one line: no traceback, no leaked-semaphore warning
    assert seconds < STOP_WITHIN


def test_advise_stops_and_ends_its_workers() -> None:
    _assert_stopped(*interrupt([*ADVISE, "--jobs", "2"], workers=2))


def test_advise_in_this_process_stops() -> None:
    _assert_stopped(*interrupt([*ADVISE, "--executor", "serial"]))


def test_an_arena_stops_and_ends_its_workers() -> None:
    args = ["arena", "--players", "optimal,greedy,human", "--games", "400", "--no-progress"]
    _assert_stopped(*interrupt([*args, "--jobs", "2"], workers=2))
    _assert_stopped(*interrupt([*args, "--jobs", "1"]))


def test_an_interrupted_arena_reports_and_keeps_the_games_it_finished(tmp_path: Path) -> None:
    from click.testing import CliRunner

    record, data = tmp_path / "r.jsonl", tmp_path / "r.json"
    args = ["arena", "--players", "max-tiles,greedy,human", "--games", "5000", "--sprt", "0,5",
            "--record", str(record), "--json-file", str(data), "--no-progress"]  # fmt: skip
    for jobs in ("2", "1"):
        code, out, err, seconds = interrupt_with_output([*args, "--jobs", jobs], started=4.0)
        _assert_stopped(code, err, seconds)
        games = json.loads(data.read_text())
        played = games["games"]
        assert 0 < played < 5000 and games["interrupted"] is True
        assert out.startswith(f"{played} games of 3 players")
        assert f"interrupted after {played} of 5000 games" in out
        sprt = games["sprt"]
        whole = f"{sprt['deals']} whole deals ({sprt['deal_games']} games of the two)"
        assert f"after {whole}; no decision yet (interrupted)" in out
        replayed = CliRunner().invoke(main, ["arena", "--replay", str(record), "--json"])
        assert json.loads(replayed.stdout)["games"] == played


def test_analyze_stops_in_the_middle_of_its_solves(tmp_path: Path) -> None:
    position = tmp_path / "big.txt"
    position.write_text(BIG)
    _assert_stopped(*interrupt(["analyze", str(position), "--time-limit", "30"], started=2.5))


def test_review_stops(tmp_path: Path) -> None:
    from click.testing import CliRunner

    record = tmp_path / "games.jsonl"
    made = CliRunner().invoke(
        main,
        ["arena", "--players", "optimal,greedy", "--games", "8", "--seed", "2", "--jobs", "1",
         "--record", str(record), "--no-progress"],
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    _assert_stopped(*interrupt(["review", str(record), "--no-progress", "--time-limit", "30"]))


# A game command whose store is slowed down at one point: ``where`` is "load" (before the
# event is written) or "record" (just after the write, before the report).
_SLOW_STORE = """
import sys, time
from pathlib import Path
from rummikub.game.store import GameStore
where, marker = sys.argv[1], Path(sys.argv[2])
original = getattr(GameStore, where)
def slow(*args, **kwargs):
    result = original(*args, **kwargs)
    marker.touch()
    time.sleep(1.5)
    return result
setattr(GameStore, where, slow)
sys.argv = ["rummikub", *sys.argv[3:]]
from rummikub.cli import run
run()
"""


@pytest.mark.parametrize("where", ["load", "record"])
def test_a_game_event_is_either_stored_and_reported_or_neither(tmp_path: Path, where: str) -> None:
    """Found by review: a Ctrl-C just after an event was written said "interrupted" (exit
    130), so the user typed it again and the game counted one turn too many."""
    from click.testing import CliRunner

    games, marker = tmp_path / "games", tmp_path / "marker"
    rack = "r3 r4 k9 b9 o9 j k1 k2 b5 b6 o11 o12 r13 k13"
    made = CliRunner().invoke(
        main, ["game", "--dir", str(games), "new", "g", "--players", "3", "--rack", rack,
               "--first", "1"],
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    before = (games / "g.jsonl").read_text()
    process = subprocess.Popen(
        [sys.executable, "-c", _SLOW_STORE, where, str(marker),
         "game", "--dir", str(games), "g", "drew"],
        start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not marker.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=30)
    stored = (games / "g.jsonl").read_text() != before
    if where == "load":  # before the write: nothing stored, and it says so
        assert (process.returncode, err, out, stored) == (130, "interrupted\n", "", False)
    else:  # written: the command ends as it would have, and says what it recorded
        assert (process.returncode, err, stored) == (0, "", True)
        assert out.startswith("Recorded: opponent 1 drew")


# The program with a Ctrl-C of its own before (or after) the command line runs.
_CTRL_C = """
import os, signal, sys, time
import rummikub.cli.main as program
command, when = program.run, sys.argv[1]
def run_with_ctrl_c():
    if when == "before":
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)
    try:
        command()
    finally:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.5)
program.run = run_with_ctrl_c
sys.argv = ["rummikub", "solve", "--table", "r1 r2 r3", "--rack", "r4"]
from rummikub.cli import run
run()
"""


def test_a_ctrl_c_while_the_program_loads_ends_it_in_one_line() -> None:
    """Before a command's handling begins (imports, reading the arguments) a Ctrl-C ends
    the program at once: "interrupted", exit 130; not a traceback, nor click's "Aborted!"
    with exit 1 (found by review). One as the command has ended changes nothing."""
    before = subprocess.run([sys.executable, "-c", _CTRL_C, "before"], capture_output=True)
    assert (before.returncode, before.stderr, before.stdout) == (130, b"interrupted\n", b"")
    after = subprocess.run([sys.executable, "-c", _CTRL_C, "after"], capture_output=True)
    assert (after.returncode, after.stderr) == (0, b"")
    assert after.stdout.startswith(b"Best move: place 1 tile")
