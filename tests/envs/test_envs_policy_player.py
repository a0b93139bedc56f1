"""The arena plug-in: a policy over the environments' observations plays in tournaments, sees
what the environments show, replays, and may not play a move it was not offered."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the env extra: pip install 'rummikub[env]'")

from rummikub.arena import TournamentConfig, make_player, run_tournament
from rummikub.envs import Observation, PolicyPlayer, RandomPlayer, RummikubEnv
from rummikub.game import ArenaError, GameRecorder, play_game, replay_game

RANDOM = "rummikub.envs.policy_player:RandomPlayer"


def test_a_policy_plays_a_short_tournament_with_the_arenas_statistics() -> None:
    config = TournamentConfig((RANDOM, "planner"), games=4, seed=1, record=True)
    result = run_tournament(config, executor="serial")
    data = result.to_json(timing=False)
    assert data["games"] == 4 and [p["name"] for p in data["players"]] == [RANDOM, "planner"]
    assert sum(p["wins"] for p in data["players"]) == 4
    assert data["pairs"][0]["deals"] == 2
    assert all(s.solves[s.lineup.index(0)] > 0 for s in result.summaries)  # counted
    # Every game's record replays through the validator, to the same scores.
    for summary in result.summaries:
        assert replay_game(summary.events).totals == summary.scores


def test_the_policy_sees_what_the_environment_shows() -> None:
    env = RummikubEnv(opponents=("planner",))
    seen: list[Observation] = []

    def remember(observation: Observation) -> int:
        seen.append(observation)
        return 0

    player = PolicyPlayer(remember)
    observation, _ = env.reset(seed=6)
    for _ in range(5):
        player(env.round.view(0))
        assert (seen[-1]["observation"] == observation["observation"]).all()
        assert (seen[-1]["action_mask"] == observation["action_mask"]).all()
        observation, *_ = env.step(int(np.flatnonzero(observation["action_mask"])[-1]))


def test_random_player_replays_and_plays_every_kind_of_move() -> None:
    records = []
    for _ in range(2):
        recorder = GameRecorder()
        play_game([make_player(RANDOM), make_player("max-tiles")], 12, recorder=recorder)
        records.append(recorder.events)
    assert records[0] == records[1]
    played = {e["action"] for e in records[0] if e.get("event") == "turn" and e["seat"] == 0}
    assert played >= {"play", "draw"}


def test_a_move_not_offered_is_refused() -> None:
    player = PolicyPlayer(lambda observation: 5)  # sets only: never offered before opening
    with pytest.raises(ArenaError, match="action 5, not offered"):
        play_game([player, RandomPlayer()], 1)


@pytest.mark.parametrize("returned", [1.9, np.array([0, 1]), None, 7])
def test_a_policy_that_returns_no_action_is_named(returned: Any) -> None:
    # Found by review: 1.9 played action 1, an array was "a bug in rummikub".
    player = PolicyPlayer(lambda observation: returned)
    with pytest.raises(ArenaError, match="the policy returned no action"):
        play_game([player, RandomPlayer()], 1)


def test_a_policy_plugged_in_by_name(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "mypolicy.py").write_text(
        "from rummikub.envs import PolicyPlayer\n"
        "player = PolicyPlayer(lambda o: int(o['action_mask'].nonzero()[0][-1]))\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    player = make_player("mypolicy:player")
    assert isinstance(player, PolicyPlayer)
    game = play_game([player, make_player("planner")], 2)
    assert game.turns_taken[0] > 0 and game.solves[0] > 0
