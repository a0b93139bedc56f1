"""``rummikub_v0``, the PettingZoo AEC environment: PettingZoo's api_test, random masked games
to their end with every move re-checked by the validator, exact seeded replays, the arena's
own game reproduced action by action, observations that are the player's view."""

from __future__ import annotations

import warnings
from collections import Counter
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the env extra: pip install 'rummikub[env]'")

from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]
from turn_checks import check_turn

from rummikub.arena.planner import Candidate, Planner
from rummikub.envs import SLOTS, rummikub_v0
from rummikub.envs.moves import UnknownCandidateError
from rummikub.envs.scoring import worst_score
from rummikub.game import DRAW, PlayerView, Turn, play_game
from rummikub.models import STANDARD, RuleSet
from rummikub.models.presets import resolve_rules

# api_test warns about any dict observation whose environment is not one of PettingZoo's
# own (it checks a hard-coded list of names); nothing else may come up.
EXPECTED_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


def raw(env: Any) -> rummikub_v0.raw_env:
    unwrapped = env.unwrapped
    assert isinstance(unwrapped, rummikub_v0.raw_env)
    return unwrapped


@pytest.mark.parametrize("players", [2, 4])
def test_api_test_passes(players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(rummikub_v0.env(players=players), num_cycles=1000)
    assert {str(w.message) for w in caught} <= EXPECTED_WARNINGS


def random_game(players: int, seed: int, rules: RuleSet = STANDARD) -> dict[str, float]:
    """A game of random masked actions; every move and the final scores checked."""
    env = rummikub_v0.env(players=players, rules=rules)
    env.reset(seed=seed)
    game = raw(env).round
    rng = np.random.default_rng(seed)
    rewards: dict[str, float] = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            rewards[agent] = reward
            env.step(None)
            continue
        mask = observation["action_mask"]
        assert mask[0] == 1 and set(np.flatnonzero(mask)) == set(info["moves"])
        before = game.view().position()
        env.step(int(rng.choice(np.flatnonzero(mask))))
        assert game.last is not None
        check_turn(before, game.last, game.state)
    result = game.result
    assert result is not None and sorted(rewards) == sorted(raw(env).possible_agents)
    penalties = [rules.rack_penalty(rack) for rack in result.racks]
    for seat, score in enumerate(result.scores):
        expected = sum(penalties) - penalties[seat] if seat == result.winner else -penalties[seat]
        assert score == expected == rewards[f"player_{seat}"]
    assert result.reason == "blocked" or not result.racks[result.winner]
    return rewards


def test_one_random_masked_game_reaches_its_end() -> None:
    random_game(2, seed=11)


@pytest.mark.slow
def test_ten_random_masked_games_reach_their_end() -> None:
    """Two, three and four players, under the standard, American and strict joker rules."""
    games = [
        (2, "standard"),
        (2, "american"),
        (2, "joker_rule=strict"),
        (3, "standard"),
        (3, "american joker_rule=strict"),
        (3, "sabra"),
        (4, "standard"),
        (4, "joker_rule=locked"),
        (4, "wrap"),
        (4, "american"),
    ]
    for seed, (players, rules) in enumerate(games):
        rewards = random_game(players, seed=100 + seed, rules=resolve_rules(rules))
        assert sum(rewards.values()) == 0


def trace(env: Any, seed: int | None, actions: int = 40) -> list[Any]:
    """Everything the agents see over the first steps of random masked play."""
    env.reset(seed=seed)
    rng = np.random.default_rng(0)
    seen: list[Any] = []
    for agent in env.agent_iter(actions):
        observation, reward, terminated, _, info = env.last()
        seen.append((agent, observation["observation"].tolist(), reward, info))
        mask = observation["action_mask"]
        env.step(None if terminated else int(rng.choice(np.flatnonzero(mask))))
    return seen


def test_a_seeded_reset_replays_exactly() -> None:
    seed_test(rummikub_v0.env, num_cycles=20)  # PettingZoo's own check: two environments
    env = rummikub_v0.env(players=3)
    first = trace(env, seed=5)
    trace(env, seed=6)
    assert trace(env, seed=5) == first
    assert trace(rummikub_v0.env(players=3), seed=5) == first
    # Unseeded resets follow from the last seed: the same sequence of deals again.
    after = trace(env, seed=None)
    trace(env, seed=5)
    assert trace(env, seed=None) == after != first


def test_the_environment_plays_the_arenas_game() -> None:
    """Agents that choose as the planner does play the arena's game of the same seed,
    turn for turn: the deal, the first player, the moves and the scores are the library's."""
    seed = 3
    arena_turns: list[Turn] = []
    played = play_game(
        [Planner(), Planner()], seed, observer=lambda state, turn: arena_turns.append(turn)
    )
    env = rummikub_v0.env(players=2)
    env.reset(seed=seed)
    planner = Planner()
    rewards: dict[str, float] = {}
    turns: list[Turn] = []
    for agent in env.agent_iter():
        _, reward, terminated, _, _ = env.last()
        if terminated:
            rewards[agent] = reward
            env.step(None)
            continue
        moves = raw(env).moves
        assert moves is not None
        offered = [c for c in moves.slots if c is not None]
        choice = planner.choose(moves.view, offered)
        env.step(moves.slots.index(choice))
        last = raw(env).round.last
        assert last is not None
        turns.append(last)
    strip = [(t.seat, t.action, t.table, t.placed, t.drew) for t in turns]
    assert strip == [(t.seat, t.action, t.table, t.placed, t.drew) for t in arena_turns]
    assert [rewards[f"player_{s}"] for s in range(2)] == list(played.rounds[0].scores)


def test_the_observation_is_the_players_view() -> None:
    env = rummikub_v0.env(players=3)
    env.reset(seed=8)
    rng = np.random.default_rng(8)
    inner = raw(env)
    for _ in range(30):
        agent = env.agent_selection
        seat = inner.possible_agents.index(agent)
        view = inner.round.view(seat)
        observation = env.observe(agent)
        parts = inner.layout.split(observation["observation"])
        assert parts["rack"].sum() == len(view.rack)
        for tile, count in Counter(view.rack).items():
            assert parts["rack"][STANDARD.index(tile)] == count
        assert parts["table"].sum() == sum(len(m) for m in view.table)
        assert parts["rack_sizes"].tolist() == [view.rack_sizes[(seat + k) % 3] for k in range(3)]
        assert parts["pool_size"].tolist() == [view.pool_size]
        assert parts["opened"].tolist() == [int(view.opened)]
        moves = inner.moves
        assert moves is not None
        for action, candidate in enumerate(moves.slots):
            placed = 0 if candidate is None else len(candidate.play.placed)
            assert parts["moves"][action].sum() == placed
        other = inner.possible_agents[(seat + 1) % 3]
        assert not env.observe(other)["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def test_the_moves_are_the_planners_candidates_in_their_slots() -> None:
    env = rummikub_v0.env(players=2)
    env.reset(seed=2)
    inner = raw(env)
    opened = 0
    for _ in range(40):
        moves = inner.moves
        assert moves is not None
        for action, candidate in enumerate(moves.slots):
            if candidate is not None:
                label = "draw" if candidate.label == "hold" else candidate.label
                assert SLOTS[action] == label
                assert (action == 0) == candidate.play.is_draw
        names = moves.names()
        assert names[0] in ("draw", "pass (the pool is empty)")
        assert all(names[a].startswith(f"{SLOTS[a]}: ") for a in names if a)
        opened += moves.view.opened
        env.step(max(np.flatnonzero(moves.mask)))  # the last offered move: plays a lot
    assert opened  # the game got past the openings


def test_an_action_the_mask_rules_out() -> None:
    env = rummikub_v0.env(players=2)
    env.reset(seed=1)
    agent = env.agent_selection
    mask = env.last()[0]["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's "illegal move made" warning
        env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[agent] == worst_score(STANDARD) == -(2 * 4 * 91 + 2 * 30)
    # The agent that chose it sees no moves on offer any more (found by review: its mask
    # and moves were those of the turn it lost).
    observation = env.observe(agent)
    moves = env.unwrapped.layout.split(observation["observation"])["moves"]
    assert not observation["action_mask"].any() and not moves.any()
    assert all(info == {} for info in env.infos.values())  # nor names them
    bare = rummikub_v0.raw_env(players=2)
    bare.reset(seed=1)
    with pytest.raises(ValueError, match="not offered"):
        bare.step(illegal)
    with pytest.raises(ValueError, match="is to move"):
        bare.step(None)
    # Not an index: refused, not rounded down (found by review: 1.9 played action 1).
    for wrong in (1.9, "1", True, np.array([1, 2]), np.float64(1.0)):
        with pytest.raises(TypeError, match="integer index"):
            bare.step(wrong)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="out of range"):
        bare.step(6)


def test_a_new_kind_of_candidate_needs_a_new_version(monkeypatch: pytest.MonkeyPatch) -> None:
    def more(view: PlayerView, *_: object, **__: object) -> list[Candidate]:
        return [Candidate("hold", DRAW, view.rack), Candidate("bluff", DRAW, view.rack)]

    monkeypatch.setattr("rummikub.envs.moves.candidates", more)
    with pytest.raises(UnknownCandidateError, match="bluff"):
        rummikub_v0.env(players=2).reset(seed=1)


def test_render() -> None:
    env = rummikub_v0.raw_env(players=2, render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert text is not None
    assert text.startswith("turn 0, pool 78\ntable: (empty)")
    assert "  0. draw" in text and "player_1 (not opened): " in text
