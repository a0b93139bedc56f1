"""A position: the melds on the table, the tiles on the rack, and whether the player has opened."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from rummikub.models.errors import IllegalPositionError
from rummikub.models.meld import Meld
from rummikub.models.notation import format_tiles
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
    rules: RuleSet = field(default=STANDARD, compare=False)

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
        total = self.table_counts() + self.rack_counts()
        for tile, count in sorted(total.items(), key=lambda kv: kv[0].sort_key()):
            allowed = rules.copies_of(tile)
            if count > allowed:
                name = "jokers" if tile.is_joker else f"copies of {tile}"
                raise IllegalPositionError(
                    f"{count} {name} on table and rack together; the game has only {allowed}"
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
            "rack": [str(t) for t in self.rack],
            "initial": self.initial,
        }

    def __str__(self) -> str:
        table = " | ".join(str(m) for m in self.table) or "(empty)"
        rack = format_tiles(sorted_tiles(self.rack)) or "(empty)"
        return f"table: {table}; rack: {rack}" + ("; initial" if self.initial else "")
