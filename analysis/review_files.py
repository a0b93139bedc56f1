"""What a review reads: the games of an arena record or of a companion game file, and the
review of such a file (each game, each player, or one of them)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from rummikub.analysis.review import (
    GameSource,
    RecordedGame,
    Review,
    ReviewError,
    TurnReview,
    parse_player,
    review_games,
)
from rummikub.analysis.review_companion import companion_game
from rummikub.game.record import read_events, whole_games
from rummikub.solver import DEFAULT_TIME_LIMIT


def record_games(
    lines: Iterable[str], warn: Callable[[str], None] | None = None
) -> list[GameSource]:
    """The games of a JSON Lines arena record, numbered as the record numbers them (a last
    game cut short left out, and ``warn`` told), or the one game of a companion game file
    (``rummikub game``)."""
    lines = list(lines)
    first = list(read_events([next((line for line in lines if line.strip()), "")]))
    if first and first[0].get("event") == "new":
        return [companion_game(list(read_events(lines)))]
    games, left_out = whole_games(lines)
    if not games:
        raise ReviewError(
            "the record holds no " + (f"whole game ({left_out})" if left_out else "game")
        )
    if left_out and warn is not None:
        warn(left_out)
    return [
        RecordedGame(int(game[0].get("game", place)), tuple(game))
        for place, game in enumerate(games)
    ]


def select_games(games: Sequence[GameSource], number: int | None) -> list[GameSource]:
    """All games, or the one numbered ``number``."""
    if number is None:
        return list(games)
    chosen = [g for g in games if g.number == number]
    if not chosen:
        numbers = [g.number for g in games]
        raise ReviewError(f"the record has no game {number} (games {min(numbers)}..{max(numbers)})")
    return chosen


def review_record(
    lines: Iterable[str],
    *,
    game: int | None = None,
    player: str | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
    executor: str = "serial",
    jobs: int = 1,
    progress: Callable[[TurnReview], None] | None = None,
) -> Review:
    """Review a JSON Lines record: every game (or game ``game``), every player (or the seat
    number or name ``player``)."""
    games = select_games(record_games(lines), game)
    return review_games(
        games,
        parse_player(player, games),
        time_limit=time_limit,
        executor=executor,
        jobs=jobs,
        progress=progress,
    )
