"""The whole path a user runs, on one position: solve, explain, JSON and text, replay, validate
(the move by the validator, the steps' table jokers by :mod:`joker_steps`).

Shared by ``tests/test_user_path.py`` (a fixed-seed sample in CI) and
``benchmarks/bench_user_path.py`` (thousands of positions per joker rule, with solve times).
:func:`joker_heavy_position` deals positions where the table-joker rules matter: jokers on
the table, often the tile one stands for on the rack, and pairs of rack tiles that could
take a freed joker.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from joker_steps import joker_step_problems

from rummikub.cli.render import render_move
from rummikub.models import JOKER, Colour, JokerRule, Meld, Position, RuleSet, Tile
from rummikub.models.generate import full_set, random_position
from rummikub.models.moves import moved_tiles
from rummikub.models.presets import PRESETS
from rummikub.models.validation import move_problems
from rummikub.solver import Move, solve
from rummikub.solver.move import table_joker_melds
from rummikub.steps.planner import explanation
from rummikub.steps.replay import replay
from rummikub.steps.report import move_json

JOKER_RULES = ("free", "strict", "locked")
PRESET_NAMES = tuple(PRESETS)


class UserPathError(AssertionError):
    """A step of the user path failed on a position (the message says which and where)."""


@dataclass(frozen=True)
class PathResult:
    """What one run of the user path measured."""

    solve_seconds: float
    placed: int
    steps: int
    moved: int
    swaps: int  # 1 when the answer frees a table joker by a swap step


def rules_for(preset: str, joker_rule: str) -> RuleSet:
    """A preset's rules with the table-joker rule set."""
    return replace(PRESETS[preset].rules, joker_rule=JokerRule(joker_rule))


def _meanings(meld: Meld, rules: RuleSet) -> list[Tile]:
    return [t for r in meld.readings(rules) for option in r.joker_options(rules) for t in option]


def joker_heavy_position(seed: int, rules: RuleSet, small: bool = False) -> Position:
    """A legal random position with jokers on the table (``small``: a few table tiles, as the
    brute-force oracle can answer), and a rack that often frees or hosts one."""
    rng = random.Random(seed)
    base = random_position(
        rng.randrange(10**9),
        table_tiles=rng.randint(3, 9) if small else rng.choice((6, 12, 20, 30, 45, 60)),
        rack_tiles=0,
        rules=rules,
        joker_rate=rng.choice((0.3, 0.5) if small else (0.1, 0.2, 0.35)),
    )
    pool = full_set(rules) - base.table_counts()
    rack: list[Tile] = []

    def take(tile: Tile) -> None:
        if pool[tile] > 0:
            pool[tile] -= 1
            rack.append(tile)

    for meld in base.table:  # the tile a table joker stands for, to free it
        meanings = _meanings(meld, rules) if meld.jokers else []
        if meanings and rng.random() < 0.75:
            take(rng.choice(meanings))
    for _ in range(rng.choice((0, 1, 1, 2))):  # two tiles that make a meld with a joker
        colour, number = rng.randrange(rules.colours), rng.randint(1, rules.numbers)
        other = number + rng.choice((-2, -1, 1, 2))
        if rng.random() < 0.5 and 1 <= other <= rules.numbers:
            pair = Tile(Colour(colour), other)
        else:
            pair = Tile(Colour((colour + rng.randrange(1, rules.colours)) % rules.colours), number)
        take(Tile(Colour(colour), number))
        take(pair)
    extra = rng.randint(0, 3) if small else rng.randint(1, 10)
    for _ in range(extra):
        real = [t for t in pool.elements() if not t.is_joker]
        if real:
            take(rng.choice(real))
    if rng.random() < 0.2:
        take(JOKER)
    if not rack:
        take(rng.choice([t for t in pool.elements() if not t.is_joker]))
    position = Position(base.table, tuple(rack), False, rules)
    position.validate()
    return position


def _table_key(melds: Sequence[Meld]) -> list[tuple[tuple[int, int], ...]]:
    return sorted(tuple(t.sort_key() for t in m.tiles) for m in melds)


def check_move_path(move: Move, thorough: bool = True) -> PathResult:
    """Everything after the solve: the checks of :func:`run_user_path` on a given move."""
    position = move.position
    where = f"\nposition ({position.rules.joker_rule}):\n{position.to_text()}"
    problems = move_problems(position, move.melds, move.placed)
    if problems:
        raise UserPathError(f"the validator rejects the move: {problems}{where}")
    try:
        told = explanation(move)
        payload = json.loads(json.dumps(move_json(move)))
        text = render_move(move)
        brief = json.loads(json.dumps(move_json(move, steps=False))) if thorough else payload
        if thorough:  # the --no-steps text too
            render_move(move, steps=False)
    except Exception as error:  # any failure on the way to the user is the bug we look for
        raise UserPathError(f"{type(error).__name__}: {error}{where}") from error
    hosts = table_joker_melds(move.table)
    measure = moved_tiles(position, move.melds, move.placed, hosts_first=hosts)
    if not payload["moved"] == len(measure) == len(move.moved):
        raise UserPathError(f"--json 'moved' is not the tiles picked up{where}")
    if brief["moved"] != payload["moved"] or (thorough and "steps" in brief):
        raise UserPathError(f"--json --no-steps disagrees with --json{where}")
    if len(payload["steps"]) != len(told.steps) or ("Steps:" not in text and told.steps):
        raise UserPathError(f"the steps printed are not the steps explained{where}")
    table, rack = replay(position.table, position.rack, told.steps, position.rules)
    if _table_key(table) != _table_key(move.melds):
        raise UserPathError(f"replaying the steps does not give the new table{where}")
    if Counter(rack) != Counter(move.rack_left):
        raise UserPathError(f"replaying the steps does not leave the move's rack{where}")
    for number, step in enumerate(told.steps, 1):
        if len(step.inputs) > 2 or len(step.outputs) > 2:
            raise UserPathError(f"step {number} touches more than two table melds: {step}{where}")
    if told.flaw:
        raise UserPathError(f"the steps carry a note: {told.flaw}{where}")
    if problems := joker_step_problems(move, told):
        raise UserPathError(f"the steps break the joker rule: {problems}{where}")
    swaps = int(any(step.action == "swap" for step in told.steps))
    return PathResult(move.seconds, move.placed_count, len(told.steps), payload["moved"], swaps)


def run_user_path(position: Position, thorough: bool = True) -> PathResult:
    """Solve under the position's rules and check everything a user sees of the answer
    (``thorough``: also the ``--no-steps`` JSON and text)."""
    start = time.perf_counter()
    move = solve(position)
    seconds = time.perf_counter() - start
    return replace(check_move_path(move, thorough), solve_seconds=seconds)
