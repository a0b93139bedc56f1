"""The pages: Jinja2 templates and what they are given (tiles, keyboards, moves as views).

Every view here is made from a library object and holds only what a template prints; the
library decides everything (what a move places, its steps, whether it goes out).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import Response

from rummikub.models.generate import full_set
from rummikub.models.meld import Meld
from rummikub.models.rules import RuleSet
from rummikub.models.tile import Tile, sorted_tiles
from rummikub.solver.engine import RankedMoves
from rummikub.solver.move import Move
from rummikub.steps.planner import explanation
from rummikub.web import pictures
from rummikub.web.security import csrf_token, remember
from rummikub.web.templates_env import templates

KEYS_PER_ROW = 7  # a phone's width holds 7 keys big enough to tap


def page(request: Request, name: str, context: Mapping[str, Any], status: int = 200) -> Response:
    """The template ``name`` as a page, with the form token and the navigation."""
    full = {"csrf": csrf_token(request), "path": request.url.path, "error": None, **context}
    response = templates.TemplateResponse(request, name, full, status_code=status)
    remember(request, response)
    return response


@dataclass(frozen=True)
class TileView:
    """A tile as a page draws it: its notation, number, colour letter and colour class."""

    token: str
    number: str
    letter: str
    ink: str


def tile_view(tile: Tile) -> TileView:
    """How a page draws ``tile``."""
    if tile.is_joker or tile.colour is None:
        return TileView(str(tile), "J", "", pictures.tile_class(tile))
    return TileView(str(tile), str(tile.number), tile.colour.letter, pictures.tile_class(tile))


def tile_views(tiles: Iterable[Tile]) -> list[TileView]:
    """Tiles sorted colour-major, jokers last, as a page draws them."""
    return [tile_view(t) for t in sorted_tiles(tiles)]


@dataclass(frozen=True)
class Key:
    """A key of the tile keyboard: the tile and how many copies it may still give."""

    tile: TileView
    copies: int


def keyboard(rules: RuleSet, available: Counter[Tile] | None = None) -> list[list[Key]]:
    """The tile keyboard of a game under ``rules``: per colour its numbers in rows of
    :data:`KEYS_PER_ROW`, then the joker; each key capped by ``available`` (every copy of
    the game when not given)."""
    copies = full_set(rules) if available is None else available
    rows: list[list[Key]] = []
    for colour in range(rules.colours):
        tiles = [t for t in rules.number_tiles() if t.colour == colour]
        keys = [Key(tile_view(t), copies[t]) for t in tiles]
        rows += [keys[i : i + KEYS_PER_ROW] for i in range(0, len(keys), KEYS_PER_ROW)]
    jokers = [Key(tile_view(t), copies[t]) for t in rules.tile_types if t.is_joker]
    if jokers:
        rows.append(jokers)
    return rows


@dataclass(frozen=True)
class MoveView:
    """A move as a page shows it: the headline, whether it is proved, the picture of the
    new table, the steps, and the new table in notation (what "I played it" records)."""

    headline: str
    proof: str
    svg: Markup
    steps: list[str]
    placed: list[TileView]
    rack: list[TileView]
    table_text: str
    draw: bool
    goes_out: bool
    note: str | None
    scores: str


def _headline(move: Move, opening_value: int | None, goes_out: bool) -> str:
    position = move.position
    if move.is_draw:
        if position.initial:
            threshold = position.rules.initial_threshold
            return f"No move: no opening meld worth {threshold} or more. Draw a tile."
        return "No move: no rack tile can be placed. Draw a tile."
    count = move.placed_count
    line = f"Place {count} tile{'s' if count != 1 else ''} (value {move.placed_value})"
    if opening_value is not None:
        line += f", opening worth {opening_value} ≥ {position.rules.initial_threshold}"
    return line + (". You go out!" if goes_out else "")


def _proof(move: Move, best: bool) -> str:
    if best:
        proof = "proved optimal" if move.is_optimal else "best found in the time limit (not proved)"
    else:
        proof = "next best, proved" if move.is_optimal else "not proved"
    if move.is_optimal and not move.moved_proved:
        proof += "; the fewest tiles moved not proved"
    return f"{proof}, {move.seconds * 1000:.0f} ms"


def move_view(move: Move, best: bool = True) -> MoveView:
    """What a page shows of ``move`` (``best``: the best move, else an alternative)."""
    told = explanation(move)
    return MoveView(
        headline=_headline(move, told.opening_value, told.goes_out),
        proof=_proof(move, best),
        svg=Markup(pictures.move_svg(move)),  # built by ElementTree from validated tiles
        steps=[str(step) for step in told.steps],
        placed=tile_views(move.placed),
        rack=tile_views(move.rack_left),
        table_text=" | ".join(str(meld) for meld in move.melds),
        draw=move.is_draw,
        goes_out=told.goes_out,
        note=told.flaw,
        scores=", ".join(f"{k.replace('_', ' ')} {v}" for k, v in move.scores.items()),
    )


def ranked_views(ranked: RankedMoves) -> tuple[list[MoveView], str]:
    """The K best moves as views, and whether the best is the only one of its score."""
    views = [move_view(m, best=i == 0) for i, m in enumerate(ranked.moves)]
    if ranked.unique_optimum:
        verdict = "The best move is the unique optimum: every other move scores lower."
    else:
        verdict = "The best move is not unique: the next one scores the same."
    if ranked.exhausted:
        verdict += f" Only {len(ranked.moves)} different move(s) exist."
    return views, verdict


def table_picture(melds: Iterable[Meld]) -> Markup:
    """A game's table as a picture with numbered melds."""
    return Markup(pictures.table_svg_numbered(list(melds)))
