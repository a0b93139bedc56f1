"""A game of Rummikub: deal, turns checked by the validator, scoring, records and replay,
and the state of a real game followed turn by turn (the companion's events and store).
"""

from rummikub.game.errors import ArenaError, IllegalPlayError, RecordError
from rummikub.game.protocol import DRAW, Action, Player, PlayerView, Reply
from rummikub.game.record import GameRecorder, read_events, write_events
from rummikub.game.replay import replay_file, replay_game
from rummikub.game.rounds import (
    Deal,
    GameConfig,
    GameResult,
    RoundResult,
    RoundState,
    Turn,
    deal_round,
    play_game,
    play_round,
    play_turn,
)

__all__ = [
    "DRAW",
    "Action",
    "ArenaError",
    "Deal",
    "GameConfig",
    "GameRecorder",
    "GameResult",
    "IllegalPlayError",
    "Player",
    "PlayerView",
    "RecordError",
    "Reply",
    "RoundResult",
    "RoundState",
    "Turn",
    "deal_round",
    "play_game",
    "play_round",
    "play_turn",
    "read_events",
    "replay_file",
    "replay_game",
    "write_events",
]
