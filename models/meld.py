"""Melds: groups and runs, and what each joker in them stands for."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from itertools import combinations

from rummikub.models.errors import IllegalMeldError, InternalError, NotationError, RummikubError
from rummikub.models.notation import MELD_SEPARATORS, parse_meld_tokens
from rummikub.models.rules import STANDARD, RuleSet
from rummikub.models.tile import JOKER, Colour, Tile


class MeldKind(StrEnum):
    """The two shapes of a legal set."""

    GROUP = "group"
    RUN = "run"


@dataclass(frozen=True, slots=True)
class Reading:
    """One legal way to read a meld: a group of ``number`` or a run of ``colour`` from ``start``.

    A meld with jokers can have several readings (``r2 r3 j`` is r2-4 or r1-3). A run that
    goes round the top (12-13-1, only under the wrap-around rule) has ``cycle`` set to the
    game's highest number, after which it continues at 1; ``cycle`` is 0 for every other
    reading.
    """

    kind: MeldKind
    size: int
    number: int  # the group's number, or the run's first number
    colour: Colour | None  # the run's colour; None for a group
    real: tuple[Tile, ...]  # the meld's non-joker tiles, sorted
    cycle: int = 0  # a run that wraps: the highest number, followed by 1; else 0

    @property
    def numbers(self) -> tuple[int, ...]:
        """The number each tile shows or stands for, in table order (a group: all equal)."""
        if self.kind is MeldKind.GROUP:
            return (self.number,) * self.size
        if self.cycle:
            return tuple((self.number + i - 1) % self.cycle + 1 for i in range(self.size))
        return tuple(range(self.number, self.number + self.size))

    @property
    def value(self) -> int:
        """Sum of the numbers the tiles show or stand for (jokers counted as their tile)."""
        return sum(self.numbers)

    @property
    def last(self) -> int:
        """The run's last number (the group's number for a group)."""
        return self.numbers[-1]

    def joker_options(self, rules: RuleSet = STANDARD) -> list[tuple[Tile, ...]]:
        """What the jokers stand for: one tuple per possibility (several only for groups)."""
        jokers = self.size - len(self.real)
        if self.kind is MeldKind.RUN:
            if self.colour is None:
                raise InternalError("a run reading without a colour")
            present = {t.number for t in self.real}
            missing = tuple(Tile(self.colour, n) for n in self.numbers if n not in present)
            return [missing]
        present_colours = {t.colour for t in self.real}
        free = [Colour(c) for c in range(rules.colours) if Colour(c) not in present_colours]
        return [tuple(Tile(c, self.number) for c in combo) for combo in combinations(free, jokers)]

    def laid_out(self) -> tuple[Tile, ...]:
        """The tiles in the order they lie on the table: runs in order (round the top if
        they wrap: 12 13 1) with jokers in place, groups sorted with jokers last."""
        if self.kind is MeldKind.GROUP:
            jokers = self.size - len(self.real)
            return tuple(sorted(self.real)) + (JOKER,) * jokers
        by_number = {t.number: t for t in self.real}
        return tuple(by_number.get(n, JOKER) for n in self.numbers)


def readings(tiles: Sequence[Tile], rules: RuleSet = STANDARD) -> list[Reading]:
    """Every legal reading of these tiles as one set under the rules (empty: illegal)."""
    return list(_readings(tuple(tiles), rules))


# Every solve reads each meld of the position and of its answer (validation, values,
# steps); a game keeps meeting the same melds. Readings are frozen values, safe to share.
@lru_cache(maxsize=16_384)
def _readings(tiles: tuple[Tile, ...], rules: RuleSet) -> tuple[Reading, ...]:
    size = len(tiles)
    real = tuple(sorted(t for t in tiles if not t.is_joker))
    jokers = size - len(real)
    if size < rules.min_len or jokers > rules.max_jokers_per_set or jokers > rules.jokers:
        return ()
    if any(not rules.contains(t) for t in real):
        return ()
    found: list[Reading] = []
    numbers = {t.number for t in real if t.number is not None}
    colours = [t.colour for t in real]
    if size <= rules.colours and len(set(colours)) == len(colours):
        group_numbers = numbers if real else range(1, rules.numbers + 1)
        if len(group_numbers) == 1 or not real:
            found += [Reading(MeldKind.GROUP, size, n, None, real) for n in sorted(group_numbers)]
    if size <= rules.numbers and len(set(colours)) <= 1 and len(numbers) == len(real):
        run_colours = [colours[0]] if real else [Colour(c) for c in range(rules.colours)]
        # Starts that keep every real number inside the run (any start for jokers alone).
        top = rules.numbers
        starts: Iterable[int]
        if rules.wrap:  # the run may go round the top: numbers are taken modulo ``top``
            starts = [s for s in range(1, top + 1) if all((n - s) % top < size for n in numbers)]
        else:
            low = min(numbers) if real else top
            high = max(numbers) if real else 1
            starts = range(max(1, high - size + 1), min(low, top - size + 1) + 1)
        for colour in run_colours:
            if colour is None:
                raise InternalError("a run without a colour")
            for start in starts:
                cycle = top if start + size - 1 > top else 0
                found.append(Reading(MeldKind.RUN, size, start, colour, real, cycle))
    return tuple(found)


def why_illegal(tiles: Sequence[Tile], rules: RuleSet = STANDARD) -> str:
    """A short human reason why these tiles are not a legal set (assumes they are not)."""
    size = len(tiles)
    real = [t for t in tiles if not t.is_joker]
    jokers = size - len(real)
    if size < rules.min_len:
        return f"too short: a set needs at least {rules.min_len} tiles"
    if jokers > rules.jokers:
        return f"{jokers} jokers, but the game has only {rules.jokers}"
    if jokers > rules.max_jokers_per_set:
        return f"{jokers} jokers in one set; the rules allow at most {rules.max_jokers_per_set}"
    for t in real:
        if not rules.contains(t):
            return f"tile {t} is not part of this game"
    numbers = Counter(t.number for t in real)
    colours = Counter(t.colour for t in real)
    if len(numbers) == 1:
        repeated = [c for c, k in colours.items() if k > 1]
        if repeated:
            return (
                f"a group needs different colours, but {Tile(repeated[0], real[0].number)} repeats"
            )
        return f"a group holds at most {rules.colours} tiles"
    if len(colours) == 1:
        colour = real[0].colour
        repeated_numbers = sorted(n for n, k in numbers.items() if k > 1 and n is not None)
        if repeated_numbers:
            return f"a run needs different numbers, but {Tile(colour, repeated_numbers[0])} repeats"
        present = sorted(n for n in numbers if n is not None)
        top = rules.numbers
        low, high = present[0], present[-1]
        gaps = high - low + 1 - len(real)
        # The shortest stretch holding them when numbers go round the top (13 -> 1).
        round_low = min(present, key=lambda s: max((n - s) % top for n in present))
        round_gaps = max((n - round_low) % top for n in present) + 1 - len(real)
        if rules.wrap and size > top:
            return f"a run holds at most {top} tiles (one of each number)"
        if rules.wrap:
            span = round_gaps + len(real)
            numbers_round = rules.run_numbers(round_low, span)
            going = f", going round from {top} to 1" if numbers_round[-1] < round_low else ""
            gone = [n for n in numbers_round if n not in numbers]
            return f"a run needs consecutive numbers: {_missing(colour, gone, jokers)}{going}"
        if gaps > jokers and round_gaps <= jokers and size <= top:
            return (
                f"a run needs consecutive numbers: {top} is not followed by 1 "
                f"(wrap-around, as in {top - 1}-{top}-1, is off in these rules)"
            )
        if gaps > jokers:
            gone = [n for n in range(low, high + 1) if n not in numbers]
            return f"a run needs consecutive numbers: {_missing(colour, gone, jokers)}"
        return f"a run cannot go beyond 1..{top}"
    return "neither a group (one number, different colours) nor a run (one colour, consecutive)"


def _missing(colour: Colour | None, numbers: Sequence[int], jokers: int) -> str:
    """``r3 is missing``, ``r2, r5-11 are missing (8 tiles)``: the tiles a run lacks, in
    run shorthand, and how few of them its jokers can stand for."""
    pieces: list[list[int]] = []
    for n in numbers:
        if pieces and n == pieces[-1][-1] + 1:
            pieces[-1].append(n)
        else:
            pieces.append([n])
    letter = colour.letter if colour is not None else "?"
    names: list[str] = []
    for piece in pieces:  # three or more in a row in run shorthand: r5-11
        if len(piece) < 3:
            names += [f"{letter}{n}" for n in piece]
        else:
            names.append(f"{letter}{piece[0]}-{piece[-1]}")
    if len(numbers) == 1:
        text = f"{names[0]} is missing"
    else:
        listed = f"{', '.join(names[:-1])} and {names[-1]}" if len(names) > 1 else names[0]
        text = f"{listed} are missing ({len(numbers)} tiles)"
    if jokers:
        text += f", and {'its joker' if jokers == 1 else f'its {jokers} jokers'} can stand "
        text += f"for only {jokers}"
    return text


@dataclass(frozen=True, slots=True)
class Meld:
    """Tiles laid together on the table, in the order written. Legality depends on the rules.

    ``declared`` optionally fixes what the meld's jokers stand for, one entry per joker in
    order (``None``: not stated); written ``j=r4``. Without it a joker may stand for any
    tile that makes the meld legal.
    """

    tiles: tuple[Tile, ...]
    declared: tuple[Tile | None, ...] = ()

    def __post_init__(self) -> None:
        if self.declared and all(d is None for d in self.declared):
            object.__setattr__(self, "declared", ())
        if self.declared and len(self.declared) != sum(t.is_joker for t in self.tiles):
            raise NotationError("one declared meaning per joker of the meld, in order")

    @classmethod
    def parse(cls, text: str, rules: RuleSet | None = None) -> Meld:
        """Parse one meld: ``r1 r2 r3``, ``r1,r2,j``, ``b5-9``, ``rbk7`` or ``j=r1 r2 r3``
        (``r12-2`` goes round the top when the ``rules`` allow wrap-around)."""
        text = text.strip()
        if MELD_SEPARATORS.search(text):
            raise NotationError(
                "one meld expected, but the text holds a meld separator (| ; or newline)"
            )
        tiles, declared = parse_meld_tokens(text, rules)
        if not tiles:
            raise NotationError("empty meld: a meld needs tiles")
        return cls(tuple(tiles), tuple(declared))

    @classmethod
    def of(cls, tiles: Iterable[Tile]) -> Meld:
        """A meld of the given tiles, in that order."""
        return cls(tuple(tiles))

    def tokens(self) -> list[str]:
        """Each tile in notation, declared jokers as ``j=r4``."""
        meanings = iter(self.declared)
        out = []
        for tile in self.tiles:
            meaning = next(meanings, None) if tile.is_joker else None
            out.append(f"j={meaning}" if meaning is not None else str(tile))
        return out

    def __str__(self) -> str:
        return " ".join(self.tokens())

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"

    def __len__(self) -> int:
        return len(self.tiles)

    @property
    def jokers(self) -> int:
        """How many jokers the meld holds."""
        return sum(t.is_joker for t in self.tiles)

    def counts(self) -> Counter[Tile]:
        """The meld's tiles as a multiset."""
        return Counter(self.tiles)

    def readings(self, rules: RuleSet = STANDARD) -> list[Reading]:
        """Every legal reading under the rules that fits the declared joker meanings."""
        found = readings(self.tiles, rules)
        if not self.declared:  # (all None is stored as ()) the common case: no Counter
            return found
        stated = Counter(d for d in self.declared if d is not None)
        return [
            r
            for r in found
            if any(not stated - Counter(option) for option in r.joker_options(rules))
        ]

    def readings_as_laid(self, rules: RuleSet = STANDARD) -> list[Reading]:
        """The readings of the meld as it lies on the table: a run only in the order its
        tiles are written (``j r2 r3`` is r1-3 and ``r2 r3 j`` r2-4, as a joker stands for the
        tile whose place it takes), a group any way; every reading when the tiles are not
        written in the order of any (``r3 j r2``). Declared meanings (``j=r4``) first."""
        found = self.readings(rules)
        laid = [r for r in found if r.kind is not MeldKind.RUN or r.laid_out() == self.tiles]
        return laid or found

    def is_legal(self, rules: RuleSet = STANDARD) -> bool:
        """Whether the tiles form a legal group or run."""
        return bool(self.readings(rules))

    def check(self, rules: RuleSet = STANDARD, where: str = "") -> list[Reading]:
        """The readings, or :class:`IllegalMeldError` naming the meld and the reason."""
        found = self.readings(rules)
        if not found:
            place = f"{where} " if where else ""
            reason = (
                self._why_declared(rules)
                if self.declared and readings(self.tiles, rules)
                else why_illegal(self.tiles, rules)
            )
            raise IllegalMeldError(f"{place}'{self}' is not a legal set: {reason}")
        return found

    def _why_declared(self, rules: RuleSet) -> str:
        """Why no reading fits the declared meanings: one names no tile of the game, or
        they fit no reading together."""
        for tile in self.declared:
            if tile is not None and not rules.contains(tile):
                try:
                    rules.check_tile(tile, "declared for a joker")
                except RummikubError as error:
                    return str(error)
        return "no reading lets its jokers stand for the declared tiles"

    def kinds(self, rules: RuleSet = STANDARD) -> set[MeldKind]:
        """The shapes the meld can be read as."""
        return {r.kind for r in self.readings(rules)}
