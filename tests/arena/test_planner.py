"""The ``planner`` strategy: replays exactly, plays only legal moves, goes out when it can,
opens small and holds back otherwise."""

from __future__ import annotations

from player_views import tiles, view

from rummikub.arena import make_player
from rummikub.arena.planner import Planner, PlannerParams, Solver, candidates
from rummikub.game import PlayerView, RoundState, Turn, play_game
from rummikub.models import Meld, Tile
from rummikub.models.validation import move_problems


def legal(v: PlayerView, melds: tuple[Meld, ...], placed: tuple[Tile, ...]) -> bool:
    return move_problems(v.position(), melds, placed) == []


def test_plays_the_full_move_when_it_goes_out() -> None:
    v = view("r1 r2 r3 b5 b6 b7 o10 o11 o12 k4 k5 k6 k7", "k1 k2 k3")
    play = Planner()(v)
    assert sorted(play.placed, key=Tile.sort_key) == sorted(v.rack, key=Tile.sort_key)
    assert legal(v, play.melds, play.placed)


def test_holds_a_large_rack_that_cannot_go_out_while_the_pool_is_big() -> None:
    v = view("r1 r2 r3 b5 b6 b7 o10 o11 o12 k4 k5 k6 k7 r13", "k1 k2 k3")
    assert Planner()(v).is_draw
    # With the pool empty and a rack worth more than the opponent's is likely to be, it
    # plays, and keeps its joker back where it lets no more real tiles down.
    late = view("r1 r2 r3 b5 b6 b7 o10 o11 o12 j k4 k5 k6 k7 r13", "k1 k2 k3", pool=0)
    play = Planner()(late)
    assert play.placed and legal(late, play.melds, play.placed)
    assert Tile.parse("j") not in play.placed and Tile.parse("r13") not in play.placed
    # A rack worth less than the opponent's is likely to be passes: a blocked round goes to
    # the lowest rack.
    assert Planner()(view("r1 r2 r3 b1 k2", "k1 k2 k3", pool=0)).is_draw


def test_opens_with_the_fewest_tiles_worth_the_threshold() -> None:
    v = view("r10 r11 r12 b1 b2 b3 k2 o2 r2 o7", "k1 k2 k3", opened=False)
    options = {c.label: c for c in candidates(v, Solver())}
    assert len(options["play all"].play.placed) == 9
    small = Planner()(v)
    assert sorted(small.placed, key=Tile.sort_key) == list(tiles("r10 r11 r12"))
    assert legal(v, small.melds, small.placed)
    # Told to open big, it plays the whole opening.
    big = Planner(PlannerParams(open_small=False))(v)
    assert len(big.placed) == 9 and legal(v, big.melds, big.placed)


def test_planner_games_replay_exactly_and_every_move_is_legal() -> None:
    def game(seed: int, names: tuple[str, ...]) -> list[tuple[int, str, tuple[Tile, ...]]]:
        turns: list[tuple[int, str, tuple[Tile, ...]]] = []

        def observe(state: RoundState, turn: Turn) -> None:
            assert state.conserved()  # the engine validated the move; nothing lost either
            turns.append((turn.seat, turn.action, turn.placed))

        play_game([make_player(n) for n in names], seed, observer=observe)
        return turns

    first = game(5, ("planner", "hold-back"))
    assert first == game(5, ("planner", "hold-back"))
    assert any(action == "play" for seat, action, _ in first if seat == 0)
    four = game(9, ("max-tiles", "planner", "hold-back", "max-tiles"))
    assert any(action == "play" for seat, action, _ in four if seat == 1)
