"""The table picture (``--svg``, ``--png``, the web's tables): the layout, the colour letter
on every coloured tile, inks that read on the tile's face in daylight, numbered melds."""

from __future__ import annotations

import re
from xml.etree import ElementTree as ET

from rummikub.models import Position
from rummikub.picture import TablePicture, table_svg
from rummikub.picture.svg import INK, JOKER_INK

SVG = "{http://www.w3.org/2000/svg}"
FACES = ("#fbf8ef", "#fff6c8")  # a tile's face, plain and highlighted


def _contrast(ink: str, face: str) -> float:
    """WCAG 2 contrast ratio, written here from the definition."""

    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(ink), luminance(face)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_every_ink_reads_at_4_5_to_1_on_the_face() -> None:
    for ink in [*INK.values(), JOKER_INK]:
        for face in FACES:
            assert _contrast(ink, face) >= 4.5, (ink, face)


def test_every_coloured_tile_shows_its_colour_letter() -> None:
    table = Position.parse("table: r1 r2 r3 | k5 b5 o5 | j b7 b8\nrack: r4").table
    root = ET.fromstring(table_svg(TablePicture(table)))
    tiles = [g for g in root.iter(f"{SVG}g") if "tile" in g.get("class", "").split()]
    assert len(tiles) == 9
    for tile in tiles:
        token = tile.findtext(f"{SVG}title", "").split()[0]
        letters = [t.text for t in tile.iter(f"{SVG}text") if t.get("class") == "letter"]
        assert letters == ([] if token == "j" else [token[0]])  # a joker says J already


def test_melds_are_numbered_when_asked() -> None:
    table = Position.parse("table: r1 r2 r3 | k5 b5 o5 | b7 b8 b9\nrack: r4").table
    svg = table_svg(TablePicture(table, numbered=True))
    assert re.findall(r'class="meld-number"[^>]*>(\d+)<', svg) == ["1", "2", "3"]
    assert "meld-number" not in table_svg(TablePicture(table))
