"""Exact odds of a hand: how many hands of t tiles are winning hands, or can open.

Hands are counted two ways, both exact Python integers:

* **distinct hands**: multisets of tile types (each numbered tile at most ``copies`` times,
  the joker at most ``jokers`` times), as van Rijn, Takes & Vis count them;
* **draws**: sets of physical tiles, the equally likely outcomes of dealing t tiles from
  the full set; a multiset holding a of the ``copies`` copies of a tile is drawn
  C(copies, a) ways, so the chance of a fresh rack is ``draws / C(total_tiles, t)``.

The counter walks the hand automaton of :mod:`rummikub.analysis.hands` number by number over
*sets* of its states (the states a hand could be in so far), summing over the tiles each
number can hold; a hand is counted once whatever its number of partitions. The counts for
every size are carried at once, packed as the digits of one big integer per state.

Winning hands with jokers, where a set may hold all the game's jokers, are counted as the
real tiles that added tiles complete (:class:`_AddedTilesCounter`: the joker-free automaton,
one walk per number of jokers); otherwise jokers are a budget the automaton places.

Runs round the top (``wrap``) are outside the program: there :func:`estimate_hands` gives a
Monte Carlo estimate with a 95% interval instead, labelled as such.
"""

from __future__ import annotations

import functools
import itertools
import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from enum import StrEnum
from math import comb, prod

from rummikub.analysis.hands import (
    ColourRuns,
    HandAutomaton,
    State,
    automaton,
    best_opening_value,
    columns_product,
    is_winning_hand,
)
from rummikub.arena.stats import wilson
from rummikub.models.errors import InternalError, RulesError, RummikubError
from rummikub.models.rules import STANDARD, RuleSet
from rummikub.models.tile import Tile

DEFAULT_MAX_SECONDS = 120.0
"""How long an exact count may run before it is called out of reach."""


class CountTooLarge(RummikubError):
    """The exact count would take longer than allowed."""


class Question(StrEnum):
    """What is asked of a hand."""

    WINNING = "winning"  # every tile in a legal set
    OPENING = "opening"  # legal sets worth at least the opening threshold


@dataclass(frozen=True)
class HandOdds:
    """The answer for one hand size.

    Exact rows have the four counts; an estimated row (``exact`` false) has the sample
    counts and a 95% interval for the chance of a dealt hand (the draws' fraction).
    """

    size: int
    question: Question
    exact: bool
    hands: int = 0  # distinct multisets that answer yes
    all_hands: int = 0  # distinct multisets of this size
    draws: int = 0  # equally likely draws that answer yes
    all_draws: int = 0  # C(total tiles, size)
    samples: int = 0
    hits: int = 0
    low: float = 0.0
    high: float = 0.0
    seconds: float = 0.0
    cut_short: bool = False  # an estimate stopped by its time limit before all its samples

    @property
    def chance(self) -> float:
        """Chance that a hand dealt from the full set answers yes (estimated if not exact)."""
        if self.exact:
            return self.draws / self.all_draws if self.all_draws else 0.0
        return self.hits / self.samples if self.samples else 0.0

    @property
    def hand_fraction(self) -> float:
        """Fraction of the distinct hands that answer yes (exact rows only)."""
        return self.hands / self.all_hands if self.all_hands else 0.0

    def to_json(self) -> dict[str, object]:
        """The row as a JSON-ready object (exact integers as integers)."""
        row: dict[str, object] = {
            "tiles": self.size,
            "question": str(self.question),
            "exact": self.exact,
            "chance": self.chance,
            "seconds": round(self.seconds, 3),
        }
        if self.exact:
            row |= {
                "hands": self.hands,
                "all_hands": self.all_hands,
                "hand_fraction": self.hand_fraction,
                "draws": self.draws,
                "all_draws": self.all_draws,
            }
        else:
            row |= {
                "method": "monte carlo",
                "samples": self.samples,
                "hits": self.hits,
                "interval95": [self.low, self.high],
                "cut_short": self.cut_short,
            }
        return row


def can_count_exactly(rules: RuleSet) -> bool:
    """Whether the number-by-number program covers these rules (not with wrap-around)."""
    return not rules.wrap


def count_hands(
    sizes: Iterable[int],
    rules: RuleSet = STANDARD,
    question: Question | str = Question.WINNING,
    max_seconds: float | None = DEFAULT_MAX_SECONDS,
) -> list[HandOdds]:
    """Exact counts for each hand size (jokers as the rules have them; ``jokers=0`` in the
    rules for the joker-free game). Raises :class:`CountTooLarge` when the count runs longer
    than ``max_seconds`` (``None``: no limit)."""
    wanted = sorted(set(sizes))
    goal = Question(question)
    _check_sizes(wanted, rules)
    if not can_count_exactly(rules):
        raise RulesError(
            "exact counting does not cover runs round the top (wrap); use estimate_hands"
        )
    started = time.perf_counter()
    top = max(wanted, default=0)
    if goal is Question.WINNING and _added_tiles_cover(rules):
        hands, draws = _count_by_added_tiles(rules, top, max_seconds)
    else:
        hands, draws = _Counter(rules, goal, top, max_seconds).run()
    all_hands, all_draws = _totals(rules, top)
    seconds = time.perf_counter() - started
    return [
        HandOdds(
            size=t,
            question=goal,
            exact=True,
            hands=hands[t],
            all_hands=all_hands[t],
            draws=draws[t],
            all_draws=all_draws[t],
            seconds=seconds,
        )
        for t in wanted
    ]


def _count_by_added_tiles(
    rules: RuleSet, top: int, max_seconds: float | None
) -> tuple[list[int], list[int]]:
    """(distinct hands, draws) that are winning hands, for each size 0..top: the hands
    with j jokers counted as the real tiles that j added tiles complete, for each j."""
    deadline = None if max_seconds is None else time.perf_counter() + max_seconds
    hands = [0] * (top + 1)
    draws = [0] * (top + 1)
    for jokers in range(min(rules.jokers, top) + 1):
        counter = _AddedTilesCounter(rules, jokers, top - jokers, deadline, max_seconds)
        real_hands, real_draws = counter.run()
        ways = comb(rules.jokers, jokers)
        for real in range(top - jokers + 1):
            hands[real + jokers] += real_hands[real]
            draws[real + jokers] += ways * real_draws[real]
    return hands, draws


def count_winning_hands(size: int, rules: RuleSet = STANDARD) -> HandOdds:
    """Exact count of the winning hands (every tile in a legal set) of ``size`` tiles."""
    return count_hands([size], rules, Question.WINNING)[0]


def count_opening_hands(size: int, rules: RuleSet = STANDARD) -> HandOdds:
    """Exact count of the hands of ``size`` tiles that can make the opening meld."""
    return count_hands([size], rules, Question.OPENING)[0]


def answers_yes(tiles: Iterable[Tile], rules: RuleSet, question: Question | str) -> bool:
    """The question asked of one hand."""
    if Question(question) is Question.WINNING:
        return is_winning_hand(tiles, rules)
    return best_opening_value(tiles, rules) >= max(rules.initial_threshold, 1)


def estimate_hands(
    sizes: Iterable[int],
    rules: RuleSet = STANDARD,
    question: Question | str = Question.WINNING,
    samples: int = 10_000,
    seed: int = 0,
    decide: Callable[[list[Tile]], bool] | None = None,
    max_seconds: float | None = None,
) -> list[HandOdds]:
    """Monte Carlo: deal ``samples`` hands of each size from the full set (seeded) and decide
    each; the interval is the Wilson 95% score interval of the chance.

    ``max_seconds``: stop dealing a size's hands after this long (at least one is decided),
    the row then ``cut_short`` with the hands dealt so far, the first of the seed's."""
    from rummikub.models.generate import full_set

    wanted = sorted(set(sizes))
    goal = Question(question)
    _check_sizes(wanted, rules)
    if samples < 1:
        raise RulesError("samples must be at least 1")
    pool = sorted(full_set(rules).elements(), key=Tile.sort_key)
    check = decide or (lambda hand: answers_yes(hand, rules, goal))
    rows = []
    for size in wanted:
        started = time.perf_counter()
        rng = random.Random(f"{seed}:{size}")
        hits = dealt = 0
        while dealt < samples:
            hits += check(rng.sample(pool, size))
            dealt += 1
            if max_seconds is not None and time.perf_counter() - started > max_seconds:
                break
        low, high = wilson(hits, dealt)
        rows.append(
            HandOdds(
                size=size,
                question=goal,
                exact=False,
                samples=dealt,
                hits=hits,
                low=low,
                high=high,
                seconds=time.perf_counter() - started,
                cut_short=dealt < samples,
            )
        )
    return rows


def _check_sizes(sizes: list[int], rules: RuleSet) -> None:
    for size in sizes:
        if not 0 <= size <= rules.total_tiles:
            raise RulesError(f"a hand of {size} tiles: the game has {rules.total_tiles} tiles")


def _totals(rules: RuleSet, top: int) -> tuple[list[int], list[int]]:
    """Distinct multisets and draws of each size 0..top."""
    poly = [1] + [0] * top
    for _ in range(rules.colours * rules.numbers):
        poly = _times(poly, [1] * (rules.copies + 1), top)
    poly = _times(poly, [1] * (rules.jokers + 1), top)
    draws = [comb(rules.total_tiles, t) for t in range(top + 1)]
    return poly, draws


def _times(a: list[int], b: list[int], top: int) -> list[int]:
    out = [0] * (top + 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b[: top + 1 - i]):
                out[i + j] += x * y
    return out


# -- the counter --------------------------------------------------------------------------

Frontier = frozenset[State]  # winning question: the states a hand may be in
ValuedFrontier = frozenset[tuple[State, int]]  # opening: each state with its best value
ACCEPTED: ValuedFrontier = frozenset({(((), -1), -1)})  # opening reached: all hands beyond


class _Counter:
    """Counts hands of every size up to ``top`` by walking sets of automaton states."""

    def __init__(
        self, rules: RuleSet, question: Question, top: int, max_seconds: float | None
    ) -> None:
        self.rules = rules
        self.deadline = None if max_seconds is None else time.perf_counter() + max_seconds
        self.max_seconds = max_seconds
        self.question = question
        self.top = top
        self.machine: HandAutomaton = automaton(rules, opening=question is Question.OPENING)
        self.threshold = max(rules.initial_threshold, 1)
        self.bits = rules.total_tiles + 2  # every count < 2 ** total_tiles
        self.mask = (1 << (self.bits * (top + 1))) - 1
        self.columns = [
            (counts, sum(counts), prod(comb(rules.copies, a) for a in counts))
            for counts in columns_product(rules)
        ]
        self.perms = list(itertools.permutations(range(rules.colours)))
        self._next: dict[tuple[object, tuple[int, ...], int], object] = {}

    def run(self) -> tuple[list[int], list[int]]:
        """(distinct hands, draws) answering yes, for each size 0..top."""
        bits = self.bits
        hands: dict[object, int] = {}
        draws: dict[object, int] = {}
        for jokers in range(self.rules.jokers + 1):
            if jokers > self.top:
                break
            start = self._start(jokers)
            hands[start] = hands.get(start, 0) + (1 << (bits * jokers))
            ways = comb(self.rules.jokers, jokers)
            draws[start] = draws.get(start, 0) + (ways << (bits * jokers))
        for number in range(1, self.rules.numbers + 1):
            new_hands: dict[object, int] = {}
            new_draws: dict[object, int] = {}
            for frontier, multisets in hands.items():
                dealt = draws[frontier]
                fewest = ((multisets & -multisets).bit_length() - 1) // bits
                for counts, size, weight in self.columns:
                    if fewest + size > self.top:
                        continue
                    after = self._advance(frontier, counts, number)
                    if after is None:
                        continue
                    shift = bits * size
                    new_hands[after] = new_hands.get(after, 0) + (multisets << shift)
                    new_draws[after] = new_draws.get(after, 0) + ((dealt * weight) << shift)
            mask = self.mask
            hands = {f: v & mask for f, v in new_hands.items() if v & mask}
            draws = {f: new_draws[f] & mask for f in hands}
        total_hands = [0] * (self.top + 1)
        total_draws = [0] * (self.top + 1)
        slot = (1 << bits) - 1
        for frontier, multisets in hands.items():
            if not self._accepts(frontier):
                continue
            dealt = draws[frontier]
            for t in range(self.top + 1):
                total_hands[t] += (multisets >> (bits * t)) & slot
                total_draws[t] += (dealt >> (bits * t)) & slot
        return total_hands, total_draws

    def _start(self, jokers: int) -> object:
        state = self.machine.start(jokers)
        if self.question is Question.WINNING:
            return frozenset({state})
        return frozenset({(state, 0)})

    def _accepts(self, frontier: object) -> bool:
        if self.question is Question.WINNING:
            if not isinstance(frontier, frozenset):
                raise InternalError("a frontier that is not a set of states")
            return any(self.machine.accepts(s) for s in frontier)
        return frontier == ACCEPTED

    def _advance(self, frontier: object, counts: tuple[int, ...], number: int) -> object | None:
        opening = self.question is Question.OPENING
        key = (frontier, counts, number if opening else 0)
        if key in self._next:
            return self._next[key]
        if not isinstance(frontier, frozenset):
            raise InternalError("a frontier that is not a set of states")
        checking = self.deadline is not None and not len(self._next) % 256
        if checking and time.perf_counter() > (self.deadline or 0.0):
            raise CountTooLarge(
                f"the exact count takes longer than {self.max_seconds:g} s for these "
                "rules and sizes"
            )
        result: object | None
        if opening:
            result = self._advance_opening(frontier, counts, number)
        else:
            states = {step.state for s in frontier for step in self.machine.steps(s, counts)}
            result = (
                _canonical(_prune(frozenset(states), self.rules.min_len), self.perms)
                if states
                else None
            )
        self._next[key] = result
        return result

    def _advance_opening(
        self, frontier: ValuedFrontier, counts: tuple[int, ...], number: int
    ) -> ValuedFrontier:
        if frontier == ACCEPTED:
            return ACCEPTED
        best: dict[State, int] = {}
        for state, value in frontier:
            for step in self.machine.steps(state, counts):
                total = value + step.value(number)
                if total >= self.threshold:
                    return ACCEPTED
                if best.get(step.state, -1) < total:
                    best[step.state] = total
        return _canonical_valued(_prune_valued(best), self.perms)


def _canonical(states: frozenset[State], perms: list[tuple[int, ...]]) -> frozenset[State]:
    """The set with its colours renamed to the least of the orders that sort the colours by
    their profile: colours are alike (same tiles, same weights), so renamed sets count the
    same hands."""
    best: tuple[State, ...] | None = None
    for perm in _sorting_orders([runs for runs, _ in states], perms):
        renamed = tuple(sorted((tuple(runs[i] for i in perm), jokers) for runs, jokers in states))
        if best is None or renamed < best:
            best = renamed
    if best is None:
        raise InternalError("no best count among the candidates")
    return frozenset(best)


def _sorting_orders(
    all_runs: list[tuple[ColourRuns, ...]], perms: list[tuple[int, ...]]
) -> list[tuple[int, ...]]:
    """The colour orders that sort the colours by profile (the sorted runs each colour has
    across the set; a renaming moves a colour's profile with it), so the least renaming
    among them is the same for every renaming of the set."""
    colours = len(all_runs[0]) if all_runs else 0
    profile = [tuple(sorted(runs[c] for runs in all_runs)) for c in range(colours)]
    ordered = sorted(profile)
    return [p for p in perms if [profile[i] for i in p] == ordered]


def _prune_valued(best: dict[State, int]) -> ValuedFrontier:
    """Opening question: keep the states no other state of the set dominates. A state with
    at least the value and the jokers still free, and colour by colour every open run matched
    by a run of the same length with no more jokers, gains at least as much from any tiles
    to come (its runs left over can be given up: their tiles just stay unused). Lengths must
    match: a run's value is counted when it reaches ``min_len``, so a shorter run still has
    value to come that a longer one has already counted."""
    items = sorted(best.items(), key=lambda kv: (-kv[1], -kv[0][1], -_weight(kv[0])))
    kept: list[tuple[State, int]] = []
    for state, value in items:
        if not any(
            v >= value
            and s[1] >= state[1]
            and all(_covers(a, b) for a, b in zip(s[0], state[0], strict=True))
            for s, v in kept
        ):
            kept.append((state, value))
    return frozenset(kept)


@functools.cache
def _covers(strong: ColourRuns, weak: ColourRuns) -> bool:
    """Every run of ``weak`` matched by a distinct run of ``strong`` of the same length with
    no more jokers in it (runs of ``strong`` left over are allowed)."""
    if not weak:
        return True
    head, rest = weak[-1], weak[:-1]
    for i, run in enumerate(strong):
        if run[0] == head[0] and run[1] <= head[1] and _covers(strong[:i] + strong[i + 1 :], rest):
            return True
    return False


def _canonical_valued(frontier: ValuedFrontier, perms: list[tuple[int, ...]]) -> ValuedFrontier:
    """:func:`_canonical` for a valued frontier."""
    best: tuple[tuple[State, int], ...] | None = None
    for perm in _sorting_orders([runs for (runs, _), _ in frontier], perms):
        renamed = tuple(
            sorted(
                ((tuple(runs[i] for i in perm), jokers), value)
                for (runs, jokers), value in frontier
            )
        )
        if best is None or renamed < best:
            best = renamed
    if best is None:
        raise InternalError("no best count among the candidates")
    return frozenset(best)


def _prune(states: frozenset[State], min_len: int) -> frozenset[State]:
    """Keep only the states no other state of the set dominates (see :func:`_runs_dominate`):
    a dominated state accepts no hand the dominating one does not, so the set accepts the
    same hands without it."""
    if len(states) < 2:
        return states
    by_jokers: dict[int, list[State]] = {}
    for state in states:
        by_jokers.setdefault(state[1], []).append(state)
    kept: list[State] = []
    for group in by_jokers.values():
        group.sort(key=lambda s: -_weight(s))
        strong: list[tuple[ColourRuns, ...]] = []
        for runs, jokers in group:
            if not any(_runs_dominate(other, runs, min_len) for other in strong):
                strong.append(runs)
                kept.append((runs, jokers))
    return frozenset(kept)


def _runs_dominate(
    strong: tuple[ColourRuns, ...], weak: tuple[ColourRuns, ...], min_len: int
) -> bool:
    """Whether a state with open runs ``strong`` can do everything one with ``weak`` can
    (the same jokers still to place): colour by colour, every open run of ``weak`` matched
    by a run of ``strong`` at least as long (with no more jokers in it), the runs of
    ``strong`` left over all finished (a finished run may stop at any number; a longer run
    needs no more tiles than a shorter)."""
    for a, b in zip(strong, weak, strict=True):
        if a != b and not _colour_dominates(a, b, min_len):
            return False
    return True


def _weight(state: State) -> int:
    """A state can only dominate states of no greater weight (total run length)."""
    return sum(length for colour in state[0] for length, _ in colour)


@functools.cache
def _colour_dominates(strong: ColourRuns, weak: ColourRuns, min_len: int) -> bool:
    if len(strong) < len(weak):
        return False
    if not weak:
        return all(length == min_len for length, _ in strong)
    # Match the longest weak run first, to the shortest strong run that covers it.
    head, rest = weak[-1], weak[:-1]
    for i, run in enumerate(strong):
        covers = run[0] >= head[0] and run[1] <= head[1]
        if covers and _colour_dominates(strong[:i] + strong[i + 1 :], rest, min_len):
            return True
    return False


# -- jokers as added tiles ------------------------------------------------------------------


def _added_tiles_cover(rules: RuleSet) -> bool:
    """Whether a joker is just the tile it stands for: every set may hold all the game's
    jokers, so a hand with j jokers is winning exactly when some j added tiles (any tiles,
    beyond the game's copies too) make a joker-free winning hand."""
    return rules.max_jokers_per_set >= rules.jokers and not rules.wrap


class _AddedTilesCounter:
    """Counts the winning hands with exactly ``depth`` jokers, for every number of real
    tiles up to ``top``, as the joker-free hands that ``depth`` added tiles complete.

    The walk is over tuples of state sets of the joker-free automaton: the k-th set holds
    the states the real tiles so far reach with k tiles added among them. A hand counts when
    the last set can end. State sets are interned (pruned to the states no other dominates),
    so images, unions and renamings are cached by number.
    """

    def __init__(
        self,
        rules: RuleSet,
        depth: int,
        top: int,
        deadline: float | None,
        max_seconds: float | None,
    ) -> None:
        self.rules = rules
        self.depth = depth
        self.top = top
        self.deadline = deadline
        self.max_seconds = max_seconds
        self.machine = automaton(replace(rules, jokers=0))
        self.bits = rules.total_tiles + 2
        self.mask = (1 << (self.bits * (top + 1))) - 1
        self.columns = [
            (counts, sum(counts), prod(comb(rules.copies, a) for a in counts))
            for counts in columns_product(rules)
        ]
        colours = rules.colours
        self.additions = [
            [
                tuple(chosen.count(c) for c in range(colours))
                for chosen in itertools.combinations_with_replacement(range(colours), m)
            ]
            for m in range(depth + 1)
        ]
        self._states: list[State] = []
        self._state_ids: dict[State, int] = {}
        self._sets: list[tuple[int, ...]] = [()]
        self._set_ids: dict[tuple[int, ...], int] = {(): 0}
        self._images: dict[tuple[int, tuple[int, ...]], int] = {}
        self._unions: dict[tuple[int, int], int] = {}
        self._added: dict[tuple[int, int, tuple[int, ...]], int] = {}
        self._renamed: dict[tuple[int, tuple[int, ...]], int] = {}
        self._next: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...] | None] = {}
        self._accepting: dict[int, bool] = {}
        self._weight_of: list[int] = []
        self._dominates: dict[tuple[int, int], bool] = {}
        self._steps: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}

    def run(self) -> tuple[list[int], list[int]]:
        """(distinct real-tile multisets, draws of them) completed by ``depth`` added tiles,
        for each number of real tiles 0..top."""
        bits, mask = self.bits, self.mask
        start_state = self._set_of([self._state_id(self.machine.start(0))])
        start = (start_state,) + (0,) * self.depth
        hands: dict[tuple[int, ...], int] = {start: 1}
        draws: dict[tuple[int, ...], int] = {start: 1}
        for _ in range(self.rules.numbers):
            new_hands: dict[tuple[int, ...], int] = {}
            new_draws: dict[tuple[int, ...], int] = {}
            for frontier, multisets in hands.items():
                dealt = draws[frontier]
                fewest = ((multisets & -multisets).bit_length() - 1) // bits
                for counts, size, weight in self.columns:
                    if fewest + size > self.top:
                        continue
                    after = self._advance(frontier, counts)
                    if after is None:
                        continue
                    shift = bits * size
                    new_hands[after] = new_hands.get(after, 0) + (multisets << shift)
                    new_draws[after] = new_draws.get(after, 0) + ((dealt * weight) << shift)
            hands = {f: v & mask for f, v in new_hands.items() if v & mask}
            draws = {f: new_draws[f] & mask for f in hands}
        total_hands = [0] * (self.top + 1)
        total_draws = [0] * (self.top + 1)
        slot = (1 << bits) - 1
        for frontier, multisets in hands.items():
            if not self._accepts(frontier[-1]):
                continue
            dealt = draws[frontier]
            for t in range(self.top + 1):
                total_hands[t] += (multisets >> (bits * t)) & slot
                total_draws[t] += (dealt >> (bits * t)) & slot
        return total_hands, total_draws

    # -- interning ------------------------------------------------------------------------

    def _state_id(self, state: State) -> int:
        found = self._state_ids.get(state)
        if found is None:
            found = self._state_ids[state] = len(self._states)
            self._states.append(state)
            self._weight_of.append(_weight(state))
        return found

    def _set_of(self, ids: Iterable[int]) -> int:
        """The interned set of these states, pruned to those no other dominates (as
        :func:`_prune`)."""
        weight = self._weight_of
        ordered = sorted(set(ids), key=lambda i: -weight[i])
        kept: list[int] = []
        for weak in ordered:
            if not self._dominated(weak, kept):
                kept.append(weak)
        return self._intern(tuple(sorted(kept)))

    def _dominated(self, weak: int, strong_ones: Iterable[int]) -> bool:
        """Whether a state other than ``weak`` among ``strong_ones`` dominates it."""
        weight, dominates = self._weight_of, self._dominates
        light = weight[weak]
        for strong in strong_ones:
            if weight[strong] <= light:  # equal weight: only the state itself dominates
                continue
            pair = (strong, weak)
            found = dominates.get(pair)
            if found is None:
                found = dominates[pair] = _runs_dominate(
                    self._states[strong][0], self._states[weak][0], self.rules.min_len
                )
            if found:
                return True
        return False

    def _intern(self, key: tuple[int, ...]) -> int:
        found = self._set_ids.get(key)
        if found is None:
            found = self._set_ids[key] = len(self._sets)
            self._sets.append(key)
        return found

    def _accepts(self, set_id: int) -> bool:
        found = self._accepting.get(set_id)
        if found is None:
            found = any(self.machine.accepts(self._states[i]) for i in self._sets[set_id])
            self._accepting[set_id] = found
        return found

    # -- set operations -------------------------------------------------------------------

    def _image(self, set_id: int, counts: tuple[int, ...]) -> int:
        key = (set_id, counts)
        found = self._images.get(key)
        if found is None:
            ids: set[int] = set()
            for i in self._sets[set_id]:
                ids.update(self._successors(i, counts))
            found = self._images[key] = self._set_of(ids) if ids else 0
        return found

    def _successors(self, state_id: int, counts: tuple[int, ...]) -> tuple[int, ...]:
        key = (state_id, counts)
        found = self._steps.get(key)
        if found is None:
            steps = self.machine.steps(self._states[state_id], counts)
            found = self._steps[key] = tuple({self._state_id(step.state) for step in steps})
        return found

    def _union(self, a: int, b: int) -> int:
        if not a or a == b:
            return b
        if not b:
            return a
        key = (a, b) if a < b else (b, a)
        found = self._unions.get(key)
        if found is None:
            # Each set is pruned already: only a state of one can dominate one of the other.
            first, second = self._sets[a], self._sets[b]
            kept = [i for i in first if not self._dominated(i, second)]
            kept += [i for i in second if i not in first and not self._dominated(i, first)]
            found = self._unions[key] = self._intern(tuple(sorted(kept)))
        return found

    def _with_added(self, set_id: int, added: int, counts: tuple[int, ...]) -> int:
        """The states reached from the set through this number with ``added`` tiles added
        to it (in any colours)."""
        if not added:
            return self._image(set_id, counts)
        key = (set_id, added, counts)
        found = self._added.get(key)
        if found is None:
            found = 0
            for extra in self.additions[added]:
                more = tuple(a + e for a, e in zip(counts, extra, strict=True))
                found = self._union(found, self._image(set_id, more))
            self._added[key] = found
        return found

    def _advance(
        self, frontier: tuple[int, ...], counts: tuple[int, ...]
    ) -> tuple[int, ...] | None:
        key = (frontier, counts)
        if key in self._next:
            return self._next[key]
        checking = self.deadline is not None and not len(self._next) % 256
        if checking and time.perf_counter() > (self.deadline or 0.0):
            raise CountTooLarge(
                f"the exact count takes longer than {self.max_seconds:g} s for these "
                "rules and sizes"
            )
        after = []
        for k in range(self.depth + 1):
            reached = 0
            for added in range(k + 1):
                if frontier[k - added]:
                    reached = self._union(
                        reached, self._with_added(frontier[k - added], added, counts)
                    )
            after.append(reached)
        result = self._canonical(tuple(after)) if any(after) else None
        self._next[key] = result
        return result

    # -- colour symmetry ------------------------------------------------------------------

    def _canonical(self, frontier: tuple[int, ...]) -> tuple[int, ...]:
        """The frontier with its colours renamed to the least of the orders that sort the
        colours by their profile (as :func:`_canonical`, over all its sets at once)."""
        states = self._states
        members = [[states[i][0] for i in self._sets[s]] for s in frontier]
        colours = self.rules.colours
        profile = [
            tuple(sorted((k, runs[c]) for k, group in enumerate(members) for runs in group))
            for c in range(colours)
        ]
        best: tuple[tuple[int, ...], ...] | None = None
        best_order: tuple[int, ...] = tuple(range(colours))
        for order in _orders_sorting(profile):
            renamed = tuple(
                tuple(sorted(self._renamed_state(i, order) for i in self._sets[s]))
                for s in frontier
            )
            if best is None or renamed < best:
                best, best_order = renamed, order
        if best is None:
            raise InternalError("no best count among the candidates")
        if best_order == tuple(range(colours)):
            return frontier
        return tuple(self._intern(key) for key in best)

    def _renamed_state(self, state_id: int, order: tuple[int, ...]) -> int:
        key = (state_id, order)
        found = self._renamed.get(key)
        if found is None:
            runs, jokers = self._states[state_id]
            found = self._renamed[key] = self._state_id((tuple(runs[i] for i in order), jokers))
        return found


ColourProfile = tuple[tuple[int, ColourRuns], ...]  # (set index, runs) over a frontier


def _orders_sorting(profile: list[ColourProfile]) -> Iterator[tuple[int, ...]]:
    """Every order of the colours that sorts their profiles (ties in every order)."""
    ranked = sorted(range(len(profile)), key=lambda c: profile[c])
    ties: list[list[int]] = []
    for c in ranked:
        if ties and profile[ties[-1][0]] == profile[c]:
            ties[-1].append(c)
        else:
            ties.append([c])
    for parts in itertools.product(*(itertools.permutations(t) for t in ties)):
        yield tuple(c for part in parts for c in part)
