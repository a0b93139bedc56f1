"""Where companion games live: one append-only event log (JSON Lines) per game.

A game named ``friday`` is the file ``friday.jsonl`` in the games folder: the user data
folder (``platformdirs``: ``~/.local/share/rummikub/games`` on Linux), or the folder named
by ``RUMMIKUB_GAMES_DIR`` or ``--dir``. Each line is one event of
:mod:`rummikub.game.companion`; undo and redo are events too, so nothing is ever removed.

Writes are atomic and serialised: a new event is checked against the game first, then,
holding the game's lock (a ``filelock`` lock file beside it), the file is read again and
must be exactly what the game was loaded from — otherwise another process changed the game
in between and the write is refused with :class:`GameChangedError` — and the old lines plus
the new one go to a temporary file that replaces the game in one rename. A reader therefore
sees the old game or the new one, never half a line; of two processes that write one game
at once, one wins and the other is told to look again.

Reading is forgiving where it can be and exact where it cannot: a last line cut off
mid-write (no newline, not complete JSON — a copy or an editor that stopped halfway) is set
aside in ``NAME.jsonl.torn`` at the next write and the game goes on from the line before,
with a warning; any other bad line stops with :class:`GameFileError` naming the file and
the line, the file untouched, so the events before it are never lost.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import platformdirs
from filelock import FileLock, Timeout

from rummikub.game.companion import (
    CompanionError,
    Event,
    History,
    IllegalEventError,
    NewGame,
    check_deal,
    check_typed,
    event_from_json,
)
from rummikub.models.errors import RummikubError

GAMES_DIR_ENV = "RUMMIKUB_GAMES_DIR"
SUFFIX = ".jsonl"
LOCK_SECONDS = 10.0
MAX_FILE_BYTES = 20_000_000  # a long match is ~100 KB; refuse anything absurd before parsing
TRASH = ".trash"  # deleted games, beside the games
RESERVED_NAMES = frozenset({"new", "list", "delete", "export"})
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


class GameFileError(CompanionError):
    """A game file that cannot be read: the message names the file and the line."""


class NoSuchGameError(CompanionError):
    """No game of that name in the games folder."""


class GameExistsError(CompanionError):
    """A new game would replace one that already exists."""


class GameChangedError(CompanionError):
    """Another process changed the game between reading it and writing to it."""


class BadGameNameError(CompanionError):
    """A name that cannot name a game (the file name it would give, or a command's name)."""


def games_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The games folder: ``override``, else ``$RUMMIKUB_GAMES_DIR``, else the user data folder."""
    if override:
        return Path(override)
    env = os.environ.get(GAMES_DIR_ENV)
    if env:
        return Path(env)
    return platformdirs.user_data_path("rummikub", appauthor=False) / "games"


def check_name(name: str) -> str:
    """``name`` if it can name a game, else :class:`BadGameNameError`."""
    if name in RESERVED_NAMES:
        raise BadGameNameError(f"'{name}' is a command, not a game name; choose another name")
    if not _NAME.fullmatch(name):
        shown = name if len(name) <= 40 else name[:40] + "..."
        raise BadGameNameError(
            f"bad game name {shown!r}: use up to 64 letters, digits, '-' and '_' "
            "(starting with a letter or digit)"
        )
    return name


@dataclass(frozen=True)
class StoredGame:
    """A game as read from its file: its history, and the bytes it was read from."""

    name: str
    path: Path
    history: History
    raw: bytes  # the file's content when read: a write must find exactly this
    events: int  # lines holding an event
    torn: bytes = b""  # a cut-off last line, ignored
    warning: str | None = None

    @property
    def kept(self) -> bytes:
        """The file's content without a cut-off last line."""
        return self.raw[: len(self.raw) - len(self.torn)]

    @property
    def version(self) -> str:
        """A short mark of exactly this content (the event count, then a digest of the
        bytes): a game deleted and started again under the same name, with as many
        events, has another."""
        return f"{self.events}-{hashlib.blake2b(self.raw, digest_size=8).hexdigest()}"


def _why_not_json(error: Exception) -> str:
    """Why a line could not be read as JSON, in a few words."""
    if isinstance(error, json.JSONDecodeError):
        return error.msg
    if isinstance(error, UnicodeDecodeError):
        return "not UTF-8 JSON"
    if isinstance(error, RecursionError):
        return "nested too deeply"
    return "a number too long to read"  # the one other ValueError of json.loads


def _lines(raw: bytes) -> Iterator[tuple[int, bytes, bool]]:
    """Each line with its number and whether it ended with a newline."""
    pieces = raw.split(b"\n")
    for number, piece in enumerate(pieces, 1):
        last = number == len(pieces)
        if last and not piece:
            return
        yield number, piece, not last


class GameStore:
    """The games in one folder."""

    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        self.directory = games_dir(directory)

    def path(self, name: str) -> Path:
        """The file of the game ``name``."""
        return self.directory / f"{check_name(name)}{SUFFIX}"

    def _lock(self, name: str) -> FileLock:
        return FileLock(str(self.directory / f".{check_name(name)}.lock"), timeout=LOCK_SECONDS)

    def names(self) -> list[str]:
        """The names of the games in the folder, sorted (none while it does not exist)."""
        if self.directory.exists() and not self.directory.is_dir():
            raise GameFileError(f"{self.directory}: not a folder (--dir names the games' folder)")
        if not self.directory.is_dir():
            return []
        return sorted(
            p.name[: -len(SUFFIX)]
            for p in self.directory.glob(f"*{SUFFIX}")
            if _NAME.fullmatch(p.name[: -len(SUFFIX)])
        )

    def create(self, name: str, event: NewGame) -> StoredGame:
        """Start a new game file (:class:`GameExistsError` if the name is taken)."""
        history = History.begin(event)  # checks the start before anything is written
        check_deal(event.rules, event.rack)
        path = self.path(name)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CompanionError(f"cannot create {self.directory}: {error.strerror}") from None
        line = _line(event)
        with self._locked(name):
            if path.exists():
                raise GameExistsError(
                    f"a game named '{name}' already exists (rummikub game delete {name}, or "
                    "choose another name)"
                )
            _write(path, line)
        return StoredGame(name, path, history, line, 1)

    def load(self, name: str) -> StoredGame:
        """Read a game and replay its events (:class:`GameFileError` names a bad line)."""
        path = self.path(name)
        try:
            with open(path, "rb") as handle:
                raw = handle.read(MAX_FILE_BYTES + 1)
        except FileNotFoundError:
            known = self.names()
            hint = f"; the games are {', '.join(known)}" if known else "; no games yet"
            raise NoSuchGameError(f"no game named '{name}' in {self.directory}{hint}") from None
        except OSError as error:
            raise GameFileError(f"cannot read {path}: {error.strerror}") from None
        if len(raw) > MAX_FILE_BYTES:
            raise GameFileError(f"{path}: larger than any game file ({MAX_FILE_BYTES} bytes)")
        return _parse(name, path, raw)

    def record(self, game: StoredGame, event: Event) -> StoredGame:
        """Take ``event`` into the game and append it to the file; returns the new game.

        The event is checked first (:class:`IllegalEventError`, nothing written); the write
        is refused with :class:`GameChangedError` if the file changed since ``game`` was read.
        """
        check_typed(game.history.state, event)
        history = game.history.record(event)
        line = _line(event)
        with self._locked(game.name):
            try:
                current = game.path.read_bytes()
            except FileNotFoundError:
                raise GameChangedError(
                    f"game '{game.name}' was deleted by another process; nothing written"
                ) from None
            if current != game.raw:
                raise GameChangedError(
                    f"game '{game.name}' was changed by another process since it was read; "
                    f"nothing written: look at it again ('show') and retry"
                )
            if game.torn:
                _write(game.path.with_name(game.path.name + ".torn"), game.torn)
            kept = game.kept
            if kept and not kept.endswith(b"\n"):  # hand-edited without a final newline
                kept += b"\n"
            content = kept + line
            _write(game.path, content)
        return replace(
            game, history=history, raw=content, events=game.events + 1, torn=b"", warning=None
        )

    def delete(self, name: str) -> Path:
        """Move a game's log to the trash folder beside the games (``.trash``), where it stays
        until moved back, and remove its lock file; returns where the log went
        (:class:`NoSuchGameError` if there is no such game)."""
        path = self.path(name)
        trash = self.directory / TRASH
        with self._locked(name):
            if not path.exists():
                raise NoSuchGameError(f"no game named '{name}' in {self.directory}")
            try:
                trash.mkdir(exist_ok=True)
                target = _unused(trash / f"{name}-{time.strftime('%Y%m%d-%H%M%S')}{SUFFIX}")
                os.replace(path, target)
                torn = path.with_name(path.name + ".torn")
                if torn.exists():
                    os.replace(torn, target.with_name(target.name + ".torn"))
            except OSError as error:
                raise CompanionError(
                    f"cannot move game '{name}' to {trash}: {error.strerror or error}; "
                    "nothing deleted"
                ) from None
        # The lock file is left by every write (filelock keeps it); a deleted game leaves none.
        Path(self._lock(name).lock_file).unlink(missing_ok=True)
        return target

    def _locked(self, name: str) -> _Locked:
        return _Locked(self._lock(name), name)


def _unused(path: Path) -> Path:
    """``path``, or the same name with a number added if that file exists."""
    candidate, number = path, 1
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{path.stem}-{number}{path.suffix}")
    return candidate


def _write(path: Path, content: bytes) -> None:
    """Replace ``path`` by ``content`` in one rename, after the bytes are on disk."""
    try:
        _replace(path, content)
    except OSError as error:
        raise CompanionError(
            f"cannot write {path}: {error.strerror or error}; the game is as it was"
        ) from None


def _replace(path: Path, content: bytes) -> None:
    """Write ``content`` to a new file beside ``path`` and rename it over ``path``."""
    handle = tempfile.NamedTemporaryFile(  # noqa: SIM115 - renamed or removed below
        dir=path.parent, prefix=f".{path.name}.", suffix=".tmp", delete=False
    )
    try:
        with handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(handle.name, path)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise
    _sync_dir(path.parent)


class _Locked:
    """The game's lock held for a ``with`` block; a lock held too long is a clear error."""

    def __init__(self, lock: FileLock, name: str) -> None:
        self.lock = lock
        self.name = name

    def __enter__(self) -> None:
        try:
            self.lock.acquire()
        except Timeout:
            raise CompanionError(
                f"game '{self.name}' is locked by another process (waited {LOCK_SECONDS:.0f} s)"
            ) from None
        except OSError as error:
            raise CompanionError(f"cannot lock game '{self.name}': {error.strerror}") from None

    def __exit__(self, *exc: object) -> None:
        self.lock.release()


def _sync_dir(directory: Path) -> None:
    """Make a rename durable (POSIX); a no-op where folders cannot be opened."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _line(event: Event) -> bytes:
    return (json.dumps(event.to_json(), separators=(",", ":")) + "\n").encode()


def _parse(name: str, path: Path, raw: bytes) -> StoredGame:
    history: History | None = None
    events = 0
    torn = b""
    warning = None
    for number, data, complete in _lines(raw):
        if not data.strip():
            continue
        try:
            # utf-8-sig: a file saved by an editor that starts it with a byte-order mark
            obj = json.loads(data.decode("utf-8-sig" if number == 1 else "utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as error:
            if not complete:  # the last write or copy stopped mid-line
                torn = data
                warning = (
                    f"{path} line {number} is cut off mid-line; ignored (the game goes on from "
                    f"line {number - 1}; the piece is kept in {path.name}.torn at the next write)"
                )
                break
            raise _bad_line(path, number, f"not JSON ({_why_not_json(error)})") from None
        try:
            event = event_from_json(obj)
            if history is not None:  # as recorded: see companion.apply's written_order
                history = history.record(event, written_order=False)
            elif isinstance(event, NewGame):
                history = History.begin(event)
            else:
                raise IllegalEventError(f"a game starts with its 'new' event, not '{event.kind}'")
        except RummikubError as error:
            raise _bad_line(path, number, str(error)) from None
        events += 1
    if history is None:
        if torn:  # its only line has no end: cut off mid-write, or not a game file at all
            raise GameFileError(
                f"{path}: no complete line (a game file is JSON lines, the first its 'new' event)"
            )
        raise GameFileError(f"{path}: empty game file (no 'new' event)")
    return StoredGame(name, path, history, raw, events, torn, warning)


def _bad_line(path: Path, number: int, reason: str) -> GameFileError:
    return GameFileError(
        f"{path} line {number}: {' '.join(reason.split())} (the file is left as it is: fix or "
        f"remove that line)"
    )
