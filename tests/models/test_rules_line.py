"""A position says which rules it is played under; notation hints name the fix.

* ``rules:`` in the text format and ``"rules"`` in JSON (a preset and/or options), read
  back from what the position prints; command-line options override them.
* The run shorthand wraps (``r12-2``) when the rules do; pasted dashes are hyphens.
* A run-gap error names the missing tile; an empty rack gets a clear answer.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rummikub.cli.main import main
from rummikub.models import JokerRule, Meld, NotationError, RulesError, RuleSet, parse_tiles
from rummikub.models.generate import random_position
from rummikub.models.position import position_from_any, position_from_json, position_from_text
from rummikub.models.position_format import rules_in_text
from rummikub.models.presets import parse_rules_line, preset, rules_line, rules_object

WRAP = RuleSet(wrap=True)


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(),
        preset("american"),
        RuleSet(wrap=True, joker_rule=JokerRule.STRICT),
        RuleSet(max_jokers_per_set=1, initial_threshold=50, joker_rule=JokerRule.LOCKED),
        RuleSet(colours=5, numbers=9, copies=3, jokers=1, continue_after_initial=True),
    ],
)
def test_rules_line_and_object_read_back(rules: RuleSet) -> None:
    assert parse_rules_line(rules_line(rules)) == rules
    assert position_from_json({"rules": rules_object(rules)}).rules == rules
    assert json.loads(json.dumps(rules_object(rules))) == rules_object(rules)


def test_rules_line_names_the_nearest_preset() -> None:
    assert rules_line(RuleSet()) == "standard"
    assert rules_line(preset("vietnamese")) == "american"
    assert rules_line(RuleSet(wrap=True, joker_rule=JokerRule.STRICT)) == "wrap joker_rule=strict"
    assert parse_rules_line("vietnamese, threshold = 50 joker-rule=strict") == RuleSet(
        max_jokers_per_set=1, initial_threshold=50, joker_rule=JokerRule.STRICT
    )


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("americn", "unknown rules preset 'americn'"),
        ("american wrap", "one preset at most"),
        ("wrap=maybe", "wrap must be yes or no"),
        ("threshold=high", "initial_threshold must be a whole number"),
        ("joker_rule=loose", "joker_rule must be one of free, strict, locked"),
        ("jokers_per_set=1", "did you mean 'max_jokers_per_set'"),
        ("colours=9", "colours must be 2..8"),
        ("threshold=50 threshold=20", "initial_threshold given twice"),
        ("wrap=yes, wrap=no", "wrap given twice"),
    ],
)
def test_bad_rules_lines_say_what_is_wrong(line: str, fragment: str) -> None:
    with pytest.raises(RulesError, match=fragment):
        position_from_text(f"rules: {line}\nrack: r1")


@pytest.mark.parametrize("seed", range(8))
def test_positions_print_their_rules_and_read_back(seed: int) -> None:
    rules = [WRAP, preset("american"), RuleSet(joker_rule=JokerRule.STRICT), RuleSet()][seed % 4]
    position = random_position(seed, table_tiles=20, rack_tiles=5, rules=rules, joker_rate=0.2)
    text = position.to_text()
    assert ("rules:" in text) == (rules != RuleSet())
    for again in (position_from_text(text), position_from_any(json.dumps(position.to_json()))):
        assert again == position and again.rules == rules
    assert rules_in_text(text) == (rules if rules != RuleSet() else None)


def test_a_wrap_position_solves_as_written(tmp_path: Path) -> None:
    path = tmp_path / "wrap.txt"
    path.write_text("rules: wrap\ntable: r12-2\nrack: r3 b5\n")
    code, out, err = run("solve", str(path), "--json")
    assert code == 0, err
    assert json.loads(out)["placed"] == ["r3"]
    # Command-line options override the file's rules: without wrap-around the table is
    # not even legal, and the shorthand says why.
    code, _, err = run("solve", str(path), "--no-wrap")
    assert code == 2 and "r12-2" in err and "go round from 13 to 1" in err and "--wrap" in err
    code, out, err = run("solve", str(path), "--rules", "standard", "--json")
    assert code == 2
    code, out, err = run("check", str(path), "--joker-rule", "strict", "--json")
    assert code == 0 and json.loads(out)["rules"] == {"preset": "wrap", "joker_rule": "strict"}


def test_a_one_joker_position_solves_as_written(tmp_path: Path) -> None:
    text = "rules: american\nrack: j o8 j k1\ninitial: no\n"
    path = tmp_path / "one.txt"
    path.write_text(text)
    code, out, _ = run("solve", str(path), "--json")
    assert code == 0 and json.loads(out)["placed_count"] == 0  # 'j o8 j' is no set there
    code, out, _ = run("solve", str(path), "--json", "--max-jokers-per-set", "2")
    assert code == 0 and json.loads(out)["placed_count"] == 3
    jsonl = json.dumps({"rules": "american", "rack": ["j", "o8", "j", "k1"]}) + "\n"
    code, out, _ = run("solve", "--jsonl", stdin=jsonl)
    assert code == 0 and json.loads(out)["placed_count"] == 0


def test_run_shorthand_wraps_under_wrap_rules() -> None:
    assert parse_tiles("r12-2", WRAP) == parse_tiles("r12 r13 r1 r2")
    assert Meld.parse("k13-2", WRAP).is_legal(WRAP)
    assert position_from_text("table: o11-1\nrack: o2", WRAP).table[0] == Meld.parse(
        "o11 o12 o13 o1"
    )
    with pytest.raises(NotationError, match="only the wrap-around house rule allows"):
        parse_tiles("r12-2")
    small = RuleSet(numbers=9, wrap=True)
    assert parse_tiles("b8-1", small) == parse_tiles("b8 b9 b1")


@pytest.mark.parametrize("dash", ["\u2013", "\u2014", "\u2212"])
def test_pasted_dashes_are_hyphens(dash: str) -> None:
    assert parse_tiles(f"r1{dash}3") == parse_tiles("r1-3")
    code, _, err = run("check", "--table", f"r1{dash}3 | b5{dash}7")
    assert code == 0, err


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("r1 \u2013 r3", "write a run without spaces round the dash, like r3-7"),
        ("r1\u2013r3", "write the colour once, then low and high, like r3-7"),
        ("r1-r3", "write the colour once, then low and high, like r3-7"),
    ],
)
def test_dash_mistakes_get_a_hint(text: str, fragment: str) -> None:
    code, _, err = run("check", "--table", text)
    assert code == 2 and fragment in err, err


def full_width(text: str) -> str:
    """The text as an East Asian keyboard types it: full-width forms, ideographic spaces."""
    return "".join(
        "\u3000" if c == " " else chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text
    )


def test_full_width_tiles_read_as_typed_on_an_east_asian_keyboard() -> None:
    wide = position_from_text(f"table: {full_width('r3-7 | k1 k2 k3')}\nrack: {full_width('r8,J')}")
    assert wide == position_from_text("table: r3-7 | k1 k2 k3\nrack: r8 j")
    table, rack = full_width("j=r1 r2 r3"), full_width("r4")
    code, out, err = run("solve", "--table", table, "--rack", rack, "--no-color")
    assert code == 0 and "j = r1" in out, err


@pytest.mark.parametrize(
    ("meld", "fragment"),
    [
        ("r1 r2 r4", "a run needs consecutive numbers: r3 is missing"),
        ("k5 k6 k9", "k7 and k8 are missing (2 tiles)"),
        ("b1 j b5", "b2-4 are missing (3 tiles), and its joker can stand for only 1"),
        ("r7-3", "else write low-high: r3-7"),
        ("j=r14 r12 r13", "tile r14 declared for a joker: numbers run from 1 to 13"),
        ("j=r4 r12 r13", "no reading lets its jokers stand for the declared tiles"),
    ],
)
def test_run_gap_errors_name_the_missing_tiles(meld: str, fragment: str) -> None:
    code, _, err = run("check", "--table", meld)
    assert code == 2 and fragment in err, err


def test_an_empty_rack_has_nothing_to_place() -> None:
    code, out, err = run("solve", "--table", "r1-3")
    assert code == 0 and out == "Nothing to place: the rack is empty.\n", err
    code, out, _ = run("solve", "--table", "r1-3", "--top", "2")
    assert code == 0 and out.startswith("Nothing to place")
    code, out, _ = run("solve", "--table", "r1-3", "--json")
    assert code == 0 and json.loads(out)["placed"] == []
