"""Reading what a page sent: each field to the library's value, or one line saying which
field is wrong and why (the library's own message, named by the field as the command line
names its options)."""

from __future__ import annotations

from collections.abc import Mapping

from rummikub.models import RummikubError, parse_melds, parse_tiles
from rummikub.models.jokers import JokerRule
from rummikub.models.meld import Meld
from rummikub.models.position import Position
from rummikub.models.presets import DEFAULT_PRESET, PRESETS, parse_rules_line
from rummikub.models.rules import RuleSet
from rummikub.models.tile import Tile
from rummikub.web.errors import Refused

Fields = Mapping[str, str]
MAX_FIELD = 4_000  # the longest table in notation is a few hundred characters
JOKER_RULES = tuple(rule.value for rule in JokerRule)


class FieldError(RummikubError):
    """A field the library could not read: its message is prefixed by the field's name."""


def text(fields: Fields, name: str, default: str = "") -> str:
    """A text field, at most :data:`MAX_FIELD` characters."""
    value = fields.get(name, default)
    if len(value) > MAX_FIELD:
        raise Refused(400, f"{name}: longer than {MAX_FIELD} characters")
    return value


def whole(fields: Fields, name: str, low: int, high: int, default: int) -> int:
    """A whole-number field between ``low`` and ``high``."""
    raw = text(fields, name).strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise Refused(
            400, f"{name}: a whole number from {low} to {high}, got {raw[:20]!r}"
        ) from None
    if not low <= value <= high:
        raise Refused(400, f"{name}: a whole number from {low} to {high}, got {value}")
    return value


def seconds(fields: Fields, name: str, high: float, default: float) -> float:
    """A time in seconds, more than 0 and at most ``high``."""
    raw = text(fields, name).strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise Refused(400, f"{name}: a number of seconds, got {raw[:20]!r}") from None
    if not 0 < value <= high:  # also refuses nan
        raise Refused(400, f"{name}: more than 0 and at most {high:g} seconds, got {raw[:20]}")
    return value


def choice(fields: Fields, name: str, choices: tuple[str, ...], default: str) -> str:
    """One of ``choices``."""
    value = text(fields, name, default).strip() or default
    if value not in choices:
        raise Refused(400, f"{name}: one of {', '.join(choices)}, got {value[:40]!r}")
    return value


def flag(fields: Fields, name: str) -> bool:
    """A checkbox: on when sent with any value but ``0``, ``no``, ``false`` or ``off``."""
    return fields.get(name, "").strip().lower() not in ("", "0", "no", "false", "off")


def rules(fields: Fields) -> RuleSet:
    """The rules of a form: a preset, the table-joker rule and any further options written
    as a rules line (``threshold=50 wrap=yes``), as ``rules: ...`` in a position file."""
    name = choice(fields, "preset", tuple(PRESETS), DEFAULT_PRESET)
    joker_rule = choice(fields, "joker_rule", JOKER_RULES, JokerRule.FREE.value)
    more = text(fields, "rules").strip()
    return parse_rules_line(f"{name} joker_rule={joker_rule} {more}", "rules")


def tiles(value: str, what: str, rules: RuleSet | None = None) -> list[Tile]:
    """Tiles in notation (``r10 k3 j``), or :class:`FieldError` naming the field."""
    try:
        return parse_tiles(value, rules)
    except RummikubError as error:
        raise FieldError(f"{what}: {error}") from None


def melds(value: str, what: str, rules: RuleSet | None = None) -> tuple[Meld, ...]:
    """Melds in notation separated by ``|``, or :class:`FieldError` naming the field."""
    try:
        return tuple(parse_melds(value, rules) if rules is not None else parse_melds(value))
    except RummikubError as error:
        raise FieldError(f"{what}: {error}") from None


def position(fields: Fields) -> Position:
    """The position of the solve form: the table, the rack, the opening flag, the rules."""
    played_under = rules(fields)
    table = melds(text(fields, "table"), "table", played_under)
    rack = tiles(text(fields, "rack"), "rack", played_under)
    return Position.of(table, rack, flag(fields, "initial"), rules=played_under)
