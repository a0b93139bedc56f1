"""The arena: play Rummikub games between strategies, run tournaments, measure who is stronger.

* :mod:`~rummikub.arena.game` — the engine (deal, turns checked by the validator, scoring);
* :mod:`~rummikub.arena.protocol` — what a player sees (:class:`PlayerView`) and answers;
* :mod:`~rummikub.arena.players` — built-in strategies and ``module:callable`` players;
* :mod:`~rummikub.arena.planner` — the ``planner`` strategy and its candidate moves;
* :mod:`~rummikub.arena.advice` — win chances of the candidates by rollouts (``advise``);
* :mod:`~rummikub.arena.record` / :mod:`~rummikub.arena.replay` — JSON Lines records;
* :mod:`~rummikub.arena.tournament` — seat-rotated schedules run in parallel;
* :mod:`~rummikub.arena.stats` — intervals with the deal as the unit, Elo, SPRT.
"""

from rummikub.arena.advice import Advice, AdviceError, Situation, advise
from rummikub.arena.errors import ArenaError, IllegalPlayError, RecordError
from rummikub.arena.game import (
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
from rummikub.arena.planner import Planner, PlannerParams
from rummikub.arena.players import STRATEGIES, Strategy, make_player, strategy_names
from rummikub.arena.protocol import DRAW, Action, Player, PlayerView, Reply
from rummikub.arena.record import GameRecorder, read_events, write_events
from rummikub.arena.replay import replay_file, replay_game
from rummikub.arena.stats import DealSample, EloEstimate, Sprt, wilson
from rummikub.arena.tournament import TournamentConfig, TournamentResult, run_tournament

__all__ = [
    "DRAW",
    "STRATEGIES",
    "Action",
    "Advice",
    "AdviceError",
    "ArenaError",
    "Deal",
    "DealSample",
    "EloEstimate",
    "GameConfig",
    "GameRecorder",
    "GameResult",
    "IllegalPlayError",
    "Planner",
    "PlannerParams",
    "Player",
    "PlayerView",
    "RecordError",
    "Reply",
    "RoundResult",
    "RoundState",
    "Situation",
    "Sprt",
    "Strategy",
    "TournamentConfig",
    "TournamentResult",
    "Turn",
    "advise",
    "deal_round",
    "make_player",
    "play_game",
    "play_round",
    "play_turn",
    "read_events",
    "replay_file",
    "replay_game",
    "run_tournament",
    "strategy_names",
    "wilson",
    "write_events",
]
