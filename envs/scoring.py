"""The environments' rewards: the round's scores, and what an illegal action costs."""

from __future__ import annotations

from rummikub.models.generate import full_set
from rummikub.models.rules import RuleSet


def worst_score(rules: RuleSet) -> float:
    """The lowest score a seat can get in a round: minus the penalty of every tile at once.

    An action the mask rules out scores this, so that no learner ever gains by ending a
    losing round with one (a milder penalty, PettingZoo's usual -1, would be a way out).
    """
    return -float(rules.rack_penalty(full_set(rules).elements()))
