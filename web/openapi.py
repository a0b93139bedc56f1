"""The JSON API described as OpenAPI 3.1 (``GET /openapi.json``; read as a page at ``/api``).

Written out here rather than generated: the bodies are the command line's own formats
(the position ``rummikub solve -`` reads, the object ``rummikub solve --json`` prints),
which the library defines and checks; this says where to find each field.
"""

from __future__ import annotations

from typing import Any

from rummikub.models.rules import JOKER_RULES
from rummikub.web.config import WebConfig

_POSITION_EXAMPLE = {
    "table": [["k1", "k2", "k3", "k4"], ["o9", "o10", "o11", "o12", "o13"], ["r7", "b7", "k7"]],
    "rack": ["o8", "k13", "j", "b2"],
    "initial": False,
}

_TILE = {"type": "string", "description": "A tile: colour k b r o (y = o) and number, or j."}
_TILES = {"type": "array", "items": _TILE}

POSITION: dict[str, Any] = {
    "type": "object",
    "description": "A position as `rummikub solve -` reads it (JSON; the text format is "
    "taken too, as text/plain). A meld may be one string ('r3-7'), the rack one string.",
    "properties": {
        "table": {
            "type": "array",
            "items": {"oneOf": [_TILES, {"type": "string"}]},
            "description": "The melds on the table; a table joker may say what it stands "
            "for ('j=r4').",
        },
        "rack": {"oneOf": [_TILES, {"type": "string"}], "description": "Your tiles."},
        "initial": {"type": "boolean", "description": "The opening meld is still to make."},
        "rules": {
            "oneOf": [{"type": "string"}, {"type": "object"}],
            "description": "The rules: a preset or a rules line ('american "
            "joker_rule=strict'), or an object like a rules file ({'preset': 'wrap', "
            f"'joker_rule': 'strict'}}); joker rules: {', '.join(JOKER_RULES)}.",
        },
    },
    "additionalProperties": False,
    "example": _POSITION_EXAMPLE,
}

MOVE: dict[str, Any] = {
    "type": "object",
    "description": "The best move, exactly as `rummikub solve --json` prints it (the "
    "notation page of the docs lists every field).",
    "properties": {
        "status": {"type": "string", "description": "optimal, or feasible (not proved)."},
        "draw": {"type": "boolean", "description": "Nothing can be placed: draw a tile."},
        "placed": _TILES,
        "placed_count": {"type": "integer"},
        "placed_value": {"type": "integer"},
        "table": {"type": "array", "items": _TILES, "description": "The new table."},
        "melds": {"type": "array", "items": {"type": "object"}},
        "jokers": {"type": "array", "items": {"type": "object"}},
        "rack": {**_TILES, "description": "What is left on the rack."},
        "goes_out": {"type": "boolean"},
        "opening_value": {"type": ["integer", "null"]},
        "steps": {"type": "array", "items": {"type": "object"}},
        "seconds": {"type": "number"},
    },
    "required": ["status", "draw", "placed", "table", "rack", "goes_out"],
}

RANKED: dict[str, Any] = {
    "type": "object",
    "description": "With `top`: as `rummikub solve --top K --json` prints it.",
    "properties": {
        "moves": {"type": "array", "items": {"$ref": "#/components/schemas/Move"}},
        "unique_optimum": {"type": "boolean"},
    },
    "required": ["moves", "unique_optimum"],
}

ERROR: dict[str, Any] = {
    "type": "object",
    "description": "What is wrong, in the one line the command line prints after 'error:'.",
    "properties": {"error": {"type": "string"}},
    "required": ["error"],
}


def _query(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"name": name, "in": "query", "schema": schema, "description": description}


SOLVE_PARAMETERS = [
    _query(
        "objective",
        {"type": "string", "enum": ["tiles", "value"], "default": "tiles"},
        "Most tiles placed first, or most value (as --objective).",
    ),
    _query("keep_jokers", {"type": "boolean", "default": False}, "As --keep-jokers."),
    _query(
        "top",
        {"type": "integer", "minimum": 1, "maximum": 100},
        "The K best different moves (as --top).",
    ),
    _query(
        "time_limit",
        {
            "type": "number",
            "exclusiveMinimum": 0,
            "maximum": WebConfig.max_seconds,
            "default": WebConfig.solve_seconds,
        },
        "Seconds the answer may take (as --time-limit); more than the maximum is refused.",
    ),
    _query("steps", {"type": "boolean", "default": True}, "Include the steps (as --no-steps)."),
    _query("initial", {"type": "boolean", "default": False}, "As --initial."),
    _query(
        "rules",
        {"type": "string"},
        "Rules over the position's own: a preset or a rules line (as --rules).",
    ),
]


CHECK_PARAMETERS = [p for p in SOLVE_PARAMETERS if p["name"] in ("initial", "rules")]


def _body() -> dict[str, Any]:
    return {
        "required": True,
        "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/Position"}},
            "text/plain": {"schema": {"type": "string"}, "example": "table: r3-5\nrack: r6 k6"},
        },
    }


def _errors() -> dict[str, Any]:
    refused = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    return {
        "400": {"description": "Bad input: unreadable, or an illegal position.", **refused},
        "401": {"description": "Off loopback: the access token is missing.", **refused},
        "413": {"description": "The body is over 1 MB.", **refused},
    }


def spec(token_needed: bool) -> dict[str, Any]:
    """The OpenAPI document of this server (``token_needed``: off loopback)."""
    security: list[dict[str, list[str]]] = [{"token": []}, {"bearer": []}] if token_needed else []
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "rummikub",
            "version": "1",
            "description": "The solver of `rummikub solve` over HTTP: the same JSON in, the "
            "same JSON out. Stateless.",
        },
        "security": security,
        "paths": {
            "/api/solve": {
                "post": {
                    "summary": "The best move for a position (rummikub solve --json)",
                    "operationId": "solve",
                    "parameters": SOLVE_PARAMETERS,
                    "requestBody": _body(),
                    "responses": {
                        "200": {
                            "description": "The move (or, with top, the ranked moves).",
                            "content": {
                                "application/json": {
                                    "schema": {
                                        "oneOf": [
                                            {"$ref": "#/components/schemas/Move"},
                                            {"$ref": "#/components/schemas/Ranked"},
                                        ]
                                    }
                                }
                            },
                        },
                        **_errors(),
                    },
                }
            },
            "/api/check": {
                "post": {
                    "summary": "Whether a position is legal (rummikub check --json)",
                    "operationId": "check",
                    "parameters": CHECK_PARAMETERS,
                    "requestBody": _body(),
                    "responses": {
                        "200": {
                            "description": "Legal: {'legal': true, ...the position as JSON}.",
                            "content": {"application/json": {"schema": {"type": "object"}}},
                        },
                        "422": {
                            "description": "Read, but illegal: {'legal': false, 'error': ...}.",
                            "content": {"application/json": {"schema": {"type": "object"}}},
                        },
                        **_errors(),
                    },
                }
            },
        },
        "components": {
            "schemas": {"Position": POSITION, "Move": MOVE, "Ranked": RANKED, "Error": ERROR},
            "securitySchemes": {
                "token": {"type": "apiKey", "in": "query", "name": "token"},
                "bearer": {"type": "http", "scheme": "bearer"},
            },
        },
    }
