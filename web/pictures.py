"""Tiles drawn as tiles: the library's SVG pictures (:mod:`rummikub.picture`, the renderer of
``solve --svg``) made ready for a phone, and the colours of the page's own tiles.

A picture comes from :func:`rummikub.picture.table_svg` unchanged in layout; this module
adds what a player at a table in daylight needs and the ``--svg`` file does not draw: the
colour letter on every tile (for colour-blind players), numbers over the melds of a game's
table (to name them), and each tile's ink darkened where it is too light to read on the
tile's face (the orange of the palette is 2.7:1 on the face; these pages ask 4.5:1).
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.etree import ElementTree as ET

from rummikub.models.meld import Meld
from rummikub.models.tile import COLOUR_LETTERS, Colour, Tile
from rummikub.picture.svg import INK, JOKER_INK, SVG_NS, TablePicture, table_svg
from rummikub.solver.move import Move
from rummikub.steps.planner import RACK, explanation

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


def readable(ink: str, face: str = TILE_FACE) -> str:
    """``ink``, darkened in small steps (its hue kept) until it reads on ``face``."""
    red, green, blue = (int(ink[i : i + 2], 16) for i in (1, 3, 5))
    shade = ink
    scale = 1.0
    while contrast(shade, face) < READABLE and scale > 0:
        scale -= 0.05
        shade = "#" + "".join(f"{round(c * scale):02x}" for c in (red, green, blue))
    return shade


def tile_ink(tile: Tile) -> str:
    """The readable ink of a tile's number and letter."""
    if tile.colour is None:
        return readable(JOKER_INK)
    return readable(INK.get(tile.colour, "#222222"))


def ink_classes() -> dict[str, str]:
    """The page's tile colours by class name (``ink-r``, ``ink-j``), as the pictures draw
    them: one per colour letter of the game's eight colours, and the joker's."""
    inks = {f"ink-{Colour(i).letter}": tile_ink(Tile(Colour(i), 1)) for i in range(8)}
    return inks | {"ink-j": readable(JOKER_INK)}


def tile_class(tile: Tile) -> str:
    """The class of a tile's colour on the page (:func:`ink_classes`)."""
    return "ink-j" if tile.colour is None else f"ink-{tile.colour.letter}"


def _strip_namespace(root: ET.Element) -> None:
    for element in root.iter():
        element.tag = element.tag.rpartition("}")[2]


def _rect_corner(group: ET.Element) -> tuple[float, float]:
    rect = group.find("rect")
    assert rect is not None, "every tile of the picture is a rect"
    return float(rect.get("x", "0")), float(rect.get("y", "0"))


def _letter_tile(group: ET.Element) -> None:
    """Darken the tile's text to a readable ink and write its colour letter in its corner."""
    title = group.findtext("title", "")
    token = title.split(" ", 1)[0]
    for text in group.findall("text"):
        fill = text.get("fill")
        if fill and fill.startswith("#") and len(fill) == 7:
            text.set("fill", readable(fill))
    letter = token[:1].lower()
    if not letter or letter not in COLOUR_LETTERS:
        return  # the joker: its J says what it is
    x, y = _rect_corner(group)
    label = group.find("text")
    ink = label.get("fill", "#222222") if label is not None else "#222222"
    mark = ET.SubElement(
        group,
        "text",
        {
            "class": "letter",
            "x": f"{x + 5:g}",
            "y": f"{y + 13:g}",
            "font-family": "sans-serif",
            "font-size": "11",
            "font-weight": "bold",
            "fill": ink,
        },
    )
    mark.text = letter


def _number_melds(root: ET.Element) -> None:
    """Each meld's number (1, 2, ... as drawn) above its first tile: the game page names
    melds by it."""
    melds = [g for g in root.iter("g") if g.get("class") == "meld"]
    for number, meld in enumerate(melds, 1):
        first = next((g for g in meld.iter("g") if "tile" in (g.get("class") or "")), None)
        if first is None:
            continue
        x, y = _rect_corner(first)
        label = ET.SubElement(
            meld,
            "text",
            {
                "class": "meld-number",
                "x": f"{x:g}",
                "y": f"{y - 4:g}",
                "font-family": "sans-serif",
                "font-size": "12",
                "font-weight": "bold",
                "fill": "#ffffff",
            },
        )
        label.text = str(number)


def for_page(svg: str, label: str, numbered: bool = False) -> str:
    """A picture of :func:`rummikub.picture.table_svg` as inline SVG for a page: colour
    letters, readable inks, optionally numbered melds; it scales to the page's width."""
    root = ET.fromstring(svg)
    _strip_namespace(root)
    for group in root.iter("g"):
        if "tile" in (group.get("class") or "").split():
            _letter_tile(group)
    if numbered:
        _number_melds(root)
    root.set("xmlns", SVG_NS)
    root.set("class", "picture")
    root.set("role", "img")
    root.set("aria-label", label)
    return ET.tostring(root, encoding="unicode")


def move_picture(move: Move) -> TablePicture:
    """The new table of a move to draw: rack tiles highlighted, each joker labelled with
    what it stands for (as ``rummikub solve --svg`` draws it)."""
    told = explanation(move, steps=False)
    labels = {
        (row, slot): "/".join(map(str, options))
        for row, jokers in enumerate(told.jokers)
        for slot, options in jokers
        if options
    }
    count = move.placed_count
    title = (
        "No move: draw a tile"
        if move.is_draw
        else f"Place {count} tile{'s' if count != 1 else ''} (value {move.placed_value})"
        + (" - you go out!" if told.goes_out else "")
    )
    return TablePicture(
        move.melds, [[s == RACK for s in row] for row in told.provenance], labels, title
    )


def move_svg(move: Move) -> str:
    """The move's new table as inline SVG (:func:`move_picture`, :func:`for_page`)."""
    return for_page(table_svg(move_picture(move)), "the table after the move")


def table_svg_numbered(melds: Sequence[Meld]) -> str:
    """A game's table as inline SVG with its melds numbered 1, 2, ..."""
    picture = TablePicture(melds, legend="")
    return for_page(table_svg(picture), "the table", numbered=True)
