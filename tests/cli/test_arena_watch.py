"""The arena's record written game by game: after a Ctrl-C it holds the games counted,
whole, once each, whatever the moment the Ctrl-C came."""

from __future__ import annotations

from pathlib import Path

from rummikub.arena import TournamentConfig, run_tournament
from rummikub.cli.arena_watch import RecordFile, TournamentWatch, status_line
from rummikub.game.record import events_text, read_events, split_games

CONFIG = TournamentConfig(("human", "never-play"), games=3, seed=4, record=True)


def test_a_game_cut_short_or_not_yet_counted_is_dropped_and_written_again_once(
    tmp_path: Path,
) -> None:
    games = run_tournament(CONFIG, executor="serial").summaries
    whole = events_text(games[0].events).encode()
    for cut in (10, len(whole)):  # half a game written; the whole game, not yet counted
        path = tmp_path / f"r{cut}.jsonl"
        with RecordFile(str(path)) as record:
            record.write(games[0].events)
            assert record.handle is not None
            record.handle.write(events_text(games[1].events).encode()[:cut])
            record.writing = True
            record.repair()
            for game in games[1:]:
                record.write(game.events)
        found = split_games(read_events(path.read_text().splitlines()))
        assert [g[0]["game"] for g in found] == [0, 1, 2]


def test_the_watch_records_each_game_once_and_tallies_what_it_saw(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    with RecordFile(str(path)) as record:
        watch = TournamentWatch(CONFIG, record)
        result = run_tournament(CONFIG, executor="serial", progress=watch)
        partial = watch.interrupted()
    assert partial is not None and partial.interrupted
    assert partial.to_json(timing=False) == {**result.to_json(timing=False), "interrupted": True}
    assert len(split_games(read_events(path.read_text().splitlines()))) == 3
    assert status_line(result, short=True).startswith("Elo ")
    assert status_line(result).startswith("human vs never-play: Elo ")


def test_no_record_asked_for_writes_nothing(tmp_path: Path) -> None:
    with RecordFile(None) as record:
        watch = TournamentWatch(CONFIG, record)
        run_tournament(CONFIG, executor="serial", progress=watch)
        assert record.handle is None and record.games == 0
