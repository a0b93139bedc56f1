"""A move reported: as JSON (the new table with where each tile came from, the jokers, the
headline figures and the steps: what ``rummikub solve --json`` prints and the web app
serves) and as a picture to draw (``--svg``, ``--png``, the web's tables)."""

from __future__ import annotations

from rummikub.models.notation import tiles_json
from rummikub.models.tile import sorted_tiles
from rummikub.picture import TablePicture
from rummikub.solver.engine import RankedMoves
from rummikub.solver.move import Move
from rummikub.steps.planner import RACK, explanation


def move_json(move: Move, steps: bool = True) -> dict[str, object]:
    """The JSON object of a move, as ``rummikub solve --json`` prints it.

    Per meld, ``provenance`` says where each tile came from (``"rack"`` or the index of
    the old table meld); ``steps`` lists how a person carries the move out.
    """
    told = explanation(move, steps)
    jokers = [
        {"meld": i, "position": slot, "stands_for": tiles_json(tiles)}
        for i, options in enumerate(told.jokers)
        for slot, tiles in options
    ]
    payload: dict[str, object] = {
        "status": str(move.status),
        "objective": str(move.objective),
        "keep_jokers": move.keep_jokers,
        "initial": move.position.initial,
        "draw": move.is_draw,
        "placed": tiles_json(sorted_tiles(move.placed)),
        "placed_count": move.placed_count,
        "placed_value": move.placed_value,
        "table": [tiles_json(m.meld.tiles) for m in move.table],
        "melds": [
            {
                "tiles": m.meld.tokens(),
                "origin": str(origin),
                "source": source,
                "placed": [str(t) for t, s in zip(m.meld.tiles, row, strict=True) if s == RACK],
                "provenance": list(row),
            }
            for m, row, origin, source in zip(
                move.table, told.provenance, told.origins, told.sources, strict=True
            )
        ],
        "jokers": jokers,
        "rack": tiles_json(move.rack_left),
        "goes_out": told.goes_out,
        "opening": [tiles_json(m.tiles) for m in told.opening],
        "opening_value": told.opening_value,
        "moved": len(told.picked_up),
        "moved_tiles": tiles_json(told.picked_up),
        "moved_proved": move.moved_proved,
        "scores": dict(move.scores),
    }
    if steps:
        payload["steps"] = [step.to_json() for step in told.steps]
    payload["seconds"] = round(move.seconds, 6)
    return payload


def ranked_json(ranked: RankedMoves) -> dict[str, object]:
    """``{"moves": [...], "unique_optimum": bool}`` with each move as :func:`move_json`."""
    return {
        "moves": [move_json(m) for m in ranked.moves],
        "unique_optimum": ranked.unique_optimum,
    }


def move_picture(move: Move) -> TablePicture:
    """The new table of a move to draw: rack tiles highlighted, each joker labelled with
    what it stands for (``r12`` or ``r12/b12``)."""
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
    highlighted = [[s == RACK for s in row] for row in told.provenance]
    return TablePicture(move.melds, highlighted, labels, title)
