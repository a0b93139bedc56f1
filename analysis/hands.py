"""Hands on their own: is a hand a winning hand, and what opening meld can it make?

The decision procedure is the dynamic program of van Rijn, Takes & Vis ("The complexity of
Rummikub problems", BNAIC 2015, arXiv 1604.07553), run over the numbers 1..n: the state
after number v says, per colour, which runs are still open and how long they are (capped at
``min_len``: a run that long may stop at any number). The tiles of number v extend open
runs, start new runs, or form groups of that number. Jokers are tiles of the colour and
number they stand for, taken from a budget of jokers still to place; when the rules allow
fewer jokers per set than the game has, each open run also remembers its jokers.

The same automaton counts hands (:mod:`rummikub.analysis.odds`): it is nondeterministic, and
its *sets* of states after each number are what the counter walks over.

Runs that go round the top (the ``wrap`` house rule) are outside this program; the
decision then falls back to an exact search over the sets of the game.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations, product

from rummikub.models.rules import STANDARD, RuleSet
from rummikub.models.tile import Colour, Tile

Run = tuple[int, int]  # (tiles so far, capped at min_len; jokers in it, when they are tracked)
ColourRuns = tuple[Run, ...]  # sorted
State = tuple[tuple[ColourRuns, ...], int]  # open runs per colour; jokers not yet placed


@dataclass(frozen=True)
class Step:
    """One way through a number: the state after it and the set value it completes there.

    The value is ``per_number * v - constant`` for number v (runs reaching ``min_len`` add
    their first tiles at once; groups and longer runs add v per tile).
    """

    state: State
    per_number: int
    constant: int

    def value(self, number: int) -> int:
        """The value completed at this number."""
        return self.per_number * number - self.constant


class HandAutomaton:
    """The run/group automaton of one rule set (no wrap-around).

    ``opening`` selects the opening-meld variant: tiles (and jokers) may stay unused, and
    each step carries the value of the sets it completes; otherwise every tile must go into
    a set (the winning-hand question).
    """

    def __init__(self, rules: RuleSet, opening: bool = False) -> None:
        self.rules = rules
        self.opening = opening
        self.min_len = rules.min_len
        # Runs remember their jokers only when the per-set limit can bind.
        self.tracked = rules.max_jokers_per_set < rules.jokers
        self.per_set = rules.max_jokers_per_set
        self.start_cost = self.min_len * (self.min_len - 1) // 2
        self._colour_moves = functools.lru_cache(maxsize=None)(self._colour_moves_uncached)
        self._steps = functools.lru_cache(maxsize=None)(self._steps_uncached)

    def start(self, jokers: int) -> State:
        """The state before number 1 with this many jokers in the hand."""
        return (((),) * self.rules.colours, jokers)

    def accepts(self, state: State) -> bool:
        """Whether a walk may end in this state: no run too short; in the winning-hand
        question also every joker placed."""
        if self.opening:  # a run left short is just tiles not used
            return True
        runs, jokers = state
        return not jokers and all(length == self.min_len for colour in runs for length, _ in colour)

    def steps(self, state: State, counts: tuple[int, ...]) -> tuple[Step, ...]:
        """Every way through one number holding ``counts[c]`` real tiles of colour c."""
        return self._steps(state, counts)

    # -- one colour ---------------------------------------------------------------------

    def _joker_run(self, length: int, jokers: int) -> Run | None:
        if self.tracked:
            if jokers + 1 > self.per_set:
                return None
            return (min(length + 1, self.min_len), jokers + 1)
        return (min(length + 1, self.min_len), 0)

    def _gain(self, length: int) -> tuple[int, int]:
        """(per-number, constant) value a run of ``length`` tiles gains from one more."""
        if length + 1 == self.min_len:
            return self.min_len, self.start_cost
        if length >= self.min_len:
            return 1, 0
        return 0, 0

    def _colour_moves_uncached(
        self, runs: ColourRuns, real: int, jokers: int
    ) -> tuple[tuple[ColourRuns, int, int, int, int], ...]:
        """Per colour: (runs after, real tiles left for groups, jokers used, value terms)."""
        found: set[tuple[ColourRuns, int, int, int, int]] = set()

        def walk(i: int, kept: list[Run], real: int, used: int, per: int, const: int) -> None:
            if i == len(runs):
                starts(kept, real, used, per, const)
                return
            length, js = runs[i]
            gain_per, gain_const = self._gain(length)
            if real:
                walk(
                    i + 1,
                    [*kept, (min(length + 1, self.min_len), js)],
                    real - 1,
                    used,
                    per + gain_per,
                    const + gain_const,
                )
            if used < jokers:
                extended = self._joker_run(length, js)
                if extended is not None:
                    walk(
                        i + 1, [*kept, extended], real, used + 1, per + gain_per, const + gain_const
                    )
            if length == self.min_len or self.opening:  # stop here (or give up, unused)
                walk(i + 1, kept, real, used, per, const)

        def starts(kept: list[Run], real: int, used: int, per: int, const: int) -> None:
            joker_start = (1, 1) if self.tracked else (1, 0)
            can_joker = not self.tracked or self.per_set >= 1
            for new_real in range(real + 1):
                top = jokers - used if can_joker else 0
                for new_jokers in range(top + 1):
                    after = kept + [(1, 0)] * new_real + [joker_start] * new_jokers
                    found.add(
                        (tuple(sorted(after)), real - new_real, used + new_jokers, per, const)
                    )

        walk(0, [], real, 0, 0, 0)
        return tuple(sorted(found))

    # -- all colours --------------------------------------------------------------------

    def _steps_uncached(self, state: State, counts: tuple[int, ...]) -> tuple[Step, ...]:
        runs, jokers = state
        partial: dict[tuple[tuple[ColourRuns, ...], tuple[int, ...], int], set[tuple[int, int]]]
        partial = {((), (), 0): {(0, 0)}}
        for colour_runs, real in zip(runs, counts, strict=True):
            grown: dict[
                tuple[tuple[ColourRuns, ...], tuple[int, ...], int], set[tuple[int, int]]
            ] = {}
            for (prefix, left, used), values in partial.items():
                for after, spare, more, per, const in self._colour_moves(
                    colour_runs, real, jokers - used
                ):
                    key = ((*prefix, after), (*left, spare), used + more)
                    bucket = grown.setdefault(key, set())
                    bucket.update((p + per, c + const) for p, c in values)
            partial = grown
        out: set[Step] = set()
        for (runs_after, left, used), values in partial.items():
            spare_jokers = jokers - used
            ordered = tuple(sorted(left, reverse=True))
            for group_jokers in range(spare_jokers + 1):
                tiles = _group_tiles(
                    ordered,
                    group_jokers,
                    self.rules.colours,
                    self.min_len,
                    self.per_set,
                    self.opening,
                )
                if tiles < 0:
                    continue
                state_after: State = (runs_after, spare_jokers - group_jokers)
                for per, const in values:
                    out.add(Step(state_after, per + tiles + group_jokers, const))
        return tuple(out)


@functools.cache
def _group_tiles(
    counts: tuple[int, ...], jokers: int, colours: int, min_len: int, per_set: int, partial: bool
) -> int:
    """Real tiles of one number (``counts`` per colour, sorted descending) that groups take
    when they use exactly ``jokers`` jokers: all of them (or -1 if impossible) unless
    ``partial``, when tiles may stay out and the most that groups can take is returned."""
    if not any(counts):
        if jokers == 0:
            return 0
        # Groups of jokers alone.
        best = -1
        for size in range(min_len, min(colours, per_set) + 1):
            if (
                size <= jokers
                and _group_tiles(counts, jokers - size, colours, min_len, per_set, partial) >= 0
            ):
                best = 0
        return best
    first = next(i for i, c in enumerate(counts) if c)
    others = [i for i, c in enumerate(counts) if c and i != first]
    best = -1
    if partial:  # one tile of the first colour stays out of every group
        left = list(counts)
        left[first] -= 1
        best = _group_tiles(
            tuple(sorted(left, reverse=True)), jokers, colours, min_len, per_set, partial
        )
    for size in range(len(others) + 1):
        for chosen in _subsets(tuple(others), size):
            real = 1 + len(chosen)
            for joker_count in range(min(jokers, per_set) + 1):
                total = real + joker_count
                if total < min_len or total > colours:
                    continue
                left = list(counts)
                left[first] -= 1
                for i in chosen:
                    left[i] -= 1
                rest = _group_tiles(
                    tuple(sorted(left, reverse=True)),
                    jokers - joker_count,
                    colours,
                    min_len,
                    per_set,
                    partial,
                )
                if rest >= 0:
                    best = max(best, rest + real)
                    if not partial:
                        return best
    return best


def _subsets(items: tuple[int, ...], size: int) -> Iterator[tuple[int, ...]]:
    return combinations(items, size)


# -- one hand -----------------------------------------------------------------------------


def _hand_counts(tiles: Iterable[Tile], rules: RuleSet) -> tuple[list[tuple[int, ...]], int]:
    """Real tiles per number (a tuple per colour) and the jokers of a hand."""
    counter = Counter(tiles)
    for tile, count in counter.items():
        rules.check_tile(tile, "in the hand")
        if count > rules.copies_of(tile):
            from rummikub.models.errors import IllegalPositionError

            name = "jokers" if tile.is_joker else f"copies of {tile}"
            raise IllegalPositionError(
                f"{count} {name} in the hand; the game has only {rules.copies_of(tile)}"
            )
    jokers = sum(c for t, c in counter.items() if t.is_joker)
    columns = [
        tuple(counter[Tile(colour, number)] for colour in _colours(rules))
        for number in range(1, rules.numbers + 1)
    ]
    return columns, jokers


def _colours(rules: RuleSet) -> list[Colour]:
    return [Colour(c) for c in range(rules.colours)]


@functools.lru_cache(maxsize=64)
def automaton(rules: RuleSet, opening: bool = False) -> HandAutomaton:
    """The (memoised) automaton of a rule set."""
    return HandAutomaton(rules, opening)


def is_winning_hand(tiles: Iterable[Tile], rules: RuleSet = STANDARD) -> bool:
    """Whether every tile of the hand (jokers too) fits in legal sets: the hand goes out at
    once on an empty table. The empty hand is winning."""
    hand = list(tiles)
    if rules.wrap:
        from rummikub.analysis.hand_search import search_is_winning

        return search_is_winning(hand, rules)
    columns, jokers = _hand_counts(hand, rules)
    machine = automaton(rules)
    states: set[State] = {machine.start(jokers)}
    for counts in columns:
        states = {step.state for state in states for step in machine.steps(state, counts)}
        if not states:
            return False
    return any(machine.accepts(state) for state in states)


def best_opening_value(tiles: Iterable[Tile], rules: RuleSet = STANDARD) -> int:
    """The greatest total value of disjoint legal sets made from the hand (jokers worth the
    tile they stand for); 0 when the hand holds no set. The hand can make its opening meld
    when this is at least the rules' threshold (and at least one set exists)."""
    hand = list(tiles)
    if rules.wrap:
        from rummikub.analysis.hand_search import search_best_value

        return search_best_value(hand, rules)
    columns, jokers = _hand_counts(hand, rules)
    machine = automaton(rules, opening=True)
    best: dict[State, int] = {machine.start(jokers): 0}
    for number, counts in enumerate(columns, 1):
        grown: dict[State, int] = {}
        for state, value in best.items():
            for step in machine.steps(state, counts):
                total = value + step.value(number)
                if grown.get(step.state, -1) < total:
                    grown[step.state] = total
        best = grown
    return max((v for s, v in best.items() if machine.accepts(s)), default=0)


def can_open(tiles: Iterable[Tile], rules: RuleSet = STANDARD) -> bool:
    """Whether the hand holds legal sets worth at least the opening threshold (at least one
    set, whatever the threshold)."""
    return best_opening_value(tiles, rules) >= max(rules.initial_threshold, 1)


def columns_product(rules: RuleSet) -> list[tuple[int, ...]]:
    """Every way one number can be held: real tiles 0..copies of each colour."""
    return list(product(range(rules.copies + 1), repeat=rules.colours))
