"""The round the environments step a turn at a time: the arena's deal and ends, and the guard
that keeps an observation the player's view."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium", reason="the env extra: pip install 'rummikub[env]'")

from rummikub.arena.players import NeverPlay, SolverPlayer
from rummikub.envs.stepped import SteppedRound
from rummikub.game import DRAW, ArenaError, GameConfig, GameResult, Player, play_game
from rummikub.models import RuleSet
from rummikub.models.errors import InternalError


def stepped(players: list[Player], seed: int, config: GameConfig) -> SteppedRound:
    game = SteppedRound(config, len(players))
    game.deal(seed)
    while not game.over:
        game.play(players[game.current], f"player{game.current}")
    return game


def same_round(game: SteppedRound, played: GameResult) -> None:
    result = game.result
    assert result is not None and result == played.rounds[0]


@pytest.mark.parametrize("seed", [0, 1])
def test_a_round_that_goes_out_ends_as_the_arenas(seed: int) -> None:
    config = GameConfig()
    game = stepped([SolverPlayer(), SolverPlayer()], seed, config)
    assert game.result is not None and game.result.reason == "out"
    same_round(game, play_game([SolverPlayer(), SolverPlayer()], seed, config))


def test_a_blocked_round_ends_as_the_arenas() -> None:
    # Nobody plays: the pool runs out, then a full rotation passes; the lowest rack wins.
    config = GameConfig(rules=RuleSet(numbers=6, rack_size=5))
    game = stepped([NeverPlay(), NeverPlay()], 4, config)
    assert game.result is not None and game.result.reason == "blocked"
    assert not game.state.pool and game.state.passes == 2
    same_round(game, play_game([NeverPlay(), NeverPlay()], 4, config))
    with pytest.raises(ArenaError, match="round is over"):
        game.play(NeverPlay(), "late")


def test_the_game_must_show_the_player_the_view_it_observed() -> None:
    game = SteppedRound(GameConfig(), 2)
    game.deal(3)
    other = game.view((game.current + 1) % 2)
    with pytest.raises(InternalError, match="view differs"):
        game.play_seen(other, DRAW, "player")
    game.play_seen(game.view(), DRAW, "player")
    assert game.last is not None and game.last.action == "draw"
