"""The events of the game companion (:mod:`rummikub.game.companion`) and their stored form.

Each event is a small frozen value that writes itself as one JSON object
(``{"event": kind, ...}``, one line of a game file) and is read back by
:func:`event_from_json`, which names what is wrong with a malformed one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rummikub.game.record import rules_json
from rummikub.models.errors import RummikubError
from rummikub.models.meld import Meld
from rummikub.models.notation import tiles_json
from rummikub.models.presets import rules_from_mapping
from rummikub.models.rules import RuleSet
from rummikub.models.tile import Tile

ME = 0
MATCH_TARGET = 200
FORMAT_VERSION = 1


class CompanionError(RummikubError):
    """Base class of the companion's errors."""


class IllegalEventError(CompanionError):
    """An event the rules, the tile counts or the course of the game rule out."""


class EventFormatError(CompanionError):
    """A stored event that is not a well-formed event object."""


def _tiles_of(value: object, field: str) -> tuple[Tile, ...]:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise EventFormatError(f"'{field}' must be a list of tiles")
    return tuple(Tile.parse(t) for t in value)


def _melds_of(value: object, field: str) -> tuple[Meld, ...]:
    if not isinstance(value, list) or not all(isinstance(m, list) for m in value):
        raise EventFormatError(f"'{field}' must be a list of melds (lists of tiles)")
    for meld in value:
        if not meld or not all(isinstance(t, str) for t in meld):
            raise EventFormatError(f"'{field}' holds an empty meld or a non-tile")
    return tuple(Meld.parse(" ".join(meld)) for meld in value)


def _int_of(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise EventFormatError(f"'{field}' must be a whole number")
    return value


def melds_json(melds: Iterable[Meld]) -> list[list[str]]:
    """Melds as lists of tokens, a table joker's declared meaning kept (``j=r4``)."""
    return [meld.tokens() for meld in melds]


def seat_text(seat: int) -> str:
    return "you" if seat == ME else f"opponent {seat}"


def seats_text(seats: Sequence[int]) -> str:
    """``opponent 1``, ``opponent 1 and opponent 2``, ``opponent 1, 2 and 3``."""
    names = [seat_text(s) for s in seats]
    if len(names) <= 2:
        return " and ".join(names)
    return f"{names[0]}, " + ", ".join(str(s) for s in seats[1:-1]) + f" and {seats[-1]}"


def table_text(table: Sequence[Meld]) -> str:
    return " | ".join(str(m) for m in table) or "(empty)"


@dataclass(frozen=True)
class Event:
    """One thing that happened in the game (subclasses name the kinds)."""

    kind: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        """The event as stored: ``{"event": kind, ...fields}``."""
        return {"event": self.kind}

    def describe(self) -> str:
        """One line saying what happened."""
        return self.kind


@dataclass(frozen=True)
class NewGame(Event):
    """The game starts: the players, the rules, your rack and who plays first."""

    kind: ClassVar[str] = "new"
    players: int
    rack: tuple[Tile, ...]
    rules: RuleSet
    first: int = ME
    target: int = MATCH_TARGET

    def to_json(self) -> dict[str, Any]:
        return {
            "event": self.kind,
            "version": FORMAT_VERSION,
            "players": self.players,
            "first": self.first,
            "target": self.target,
            "rules": rules_json(self.rules),
            "rack": tiles_json(self.rack),
        }

    def describe(self) -> str:
        return (
            f"new game: {self.players} players, {seat_text(self.first)} first, "
            f"your rack {' '.join(map(str, self.rack))}"
        )


@dataclass(frozen=True)
class OpponentPlayed(Event):
    """An opponent played; the table is now ``table``.

    ``placed``, when given, are the tiles the opponent put down as the user told them, and
    ``table`` the layout the companion inferred (:func:`rummikub.game.placed.lay_out`);
    empty when the user gave the table.
    """

    kind: ClassVar[str] = "table"
    seat: int
    table: tuple[Meld, ...]
    placed: tuple[Tile, ...] = ()

    def to_json(self) -> dict[str, Any]:
        stored: dict[str, Any] = {
            "event": self.kind,
            "seat": self.seat,
            "table": melds_json(self.table),
        }
        if self.placed:  # older readers ignore it: the table alone says what happened
            stored["placed"] = tiles_json(self.placed)
        return stored

    def describe(self) -> str:
        if self.placed:
            return (
                f"{seat_text(self.seat)} placed {' '.join(map(str, self.placed))} (laid out by "
                f"the companion): table {table_text(self.table)}"
            )
        return f"{seat_text(self.seat)} played: table {table_text(self.table)}"


@dataclass(frozen=True)
class OpponentDrew(Event):
    """An opponent drew a tile (or passed when the pool was empty)."""

    kind: ClassVar[str] = "drew"
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "seat": self.seat}

    def describe(self) -> str:
        return f"{seat_text(self.seat)} drew"


@dataclass(frozen=True)
class Drew(Event):
    """You drew ``tile``."""

    kind: ClassVar[str] = "draw"
    tile: Tile

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "tile": str(self.tile)}

    def describe(self) -> str:
        return f"you drew {self.tile}"


@dataclass(frozen=True)
class Played(Event):
    """You played; the table is now ``table``."""

    kind: ClassVar[str] = "play"
    table: tuple[Meld, ...]

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "table": melds_json(self.table)}

    def describe(self) -> str:
        return f"you played: table {table_text(self.table)}"


@dataclass(frozen=True)
class Passed(Event):
    """You could not play and the pool is empty."""

    kind: ClassVar[str] = "pass"

    def describe(self) -> str:
        return "you passed"


@dataclass(frozen=True)
class Scored(Event):
    """The round is over; ``racks`` are the opponents' racks, seat 1 first."""

    kind: ClassVar[str] = "score"
    racks: tuple[tuple[Tile, ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "racks": [tiles_json(r) for r in self.racks]}

    def describe(self) -> str:
        shown = " | ".join(" ".join(map(str, r)) or "(empty)" for r in self.racks)
        return f"round scored: opponents' racks {shown}"


@dataclass(frozen=True)
class NewRound(Event):
    """The next round of the match is dealt: your new rack and who plays first."""

    kind: ClassVar[str] = "round"
    rack: tuple[Tile, ...]
    first: int = ME

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "first": self.first, "rack": tiles_json(self.rack)}

    def describe(self) -> str:
        return (
            f"new round: {seat_text(self.first)} first, your rack {' '.join(map(str, self.rack))}"
        )


@dataclass(frozen=True)
class Undo(Event):
    """Take back the last event."""

    kind: ClassVar[str] = "undo"


@dataclass(frozen=True)
class Redo(Event):
    """Bring back the event taken back last."""

    kind: ClassVar[str] = "redo"


_EVENT_KINDS = ("new", "table", "drew", "draw", "play", "pass", "score", "round", "undo", "redo")


def event_from_json(obj: object) -> Event:
    """An event from its stored form; :class:`RummikubError` says what is wrong with it."""
    if not isinstance(obj, dict):
        raise EventFormatError("not an event object")
    kind = obj.get("event")
    if kind not in _EVENT_KINDS:
        raise EventFormatError(f"unknown event {str(kind)[:30]!r}")
    try:
        return _parse_event(str(kind), obj)
    except KeyError as error:
        raise EventFormatError(f"'{kind}' event without {error}") from None


def _parse_event(kind: str, obj: Mapping[str, Any]) -> Event:
    if kind == "new":
        version = _int_of(obj.get("version", FORMAT_VERSION), "version")
        if version > FORMAT_VERSION:
            raise EventFormatError(f"written by a newer version (format {version})")
        rules = rules_from_mapping(obj["rules"], "rules")
        return NewGame(
            _int_of(obj["players"], "players"),
            _tiles_of(obj["rack"], "rack"),
            rules,
            _int_of(obj.get("first", ME), "first"),
            _int_of(obj.get("target", MATCH_TARGET), "target"),
        )
    if kind == "table":
        placed = _tiles_of(obj["placed"], "placed") if "placed" in obj else ()
        return OpponentPlayed(
            _int_of(obj["seat"], "seat"), _melds_of(obj["table"], "table"), placed
        )
    if kind == "drew":
        return OpponentDrew(_int_of(obj["seat"], "seat"))
    if kind == "draw":
        tile = obj["tile"]
        if not isinstance(tile, str):
            raise EventFormatError("'tile' must be a tile")
        return Drew(Tile.parse(tile))
    if kind == "play":
        return Played(_melds_of(obj["table"], "table"))
    if kind == "score":
        racks = obj["racks"]
        if not isinstance(racks, list):
            raise EventFormatError("'racks' must be a list of racks")
        return Scored(tuple(_tiles_of(r, "racks") for r in racks))
    if kind == "round":
        return NewRound(_tiles_of(obj["rack"], "rack"), _int_of(obj.get("first", ME), "first"))
    return Undo() if kind == "undo" else (Redo() if kind == "redo" else Passed())
