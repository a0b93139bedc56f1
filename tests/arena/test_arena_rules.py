"""The arena under any rules: every move is checked under the game's RuleSet.

A player that ignores the table-joker rule (it plays the best move as if jokers were free)
must be stopped under ``strict`` and ``locked`` with the illegal-play error naming the rule
it broke, and let through under ``free``; a record keeps the rules, so a replay checks the
moves under them again.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from rummikub.cli.main import main
from rummikub.game.errors import IllegalPlayError
from rummikub.game.protocol import PlayerView, Reply
from rummikub.game.rounds import RoundState, play_turn
from rummikub.models import JokerRule, RuleSet, parse_melds, parse_tiles
from rummikub.models.presets import preset

JOKER_RULES = ("strict", "locked", "free")

THIEF = '''
from dataclasses import replace

from rummikub.arena.players import SolverPlayer


class play(SolverPlayer):
    """The optimal player, but it reads every game as if table jokers moved freely."""

    def __call__(self, view):
        return self.best(replace(view, rules=replace(view.rules, joker_rule="free")))
'''


def _take_the_joker(view: PlayerView) -> Reply:
    """Lifts the joker off 'r4 r5 r6 j' into a new set with two rack tiles, without
    putting r3 or r7 in its place: legal only when table jokers are free."""
    return Reply(tuple(parse_melds("r4 r5 r6 | k1 k2 j")), tuple(parse_tiles("k1 k2")))


def _state(rules: RuleSet) -> RoundState:
    pool = parse_tiles("o9 o10 o11")
    return RoundState(
        rules=rules,
        pool=pool,
        racks=[parse_tiles("k1 k2 b9"), parse_tiles("b1 b2 b3")],
        table=tuple(parse_melds("r4 r5 r6 j")),
        opened=[True, True],
    )


@pytest.mark.parametrize("rule", JOKER_RULES)
def test_the_engine_checks_moves_under_the_games_joker_rule(rule: str) -> None:
    state = _state(RuleSet(joker_rule=JokerRule(rule)))
    if rule == "free":
        turn = play_turn(state, _take_the_joker, "thief")
        assert turn.action == "play" and state.racks[0] == parse_tiles("b9")
        return
    with pytest.raises(IllegalPlayError) as info:
        play_turn(state, _take_the_joker, "thief")
    assert info.value.player == "thief" and info.value.seat == 0
    assert any(p.startswith(f"{rule} joker rule: ") for p in info.value.problems), info.value
    assert state.racks[0] == parse_tiles("k1 k2 b9")  # nothing applied


def test_one_joker_per_set_in_the_american_game() -> None:
    """The game's other rules are the validator's too: two jokers in a set are refused
    under the 1998 Pressman rules (the american preset), as the source says."""

    def two_jokers(view: PlayerView) -> Reply:
        return Reply(view.table + tuple(parse_melds("j o8 j")), tuple(parse_tiles("j o8 j")))

    for rules, legal in [(RuleSet(), True), (preset("american"), False)]:
        state = RoundState(
            rules=rules, pool=parse_tiles("b1"), racks=[parse_tiles("j o8 j k1"), parse_tiles("b2")]
        )
        state.opened = [True, True]
        if legal:
            assert play_turn(state, two_jokers, "p").action == "play"
        else:
            with pytest.raises(IllegalPlayError, match="2 jokers in one set; the rules allow"):
                play_turn(state, two_jokers, "p")


@pytest.fixture
def thief_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    (tmp_path / "joker_thief.py").write_text(THIEF)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    sys.modules.pop("joker_thief", None)


def _arena(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["arena", *args])
    return result.exit_code, result.stdout, result.stderr


GAME: tuple[str, ...] = ("--players", "joker_thief:play,optimal", "--games", "1", "--seed", "0")
GAME += ("--executor", "serial", "--time-limit", "2")


@pytest.mark.parametrize("rule", ["strict", "locked"])
def test_arena_stops_a_player_that_breaks_the_joker_rule(thief_module: Path, rule: str) -> None:
    code, _, err = _arena(*GAME, "--joker-rule", rule)
    assert code == 2, err
    assert err.startswith("error: player 'joker_thief:play' (seat 0) made an illegal move")
    assert f"{rule} joker rule: " in err and err.count("\n") == 1


def test_arena_under_free_jokers_and_the_replay_under_the_records_rules(
    thief_module: Path,
) -> None:
    record = thief_module / "free.jsonl"
    code, out, err = _arena(*GAME, "--record", str(record))
    assert code == 0, err
    assert "rules: standard" in out
    header = json.loads(record.read_text().splitlines()[0])
    assert header["rules"]["joker_rule"] == "free"
    code, out, err = _arena("--replay", str(record))
    assert code == 0 and "every move legal" in out, err
    # The same game said to be played under the strict rule: the replay checks the moves
    # under the record's rules and finds the stolen joker.
    lines = record.read_text().splitlines()
    lines[0] = json.dumps(header | {"rules": header["rules"] | {"joker_rule": "strict"}})
    strict = thief_module / "strict.jsonl"
    strict.write_text("\n".join(lines) + "\n")
    code, _, err = _arena("--replay", str(strict))
    assert code == 2 and "strict joker rule: " in err, err
    code, _, err = _arena("--replay", str(record), "--joker-rule", "strict")
    assert code == 2 and "rules in its header" in err


def test_arena_takes_every_rule_option_of_solve() -> None:
    """The arena and solve share one set of rule options, made from the RuleSet fields."""
    from rummikub.cli.arena import arena
    from rummikub.cli.main import solve

    def rule_flags(command: object) -> set[str]:
        names = {opt for p in command.params for opt in p.opts}  # type: ignore[attr-defined]
        return {n for n in names if n not in {"--time-limit", "--json"}}

    from rummikub.models.rules import OPTIONS

    wanted = {"--rules"} | {f"--{o.flag}" for o in OPTIONS}
    assert wanted <= rule_flags(arena) and wanted <= rule_flags(solve)


def test_arena_plays_under_a_preset(tmp_path: Path) -> None:
    record = tmp_path / "american.jsonl"
    code, out, err = _arena(
        "--players", "greedy,sets-only", "--games", "2", "--seed", "3", "--executor", "serial",
        "--rules", "american", "--threshold", "50", "--record", str(record),
    )  # fmt: skip
    assert code == 0, err
    assert "rules: american initial_threshold=50" in out
    header = json.loads(record.read_text().splitlines()[0])
    rules = RuleSet(**header["rules"])
    assert rules == replace(preset("american"), initial_threshold=50)
    code, out, err = _arena("--replay", str(record))
    assert code == 0 and "2 games replayed" in out, err


def test_a_strict_game_records_what_its_jokers_stand_for(tmp_path: Path) -> None:
    """Under the strict rule a table joker keeps standing for its tile, so the record keeps
    the declared meanings (j=o2) and the replay checks the moves with them."""
    record = tmp_path / "strict.jsonl"
    code, out, err = _arena(
        "--players", "optimal,optimal", "--games", "1", "--seed", "1", "--executor", "serial",
        "--joker-rule", "strict", "--record", str(record),
    )  # fmt: skip
    assert code == 0, err
    assert "rules: standard joker_rule=strict" in out
    assert '"j=' in record.read_text()
    code, out, err = _arena("--replay", str(record))
    assert code == 0 and "every move legal" in out, err


@pytest.mark.parametrize("rule", ("strict", "locked"))
def test_every_built_in_plays_legally_under_the_joker_rule(rule: str) -> None:
    # Found by review: 'human' laid rack tiles onto a table meld with a joker so that the
    # joker came to stand for another tile, which these rules forbid (5 of 6 seeds).
    from rummikub.arena.players import make_player, strategy_names
    from rummikub.arena.tournament import deal_seed
    from rummikub.game.rounds import GameConfig, play_game

    config = GameConfig(RuleSet(joker_rule=JokerRule(rule)))
    cheap = [n for n in strategy_names() if n not in ("search", "planner")]
    for deal in range(8):
        names = [cheap[deal % len(cheap)], "human", cheap[(deal + 3) % len(cheap)], "human"]
        play_game([make_player(n) for n in names], deal_seed(deal, 0), config, names=names)
