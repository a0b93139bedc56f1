"""Tiles and colours: small immutable values that parse and print their own notation."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum

from rummikub.models.errors import NotationError


class Colour(IntEnum):
    """Tile colours in catalogue order; the standard game uses the first four."""

    BLACK = 0
    BLUE = 1
    RED = 2
    ORANGE = 3
    GREEN = 4
    PURPLE = 5
    WHITE = 6
    CYAN = 7

    @property
    def letter(self) -> str:
        """The one-letter notation of this colour (``k b r o g p w c``)."""
        return COLOUR_LETTERS[self]

    @classmethod
    def parse(cls, letter: str) -> Colour:
        """The colour for a letter; ``y`` (yellow) is accepted for orange. Case-insensitive."""
        try:
            return _LETTER_TO_COLOUR[letter.lower()]
        except KeyError:
            raise NotationError(
                f"unknown colour {letter[:10]!r}: colours are k b r o (y = orange; "
                "g p w c in games with more colours)"
            ) from None


COLOUR_LETTERS = ("k", "b", "r", "o", "g", "p", "w", "c")
_LETTER_TO_COLOUR = {letter: Colour(i) for i, letter in enumerate(COLOUR_LETTERS)} | {
    "y": Colour.ORANGE
}
JOKER_LETTER = "j"
_TILE_RE = re.compile(r"([a-zA-Z])(\d{1,3})")
# Full-width forms (U+FF01-FF5E: letters, digits, | and - as an East Asian keyboard types
# them) and the ideographic space read as their ASCII forms.
_HALF_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}


def half_width(text: str) -> str:
    """The text with full-width letters, digits and signs as their ASCII forms."""
    return text.translate(_HALF_WIDTH)


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile: a colour and a number, or the joker (both fields ``None``).

    Orders colour-major (all black tiles, then blue, ...), jokers last.
    """

    colour: Colour | None
    number: int | None
    _hash: int = field(init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        return self._hash

    def __post_init__(self) -> None:
        if (self.colour is None) != (self.number is None):
            raise NotationError("a tile has both a colour and a number, or neither (joker)")
        if self.number is not None and self.number < 1:
            raise NotationError(f"tile number must be at least 1, got {self.number}")
        # Not the generated hash: hash(None) (the joker's fields) differs between processes
        # before Python 3.12, and sets of tiles must iterate alike in every run. Worked out
        # once: tiles are hashed in every Counter of the solver (6% of an arena game).
        key = (-1 if self.colour is None else int(self.colour), self.number or 0)
        object.__setattr__(self, "_hash", hash(key))

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse ``r10``, ``K3``, ``y7`` (orange) or ``j`` (joker); full-width forms too."""
        token = half_width(text).strip()
        if token.lower() == JOKER_LETTER:
            return JOKER
        match = _TILE_RE.fullmatch(token)
        if not match:
            raise NotationError(
                f"not a tile: {_show(token)} (write a colour letter and a number like r10, or j)"
            )
        try:
            colour = Colour.parse(match.group(1))
        except NotationError as error:
            raise NotationError(f"not a tile: {_show(token)} ({error})") from None
        number = int(match.group(2))
        if number < 1:
            raise NotationError(f"not a tile: {_show(token)} (numbers start at 1)")
        return cls(colour, number)

    @property
    def is_joker(self) -> bool:
        """Whether this is the joker."""
        return self.colour is None

    @property
    def value(self) -> int:
        """Face value (the number); a joker has no face value of its own (0)."""
        return self.number or 0

    def sort_key(self) -> tuple[int, int]:
        """Key that sorts colour-major with jokers last."""
        if self.colour is None or self.number is None:
            return (99, 0)
        return (int(self.colour), self.number)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return self.sort_key() < other.sort_key()

    def __str__(self) -> str:
        if self.colour is None:
            return JOKER_LETTER
        return f"{self.colour.letter}{self.number}"

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"


JOKER = Tile(None, None)


def _show(token: str, limit: int = 40) -> str:
    """Quote a user token for an error message, shortened so one line stays one line."""
    shown = token if len(token) <= limit else token[:limit] + "..."
    return repr(shown)


def sorted_tiles(tiles: Iterable[Tile]) -> list[Tile]:
    """Tiles sorted colour-major, jokers last."""
    return sorted(tiles, key=Tile.sort_key)
