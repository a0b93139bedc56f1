"""``rummikub game``: an opponent's play told by its tiles (``placed``), the table by edits
of numbered melds, the guards on the deal, on other seats' turns and on ``delete``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from rummikub.cli.main import main
from rummikub.game.record import read_events, split_games

RACK = "r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13 k1"


def run(games: Path, *args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["game", "--dir", str(games), *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def ok(games: Path, *args: str) -> str:
    code, out, err = run(games, *args)
    assert code == 0, (args, out, err)
    return out


def bad(games: Path, args: list[str], expected: str) -> None:
    """One line on stderr, exit 2, and the game file as it was."""
    path = games / "g.jsonl"
    before = path.read_bytes()
    code, out, err = run(games, "g", *args)
    assert code == 2, (args, out, err)
    assert err.startswith("error: ") and err.count("\n") == 1 and expected in err, err
    assert path.read_bytes() == before


def table(games: Path) -> list[str]:
    data: dict[str, Any] = json.loads(ok(games, "g", "show", "--json"))
    return [" ".join(m) for m in data["table"]]


def started(tmp_path: Path, *rules: str) -> Path:
    """Three players, opponent 1 first; both opponents open; then you lay r1-13."""
    games = tmp_path / "games"
    ok(games, "new", "g", "-n", "3", "--rack", RACK, "--first", "1", *rules)
    ok(games, "g", "placed", "k10", "k11", "k12")
    ok(games, "g", "placed", "b10-13")
    ok(games, "g", "play", "+", "r1-13")
    return games


def test_placed_lays_out_records_and_shows_the_numbered_table(tmp_path: Path) -> None:
    games = started(tmp_path)
    assert table(games) == ["k10 k11 k12", "b10 b11 b12 b13", *[" ".join(f"r{n}" for n in
                            range(1, 14))]]  # fmt: skip
    out = ok(games, "g", "placed", "k9", "b9")
    assert out.startswith("Recorded: opponent 1 placed k9 b9, laid out by the companion")
    assert "  1  k9* k10 k11 k12  <" in out and "  2  b9* b10 b11 b12 b13  <" in out
    assert "as one line: k9-12 | b9-13 | r1-13" in out
    history = ok(games, "g", "history").splitlines()
    assert "opponent 1 placed k9 b9 (laid out by the companion)" in history[-1]


def test_placed_refuses_what_cannot_be_laid_or_was_not_held(tmp_path: Path) -> None:
    games = started(tmp_path)
    bad(games, ["placed", "o9"], "o9 cannot go on this table, not even in part")
    bad(games, ["placed", "k9", "o5"], "cannot all go on this table: at most 1 of them can (k9)")
    bad(games, ["placed", "j", "j", "j"], "cannot have placed 3 jokers: only 2 are")
    bad(games, ["placed", "r5", "r5"], "cannot have placed 2x r5: only 1 is")  # one is laid
    bad(games, ["placed", "x5"], "tiles: not a tile: 'x5'")
    bad(games, ["placed", "--seat", "2", "k9"], "opponent 1 has not played yet")
    out = ok(games, "g", "placed", "--seat", "2", "--skip", "k9")
    assert "Opponents: 1: 12 tiles; 2: 9 tiles" in out  # opponent 1 drew


def test_placed_holds_an_opponent_to_the_opening_meld(tmp_path: Path) -> None:
    games = tmp_path / "games"
    ok(games, "new", "g", "-n", "3", "--rack", RACK, "--first", "1")
    bad(games, ["placed", "k1-3"], "has not opened, and k1 k2 k3 make sets worth 6, under")
    bad(games, ["placed", "k10-13", "b13"], "must make sets of their own, and b13 goes into")
    ok(games, "g", "placed", "k10-13")


def test_a_jokers_meaning_under_the_strict_rule_is_noted_with_the_edit_to_give(
    tmp_path: Path,
) -> None:
    games = started(tmp_path, "--joker-rule", "strict")
    out = ok(games, "g", "placed", "j")
    assert "note: under the strict joker rule a joker keeps what it stands for" in out
    assert "undo, then 'table 2+ j'" in out
    ok(games, "g", "undo")
    ok(games, "g", "table", "2+", "j")  # the other layout, as the note says to give it
    assert table(games)[1] == "j b10 b11 b12 b13"


def test_table_edits_of_numbered_melds(tmp_path: Path) -> None:
    games = started(tmp_path)
    run_13 = table(games)[2]
    ok(games, "g", "table", "1+ k13 + o1-3")  # opponent 1: k13 on meld 1, and a new meld
    assert table(games) == ["k10 k11 k12 k13", "b10 b11 b12 b13", run_13, "o1 o2 o3"]
    bad(games, ["table", "9+ r1"], "no meld 9: the table has melds 1 to 4")
    bad(games, ["table", "1+ k9 1+ k8"], "meld 1 is edited twice")
    bad(games, ["table", "k9 1+ k8"], "'k9' before the first edit")
    bad(games, ["table", "2="], "tiles never leave the table")
    bad(games, ["table", "2+ o9"], "'b10 b11 b12 b13 o9' is not a legal set")
    ok(games, "g", "table", "3,4=", "r1-6 | r7-13 | o1-4")  # opponent 2 split the run
    assert table(games)[2:] == ["r1 r2 r3 r4 r5 r6", "r7 r8 r9 r10 r11 r12 r13", "o1 o2 o3 o4"]


def test_the_shown_line_pastes_back(tmp_path: Path) -> None:
    games = started(tmp_path)
    line = next(x for x in ok(games, "g", "show").splitlines() if "as one line:" in x)
    pasted = line.split("as one line: ", 1)[1]
    ok(games, "g", "table", pasted + " | o7 o8 o9")  # the whole table, one meld more
    assert table(games)[-1] == "o7 o8 o9"


def test_a_deal_of_another_size_than_the_rules_deal_needs_saying(tmp_path: Path) -> None:
    games = tmp_path / "games"
    code, _, err = run(games, "new", "g", "--rack", "r1 r2")
    assert code == 2 and "your rack holds 2 tiles, but the rules deal 14" in err
    assert "--rack-size 2" in err and not (games / "g.jsonl").exists()
    ok(games, "new", "g", "--rack", "r1 r2", "--rack-size", "2")


def test_delete_asks_on_a_terminal_or_takes_yes(tmp_path: Path) -> None:
    games = started(tmp_path)
    bad(games, ["placed", "k13", "--seat", "3"], "opponents sit at seats 1..2")
    code, _, err = run(games, "delete", "g")
    assert code == 2 and "needs --yes" in err and (games / "g.jsonl").exists()
    ok(games, "delete", "g", "--yes")
    assert not (games / "g.jsonl").exists() and not (games / ".g.lock").exists()
    assert len(list((games / ".trash").glob("g-*.jsonl"))) == 1


def _arena_game(tmp_path: Path) -> list[dict[str, Any]]:
    path = tmp_path / "g.jsonl"
    result = CliRunner().invoke(
        main,
        ["arena", "--players", "greedy,optimal,human", "--games", "1", "--seed", "6",
         "--record", str(path), "--no-progress", "--jobs", "1"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    (game,) = split_games(read_events(path.read_text().splitlines()))
    return game


def test_a_three_player_game_typed_with_placed_to_its_end_and_score(tmp_path: Path) -> None:
    """Every opponent play typed as the tiles put down, as at a real table; the round ends
    and scores as the engine scored it."""
    events = _arena_game(tmp_path)
    games = tmp_path / "games"
    deal = next(e for e in events if e["event"] == "deal")
    ok(games, "new", "g", "-n", "3", "--rack", " ".join(deal["racks"][0]),
       "--first", str(deal["first"]))  # fmt: skip
    plays = 0
    for e in events:
        if e["event"] == "turn":
            ok(games, "g", *_typed(e))
            plays += e["action"] == "play" and e["seat"] != 0
        elif e["event"] == "end":
            racks = " | ".join(" ".join(r) or "-" for r in e["racks"][1:])
            out = ok(games, "g", "score", "--racks", racks)
            scores = ", ".join(
                f"{'you' if s == 0 else f'opponent {s}'} {v:+d}" for s, v in enumerate(e["scores"])
            )
            assert f"Round 1: {scores}" in out
    assert plays >= 5


def _typed(e: dict[str, Any]) -> list[str]:
    """The command a player at seat 0 types for the turn ``e`` of the record."""
    if e["seat"] != 0:
        return ["placed", *e["placed"]] if e["action"] == "play" else ["drew"]
    if e["action"] == "play":
        return ["play", " | ".join(" ".join(m) for m in e["table"])]
    return ["draw", e["drew"]] if e["action"] == "draw" else ["pass"]
