"""The game engine: deal, turns checked by the validator, conservation, ends, scoring, records."""

from __future__ import annotations

import pickle
from collections import Counter
from collections.abc import Sequence

import pytest

from rummikub.arena.players import Heuristic, NeverPlay, SolverPlayer
from rummikub.game import (
    DRAW,
    GameConfig,
    GameRecorder,
    IllegalPlayError,
    Player,
    PlayerView,
    RecordError,
    Reply,
    RoundState,
    Turn,
    deal_round,
    play_game,
    play_round,
    replay_game,
)
from rummikub.game.record import Event
from rummikub.game.scoring import blocked_winner, rack_value, round_scores
from rummikub.models import Meld, RuleSet, RummikubError, Tile
from rummikub.models.generate import full_set
from rummikub.models.tile import JOKER


def tiles(text: str) -> list[Tile]:
    return [Tile.parse(t) for t in text.split()]


def record(players: Sequence[Player], seed: int, names: Sequence[str] | None = None) -> list[Event]:
    recorder = GameRecorder()
    play_game(players, seed, recorder=recorder, names=names)
    return recorder.events


def test_deal_gives_fourteen_each_and_the_highest_draw_starts() -> None:
    import random

    for seed in range(20):
        deal = deal_round(random.Random(seed), 4, GameConfig().rules, 14)
        assert [len(r) for r in deal.racks] == [14] * 4
        assert len(deal.pool) == 106 - 56
        last = deal.draws[-1]
        assert (
            len(last) == 1 or max(t.value for _, t in last) > sorted(t.value for _, t in last)[-2]
        )
        best = max(t.value for _, t in last)
        assert deal.first in [s for s, t in last if t.value == best]
        everything = Counter(deal.pool)
        for rack in deal.racks:
            everything.update(rack)
        assert everything == full_set()  # the draw tiles went back before the deal


def test_same_seed_same_game_move_for_move() -> None:
    def players() -> list[Player]:
        return [SolverPlayer(), Heuristic(), NeverPlay()]

    first = record(players(), seed=7)
    again = record(players(), seed=7)
    assert first == again
    assert any(e["event"] == "turn" and e["action"] == "play" for e in first)
    assert record(players(), seed=8) != first


def test_every_tile_is_accounted_for_after_every_turn() -> None:
    checked = []

    def observe(state: RoundState, turn: Turn) -> None:
        assert state.conserved(), f"tiles lost or created on turn {turn.turn}"
        assert sum(state.tile_counts().values()) == 106
        checked.append(turn.turn)

    play_game(
        [SolverPlayer(), Heuristic(), SolverPlayer("value"), NeverPlay()], 3, observer=observe
    )
    assert len(checked) > 10


class Cheat:
    """Plays a tile it does not hold."""

    def __call__(self, view: PlayerView) -> Reply:
        return Reply((*view.table, Meld.parse("r1 r2 r3")), tuple(tiles("r1 r2 r3")))


class Crooked:
    """Lays down an illegal meld made of its own tiles."""

    def __call__(self, view: PlayerView) -> Reply:
        three = view.rack[:3]
        return Reply((*view.table, Meld(three)), three)


class Junk:
    def __call__(self, view: PlayerView) -> object:
        return "draw please"


@pytest.mark.parametrize("cheat", [Cheat(), Crooked(), Junk()])
def test_an_illegal_move_is_rejected_naming_the_player(cheat: object) -> None:
    with pytest.raises(IllegalPlayError) as caught:
        play_game([cheat, NeverPlay()], 1, names=["mallory", "bob"])  # type: ignore[list-item]
    error = caught.value
    assert isinstance(error, RummikubError)
    assert error.player == "mallory" and error.seat == 0
    assert "'mallory'" in str(error) and error.problems


def test_an_opening_below_the_threshold_is_rejected() -> None:
    state = RoundState(
        GameConfig().rules, pool=tiles("k1 k2"), racks=[tiles("r1 r2 r3 k9"), tiles("b5 b6")]
    )

    def low_opening(view: PlayerView) -> Reply:
        return Reply((Meld.parse("r1 r2 r3"),), tuple(tiles("r1 r2 r3")))

    with pytest.raises(IllegalPlayError, match=r"'low'.*initial meld worth 6"):
        play_round(state, [low_opening, NeverPlay()], ["low", "other"])


def test_illegal_play_error_survives_pickling() -> None:
    error = IllegalPlayError("eve", 2, 9, ["bad meld"])
    again = pickle.loads(pickle.dumps(error))
    assert (again.player, again.seat, again.turn, again.problems) == ("eve", 2, 9, ("bad meld",))
    assert str(again) == str(error)


def test_scoring_example_from_the_rules() -> None:
    # Losers hold 15 and 22: the winner scores +37, the losers -15 and -22.
    racks = [[], tiles("r5 b10"), tiles("k10 o12")]
    assert round_scores(racks, 0) == (37, -15, -22)
    assert rack_value([JOKER, Tile.parse("r3")]) == 33  # a joker left on a rack costs 30
    assert rack_value([JOKER, Tile.parse("r3")], RuleSet(joker_penalty=50)) == 53  # the rules'


def test_blocked_winner_lowest_value_then_fewest_tiles_then_seat() -> None:
    assert blocked_winner([tiles("r9"), tiles("r3 r4"), tiles("k8")]) == 1
    assert blocked_winner([tiles("r3 r4"), tiles("k7")]) == 1  # 7 each: fewer tiles
    assert blocked_winner([tiles("r7"), tiles("k7")]) == 0  # full tie: lower seat


def test_round_ends_when_the_pool_is_empty_and_nobody_can_play() -> None:
    rules = GameConfig().rules
    state = RoundState(
        rules,
        pool=[Tile.parse("o13")],
        racks=[tiles("r1 k5"), tiles("b2"), tiles("k13 o1")],
        current=1,
    )
    seen: list[str] = []
    result = play_round(
        state, [NeverPlay()] * 3, ["a", "b", "c"], observer=lambda s, t: seen.append(t.action)
    )
    # b draws the last tile, then c, a, b pass: a full rotation of passes.
    assert seen == ["draw", "pass", "pass", "pass"]
    assert result.reason == "blocked"
    assert result.winner == 0  # 6 points, against b's 15 and c's 14
    assert result.scores == (29, -15, -14)


def test_round_ends_when_a_rack_is_empty() -> None:
    rules = GameConfig().rules
    state = RoundState(rules, pool=tiles("k1 k2 k3"), racks=[tiles("r10 r11 r12"), tiles("b2")])
    result = play_round(state, [SolverPlayer(), NeverPlay()], ["solver", "idle"])
    assert (result.winner, result.reason, result.turns) == (0, "out", 1)
    assert result.scores == (2, -2)


def test_a_drawn_tile_waits_for_the_next_turn() -> None:
    rules = GameConfig().rules
    state = RoundState(rules, pool=tiles("r12"), racks=[tiles("r10 r11"), tiles("b2 b9")])
    turns: list[Turn] = []
    play_round(
        state,
        [SolverPlayer(), NeverPlay()],
        ["solver", "idle"],
        observer=lambda s, t: turns.append(t),
    )
    assert turns[0].action == "draw" and turns[0].drew == Tile.parse("r12")
    assert turns[2].action == "play" and sorted(map(str, turns[2].placed)) == ["r10", "r11", "r12"]


def test_match_plays_rounds_until_a_total_reaches_the_target() -> None:
    game = play_game([SolverPlayer(), Heuristic()], 5, GameConfig(target=150))
    assert max(game.totals) >= 150
    assert game.totals == tuple(map(sum, zip(*(r.scores for r in game.rounds), strict=True)))
    assert game.winner == max(range(2), key=lambda s: game.totals[s])
    assert sum(game.totals) == 0


def test_replay_reproduces_the_record_and_catches_tampering() -> None:
    events = record([SolverPlayer(), Heuristic(), NeverPlay()], seed=11, names=["a", "b", "c"])
    assert replay_game(events).winner == next(e for e in events if e["event"] == "result")["winner"]
    plays = [i for i, e in enumerate(events) if e["event"] == "turn" and e["action"] == "play"]
    forged = [dict(e) for e in events]
    forged[plays[0]]["placed"] = forged[plays[0]]["placed"][:-1]  # a tile appears from nowhere
    with pytest.raises(IllegalPlayError):
        replay_game(forged)
    shuffled = [dict(e) for e in events]
    end = next(i for i, e in enumerate(shuffled) if e["event"] == "end")
    shuffled[end]["scores"] = [0] * 3
    with pytest.raises(RecordError, match="does not replay"):
        replay_game(shuffled)


def _with_deal(events: list[Event], **changes: object) -> list[Event]:
    forged = [dict(e) for e in events]
    deal = next(e for e in forged if e["event"] == "deal")
    deal.update(changes)
    return forged


def test_replay_refuses_a_deal_the_game_could_not_have_dealt() -> None:
    # Found by review: a deal with three copies of the 10s, 16 tiles in all and a rack of
    # 12 replayed as "every move legal", as did one whose first player drew lower.
    events = record([NeverPlay(), NeverPlay()], seed=3, names=["a", "b"])
    deal = next(e for e in events if e["event"] == "deal")
    racks, pool, draws = deal["racks"], deal["pool"], deal["draws"]
    short = [racks[0][:-1], racks[1]]
    with pytest.raises(RecordError, match=r"deal gives racks of \[13, 14\] tiles"):
        replay_game(_with_deal(events, racks=short, pool=[racks[0][-1], *pool]))
    copied = [[pool[0], *racks[0][1:]], racks[1]]  # a tile twice, another gone
    with pytest.raises(RecordError, match="not the set of tiles once each: too many"):
        replay_game(_with_deal(events, racks=copied))
    with pytest.raises(RecordError, match="drew the highest number"):
        replay_game(_with_deal(events, first=1 - deal["first"]))
    with pytest.raises(RecordError, match="drawing where"):
        replay_game(_with_deal(events, draws=[[[1, t] for _, t in draws[0]]]))


def test_draw_and_none_mean_the_same() -> None:
    def none_player(view: PlayerView) -> None:
        return None

    a = record([none_player, Heuristic()], 2)
    b = record([lambda v: DRAW, Heuristic()], 2)
    assert a == b
