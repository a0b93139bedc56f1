"""How to carry a move out at a table: the step planner, the steps' replay, a move's report.

:func:`explain` turns a solver :class:`~rummikub.solver.Move` into steps a person can follow.
"""

from rummikub.steps.planner import Walkthrough, explain
from rummikub.steps.replay import Step
from rummikub.steps.report import move_json, move_picture, ranked_json

__all__ = ["Step", "Walkthrough", "explain", "move_json", "move_picture", "ranked_json"]
