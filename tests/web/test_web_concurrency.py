"""Many players at one game at once: 20 clients making 100 requests each against one game
(pages, taps, undo and redo), while the terminal records into the same game. No server
error; every tap is either recorded once or refused with one line; the file holds exactly
the events that were answered as recorded, and still reads."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from web_harness import Client, Reply, seen_of, served

from rummikub.game.events import Drew, event_from_json
from rummikub.game.store import GameStore
from rummikub.web.config import WebConfig

CLIENTS = 20
REQUESTS = 100
RACK = "r3 r4 k9 b9 o9 j k1 k2 b5 b6 o11 o12 r13 k13"
TILES = [f"{c}{n}" for c in "kbro" for n in range(1, 14)]


@pytest.fixture
def games(tmp_path: Path) -> Path:
    return tmp_path / "games"


@pytest.fixture
def client(games: Path) -> Iterator[Client]:
    with served(WebConfig(games_dir=str(games))) as web:
        yield web


@dataclass
class Tally:
    """What one client was answered."""

    recorded: Counter[str] = field(default_factory=Counter)
    drawn: Counter[str] = field(default_factory=Counter)
    refused: Counter[int] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)


def _write(client: Client, rng: random.Random, seat: str, tally: Tally) -> Reply:
    kind = rng.choice(["drew", "draw", "undo", "redo"])
    fields = {"seat": seat} if kind == "drew" else {}
    tile = rng.choice(TILES)
    if kind == "draw":
        fields["tile"] = tile
    reply = client.post(f"/games/busy/{kind}", fields)
    if reply.status == 303:
        tally.recorded[kind] += 1
        if kind == "draw":
            tally.drawn[tile] += 1
    return reply


def _one_client(base: Client, number: int, tally: Tally) -> None:
    """100 requests: the game page, the list, and taps without a page's event count."""
    client = Client(base.host, base.port)
    rng = random.Random(number)
    seat = "1"
    for i in range(REQUESTS):
        started = time.perf_counter()
        if i % 2 == 0:
            reply = client.get("/games/busy" if i % 4 == 0 else "/games")
            found = re.search(r'name="seat" value="(\d)"', reply.text)
            seat = found.group(1) if found else seat
        else:
            reply = _write(client, rng, seat, tally)
        tally.seconds.append(time.perf_counter() - started)
        if reply.status >= 500 or (reply.status in (200, 303) and "Traceback" in reply.text):
            tally.errors.append(f"{reply.status}: {reply.text[:200]}")
        elif reply.status >= 400:
            tally.refused[reply.status] += 1
            if not reply.error or "\n" in reply.error:
                tally.errors.append(f"{reply.status} without one line: {reply.text[:200]}")


def _terminal(games: Path, stop: threading.Event, tally: Tally) -> None:
    """The same game's commands typed in a terminal meanwhile (each may be refused, as
    the game changed under it)."""
    command = [sys.executable, "-m", "rummikub.cli", "game", "--dir", str(games), "busy"]
    rng = random.Random(99)
    while not stop.is_set():
        kind = rng.choice(["undo", "redo", "drew"])
        done = subprocess.run([*command, kind], capture_output=True, text=True, timeout=60)
        if done.returncode == 0:
            tally.recorded[kind] += 1
        elif done.returncode != 2 or "Traceback" in done.stderr:
            tally.errors.append(f"terminal {kind}: exit {done.returncode}: {done.stderr}")


@pytest.mark.slow
def test_twenty_clients_and_the_terminal_at_one_game(client: Client, games: Path) -> None:
    created = client.post(
        "/games/new", {"name": "busy", "players": "4", "first": "1", "rack": RACK}
    )
    assert created.status == 303, created.error
    tallies = [Tally() for _ in range(CLIENTS + 1)]
    stop = threading.Event()
    terminal = threading.Thread(target=_terminal, args=(games, stop, tallies[-1]))
    threads = [
        threading.Thread(target=_one_client, args=(client, n, tallies[n])) for n in range(CLIENTS)
    ]
    started = time.perf_counter()
    terminal.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stop.set()
    terminal.join()
    elapsed = time.perf_counter() - started

    errors = [e for t in tallies for e in t.errors]
    assert not errors, errors[:5]
    stored = GameStore(games).load("busy")  # the file still reads, every line
    lines = (games / "busy.jsonl").read_text().splitlines()
    assert stored.events == len(lines) and stored.warning is None
    events = [event_from_json(json.loads(line)) for line in lines[1:]]
    expected = sum((t.recorded for t in tallies), Counter[str]())
    assert Counter(event.kind for event in events) == expected  # nothing lost or doubled
    drawn = Counter(str(event.tile) for event in events if isinstance(event, Drew))
    assert drawn == sum((t.drawn for t in tallies), Counter[str]())
    requests = CLIENTS * REQUESTS
    slowest = max(s for t in tallies for s in t.seconds)
    refused = sum((t.refused for t in tallies), Counter[int]())
    print(
        f"\n{requests} requests from {CLIENTS} clients in {elapsed:.1f} s "
        f"({requests / elapsed:.0f}/s, slowest {slowest * 1000:.0f} ms); "
        f"recorded {dict(expected)} (of which the terminal {dict(tallies[-1].recorded)}); "
        f"refused {dict(refused)}; {len(lines)} events in the file"
    )


def test_a_double_tap_records_once(client: Client, games: Path) -> None:
    """The same tap sent by 20 clients from one page: recorded once, refused 19 times."""
    client.post("/games/new", {"name": "busy", "players": "4", "first": "1", "rack": RACK})
    seen = seen_of(client.get("/games/busy"))
    answers: list[int] = []

    def tap() -> None:
        other = Client(client.host, client.port)
        answers.append(other.post("/games/busy/drew", {"seat": "1", "seen": seen}).status)

    threads = [threading.Thread(target=tap) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [303] + [409] * (CLIENTS - 1)
    assert (games / "busy.jsonl").read_text().count('"event":"drew"') == 1
