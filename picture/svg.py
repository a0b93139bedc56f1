"""A picture of a table: melds drawn as rows of tiles in their colours, as SVG or PNG.

Knows only melds and tiles: the caller says which tiles to highlight (for example the ones
that came from the rack) and what each joker stands for. The SVG is built as an XML tree
(:mod:`xml.etree.ElementTree`), so it is always well-formed; it needs no fonts or files
beyond a generic sans-serif. The PNG draws the same layout with Pillow (``pip install
'rummikub[plot]'``), imported only when a PNG is asked for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from xml.etree import ElementTree as ET

from rummikub.models.errors import RummikubError
from rummikub.models.meld import Meld
from rummikub.models.tile import Colour, Tile

SVG_NS = "http://www.w3.org/2000/svg"

# Each ink reads at 4.5:1 or more on the tile's face, lit or not (WCAG AA, for a table in
# daylight): orange, grey and cyan are darker than their usual tones for that.
INK: dict[Colour, str] = {
    Colour.BLACK: "#222222",
    Colour.BLUE: "#1c5bbf",
    Colour.RED: "#c62828",
    Colour.ORANGE: "#a85a00",
    Colour.GREEN: "#2e7d32",
    Colour.PURPLE: "#7b1fa2",
    Colour.WHITE: "#666666",
    Colour.CYAN: "#006a74",
}
JOKER_INK = "#ad1457"

_TILE_W, _TILE_H, _GAP, _ROW_GAP, _MARGIN = 40, 56, 4, 18, 16
_FELT, _TILE_FACE, _TILE_LIT, _EDGE, _EDGE_LIT, _LEGEND_INK = (
    "#2f6b3f",
    "#fbf8ef",
    "#fff6c8",
    "#9e9a8e",
    "#e0a800",
    "#fff6c8",
)


class PictureError(RummikubError):
    """A picture that cannot be drawn here (the PNG needs Pillow)."""


@dataclass(frozen=True)
class TablePicture:
    """What to draw: the melds, per meld and tile whether it is highlighted, and per
    (meld, tile position) of a joker the text saying what it stands for."""

    melds: Sequence[Meld]
    highlighted: Sequence[Sequence[bool]] = ()
    joker_labels: Mapping[tuple[int, int], str] = field(default_factory=dict)
    title: str = ""
    legend: str = "highlighted: tiles from your rack"
    numbered: bool = False  # each meld's number (1, 2, ...) above its first tile


def _label(tile: Tile) -> tuple[str, str]:
    """The text on a tile and its colour."""
    if tile.is_joker or tile.colour is None:
        return "J", JOKER_INK
    return str(tile.number), INK.get(tile.colour, "#222222")


NOTE_SIZES = (9, 8)  # font sizes of a joker's note: one option a line, two a line


def note_lines(note: str) -> tuple[tuple[str, ...], int]:
    """A joker's note (``r12/b12/k12``: the tiles it may stand for) as lines that fit
    under the tile's number, and their font size: one option a line while two lines
    hold them, else two a line in a smaller font; past four options the second line
    holds one and an ellipsis (the tile's title keeps the whole note)."""
    options = note.split("/")
    per_line, size = (1, NOTE_SIZES[0]) if len(options) <= 2 else (2, NOTE_SIZES[1])
    lines = ["/".join(options[i : i + per_line]) for i in range(0, len(options), per_line)]
    if len(lines) > 2:
        lines = [lines[0], options[2] + "/…"]
    return ("=" + lines[0], *("/" + line for line in lines[1:])), size


_NOTE_BASELINES = (42, 52)  # below the number: one line at the first, two at both


def _letter(tile: Tile) -> str:
    """The colour letter a tile shows in its corner (none on a joker): the colour said in
    print as well as in ink, for colour-blind players."""
    return "" if tile.is_joker or tile.colour is None else tile.colour.letter


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
            "fill": _TILE_LIT if highlight else _TILE_FACE,
            "stroke": _EDGE_LIT if highlight else _EDGE,
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
    if _letter(tile):
        corner = {"x": str(x + 5), "y": str(y + 13), "font-family": "sans-serif"}
        attributes = {**corner, "font-size": "11", "font-weight": "bold", "fill": ink}
        ET.SubElement(group, "text", {"class": "letter", **attributes}).text = _letter(tile)
    if note:
        lines, size = note_lines(note)
        for line, baseline in zip(lines, _NOTE_BASELINES, strict=False):
            small = ET.SubElement(
                group,
                "text",
                {
                    "class": "note",
                    "x": str(x + _TILE_W // 2),
                    "y": str(y + baseline),
                    "text-anchor": "middle",
                    "font-family": "sans-serif",
                    "font-size": str(size),
                    "fill": JOKER_INK,
                },
            )
            small.text = line


@dataclass(frozen=True)
class _Layout:
    """Where everything goes: the picture's size and the top left corner of each tile."""

    width: int
    height: int
    top: int  # of the first row of tiles

    @classmethod
    def of(cls, picture: TablePicture) -> _Layout:
        widest = max((len(m) for m in picture.melds), default=0)
        top = _MARGIN + (28 if picture.title else 0)
        width = 2 * _MARGIN + max(widest * (_TILE_W + _GAP), 320)
        height = top + len(picture.melds) * (_TILE_H + _ROW_GAP) + _MARGIN + 20
        return cls(width, height, top)

    def corner(self, row: int, pos: int) -> tuple[int, int]:
        """The top left corner of tile ``pos`` of meld ``row``."""
        return _MARGIN + pos * (_TILE_W + _GAP), self.top + row * (_TILE_H + _ROW_GAP)


def _lit(picture: TablePicture, row: int, pos: int) -> bool:
    marks = picture.highlighted[row] if row < len(picture.highlighted) else ()
    return bool(marks[pos]) if pos < len(marks) else False


def table_svg(picture: TablePicture) -> str:
    """The picture as an SVG document (text)."""
    melds = list(picture.melds)
    layout = _Layout.of(picture)
    width, height = layout.width, layout.height
    svg = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "width": str(width),
            "height": str(height),
            "viewBox": f"0 0 {width} {height}",
        },
    )
    ET.SubElement(svg, "rect", {"width": "100%", "height": "100%", "fill": _FELT})
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
        line = ET.SubElement(svg, "g", {"class": "meld"})
        if picture.numbered:
            x, y = layout.corner(row, 0)
            number = {"class": "meld-number", "x": str(x), "y": str(y - 4)}
            style = {"font-family": "sans-serif", "font-size": "12", "font-weight": "bold"}
            ET.SubElement(line, "text", {**number, **style, "fill": "#ffffff"}).text = str(row + 1)
        for pos, tile in enumerate(meld.tiles):
            x, y = layout.corner(row, pos)
            lit = _lit(picture, row, pos)
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
                "fill": _LEGEND_INK,
            },
        )
        foot.text = picture.legend
    ET.indent(svg)
    return ET.tostring(svg, encoding="unicode", xml_declaration=True) + "\n"


PILLOW_NEEDED = (10, 1)  # ImageFont.load_default(size): a scalable built-in font


def require_pillow() -> None:
    """Raise :class:`PictureError` saying how to install Pillow unless a Pillow that can
    draw the PNG is installed (10.1 or newer, with FreeType)."""
    how = "pip install 'rummikub[plot]' (or pip install 'pillow>=10.1')"
    try:
        import PIL
        from PIL import Image, ImageDraw, ImageFont, features  # noqa: F401
    except ImportError:
        raise PictureError(f"--png needs Pillow: {how}") from None
    version = tuple(int(part) for part in PIL.__version__.split(".")[:2] if part.isdigit())
    if version < PILLOW_NEEDED:
        raise PictureError(f"--png needs Pillow 10.1 or newer, found {PIL.__version__}: {how}")
    if not features.check_module("freetype2"):
        raise PictureError(f"--png needs a Pillow built with FreeType (for its font): {how}")


def table_png(picture: TablePicture) -> bytes:
    """The picture as a PNG image (the SVG's layout, drawn with Pillow)."""
    require_pillow()
    import io

    from PIL import Image, ImageDraw, ImageFont

    layout = _Layout.of(picture)
    image = Image.new("RGB", (layout.width, layout.height), _FELT)
    draw = ImageDraw.Draw(image)
    big, title_font, legend_font = (ImageFont.load_default(size) for size in (20, 16, 12))
    small = ImageFont.load_default(11)
    note_fonts = {size: ImageFont.load_default(size) for size in NOTE_SIZES}
    if picture.title:
        heading = (_MARGIN, _MARGIN + 16)
        draw.text(heading, picture.title, fill="#ffffff", font=title_font, anchor="ls")
    for row, meld in enumerate(picture.melds):
        if picture.numbered:
            x, y = layout.corner(row, 0)
            draw.text((x, y - 4), str(row + 1), fill="#ffffff", font=legend_font, anchor="ls")
        for pos, tile in enumerate(meld.tiles):
            x, y = layout.corner(row, pos)
            lit = _lit(picture, row, pos)
            draw.rounded_rectangle(
                (x, y, x + _TILE_W, y + _TILE_H),
                radius=6,
                fill=_TILE_LIT if lit else _TILE_FACE,
                outline=_EDGE_LIT if lit else _EDGE,
                width=3 if lit else 1,
            )
            label, ink = _label(tile)
            middle = x + _TILE_W // 2
            centre = (middle, y + 30)  # a stroke in the ink: bold, as the SVG's label
            draw.text(
                centre, label, fill=ink, font=big, anchor="ms", stroke_width=1, stroke_fill=ink
            )
            if _letter(tile):
                draw.text((x + 5, y + 13), _letter(tile), fill=ink, font=small, anchor="ls")
            note = picture.joker_labels.get((row, pos))
            if note:
                lines, size = note_lines(note)
                for line, baseline in zip(lines, _NOTE_BASELINES, strict=False):
                    at = (middle, y + baseline)
                    draw.text(at, line, fill=JOKER_INK, font=note_fonts[size], anchor="ms")
    if picture.legend:
        foot = (_MARGIN, layout.height - _MARGIN + 4)
        draw.text(foot, picture.legend, fill=_LEGEND_INK, font=legend_font, anchor="ls")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
