"""The game files: damaged and cut-off files, and two processes writing one game at once."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.cli.main import main
from rummikub.game.companion import Drew, NewGame, OpponentDrew, Undo, state_json
from rummikub.game.store import (
    GameChangedError,
    GameFileError,
    GameStore,
    games_dir,
)
from rummikub.models.rules import STANDARD
from rummikub.models.tile import Tile

RACK = "r3 r4 k9 b9 o9 j k1 k2 b5 b6 o11 o12 r13 k13"


def _new(store: GameStore, name: str = "g") -> None:
    rack = tuple(Tile.parse(t) for t in RACK.split())
    store.create(name, NewGame(4, rack, STANDARD))


def _game_with_events(tmp_path: Path) -> tuple[GameStore, Path]:
    store = GameStore(tmp_path)
    _new(store)
    game = store.load("g")
    for tile in ("b7", "o1", "r9"):
        game = store.record(game, Drew(Tile.parse(tile)))
    return store, store.path("g")


def run(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["game", "--dir", str(tmp_path), *args])
    return result.exit_code, result.stdout, result.stderr


def test_the_default_folder_and_its_overrides(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("RUMMIKUB_GAMES_DIR", raising=False)
    assert games_dir().parts[-2:] == ("rummikub", "games")  # the user data folder
    monkeypatch.setenv("RUMMIKUB_GAMES_DIR", str(tmp_path / "env"))
    assert games_dir() == tmp_path / "env"
    assert games_dir(tmp_path / "flag") == tmp_path / "flag"


def test_a_file_cut_off_mid_line_goes_on_from_the_line_before(tmp_path: Path) -> None:
    store, path = _game_with_events(tmp_path)
    full = path.read_bytes()
    lines = full.splitlines(keepends=True)
    before = state_json(store.load("g").history.state)
    path.write_bytes(b"".join(lines[:-1]) + lines[-1][:17])  # the last write stopped halfway
    game = store.load("g")
    assert game.warning is not None and "line 4 is cut off mid-line" in game.warning
    three = GameStore(tmp_path / "ref")
    _new(three)
    ref = three.load("g")
    for tile in ("b7", "o1"):
        ref = three.record(ref, Drew(Tile.parse(tile)))
    assert state_json(game.history.state) == state_json(ref.history.state)
    assert state_json(game.history.state) != before
    code, out, err = run(tmp_path, "g", "show")  # the CLI warns on stderr and goes on
    assert "Game g" in out
    assert code == 0 and "warning:" in err and "cut off mid-line" in err
    code, _, err = run(tmp_path, "g", "draw", "--skip", "r9")
    assert code == 0, err
    assert path.with_name("g.jsonl.torn").read_bytes() == lines[-1][:17]  # kept, not lost
    assert path.read_bytes() == full  # the same game as before the cut
    assert store.load("g").warning is None


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (b'{"event":"draw","tile":"b7"\n', "line 3: not JSON"),
        (b'{"event":"draw","tile":"x7"}\n', "line 3: not a tile: 'x7'"),
        (b'{"event":"draw","tile":"r3"}\n{"event":"draw","tile":"r3"}\n', "line 4: 3 copies of r3"),
        (b'{"event":"jump"}\n', "line 3: unknown event 'jump'"),
        (b'{"event":"table","seat":1}\n', "line 3: 'table' event without 'table'"),
        (b'{"event":"table","seat":1,"table":"r1 r2 r3"}\n', "line 3: 'table' must be a list"),
        (b"[1, 2]\n", "line 3: not an event object"),
        (b'{"event":"new","players":4,"rack":[],"rules":{}}\n', "line 3: the game has already"),
        (b"\xff\xfe\n", "line 3: not JSON"),
    ],
)
def test_a_damaged_line_is_named_and_nothing_is_lost(
    tmp_path: Path, damage: bytes, reason: str
) -> None:
    store, path = _game_with_events(tmp_path)
    lines = path.read_bytes().splitlines(keepends=True)
    damaged = b"".join(lines[:2]) + damage + b"".join(lines[2:])
    path.write_bytes(damaged)
    with pytest.raises(GameFileError, match="line"):
        store.load("g")
    code, out, err = run(tmp_path, "g", "draw", "--skip", "o2")
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in out + err
    assert reason in err and str(path) in err
    assert path.read_bytes() == damaged  # nothing written, nothing removed
    code, _, err = run(tmp_path, "list")
    assert code == 0  # the other games stay usable; the damaged one says why
    path.write_bytes(b"".join(lines))  # the user removes the bad line: everything is back
    assert store.load("g").events == 4


def test_a_header_that_is_not_a_game(tmp_path: Path) -> None:
    path = tmp_path / "h.jsonl"
    path.write_bytes(b'{"event":"draw","tile":"b7"}\n')
    code, _, err = run(tmp_path, "h", "show")
    assert code == 2 and "line 1: a game starts with its 'new' event" in err
    path.write_bytes(b"")
    code, _, err = run(tmp_path, "h", "show")
    assert code == 2 and "empty game file" in err
    path.write_bytes(b'{"event":"new","players":9,"rack":["r1"],"rules":{}}\n')
    code, _, err = run(tmp_path, "h", "show")
    assert code == 2 and "line 1: a game has 2 to 4 players" in err
    path.write_bytes(b'{"event":"new","players":2,"rack":["r1"],"rules":{"wrapp":true}}\n')
    code, _, err = run(tmp_path, "h", "show")
    assert code == 2 and "unknown rule option 'wrapp'" in err


def test_a_write_on_a_stale_read_is_refused(tmp_path: Path) -> None:
    store, path = _game_with_events(tmp_path)
    first = store.load("g")
    second = store.load("g")
    store.record(first, OpponentDrew(1))
    content = path.read_bytes()
    with pytest.raises(GameChangedError, match="changed by another process"):
        store.record(second, Undo())
    assert path.read_bytes() == content


def _writer(folder: str, tile: str, barrier: object, results: object) -> None:
    store = GameStore(folder)
    game = store.load("g")
    barrier.wait()  # type: ignore[attr-defined]
    try:
        store.record(game, Drew(Tile.parse(tile)))
        results.put(("won", tile))  # type: ignore[attr-defined]
    except GameChangedError as error:
        results.put(("refused", str(error)))  # type: ignore[attr-defined]


def test_two_processes_write_one_game_at_once(tmp_path: Path) -> None:
    """Both read the same game, then write at the same moment: one wins, nothing corrupt."""
    store = GameStore(tmp_path)
    _new(store)
    path = store.path("g")
    context = multiprocessing.get_context("fork")
    for _ in range(3):
        before = path.read_bytes()
        lines = before.count(b"\n")
        barrier = context.Barrier(2)
        results = context.Queue()
        workers = [
            context.Process(target=_writer, args=(str(tmp_path), tile, barrier, results))
            for tile in ("b7", "o1")
        ]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(30)
            assert worker.exitcode == 0
        outcomes = sorted(results.get(timeout=5) for _ in workers)
        assert [o[0] for o in outcomes] == ["refused", "won"], outcomes
        assert "changed by another process" in outcomes[0][1]
        content = path.read_bytes()  # the old lines and the winner's, nothing else
        assert content.startswith(before) and content.count(b"\n") == lines + 1
        assert json.loads(content.splitlines()[-1]) == {"event": "draw", "tile": outcomes[1][1]}
        game = store.load("g")
        assert game.warning is None and game.events == lines + 1
        store.record(game, Undo())  # back to the deal: the next race starts from it again


def _busy_writer(folder: str, tiles: list[str], results: object) -> None:
    store = GameStore(folder)
    written = 0
    for tile in tiles:
        while True:
            try:
                store.record(store.load("g"), Drew(Tile.parse(tile)))
                written += 1
                break
            except GameChangedError:
                continue
    results.put(written)  # type: ignore[attr-defined]


def test_many_writers_that_retry_lose_nothing(tmp_path: Path) -> None:
    """Three processes each record three draws as fast as they can, retrying when refused."""
    store = GameStore(tmp_path)
    _new(store)
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    plan = [["b1", "b2", "b3"], ["o1", "o2", "o3"], ["r1", "r2", "r5"]]
    workers = [
        context.Process(target=_busy_writer, args=(str(tmp_path), tiles, results)) for tiles in plan
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    assert sorted(results.get(timeout=5) for _ in workers) == [3, 3, 3]
    game = store.load("g")
    assert game.events == 10 and game.warning is None
    drawn = sorted(str(t) for t in game.history.state.rack if str(t) not in RACK.split())
    assert drawn == sorted(t for tiles in plan for t in tiles)


def test_a_hand_edited_file_without_a_final_newline(tmp_path: Path) -> None:
    store, path = _game_with_events(tmp_path)
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    game = store.load("g")
    assert game.warning is None and game.events == 4  # the last line is whole JSON
    store.record(game, OpponentDrew(1))
    game = store.load("g")
    assert game.events == 5 and path.read_bytes().count(b"\n") == 5


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(cut=st.integers(min_value=0, max_value=10_000))
def test_a_file_cut_anywhere_keeps_every_whole_line(tmp_path_factory: Any, cut: int) -> None:
    """However much of the file a crash or a copy kept, every complete event before the cut
    is read back, and the game goes on from there."""
    folder = tmp_path_factory.mktemp("cut")
    store, path = _game_with_events(folder)
    full = path.read_bytes()
    at = cut % len(full) + 1  # at least one byte survives
    path.write_bytes(full[:at])
    if at < full.index(b"\n"):  # inside the first line: not even the game's start survived
        with pytest.raises(GameFileError):
            store.load("g")
        return
    game = store.load("g")
    whole = full[:at].count(b"\n")
    ends_clean = full[:at].endswith(b"\n") or full[at : at + 1] == b"\n"
    assert game.events == whole + (0 if full[:at].endswith(b"\n") else int(ends_clean))
    assert (game.warning is None) == ends_clean
    store.record(game, Drew(Tile.parse("o5")))  # the game takes new events
    assert store.load("g").warning is None


def test_a_failed_write_is_a_clear_error_and_leaves_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, path = _game_with_events(tmp_path)
    before = path.read_bytes()

    def disk_full(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("rummikub.game.store.os.replace", disk_full)
    code, _, err = run(tmp_path, "g", "draw", "--skip", "o5")
    assert code == 2 and err.startswith("error: cannot write") and "No space left" in err
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []  # no debris


def _hold_lock(lock_path: str, held: object, release: object) -> None:
    from filelock import FileLock

    with FileLock(lock_path):
        held.set()  # type: ignore[attr-defined]
        release.wait(30)  # type: ignore[attr-defined]


def test_a_game_locked_too_long_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, path = _game_with_events(tmp_path)
    before = path.read_bytes()
    context = multiprocessing.get_context("fork")
    held, release = context.Event(), context.Event()
    holder = context.Process(target=_hold_lock, args=(str(tmp_path / ".g.lock"), held, release))
    holder.start()
    try:
        assert held.wait(30)
        monkeypatch.setattr("rummikub.game.store.LOCK_SECONDS", 0.2)
        code, _, err = run(tmp_path, "g", "draw", "--skip", "o5")
        assert code == 2 and "game 'g' is locked by another process" in err
        assert path.read_bytes() == before
    finally:
        release.set()
        holder.join(30)
    assert run(tmp_path, "g", "draw", "--skip", "o5")[0] == 0  # free again


_JSON_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=False),
    st.sampled_from(["r3", "j", "j=r4", "x9", "r1-5", "", "k", "rbk7", "b99"]),
    st.text(max_size=8),
)
_JSON = st.recursive(
    _JSON_LEAF,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
_EVENT_LIKE = st.fixed_dictionaries(
    {
        "event": st.sampled_from(
            [
                "table",
                "drew",
                "draw",
                "play",
                "pass",
                "score",
                "round",
                "undo",
                "redo",
                "new",
                "nope",
            ]
        )
    },
    optional={
        k: _JSON for k in ("seat", "table", "tile", "racks", "rack", "first", "rules", "players")
    },
)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(event=_EVENT_LIKE)
def test_any_hand_edited_line_reads_or_is_named(tmp_path_factory: Any, event: object) -> None:
    """Whatever a hand-edited line holds, the game reads or the error names the line."""
    folder = tmp_path_factory.mktemp("fuzz")
    store = GameStore(folder)
    _new(store)
    path = store.path("g")
    path.write_bytes(path.read_bytes() + json.dumps(event).encode() + b"\n")
    try:
        game = store.load("g")
    except GameFileError as error:
        assert "line 2:" in str(error) and "\n" not in str(error)
    else:
        assert game.events == 2
