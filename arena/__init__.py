"""Strategies and tournaments: the built-in players and the planner, seat-rotated schedules
run in parallel, and the statistics that say who is stronger (intervals, Elo, SPRT).
"""

from rummikub.arena.planner import Planner, PlannerParams
from rummikub.arena.players import STRATEGIES, Strategy, make_player, strategy_names
from rummikub.arena.stats import DealSample, EloEstimate, Sprt, wilson
from rummikub.arena.tournament import TournamentConfig, TournamentResult, run_tournament

__all__ = [
    "STRATEGIES",
    "DealSample",
    "EloEstimate",
    "Planner",
    "PlannerParams",
    "Sprt",
    "Strategy",
    "TournamentConfig",
    "TournamentResult",
    "make_player",
    "run_tournament",
    "strategy_names",
    "wilson",
]
