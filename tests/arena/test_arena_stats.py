"""Statistics: deal-clustered intervals, Elo conversion, SPRT, and a tournament's bookkeeping."""

from __future__ import annotations

import itertools
import math

import pytest

from rummikub.arena import Sprt, TournamentConfig, TournamentResult, run_tournament, wilson
from rummikub.arena.stats import DealSample, EloEstimate, elo_from_score, score_from_elo, t95
from rummikub.arena.tournament import deal_seed, lineup_at, lineups


def test_wilson_interval_known_values() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    assert wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_elo_and_score_are_inverse() -> None:
    for elo in (-400, -35.5, 0, 10, 200):
        assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo)
    assert elo_from_score(0.75) == pytest.approx(190.85, abs=0.01)
    assert math.isinf(elo_from_score(1.0)) and math.isinf(elo_from_score(0.0))
    estimate = EloEstimate(deals([1.0, 0.5, 0.5, 1.0, 0.5] * 10))  # 50 deals of 2 games
    low, high = estimate.interval
    assert estimate.games == 100 and estimate.score == pytest.approx(0.7)
    assert low < estimate.elo < high and low > 0


def deals(scores: list[float], games: int = 2) -> DealSample:
    """Deals of ``games`` games each, with these mean scores."""
    return DealSample(tuple(x * games for x in scores), (games,) * len(scores))


def test_student_t_quantiles() -> None:
    assert t95(1) == pytest.approx(12.706, abs=1e-3) and t95(2) == pytest.approx(4.303, abs=1e-3)
    assert t95(3) == pytest.approx(3.182, abs=0.03) and t95(10) == pytest.approx(2.228, abs=1e-3)
    assert t95(100) == pytest.approx(1.984, abs=1e-3) and math.isinf(t95(0))


def test_one_deal_tells_nothing_about_the_spread() -> None:
    # 24 seat orders of one deal, 20 won: the games share one deal, so this is one unit.
    one = DealSample((20.0,), (24,))
    assert one.proportion_interval() == (0.0, 1.0)
    assert one.interval() == (-math.inf, math.inf)


def test_correlated_games_within_a_deal_widen_the_interval() -> None:
    # 50 deals of 4 games: a deal is either all won or all lost (a strong hand wins from
    # every seat). 100 of 200 games won, but only 50 independent units.
    correlated = DealSample(tuple([4.0, 0.0] * 25), (4,) * 50)
    low, high = correlated.proportion_interval()
    naive_low, naive_high = wilson(100, 200)
    assert correlated.mean == 0.5 and correlated.effective_games() == pytest.approx(50, rel=0.03)
    assert high - low > 1.9 * (naive_high - naive_low)
    assert (low, high) == pytest.approx(wilson(25, 50, t95(49)), abs=0.01)


def test_balanced_deals_and_the_edges() -> None:
    # Every deal split 2-2: no spread between deals; the naive interval stands.
    even = DealSample((2.0,) * 30, (4,) * 30)
    assert even.proportion_interval() == pytest.approx(wilson(60, 120, t95(29)))
    # Nothing ever won: each deal counts as one trial, not each game.
    never = DealSample((0.0,) * 30, (4,) * 30)
    low, high = never.proportion_interval()
    assert low == 0.0 and high == pytest.approx(wilson(0, 30, t95(29))[1])
    # A score's interval: mean ± t * cluster-robust standard error.
    scores = DealSample((10.0, -10.0, 30.0, -30.0), (2, 2, 2, 2))
    assert scores.interval() == pytest.approx((-20.5, 20.5), abs=0.2)  # t(3) * 6.455


def test_sprt_bounds_and_llr_per_deal() -> None:
    sprt = Sprt(0, 10)
    assert sprt.upper == pytest.approx(math.log(19)) and sprt.lower == pytest.approx(-math.log(19))
    assert sprt.llr(DealSample((), ())) == 0
    assert sprt.llr(deals([1.0, 0.5, 0.5] * 10)) > 0 > sprt.llr(deals([0.0, 0.5, 0.5] * 10))
    assert sprt.decision(deals([1.0] * 1000)) == "H1"
    assert sprt.decision(deals([0.0] * 1000)) == "H0"
    assert sprt.decision(deals([1.0, 0.0] * 5)) is None
    # A few identical deals cannot decide (the prior of half a deal won, half lost).
    assert Sprt(0, 100).decision(deals([1.0] * 3)) is None
    # The same 60% of games: all-or-nothing deals are weaker evidence than split deals.
    lumpy = deals([1.0] * 12 + [0.0] * 8)
    smooth = deals([1.0] * 4 + [0.5] * 16)
    assert lumpy.mean == smooth.mean == pytest.approx(0.6)
    assert sprt.llr(smooth) > sprt.llr(lumpy) > 0
    with pytest.raises(ValueError):
        Sprt(10, 0)


@pytest.mark.parametrize(("entrants", "seats"), [(2, 2), (3, 2), (4, 3), (5, 4), (7, 4), (6, 3)])
def test_a_lineup_by_its_index_is_that_of_the_whole_schedule(entrants: int, seats: int) -> None:
    # The schedule's order is itertools' (combinations, then seat orders); found by review:
    # making that list for 70 entrants ran out of memory.
    whole = [
        order
        for combo in itertools.combinations(range(entrants), seats)
        for order in itertools.permutations(combo)
    ]
    assert lineups(entrants, seats) == whole
    assert lineup_at(entrants, seats, len(whole) + 1) == whole[1]
    assert lineup_at(100, 4, 10**9) == lineup_at(100, 4, 10**9 % math.perm(100, 4))


def test_schedule_rotates_every_seat_order_on_a_shared_deal() -> None:
    assert len(lineups(4, 4)) == 24 and len(lineups(5, 4)) == 120 and len(lineups(3, 2)) == 6
    config = TournamentConfig(("a", "b", "c"), games=12, seed=5)
    tasks = list(config.tasks())
    assert {t.lineup for t in tasks[:6]} == set(lineups(3, 3))
    assert len({t.seed for t in tasks[:6]}) == 1 and tasks[6].seed != tasks[0].seed
    assert tasks[0].seed == deal_seed(5, 0) != deal_seed(6, 0)


def test_sprt_stops_early_on_a_lopsided_pair_with_the_right_winner() -> None:
    config = TournamentConfig(("never-play", "human"), games=400, seed=3, sprt=Sprt(0, 100))
    result = run_tournament(config, executor="serial")
    sprt = result.sprt_json()
    assert sprt is not None
    assert sprt["decision"] == "H0" and sprt["stronger"] == "human"
    assert result.games < 40  # stopped long before the 400-game limit
    assert result.games % 2 == 0 and sprt["deals"] == result.games // 2  # whole deals only
    assert sprt["llr"] <= sprt["bounds"][0]
    # The other way round, the strong side is "a" and H1 is accepted.
    flipped = run_tournament(
        TournamentConfig(("human", "never-play"), games=400, seed=3, sprt=Sprt(0, 100)),
        executor="serial",
    )
    assert flipped.sprt_json()["decision"] == "H1"  # type: ignore[index]
    assert flipped.sprt_json()["stronger"] == "human"  # type: ignore[index]


def test_tournament_bookkeeping_adds_up() -> None:
    result = run_tournament(
        TournamentConfig(("human", "never-play", "human"), games=12, seed=2), executor="serial"
    )
    data = result.to_json(timing=False)
    assert data["games"] == 12 and "timing" not in data
    assert [p["name"] for p in data["players"]] == ["human", "never-play", "human#2"]
    assert sum(p["wins"] for p in data["players"]) == 12
    assert all(p["games"] == 12 for p in data["players"])
    assert sum(p["mean_score"] for p in data["players"]) == pytest.approx(0, abs=1e-3)
    pair = data["pairs"][0]
    assert pair["wins"] + pair["draws"] + pair["losses"] == 12
    assert all(p["deals"] == 2 for p in data["players"])  # 12 games = 2 deals of 6 seat orders


def test_the_tally_of_a_tournament_s_games_is_its_result_and_progress_sees_every_game() -> None:
    config = TournamentConfig(
        ("human", "never-play", "sets-only"), games=14, seed=8, sprt=Sprt(0, 50)
    )
    seen: list[int] = []
    result = run_tournament(config, executor="serial", progress=lambda r: seen.append(r.games))
    assert seen == list(range(1, 15))
    tally = TournamentResult.of(config, result.summaries)
    assert tally.to_json(timing=False) == result.to_json(timing=False)
    assert tally.sprt_llr == result.sprt_llr and not tally.interrupted
    assert TournamentResult.of(config, result.summaries[:6]).games == 6
    assert TournamentResult.of(config).to_json(timing=False)["games"] == 0


def test_a_tournament_of_one_deal_claims_no_precision() -> None:
    result = run_tournament(TournamentConfig(("human", "never-play"), games=2), executor="serial")
    data = result.to_json(timing=False)
    assert [p["win_rate_ci"] for p in data["players"]] == [[0.0, 1.0], [0.0, 1.0]]
    assert data["pairs"][0]["elo_ci"] == [None, None]


def test_round_robin_when_there_are_more_entrants_than_seats() -> None:
    config = TournamentConfig(("human", "never-play", "sets-only"), games=6, seed=1, seats=2)
    assert config.cycle == 6
    result = run_tournament(config, executor="serial")
    data = result.to_json(timing=False)
    assert [p["games"] for p in data["players"]] == [4, 4, 4]  # each plays 2 of 3 pairings
    assert [p["games"] for p in data["pairs"]] == [2, 2, 2]
