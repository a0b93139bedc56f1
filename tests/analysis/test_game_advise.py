"""``rummikub game NAME advise``: the advice of ``rummikub advise`` on the game as it stands —
its rules, each opponent's rack size and opening, the pool — from the command line and the
prompt."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rummikub.analysis.advice import Situation, advise
from rummikub.cli.main import main
from rummikub.models import parse_melds, parse_tiles
from rummikub.models.position import position_from_text
from rummikub.models.presets import resolve_rules
from rummikub.models.validation import move_problems

RACK = "r3 r4 k9 b9 o9 j k1 k2 b5 b6 o11 o12 r13 k13"
# Twelve tiles no two of which make a meld with one joker, and both jokers: only a
# two-joker set ("j o12 j") can be played, which the American rules forbid.
JOKERS = "r1 k2 b3 o4 r5 k6 b7 o8 r9 k10 b11 o12 j j"
# Two runs round the top (12-13-1), worth 52: an opening only when runs may wrap.
WRAPS = "r12 r13 r1 k12 k13 k1 b3 o5 b7 o9 b11 o2 b4 o8"
QUICK = ("--rollouts", "1", "--executor", "serial", "--seed", "7")


def run(games: Path, *args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["game", "--dir", str(games), *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def ok(games: Path, *args: str) -> str:
    code, out, err = run(games, *args)
    assert code == 0, (args, out, err)
    return out


def advice_json(games: Path, name: str, *args: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ok(games, name, "advise", "--json", *QUICK, *args))
    return data


def without(data: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in keys}


@pytest.mark.parametrize(
    ("preset", "rack", "play_all"),
    [
        ("standard", JOKERS, "j j o12"),
        ("american", JOKERS, None),
        ("wrap", WRAPS, "k1 k12 k13 r1 r12 r13"),
        ("standard", WRAPS, None),
    ],
)
def test_advice_follows_the_games_rules(
    tmp_path: Path, preset: str, rack: str, play_all: str | None
) -> None:
    ok(tmp_path, "new", "g", "--players", "3", "--rack", rack, "--rules", preset)
    data = advice_json(tmp_path, "g")
    moves = {c["move"]: c for c in data["candidates"]}
    assert data["players"] == 3 and data["opponents"] == [14, 14] and data["pool"] == 64
    assert data["game"]["pool"] == 64 and data["rollouts"] == 1
    assert list(moves)[-1] == "hold" and sorted(moves["hold"]["kept"]) == sorted(rack.split())
    if play_all is None:
        assert list(moves) == ["hold"]  # nothing on this rack is a meld under these rules
    else:
        assert sorted(moves["play all"]["placed"]) == sorted(play_all.split())
    # Every candidate is a legal move under the game's rules (the independent validator).
    exported = ok(tmp_path, "export", "g")
    position = position_from_text(exported)  # its rules line: the game's rules
    assert position.rules == resolve_rules(preset) and position.initial
    for move in moves.values():
        if move["placed"]:
            table = parse_melds(" | ".join(move["table"]))
            placed = parse_tiles(" ".join(move["placed"]))
            assert move_problems(position, table, placed) == []
    # The same advice as `rummikub advise` on the exported position (rules line included).
    path = tmp_path / "now.txt"
    path.write_text(exported)
    direct = CliRunner().invoke(
        main, ["advise", str(path), "--opponents", "14 14", "--json", *QUICK]
    )
    assert direct.exit_code == 0, direct.stderr
    assert without(json.loads(direct.stdout), "seconds") == without(data, "seconds", "game")


@pytest.fixture
def games(tmp_path: Path) -> Path:
    """A 4-player game at your turn: opponents 1 and 3 have opened, opponent 2 has not."""
    folder = tmp_path / "games"
    ok(folder, "new", "friday", "--players", "4", "--rack", RACK, "--first", "1")
    ok(folder, "friday", "table", "r10 r11 r12 | k7 b7 o7")
    ok(folder, "friday", "drew")
    ok(folder, "friday", "table", "r10 r11 r12 | k7 b7 o7 | k11 k12 k13")
    return folder


def test_advice_uses_each_opponents_rack_size_and_opening(games: Path) -> None:
    data = advice_json(games, "friday", "--rollouts", "2")
    assert data["opponents"] == [8, 15, 11] and data["pool"] == 49
    assert [o["opened"] for o in data["game"]["opponents"]] == [True, False, True]
    exported = position_from_text(ok(games, "export", "friday"))
    situation = Situation(exported, (8, 15, 11), 49, (True, False, True))
    library = advise(situation, rollouts=2, seed=7, executor="serial")
    assert without(library.to_json(), "seconds") == without(data, "seconds", "game")
    assert {c["move"] for c in data["candidates"]} == {"play all", "open small", "hold"}

    out = ok(games, "friday", "advise", *QUICK, "--rollouts", "2")
    assert out.startswith(
        "Your turn: 14 tiles on your rack, 4 players, pool 49, opponents hold 8 15 11 "
        "(opponent 2 has not opened; played out as max-tiles)"
    )
    assert f"Recommended: {data['recommended']}" in out
    assert "play all: places k9 k13 b9 r13 o9 j; keeps k1 k2 b5 b6 r3 r4 o11 o12" in out
    assert "2 rollouts per move" in out and "(serial, seed 7)" in out
    # `best` points to it; on someone else's turn the advice says whose turn it is.
    assert "'rummikub game friday advise' weighs them" in ok(games, "friday", "best", "--no-odds")
    ok(games, "friday", "draw", "b7")
    assert ok(games, "friday", "advise", *QUICK).startswith("note: opponent 1 to play\n")


def test_the_prompt_gives_advice_and_bad_cases_are_one_line(games: Path) -> None:
    code, out, err = run(games, "friday", stdin="advise --rollouts 1 --executor serial\nquit\n")
    assert code == 0, err
    assert "Recommended:" in out and "opponents hold 8 15 11" in out
    assert ", advise, " in run(games, "friday", stdin="help\nquit\n")[1]
    code, out, err = run(games, "friday", "advise", "--model", "nobody")
    assert code == 2 and out == ""
    assert err.startswith("error: unknown opponent model 'nobody'") and err.count("\n") == 1


def test_no_advice_once_the_round_is_over(tmp_path: Path) -> None:
    ok(tmp_path, "new", "p", "-n", "2", "--rack", "k1 k2 j", "--rack-size", "3", "--first", "1")
    ok(tmp_path, "p", "table", "r11 r12 r13")
    code, out, err = run(tmp_path, "p", "advise", *QUICK)
    assert code == 2 and out == ""
    assert err == "error: round over: opponent 1 went out; score it: no move to weigh\n"
