"""Tiles drawn as tiles: the library's SVG pictures (:mod:`rummikub.picture`, the renderer of
``solve --svg``, which draws each tile's colour letter in inks that read in daylight and
can number a table's melds) inline in a page, and the colours of the page's own tiles.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.etree import ElementTree as ET

from rummikub.models.meld import Meld
from rummikub.models.tile import Colour, Tile
from rummikub.picture.svg import INK, JOKER_INK, SVG_NS, TablePicture, table_svg
from rummikub.solver.move import Move
from rummikub.steps.report import move_picture

TILE_FACE = "#fbf8ef"  # the picture's tile face (rummikub.picture.svg)
READABLE = 4.5  # WCAG AA contrast for text of any size


def _luminance(colour: str) -> float:
    """Relative luminance of ``#rrggbb`` (WCAG 2)."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(ink: str, face: str = TILE_FACE) -> float:
    """The WCAG contrast ratio of ``ink`` on ``face`` (1 to 21)."""
    light, dark = sorted((_luminance(ink), _luminance(face)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def tile_ink(tile: Tile) -> str:
    """The ink of a tile's number and letter, as the pictures draw it."""
    if tile.colour is None:
        return JOKER_INK
    return INK.get(tile.colour, "#222222")


def ink_classes() -> dict[str, str]:
    """The page's tile colours by class name (``ink-r``, ``ink-j``), as the pictures draw
    them: one per colour letter of the game's eight colours, and the joker's."""
    inks = {f"ink-{Colour(i).letter}": tile_ink(Tile(Colour(i), 1)) for i in range(8)}
    return inks | {"ink-j": JOKER_INK}


def tile_class(tile: Tile) -> str:
    """The class of a tile's colour on the page (:func:`ink_classes`)."""
    return "ink-j" if tile.colour is None else f"ink-{tile.colour.letter}"


def for_page(svg: str, label: str) -> str:
    """A picture of :func:`rummikub.picture.table_svg` as inline SVG for a page: it scales to
    the page's width and says what it shows to screen readers."""
    root = ET.fromstring(svg)
    for element in root.iter():
        element.tag = element.tag.rpartition("}")[2]
    root.set("xmlns", SVG_NS)
    root.set("class", "picture")
    root.set("role", "img")
    root.set("aria-label", label)
    return ET.tostring(root, encoding="unicode")


def move_svg(move: Move) -> str:
    """The move's new table as inline SVG (the library's :func:`move_picture`)."""
    return for_page(table_svg(move_picture(move)), "the table after the move")


def table_svg_numbered(melds: Sequence[Meld]) -> str:
    """A game's table as inline SVG with its melds numbered 1, 2, ..."""
    picture = TablePicture(melds, legend="", numbered=True)
    return for_page(table_svg(picture), "the table")
