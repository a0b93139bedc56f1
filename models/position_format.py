"""Reading positions from the text format, JSON objects and JSON Lines."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from rummikub.models.errors import NotationError, RummikubError
from rummikub.models.meld import Meld
from rummikub.models.notation import MELD_SEPARATORS, parse_declared_joker, parse_tiles
from rummikub.models.presets import parse_rules_line, rules_from_mapping
from rummikub.models.rules import STANDARD, RuleSet
from rummikub.models.tile import JOKER, Tile, half_width

_TRUE = {"yes", "true", "1", "y", "on"}
_FALSE = {"no", "false", "0", "n", "off", ""}
_KEYS = ("rules", "table", "rack", "initial")


class PositionParts(NamedTuple):
    """What a position's text or JSON says: its melds, rack, opening flag and rules."""

    table: tuple[Meld, ...]
    rack: tuple[Tile, ...]
    initial: bool
    rules: RuleSet


def parse_melds(text: str, rules: RuleSet = STANDARD) -> list[Meld]:
    """Melds separated by ``|``, ``;`` or newlines; empty pieces are skipped. Under
    wrap-around rules the run shorthand goes round the top (``r12-2``)."""
    melds = []
    for piece in MELD_SEPARATORS.split(half_width(text)):
        if piece.strip():
            melds.append(Meld.parse(piece, rules))
    return melds


def _parse_flag(value: str, where: str) -> bool:
    word = value.strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise NotationError(f"{where}: 'initial' must be yes or no, got {value.strip()[:40]!r}")


def _sections(text: str) -> dict[str, list[tuple[int, str]]]:
    """The text format's sections by key: (line number, text) pieces of each."""
    sections: dict[str, list[tuple[int, str]]] = {}
    current: str | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, rest = line.partition(":")
        if sep and key.strip().lower() in _KEYS:
            current = key.strip().lower()
            if current in sections:
                raise NotationError(f"line {number}: '{current}:' given twice")
            sections[current] = [(number, rest)]
        elif sep and " " not in key.strip() and key.strip().isalpha():
            raise NotationError(
                f"line {number}: unknown key {key.strip()[:30]!r} "
                "(expected rules, table, rack or initial)"
            )
        elif current in ("table", "rack"):
            sections[current].append((number, line))
        else:
            raise NotationError(
                f"line {number}: expected 'table:', 'rack:' or 'initial:' before tiles"
            )
    return sections


def _line_rules(sections: dict[str, list[tuple[int, str]]]) -> RuleSet | None:
    if "rules" not in sections:
        return None
    number, value = sections["rules"][0]
    return parse_rules_line(value, f"line {number}: rules")


def rules_in_text(text: str) -> RuleSet | None:
    """The rules a position in the text format says it is played under (its ``rules:``
    line), or None when it does not say."""
    return _line_rules(_sections(text))


def read_text(text: str, rules: RuleSet | None = None) -> PositionParts:
    """The parts of a position in the text format (validated as a position by
    :meth:`~rummikub.models.position.Position.parse`).

    ``rules: american joker_rule=strict`` (optional: a preset and/or options, see
    :func:`~rummikub.models.presets.parse_rules_line`), ``table: r1 r2 r3 | b5-7`` (or one
    meld per line after ``table:``), ``rack: k4 o9 j``, optional ``initial: yes``; ``#``
    starts a comment. ``rules``, when given, overrides the text's ``rules:`` line; without
    either the position is in the standard game.
    """
    sections = _sections(text)
    written = _line_rules(sections)
    rules = rules or written or STANDARD
    table: list[Meld] = []
    rack: list[Tile] = []
    for number, chunk in sections.get("table", []):
        table += _at(number, lambda c: parse_melds(c, rules), chunk)
    for number, chunk in sections.get("rack", []):
        rack += _at(number, lambda c: parse_tiles(c, rules), chunk)
    initial = False
    if "initial" in sections:
        number, value = sections["initial"][0]
        initial = _parse_flag(value, f"line {number}")
    return PositionParts(tuple(table), tuple(rack), initial, rules)


def _at(line: int, parse: Any, chunk: str) -> Any:
    try:
        return parse(chunk)
    except NotationError as error:
        raise NotationError(f"line {line}: {error}") from None


def _tile_list(value: object, where: str, rules: RuleSet) -> list[Tile]:
    if isinstance(value, str):
        try:
            return parse_tiles(value, rules)
        except NotationError as error:
            raise NotationError(f"{where}: {error}") from None
    if not isinstance(value, list):
        raise NotationError(f"{where}: expected a list of tiles or a string, got {_kind(value)}")
    tiles: list[Tile] = []
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise NotationError(
                f"{where}[{i}]: expected a tile string like 'r5', got {_kind(item)}"
            )
        try:
            tiles.append(Tile.parse(item))
        except NotationError as error:
            raise NotationError(f"{where}[{i}]: {error}") from None
    return tiles


def _meld(value: object, where: str, rules: RuleSet) -> Meld:
    """A table meld from JSON: a list of tile strings (``"j=r4"`` allowed) or one string."""
    if isinstance(value, str):
        if MELD_SEPARATORS.search(value):
            raise NotationError(f"{where}: one meld per string (no | ; or newline)")
        try:
            meld = Meld.parse(value, rules)
        except NotationError as error:
            raise NotationError(f"{where}: {error}") from None
        return meld
    if not isinstance(value, list):
        raise NotationError(f"{where}: expected a list of tiles or a string, got {_kind(value)}")
    tiles: list[Tile] = []
    declared: list[Tile | None] = []
    for j, item in enumerate(value):
        if not isinstance(item, str):
            raise NotationError(
                f"{where}[{j}]: expected a tile string like 'r5', got {_kind(item)}"
            )
        try:
            if "=" in item:
                declared.append(parse_declared_joker(item.strip()))
                tiles.append(JOKER)
            else:
                tile = Tile.parse(item)
                tiles.append(tile)
                if tile.is_joker:
                    declared.append(None)
        except NotationError as error:
            raise NotationError(f"{where}[{j}]: {error}") from None
    if not tiles:
        raise NotationError(f"{where}: empty meld")
    return Meld(tuple(tiles), tuple(declared))


def _kind(value: object) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), "null" if value is None else "a number"
    )


def rules_in_json(obj: object) -> RuleSet | None:
    """The rules a JSON position says it is played under (its ``"rules"``: a rules line
    such as ``"american"`` or an object like a rules file), or None when it does not say."""
    if not isinstance(obj, dict) or "rules" not in obj:
        return None
    value = obj["rules"]
    if isinstance(value, str):
        return parse_rules_line(value, "rules")
    return rules_from_mapping(value, "rules")


def read_json(obj: object, rules: RuleSet | None = None) -> PositionParts:
    """The parts of a position in JSON, ``{"table": [[...], ...], "rack": [...], "initial": b}``.

    A meld may also be written as one string (``"r3-7"``), the rack as one string. An
    optional ``"rules"`` says what the position is played under (``"american"``,
    ``{"preset": "wrap", "joker_rule": "strict"}``); ``rules``, when given, overrides it.
    """
    if not isinstance(obj, dict):
        raise NotationError(f"a position must be a JSON object, got {_kind(obj)}")
    for key in obj:
        if key not in _KEYS:
            raise NotationError(
                f"unknown key {str(key)[:30]!r} in position (expected rules, table, rack, initial)"
            )
    written = rules_in_json(obj)
    rules = rules or written or STANDARD
    table_value = obj.get("table", [])
    if isinstance(table_value, str):
        try:
            table = parse_melds(table_value, rules)
        except NotationError as error:
            raise NotationError(f"table: {error}") from None
    elif isinstance(table_value, list):
        table = []
        for i, meld_value in enumerate(table_value):
            table.append(_meld(meld_value, f"table[{i}]", rules))
    else:
        raise NotationError(f"table: expected a list of melds, got {_kind(table_value)}")
    rack = _tile_list(obj.get("rack", []), "rack", rules)
    initial = obj.get("initial", False)
    if not isinstance(initial, bool):
        raise NotationError(f"initial: expected true or false, got {_kind(initial)}")
    return PositionParts(tuple(table), tuple(rack), initial, rules)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise NotationError(f"duplicate key {key[:30]!r} in JSON object")
        seen[key] = value
    return seen


def load_json(text: str) -> object:
    """Parse JSON text, rejecting duplicate keys, with a one-line error on bad JSON."""
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as error:
        raise NotationError(
            f"bad JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except RecursionError:
        raise NotationError("bad JSON: nested too deeply") from None
    except NotationError:
        raise  # a duplicate key
    except ValueError:  # an integer of more digits than Python converts
        raise NotationError("bad JSON: a number too long to read") from None


def read_any(text: str, rules: RuleSet | None = None) -> PositionParts:
    """The parts of a position in JSON (when it starts with ``{``) or in the text format;
    ``rules``, when given, overrides the rules the position says it is played under."""
    if text.lstrip().startswith("{"):
        return read_json(load_json(text), rules)
    return read_text(text, rules)


__all__ = [
    "PositionParts",
    "RummikubError",
    "load_json",
    "parse_melds",
    "read_any",
    "read_json",
    "read_text",
    "rules_in_json",
    "rules_in_text",
]
