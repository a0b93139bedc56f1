"""``rummikub game``: the commands a player types, every bad input, undo/redo, export."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rummikub.cli.main import main
from rummikub.models.position import position_from_text
from rummikub.solver import solve
from rummikub.steps.report import move_json

RACK = "r3 r4 k9 b9 o9 j k1 k2 b5 b6 o11 o12 r13 k13"
OPENING = "r10 r11 r12 | k7 b7 o7 | r3 r4 r5 r6"  # opponent 1's opening meld (72)


def run(games: Path, *args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["game", "--dir", str(games), *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def ok(games: Path, *args: str) -> str:
    code, out, err = run(games, *args)
    assert code == 0, (args, out, err)
    return out


def state(games: Path, name: str = "friday") -> dict[str, object]:
    data: dict[str, object] = json.loads(ok(games, name, "show", "--json"))
    return data


@pytest.fixture
def games(tmp_path: Path) -> Path:
    """A 4-player game where opponent 1 plays first and has opened."""
    folder = tmp_path / "games"
    ok(folder, "new", "friday", "--players", "4", "--rack", RACK, "--first", "1")
    ok(folder, "friday", "table", OPENING)
    return folder


def test_a_turn_round_the_table(games: Path) -> None:
    s = state(games)
    assert s["to_play"] == 2 and s["pool"] == 50  # 106 - 10 on the table - 4 - 3 x 14
    assert s["opponents"] == [
        {"seat": 1, "rack_size": 4, "opened": True},
        {"seat": 2, "rack_size": 14, "opened": False},
        {"seat": 3, "rack_size": 14, "opened": False},
    ]
    ok(games, "friday", "drew")  # opponent 2 drew
    # Opponent 3 has not played: drawing now would record that they drew, so it is said.
    _bad(games, ["friday", "draw", "b7"], "opponent 3 has not played yet")
    out = ok(games, "friday", "draw", "b7", "--skip")  # opponent 3 drew; then me
    assert "you drew b7" in out and "opponent 1 to play" in out
    s = state(games)
    assert [o["rack_size"] for o in s["opponents"]] == [4, 15, 15]  # type: ignore[attr-defined]
    assert s["pool"] == 47 and len(s["rack"]) == 15  # type: ignore[arg-type]
    unseen = s["unseen"]
    assert isinstance(unseen, dict)
    assert "r3" not in unseen and "b7" not in unseen  # both copies seen: table and rack
    assert unseen["r5"] == 1 and unseen["o1"] == 2 and unseen["j"] == 1
    assert s["unseen_count"] == sum(unseen.values()) == 106 - 10 - 15
    ok(games, "friday", "table", OPENING + " | k11 k12 k13")  # opponent 1 again
    out = ok(games, "friday", "best", "--no-odds")
    assert out.startswith("note: opponent 2 to play")  # best works any time, says whose turn
    assert "Opponents: 1: 1 tile; 2: 15 tiles, not opened; 3: 15 tiles, not opened" in out


def test_best_is_solve_on_the_exported_position_and_play_applies_it(games: Path) -> None:
    ok(games, "friday", "drew")
    ok(games, "friday", "drew")
    exported = ok(games, "export", "friday")
    position = position_from_text(exported)
    assert position.initial and len(position.rack) == 14
    best = json.loads(ok(games, "friday", "best", "--json"))
    direct = move_json(solve(position, objective="tiles"))
    for key in ("placed", "table", "rack", "scores", "steps"):
        assert best[key] == direct[key]
    assert best["game"]["opponents"][0] == {"seat": 1, "rack_size": 4, "opened": True}
    assert best["game"]["pool"] == 48 and best["game"]["unseen_count"] == 106 - 10 - 14
    outs = best["odds"]["outs"]
    assert sum(o["unseen"] for o in outs) == 106 - 10 - 14  # the game's unseen tiles
    out = ok(games, "friday", "best")  # the human view: solve's output, then the game
    assert "Best move: place" in out and "Chance to go out next turn" in out
    ok(games, "friday", "play")
    after = state(games)
    assert after["table"] == best["table"]
    assert sorted(after["rack"]) == sorted(best["rack"])  # type: ignore[call-overload]
    assert after["opened"] is True and after["to_play"] == 1


def test_play_something_else(games: Path) -> None:
    ok(games, "friday", "drew")
    ok(games, "friday", "drew")
    out = ok(games, "friday", "play", OPENING + " | k9 b9 o9 | k13 r13 j")
    assert "(6 tiles laid)" in out
    s = state(games)
    assert s["rack"] == ["k1", "k2", "b5", "b6", "r3", "r4", "o11", "o12"] and s["opened"] is True


def _bad(games: Path, args: list[str], expected: str, name: str = "friday") -> None:
    path = games / f"{name}.jsonl"
    before = path.read_bytes() if path.exists() else None
    code, out, err = run(games, *args)
    assert code == 2, (args, out, err)
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert expected in err, err
    assert "Traceback" not in out + err
    if before is not None:
        assert path.read_bytes() == before  # the game unchanged


def test_every_bad_input_is_one_line_exit_two_and_leaves_the_game(games: Path) -> None:
    f = "friday"
    cases = [
        ([f, "table", "r11 r12 r13 | k7 b7 o7 | r3 r4 r5 r6"], "lacks r10 that was on the table"),
        ([f, "table", OPENING + " | b9 b10 b11 | b9 b10 b11"], "3 copies of b9"),
        ([f, "table", OPENING + " | j o5 o6 | j k5 k6"], "3 jokers"),
        ([f, "table", OPENING + " | k1 b2 r3"], "'k1 b2 r3' is not a legal set"),
        ([f, "table", OPENING + " | k1 k2 k3"], "initial meld worth 6"),
        ([f, "table", OPENING], "laid nothing"),
        ([f, "table", "--seat", "5", OPENING + " | k10 b10 o10"], "opponents sit at seats 1..3"),
        ([f, "table", "--seat", "1", OPENING + " | k10 b10 o10"], "has already had its turn"),
        ([f, "table", "r10 r11 x12"], "table: not a tile: 'x12'"),
        ([f, "draw", "r3"], "3 copies of r3"),
        ([f, "draw", "r3 r4"], "draw takes one tile"),
        ([f, "draw", "r14"], "tile r14 drawn: numbers run from 1 to 13"),
        ([f, "play", OPENING + " | b1 b2 b3"], "neither on the table nor on your rack"),
        ([f, "play", "r10 r11 r12 r13 | k7 b7 o7 | r3 r4 r5 r6"], "may not touch the table"),
        ([f, "play", OPENING + " | r3 r4 j"], "initial meld worth 12"),
        ([f, "pass"], "the pool still holds 48 tiles"),
        ([f, "score", "--racks", "r1 | r2 | r3"], "round 1 is not over"),
        ([f, "round", "--rack", RACK], "round 1 is not scored yet"),
        ([f, "round", "--rack", "r1"], "round 1 is not scored yet"),  # not the rack's size
        ([f, "redo"], "nothing to redo"),
        (["nosuch", "show"], "no game named 'nosuch'"),
        (["new", "friday", "--rack", RACK], "a game named 'friday' already exists"),
        (["new", "x", "--rack", "r3 r3 r3"], "3 copies of r3"),
        (["new", "a.b", "--rack", RACK], "bad game name 'a.b'"),
        (["new", "list", "--rack", RACK], "'list' is a command"),
        (["new", "y", "--rack", RACK, "--first", "4"], "the first player must be a seat 0..3"),
        (["new", "z", "--rack", RACK, "--rules", "nosuch"], "'nosuch'"),
        (["delete", "nosuch"], "no game named 'nosuch'"),
    ]
    for args, expected in cases:
        _bad(games, args, expected)
    assert not (games / "x.jsonl").exists() and not (games / "y.jsonl").exists()


def test_a_file_that_is_no_game_and_a_dir_that_is_a_file_are_named(games: Path) -> None:
    (games / "notes.jsonl").write_text("hello world")  # no line end: nothing complete
    _bad(games, ["notes", "show"], "no complete line (a game file is JSON lines", "notes")
    assert (games / "notes.jsonl").read_text() == "hello world"
    code, out, err = run(games / "notes.jsonl", "list")
    assert code == 2 and "not a folder" in err and "Traceback" not in out + err


def test_a_game_file_saved_with_a_byte_order_mark_still_reads(games: Path) -> None:
    path = games / "friday.jsonl"
    before = state(games)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())  # as some editors save it
    assert state(games) == before
    ok(games, "friday", "drew")
    assert state(games)["to_play"] == 3


def test_an_opponent_cannot_lay_more_tiles_than_they_hold(tmp_path: Path) -> None:
    ok(tmp_path, "new", "tiny", "-n", "2", "--rack", "k1 k2 k3", "--first", "1", "--rack-size", "3")
    _bad(tmp_path, ["tiny", "table", "o10 o11 o12 o13"], "holds 3 tiles but", "tiny")
    out = ok(tmp_path, "tiny", "table", "o11 o12 o13")
    assert "opponent 1 went out" in out
    _bad(tmp_path, ["tiny", "draw", "b5"], "no more turns this round", "tiny")
    _bad(tmp_path, ["tiny", "best"], "opponent 1 went out; score it: no move", "tiny")
    _bad(tmp_path, ["tiny", "score", "--racks", "r5"], "holds 0 tiles by the game's count", "tiny")
    _bad(tmp_path, ["tiny", "score", "--racks", "- | -"], "give 1 opponents' racks", "tiny")
    out = ok(tmp_path, "tiny", "score", "--racks", "-")
    assert "Round 1: you -6, opponent 1 +6" in out
    _bad(tmp_path, ["tiny", "score", "--racks", "-"], "already scored", "tiny")


def test_scoring_a_match_to_its_target(tmp_path: Path) -> None:
    ok(tmp_path, "new", "m", "-n", "2", "--rack", "k1 k2 k3", "--target", "19", "--rack-size", "3")
    _bad(tmp_path, ["m", "play", "k1 k2 k3"], "initial meld worth 6", "m")
    ok(tmp_path, "m", "draw", "o13")
    ok(tmp_path, "m", "table", "r11 r12 r13")
    assert "went out" in state(tmp_path, "m")["status"]  # type: ignore[operator]
    out = ok(tmp_path, "m", "score", "--racks", "-")
    assert "you -19, opponent 1 +19" in out  # k1 k2 k3 o13 left on my rack
    s = state(tmp_path, "m")
    assert s["match_over"] is True and "opponent 1 won with 19" in s["status"]  # type: ignore[operator]
    _bad(tmp_path, ["m", "round", "--rack", "b1 b2 b3"], "the match is over", "m")


def test_the_next_round_of_a_match(tmp_path: Path) -> None:
    ok(tmp_path, "new", "m", "-n", "2", "--rack", "k1 k2 k3", "--first", "1", "--rack-size", "3")
    ok(tmp_path, "m", "table", "r11 r12 r13")
    ok(tmp_path, "m", "score", "--racks", "-")
    _bad(
        tmp_path,
        ["m", "round", "--rack", "b1 b2 b3 b4"],
        "holds 4 tiles, but the rules deal 3",
        "m",
    )
    ok(tmp_path, "m", "round", "--rack", "b1 b2 b4")
    s = state(tmp_path, "m")
    assert s["round"] == 2 and s["table"] == [] and s["to_play"] == 0
    assert s["opponents"] == [{"seat": 1, "rack_size": 3, "opened": False}]
    assert s["totals"] == [-6, 6]


def test_undo_and_redo_to_the_beginning_and_back(games: Path) -> None:
    snapshots = [state(games)]
    for args in (["drew"], ["drew"], ["draw", "b7"], ["table", OPENING + " | k11 k12 k13"]):
        ok(games, "friday", *args)
        snapshots.append(state(games))
    for expected in reversed(snapshots[:-1]):
        assert ok(games, "friday", "undo").startswith("Undone: ")
        assert state(games) == expected
    assert ok(games, "friday", "undo").startswith("Undone: opponent 1 played")
    at_deal = state(games)
    assert at_deal["table"] == [] and at_deal["to_play"] == 1 and at_deal["pool"] == 50
    _bad(games, ["friday", "undo"], "nothing to undo: the game is at its start")
    for expected in snapshots:
        assert ok(games, "friday", "redo").startswith("Redone: ")
        assert state(games) == expected
    _bad(games, ["friday", "redo"], "nothing to redo")
    ok(games, "friday", "undo")
    ok(games, "friday", "drew")  # a new event after an undo: the undone one cannot come back
    _bad(games, ["friday", "redo"], "nothing to redo")
    history = ok(games, "friday", "history").splitlines()
    assert len(history) == 6 and history[-1].endswith("opponent 1 drew")
    lines = (games / "friday.jsonl").read_text().splitlines()
    assert len(lines) == 2 + 4 + 5 + 5 + 1 + 1  # append-only: nothing was removed


def test_list_export_and_delete(games: Path) -> None:
    ok(games, "new", "other", "--players", "2", "--rack", RACK, "--rules", "american")
    listing = ok(games, "list")
    assert "friday  opponent 2 to play" in listing and "other  your turn" in listing
    assert set(json.loads(ok(games, "list", "--json"))["games"]) == {"friday", "other"}
    exported = ok(games, "export", "other")
    assert "initial: yes" in exported
    path = games / "other.txt"
    path.write_text(exported)
    solved = CliRunner().invoke(main, ["solve", str(path), "--rules", "american", "--json"])
    best = json.loads(ok(games, "other", "best", "--json", "--no-odds"))
    assert json.loads(solved.stdout)["placed"] == best["placed"]  # the game's own position
    assert json.loads(ok(games, "export", "other", "--json"))["initial"] is True
    _bad(games, ["delete", "other"], "needs --yes when not asked on a terminal", "other")
    out = ok(games, "delete", "other", "--yes")
    assert out.startswith("Deleted game 'other': its log is kept in ")
    assert "other" not in ok(games, "list")
    (kept,) = (games / ".trash").glob("other-*.jsonl")  # recoverable: moved, not removed
    assert kept.read_text().startswith('{"event":"new"')
    assert not (games / ".other.lock").exists()  # and no lock file left behind
    kept.rename(games / "other.jsonl")
    assert "other  your turn" in ok(games, "list")


def test_the_games_folder_from_the_environment(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        ["game", "new", "envgame", "--rack", RACK],
        env={"RUMMIKUB_GAMES_DIR": str(tmp_path / "env")},
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "env" / "envgame.jsonl").exists()


def test_rules_options_as_on_solve(tmp_path: Path) -> None:
    ok(tmp_path, "new", "v", "--players", "2", "--rack", RACK, "--max-jokers-per-set", "1")
    ok(tmp_path, "v", "draw", "o10")
    _bad(tmp_path, ["v", "table", "j o5 j"], "not a legal set", "v")
    assert state(tmp_path, "v")["rules"]["max_jokers_per_set"] == 1  # type: ignore[index]


def test_a_script_drives_the_prompt_through_stdin(games: Path) -> None:
    script = "show\ndrew\nbogus\ndraw r3\ndraw b7 --skip\nhelp draw\nquit\nshow\n"
    code, out, err = run(games, "friday", stdin=script)
    # Every line runs; the rejected ones (bogus, draw r3) make the exit status 2.
    assert code == 2, err
    assert "Recorded: opponent 2 drew" in out and "Recorded: you drew b7" in out
    assert "error: unknown command 'bogus'" in err and "3 copies of r3" in err
    assert "You drew TILE from the pool." in out
    assert out.count("Game friday") == 1  # nothing after quit
    code, out, err = run(games, "friday", stdin="show\ndrew\nhelp draw\n")
    assert code == 0 and not err, err


def test_a_script_can_tell_a_rejected_line(games: Path) -> None:
    for line in ("draw zz", "draw", "'unclosed", "play r99", "show --bogus"):
        code, _, err = run(games, "friday", stdin=f"show\n{line}\nshow\n")
        assert code == 2 and err.startswith(("error:", "Usage:")), (line, code, err)


def test_help_teaches_the_game_commands(tmp_path: Path) -> None:
    out = ok(tmp_path, "--help")
    assert "Commands of a game (rummikub game NAME COMMAND)" in out
    for command in ("table", "drew", "draw", "best", "play", "undo", "redo", "score"):
        assert f"  {command} " in out
    assert "rummikub game friday placed r10 r11 r12 k7 b7 o7" in out
    assert "--joker-rule" in ok(tmp_path, "new", "--help")  # the rule options of solve
    assert "An opponent played" in ok(tmp_path, "friday", "table", "--help")


def test_scores_follow_the_rules_joker_penalty(tmp_path: Path) -> None:
    ok(
        tmp_path,
        "new",
        "p",
        "-n",
        "2",
        "--rack",
        "k1 k2 j",
        "--first",
        "1",
        "--joker-penalty",
        "50",
        "--rack-size",
        "3",
    )
    ok(tmp_path, "p", "table", "r11 r12 r13")
    out = ok(tmp_path, "p", "score", "--racks", "-")
    assert "Round 1: you -53, opponent 1 +53" in out
    assert state(tmp_path, "p")["rack_value"] == 53


@pytest.mark.parametrize("rule", ["strict", "locked"])
def test_an_opening_runs_joker_is_worth_where_it_lies(tmp_path: Path, rule: str) -> None:
    """Under the strict and locked rules j r9 r10 is r8-10, worth 27: no opening (found by
    review: it was taken for r9-11, while the game then read its joker as r8). Laid out by
    ``placed`` the same tiles make r9-11, and no other layout is offered."""
    rack = "r1 r2 r3 r4 r5 r6 r7 r8 k13 b13 o2 k1 b5 o7"
    ok(tmp_path, "new", "s", "--players", "2", "--first", "1", "--rack", rack, "--joker-rule", rule)
    _bad(tmp_path, ["s", "table", "j r9 r10"], "initial meld worth 27 as laid", "s")
    out = ok(tmp_path, "s", "placed", "r9", "r10", "j")
    assert "r9* r10* j*" in out and "may also lie" not in out
    assert state(tmp_path, "s")["table"] == [["r9", "r10", "j"]]


def test_strict_table_jokers_keep_the_meaning_of_where_they_lie(tmp_path: Path) -> None:
    """Under the strict rule an opponent's table may not re-read a table joker (r2 j r4 r5 j
    holds r3 and r6: j r2 j r4 r5 would move the r6 joker to r1), a run typed in no run's
    order is refused (the game would lose where its jokers lie), and the advice that follows
    frees no joker by another tile."""
    rack = "r2 o11 o13 k1 k2 b9 b10 b11 k13 o3 o4 o5 r9 r13"
    ok(tmp_path, "new", "g", "--players", "2", "--rack", rack, "--joker-rule", "strict")
    ok(tmp_path, "g", "play", "b9 b10 b11 | o3 o4 o5")
    ok(tmp_path, "g", "table", "b9 b10 b11 | o3 o4 o5 | j r4 r5 j | k10 k11 k12")
    ok(tmp_path, "g", "play")  # the best move: r2 extends the run, k13 r13 o13
    rest = "b9 b10 b11 | o3 o4 o5 | {} | k9 k10 k11 k12 | k13 r13 o13"
    _bad(tmp_path, ["g", "table", rest.format("j r2 j r4 r5")], "strict joker rule", "g")
    _bad(tmp_path, ["g", "table", rest.format("r2 r4 r5 j j")], "type the run as it lies", "g")
    _bad(tmp_path, ["g", "table", rest.format("r2 r4 r5 j=r3 j")], "type the run as it lies", "g")
    # Recorded before a run's jokers stood where it is written, such a play still reads
    # (as it was read then): the game file goes on; typed anew it is refused.
    path = tmp_path / "g.jsonl"
    kept = path.read_bytes()
    melds = [m.split() for m in rest.format("j r2 j r4 r5").split(" | ")]
    path.write_bytes(kept + json.dumps({"event": "table", "seat": 1, "table": melds}).encode())
    assert state(tmp_path, "g")["to_play"] == 0
    ok(tmp_path, "g", "undo")
    path.write_bytes(kept)
    ok(tmp_path, "g", "table", rest.format("r2 j r4 r5 j"))
    ok(tmp_path, "g", "draw", "r1")
    ok(tmp_path, "g", "drew")
    best = json.loads(ok(tmp_path, "g", "best", "--json"))
    assert best["placed"] == ["r1"] and [s["action"] for s in best["steps"]] == ["extend"]
