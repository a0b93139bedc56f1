"""Checks of ``rummikub odds`` too long for the test suite.

    python benchmarks/odds_check.py published              # 14 tiles vs van Rijn et al.
    python benchmarks/odds_check.py published --tiles 14..26
    python benchmarks/odds_check.py published --jokers 2   # the standard game's jokers
    python benchmarks/odds_check.py opening                # exact vs 10^5 racks via the solver
    python benchmarks/odds_check.py opening --samples 20000 --json out.json

``published``: the winning-hand counts of the standard game, each size counted on its own
(exact, with its wall and CPU time), the joker-free ones against the figures of van Rijn,
Takes & Vis, BNAIC 2015 (arXiv 1604.07553), Table 1, as far as we have them; with
``--jokers 2`` the game with its two jokers (no published figure to compare).

``opening``: the exact chance that a dealt rack can make its opening meld, for a game small
enough to count (3 colours x 1..6 x 1 copy + 1 joker, threshold 15, 6 tiles by default),
against racks dealt from the full set and solved by the ILP solver (empty table, opening
meld still to make); the Wilson 95% interval of the sample must hold the exact chance. Every
rack is also decided by the dynamic program, which must agree with the solver on each one.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from rummikub.analysis.hands import can_open
from rummikub.analysis.odds import Question, count_hands
from rummikub.arena.stats import wilson
from rummikub.cli.odds import parse_sizes
from rummikub.models.generate import full_set
from rummikub.models.position import Position
from rummikub.models.rules import RuleSet
from rummikub.models.tile import Tile
from rummikub.solver import solve

# van Rijn, Takes & Vis, Table 1 (joker-free standard game, distinct multisets).
PUBLISHED = {14: (10_232_524, 37_418_772_170_780)}


def published(args: argparse.Namespace) -> dict[str, object]:
    """Exact counts of the standard game (joker-free: against the published ones)."""
    rules = RuleSet(jokers=args.jokers)
    rows = []
    for size in parse_sizes(args.tiles):
        started, cpu = time.perf_counter(), time.process_time()
        row = count_hands([size], rules, Question.WINNING, max_seconds=None)[0]
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        paper = PUBLISHED.get(size) if not args.jokers else None
        verdict = (
            "-"
            if paper is None
            else ("equal" if paper == (row.hands, row.all_hands) else "DIFFERENT")
        )
        print(
            f"{size:>3} tiles: {row.hands:,} of {row.all_hands:,} distinct hands; "
            f"draws {row.draws:,} of {row.all_draws:,}; {seconds:.1f} s "
            f"({cpu:.1f} s CPU); published: {verdict}",
            flush=True,
        )
        rows.append(
            row.to_json()
            | {"seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1), "published": verdict}
        )
    return {"rows": rows}


def opening(args: argparse.Namespace) -> dict[str, object]:
    """Exact opening chance against racks dealt and solved by the ILP solver."""
    rules = RuleSet(
        colours=args.colours,
        numbers=args.numbers,
        copies=args.copies,
        jokers=args.jokers,
        initial_threshold=args.threshold,
    )
    exact = count_hands([args.size], rules, Question.OPENING, max_seconds=None)[0]
    pool = sorted(full_set(rules).elements(), key=Tile.sort_key)
    rng = random.Random(args.seed)
    hits = disagreements = 0
    started = time.perf_counter()
    for i in range(args.samples):
        rack = rng.sample(pool, args.size)
        opens = not solve(Position.of((), rack, initial=True, rules=rules)).is_draw
        hits += opens
        disagreements += opens != can_open(rack, rules)
        if (i + 1) % 10_000 == 0:
            print(f"  {i + 1:,} racks, {time.perf_counter() - started:.0f} s", flush=True)
    seconds = time.perf_counter() - started
    low, high = wilson(hits, args.samples)
    inside = low <= exact.chance <= high
    print(
        f"exact: {exact.draws:,} of {exact.all_draws:,} draws = {exact.chance:.6f}\n"
        f"solver: {hits:,} of {args.samples:,} racks = {hits / args.samples:.6f}, "
        f"95% interval {low:.6f} .. {high:.6f}: exact {'inside' if inside else 'OUTSIDE'}\n"
        f"racks where the DP and the solver disagree: {disagreements}; {seconds:.0f} s"
    )
    return {
        "rules": rules.options(),
        "tiles": args.size,
        "exact": exact.to_json(),
        "samples": args.samples,
        "hits": hits,
        "interval95": [low, high],
        "inside": inside,
        "disagreements": disagreements,
        "seconds": round(seconds, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    pub = sub.add_parser("published", help="joker-free counts vs the published table")
    pub.add_argument("--tiles", default="14", help="sizes: 14, 14..26, 3,6,9")
    pub.add_argument("--jokers", type=int, default=0, help="jokers in the game (0: the paper's)")
    pub.add_argument("--json", dest="json_path")
    ope = sub.add_parser("opening", help="exact opening chance vs racks through the solver")
    ope.add_argument("--samples", type=int, default=100_000)
    ope.add_argument("--seed", type=int, default=0)
    ope.add_argument("--size", type=int, default=6)
    ope.add_argument("--colours", type=int, default=3)
    ope.add_argument("--numbers", type=int, default=6)
    ope.add_argument("--copies", type=int, default=1)
    ope.add_argument("--jokers", type=int, default=1)
    ope.add_argument("--threshold", type=int, default=15)
    ope.add_argument("--json", dest="json_path")
    args = parser.parse_args()
    result = published(args) if args.command == "published" else opening(args)
    if args.json_path:
        with open(args.json_path, "w") as handle:
            json.dump(result, handle, indent=1)
    bad = any(r.get("published") == "DIFFERENT" for r in result.get("rows", []))  # type: ignore[attr-defined]
    bad = bad or result.get("inside") is False or bool(result.get("disagreements"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
