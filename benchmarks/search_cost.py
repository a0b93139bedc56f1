"""What a ``search`` decision costs: CPU seconds per searched decision at a budget.

    python benchmarks/search_cost.py                      # default budget, 4 games
    python benchmarks/search_cost.py --budget 150 --games 6 --players 4
    python benchmarks/search_cost.py --budget 400 --min-deals 4 --games 2 --players 4
    python benchmarks/search_cost.py --games 8 --opponents planner,hold-back,max-tiles

Plays ``--games`` seeded games in this process, ``search`` in seat 0 against planners
(``--players`` seats in all) or the ``--opponents`` given, and times every decision the
search makes with the process's CPU clock (so a shared machine's other load counts
little). A decision that goes out or has one candidate is not searched; the figures are
for the searched ones, as the budget bounds (issue 35 asks for at most 1 s of CPU at the
default budget on a 2-core machine). It also counts the searched decisions where the
search played another candidate than the planner's: only those can make it stronger.
"""

from __future__ import annotations

import argparse
import statistics
import time

from rummikub.arena.players import make_player
from rummikub.arena.search import Search, SearchParams
from rummikub.game.protocol import PlayerView, Reply


class TimedSearch(Search):
    """The search, with the CPU seconds of each searched decision kept."""

    def __init__(self, params: SearchParams) -> None:
        super().__init__(params)
        self.cpu: list[float] = []

    def __call__(self, view: PlayerView) -> Reply:
        searched, started = self.searched, time.process_time()
        reply = super().__call__(view)
        if self.searched > searched:
            self.cpu.append(time.process_time() - started)
        return reply


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=int, default=SearchParams().budget)
    parser.add_argument("--min-deals", type=int, default=SearchParams().min_deals)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--place-weight", type=float, default=SearchParams().place_weight)
    parser.add_argument("--opponents", help="strategies, comma-separated (default: planners)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    from rummikub.game.rounds import play_game

    names = args.opponents.split(",") if args.opponents else ["planner"] * (args.players - 1)
    args.players = len(names) + 1
    params = SearchParams(
        budget=args.budget, min_deals=args.min_deals, place_weight=args.place_weight
    )
    search = TimedSearch(params)
    for game in range(args.games):
        play_game([search, *(make_player(name) for name in names)], args.seed + game)
    cpu = sorted(search.cpu)
    if not cpu:
        raise SystemExit("no searched decision in these games")
    p90 = cpu[int(0.9 * (len(cpu) - 1))]
    print(
        f"budget {args.budget} (at least {args.min_deals} deals), {args.players} players, "
        f"{args.games} games: "
        f"{len(cpu)} searched decisions, {search.deals / len(cpu):.1f} deals and "
        f"{search.rollout_turns / len(cpu):.0f} turns played out each; CPU s per decision: "
        f"median {statistics.median(cpu):.2f}, p90 {p90:.2f}, max {cpu[-1]:.2f}, "
        f"mean {statistics.fmean(cpu):.2f}; another candidate than the planner's in "
        f"{search.switched} ({search.switched / len(cpu):.0%})"
    )


if __name__ == "__main__":
    main()
