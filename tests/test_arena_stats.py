"""Statistics: Wilson intervals, Elo conversion, SPRT, and a tournament's bookkeeping."""

from __future__ import annotations

import math

import pytest

from rummikub.arena import Sprt, TournamentConfig, run_tournament, wilson
from rummikub.arena.stats import EloEstimate, elo_from_score, score_from_elo
from rummikub.arena.tournament import deal_seed, lineups


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
    estimate = EloEstimate(games=100, points=64)
    low, high = estimate.interval
    assert low < estimate.elo < high and low > 0


def test_sprt_bounds_and_llr() -> None:
    sprt = Sprt(0, 10)
    assert sprt.upper == pytest.approx(math.log(19)) and sprt.lower == pytest.approx(-math.log(19))
    assert sprt.llr(0, 0, 0) == 0
    assert sprt.llr(60, 0, 40) > 0 > sprt.llr(40, 0, 60)
    assert sprt.llr(5, 10, 5) == pytest.approx(sprt.llr(10, 0, 10))  # a draw is half and half
    assert sprt.decision(1000, 0, 0) == "H1" and sprt.decision(0, 0, 1000) == "H0"
    assert sprt.decision(10, 0, 10) is None
    with pytest.raises(ValueError):
        Sprt(10, 0)


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


def test_round_robin_when_there_are_more_entrants_than_seats() -> None:
    config = TournamentConfig(("human", "never-play", "sets-only"), games=6, seed=1, seats=2)
    assert config.cycle == 6
    result = run_tournament(config, executor="serial")
    data = result.to_json(timing=False)
    assert [p["games"] for p in data["players"]] == [4, 4, 4]  # each plays 2 of 3 pairings
    assert [p["games"] for p in data["pairs"]] == [2, 2, 2]
