"""Every command under every preset and every joker rule, on random legal positions.

The user's path: a position file (its rules in a ``rules:`` line, or given as
``--rules``/``--joker-rule`` on the command line), through ``solve`` (text, ``--json``,
``--jsonl``, ``--top``), ``analyze``, ``check`` and ``rules``. Each must exit 0 and
print a legal answer: every move the JSON names passes the independent validator under
the same rules, declared joker meanings included.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from click.testing import CliRunner
from test_cli import check_schema

from rummikub.cli.main import main
from rummikub.models import Meld, Position, Tile, position_from_json
from rummikub.models.generate import random_position
from rummikub.models.jokers import JokerRule
from rummikub.models.presets import PRESETS, preset
from rummikub.models.rules import STANDARD
from rummikub.models.validation import move_problems

SEEDS = (0, 1)  # seed 0: the rules in the file; seed 1: the rules on the command line


@dataclass(frozen=True)
class Case:
    preset: str
    joker_rule: str
    seed: int

    @property
    def id(self) -> str:
        return f"{self.preset}-{self.joker_rule}-seed{self.seed}"

    @property
    def in_file(self) -> bool:
        return self.seed == 0

    def position(self) -> Position:
        return _position(self.preset, self.joker_rule, self.seed)

    def write(self, tmp_path: Path) -> tuple[Path, list[str]]:
        """The position file and the rule options the command line needs for it."""
        position = self.position()
        path = tmp_path / f"{self.id}.txt"
        if self.in_file:
            path.write_text(position.to_text())
            return path, []
        path.write_text(replace(position, rules=STANDARD).to_text())
        return path, ["--rules", self.preset, "--joker-rule", self.joker_rule]

    def json_line(self) -> tuple[str, list[str]]:
        """The position as one JSON line, and the rule options it needs."""
        position = self.position()
        if self.in_file:
            return json.dumps(position.to_json()), []
        plain = replace(position, rules=STANDARD).to_json()
        return json.dumps(plain), ["--rules", self.preset, "--joker-rule", self.joker_rule]


@cache
def _position(name: str, joker_rule: str, seed: int) -> Position:
    """A legal position with jokers on the table (often) and on the rack (odd seeds)."""
    rules = replace(preset(name), joker_rule=JokerRule(joker_rule))
    return random_position(
        seed + 100, table_tiles=15, rack_tiles=6, rules=rules, joker_rate=0.3,
        rack_jokers=seed % 2,
    )  # fmt: skip


CASES = [Case(p, str(r), s) for p in PRESETS for r in JokerRule for s in SEEDS]
IDS = [c.id for c in CASES]
ANALYZE = [c for c in CASES if c.seed == 0]
ANALYZE_LIMIT = "0.1"


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    return result.exit_code, result.stdout, result.stderr


def assert_legal(position: Position, move: dict[str, Any]) -> None:
    """The move printed as JSON is legal under the position's rules (the validator)."""
    melds = [Meld.parse(" ".join(m["tiles"]), position.rules) for m in move["melds"]]
    placed = [Tile.parse(t) for t in move["placed"]]
    assert move_problems(position, melds, placed) == [], position.to_text()


def test_the_cases_exercise_jokers_and_every_rule() -> None:
    assert {c.preset for c in CASES} == set(PRESETS)
    assert {c.joker_rule for c in CASES} == {"free", "strict", "locked"}
    with_table_jokers = [c for c in CASES if any(m.jokers for m in c.position().table)]
    assert len(with_table_jokers) >= len(CASES) // 2
    for case in CASES:
        rules = case.position().rules
        assert rules == replace(preset(case.preset), joker_rule=JokerRule(case.joker_rule))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_solve_text(tmp_path: Path, case: Case) -> None:
    """Text, and both pictures of the move (a rack-less position draws none)."""
    path, options = case.write(tmp_path)
    svg, png = tmp_path / "move.svg", tmp_path / "move.png"
    pictures = ["--svg", str(svg), "--png", str(png)]
    _, out, _ = run("solve", str(path), "--no-color", *pictures, *options)
    first = out.splitlines()[0]
    assert first.startswith(("Best move", "No move", "Nothing to place")), out
    if case.position().rack:
        ET.parse(svg)
        assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_solve_json(tmp_path: Path, case: Case) -> None:
    path, options = case.write(tmp_path)
    _, out, _ = run("solve", str(path), "--json", *options)
    payload = json.loads(out)
    check_schema(payload)
    assert_legal(case.position(), payload)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_solve_jsonl(case: Case) -> None:
    line, options = case.json_line()
    _, out, _ = run("solve", "--jsonl", *options, stdin=line + "\n" + line + "\n")
    results = [json.loads(text) for text in out.splitlines()]
    assert len(results) == 2 and results[0]["placed"] == results[1]["placed"]
    assert_legal(case.position(), results[0])


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_solve_top(tmp_path: Path, case: Case) -> None:
    path, options = case.write(tmp_path)
    _, out, _ = run("solve", str(path), "--top", "2", "--json", *options)
    moves = json.loads(out)["moves"]
    assert 1 <= len(moves) <= 2
    for move in moves:
        assert_legal(case.position(), move)
    _, out, _ = run("solve", str(path), "--top", "2", "--no-color", *options)
    assert out.startswith("#1") or "#1" in out, out


@pytest.mark.slow
@pytest.mark.parametrize("case", ANALYZE, ids=[c.id for c in ANALYZE])
def test_analyze(tmp_path: Path, case: Case) -> None:
    path, options = case.write(tmp_path)
    # Analysis solves once per unseen tile type (about 50 times); a short limit per solve
    # keeps the strict cases within CI's time. Legality does not depend on the limit.
    options += ["--time-limit", ANALYZE_LIMIT]
    _, out, _ = run("analyze", str(path), "--json", *options)
    payload = json.loads(out)
    for move in payload["best"].values():
        assert_legal(case.position(), move)
    if case.joker_rule == "strict" and case.preset != "american":
        return  # the text of a strict analysis: once (american), as strict solves are slow
    _, out, _ = run("analyze", str(path), "--no-color", *options)
    assert "Chance to go out next turn" in out


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_check_and_rules(tmp_path: Path, case: Case) -> None:
    path, options = case.write(tmp_path)
    _, out, _ = run("check", str(path), *options)
    assert "legal" in out
    _, out, _ = run("check", str(path), "--json", *options)
    payload = json.loads(out)
    assert payload.pop("legal") is True
    again = position_from_json(payload)  # the printed position carries its rules
    assert again == case.position() and again.rules == case.position().rules
    _, out, _ = run("rules", "--rules", case.preset, "--joker-rule", case.joker_rule, "--json")
    assert json.loads(out)["rules"] == case.position().rules.options()
