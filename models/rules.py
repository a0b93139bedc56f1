"""The rule set: every rule option of the game in one immutable object."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from rummikub.models.errors import RulesError
from rummikub.models.jokers import JokerRule
from rummikub.models.tile import COLOUR_LETTERS, JOKER, Colour, Tile

MAX_NUMBERS = 40
MAX_COPIES = 8
MAX_JOKERS = 8


@dataclass(frozen=True)
class RuleSet:
    """The rules of one Rummikub variant. The defaults are the standard 106-tile game.

    Every other part of the library reads rules from here and nowhere else.

    * ``colours``, ``numbers``, ``copies``, ``jokers``: the tiles (4 x 1..13 x 2 + 2 jokers);
    * ``min_len``: the fewest tiles in a set (3); a group holds at most ``colours`` tiles,
      a run at most ``numbers``;
    * ``max_jokers_per_set``: jokers one set may hold (2; 1 in the Vietnamese edition);
    * ``initial_threshold``: the least value of the opening meld (30; 50 American);
    * ``wrap``: runs may go round the top (12-13-1, 13-1-2; house rule, off by default);
    * ``joker_penalty``: what a joker left on a rack costs when a round is scored (30);
    * ``continue_after_initial``: whether the turn of the opening meld may go on to use
      the table (add to and rearrange its melds) once the opening meld is down (off);
    * ``joker_rule``: how jokers already on the table may be used: ``free`` (default, as in
      den Hertog & Hulshof), ``strict`` (official) or ``locked`` (see
      :class:`~rummikub.models.jokers.JokerRule`).
    """

    colours: int = 4
    numbers: int = 13
    copies: int = 2
    jokers: int = 2
    min_len: int = 3
    max_jokers_per_set: int = 2
    initial_threshold: int = 30
    wrap: bool = False
    joker_penalty: int = 30
    continue_after_initial: bool = False
    joker_rule: str = "free"
    _tile_types: tuple[Tile, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name, kind in _FIELD_TYPES.items():
            value = getattr(self, name)
            if kind is bool and not isinstance(value, bool):
                raise RulesError(f"invalid rules: {name} must be true or false, got {value!r}")
            if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
                raise RulesError(f"invalid rules: {name} must be a whole number, got {value!r}")
            if kind is JokerRule and value not in JOKER_RULES:
                choices = ", ".join(JOKER_RULES)
                raise RulesError(f"invalid rules: {name} must be one of {choices}, got {value!r}")
        object.__setattr__(self, "joker_rule", JokerRule(self.joker_rule))
        checks = [
            (2 <= self.colours <= len(COLOUR_LETTERS), f"colours must be 2..{len(COLOUR_LETTERS)}"),
            (1 <= self.numbers <= MAX_NUMBERS, f"numbers must be 1..{MAX_NUMBERS}"),
            (1 <= self.copies <= MAX_COPIES, f"copies must be 1..{MAX_COPIES}"),
            (0 <= self.jokers <= MAX_JOKERS, f"jokers must be 0..{MAX_JOKERS}"),
            (self.min_len >= 2, "min_len must be at least 2"),
            (self.min_len <= max(self.colours, self.numbers), "min_len leaves no legal set"),
            (self.max_jokers_per_set >= 0, "max_jokers_per_set must be at least 0"),
            (self.initial_threshold >= 0, "initial_threshold must be at least 0"),
            (self.joker_penalty >= 0, "joker_penalty must be at least 0"),
        ]
        for ok, message in checks:
            if not ok:
                raise RulesError(f"invalid rules: {message}")
        types = tuple(
            Tile(Colour(c), n) for c in range(self.colours) for n in range(1, self.numbers + 1)
        )
        object.__setattr__(self, "_tile_types", types + ((JOKER,) if self.jokers else ()))

    @property
    def tile_types(self) -> tuple[Tile, ...]:
        """Every distinct tile of the game, colour-major, the joker last if the game has one."""
        return self._tile_types

    @property
    def joker_index(self) -> int:
        """Index of the joker in :attr:`tile_types` (only meaningful when ``jokers > 0``)."""
        return self.colours * self.numbers

    @property
    def total_tiles(self) -> int:
        """Number of physical tiles in a full set (106 in the standard game)."""
        return self.colours * self.numbers * self.copies + self.jokers

    @property
    def max_run_in_catalogue(self) -> int:
        """Longest run the set catalogue needs: longer runs split into runs of min_len.."""
        return 2 * self.min_len - 1

    def index(self, tile: Tile) -> int:
        """Position of a tile type in :attr:`tile_types`; the tile must belong to the game."""
        if tile.colour is None or tile.number is None:
            return self.joker_index
        return int(tile.colour) * self.numbers + tile.number - 1

    def copies_of(self, tile: Tile) -> int:
        """How many physical tiles of this type the game has."""
        return self.jokers if tile.is_joker else self.copies

    def contains(self, tile: Tile) -> bool:
        """Whether the tile exists in this game."""
        if tile.colour is None or tile.number is None:
            return self.jokers > 0
        return int(tile.colour) < self.colours and 1 <= tile.number <= self.numbers

    def check_tile(self, tile: Tile, where: str = "") -> None:
        """Raise a :class:`RulesError`-style message if the tile is not part of this game."""
        from rummikub.models.errors import IllegalPositionError

        if self.contains(tile):
            return
        place = f" {where}" if where else ""
        if tile.is_joker:
            raise IllegalPositionError(f"joker{place}: these rules have no jokers")
        if tile.colour is not None and int(tile.colour) >= self.colours:
            letters = " ".join(COLOUR_LETTERS[: self.colours])
            raise IllegalPositionError(
                f"tile {tile}{place}: colour not in this game (colours: {letters})"
            )
        raise IllegalPositionError(f"tile {tile}{place}: numbers run from 1 to {self.numbers}")

    def number_tiles(self) -> Iterator[Tile]:
        """Every non-joker tile type."""
        return (t for t in self._tile_types if not t.is_joker)

    def run_numbers(self, start: int, length: int) -> tuple[int, ...]:
        """The numbers of a run of ``length`` tiles from ``start``, going round past
        ``numbers`` back to 1 (only legal when :attr:`wrap` is on)."""
        return tuple((start + i - 1) % self.numbers + 1 for i in range(length))

    def run_starts(self, length: int) -> range:
        """Every first number a run of ``length`` tiles may have under these rules."""
        if length > self.numbers:
            return range(0)
        if self.wrap:
            return range(1, self.numbers + 1)
        return range(1, self.numbers - length + 2)

    def penalty(self, tile: Tile) -> int:
        """What the tile costs when left on a rack at the end of a round."""
        return self.joker_penalty if tile.is_joker else tile.value

    def rack_penalty(self, tiles: Iterable[Tile]) -> int:
        """What a rack left at the end of a round costs (jokers at :attr:`joker_penalty`)."""
        return sum(self.penalty(t) for t in tiles)

    def options(self) -> dict[str, int | bool | str]:
        """Every rule option by field name (what a rules file or ``RuleSet(**...)`` takes)."""
        return {name: getattr(self, name) for name in _FIELD_TYPES}

    def changes(self) -> dict[str, int | bool | str]:
        """The options that differ from the standard game."""
        standard = RuleSet().options()
        return {k: v for k, v in self.options().items() if standard[k] != v}

    @classmethod
    def preset(cls, name: str) -> RuleSet:
        """A named rule set: ``standard``, ``american``, ... (see ``rummikub.models.presets``)."""
        from rummikub.models.presets import preset

        return preset(name)


JOKER_RULES: tuple[str, ...] = tuple(rule.value for rule in JokerRule)

_FIELD_TYPES: dict[str, type] = {
    "colours": int,
    "numbers": int,
    "copies": int,
    "jokers": int,
    "min_len": int,
    "max_jokers_per_set": int,
    "initial_threshold": int,
    "wrap": bool,
    "joker_penalty": int,
    "continue_after_initial": bool,
    "joker_rule": JokerRule,
}
RULE_OPTIONS = tuple(_FIELD_TYPES)
"""The names of every rule option, in the order of the :class:`RuleSet` fields."""

STANDARD = RuleSet()
