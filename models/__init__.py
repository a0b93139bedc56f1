"""The Rummikub domain: tiles, rules, melds, positions and their notation. No solver code."""

from rummikub.models.errors import (
    IllegalMeldError,
    IllegalPositionError,
    NotationError,
    RulesError,
    RummikubError,
    SolverError,
)
from rummikub.models.jokers import JokerRule
from rummikub.models.meld import Meld, MeldKind, Reading, readings
from rummikub.models.notation import format_tiles, parse_tiles
from rummikub.models.position import (
    Position,
    position_from_any,
    position_from_json,
    position_from_text,
)
from rummikub.models.position_format import load_json, parse_melds
from rummikub.models.presets import PRESETS, preset, resolve_rules, rules_from_file
from rummikub.models.rules import STANDARD, RuleSet
from rummikub.models.tile import JOKER, Colour, Tile

__all__ = [
    "JOKER",
    "PRESETS",
    "STANDARD",
    "Colour",
    "IllegalMeldError",
    "IllegalPositionError",
    "JokerRule",
    "Meld",
    "MeldKind",
    "NotationError",
    "Position",
    "Reading",
    "RuleSet",
    "RulesError",
    "RummikubError",
    "SolverError",
    "Tile",
    "format_tiles",
    "load_json",
    "parse_melds",
    "parse_tiles",
    "position_from_any",
    "position_from_json",
    "position_from_text",
    "preset",
    "readings",
    "resolve_rules",
    "rules_from_file",
]
