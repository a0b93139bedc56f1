"""``rummikub_v0``: Rummikub for 2 to 4 agents, a PettingZoo AEC environment.

    from rummikub.envs import rummikub_v0

    env = rummikub_v0.env(players=2)           # rules=: a RuleSet, a preset or a rules line
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        action = None if terminated else env.action_space(agent).sample(observation["action_mask"])
        env.step(action)

One episode is one round of the library's game (:mod:`rummikub.game.rounds`: the deal, the
first player, every move checked by the independent validator, the scores), seeded as the
arena's game of the same seed. The agents are ``player_0`` ... in seat order; the round
decides who starts.

* **Actions**: ``Discrete(6)``, the kinds of move in :data:`~rummikub.envs.moves.SLOTS`
  (0 draws; the others are the solver's candidate moves of the turn, as the ``planner``
  strategy weighs them, the table rearranged as the solver finds best). The observation's
  ``action_mask`` says which the turn offers; ``info["moves"]`` names each in tile notation.
* **Observations**: ``{"observation": int16 vector, "action_mask": int8 vector}``; the
  vector is the player's rack, the table, the tiles each offered move places, every rack's
  size, the pool size and whether the player has opened
  (:mod:`~rummikub.envs.observation`).
* **Rewards**: zero until the round ends, then the round's scores under the source rules
  (:func:`~rummikub.game.scoring.round_scores`): each loser minus the value of its rack (a
  joker 30), the winner the sum of those.
* **Illegal actions** (``env()``, PettingZoo's ``TerminateIllegalWrapper``): an action the
  mask rules out ends the round; the agent that took it scores
  :func:`~rummikub.envs.scoring.worst_score` (minus every tile's penalty), the others 0.
* **Seeding**: ``reset(seed=s)`` replays exactly: the same deal, and for the same actions
  the same moves (the solver runs single-threaded under a deterministic work limit).
  Unseeded resets after it follow from ``s``.
"""

from __future__ import annotations

import random
from typing import Any

from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from rummikub.arena.planner import DEFAULT_WORK_LIMIT, Solver
from rummikub.envs.moves import SLOTS, TurnMoves, action_index, turn_moves
from rummikub.envs.observation import Layout, Observation
from rummikub.envs.render import render_round
from rummikub.envs.scoring import worst_score
from rummikub.envs.stepped import SteppedRound
from rummikub.game.rounds import GameConfig
from rummikub.models.errors import InternalError
from rummikub.models.presets import resolve_rules
from rummikub.models.rules import STANDARD, RuleSet


def env(**kwargs: Any) -> Any:
    """The environment as PettingZoo's classic games come: illegal actions end the round
    (scoring :func:`~rummikub.envs.scoring.worst_score`), actions are checked against the
    action space, and the API's order is enforced. Keywords as :class:`raw_env`."""
    raw = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(raw, illegal_reward=worst_score(raw.rules))
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv, EzPickle):  # type: ignore[misc]
    """The unwrapped environment (see the module docstring); ``env()`` wraps it."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's class attribute
        "render_modes": ["ansi", "human"],
        "name": "rummikub_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        rules: RuleSet | str = STANDARD,
        render_mode: str | None = None,
        work_limit: float = DEFAULT_WORK_LIMIT,
    ) -> None:
        EzPickle.__init__(self, players, rules, render_mode, work_limit)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.rules = rules if isinstance(rules, RuleSet) else resolve_rules(rules)
        self.render_mode = render_mode
        self.round = SteppedRound(GameConfig(rules=self.rules), players)
        self.solver = Solver(work_limit)
        self.layout = Layout(self.rules, players)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = self.possible_agents[:]
        self.observation_spaces = {a: self.layout.space() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(len(SLOTS)) for a in self.possible_agents}
        self.moves: TurnMoves | None = None
        self._seeds = random.Random()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's action space: one action per slot of :data:`SLOTS`."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new round: of ``seed`` when given, else of the next seed in the sequence
        the last seeded reset started."""
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.getrandbits(63)
        self.round.deal(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._offer()

    def _offer(self) -> None:
        """Ask the solver for the moves of the player to move and name them in its info."""
        seat = self.round.current
        self.agent_selection = self.possible_agents[seat]
        self.moves = turn_moves(self.round.view(seat), self.solver)
        self.infos[self.agent_selection] = {"moves": self.moves.names()}

    def observe(self, agent: str) -> Observation:
        """What ``agent`` sees now; its moves and mask only while it is the one to move."""
        seat = self.possible_agents.index(agent)
        mine = self.moves is not None and seat == self.moves.view.seat
        return self.layout.observe(self.round.view(seat), self.moves if mine else None)

    def step(self, action: int | None) -> None:
        """Play ``action`` for the agent to move (``None`` once it is terminated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        moves = self.moves
        if moves is None:
            raise InternalError(f"{agent} is to move but has no moves on offer")
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for a terminated agent")
        reply = moves.reply(action_index(action))
        self.round.play_seen(moves.view, reply, agent)
        self._cumulative_rewards[agent] = 0.0
        self.infos = {a: {} for a in self.agents}
        result = self.round.result
        if result is None:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._offer()
        else:
            self.moves = None
            winner = self.possible_agents[result.winner]
            scores = result.scores
            self.rewards = {a: float(scores[s]) for s, a in enumerate(self.possible_agents)}
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {a: {"winner": winner, "reason": result.reason} for a in self.agents}
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _deads_step_first(self) -> str:
        # env()'s TerminateIllegalWrapper calls this when an illegal action ends the round,
        # its only way in here: no moves are on offer any more, to the agent that chose
        # one or to anyone.
        if self.round.result is None:
            self.moves = None
            self.infos = {a: {} for a in self.agents}
        agent: str = super()._deads_step_first()
        return agent

    def render(self) -> str | None:
        """The round as text: returned in ``ansi`` mode, printed in ``human`` mode (after
        every step too)."""
        text = render_round(self.round, self.possible_agents, self.moves)
        if self.render_mode == "human":
            print(text)
            return None
        return text if self.render_mode == "ansi" else None

    def close(self) -> None:
        """Nothing to release: the environment holds no window, process or file."""
