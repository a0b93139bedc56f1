"""What the commands say, as a user runs them: bad records refused in one line, a verdict
in JSON when asked for, errors naming the flag typed, counts in words that agree."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from rummikub.cli.main import main


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_a_record_that_is_not_utf8_or_holds_no_game_is_refused_by_replay_and_review(
    tmp_path: Path,
) -> None:
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00 not text")
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"\n\n")
    for args in (["arena", "--replay"], ["review"]):
        code, _, err = run(*args, str(binary))
        assert code == 2 and err == f"error: {binary}: not UTF-8 text\n", (args, err)
        code, out, err = run(*args, str(empty))
        assert code == 2 and "the record holds no game" in err and not out, (args, err)
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 5000 + "\n")  # found by review: RecursionError, "a bug"
    long = tmp_path / "long.jsonl"  # found by review: Python converts at most 4300 digits
    long.write_text('{"event": "game", "seed": ' + "1" * 5000 + "}\n")
    for args in (["arena", "--replay"], ["review"]):
        code, _, err = run(*args, str(deep))
        assert code == 2 and err == "error: record line 1: not JSON (nested too deeply)\n", err
        code, _, err = run(*args, str(long))
        assert code == 2 and err == "error: record line 1: not JSON (a number too long)\n", err


def test_check_json_gives_the_verdict_of_an_illegal_table() -> None:
    code, out, err = run("check", "--table", "r1 r2 k5", "--rack", "r1", "--json")
    assert code == 2
    verdict = json.loads(out)
    assert verdict["legal"] is False and "'r1 r2 k5' is not a legal set" in verdict["reason"]
    assert err.startswith("error: table meld 1 'r1 r2 k5' is not a legal set")
    code, out, _ = run("check", "--table", "r1 r2 r3", "--rack", "r4", "--json")
    assert code == 0 and json.loads(out)["legal"] is True


def test_a_bad_rule_option_is_named_by_its_flag() -> None:
    code, _, err = run("solve", "--rack", "r1", "--threshold", "-1")
    assert code == 2 and err == "error: invalid rules: --threshold must be at least 0, got -1\n"
    code, _, err = run("odds", "--rack-size", "0")
    assert code == 2 and "--rack-size must be at least 1" in err


def test_advise_takes_the_single_rule_options() -> None:
    def moves(*rules: str) -> list[str]:
        code, out, err = run(
            "advise", "--rack", "r10 r11 r12 k1 b5", "--initial", "--opponents", "14",
            "--rollouts", "2", "--jobs", "1", "--json", *rules,
        )  # fmt: skip
        assert code == 0, err
        return [c["move"] for c in json.loads(out)["candidates"]]

    assert "play all" in moves()  # r10-12 opens with 33
    assert moves("--threshold", "40") == ["hold"]  # not under a threshold of 40


def test_counts_agree_with_their_words() -> None:
    code, out, _ = run(
        "odds", "--tiles", "1..3", "--colours", "2", "--numbers", "3", "--copies", "1",
        "--jokers", "1", "--rack-size", "3",
    )  # fmt: skip
    assert code == 0
    assert "2 colours x 1..3 x 1 copy + 1 joker (7 tiles)" in out
    assert "    1 tile:  0 of 7 distinct hands" in out


def test_a_companion_round_in_review_counts_turns_as_the_game_does(tmp_path: Path) -> None:
    games = tmp_path / "games"

    def game(*args: str) -> None:
        result = CliRunner().invoke(main, ["game", "--dir", str(games), *args])
        assert result.exit_code == 0, result.output

    game("new", "w", "-n", "2", "--rack", "r10 r11 r12", "--rack-size", "3")
    game("w", "play", "r10-12")
    code, out, err = run("review", str(games / "w.jsonl"))
    assert code == 0, err
    assert out.startswith("Review of 1 game, 1 turn, each")
    assert "  r1 t1   seat 0 you" in out  # the first turn is turn 1, as 'show' counts


def test_a_time_or_rate_that_is_not_a_finite_number_is_refused() -> None:
    # Found by review: click's ranges let nan through; 'advise --time nan' never stopped
    # and 'odds --max-seconds nan' dropped its limit.
    for command in (
        ["advise", "--rack", "r1 r2 r3", "--time"],
        ["odds", "--tiles", "3", "--max-seconds"],
        ["arena", "--players", "human,never-play", "--sprt", "0,10", "--sprt-alpha"],
        ["solve", "--rack", "r1", "--time-limit"],
        ["review", "x.jsonl", "--time-limit"],
    ):
        for value in ("nan", "inf", "-inf"):
            code, out, err = run(*command, value)
            assert code == 2 and not out, (command, value)
            assert err.count("\n") == 1 and command[-1] in err, (command, value, err)


def test_a_review_of_a_player_without_turns_says_so(tmp_path: Path) -> None:
    # Found by review: the text table of nobody's turns failed ("a bug", exit 1).
    rack = "r3 r4 r5 k9 b9 o9 j k1 k2 b5 b6 o11 o12 r13"
    games = str(tmp_path)
    assert run("game", "--dir", games, "new", "fri", "--players", "2", "--rack", rack)[0] == 0
    assert run("game", "--dir", games, "fri", "draw", "b7")[0] == 0
    for player in ("1", "opponent 1"):
        code, out, err = run("review", str(tmp_path / "fri.jsonl"), "--player", player)
        assert code == 0 and "Review of 1 game, 0 turns" in out, err


def test_a_number_too_long_to_read_is_bad_json(tmp_path: Path) -> None:
    # Found by review: json.loads raises a plain ValueError past 4300 digits ("a bug").
    digits = "1" * 5000
    position = tmp_path / "p.json"
    position.write_text('{"rack": "k4", "initial": ' + digits + "}")
    code, _, err = run("solve", str(position))
    assert code == 2 and "bad JSON: a number too long to read" in err, err
    rules = tmp_path / "r.json"
    rules.write_text('{"initial_threshold": ' + digits + "}")
    code, _, err = run("solve", "--rack", "r1 r2 r3", "--rules", str(rules))
    assert code == 2 and "bad JSON: a number too long to read" in err, err
    toml = tmp_path / "r.toml"  # found by the second review: TOML had been left out
    for text, words in (
        ("initial_threshold = " + digits, "bad TOML: a number too long to read"),
        ("x = " + "[" * 2000 + "]" * 2000, "bad TOML: nested too deeply"),
    ):
        toml.write_text(text)
        code, _, err = run("solve", "--rack", "r1 r2 r3", "--rules", str(toml))
        assert code == 2 and words in err and err.count("\n") == 1, err
    # A rules line longer than a file name may be was tried as a file, and failed so.
    code, out, err = run("solve", "--rack", "r1 r2 r3", "--rules", "standard" + " " * 300)
    assert code == 0 and "place 3 tiles" in out, err
    games = tmp_path / "games"
    rack = "r3 r4 r5 k9 b9 o9 j k1 k2 b5 b6 o11 o12 r13"
    assert run("game", "--dir", str(games), "new", "g", "--players", "2", "--rack", rack)[0] == 0
    with open(games / "g.jsonl", "a") as log:
        log.write('{"event": "drew", "seat": ' + digits + "}\n")
    code, _, err = run("game", "--dir", str(games), "g", "show")
    assert code == 2 and "not JSON (a number too long to read)" in err, err
