"""One game, two faces: a game started in the terminal continues on the web page and back,
each seeing what the other recorded (the same file, read again when it changed)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from web_harness import Client, seen_of, served

from rummikub.web.config import WebConfig

RACK = "r3 r4 k9 b9 o9 j k1 k2 b5 b6 o11 o12 r13 k13"


@pytest.fixture
def games(tmp_path: Path) -> Path:
    return tmp_path / "games"


@pytest.fixture
def client(games: Path) -> Iterator[Client]:
    with served(WebConfig(games_dir=str(games))) as web:
        yield web


def terminal(games: Path, *args: str) -> str:
    """``rummikub game --dir GAMES ARGS`` as typed in a terminal."""
    command = [sys.executable, "-m", "rummikub.cli", "game", "--dir", str(games), *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def shown(games: Path, name: str) -> dict[str, object]:
    data: dict[str, object] = json.loads(terminal(games, name, "show", "--json"))
    return data


@pytest.mark.slow
def test_terminal_then_web_then_terminal(client: Client, games: Path) -> None:
    terminal(games, "new", "friday", "--players", "3", "--rack", RACK, "--first", "1")
    terminal(games, "friday", "table", "r10 r11 r12 | k7 b7 o7")
    listing = client.get("/games")
    assert "friday" in listing.text and "opponent 2 to play" in listing.text
    page = client.get("/games/friday")
    assert "opponent 2 to play" in page.text and page.text.count('class="meld-number"') == 2
    reply = client.post("/games/friday/drew", {"seat": "2", "seen": seen_of(page)})
    assert reply.status == 303, reply.error
    assert shown(games, "friday")["to_play"] == 0  # the terminal sees the web's tap
    terminal(games, "friday", "draw", "b7")
    page = client.get("/games/friday")  # and the web the terminal's
    assert "you drew b7" in page.text and "opponent 1 to play" in page.text
    reply = client.post("/games/friday/undo", {"seen": seen_of(page)})
    assert reply.status == 303
    assert "b7" not in shown(games, "friday")["rack"]  # type: ignore[operator]
    history = terminal(games, "friday", "history")
    assert history.splitlines()[-1].endswith("opponent 2 drew")


def test_a_web_game_in_the_terminal(client: Client, games: Path) -> None:
    made = client.post("/games/new", {"name": "webgame", "players": "2", "rack": RACK})
    assert made.status == 303, made.error
    assert "webgame" in terminal(games, "list")
    state = shown(games, "webgame")
    assert state["to_play"] == 0 and len(state["rack"]) == 14  # type: ignore[arg-type]


def test_a_stale_web_page_after_a_terminal_write(client: Client, games: Path) -> None:
    terminal(games, "new", "race", "--players", "2", "--rack", RACK, "--first", "1")
    page = client.get("/games/race")
    terminal(games, "race", "drew")  # the terminal records while the page is open
    reply = client.post("/games/race/drew", {"seat": "1", "seen": seen_of(page)})
    assert reply.status == 409 and "changed since this page showed it" in reply.error
    assert "your turn" in reply.text  # the page shows the game as it is now
    assert terminal(games, "race", "history").count("drew") == 1


def test_a_page_of_a_deleted_game_records_nothing_in_its_namesake(
    client: Client, games: Path
) -> None:
    terminal(games, "new", "again", "--players", "2", "--rack", RACK, "--first", "1")
    page = client.get("/games/again")
    terminal(games, "delete", "again", "--yes")  # deleted and started again: as many events
    terminal(games, "new", "again", "--players", "3", "--rack", RACK, "--first", "1")
    reply = client.post("/games/again/drew", {"seat": "1", "seen": seen_of(page)})
    assert reply.status == 409 and "changed since this page showed it" in reply.error
    assert "drew" not in terminal(games, "again", "history")
