"""An independent check that a move's steps respect what each table joker stands for.

Under the ``strict`` and ``locked`` joker rules a table joker leaves its meaning only by a
*swap*: the tile it stands for, from the rack, takes its place. :func:`joker_step_problems`
replays the steps tracking every joker: a table joker is *bound* (the set of tiles it may
still stand for, narrowed by every meld it lies in), *free* (freed by a swap) or a *rack*
joker. It checks that

* a swap gives, for each joker it frees, a tile that a bound joker of that meld stands for
  (under ``strict`` only tiles from the rack);
* a bound joker only ever lies in a meld where it can stand for one of its tiles (a joker in
  a piece that is no legal set stands for nothing; rack and freed jokers, bound to nothing,
  may lie in such a piece between steps);
* under ``strict`` every freed joker ends in a new meld (one no old meld becomes) with at
  least two non-joker tiles from the rack.

Jokers are alike, so which physical joker went where is searched by backtracking. Written
for the tests from the rules alone (it shares no code with the explainer).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations, permutations

from oracle_jokers import joker_meanings, laid_run_meaning

from rummikub.models import JokerRule, Meld, RuleSet, Tile
from rummikub.solver import Move
from rummikub.steps.planner import RACK, Explanation, explanation
from rummikub.steps.replay import Step, Swap

FREE = "free"  # a joker freed by a swap
RACK_JOKER = "rack"  # a joker from the rack
State = frozenset[Tile] | str  # a bound joker's possible tiles, FREE or RACK_JOKER
Table = tuple[tuple[Meld, tuple[State, ...]], ...]


def _options(meld: Meld, rules: RuleSet) -> set[tuple[Tile, ...]]:
    """Every joint meaning of the meld's jokers (respecting its declared meanings)."""
    stated = Counter(d for d in meld.declared if d is not None)
    return {
        tuple(option)
        for reading in meld.readings(rules)
        for option in reading.joker_options(rules)
        if not stated - Counter(option)
    }


def _fits(jokers: Sequence[State], meld: Meld, rules: RuleSet) -> list[tuple[State, ...]]:
    """The jokers' states narrowed to the meld, one tuple per way they can lie in it."""
    if not any(isinstance(state, frozenset) for state in jokers):
        # Rack and freed jokers are bound to nothing: they may lie in a broken piece.
        return [tuple(sorted(jokers, key=repr))]
    found: set[tuple[State, ...]] = set()
    for option in _options(meld, rules):
        for order in set(permutations(range(len(option)))):
            narrowed: list[State] = []
            for k, state in enumerate(jokers):
                tile = option[order[k]]
                if isinstance(state, frozenset):
                    if tile not in state:
                        break
                    narrowed.append(frozenset([tile]))
                else:
                    narrowed.append(state)
            else:
                found.add(tuple(sorted(narrowed, key=repr)))
    return sorted(found, key=repr)


def _key(table: Table, loose: Sequence[State], n: int) -> tuple[object, ...]:
    melds = sorted((str(m), tuple(sorted(map(repr, s)))) for m, s in table)
    return (tuple(melds), tuple(sorted(map(repr, loose))), n)


class _Replay:
    def __init__(self, move: Move, told: Explanation) -> None:
        self.rules = move.position.rules
        self.strict = self.rules.joker_rule is JokerRule.STRICT
        self.told = told
        self.steps: list[Step] = list(told.steps)
        self.new = move.melds
        self.seen: set[tuple[object, ...]] = set()
        self.deepest = (-1, "")

    def fail(self, n: int, why: str) -> bool:
        if n >= self.deepest[0]:
            self.deepest = (n, why)
        return False

    def hosted(self, table: Table) -> bool:
        """Under strict: every freed joker lies in a new meld with two rack tiles."""
        if not self.strict:
            return True
        used: set[int] = set()
        for meld, states in table:
            if FREE not in states:
                continue
            # Equal new melds are alike on the table: any one of them that is a host will do.
            j = next(
                (j for j, m in enumerate(self.new) if m == meld and j not in used and self.host(j)),
                None,
            )
            if j is None:
                return False
            used.add(j)
        return True

    def host(self, j: int) -> bool:
        """Whether new meld ``j`` may hold a freed joker: new, with two rack tiles."""
        row, tiles = self.told.provenance[j], self.new[j].tiles
        rack = sum(s == RACK and not t.is_joker for s, t in zip(row, tiles, strict=True))
        return self.told.sources[j] is None and rack >= 2

    def swapped(self, n: int, step: Swap, incoming: list[State]) -> list[list[State]]:
        """The jokers left in the meld after the swap, for each way the swap can be read."""
        given = [*step.rack, *step.taken]
        if self.strict and step.taken:
            self.fail(n, f"step {n + 1} '{step}': a swap with tiles not from the rack")
            return []
        bound = [i for i, s in enumerate(incoming) if isinstance(s, frozenset)]
        found = []
        for chosen in permutations(bound, len(given)):
            if all(t in incoming[i] for t, i in zip(given, chosen, strict=True)):
                found.append([s for i, s in enumerate(incoming) if i not in chosen])
        if not found:
            self.fail(n, f"step {n + 1} '{step}': gives {given} for jokers standing for {incoming}")
        return found

    def go(self, n: int, table: Table, loose: tuple[State, ...]) -> bool:
        if n == len(self.steps):
            return self.hosted(table) or self.fail(n, "a freed joker does not end in a host")
        key = _key(table, loose, n)
        if key in self.seen:
            return False
        self.seen.add(key)
        step = self.steps[n]
        rest = list(table)
        incoming: list[State] = []
        for meld in step.inputs:
            at = next((i for i, (m, _) in enumerate(rest) if m == meld), None)
            if at is None:
                return self.fail(n, f"step {n + 1}: '{meld}' is not on the table")
            incoming += rest.pop(at)[1]
        if isinstance(step, Swap):
            variants = [(left, (FREE,) * step.jokers) for left in self.swapped(n, step, incoming)]
        else:
            variants = [(incoming, ())]
        taken = sum(t.is_joker for t in step.taken_tiles)
        from_rack = sum(t.is_joker for t in step.rack_tiles)
        loosened = 0 if isinstance(step, Swap) else sum(t.is_joker for t in step.freed)
        outputs = step.outputs
        slots = [k for k, m in enumerate(outputs) for _ in range(m.jokers)] + [-1] * loosened
        for held, freed in variants:
            for chosen in set(combinations(range(len(loose)), taken)):
                at_hand = [*held, *(loose[i] for i in chosen), *[RACK_JOKER] * from_rack]
                others = tuple(s for i, s in enumerate(loose) if i not in chosen) + freed
                if len(at_hand) != len(slots):
                    continue
                for placed, lifted in self._placements(at_hand, slots, len(outputs)):
                    nothing: list[tuple[State, ...]] = [()]
                    ways = [
                        _fits(p, m, self.rules) if p else nothing
                        for p, m in zip(placed, outputs, strict=True)
                    ]
                    for choice in _product(ways):
                        after = (*rest, *zip(outputs, choice, strict=True))
                        if self.go(n + 1, tuple(after), others + lifted):
                            return True
        return self.fail(
            n,
            f"step {n + 1} '{step}': no joker can keep its meaning here "
            f"(jokers in it: {incoming}; loose: {list(loose)})",
        )

    @staticmethod
    def _placements(
        at_hand: list[State], slots: list[int], melds: int
    ) -> Iterator[tuple[list[list[State]], tuple[State, ...]]]:
        """Every distinct way to lay the jokers at hand into the output melds' joker slots
        (slot -1: left loose)."""
        tried: set[tuple[object, ...]] = set()
        for order in permutations(range(len(at_hand))):
            per: list[list[State]] = [[] for _ in range(melds)]
            lifted: list[State] = []
            for a, slot in zip(order, slots, strict=True):
                (per[slot] if slot >= 0 else lifted).append(at_hand[a])
            sig = (
                tuple(tuple(sorted(map(repr, p))) for p in per),
                tuple(sorted(map(repr, lifted))),
            )
            if sig not in tried:
                tried.add(sig)
                yield per, tuple(lifted)


def _product(ways: list[list[tuple[State, ...]]]) -> Iterator[list[tuple[State, ...]]]:
    if not ways:
        yield []
        return
    for first in ways[0]:
        for rest in _product(ways[1:]):
            yield [first, *rest]


def _laid_states(meld: Meld, move: Move) -> tuple[State, ...]:
    """Each joker of an old table meld, in order: the tiles it may stand for as it lies (the
    oracle's rule: a run written in order fixes each joker, a group leaves the colours open)."""
    meanings = joker_meanings(meld, move.position)
    every = frozenset(t for option in _options(meld, move.position.rules) for t in option)
    laid = laid_run_meaning(meld, move.position)
    if laid is None or tuple(sorted(laid)) not in meanings:
        return (frozenset(t for m in meanings for t in m) if meanings else every,) * meld.jokers
    in_groups = frozenset(t for m in meanings if m != tuple(sorted(laid)) for t in m)
    return tuple(frozenset({tile}) | in_groups for tile in laid)


def joker_step_problems(move: Move, told: Explanation | None = None) -> list[str]:
    """What is wrong with the steps' use of the table jokers (empty: nothing), under the
    position's joker rule; under ``free`` nothing is checked."""
    rules = move.position.rules
    if rules.joker_rule is JokerRule.FREE:
        return []
    check = _Replay(move, told or explanation(move))
    start: list[tuple[Meld, tuple[State, ...]]] = []
    for meld in move.position.table:
        start.append((meld, _laid_states(meld, move)))
    if check.go(0, tuple(start), ()):
        return []
    return [check.deepest[1]]
