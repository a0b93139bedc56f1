"""Replaying a game record: deal what it says, play what it says, check every move again.

Each seat is played by a script of its recorded moves; the engine re-validates every
move with the independent validator, draws from the recorded pool, and the replayed turns,
round ends and result must match the record exactly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rummikub.game.errors import RecordError
from rummikub.game.protocol import DRAW, PlayerView, Reply
from rummikub.game.record import Event, GameRecorder, whole_games
from rummikub.game.rounds import Deal, GameConfig, GameResult, play_game
from rummikub.models.generate import full_set
from rummikub.models.meld import Meld
from rummikub.models.rules import RuleSet
from rummikub.models.tile import Tile


def _tiles(items: Sequence[str]) -> tuple[Tile, ...]:
    if isinstance(items, str) or not all(isinstance(t, str) for t in items):
        raise TypeError(f"tiles must be a list of strings, got {items!r}")
    return tuple(Tile.parse(t) for t in items)


def _deal(event: Event) -> Deal:
    return Deal(
        draws=tuple(tuple((int(s), Tile.parse(t)) for s, t in drawn) for drawn in event["draws"]),
        first=int(event["first"]),
        racks=tuple(_tiles(rack) for rack in event["racks"]),
        pool=_tiles(event["pool"]),
    )


Watcher = Callable[[PlayerView, Reply], None]
"""Sees every turn of a replay: what the player saw and what it played (a draw included)."""


class ScriptedPlayer:
    """Plays the recorded moves of one seat, in order (``watch`` sees each of them)."""

    def __init__(self, turns: Iterable[Event], watch: Watcher | None = None) -> None:
        self.turns = list(turns)
        self.next = 0
        self.watch = watch

    def __call__(self, view: PlayerView) -> Reply:
        if self.next >= len(self.turns):
            raise RecordError(f"record: seat {view.seat} has no move for turn {view.turn}")
        event = self.turns[self.next]
        self.next += 1
        if (event["round"], event["turn"]) != (view.round, view.turn):
            raise RecordError(
                f"record: seat {view.seat} moves at round {event['round']} turn {event['turn']}"
                f", but the game is at round {view.round} turn {view.turn}"
            )
        play = DRAW
        if event["action"] == "play":
            melds = tuple(Meld.parse(" ".join(m)) for m in event["table"])  # j=r4 kept
            play = Reply(melds, _tiles(event["placed"]))
        if self.watch is not None:
            self.watch(view, play)
        return play


def replay_game(events: Sequence[Event], watch: Watcher | None = None) -> GameResult:
    """Replay one game's events; :class:`RecordError` says where it departs from the record.

    ``watch`` is called on every turn with the player's view and the recorded play.
    """
    try:
        return _replay(events, watch)
    except (KeyError, TypeError, ValueError) as error:
        raise RecordError(f"record: malformed event ({type(error).__name__}: {error})") from None


def _replay(events: Sequence[Event], watch: Watcher | None) -> GameResult:
    header = events[0]
    if header.get("event") != "game":
        raise RecordError("record: a game starts with its 'game' header")
    rules = RuleSet(**header.get("rules", {}))  # records without rules: the standard game
    config = GameConfig(rules, int(header["rack_size"]), header["target"])
    names = list(header["players"])
    deals = {e["round"]: _deal(e) for e in events if e["event"] == "deal"}
    turns = [e for e in events if e["event"] == "turn"]
    players = [
        ScriptedPlayer((e for e in turns if e["seat"] == s), watch) for s in range(len(names))
    ]

    def deal(round_no: int) -> Deal:
        if round_no not in deals:
            raise RecordError(f"record: round {round_no} has no deal")
        problem = deal_problem(deals[round_no], rules, len(names), config.deal_size)
        if problem:
            raise RecordError(f"record: round {round_no}'s deal {problem}")
        return deals[round_no]

    recorder = GameRecorder(header.get("game"))
    result = play_game(
        players, int(header["seed"]), config, names=names, recorder=recorder, deals=deal
    )
    if "rules" not in header:  # a record that leaves the rules out is one of the standard game
        recorder.events[0].pop("rules", None)
    if recorder.events != list(events):
        for number, (got, want) in enumerate(zip(recorder.events, events, strict=False), 1):
            if got != want:
                raise RecordError(
                    f"record: event {number} does not replay: recorded {_short(want)}, "
                    f"replayed {_short(got)}"
                )
        raise RecordError(f"record: {len(events)} events recorded, {len(recorder.events)} replayed")
    return result


def deal_problem(deal: Deal, rules: RuleSet, players: int, rack_size: int) -> str:
    """What makes ``deal`` one the game could not have dealt ('' if nothing): every tile of
    the set once in the racks and the pool, ``rack_size`` tiles a rack, and the draws for
    the first player as the rules go. The deal is read from the record rather than made
    again from its seed, so a record another program dealt replays too."""
    sizes = [len(rack) for rack in deal.racks]
    if sizes != [rack_size] * players:
        return f"gives racks of {sizes} tiles; the game deals {players} of {rack_size}"
    dealt = Counter(t for rack in deal.racks for t in rack) + Counter(deal.pool)
    full = full_set(rules)
    if dealt != full:
        extra, missing = sorted(dealt - full), sorted(full - dealt)
        return (
            "is not the set of tiles once each: "
            + (f"too many {' '.join(map(str, extra[:5]))}" if extra else "")
            + ("; " if extra and missing else "")
            + (f"missing {' '.join(map(str, missing[:5]))}" if missing else "")
        )
    return _draws_problem(deal, full, players)


def _draws_problem(deal: Deal, full: Counter[Tile], players: int) -> str:
    """What is wrong with the draws for the first player ('' if nothing): each pass the
    players tied on the highest number draw again, and the one left first moves."""
    drawers = list(range(players))
    left = sum(full.values())
    for drawn in deal.draws:
        if [seat for seat, _ in drawn] != drawers:
            return f"has seats {[seat for seat, _ in drawn]} drawing where {drawers} should"
        left -= len(drawn)
        best = max(tile.value for _, tile in drawn)
        drawers = [seat for seat, tile in drawn if tile.value == best]
    drawn_tiles = Counter(tile for drawn in deal.draws for _, tile in drawn)
    if drawn_tiles - full:
        return "draws tiles for the first player that are not in the set"
    if len(drawers) > 1 and left >= len(drawers):  # tied, with tiles left to draw again
        return f"stops drawing for the first player while seats {drawers} are tied"
    if deal.first != drawers[0]:
        return f"has seat {deal.first} first, but seat {drawers[0]} drew the highest number"
    return ""


def _short(event: dict[str, Any], limit: int = 160) -> str:
    text = str(event)
    return text if len(text) <= limit else text[:limit] + "..."


def replay_file(
    lines: Iterable[str], warn: Callable[[str], None] | None = None
) -> list[GameResult]:
    """Replay every game in a JSON Lines record (illegal moves raise as in a live game); a
    last game cut short is left out, and ``warn`` told (:func:`whole_games`)."""
    games, left_out = whole_games(lines)
    if left_out and warn is not None:
        warn(left_out)
    return [replay_game(events) for events in games]
