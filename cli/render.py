"""Human-readable output of a move: tiles in their colours, placed tiles marked."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import click

from rummikub.analysis.position import Analysis
from rummikub.models.position import Position
from rummikub.models.tile import Colour, Tile
from rummikub.picture.svg import table_png, table_svg
from rummikub.solver.engine import RankedMoves
from rummikub.solver.move import Move, NewMeld, Origin
from rummikub.steps.planner import RACK, explanation
from rummikub.steps.report import move_picture

_TILE_COLOURS: dict[Colour | None, str] = {
    Colour.BLACK: "bright_black",
    Colour.BLUE: "blue",
    Colour.RED: "red",
    Colour.ORANGE: "yellow",
    Colour.GREEN: "green",
    Colour.PURPLE: "magenta",
    Colour.WHITE: "white",
    Colour.CYAN: "cyan",
    None: "magenta",
}
_ORIGIN_STYLE = {
    Origin.KEPT: {"dim": True},
    Origin.EXTENDED: {"fg": "cyan"},
    Origin.NEW: {"fg": "green", "bold": True},
    Origin.REBUILT: {"fg": "yellow"},
}


def tile_text(tile: Tile, placed: bool = False) -> str:
    """A tile in its colour; a tile from the rack is bold, underlined and starred."""
    text = f"{tile}*" if placed else str(tile)
    return click.style(text, fg=_TILE_COLOURS[tile.colour], bold=placed, underline=placed)


def tiles_text(tiles: Iterable[Tile]) -> str:
    """Tiles in their colours, space-separated."""
    return " ".join(tile_text(t) for t in tiles) or "(none)"


def _meld_line(
    new: NewMeld,
    position: Position,
    from_rack: Sequence[bool],
    origin: Origin,
    source: int | None,
    jokers: Sequence[tuple[int, list[Tile]]],
) -> str:
    label = click.style(f"{origin:<9}", **_ORIGIN_STYLE[origin])  # type: ignore[arg-type]
    body = " ".join(tile_text(t, r) for t, r in zip(new.meld.tiles, from_rack, strict=True))
    notes = _joker_notes(jokers)
    if source is not None and origin is not Origin.KEPT:
        notes.append(f"was '{position.table[source]}'")
    suffix = click.style("   " + "; ".join(notes), dim=True) if notes else ""
    return f"  {label} {body}{suffix}"


def _joker_notes(jokers: Sequence[tuple[int, list[Tile]]]) -> list[str]:
    """``j = r5``, ``j#1 = r3; j#4 = r6``, or for a group's jokers that share the missing
    colours ``j#3, j#4 = b3 and o3`` (each a different one)."""
    if len(jokers) == 1:
        return [f"j = {' or '.join(map(str, jokers[0][1]))}"]
    first = jokers[0][1] if jokers else []
    if len(jokers) > 1 and all(options == first for _, options in jokers):
        slots = ", ".join(f"j#{slot + 1}" for slot, _ in jokers)
        tiles = " ".join(map(str, first))
        if len(first) == len(jokers):
            return [f"{slots} = {' and '.join(map(str, first))}"]
        return [f"{slots} = {len(jokers)} different of {tiles}"]
    return [f"j#{slot + 1} = {' or '.join(map(str, options))}" for slot, options in jokers]


def _millis(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 10 else f"{seconds:.1f} s"


def _steps_lines(steps: Sequence[object]) -> list[str]:
    """The move as numbered steps a person can carry out (none for a draw)."""
    if not steps:
        return []
    width = len(str(len(steps)))
    return [click.style("Steps:", bold=True)] + [
        f"  {n:>{width}}. {step}" for n, step in enumerate(steps, 1)
    ]


def render_move(move: Move, label: str = "Best move", steps: bool = True) -> str:
    """The full human view of a move."""
    position = move.position
    if label == "Best move":
        proof = "proved optimal" if move.is_optimal else "best found in the time limit (not proved)"
    else:
        proof = "next best, proved" if move.is_optimal else "not proved"
    if move.is_optimal and not move.moved_proved:
        # With table jokers the count of tiles picked up is a bound, not a proof (see Move).
        proof += " in what is placed; fewest tiles moved not proved"
    told = explanation(move, steps)
    lines = []
    if move.is_draw:
        if position.initial:
            threshold = position.rules.initial_threshold
            headline = f"No move: no opening meld worth {threshold} or more. Draw a tile."
        else:
            headline = "No move: no rack tile can be placed. Draw a tile."
        lines.append(click.style(headline, bold=True) + f"  ({proof}, {_millis(move.seconds)})")
    else:
        count = move.placed_count
        headline = (
            f"{label}: place {count} tile{'s' if count != 1 else ''} (value {move.placed_value})"
        )
        if told.opening_value is not None:
            threshold = position.rules.initial_threshold
            headline += f", opening worth {told.opening_value} ≥ {threshold}"
        if told.goes_out:
            headline += ". You go out!"
        lines.append(click.style(headline, bold=True) + f"  ({proof}, {_millis(move.seconds)})")
    moved = len(told.picked_up)
    lines.append(
        f"Table: {len(move.table)} meld{'s' if len(move.table) != 1 else ''}, "
        f"{moved} table tile{'s' if moved != 1 else ''} moved"
    )
    # Stars follow the tiles' provenance, so they agree with the steps below.
    lines += [
        _meld_line(new, position, [s == RACK for s in row], origin, source, jokers)
        for new, row, origin, source, jokers in zip(
            move.table, told.provenance, told.origins, told.sources, told.jokers, strict=True
        )
    ]
    if not move.table:
        lines.append("  (empty)")
    if not move.is_draw:
        lines.append(f"Placed: {tiles_text(sorted(move.placed, key=Tile.sort_key))}")
    lines.append(f"Rack:   {tiles_text(move.rack_left)}")
    if not move.is_draw:
        lines.append(click.style("* = tile from your rack", dim=True))
    if steps:
        lines += _steps_lines(told.steps)
    if told.flaw:
        lines.append(click.style(f"Note: {told.flaw}", fg="red"))
    return "\n".join(lines)


def move_svg(move: Move) -> str:
    """The new table of a move as an SVG picture (:func:`move_picture`)."""
    return table_svg(move_picture(move))


def move_png(move: Move) -> bytes:
    """The new table of a move as a PNG image (:func:`move_picture`; needs Pillow)."""
    return table_png(move_picture(move))


def _scores_text(move: Move) -> str:
    return ", ".join(f"{level.replace('_', ' ')} {value}" for level, value in move.scores.items())


def render_ranked(ranked: RankedMoves, steps: bool = True) -> str:
    """The K best moves, best first, each with its scores on every objective level."""
    blocks = []
    for rank, move in enumerate(ranked.moves, 1):
        title = click.style(f"#{rank}", bold=True) + f"  scores: {_scores_text(move)}"
        label = "Best move" if rank == 1 else "Move"
        blocks.append(title + "\n" + render_move(move, label, steps))
    if ranked.unique_optimum:
        verdict = "The best move is the unique optimum: every other move scores lower."
    else:
        verdict = "The best move is not unique: #2 scores the same on every objective level."
    if ranked.exhausted:
        verdict += f" Only {len(ranked.moves)} different move(s) exist."
    blocks.append(click.style(verdict, bold=True))
    return "\n\n".join(blocks)


def render_check(position: Position) -> str:
    """One line that says a position is legal and what it holds."""
    table_tiles = len(position.table_tiles())
    melds, rack = len(position.table), len(position.rack)
    text = (
        f"legal position: {melds} table meld{'s' if melds != 1 else ''} ({table_tiles} "
        f"tile{'s' if table_tiles != 1 else ''}), {rack} rack tile{'s' if rack != 1 else ''}"
    )
    if position.initial:
        text += f", opening meld still to make (>= {position.rules.initial_threshold})"
    changes = position.rules.changes()
    if changes:
        shown = (
            f"{k} {'yes' if v is True else 'no' if v is False else v}" for k, v in changes.items()
        )
        text += f"; rules: {', '.join(shown)} (the rest standard)"
    return text


def render_analysis(analysis: Analysis) -> str:
    """The human view of ``rummikub analyze``."""
    lines = [click.style("Best move under each objective", bold=True)]
    lines.append(
        f"  {'objective':<12} {'placed':>6} {'value':>6} {'jokers':>6} {'moved':>6}  status"
    )
    for name, move in analysis.best.items():
        jokers = sum(t.is_joker for t in move.placed)
        lines.append(
            f"  {name:<12} {move.placed_count:>6} {move.placed_value:>6} {jokers:>6} "
            f"{len(explanation(move, steps=False).picked_up):>6}  {move.status}"
        )
    lines.append("")
    lines.append(render_move(analysis.best["tiles"]))
    lines.append("")
    rack_size = len(analysis.position.rack)
    lines.append(
        click.style("Outs", bold=True)
        + f": tiles placed next turn if you draw each unseen tile (rack {rack_size} + 1;"
        + " ! = goes out)"
    )
    cells = []
    for out in analysis.outs:
        mark = "!" if out.goes_out else " "
        pad = " " * (3 - len(str(out.tile)))
        cells.append(f"{tile_text(out.tile)}{pad} x{out.unseen} -> {out.placed_count:>2}{mark}")
    for i in range(0, len(cells), 6):
        lines.append("  " + "   ".join(cells[i : i + 6]))
    going = [o for o in analysis.outs if o.goes_out]
    if going:
        lines.append("Draws that go out: " + " ".join(tile_text(o.tile) for o in going))
    lines.append(
        f"Chance to go out next turn after one draw: {analysis.p_go_out_next:.1%} (table unchanged)"
    )
    if analysis.unplayable:
        lines.append(click.style("Unplayable rack tiles", bold=True) + ":")
        lines += [f"  {tile_text(u.tile)}  {u.reason}" for u in analysis.unplayable]
    else:
        lines.append("Unplayable rack tiles: none (every rack tile fits in some legal move)")
    lines.append(click.style(f"Analysed in {_millis(analysis.seconds)}", dim=True))
    return "\n".join(lines)
