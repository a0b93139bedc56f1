"""The companion's games as the web app reads and writes them: the same files as
``rummikub game`` (:mod:`rummikub.game.store`), one writer per game at a time in this
process, and a page's taps checked against the game it was shown.

The store already refuses a write to a game another process changed since it was read
(:class:`~rummikub.game.store.GameChangedError`) and writes atomically under the game's
file lock, so the terminal and the web app can follow one game at once. On top of that:

* in this process, one lock per game: concurrent requests take their turns instead of
  refusing each other;
* a page sends the version of the game it showed (``seen``: its event count and a digest
  of its file); if the game has moved on since (another phone, the terminal, the same tap
  sent twice, or the game deleted and started again), the tap is refused with
  :class:`StaleGameError` rather than applied to a game the player did not see. A
  request without ``seen`` (a script) is applied to the game as it is, read again if another
  process wrote in between;
* a game is replayed from its file only when the file changed (its inode, size and time),
  since a long game replays in tens of milliseconds.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass

from rummikub.game.companion import Event, GameState, NewGame
from rummikub.game.store import GameChangedError, GameStore, StoredGame, check_name
from rummikub.models.errors import RummikubError

RETRIES = 5  # reads again after another process's write, for requests without ``seen``


class StaleGameError(RummikubError):
    """The game changed since the page that sent the request showed it."""


@dataclass(frozen=True)
class Recorded:
    """An event taken into a game: the game after it, the event, the state before it."""

    game: StoredGame
    event: Event
    before: GameState


_FileKey = tuple[int, int, int]


class GameDesk:
    """The games of one folder, for the web app's requests (thread-safe)."""

    def __init__(self, directory: str | None = None) -> None:
        self.store = GameStore(directory)
        self._guard = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        self._cache: dict[str, tuple[_FileKey, StoredGame]] = {}

    def _lock(self, name: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(check_name(name), threading.Lock())

    def _key(self, name: str) -> _FileKey | None:
        try:
            info = os.stat(self.store.path(name))
        except OSError:
            return None
        return (info.st_ino, info.st_size, info.st_mtime_ns)

    def names(self) -> list[str]:
        """The games in the folder, sorted."""
        return self.store.names()

    def load(self, name: str) -> StoredGame:
        """The game as its file holds it now."""
        with self._lock(name):
            return self._load(name)

    def _load(self, name: str) -> StoredGame:
        key = self._key(name)
        cached = self._cache.get(name)
        if key is not None and cached is not None and cached[0] == key:
            return cached[1]
        game = self.store.load(name)
        if key is not None and self._key(name) == key:  # not rewritten while it was read
            self._cache[name] = (key, game)
        return game

    def _keep(self, name: str, game: StoredGame) -> None:
        """Cache the game just written, if its file still holds exactly what was written
        (another process may have written after it)."""
        key = self._key(name)
        try:
            current = self.store.path(name).read_bytes()
        except OSError:
            return
        if key is not None and current == game.raw and self._key(name) == key:
            self._cache[name] = (key, game)

    def create(self, name: str, event: NewGame) -> StoredGame:
        """Start a game (refused if the name is taken)."""
        with self._lock(name):
            return self.store.create(name, event)

    def record(
        self, name: str, make: Callable[[GameState], Event], seen: str | None = None
    ) -> Recorded:
        """Take in the event ``make`` makes from the game's state and write it.

        ``seen``: the :attr:`~rummikub.game.store.StoredGame.version` of the game the request
        was made from; the event is refused with :class:`StaleGameError` if the game is not
        that version now.
        """
        with self._lock(name):
            for _ in range(RETRIES):
                game = self._load(name)
                if seen is not None and seen != game.version:
                    raise StaleGameError(
                        f"game '{name}' changed since this page showed it (another device or "
                        "the terminal recorded something): here it is now; nothing was recorded"
                    )
                before = game.history.state
                event = make(before)
                try:
                    after = self.store.record(game, event)
                except GameChangedError:
                    if seen is not None:
                        raise
                    self._cache.pop(name, None)
                    continue
                self._keep(name, after)
                return Recorded(after, event, before)
            raise GameChangedError(
                f"game '{name}' keeps changing under another process's writes; nothing written"
            )
