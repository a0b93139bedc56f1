"""Tiles drawn for a phone in daylight: the library's picture, with the colour letter on
every tile, numbered melds and inks that read on the tile's face, inline in the pages."""

from __future__ import annotations

import re
from xml.etree import ElementTree as ET

import pytest

from rummikub.models import Position
from rummikub.picture.svg import INK, TablePicture, table_svg
from rummikub.solver import solve
from rummikub.web import pictures

POSITION = "table: r1 r2 r3 | k5 b5 o5 | j b7 b8\nrack: r4 j o13 o12 o11"
SVG = "{http://www.w3.org/2000/svg}"


def test_every_ink_reads_on_the_tile_face() -> None:
    for name, ink in pictures.ink_classes().items():
        assert pictures.contrast(ink) >= pictures.READABLE, name
    assert pictures.contrast(INK[next(iter(INK))]) > 1  # the measure itself
    assert round(pictures.contrast("#000000", "#ffffff"), 1) == 21.0
    assert pictures.contrast("#e67e00") < pictures.READABLE  # the usual orange would not do


def _tiles(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if "tile" in g.get("class", "").split()]


def test_the_picture_gets_letters_and_readable_inks() -> None:
    move = solve(Position.parse(POSITION))
    root = ET.fromstring(pictures.move_svg(move))
    tiles = _tiles(root)
    assert len(tiles) == len(move.position.table_tiles()) + len(move.placed)
    for tile in tiles:
        token = tile.findtext(f"{SVG}title", "").split()[0]
        letters = [t.text for t in tile.iter(f"{SVG}text") if t.get("class") == "letter"]
        assert letters == ([] if token == "j" else [token[0]])  # jokers say J already
        for text in tile.iter(f"{SVG}text"):
            assert pictures.contrast(text.get("fill", "")) >= pictures.READABLE, token


def test_a_game_table_numbers_its_melds() -> None:
    position = Position.parse("table: r1 r2 r3 | k5 b5 o5 | b7 b8 b9\nrack: r4")
    svg = pictures.table_svg_numbered(position.table)
    assert re.findall(r'class="meld-number"[^>]*>(\d+)<', svg) == ["1", "2", "3"]


@pytest.mark.parametrize("melds", ["", "r1 r2 r3"])
def test_the_layout_is_the_librarys(melds: str) -> None:
    """The page's picture is the --svg picture with marks added: same size, same tiles."""
    table = Position.parse(f"table: {melds}\nrack: r5").table
    plain = ET.fromstring(table_svg(TablePicture(table, legend="")))
    page = ET.fromstring(pictures.table_svg_numbered(table))
    assert page.get("viewBox") == plain.get("viewBox")
    rects = [r.attrib for r in plain.iter(f"{SVG}rect")]
    assert [r.attrib for r in page.iter(f"{SVG}rect")] == rects
