"""The rule set: every rule option of the game in one immutable object.

Each option is a :class:`RuleSet` field declared with :func:`rule_option`, whose metadata
(help text, command-line flag, bounds) is all the command line and rules files need: a new
option is one field here.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from rummikub.models.errors import RulesError
from rummikub.models.jokers import JokerRule
from rummikub.models.tile import COLOUR_LETTERS, JOKER, Colour, Tile

MAX_NUMBERS = 40
MAX_COPIES = 8
MAX_JOKERS = 8

RuleValue = int | bool | JokerRule
"""What a rule option holds: a whole number, a yes/no switch or a joker rule."""


def rule_option(
    default: RuleValue,
    help: str,
    *,
    flag: str | None = None,
    low: int | None = None,
    high: int | None = None,
) -> Any:
    """A :class:`RuleSet` field: its default, a one-line ``help`` for players, the
    command-line ``flag`` (default: the field name with hyphens) and integer bounds."""
    return field(default=default, metadata={"help": help, "flag": flag, "low": low, "high": high})


@dataclass(frozen=True)
class RuleOption:
    """What the command line and rules files know of one rule option."""

    name: str  # the RuleSet field (and rules-file key)
    kind: type  # int, bool or an Enum
    default: RuleValue
    help: str
    flag: str  # the command-line option without dashes, e.g. "threshold"
    low: int | None
    high: int | None

    @property
    def choices(self) -> tuple[str, ...]:
        """The values an enum option takes (empty for numbers and switches)."""
        if issubclass(self.kind, Enum):
            return tuple(str(member.value) for member in self.kind)
        return ()

    def coerce(self, value: object) -> RuleValue:
        """The value as this option's type; :class:`RulesError` naming the option if it is none."""
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            raise RulesError(f"invalid rules: {self.name} must be true or false, got {value!r}")
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(
                    f"invalid rules: {self.name} must be a whole number, got {value!r}"
                )
            too_low = self.low is not None and value < self.low
            if too_low or (self.high is not None and value > self.high):
                span = f"at least {self.low}" if self.high is None else f"{self.low}..{self.high}"
                raise RulesError(f"invalid rules: {self.name} must be {span}, got {value}")
            return value
        try:
            return typing.cast(RuleValue, self.kind(value))
        except ValueError:
            raise RulesError(
                f"invalid rules: {self.name} must be one of {', '.join(self.choices)}, "
                f"got {value!r}"
            ) from None


@dataclass(frozen=True)
class RuleSet:
    """The rules of one Rummikub variant. The defaults are the standard 106-tile game.

    Every other part of the library reads rules from here and nowhere else. A group holds
    at most ``colours`` tiles, a run at most ``numbers``; the other fields say what their
    help text says (see :data:`OPTIONS`).
    """

    colours: int = rule_option(4, "Colours in the game.", low=2, high=len(COLOUR_LETTERS))
    numbers: int = rule_option(13, "Numbers per colour, 1..N.", low=1, high=MAX_NUMBERS)
    copies: int = rule_option(2, "Copies of each numbered tile.", low=1, high=MAX_COPIES)
    jokers: int = rule_option(2, "Jokers in the game.", low=0, high=MAX_JOKERS)
    min_len: int = rule_option(3, "Fewest tiles in a set.", low=2)
    rack_size: int = rule_option(
        14, "Tiles dealt to each player at the start of a round (games and the arena).", low=1
    )
    max_jokers_per_set: int = rule_option(
        2, "Jokers one set may hold (the 1998 Pressman American edition: 1).", low=0
    )
    initial_threshold: int = rule_option(
        30,
        "Least value of the opening meld, one or more sets of rack tiles (a joker counts as "
        "its tile; 50 is a house rule; 0 still asks for a set).",
        flag="threshold",
        low=0,
    )
    wrap: bool = rule_option(False, "Runs may go round the top: 12-13-1, 13-1-2 (house rule).")
    joker_penalty: int = rule_option(
        30, "What a joker left on a rack costs when a round is scored.", low=0
    )
    continue_after_initial: bool = rule_option(
        False, "The opening turn may go on to use the table once the opening meld is down."
    )
    joker_rule: JokerRule = rule_option(  # noqa: RUF009 - a field specifier; enums are immutable
        JokerRule.FREE,
        "Jokers already on the table: free (move like any tile), strict (the printed rule: a "
        "table joker stays with its set, in a meld with a tile of its old meld and standing "
        "for the same tile, unless its tile from the rack takes its place; the freed joker "
        "then goes into a new set with two rack tiles) or locked (as strict, but a freed "
        "joker goes anywhere).",
    )
    _tile_types: tuple[Tile, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for option in OPTIONS:
            object.__setattr__(self, option.name, option.coerce(getattr(self, option.name)))
        if self.min_len > max(self.colours, self.numbers):
            raise RulesError("invalid rules: min_len leaves no legal set")
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

    def options(self) -> dict[str, RuleValue]:
        """Every rule option by field name (what a rules file or ``RuleSet(**...)`` takes)."""
        return {option.name: getattr(self, option.name) for option in OPTIONS}

    def changes(self) -> dict[str, RuleValue]:
        """The options that differ from the standard game."""
        standard = RuleSet().options()
        return {k: v for k, v in self.options().items() if standard[k] != v}


def _rule_options() -> tuple[RuleOption, ...]:
    hints = typing.get_type_hints(RuleSet)
    return tuple(
        RuleOption(
            name=f.name,
            kind=hints[f.name],
            default=typing.cast(RuleValue, f.default),
            help=f.metadata["help"],
            flag=f.metadata["flag"] or f.name.replace("_", "-"),
            low=f.metadata["low"],
            high=f.metadata["high"],
        )
        for f in dataclasses.fields(RuleSet)
        if "help" in f.metadata
    )


OPTIONS: tuple[RuleOption, ...] = _rule_options()
"""Every rule option, in the order of the :class:`RuleSet` fields."""
RULE_OPTIONS: tuple[str, ...] = tuple(option.name for option in OPTIONS)
"""The names of every rule option, in the order of the :class:`RuleSet` fields."""
JOKER_RULES: tuple[str, ...] = tuple(rule.value for rule in JokerRule)


def option_named(key: str) -> RuleOption | None:
    """The rule option a rules file or ``rules:`` line means by ``key``: its field name or
    its command-line flag, with hyphens or underscores (``threshold``, ``joker-rule``)."""
    wanted = key.strip().lower().replace("-", "_")
    for option in OPTIONS:
        if wanted in (option.name, option.flag.replace("-", "_")):
            return option
    return None


STANDARD = RuleSet()
