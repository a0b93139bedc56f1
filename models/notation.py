"""Tile-list notation: single tiles, run shorthand ``r3-7`` and group shorthand ``rbk5``."""

from __future__ import annotations

import re
from collections.abc import Iterable

from rummikub.models.errors import NotationError
from rummikub.models.rules import STANDARD, RuleSet
from rummikub.models.tile import Colour, Tile, _show, half_width

_SEPARATORS = re.compile(r"[\s,]+")
# The run shorthand takes any dash: en and em dashes and the minus sign come with text
# pasted from word processors and chat, and a dash means nothing else in the notation.
DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212"
_RUN_RE = re.compile(rf"([a-zA-Z])(\d{{1,3}})[{DASHES}](\d{{1,3}})")
_GROUP_RE = re.compile(r"([a-zA-Z]{2,})(\d{1,3})")
MELD_SEPARATORS = re.compile(r"[|;\n]")


def parse_token(token: str, rules: RuleSet | None = None) -> list[Tile]:
    """Tiles written by one token: ``r10``, ``j``, ``r3-7`` (a run; ``r12-2`` goes round the
    top when the ``rules`` allow wrap-around) or ``rbk5`` (a group)."""
    try:
        return _parse_token(token, rules)
    except NotationError as error:
        if _show(token) in str(error):
            raise
        raise NotationError(f"bad token {_show(token)}: {error}") from None


def _run(token: str, colour: Colour, low: int, high: int, rules: RuleSet | None) -> list[Tile]:
    """The tiles of the run shorthand from ``low`` to ``high`` (round the top if it wraps)."""
    top = (rules or STANDARD).numbers
    if low < 1 or high < 1 or low == high:
        raise NotationError(
            f"bad run shorthand {_show(token)}: write colour, low and high like r3-7"
        )
    if high > low:
        return [Tile(colour, n) for n in range(low, high + 1)]
    if rules is None or not rules.wrap:
        raise NotationError(
            f"bad run shorthand {_show(token)}: the run would go round from {top} to 1, "
            "which only the wrap-around house rule allows (--wrap); else write low-high: "
            f"{Tile(colour, high)}-{low}"
        )
    if low > top:
        raise NotationError(f"bad run shorthand {_show(token)}: numbers run from 1 to {top}")
    return [Tile(colour, n) for n in rules.run_numbers(low, top - low + 1 + high)]


def _parse_token(token: str, rules: RuleSet | None) -> list[Tile]:
    if token.strip(DASHES) == "":
        raise NotationError(
            f"a lone dash {_show(token)}: write a run without spaces round the dash, like r3-7"
        )
    run = _RUN_RE.fullmatch(token)
    if run:
        colour = Colour.parse(run.group(1))
        return _run(token, colour, int(run.group(2)), int(run.group(3)), rules)
    group = _GROUP_RE.fullmatch(token)
    if group and group.group(1).lower() != "j" * len(group.group(1)):
        letters = group.group(1).lower()
        colours = [Colour.parse(letter) for letter in letters]
        if len(set(colours)) != len(colours):
            raise NotationError(f"bad group shorthand {_show(token)}: a colour is repeated")
        number = int(group.group(2))
        if number < 1:
            raise NotationError(f"not a tile: {_show(token)} (numbers start at 1)")
        return [Tile(c, number) for c in colours]
    if any(dash in token for dash in DASHES):
        raise NotationError(
            f"bad run shorthand {_show(token)}: write the colour once, then low and high, like r3-7"
        )
    return [Tile.parse(token)]


def parse_tiles(text: str, rules: RuleSet | None = None) -> list[Tile]:
    """Tiles separated by spaces or commas, shorthands expanded, in the order written (the
    run shorthand wraps round the top under wrap-around ``rules``: ``r12-2``)."""
    tiles: list[Tile] = []
    for token in _SEPARATORS.split(half_width(text).strip()):
        if token:
            if "=" in token:
                raise NotationError(
                    f"bad token {_show(token)}: a joker's meaning (j=r4) is written only "
                    "in table melds"
                )
            tiles.extend(parse_token(token, rules))
    return tiles


def parse_declared_joker(token: str) -> Tile:
    """The tile a table joker is declared to stand for: ``j=r4`` gives r4."""
    head, _, meaning = token.partition("=")
    if head.strip().lower() != "j":
        raise NotationError(f"bad token {_show(token)}: only a joker takes a meaning (j=r4)")
    tile = Tile.parse(meaning)
    if tile.is_joker:
        raise NotationError(f"bad token {_show(token)}: a joker stands for a numbered tile")
    return tile


def parse_meld_tokens(
    text: str, rules: RuleSet | None = None
) -> tuple[list[Tile], list[Tile | None]]:
    """Tiles of one meld and, per joker in order, the tile it is declared to stand for."""
    tiles: list[Tile] = []
    declared: list[Tile | None] = []
    for token in _SEPARATORS.split(half_width(text).strip()):
        if not token:
            continue
        if "=" in token:
            declared.append(parse_declared_joker(token))
            tiles.append(Tile(None, None))
            continue
        found = parse_token(token, rules)
        tiles.extend(found)
        declared.extend(None for t in found if t.is_joker)
    return tiles, declared


def tiles_json(tiles: Iterable[Tile]) -> list[str]:
    """Tiles in canonical notation, one string each, in the given order (JSON-ready)."""
    return [str(t) for t in tiles]


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Tiles in canonical notation, space-separated, in the given order."""
    return " ".join(tiles_json(tiles))
