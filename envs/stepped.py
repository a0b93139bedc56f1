"""One round of the library's game, played a turn at a time for the environments.

The arena's :func:`~rummikub.game.rounds.play_round` asks every player in a loop until the
round ends; an environment has to hand the turn back to its caller after every move. This
class deals as :func:`~rummikub.game.rounds.play_game` does (the same seed gives the same
deal and seat seeds as the arena's game of that seed), and plays each turn with
:func:`~rummikub.game.rounds.play_turn`, which checks the move with the independent
validator and applies it. The round's end and its scores are
:func:`~rummikub.game.scoring.blocked_winner` and :func:`~rummikub.game.scoring.round_scores`.
"""

from __future__ import annotations

import random

from rummikub.game.errors import ArenaError
from rummikub.game.protocol import Player, PlayerView, Reply
from rummikub.game.rounds import (
    MAX_TURNS,
    GameConfig,
    RoundResult,
    RoundState,
    Turn,
    deal_round,
    play_turn,
)
from rummikub.game.scoring import blocked_winner, round_scores
from rummikub.models.errors import InternalError
from rummikub.models.tile import sorted_tiles


class SteppedRound:
    """A one-round game of ``players`` seats under ``config``, dealt by :meth:`deal`."""

    def __init__(self, config: GameConfig, players: int) -> None:
        if not 2 <= players <= 4:
            raise ArenaError(f"a game has 2 to 4 players, got {players}")
        self.config = config
        self.players = players
        self.seed = 0
        self.seeds: tuple[int, ...] = (0,) * players
        self.state = RoundState(config.rules, [], [[] for _ in range(players)])
        self.first = 0
        self.result: RoundResult | None = None
        self.last: Turn | None = None

    def deal(self, seed: int) -> None:
        """Start the round of ``seed``: the deal and seat seeds of ``play_game(..., seed)``."""
        rng = random.Random(seed)
        self.seed = seed
        self.seeds = tuple(rng.getrandbits(63) for _ in range(self.players))
        rules = self.config.rules
        deal = deal_round(rng, self.players, rules, self.config.deal_size)
        self.state = deal.state(rules)
        self.first = deal.first
        self.result = None
        self.last = None

    @property
    def current(self) -> int:
        """The seat whose turn it is (the last mover's once the round is over)."""
        return self.state.current

    @property
    def over(self) -> bool:
        """Whether the round has ended."""
        return self.result is not None

    def view(self, seat: int | None = None) -> PlayerView:
        """What ``seat`` (by default the player to move) sees, as ``play_turn`` shows it."""
        state = self.state
        seat = state.current if seat is None else seat
        return PlayerView(
            seat=seat,
            rack=tuple(sorted_tiles(state.racks[seat])),
            table=state.table,
            opened=state.opened[seat],
            rack_sizes=tuple(len(r) for r in state.racks),
            pool_size=len(state.pool),
            scores=(0,) * self.players,
            turn=state.turn,
            round=1,
            seed=self.seeds[seat],
            rules=state.rules,
        )

    def play(self, player: Player, name: str) -> Turn:
        """The current seat's turn: ``player`` answers, the validator checks, the move is
        applied; then the round ends or passes to the next seat."""
        if self.result is not None:
            raise ArenaError("the round is over: deal again")
        state = self.state
        seat = state.current
        turn = play_turn(state, player, name, seed=self.seeds[seat])
        self.last = turn
        # The end of a round as play_round has it: an empty rack after a play, or a full
        # rotation of passes on an empty pool (then the lowest rack wins).
        if turn.action == "play" and not state.racks[seat]:
            self._end(seat, "out")
        elif state.passes >= self.players:
            self._end(blocked_winner(state.racks, state.rules), "blocked")
        elif state.turn >= MAX_TURNS:
            raise ArenaError(f"the round did not end after {MAX_TURNS} turns")
        else:
            state.current = (seat + 1) % self.players
        return turn

    def play_seen(self, seen: PlayerView, reply: Reply, name: str) -> Turn:
        """Play ``reply`` for the current seat, whose player chose it from ``seen``: the game
        must show the player that same view (so an observation is the player's view)."""

        def player(view: PlayerView) -> Reply:
            if view != seen:
                raise InternalError(f"{name}: the environment's view differs from the game's")
            return reply

        return self.play(player, name)

    def _end(self, winner: int, reason: str) -> None:
        state = self.state
        racks = tuple(tuple(sorted_tiles(rack)) for rack in state.racks)
        scores = round_scores(racks, winner, state.rules)
        self.result = RoundResult(1, self.first, winner, reason, scores, racks, state.turn)
