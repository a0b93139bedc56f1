"""The ``search`` strategy: deals consistent with what the player knows, a budget in
deterministic work, replays exactly, only legal moves, goes out when it can."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from player_views import view

from rummikub.arena import make_player
from rummikub.arena.planner import Planner, candidates, unseen_tiles
from rummikub.arena.players import SolverPlayer
from rummikub.arena.search import Search, SearchParams, _Deal, _worth, choose
from rummikub.game import RoundState, Turn, play_game
from rummikub.models import Tile
from rummikub.models.validation import move_problems

SMALL = SearchParams(budget=60, min_deals=1, max_deals=3)


# An opened rack that cannot go out, with sets to keep and tiles that extend the table:
# several candidates (play all, keep sets, sets only, hold).
CHOICE = view(
    "r1 r2 r3 b5 b6 b7 o10 o11 k4 k9 j k12 b1 r8 o2 o3", "o12 o13 j | k5 k6 k7", opponents=(5,)
)


def test_a_deal_gives_each_opponent_its_rack_size_from_the_unseen_tiles() -> None:
    v = view("r1 r2 r3 k9", "o11 o12 o13", pool=30, opponents=(6, 9))
    deal = _Deal.sample(v, random.Random(1))
    assert deal.racks[0] == v.rack
    assert [len(r) for r in deal.racks[1:]] == [6, 9]
    dealt = Counter(t for r in deal.racks[1:] for t in r) + Counter(deal.pool)
    assert dealt == Counter(unseen_tiles(v))  # the pool holds the rest, nothing seen twice


def test_a_decision_replays_and_is_legal() -> None:
    first, again = Search(SMALL), Search(SMALL)
    play = first(CHOICE)
    assert play == again(CHOICE)
    assert play.is_draw or move_problems(CHOICE.position(), play.melds, play.placed) == []
    assert first.searched == 1 and first.rollout_turns > 0


@pytest.mark.parametrize("params", [SMALL, SearchParams(budget=0, min_deals=2, max_deals=2)])
def test_the_budget_is_whole_deals_within_their_bounds(params: SearchParams) -> None:
    search = Search(params)
    search(CHOICE)
    assert params.min_deals <= search.deals <= params.max_deals
    if search.deals > params.min_deals:
        # It dealt again only while the turns played out stayed under the budget.
        per_deal = search.rollout_turns / search.deals
        assert search.rollout_turns - per_deal < params.budget + per_deal


@pytest.mark.parametrize("margin", [0.0, 9.0])
def test_switched_counts_the_decisions_that_leave_the_planners_choice(margin: float) -> None:
    # Without a margin a lead on a few deals is enough; no play-out gains 9.
    search = Search(SearchParams(budget=60, min_deals=2, max_deals=3, margin=margin, z=0.0))
    play = search(CHOICE)
    planner = Planner()
    options = candidates(CHOICE, planner.solver, keep_jokers=True, partial=CHOICE.opened)
    left = play != planner.choose(CHOICE, options).play
    assert search.switched == int(left) == int(margin == 0.0)


def test_goes_out_without_searching() -> None:
    v = view("r1 r2 r3 b5 b6 b7 o10 o11 o12 k4 k5 k6 k7", "k1 k2 k3")
    search = Search(SMALL)
    play = search(v)
    assert sorted(play.placed, key=Tile.sort_key) == sorted(v.rack, key=Tile.sort_key)
    assert search.searched == 0


def test_the_rollout_policy_can_be_given() -> None:
    made: list[Planner] = []

    def policy() -> Planner:
        made.append(Planner())
        return made[-1]

    Search(SMALL, rollout=policy)(CHOICE)
    assert made  # one new player per seat and play-out


@pytest.mark.slow
def test_search_games_replay_exactly_and_every_move_is_legal() -> None:
    def game(seed: int) -> list[tuple[int, str, tuple[Tile, ...]]]:
        turns: list[tuple[int, str, tuple[Tile, ...]]] = []

        def observe(state: RoundState, turn: Turn) -> None:
            assert state.conserved()  # the engine validated the move; nothing lost either
            turns.append((turn.seat, turn.action, turn.placed))

        play_game([Search(SMALL), make_player("planner")], seed, observer=observe)
        return turns

    first = game(3)
    assert first == game(3)
    assert any(action == "play" for seat, action, _ in first if seat == 0)


def test_search_is_a_strategy_of_the_arena() -> None:
    assert isinstance(make_player("search"), Search)


@pytest.mark.parametrize(
    ("worths", "expected"),
    [
        # The best of several means over four deals is mostly luck: a lead of 0.25 or 0.5
        # on differences that go both ways is no reason to leave the planner's choice.
        ([[1, 0, 1, 0], [1, 1, 1, 0], [0, 1, 1, 1]], 0),
        ([[1, 0, 1, 0], [1, 0, 1, 1]], 0),
        # A candidate that wins on every deal where the default loses is taken.
        ([[0, 0, 0, 0], [1, 1, 1, 1], [1, 1, 0, 1]], 1),
        # Of several that pass the test, the best mean.
        ([[0, 0, 0, 0, 0, 0], [1, 1, 1, 0, 1, 1], [1, 1, 1, 1, 1, 1]], 2),
        # A gain below the margin is ignored, however consistent.
        ([[0.5, 0.5, 0.5], [0.55, 0.55, 0.55]], 0),
        # One deal cannot show a difference.
        ([[0], [1]], 0),
    ],
)
def test_a_candidate_replaces_the_default_only_on_a_clear_gain(
    worths: list[list[float]], expected: int
) -> None:
    assert choose(worths, 0, SearchParams()) == expected
    # The default need not come first: the same rows in reverse order.
    last = len(worths) - 1
    assert choose(worths[::-1], last, SearchParams()) == last - expected


def test_a_play_out_is_worth_a_win_first_then_a_weighted_share_of_the_places() -> None:
    # Seat 0 wins: 1 whatever the weight.
    assert _worth([30, -10, -5, -20], 0, 0, 0.25) == 1.0
    # Seat 2 does not win and finishes above seats 1 and 3: two thirds of the others,
    # weighted (the winner is above everyone).
    assert _worth([30, -10, -5, -20], 0, 2, 0.25) == pytest.approx(0.25 * 2 / 3)
    # A tie counts half: seats 1 and 3 level, both above nobody else.
    assert _worth([30, -10, -5, -10], 0, 1, 1.0) == pytest.approx(0.5 / 3)
    # Two players: losing is worth nothing at any weight.
    assert _worth([-10, 10], 1, 0, 0.25) == _worth([-10, 10], 1, 0, 1.0) == 0.0


def test_play_outs_model_opponents_as_max_tiles_at_a_larger_table() -> None:
    search = Search()
    assert isinstance(search._policy(1, 1, 4), Planner)  # itself
    assert all(isinstance(search._policy(s, 1, 4), SolverPlayer) for s in (0, 2, 3))
    assert all(isinstance(search._policy(s, 0, 2), Planner) for s in (0, 1))  # two players
    given = Search(rollout=lambda: SolverPlayer("value"))
    assert all(isinstance(given._policy(s, 0, 4), SolverPlayer) for s in range(4))
