"""``lay_out``: the table an opponent's placed tiles make, laid out by the solver."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rummikub.cli.main import main
from rummikub.game.companion import (
    Drew,
    History,
    IllegalEventError,
    NewGame,
    OpponentDrew,
    OpponentPlayed,
    Passed,
    Played,
    Scored,
    Undo,
    event_from_json,
)
from rummikub.game.placed import CannotLayError, NotHeldError, PlacedLayout, lay_out
from rummikub.game.record import read_events, split_games
from rummikub.game.table_edits import apply_edits, same_table
from rummikub.models.jokers import JokerRule
from rummikub.models.meld import Meld
from rummikub.models.moves import picked_up
from rummikub.models.rules import STANDARD, RuleSet
from rummikub.models.tile import Tile

STRICT = replace(STANDARD, joker_rule=JokerRule.STRICT)
MY_RACK = "r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13 k1"


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(t) for t in text.split())


def table(text: str) -> tuple[Meld, ...]:
    return tuple(Meld.parse(m) for m in text.split("|"))


def opened_game(rules: RuleSet = STANDARD) -> History:
    """Three players; both opponents have opened; the table is k10-12 | b10-13 | r1-13 and
    opponent 1 is to play."""
    history = History.begin(NewGame(3, tiles(MY_RACK), rules, first=1))
    history = history.record(OpponentPlayed(1, table("k10 k11 k12")))
    history = history.record(OpponentPlayed(2, table("k10 k11 k12 | b10 b11 b12 b13")))
    return history.record(Played((*history.state.table, Meld.parse("r1-13"))))


def test_a_new_set_and_a_tile_added_keep_the_melds_numbers() -> None:
    history = opened_game()
    layout = lay_out(history.state, 1, tiles("k13"))
    assert layout.table == table("k10 k11 k12 k13 | b10 b11 b12 b13 | r1-13")
    assert layout.moved == () and layout.proved and layout.note is None
    history = history.record(layout.event)
    layout = lay_out(history.state, 2, tiles("o5 o6 o7"))
    assert layout.table == (*history.state.table, Meld.parse("o5 o6 o7"))
    assert layout.event == OpponentPlayed(2, layout.table, tiles("o5 o6 o7"))


def test_a_rearrangement_picks_up_the_fewest_table_tiles() -> None:
    history = History.begin(NewGame(2, tiles(MY_RACK), STANDARD, first=1))
    history = history.record(OpponentPlayed(1, table("o10-12")))
    history = history.record(Played(table("o10-12 | r1-13")))
    layout = lay_out(history.state, 1, tiles("k9 b9"))
    # k9 b9 need r9: r1-13 is split there, and its shorter part (r9-13) is picked up.
    assert sorted(map(str, layout.moved)) == ["r10", "r11", "r12", "r13", "r9"]
    assert layout.moved == tuple(picked_up(history.state.table, layout.table))
    assert layout.table[:2] == table("o10-12 | r1-8")  # what r1-13 became keeps its number
    assert same_table(layout.table, table("o10-12 | r1-8 | k9 b9 r9 | r10-13"), STANDARD)


def test_the_opening_rule_holds_for_an_opponent_who_has_not_opened() -> None:
    history = History.begin(NewGame(3, tiles(MY_RACK), STANDARD, first=1))
    with pytest.raises(CannotLayError, match="has not opened, and k1 k2 k3 make sets worth 6"):
        lay_out(history.state, 1, tiles("k1 k2 k3"))
    with pytest.raises(CannotLayError, match="must make sets of their own, and b13 goes into"):
        lay_out(history.state, 1, tiles("k10 k11 k12 k13 b13"))
    layout = lay_out(history.state, 1, tiles("k10 k11 k12"))
    assert layout.table == table("k10 k11 k12")
    history = history.record(layout.event)
    # Opponent 2 has not opened: it may not add to the table, even what would fit.
    with pytest.raises(CannotLayError, match="opponent 2 has not opened"):
        lay_out(history.state, 2, tiles("k13"))


def test_an_opening_that_may_go_on_to_the_table_is_refused_for_its_value() -> None:
    # Found by review: the reason given was the rule without continue_after_initial (k13
    # "goes into no set of their own"), though k13 may join the table after the opening.
    rules = replace(STANDARD, continue_after_initial=True)
    history = History.begin(NewGame(3, tiles(MY_RACK), rules, first=1))
    history = history.record(lay_out(history.state, 1, tiles("k10 k11 k12")).event)
    with pytest.raises(
        CannotLayError, match="sets that k13 r7 r8 r9 make on their own are worth 24, under the 30"
    ):
        lay_out(history.state, 2, tiles("r7 r8 r9 k13"))
    layout = lay_out(history.state, 2, tiles("r9 r10 r11 k13"))  # 30, then k13 on the table
    assert same_table(layout.table, table("k10-13 | r9-11"), rules)


def test_tiles_the_opponent_cannot_have_held_are_refused() -> None:
    state = History.begin(NewGame(3, tiles(MY_RACK), STANDARD, first=1)).state
    with pytest.raises(NotHeldError, match="only 1 is not on the table or your rack"):
        lay_out(state, 1, tiles("r1 r1 r1"))
    with pytest.raises(NotHeldError, match="3 jokers: only 2 are"):
        lay_out(state, 1, tiles("j j j"))
    with pytest.raises(NotHeldError, match="holds 14 tiles, not the 15 given"):
        lay_out(state, 1, tiles("k1 k2 k3 k4 k5 k6 k7 k8 k9 k10 k11 k12 k13 b1 b2"))
    with pytest.raises(NotHeldError, match="placed nothing"):
        lay_out(state, 1, ())


def test_tiles_that_do_not_go_down_together_are_refused() -> None:
    state = opened_game().state
    with pytest.raises(CannotLayError, match="cannot all go on this table: at most 1 of them"):
        lay_out(state, 1, tiles("k9 b13 b5"))
    with pytest.raises(CannotLayError, match="not even in part"):
        lay_out(state, 1, tiles("o9"))


def test_whose_turn_it_is_is_checked_and_a_later_seat_skips_the_ones_before() -> None:
    history = opened_game()
    with pytest.raises(IllegalEventError, match="your turn"):
        lay_out(history.record(OpponentDrew(1)).record(OpponentDrew(2)).state, 1, tiles("k13"))
    layout = lay_out(history.state, 2, tiles("k13"))
    assert layout.skipped == (1,)
    after = history.record(layout.event).state
    assert after.rack_sizes[1] == history.state.rack_sizes[1] + 1  # opponent 1 drew


def test_the_event_round_trips_and_must_lay_what_it_says() -> None:
    history = opened_game()
    layout = lay_out(history.state, 1, tiles("k13"))
    assert event_from_json(layout.event.to_json()) == layout.event
    assert "placed k13 (laid out by the companion)" in layout.event.describe()
    wrong = OpponentPlayed(1, layout.table, tiles("k9"))
    with pytest.raises(IllegalEventError, match="not the tiles placed"):
        history.record(wrong)


def test_free_rules_give_no_note_the_strict_rule_tells_a_jokers_other_meaning() -> None:
    assert lay_out(opened_game().state, 1, tiles("j")).note is None
    history = opened_game(STRICT)
    layout = lay_out(history.state, 1, tiles("j"))
    assert layout.note is not None and "strict joker rule" in layout.note
    assert layout.alternatives
    # The note's edits record each other layout, from the table before the play.
    commands = re.findall(r"'table ([^']*)'", layout.note)
    assert len(commands) == len(layout.alternatives) == 2  # j k10-12 | k10-12 j | j b10-13
    for command, alternative in zip(commands, layout.alternatives, strict=True):
        other = apply_edits(command, history.state.table, STRICT)
        assert same_table(other, alternative, STRICT)
        assert not same_table(other, layout.table, STRICT)
        redone = history.record(layout.event).record(Undo()).record(OpponentPlayed(1, other))
        assert redone.state.table == other


def test_a_run_with_a_new_joker_either_end_is_noted() -> None:
    history = opened_game(STRICT)
    layout = lay_out(history.state, 1, tiles("j o4 o5"))
    assert layout.note is not None
    assert "'j o4-5'" in layout.note or "'o4-5 j'" in layout.note


def _three_player_game(tmp_path: Path) -> list[dict[str, Any]]:
    path = tmp_path / "g.jsonl"
    result = CliRunner().invoke(
        main,
        ["arena", "--players", "optimal,greedy,human", "--games", "1", "--seed", "4",
         "--record", str(path), "--no-progress", "--time-limit", "5"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    (game,) = split_games(read_events(path.read_text().splitlines()))
    return game


def test_a_three_player_game_told_with_placed_plays_to_its_end_and_scores(tmp_path: Path) -> None:
    """Every opponent play told by its placed tiles alone: the companion's table holds the
    same tiles as the engine's at every turn, and the round scores as the engine's."""
    events = _three_player_game(tmp_path)
    header = events[0]
    rules = RuleSet(**header["rules"])
    deal = next(e for e in events if e["event"] == "deal")
    history = History.begin(NewGame(3, tiles(" ".join(deal["racks"][0])), rules, deal["first"]))
    placed_plays = 0
    for e in events:
        if e["event"] == "turn":
            history = history.record(_told(history, e))
            placed_plays += e["action"] == "play" and e["seat"] != 0
            engine = Counter(t for m in e.get("table", ()) for t in m)
            if engine:
                assert Counter(map(str, history.state.table_tiles())) == engine
        elif e["event"] == "end":
            racks = tuple(tiles(" ".join(r)) for r in e["racks"][1:])
            history = history.record(Scored(racks))
            assert history.state.result is not None
            assert list(history.state.result.scores) == e["scores"]
    assert placed_plays >= 5 and history.state.result is not None


def _told(history: History, e: dict[str, Any]) -> Any:
    seat, action = int(e["seat"]), e["action"]
    if seat == 0:
        if action == "play":  # the same tiles as the engine's table, in its layout
            return Played(tuple(Meld(tiles(" ".join(m))) for m in e["table"]))
        return Drew(Tile.parse(e["drew"])) if action == "draw" else Passed()
    if action == "play":
        layout: PlacedLayout = lay_out(history.state, seat, tiles(" ".join(e["placed"])))
        return layout.event
    return OpponentDrew(seat)


def test_a_solvers_run_is_laid_as_it_lies_under_the_strict_rule() -> None:
    """A solver lists a run's tiles in any order; the companion keeps where a joker lies."""
    from rummikub.game.companion import as_they_lie

    unordered = (Meld.parse("k3 k4 j k6 k2"), Meld.parse("r5 b5 j"))
    assert as_they_lie(unordered, STRICT) == (Meld.parse("k2 k3 k4 j k6"), unordered[1])
    assert as_they_lie(unordered, STANDARD) == unordered  # free jokers: nothing to keep
