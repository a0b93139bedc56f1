"""The arena plug-in: any policy over the environments' observations, as an arena player.

A policy takes the observation the environments give (``{"observation": vector,
"action_mask": mask}``, :mod:`~rummikub.envs.observation`) and returns an action index
(:data:`~rummikub.envs.moves.SLOTS`). :class:`PolicyPlayer` makes it a player of the arena:
each turn it asks the solver for the same candidate moves as the environments, builds the
same observation from the player's view, asks the policy, and plays the chosen move, which
the arena checks with the validator like any other. Name it as ``module:callable``::

    # mypolicy.py
    from rummikub.envs.policy_player import PolicyPlayer

    def last_offered(observation):  # the offered move of the highest slot
        return int(observation["action_mask"].nonzero()[0][-1])

    player = PolicyPlayer(last_offered)

    $ rummikub arena --players planner,mypolicy:player --games 100

A trained model plugs in the same way (``PolicyPlayer(lambda o: int(model.predict(o,
action_masks=o["action_mask"])[0]))`` for sb3-contrib's ``MaskablePPO``). The built-in
:class:`RandomPlayer` (``rummikub.envs.policy_player:RandomPlayer``) picks uniformly among
the offered moves.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

from rummikub.arena.planner import DEFAULT_WORK_LIMIT, Solver
from rummikub.envs.moves import action_index, turn_moves
from rummikub.envs.observation import Layout, Observation
from rummikub.game.errors import ArenaError
from rummikub.game.protocol import PlayerView, Reply
from rummikub.models.rules import RuleSet

Policy = Callable[[Observation], int]
"""A policy: an observation in, the index of the action to take out."""


@functools.cache
def _layout(rules: RuleSet, players: int) -> Layout:
    return Layout(rules, players)


class PolicyPlayer:
    """An arena player that plays the move ``policy`` picks; ``solves`` counts solver calls."""

    def __init__(self, policy: Policy, *, work_limit: float = DEFAULT_WORK_LIMIT) -> None:
        self.policy = policy
        self.solver = Solver(work_limit)

    @property
    def solves(self) -> int:
        """Solver calls so far (the arena adds them up for its throughput figures)."""
        return self.solver.solves

    def __call__(self, view: PlayerView) -> Reply:
        moves = turn_moves(view, self.solver)
        observation = _layout(view.rules, view.players).observe(view, moves)
        chosen = self.policy(observation)
        try:
            action = action_index(chosen)
        except (TypeError, ValueError) as error:
            raise ArenaError(f"the policy returned no action: {error}") from None
        if not moves.legal(action):
            offered = list(moves.names())
            raise ArenaError(f"the policy chose action {action}, not offered (offered: {offered})")
        return moves.reply(action)


class RandomPlayer(PolicyPlayer):
    """Picks uniformly among the offered moves; each choice seeded by the game's seat seed
    and the turn, so a seeded game replays."""

    def __init__(self, work_limit: float = DEFAULT_WORK_LIMIT) -> None:
        super().__init__(self._pick, work_limit=work_limit)
        self._rng = np.random.default_rng(0)

    def _pick(self, observation: Observation) -> int:
        return int(self._rng.choice(np.flatnonzero(observation["action_mask"])))

    def __call__(self, view: PlayerView) -> Reply:
        self._rng = np.random.default_rng((view.seed, view.turn))
        return super().__call__(view)
