"""``rummikub/Rummikub-v0``: one learner against built-in arena strategies, for Gymnasium.

    import gymnasium
    import rummikub.envs  # registers the environment

    env = gymnasium.make("rummikub/Rummikub-v0", opponents=("planner",))
    observation, info = env.reset(seed=1)

The learner sits at seat 0, the ``opponents`` (arena player specs: a built-in strategy name
or ``module:callable``, see :func:`~rummikub.arena.players.make_player`) at the seats after
it; the deal decides who starts. Each step plays the learner's move, then the opponents'
until it is the learner's turn again or the round is over. Spaces, observations, the
action mask and ``info["moves"]`` are those of :mod:`~rummikub.envs.rummikub_v0`; the reward
is the learner's round score at the end (0 before), and ``action_masks()`` gives the mask
for libraries that ask for it that way (sb3-contrib's ``MaskablePPO``).

An action the mask rules out ends the episode with :func:`~rummikub.envs.scoring.worst_score`
(``info["illegal_action"]``). A round an opponent wins before the learner's first turn
(possible with small racks) is dealt again from a seed derived from the first, since the
learner had no decision in it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from rummikub.arena.planner import DEFAULT_WORK_LIMIT, Solver
from rummikub.arena.players import make_player
from rummikub.envs.moves import SLOTS, TurnMoves, action_index, turn_moves
from rummikub.envs.observation import Layout, Observation
from rummikub.envs.render import render_round
from rummikub.envs.scoring import worst_score
from rummikub.envs.stepped import SteppedRound
from rummikub.game.errors import ArenaError
from rummikub.game.protocol import Player
from rummikub.game.rounds import GameConfig
from rummikub.models.errors import InternalError
from rummikub.models.presets import resolve_rules
from rummikub.models.rules import STANDARD, RuleSet

LEARNER = 0  # the learner's seat
MAX_REDEALS = 100  # rounds won before the learner's first turn, dealt again at most


class RummikubEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """The learner's game against ``opponents`` (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        opponents: Sequence[str] = ("planner",),
        rules: RuleSet | str = STANDARD,
        render_mode: str | None = None,
        work_limit: float = DEFAULT_WORK_LIMIT,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.rules = rules if isinstance(rules, RuleSet) else resolve_rules(rules)
        self.opponent_specs = (opponents,) if isinstance(opponents, str) else tuple(opponents)
        for spec in self.opponent_specs:
            make_player(spec, work_limit)  # an unknown strategy fails here, not at reset
        if not 1 <= len(self.opponent_specs) <= 3:
            raise ArenaError(f"a game has 1 to 3 opponents, got {len(self.opponent_specs)}")
        self.names = ("learner", *self.opponent_specs)
        self.render_mode = render_mode
        self.work_limit = work_limit
        self.round = SteppedRound(GameConfig(rules=self.rules), len(self.names))
        self.solver = Solver(work_limit)
        self.layout = Layout(self.rules, len(self.names))
        self.observation_space = self.layout.space()
        self.action_space = spaces.Discrete(len(SLOTS))
        self.opponents: list[Player] = []
        self.moves: TurnMoves | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a round (``seed``'s, as the arena's game of that seed) and play the
        opponents up to the learner's first turn."""
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(2**63))
        for _ in range(MAX_REDEALS):
            self.round.deal(game_seed)
            self.opponents = [make_player(s, self.work_limit) for s in self.opponent_specs]
            self._opponents_play()
            if not self.round.over:
                break
            game_seed = random.Random(game_seed).getrandbits(63)
        else:
            raise ArenaError(f"{MAX_REDEALS} deals in a row ended before the learner's turn")
        return self._observe(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action``, then the opponents' turns."""
        moves = self.moves
        if moves is None:
            raise ArenaError("the round is over: call reset()")
        chosen = action_index(action)  # not an action of the space at all: an error
        if not moves.legal(chosen):
            self.moves = None
            info = {"illegal_action": chosen}
            return self._observe(), worst_score(self.rules), True, False, info
        self.round.play_seen(moves.view, moves.reply(chosen), self.names[LEARNER])
        self._opponents_play()
        result = self.round.result
        reward = 0.0 if result is None else float(result.scores[LEARNER])
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, result is not None, False, self._info()

    def _opponents_play(self) -> None:
        """The opponents' turns up to the learner's; then the learner's moves on offer."""
        game = self.round
        while not game.over and game.current != LEARNER:
            game.play(self.opponents[game.current - 1], self.names[game.current])
        self.moves = None if game.over else turn_moves(game.view(LEARNER), self.solver)

    def _observe(self) -> Observation:
        return self.layout.observe(self.round.view(LEARNER), self.moves)

    def _info(self) -> dict[str, Any]:
        result = self.round.result
        if result is not None:
            return {"winner": result.winner, "reason": result.reason, "scores": result.scores}
        if self.moves is None:
            raise InternalError("the learner is to move but has no moves on offer")
        return {"moves": self.moves.names()}

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The actions this turn offers (1) and the others (0)."""
        if self.moves is None:
            return np.zeros(len(SLOTS), dtype=np.int8)
        return self.moves.mask

    def render(self) -> str | None:
        """The round as text: returned in ``ansi`` mode, printed in ``human`` mode."""
        text = render_round(self.round, self.names, self.moves)
        if self.render_mode == "human":
            print(text)
            return None
        return text if self.render_mode == "ansi" else None
