"""The table typed in a few keystrokes: edits of numbered melds, and short meld notation.

A new table is given whole (``r10 r11 r12 | k7 b7 o7``), or as edits of the table as it
stands, its melds numbered from 1 as ``show`` numbers them:

* ``3+ r6``: add tiles to meld 3 (laid out as the meld then lies: a run in its order, the
  meaning of its jokers kept);
* ``2,5= r1-4 | k4-6``: melds 2 and 5 are replaced by the melds typed (as many as they
  became, in their place);
* ``+ o1-3``: a new meld (several: ``+ o1-3 | rbk9``).

Edits may follow one another in one line (``3+ r6 + o1-3``); every number names a meld of
the table before the edits, each at most once, and the melds not named stay as they are.
:func:`apply_edits` reads either form; :func:`edit_text` writes the shortest text that
gives one table from another (the edits or the whole table), and :func:`meld_text` a meld
in the shortest notation that reads back to it (``r3-7``, ``rbk9 j``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rummikub.game.events import CompanionError
from rummikub.models.jokers import JokerRule
from rummikub.models.meld import Meld, MeldKind, Reading, readings
from rummikub.models.moves import becomes
from rummikub.models.notation import parse_tiles
from rummikub.models.position_format import parse_melds
from rummikub.models.rules import RuleSet
from rummikub.models.tile import Tile, sorted_tiles
from rummikub.models.validation import joker_meanings

# An edit starts with meld numbers and '+' or '=' ("3+", "2,5="), or a lone '+', at the
# start of the text or after a space or a meld separator.
_MARK = re.compile(r"(?<![^\s|;])(?:(\d+(?:\s*,\s*\d+)*)\s*([+=])|(\+))")


class TableEditError(CompanionError):
    """Edits of the table that do not read: a meld number out of range, named twice, ..."""


@dataclass(frozen=True)
class _Edit:
    numbers: tuple[int, ...]  # 1-based meld numbers; empty for new melds
    sign: str  # "+" adds tiles (or new melds without a number), "=" replaces
    body: str


def is_edit(text: str) -> bool:
    """Whether ``text`` holds edits of numbered melds rather than a whole table."""
    return _MARK.search(text) is not None


def apply_edits(text: str, table: Sequence[Meld], rules: RuleSet) -> tuple[Meld, ...]:
    """The table that ``text`` gives: the whole table, or edits of ``table`` (see the module
    docstring). Raises a one-line :class:`~rummikub.models.errors.RummikubError`."""
    if not is_edit(text):
        return tuple(parse_melds(text, rules))
    slots: list[list[Meld]] = [[meld] for meld in table]
    added: list[Meld] = []
    named: set[int] = set()
    for edit in _edits(text, len(table)):
        if named & set(edit.numbers):
            twice = min(named & set(edit.numbers))
            raise TableEditError(f"meld {twice} is edited twice: one edit per meld")
        named |= set(edit.numbers)
        if not edit.numbers:
            added += _melds(edit.body, rules, "+")
        elif edit.sign == "+":
            (number,) = edit.numbers
            tiles = _tiles(edit.body, rules, f"{number}+")
            slots[number - 1] = [extend(table[number - 1], tiles, rules, number)]
        else:
            melds = _melds(edit.body, rules, f"{','.join(map(str, edit.numbers))}=")
            slots[edit.numbers[0] - 1] = list(melds)
            for number in edit.numbers[1:]:
                slots[number - 1] = []
    return tuple(meld for slot in slots for meld in slot) + tuple(added)


def _edits(text: str, size: int) -> list[_Edit]:
    """The edits of ``text``, their meld numbers checked against a table of ``size`` melds."""
    marks = list(_MARK.finditer(text))
    lead = text[: marks[0].start()].strip(" \t|;")
    if lead:
        raise TableEditError(
            f"'{lead[:30]}' before the first edit: give the whole table, or edits only "
            "(3+ r6, 2,5= r1-4 | k4-6, + o1-3)"
        )
    edits = []
    for mark, after in zip(marks, [*marks[1:], None], strict=True):
        body = text[mark.end() : after.start() if after else len(text)].strip(" \t|;")
        if mark.group(3):
            edits.append(_Edit((), "+", body))
            continue
        numbers = tuple(int(n) for n in re.split(r"\s*,\s*", mark.group(1)))
        for number in numbers:
            if not 1 <= number <= size:
                where = f"melds 1 to {size}" if size else "no melds"
                raise TableEditError(f"no meld {number}: the table has {where}")
        if len(set(numbers)) < len(numbers):
            raise TableEditError(f"meld {numbers[0]} named twice in one edit")
        if mark.group(2) == "+" and len(numbers) > 1:
            raise TableEditError("'+' adds tiles to one meld: one number before it (3+ r6)")
        edits.append(_Edit(numbers, mark.group(2), body))
    return edits


def _tiles(body: str, rules: RuleSet, edit: str) -> list[Tile]:
    tiles = parse_tiles(body, rules)
    if not tiles:
        raise TableEditError(f"'{edit}' adds no tile: write the tiles after it ({edit} r6)")
    return tiles


def _melds(body: str, rules: RuleSet, edit: str) -> list[Meld]:
    melds = list(parse_melds(body, rules)) if body else []
    if not melds:
        what = "no meld" if edit == "+" else "nothing: tiles never leave the table"
        raise TableEditError(f"'{edit}' gives {what} (write the melds after it)")
    return melds


def extend(meld: Meld, tiles: Sequence[Tile], rules: RuleSet, number: int = 0) -> Meld:
    """``meld`` with ``tiles`` added, laid out as it then lies: a run in its order, a group
    with its jokers last. Under the strict and locked rules the meld's jokers keep what
    they stand for; a joker whose place is left open (``r4 r5 r6`` + ``j``: r3 or r7?) is
    refused there, as it decides what the joker stands for."""
    where = f"meld {number} + {' '.join(map(str, tiles))}" if number else "the meld"
    combined = (*meld.tiles, *tiles)
    found = readings(combined, rules)
    if not found:
        Meld(combined).check(rules, where=where)  # raises, saying why
    strict = rules.joker_rule is not JokerRule.FREE
    if strict and meld.jokers:
        before = [Counter(m) for m in joker_meanings(meld, rules, as_laid=True)]
        found = [
            r
            for r in found
            if any(not b - Counter(o) for b in before for o in r.joker_options(rules))
        ]
        if not found:
            raise TableEditError(
                f"{where}: the meld's jokers would no longer stand for what they stand for; "
                f"give the meld as it lies ({number or 'N'}= ...)"
            )
    layouts = list(dict.fromkeys(_layout(r, combined) for r in found))
    if strict and len(layouts) > 1 and any(t.is_joker for t in combined):
        ways = " or ".join(f"'{' '.join(map(str, layout))}'" for layout in layouts[:3])
        raise TableEditError(
            f"{where}: the joker's place decides what it stands for ({ways}); give the meld "
            f"as it lies ({number or 'N'}= ...)"
        )
    layout = layouts[0]
    group = all(r.kind is MeldKind.GROUP for r in found)
    declared = (*meld.declared, *(None for t in tiles if t.is_joker)) if group else ()
    return Meld(layout, declared if any(declared) else ())


def _layout(reading: Reading, tiles: Sequence[Tile]) -> tuple[Tile, ...]:
    """The tiles as they lie read as ``reading``: a run in its order, a group as given with
    its jokers last."""
    if reading.kind is MeldKind.RUN:
        return reading.laid_out()
    real = [t for t in tiles if not t.is_joker]
    return (*real, *(t for t in tiles if t.is_joker))


# --- writing: the shortest text ---------------------------------------------------------------


def meld_text(meld: Meld) -> str:
    """The meld in the shortest notation that reads back to the same tiles in the same order
    (declared jokers kept): stretches of a run as ``r3-7``, a group's tiles as ``rbk9``."""
    real = [t for t in meld.tiles if not t.is_joker]
    if len(real) >= 2 and len({t.number for t in real}) == 1:
        letters = "".join(str(t)[0] for t in real)
        jokers = [token for token in meld.tokens() if token.startswith("j")]
        return " ".join([f"{letters}{real[0].number}", *jokers])
    out: list[str] = []
    stretch: list[Tile] = []
    for tile, token in [*zip(meld.tiles, meld.tokens(), strict=True), (None, "")]:
        if tile is not None and not tile.is_joker and stretch and _follows(stretch[-1], tile):
            stretch.append(tile)
            continue
        out += [f"{stretch[0]}-{stretch[-1].number}"] if len(stretch) >= 2 else map(str, stretch)
        stretch = [tile] if tile is not None and not tile.is_joker else []
        if tile is not None and tile.is_joker:
            out.append(token)
    return " ".join(out)


def _follows(before: Tile, tile: Tile) -> bool:
    """Whether ``tile`` comes right after ``before`` in a run (one colour, the next number)."""
    return tile.colour == before.colour and tile.number == (before.number or 0) + 1


def tiles_text(tiles: Iterable[Tile]) -> str:
    """Tiles in short notation: stretches of one colour as ``r3-5``, tiles of one number as
    ``rbk9``, the rest one by one (the shorter of runs first or groups first)."""
    found = sorted_tiles(tiles)
    return min(_runs_first(found), _groups_first(found), key=len)


def _runs_first(tiles: list[Tile]) -> str:
    rest = Counter(tiles)
    out = []
    for tile in sorted_tiles(set(tiles)):
        if tile.is_joker or not rest[tile]:
            continue
        stretch = [tile]
        while True:
            following = Tile(tile.colour, (stretch[-1].number or 0) + 1)
            if not rest[following] or following in stretch:
                break
            stretch.append(following)
        if len(stretch) >= 2:
            rest -= Counter(stretch)
            out.append(f"{stretch[0]}-{stretch[-1].number}")
    return " ".join([*out, _groups_first(sorted_tiles(rest.elements()))]).strip()


def _groups_first(tiles: list[Tile]) -> str:
    rest = Counter(tiles)
    out = []
    while True:
        by_number: dict[int, list[Tile]] = {}
        for tile in sorted_tiles(rest):
            if not tile.is_joker and tile.number is not None:
                by_number.setdefault(tile.number, []).append(tile)
        groups = [g for g in by_number.values() if len(g) >= 2]
        if not groups:
            break
        for group in groups:
            rest -= Counter(group)
            out.append("".join(str(t)[0] for t in group) + str(group[0].number))
    return " ".join([*out, *map(str, sorted_tiles(rest.elements()))])


def same_table(a: Sequence[Meld], b: Sequence[Meld], rules: RuleSet) -> bool:
    """Whether two tables hold the same melds, in any order: the same tiles, and under the
    strict and locked rules each joker standing for the same tile."""
    return Counter(meld_key(m, rules) for m in a) == Counter(meld_key(m, rules) for m in b)


def meld_key(meld: Meld, rules: RuleSet) -> tuple[tuple[Tile, ...], tuple[tuple[Tile, ...], ...]]:
    """What makes a meld the same meld: its tiles, and under the strict and locked rules what
    its jokers may stand for as it lies."""
    tiles = tuple(sorted(meld.tiles, key=Tile.sort_key))
    if rules.joker_rule is JokerRule.FREE or not meld.jokers:
        return tiles, ()
    return tiles, tuple(joker_meanings(meld, rules, as_laid=True))


def edit_text(old: Sequence[Meld], new: Sequence[Meld], rules: RuleSet) -> str:
    """The shortest text that turns table ``old`` into ``new`` (:func:`same_table`): the
    edits of numbered melds, or the whole new table when that is shorter."""
    whole = " | ".join(meld_text(m) for m in new)
    edits = _edit_script(old, new, rules)
    if edits is not None and len(edits) < len(whole):
        try:
            if same_table(apply_edits(edits, old, rules), new, rules):
                return edits
        except CompanionError:
            pass
    return whole


def _edit_script(old: Sequence[Meld], new: Sequence[Meld], rules: RuleSet) -> str | None:
    """Edits from ``old`` to ``new``: unchanged melds left out, grown ones added to, the rest
    replaced together by what they became, new melds last (None when nothing changed)."""
    pairs = becomes(old, new)
    keys = [meld_key(m, rules) for m in new]
    pieces: list[str] = []
    replaced: list[int] = []
    used: set[int] = set()
    for i, meld in enumerate(old):
        j = pairs.get(i)
        if j is None:
            replaced.append(i)
            continue
        used.add(j)
        if keys[j] == meld_key(meld, rules):
            continue
        grown = Counter(new[j].tiles) - Counter(meld.tiles)
        if not Counter(meld.tiles) - Counter(new[j].tiles):
            try:
                extended = extend(meld, sorted_tiles(grown.elements()), rules)
            except CompanionError:
                extended = None
            except ValueError:  # an illegal meld (IllegalMeldError)
                extended = None
            if extended is not None and meld_key(extended, rules) == keys[j]:
                pieces.append(f"{i + 1}+ {tiles_text(grown.elements())}")
                continue
        replaced.append(i)
        used.discard(j)
    rest = [meld_text(new[j]) for j in range(len(new)) if j not in used]
    if replaced:
        if not rest:
            return None  # melds vanished: no edit gives that (tiles never leave the table)
        pieces.append(f"{','.join(str(i + 1) for i in replaced)}= {' | '.join(rest)}")
    elif rest:
        pieces.append(f"+ {' | '.join(rest)}")
    return " ".join(pieces) or None
