"""Game records: every event of a game as one JSON object per line (JSON Lines).

Lines, in order (``game`` is the game's index in a tournament file, else absent):

* ``{"event": "game", "seed", "players", "rules", "rack_size", "target", "seat_seeds"}``
* per round ``{"event": "deal", "round", "draws", "first", "racks", "pool"}`` (``draws`` are
  the draws for the first player as ``[seat, tile]`` pairs per pass; ``pool`` in draw order)
* per turn ``{"event": "turn", "round", "turn", "seat", "action": "play", "table", "placed"}``,
  or ``"action": "draw"`` with ``"drew"``, or ``"action": "pass"``
* per round ``{"event": "end", "round", "winner", "reason", "scores", "racks"}``
* ``{"event": "result", "winner", "totals", "rounds", "turns"}``

Records hold no timings, so the same seed and players give byte-identical records.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any

from rummikub.game.errors import RecordError
from rummikub.models.meld import Meld
from rummikub.models.notation import tiles_json
from rummikub.models.rules import RuleSet, RuleValue

if TYPE_CHECKING:
    from rummikub.game.rounds import Deal, GameConfig, GameResult, RoundResult, Turn

Event = dict[str, Any]


def melds_json(melds: Iterable[Meld]) -> list[list[str]]:
    """Melds as lists of tiles in notation, a joker with a declared meaning as ``j=r4`` (what
    it stands for matters to the strict and locked joker rules on replay)."""
    return [m.tokens() for m in melds]


def rules_json(rules: RuleSet) -> dict[str, RuleValue]:
    """Every rule option by name."""
    return rules.options()


class GameRecorder:
    """Collects the events of one game as JSON-ready dicts (see the module docstring)."""

    def __init__(self, game: int | None = None) -> None:
        self.game = game
        self.events: list[Event] = []

    def _add(self, event: str, **fields: Any) -> None:
        head: Event = {"event": event}
        if self.game is not None:
            head["game"] = self.game
        self.events.append(head | fields)

    def start(
        self, seed: int, names: Sequence[str], config: GameConfig, seeds: Sequence[int]
    ) -> None:
        """The game header: seed, players by seat, rules and format."""
        self._add(
            "game",
            seed=seed,
            players=list(names),
            rules=rules_json(config.rules),
            rack_size=config.deal_size,
            target=config.target,
            seat_seeds=list(seeds),
        )

    def deal(self, round_no: int, deal: Deal) -> None:
        """A round's deal."""
        self._add(
            "deal",
            round=round_no,
            draws=[[[seat, str(tile)] for seat, tile in drawn] for drawn in deal.draws],
            first=deal.first,
            racks=[tiles_json(rack) for rack in deal.racks],
            pool=tiles_json(deal.pool),
        )

    def turn(self, turn: Turn) -> None:
        """One turn (thinking time is left out so records are reproducible)."""
        fields: Event = {"round": turn.round, "turn": turn.turn, "seat": turn.seat}
        fields["action"] = turn.action
        if turn.action == "play":
            fields["table"] = melds_json(turn.table)
            fields["placed"] = tiles_json(turn.placed)
        elif turn.action == "draw":
            fields["drew"] = str(turn.drew)
        self._add("turn", **fields)

    def end(self, result: RoundResult) -> None:
        """A round's end."""
        self._add(
            "end",
            round=result.round,
            winner=result.winner,
            reason=result.reason,
            scores=list(result.scores),
            racks=[tiles_json(rack) for rack in result.racks],
        )

    def result(self, game: GameResult) -> None:
        """The game's result."""
        self._add(
            "result",
            winner=game.winner,
            totals=list(game.totals),
            rounds=len(game.rounds),
            turns=game.turns,
        )

    def lines(self) -> list[str]:
        """The record as JSON Lines (without newlines)."""
        return [json.dumps(e, separators=(",", ":")) for e in self.events]


def events_text(events: Iterable[Event]) -> str:
    """Events as JSON Lines, each line ending in a newline."""
    return "".join(json.dumps(event, separators=(",", ":")) + "\n" for event in events)


def write_events(events: Iterable[Event], out: IO[str]) -> None:
    """Write events as JSON Lines."""
    out.write(events_text(events))


def read_events(lines: Iterable[str]) -> Iterator[Event]:
    """Parse JSON Lines into events; :class:`RecordError` names a bad line."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as error:
            raise RecordError(f"record line {number}: not JSON ({error.msg})") from None
        except RecursionError:
            raise RecordError(f"record line {number}: not JSON (nested too deeply)") from None
        except ValueError:  # an integer of more digits than Python converts
            raise RecordError(f"record line {number}: not JSON (a number too long)") from None
        if not isinstance(event, dict) or "event" not in event:
            raise RecordError(f"record line {number}: not an event object")
        yield event


# The events a game's record may end on before its result is written: a record that ends
# on one of them was cut short; one that ends on anything else is damaged.
_BEFORE_RESULT = frozenset({"game", "deal", "turn", "end"})


def whole_games(lines: Iterable[str]) -> tuple[list[list[Event]], str]:
    """The games of a JSON Lines record, and what was left out ('' if nothing): a record
    is written game by game, so a process killed while writing leaves its last game cut
    short (a last line cut off, or no result yet). That game is left out; any other damage
    raises :class:`RecordError` as :func:`read_events` does."""
    kept = list(lines)
    filled = [number for number, line in enumerate(kept) if line.strip()]
    torn = False
    if filled:
        try:
            json.loads(kept[filled[-1]])
        except json.JSONDecodeError:
            kept, torn = kept[: filled[-1]], True
        except (RecursionError, ValueError):
            pass  # not a cut: read_events says what is wrong with it
    games = split_games(read_events(kept))
    if (
        games
        and (torn or str(games[-1][-1].get("event")) in _BEFORE_RESULT)
        and all(e["event"] != "result" for e in games[-1])
    ):
        number = games[-1][0].get("game", len(games) - 1)
        return games[:-1], f"the last game (game {number}) is cut short and was left out"
    if torn:  # the first line of a game that had only begun
        return games, "the last line is cut off and was left out"
    return games, ""


def split_games(events: Iterable[Event]) -> list[list[Event]]:
    """The events of each game, in the order the games start."""
    games: dict[object, list[Event]] = {}
    current: object = None
    for event in events:
        number = event.get("game")
        if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
            raise RecordError(f"record: game number {number!r} is not a whole number")
        key = event.get("game", current if event["event"] != "game" else object())
        if event["event"] == "game":
            current = key
            if key in games:
                raise RecordError(f"record: game {key} starts twice")
            games[key] = []
        if key not in games:
            raise RecordError("record: an event comes before its game header")
        games[key].append(event)
    return list(games.values())
