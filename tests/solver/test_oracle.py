"""The ILP solver against the brute-force oracle of ``tests/oracle.py``, on every objective level.

Random legal positions of small generalised games (fixed seeds, jokers on the table and on
the rack, ordinary turns and initial melds) are solved by both; the score vectors (tiles
placed, value placed, table tiles moved, rack jokers placed) must agree, the solver's move
must pass the independent validator and be proved optimal, and its explanation steps must
replay onto the old position as exactly the new table. A few hand-made positions with
hand-derived answers check the oracle itself and pin known hard cases.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from dataclasses import dataclass

import pytest
from oracle import Answer, Score, oracle_answer, score_of, staying_tiles
from solver_score import level_moved, solver_score

from rummikub.models import JOKER, STANDARD, Position, RuleSet, position_from_text
from rummikub.models.generate import random_position
from rummikub.models.tile import Tile
from rummikub.models.validation import move_problems
from rummikub.solver import Move, solve
from rummikub.steps.planner import explain
from rummikub.steps.replay import replay

RULES: dict[str, RuleSet] = {
    "c3n7": RuleSet(colours=3, numbers=7, copies=2, jokers=2),
    "c4n6": RuleSet(colours=4, numbers=6, copies=2, jokers=2),
    "c3n7-1j": RuleSet(colours=3, numbers=7, copies=2, jokers=2, max_jokers_per_set=1),
    # min_len 2 makes melds of jokers alone legal ("j j"); the oracle is slower: smaller positions.
    "c4n5-len2": RuleSet(colours=4, numbers=5, copies=1, jokers=2, min_len=2),
}
THRESHOLDS = (0, 6, 10, 12, 15, 20, 25, 30)  # initial-meld thresholds: some openings feasible

# Positions per mode (objective, keep_jokers, initial); the rule set rotates with the seed.
ORDINARY_PER_MODE = 400
INITIAL_PER_MODE = 125


@dataclass(frozen=True)
class Case:
    """One random position and the options it is solved under."""

    seed: int
    rules: str
    objective: str
    keep_jokers: bool
    initial: bool

    @property
    def id(self) -> str:
        keep = "-keepj" if self.keep_jokers else ""
        mode = "initial" if self.initial else "turn"
        return f"{mode}-{self.objective}{keep}-{self.rules}-seed{self.seed}"

    def position(self) -> Position:
        """A legal position: a random table and rack, sometimes with jokers put on the rack."""
        rng = random.Random(self.seed)
        rules = RULES[self.rules]
        if self.initial:
            rules = dataclasses.replace(rules, initial_threshold=rng.choice(THRESHOLDS))
        small = rules.min_len < 3
        base = random_position(
            self.seed,
            table_tiles=rng.randint(0, 8 if small else 12),
            rack_tiles=rng.randint(3, 12) if self.initial else rng.randint(0, 6 if small else 8),
            rules=rules,
            joker_rate=rng.choice((0.1, 0.3, 0.5)),
        )
        rack = list(base.rack)
        jokers = sum(t.is_joker for t in (*base.table_tiles(), *rack))
        for _ in range(rng.choice((0, 0, 1, 2))):
            spot = rng.randrange(len(rack)) if rack else None
            if spot is not None and jokers < rules.jokers and not rack[spot].is_joker:
                rack[spot] = JOKER
                jokers += 1
        position = Position(base.table, tuple(rack), self.initial, rules)
        position.validate()
        return position


def _cases() -> list[Case]:
    cases = []
    names = list(RULES)
    for m, (objective, keep_jokers, initial) in enumerate(
        (o, k, i) for i in (False, True) for o in ("tiles", "value") for k in (False, True)
    ):
        count = INITIAL_PER_MODE if initial else ORDINARY_PER_MODE
        for i in range(count):
            seed = 10_000 * (m + 1) + i
            cases.append(Case(seed, names[i % len(names)], objective, keep_jokers, initial))
    return cases


CASES = _cases()


def _solver_score(move: Move) -> Score:
    return solver_score(move)


def _report(position: Position, options: str, answer: Answer, move: Move) -> str:
    solver_table = "\n".join(f"  {meld}" for meld in move.melds) or "  (empty)"
    return (
        f"\n{options}\nposition:\n{position.to_text()}"
        f"oracle {answer.score}, for example:\n{answer.table_text()}\n"
        f"solver {_solver_score(move)} ({move.status}):\n{solver_table}"
    )


def _check_oracle_witness(position: Position, answer: Answer) -> None:
    """The oracle's own table must be legal and score what the oracle says (self-check)."""
    placed = Counter(t for meld in answer.table for t in meld.tiles) - position.table_counts()
    tiles = list(placed.elements())
    assert move_problems(position, answer.table, tiles) == [], "oracle witness is illegal"
    kept = staying_tiles(position.table, answer.table) if not position.initial else 0
    moved = 0 if position.initial else len(position.table_tiles()) - kept
    assert score_of(tiles, moved) == answer.score, "oracle witness scores differently"


def _check(position: Position, objective: str, keep_jokers: bool, options: str) -> None:
    answer = oracle_answer(position, objective, keep_jokers)
    _check_oracle_witness(position, answer)
    move = solve(position, objective=objective, keep_jokers=keep_jokers)
    report = _report(position, options, answer, move)
    problems = move_problems(position, move.melds, move.placed)
    assert problems == [], f"illegal solver move: {problems}{report}"
    assert move.status == "optimal", f"solver status {move.status}{report}"
    if not position.initial:
        kept = staying_tiles(position.table, move.melds)
        claimed = len(position.table_tiles()) - level_moved(move)
        assert claimed <= kept, f"solver claims {claimed} table tiles kept, its table keeps {kept}"
    assert _solver_score(move) == answer.score, f"solver and oracle disagree{report}"
    # The steps a person would follow replay onto the old position as exactly this table.
    table, rack = replay(position.table, position.rack, explain(move), position.rules)
    assert sorted(m.tiles for m in table) == sorted(m.tiles for m in move.melds), report
    assert sorted(rack, key=Tile.sort_key) == list(move.rack_left), report


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_solver_matches_oracle(case: Case) -> None:
    position = case.position()
    options = (
        f"seed={case.seed} rules={case.rules} {position.rules} objective={case.objective} "
        f"keep_jokers={case.keep_jokers}"
    )
    _check(position, case.objective, case.keep_jokers, options)


def test_case_counts() -> None:
    modes = Counter((c.objective, c.keep_jokers, c.initial) for c in CASES)
    assert len(CASES) >= 500
    assert len(modes) == 8
    assert min(modes.values()) >= 50


# Hand-made positions with answers worked out by hand: (name, rules, text, options, expected).
# Score fields: tiles placed, value placed, table tiles moved, rack jokers placed.
HAND: list[tuple[str, RuleSet, str, str, bool, Score]] = [
    ("run-from-rack", STANDARD, "rack: k1 k2 k3", "tiles", False, Score(3, 6, 0, 0)),
    # One joker, two uses: k1 k2 j k4 (4 tiles, 7) or r13 b13 j (3 tiles, 26).
    ("joker-for-tiles", STANDARD, "rack: j k1 k2 k4 r13 b13", "tiles", False, Score(4, 7, 0, 1)),
    ("joker-for-value", STANDARD, "rack: j k1 k2 k4 r13 b13", "value", False, Score(3, 26, 0, 1)),
    ("keepj-tiles", STANDARD, "rack: j k1 k2 k4 r13 b13", "tiles", True, Score(4, 7, 0, 1)),
    ("keepj-value", STANDARD, "rack: j k1 k2 k4 r13 b13", "value", True, Score(3, 26, 0, 1)),
    ("lone-joker", STANDARD, "table: r3 r4 r5\nrack: j", "tiles", False, Score(1, 0, 0, 1)),
    ("lone-joker-kept", STANDARD, "table: r3 r4 r5\nrack: j", "tiles", True, Score(0, 0, 0, 0)),
    # r1-6 becomes r3 r4 r5 r6 (with a table r3), so only r1 and r2 are picked up.
    ("split-run", STANDARD, "table: r1-6\nrack: r3", "tiles", False, Score(1, 3, 2, 0)),
    # The joker counts as r11: 9 + 10 + 11 = 30 reaches the threshold exactly.
    ("open-joker", STANDARD, "rack: r9 r10 j\ninitial: yes", "tiles", False, Score(3, 19, 0, 1)),
    (
        "open-short",
        dataclasses.replace(STANDARD, initial_threshold=31),
        "rack: r9 r10 j\ninitial: yes",
        "tiles",
        False,
        Score(0, 0, 0, 0),
    ),
    (
        "open-table-untouched",
        STANDARD,
        "table: r1 r2 r3\nrack: r4 k10 b10 o10\ninitial: yes",
        "tiles",
        False,
        Score(3, 30, 0, 0),
    ),
    ("open-too-low", STANDARD, "rack: k1 k2 k3\ninitial: yes", "tiles", False, Score(0, 0, 0, 0)),
    # Known hard cases for "moved". The old meld j r5 r6 fits in r1 r2 j r4 r5 r6: its joker
    # moves four places left of r5, beyond a bound of jokers + min_len - 1 extra places.
    (
        "kept-joker-moves-far",
        STANDARD,
        "table: j r5 r6\nrack: r1 r2 r4",
        "tiles",
        False,
        Score(3, 7, 0, 0),
    ),
    # A meld of jokers alone (legal when min_len is 2) survives inside the run o1 j j o4.
    (
        "kept-joker-pair",
        RuleSet(min_len=2),
        "table: j j\nrack: o1 o4",
        "tiles",
        False,
        Score(2, 5, 0, 0),
    ),
    # Both old melds fit together in k1 k2 k3 k4 j j k7, but a new meld keeps at most one
    # old meld, so one of them breaks (moved 3): see the merge option of the oracle.
    (
        "kept-two-in-one",
        STANDARD,
        "table: k1 j j | k2 k3 k4\nrack: k7",
        "tiles",
        False,
        Score(1, 7, 3, 0),
    ),
]


@pytest.mark.parametrize(
    ("rules", "text", "objective", "keep_jokers", "expected"),
    [h[1:] for h in HAND],
    ids=[h[0] for h in HAND],
)
def test_hand_positions(
    rules: RuleSet, text: str, objective: str, keep_jokers: bool, expected: Score
) -> None:
    position = position_from_text(text, rules)
    answer = oracle_answer(position, objective, keep_jokers)
    assert answer.score == expected, f"oracle is wrong on a hand case: {answer.score}"
    _check(position, objective, keep_jokers, f"objective={objective} keep_jokers={keep_jokers}")


def test_oracle_wide_definition() -> None:
    """If one new meld could keep several old melds, k1 j j and k2-4 would both survive."""
    position = position_from_text("table: k1 j j | k2 k3 k4\nrack: k7")
    assert oracle_answer(position, merge=True, measure="kept").score == Score(1, 7, 0, 0)
