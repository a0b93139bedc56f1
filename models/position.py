"""A position: the melds on the table, the tiles on the rack, and whether the player has opened."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from rummikub.models.errors import IllegalPositionError
from rummikub.models.meld import Meld
from rummikub.models.notation import format_tiles, tiles_json
from rummikub.models.position_format import read_any, read_json, read_text
from rummikub.models.presets import rules_line, rules_object
from rummikub.models.rules import STANDARD, RuleSet
from rummikub.models.tile import Tile, sorted_tiles


@dataclass(frozen=True)
class Position:
    """What one player sees on their turn.

    ``initial`` is true while the player still has to make the opening meld: then only rack
    tiles may be played, worth at least the rules' threshold, and the table is not touched.
    ``rules`` are the rules the position is played under, the only place the solver and the
    validator read any rule from (the table-joker rule included).
    """

    table: tuple[Meld, ...] = ()
    rack: tuple[Tile, ...] = ()
    initial: bool = False
    rules: RuleSet = STANDARD  # part of equality: the same tiles under other rules differ

    @classmethod
    def of(
        cls,
        table: Iterable[Meld] = (),
        rack: Iterable[Tile] = (),
        initial: bool = False,
        rules: RuleSet = STANDARD,
    ) -> Position:
        """A validated position (raises on anything illegal)."""
        position = cls(tuple(table), tuple(rack), initial, rules)
        position.validate()
        return position

    @classmethod
    def parse(cls, text: str, rules: RuleSet | None = None) -> Position:
        """A validated position from the text format, or from JSON text when it starts with ``{``.

        The text format: optional ``rules: american joker_rule=strict``, ``table: r1 r2 r3 |
        b5-7`` (or one meld per line after ``table:``), ``rack: k4 o9 j``, optional
        ``initial: yes``; ``#`` starts a comment. ``rules``, when given, overrides the rules
        the text says (standard when it says none). Raises a
        :class:`~rummikub.models.errors.RummikubError` naming what is wrong.
        """
        return cls.of(*read_any(text, rules))

    @classmethod
    def from_json(cls, obj: object, rules: RuleSet | None = None) -> Position:
        """A validated position from a JSON object ``{"table": [...], "rack": [...], ...}``.

        The inverse of :meth:`to_json`; a meld may also be one string (``"r3-7"``), the rack
        one string; ``rules``, when given, overrides the object's ``"rules"``.
        """
        return cls.of(*read_json(obj, rules))

    def table_tiles(self) -> list[Tile]:
        """Every tile on the table, meld by meld."""
        return [t for meld in self.table for t in meld.tiles]

    def table_counts(self) -> Counter[Tile]:
        """Table tiles as a multiset."""
        return Counter(self.table_tiles())

    def rack_counts(self) -> Counter[Tile]:
        """Rack tiles as a multiset."""
        return Counter(self.rack)

    def validate(self) -> None:
        """Raise :class:`IllegalPositionError` or :class:`IllegalMeldError` naming the problem."""
        rules = self.rules
        for i, meld in enumerate(self.table, 1):
            for tile in meld.tiles:
                if not rules.contains(tile):  # the message (printing the meld) only then
                    rules.check_tile(tile, f"in table meld {i} '{meld}'")
            meld.check(rules, where=f"table meld {i}")
        for tile in self.rack:
            rules.check_tile(tile, "on the rack")
        total = self.table_counts()
        total.update(self.rack)
        too_many = [tile for tile, count in total.items() if count > rules.copies_of(tile)]
        if too_many:  # the first in tile order, as a person reads the position
            tile = min(too_many, key=Tile.sort_key)
            name = "jokers" if tile.is_joker else f"copies of {tile}"
            raise IllegalPositionError(
                f"{total[tile]} {name} on table and rack together; "
                f"the game has only {rules.copies_of(tile)}"
            )

    def to_text(self) -> str:
        """The position in the text format (one meld per line under ``table:``), with a
        ``rules:`` line when it is not played under the standard rules."""
        lines = [f"rules: {rules_line(self.rules)}"] if self.rules != STANDARD else []
        lines += ["table:"] + [f"  {meld}" for meld in self.table]
        lines.append(f"rack: {format_tiles(self.rack)}")
        if self.initial:
            lines.append("initial: yes")
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict[str, object]:
        """The position as a JSON-ready object (with ``"rules"`` when they are not standard)."""
        rules: dict[str, object] = {}
        if self.rules != STANDARD:
            rules["rules"] = rules_object(self.rules)
        return rules | {
            "table": [meld.tokens() for meld in self.table],
            "rack": tiles_json(self.rack),
            "initial": self.initial,
        }

    def __str__(self) -> str:
        table = " | ".join(str(m) for m in self.table) or "(empty)"
        rack = format_tiles(sorted_tiles(self.rack)) or "(empty)"
        return f"table: {table}; rack: {rack}" + ("; initial" if self.initial else "")


def position_from_text(text: str, rules: RuleSet | None = None) -> Position:
    """A validated position from the text format (see :meth:`Position.parse`)."""
    return Position.of(*read_text(text, rules))


def position_from_json(obj: object, rules: RuleSet | None = None) -> Position:
    """A validated position from a JSON object (see :meth:`Position.from_json`)."""
    return Position.of(*read_json(obj, rules))


def position_from_any(text: str, rules: RuleSet | None = None) -> Position:
    """A validated position from JSON text (when it starts with ``{``) or the text format."""
    return Position.of(*read_any(text, rules))
