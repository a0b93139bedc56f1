"""Looking beyond one move: a position's analysis (each objective, outs, dead tiles), the odds
of a hand, advice on playing all, part or holding (rollouts), and reviews of games played.
"""

from rummikub.analysis.advice import Advice, AdviceError, Situation, advise
from rummikub.analysis.position import Analysis, analyze

__all__ = ["Advice", "AdviceError", "Analysis", "Situation", "advise", "analyze"]
