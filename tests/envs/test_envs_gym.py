"""``rummikub/Rummikub-v0``, one learner against arena strategies: Gymnasium's check_env, games
to their end with every move checked, seeded replays, rewards, illegal actions."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the env extra: pip install 'rummikub[env]'")

import gymnasium
from gymnasium.utils.env_checker import check_env
from turn_checks import check_turn

from rummikub.envs import RummikubEnv  # importing rummikub.envs registers the environment
from rummikub.envs.scoring import worst_score
from rummikub.game import ArenaError, Turn
from rummikub.models import STANDARD


def make(**kwargs: Any) -> RummikubEnv:
    env = gymnasium.make("rummikub/Rummikub-v0", **kwargs).unwrapped
    assert isinstance(env, RummikubEnv)
    return env


@pytest.mark.parametrize("opponents", [("planner",), ("max-tiles", "hold-back", "planner")])
def test_check_env_passes(opponents: tuple[str, ...]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(make(opponents=opponents))
    assert [str(w.message) for w in caught] == []


def checked(env: RummikubEnv) -> list[Turn]:
    """Every turn the round plays from now on, each checked by the validator as it comes."""
    turns: list[Turn] = []
    game = env.round
    play = game.play

    def play_checked(player: Any, name: str) -> Turn:
        before = game.view().position()
        turn = play(player, name)
        check_turn(before, turn, game.state)
        turns.append(turn)
        return turn

    game.play = play_checked  # type: ignore[method-assign]
    return turns


def play_out(env: RummikubEnv, seed: int) -> tuple[float, dict[str, Any], list[Any]]:
    """Random masked actions to the end; the last reward and info, and what was seen."""
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen: list[Any] = [observation["observation"].tolist()]
    while True:
        mask = observation["action_mask"]
        assert (env.action_masks() == mask).all() and set(np.flatnonzero(mask)) == set(
            info["moves"]
        )
        action = int(rng.choice(np.flatnonzero(mask)))
        observation, reward, terminated, truncated, info = env.step(action)
        seen.append((observation["observation"].tolist(), reward, info))
        assert not truncated
        if terminated:
            return reward, info, seen
        assert reward == 0.0


@pytest.mark.parametrize(
    "opponents", [("planner",), ("max-tiles", "human"), ("hold-back", "planner", "sets-only")]
)
def test_games_against_arena_strategies_reach_their_end(opponents: tuple[str, ...]) -> None:
    env = make(opponents=opponents)
    turns = checked(env)
    reward, info, _ = play_out(env, seed=21)
    result = env.round.result
    assert result is not None and turns and {t.seat for t in turns} == set(range(env.round.players))
    assert reward == result.scores[0] and info["scores"] == result.scores
    assert info["winner"] == result.winner and info["reason"] == result.reason
    penalties = [STANDARD.rack_penalty(rack) for rack in result.racks]
    assert result.scores[result.winner] == sum(penalties) - penalties[result.winner]


def test_a_seeded_reset_replays_exactly() -> None:
    env = make(opponents=("planner", "max-tiles"))
    first = play_out(env, seed=4)
    play_out(env, seed=9)
    assert play_out(env, seed=4) == first
    assert play_out(make(opponents=("planner", "max-tiles")), seed=4) == first


def test_the_opponents_move_before_the_learners_first_turn() -> None:
    for seed in range(6):
        env = make(opponents=("max-tiles", "max-tiles"))
        turns = checked(env)
        env.reset(seed=seed)
        assert env.round.current == 0 and len(turns) == (3 - env.round.first) % 3
        assert all(t.seat != 0 for t in turns)


def test_a_round_over_before_the_learners_turn_is_dealt_again() -> None:
    # Racks of two tiles, sets of two: an opponent holding a set goes out on its first turn.
    rules = "colours=2 numbers=4 min_len=2 rack_size=2 threshold=0"
    env = make(opponents=("max-tiles",), rules=rules)
    redealt = 0
    for seed in range(40):
        env.reset(seed=seed)
        assert not env.round.over and env.round.current == 0
        redealt += env.round.seed != seed
    assert redealt  # some deals were won by the opponent at once


def test_an_action_the_mask_rules_out_ends_the_episode() -> None:
    env = make()
    observation, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    observation, reward, terminated, truncated, info = env.step(illegal)
    assert terminated and not truncated and info == {"illegal_action": illegal}
    assert reward == worst_score(STANDARD) and not observation["action_mask"].any()
    with pytest.raises(ArenaError, match="reset"):
        env.step(0)


@pytest.mark.parametrize("action", [np.int64(0), np.array(0), np.array([0]), 0])
def test_an_action_is_an_integer_of_the_space(action: Any) -> None:
    env = make()
    env.reset(seed=1)
    env.step(action)  # the draw, as any integer type gives it
    env.reset(seed=1)
    # Found by review: 2.9 played action 2, and 6 or -1 ended the episode as an illegal
    # move; neither is an action of Discrete(6) at all.
    for wrong in (2.9, "2", False, np.array([1, 2])):
        with pytest.raises(TypeError, match="integer index"):
            env.step(wrong)  # type: ignore[arg-type]
    for outside in (6, -1):
        with pytest.raises(ValueError, match="out of range"):
            env.step(outside)
    assert env.step(0)[2] is False  # the episode goes on


def test_render_modes() -> None:
    env = make(render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text is not None and "* learner" in text and "  planner" in text


def test_opponents_are_checked_when_the_environment_is_made() -> None:
    with pytest.raises(ArenaError, match="unknown strategy 'nobody'"):
        make(opponents=("planner", "nobody"))
    with pytest.raises(ArenaError, match="1 to 3 opponents"):
        make(opponents=("planner",) * 4)
    assert make(opponents="max-tiles").names == ("learner", "max-tiles")
