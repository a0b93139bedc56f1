"""A picture of a table: melds drawn as rows of tiles in their colours, as SVG.

Knows only melds and tiles: the caller says which tiles to highlight (for example the ones
that came from the rack) and what each joker stands for. The SVG is built as an XML tree
(:mod:`xml.etree.ElementTree`), so it is always well-formed; it needs no fonts or files
beyond a generic sans-serif.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from xml.etree import ElementTree as ET

from rummikub.models.meld import Meld
from rummikub.models.tile import Colour, Tile

SVG_NS = "http://www.w3.org/2000/svg"

INK: dict[Colour, str] = {
    Colour.BLACK: "#222222",
    Colour.BLUE: "#1c5bbf",
    Colour.RED: "#c62828",
    Colour.ORANGE: "#e67e00",
    Colour.GREEN: "#2e7d32",
    Colour.PURPLE: "#7b1fa2",
    Colour.WHITE: "#8a8a8a",
    Colour.CYAN: "#00838f",
}
JOKER_INK = "#ad1457"

_TILE_W, _TILE_H, _GAP, _ROW_GAP, _MARGIN = 40, 56, 4, 18, 16


@dataclass(frozen=True)
class TablePicture:
    """What to draw: the melds, per meld and tile whether it is highlighted, and per
    (meld, tile position) of a joker the text saying what it stands for."""

    melds: Sequence[Meld]
    highlighted: Sequence[Sequence[bool]] = ()
    joker_labels: Mapping[tuple[int, int], str] = field(default_factory=dict)
    title: str = ""
    legend: str = "highlighted: tiles from your rack"


def _label(tile: Tile) -> tuple[str, str]:
    """The text on a tile and its colour."""
    if tile.is_joker or tile.colour is None:
        return "J", JOKER_INK
    return str(tile.number), INK.get(tile.colour, "#222222")


def _tile(
    parent: ET.Element, x: int, y: int, tile: Tile, highlight: bool, note: str | None
) -> None:
    group = ET.SubElement(parent, "g", {"class": "tile" + (" placed" if highlight else "")})
    ET.SubElement(group, "title").text = str(tile) + (f" = {note}" if note else "")
    ET.SubElement(
        group,
        "rect",
        {
            "x": str(x),
            "y": str(y),
            "width": str(_TILE_W),
            "height": str(_TILE_H),
            "rx": "6",
            "fill": "#fff6c8" if highlight else "#fbf8ef",
            "stroke": "#e0a800" if highlight else "#9e9a8e",
            "stroke-width": "3" if highlight else "1",
        },
    )
    text, ink = _label(tile)
    label = ET.SubElement(
        group,
        "text",
        {
            "x": str(x + _TILE_W // 2),
            "y": str(y + 30),
            "text-anchor": "middle",
            "font-family": "sans-serif",
            "font-size": "20",
            "font-weight": "bold",
            "fill": ink,
        },
    )
    label.text = text
    if note:
        small = ET.SubElement(
            group,
            "text",
            {
                "x": str(x + _TILE_W // 2),
                "y": str(y + 48),
                "text-anchor": "middle",
                "font-family": "sans-serif",
                "font-size": "10",
                "fill": JOKER_INK,
            },
        )
        small.text = f"={note}"


def table_svg(picture: TablePicture) -> str:
    """The picture as an SVG document (text)."""
    melds = list(picture.melds)
    widest = max((len(m) for m in melds), default=0)
    top = _MARGIN + (28 if picture.title else 0)
    width = 2 * _MARGIN + max(widest * (_TILE_W + _GAP), 320)
    height = top + len(melds) * (_TILE_H + _ROW_GAP) + _MARGIN + 20
    svg = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "width": str(width),
            "height": str(height),
            "viewBox": f"0 0 {width} {height}",
        },
    )
    ET.SubElement(svg, "rect", {"width": "100%", "height": "100%", "fill": "#2f6b3f"})
    if picture.title:
        heading = ET.SubElement(
            svg,
            "text",
            {
                "x": str(_MARGIN),
                "y": str(_MARGIN + 16),
                "font-family": "sans-serif",
                "font-size": "16",
                "fill": "#ffffff",
            },
        )
        heading.text = picture.title
    for row, meld in enumerate(melds):
        y = top + row * (_TILE_H + _ROW_GAP)
        marks = picture.highlighted[row] if row < len(picture.highlighted) else ()
        line = ET.SubElement(svg, "g", {"class": "meld"})
        for pos, tile in enumerate(meld.tiles):
            x = _MARGIN + pos * (_TILE_W + _GAP)
            lit = bool(marks[pos]) if pos < len(marks) else False
            _tile(line, x, y, tile, lit, picture.joker_labels.get((row, pos)))
    if picture.legend:
        foot = ET.SubElement(
            svg,
            "text",
            {
                "x": str(_MARGIN),
                "y": str(height - _MARGIN + 4),
                "font-family": "sans-serif",
                "font-size": "12",
                "fill": "#fff6c8",
            },
        )
        foot.text = picture.legend
    ET.indent(svg)
    return ET.tostring(svg, encoding="unicode", xml_declaration=True) + "\n"
