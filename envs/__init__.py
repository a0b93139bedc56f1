"""Learning environments over the library's game (``pip install 'rummikub[env]'``).

* :mod:`rummikub.envs.rummikub_v0`: a PettingZoo AEC environment for 2 to 4 agents;
* ``rummikub/Rummikub-v0`` (:class:`~rummikub.envs.single_agent.RummikubEnv`): a Gymnasium
  environment, one learner against built-in arena strategies, registered on import;
* :class:`~rummikub.envs.policy_player.PolicyPlayer`: a policy over these environments as
  an arena player.

A face over the library, like the command line: the deal, the turns, the validator and the
scores are :mod:`rummikub.game`'s, the candidate moves the solver's through
:func:`rummikub.arena.planner.candidates`.
"""

from gymnasium.envs.registration import register

from rummikub.envs.moves import SLOTS
from rummikub.envs.observation import Layout, Observation
from rummikub.envs.policy_player import Policy, PolicyPlayer, RandomPlayer
from rummikub.envs.single_agent import RummikubEnv

register(id="rummikub/Rummikub-v0", entry_point="rummikub.envs.single_agent:RummikubEnv")

__all__ = [
    "SLOTS",
    "Layout",
    "Observation",
    "Policy",
    "PolicyPlayer",
    "RandomPlayer",
    "RummikubEnv",
]
