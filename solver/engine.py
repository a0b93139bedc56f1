"""The engine entry points: the best move (or the K best) for a position under a limit."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import NamedTuple

from rummikub.models.errors import SolverError
from rummikub.models.joker_plan import joker_plan
from rummikub.models.jokers import JokerRule
from rummikub.models.meld import MeldKind, readings
from rummikub.models.moves import moved_tiles
from rummikub.models.position import Position
from rummikub.models.tile import Tile
from rummikub.models.validation import move_problems
from rummikub.solver.backends import BACKENDS, Backend, load_backend
from rummikub.solver.bounds import cannot_open
from rummikub.solver.extraction import extract
from rummikub.solver.formulation import Formulation, TilePool, formulate_turn
from rummikub.solver.limits import Limit, RawSolution, Status
from rummikub.solver.move import Move, NewMeld, Origin, table_joker_melds
from rummikub.solver.objectives import Objective, levels
from rummikub.solver.opening import as_played, continues_onto_table

__all__ = ["BACKENDS", "RankedMoves", "load_backend", "solve", "solve_top"]


def _objective(objective: Objective | str) -> Objective:
    try:
        return Objective(objective)
    except ValueError:
        raise SolverError(f"unknown objective {objective!r}: use tiles or value") from None


class Extracted(NamedTuple):
    """A solution read back as the new table and the placed tiles (``extract``)."""

    table: tuple[NewMeld, ...]
    placed: tuple[Tile, ...]
    checked: bool = False  # already passed the validator


def _move(
    position: Position,
    model: Formulation,
    raw: RawSolution,
    goal: Objective,
    keep_jokers: bool,
    started: float,
    extracted: Extracted | None = None,
    decisive: bool = False,
) -> Move:
    """The move of a solution (``extracted``: its table, when already read back;
    ``decisive``: a move on the decisive levels only, see :func:`solve`)."""
    if raw.status is Status.INFEASIBLE:  # the untouched table is always a solution
        raise RuntimeError("the backend found no legal move at all: a bug in the model")
    if (decisive or not model.kept) and not _places(model, raw):
        # A draw is the table as it was (a model without kept-meld columns, of the decisive
        # levels only or of an empty or untouchable table, has no untouched solution).
        return _draw(position, raw.status, goal, keep_jokers, started, decisive)
    if raw.status is Status.UNKNOWN:
        values, status = model.untouched(), Status.FEASIBLE
    else:
        values, status = raw.values, raw.status
    if not any(values[y] for y in model.placed) and values != model.untouched():
        # A player who places nothing draws and leaves the table as it was (every rule).
        values, extracted = model.untouched(), None
    if extracted is None:
        extracted = Extracted(*extract(as_played(position), model, values))
    table, placed, checked = extracted
    melds = [nm.meld for nm in table]
    moved: tuple[Tile, ...] = ()
    if not decisive:
        # Every answer for a person passes the independent validator before anyone sees
        # it: a model or extraction bug stops here as an internal error, never as an
        # illegal move on screen. (A decisive-only move is checked by its caller: the
        # arena's turn check, which trusts no player, checks every move it plays.)
        problems = [] if checked else move_problems(position, melds, placed)
        if problems:
            raise RuntimeError("the solver's move breaks the rules (a bug): " + "; ".join(problems))
        # What reports call moved: the tiles picked up, with the solver's kept melds
        # preferred among equally good pairings (as the explanation pairs them).
        prefer = {nm.source: j for j, nm in enumerate(table) if nm.source is not None}
        moved = tuple(moved_tiles(position, melds, placed, prefer, table_joker_melds(table)))
    return Move(
        position=position,
        table=table,
        placed=placed,
        moved=moved,
        status=status,
        objective=goal,
        keep_jokers=keep_jokers,
        seconds=time.perf_counter() - started,
        scores=model.scores(values),
        decisive_only=decisive,
    )


def _places(model: Formulation, raw: RawSolution) -> bool:
    """Whether a solution places any rack tile."""
    return raw.status is not Status.UNKNOWN and any(raw.values[y] for y in model.placed)


def _draw(
    position: Position,
    status: Status,
    goal: Objective,
    keep_jokers: bool,
    started: float,
    decisive: bool,
) -> Move:
    """The move that places nothing: the table as it was, every level 0."""
    table = tuple(
        NewMeld(meld, Origin.KEPT, m, (False,) * len(meld)) for m, meld in enumerate(position.table)
    )
    return Move(
        position=position,
        table=table,
        placed=(),
        moved=(),
        status=Status.FEASIBLE if status is Status.UNKNOWN else status,
        objective=goal,
        keep_jokers=keep_jokers,
        seconds=time.perf_counter() - started,
        scores={level: 0 for level in levels(goal, keep_jokers, decisive)},
        decisive_only=decisive,
    )


def solve(
    position: Position,
    *,
    objective: Objective | str = Objective.TILES,
    keep_jokers: bool = False,
    limit: Limit | None = None,
    backend: str = "cpsat",
    decisive_only: bool = False,
) -> Move:
    """The best move for ``position``: the whole new table and the rack tiles that go down.

    ``objective`` and ``keep_jokers`` choose what "best" means (see
    :mod:`rummikub.solver.objectives`); the result's ``status`` says whether it is proved
    optimal or only the best found within the limit (by default :class:`Limit`'s
    :data:`~rummikub.solver.limits.DEFAULT_TIME_LIMIT` seconds). ``backend`` is ``cpsat`` (OR-Tools,
    the default), ``cbc`` or ``highs`` (through PuLP); all solve the same formulation.
    Every rule, how table jokers may be used included, is the position's (``position.rules``).

    ``decisive_only`` (for players, searches and learning environments, which solve many
    positions and read only what is placed): only the levels that decide the game are
    optimised, the rack tiles placed and their value (and the fewest rack jokers, with
    ``keep_jokers``). The model then leaves out the kept-meld columns that the human-facing
    levels need (fewest table tiles picked up, most melds untouched), so the move places as
    many tiles, of the same value, as the full answer, but may lay another table and pick
    up more of it; its ``scores`` hold the decisive levels only, its ``moved`` is empty,
    and the validator does not check it here: its caller does (the arena's turn check
    checks every move it plays, whoever made it).
    """
    run_backend = load_backend(backend)  # the solver library loads here, outside the timing
    started = time.perf_counter()
    goal = _objective(objective)
    limit = limit or Limit()
    position.validate()
    return _best_move(position, goal, keep_jokers, limit, run_backend, started, decisive_only)


def _best_move(
    position: Position,
    goal: Objective,
    keep_jokers: bool,
    limit: Limit,
    run_backend: Backend,
    started: float,
    decisive: bool = False,
) -> Move:
    """The best move of a validated position under its rules (``decisive``: on the levels
    that decide the game only)."""
    if cannot_open(position):  # proved without a model
        return _draw(position, Status.OPTIMAL, goal, keep_jokers, started, decisive)
    deadline = time.perf_counter() + limit.seconds
    model, raw, extracted = _solve(position, goal, keep_jokers, limit, run_backend, decisive)
    if model.singles and raw.status is Status.OPTIMAL and not decisive:
        extracted = extracted or Extracted(*extract(as_played(position), model, raw.values))
        if not _singles_hold(position, model, raw.values, extracted):
            # The count of old melds keeping one tile was an upper bound the table found
            # does not meet: the model that lays those tiles decides.
            left = limit.remaining(deadline)
            model, raw, extracted = _solve(
                position, goal, keep_jokers, left, run_backend, singles=False
            )
    return _move(position, model, raw, goal, keep_jokers, started, extracted, decisive)


def _solve(
    position: Position,
    goal: Objective,
    keep_jokers: bool,
    limit: Limit,
    run_backend: Backend,
    decisive: bool = False,
    *,
    singles: bool = True,
) -> tuple[Formulation, RawSolution, Extracted | None]:
    """The model's optimum (with its table when already read back).

    Under the strict rule with table jokers the rack may free (where the model must say
    which sets host a freed joker, and which places the jokers that stay take), first
    relaxations (:func:`_relaxations`): every legal move is one of their moves, so the
    optimum of one is the answer when its table keeps the rules; else the exact model
    decides, in the time left.
    """
    strict = position.rules.joker_rule is JokerRule.STRICT
    pool = TilePool.of(as_played(position)) if strict else None
    if pool is None or not (pool.guarded and pool.freeable):
        # Without strict hosts the exact model is about as small as a relaxation would be.
        model = formulate_turn(position, goal, keep_jokers, singles=singles, decisive=decisive)
        return model, run_backend(model, limit), None
    deadline = time.perf_counter() + limit.seconds
    for relaxed in _relaxations(position, goal, keep_jokers, singles, decisive):
        loose = run_backend(relaxed, limit.remaining(deadline))
        if loose.status is Status.OPTIMAL:
            extracted = _legal_extraction(position, relaxed, loose.values)
            if extracted is not None:
                return relaxed, loose, extracted
    exact = formulate_turn(position, goal, keep_jokers, singles=singles, decisive=decisive)
    return exact, run_backend(exact, limit.remaining(deadline)), None


def _singles_hold(
    position: Position, model: Formulation, values: tuple[int, ...], extracted: Extracted
) -> bool:
    """Whether the table found gives each old meld the solution counts as keeping one tile
    (:meth:`~rummikub.solver.kept.KeptMelds._single`) a new meld of its own: one that
    becomes no old meld, takes no freed joker under strict, and holds a tile of its kinds
    (a matching, by augmenting paths)."""
    wanting = model.chosen_singles(values)
    if not wanting:
        return True
    table, placed, _ = extracted
    melds = [nm.meld for nm in table]
    plan = joker_plan(position, melds, placed, table_joker_melds(table))
    fresh = plan.fresh if plan is not None else frozenset()
    free = [j for j, nm in enumerate(table) if nm.source is None and j not in fresh]
    kinds = {j: {t for t in melds[j].tiles if not t.is_joker} for j in free}
    owner: dict[int, int] = {}  # new meld -> old meld it becomes

    def place(m: int, seen: set[int]) -> bool:
        for j in free:
            if j not in seen and kinds[j].intersection(position.table[m].tiles):
                seen.add(j)
                if j not in owner or place(owner[j], seen):
                    owner[j] = m
                    return True
        return False

    return all(place(m, set()) for m in wanting)


def _relaxations(
    position: Position, goal: Objective, keep_jokers: bool, singles: bool, decisive: bool
) -> Iterator[Formulation]:
    """Models whose moves include every legal move of a position with table jokers under
    the strict or locked rule, smallest first: where the strict model would spell out the
    sets that host a freed joker (more jokers in play than a set may hold), as many jokers
    per set as the game has, if the smaller wildcard form then fits; then staying jokers
    anywhere as their tiles (not only with their sets)."""
    if _explicit_hosts(position) and not continues_onto_table(position):
        rules = position.rules
        most = max(rules.jokers, rules.max_jokers_per_set)
        looser = replace(position, rules=replace(rules, max_jokers_per_set=most))
        if TilePool.of(as_played(looser)).wildcard:
            yield formulate_turn(
                looser, goal, keep_jokers, singles=singles, anywhere=True, decisive=decisive
            )
    yield formulate_turn(
        position, goal, keep_jokers, singles=singles, anywhere=True, decisive=decisive
    )


def _explicit_hosts(position: Position) -> bool:
    """Whether the position is played under the strict joker rule, its rack can free a
    table joker, and the wildcard form does not fit (more jokers in play than a set may
    hold): the strict model then spells out the sets that may host a freed joker."""
    played = as_played(position)
    pool = TilePool.of(played)
    return played.rules.joker_rule is JokerRule.STRICT and pool.freeable and not pool.wildcard


def _legal_extraction(
    position: Position, model: Formulation, values: tuple[int, ...]
) -> Extracted | None:
    """A solution of the relaxation read back, if it is a legal move of the position (a
    draw is: it is the untouched table then); else None."""
    table, placed = extract(as_played(position), model, values)
    if not placed:
        return Extracted(table, placed)
    if move_problems(position, [new.meld for new in table], placed):
        return None
    return Extracted(table, placed, checked=True)


@dataclass(frozen=True)
class RankedMoves:
    """The K best structurally different moves, best first."""

    moves: tuple[Move, ...]
    exhausted: bool  # True when fewer than K different moves exist

    @property
    def unique_optimum(self) -> bool:
        """Whether the best move beats every other move on some objective level."""
        if len(self.moves) < 2:
            return self.exhausted
        return list(self.moves[1].scores.values()) < list(self.moves[0].scores.values())


def _structure(move: Move) -> tuple[object, ...]:
    """What makes two moves different: the placed tiles or the sets of the new table. A
    colour's runs count by the numbers they cover, so a long run and the same tiles split
    into shorter runs are one table; under the free joker rule a run's jokers count as the
    lowest numbers they may stand for, so which copy of a tile a joker replaces makes no
    other move (under the strict and locked rules such runs stay apart, as written).
    Found by review: ``--top`` listed ``r1-6`` and ``r1-3 | r4-6`` apart, and after ``k3-5
    | k1 k2 j`` listed ``k1-3 | j k4 k5`` with a lower kept score (the cut had taken the
    columns that score it in full) and called the first the unique optimum."""
    rules = move.position.rules
    free = rules.joker_rule is JokerRule.FREE
    melds: list[tuple[tuple[int, int], ...]] = []
    covered = Counter[tuple[int, int]]()  # (colour, number) the runs cover
    for meld in move.melds:
        found = readings(meld.tiles, rules)
        if found and all(r.kind is MeldKind.RUN for r in found) and (free or not meld.jokers):
            run = min(found, key=lambda r: r.numbers)
            covered.update((int(run.colour or 0), n) for n in run.numbers)
        else:
            melds.append(tuple(sorted(t.sort_key() for t in meld.tiles)))
    placed = tuple(sorted(t.sort_key() for t in move.placed))
    return placed, tuple(sorted(melds)), tuple(sorted(covered.items()))


def solve_top(
    position: Position,
    k: int,
    *,
    objective: Objective | str = Objective.TILES,
    keep_jokers: bool = False,
    limit: Limit | None = None,
    backend: str = "cpsat",
) -> RankedMoves:
    """The ``k`` best structurally different moves, found with no-good cuts in the ILP.

    The first is the move :func:`solve` returns (one tie-break everywhere). The others come
    from a model whose columns say which meld they lay: each solve adds a cut that
    excludes the move just found (its placed tiles together with its table as a multiset
    of melds), and a move already listed is skipped. Every returned move differs in the
    tiles placed or in the melds of the new table. The limit is the whole ranking's: when
    its time runs out the moves found so far are returned.
    """
    if k < 1:
        raise SolverError(f"--top needs at least 1 move, got {k}")
    run_backend = load_backend(backend)
    started = time.perf_counter()
    goal = _objective(objective)
    limit = limit or Limit()
    position.validate()
    deadline = started + limit.seconds
    moves = [_best_move(position, goal, keep_jokers, limit, run_backend, started)]
    seen = {_structure(moves[0])}
    model = formulate_turn(position, goal, keep_jokers, distinct=True)
    exhausted = False
    for _ in range(50 * k):
        if len(moves) == k or time.perf_counter() >= deadline:
            break
        started = time.perf_counter()
        raw = run_backend(model, limit.remaining(deadline))
        if raw.status is Status.INFEASIBLE:  # every move has been cut off: no further one
            exhausted = True
            break
        if raw.status is Status.UNKNOWN:
            break
        move = _move(position, model, raw, goal, keep_jokers, started)
        model.exclude(raw.values)
        key = _structure(move)
        if key in seen:
            continue
        seen.add(key)
        moves.append(move)
    return RankedMoves(tuple(moves), exhausted)
