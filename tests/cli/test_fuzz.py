"""Hostile input: every parser and the CLI end in a clean result or a one-line error, never a crash.

CI runs a fixed-seed sample of 300 inputs per test. The long campaign that the closing notes
report: ``RUMMIKUB_FUZZ_EXAMPLES=25000 pytest tests/test_fuzz.py`` (random seeds; 5 generated
tests x 25,000 inputs, each text input fed to six parsers).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummikub.cli.main import main
from rummikub.models import (
    Meld,
    RummikubError,
    Tile,
    load_json,
    parse_melds,
    parse_tiles,
    position_from_any,
    position_from_json,
    position_from_text,
)

pytestmark = pytest.mark.slow  # the whole file: hundreds of generated inputs per test

LONG = os.environ.get("RUMMIKUB_FUZZ_EXAMPLES")
EXAMPLES = int(LONG) if LONG else 300

# Text that looks like notation: tile-ish tokens, shorthands, separators, keys, junk.
_TOKENS = st.one_of(
    st.from_regex(r"[kbroyjxKBROJ]{1,3}-?[0-9]{0,3}(-[0-9]{1,3})?", fullmatch=True),
    st.sampled_from(["|", ";", ",", " ", "\n", "#", "table:", "rack:", "initial:", "yes", "j"]),
    st.text(max_size=5),
)
NOTATION = st.lists(_TOKENS, max_size=60).map(" ".join)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=6) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=30,
)
TILE_STRINGS = st.one_of(
    st.sampled_from(["r1", "r13", "k7", "o5", "b2", "j", "y3", "r0", "r14", "x5", "R-1", ""]),
    st.text(max_size=4),
)
POSITION_OBJECTS = st.fixed_dictionaries(
    {},
    optional={
        "table": st.one_of(st.lists(st.lists(TILE_STRINGS, max_size=6), max_size=8), JSON_VALUES),
        "rack": st.one_of(st.lists(TILE_STRINGS, max_size=20), JSON_VALUES),
        "initial": st.one_of(st.booleans(), JSON_VALUES),
    },
)


def clean(call: Callable[[], object]) -> None:
    """The call returns, or raises a library error with a one-line message."""
    try:
        call()
    except RummikubError as error:
        message = str(error)
        assert message and "\n" not in message, repr(message)


FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    derandomize=not LONG,
)
# Through the whole command (a solve each): a third as many, to keep the suite's time.
CLI_FUZZ = settings(FUZZ, max_examples=max(EXAMPLES // 3, 1))


@FUZZ
@given(NOTATION | st.text())
def test_text_parsers(text: str) -> None:
    clean(lambda: Tile.parse(text))
    clean(lambda: parse_tiles(text))
    clean(lambda: Meld.parse(text))
    clean(lambda: parse_melds(text))
    clean(lambda: position_from_text(text))
    clean(lambda: position_from_any(text))


@FUZZ
@given(st.one_of(st.text(), JSON_VALUES.map(json.dumps), POSITION_OBJECTS.map(json.dumps)))
def test_json_parsers(text: str) -> None:
    clean(lambda: load_json(text))
    clean(lambda: position_from_any(text))


@FUZZ
@given(st.one_of(JSON_VALUES, POSITION_OBJECTS))
def test_json_objects(obj: object) -> None:
    clean(lambda: position_from_json(obj))


def _cli_ok(args: list[str], stdin: bytes) -> None:
    result = CliRunner().invoke(main, args, input=stdin)
    assert result.exit_code in (0, 2), (result.exit_code, result.output, result.exception)
    if result.exit_code == 2:
        assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert "Traceback" not in result.output


@CLI_FUZZ
@given(st.one_of(st.binary(max_size=200), NOTATION.map(str.encode)))
def test_cli_on_arbitrary_stdin(data: bytes) -> None:
    _cli_ok(["solve", "-", "--json", "--time-limit", "2"], data)
    _cli_ok(["check", "-"], data)


@CLI_FUZZ
@given(
    st.lists(
        st.one_of(st.binary(max_size=60), POSITION_OBJECTS.map(json.dumps).map(str.encode)),
        max_size=6,
    )
)
def test_cli_jsonl_one_line_out_per_line_in(lines: list[bytes]) -> None:
    lines = [line.replace(b"\n", b" ").replace(b"\r", b" ") for line in lines]
    data = b"".join(line + b"\n" for line in lines)
    result = CliRunner().invoke(main, ["solve", "--jsonl", "--time-limit", "2"], input=data)
    assert result.exit_code in (0, 2), result.output
    out = result.stdout.splitlines()
    expected = len(data.splitlines())
    assert len(out) == expected, (data, result.stdout)
    for line in out:
        json.loads(line)


def test_huge_inputs_are_refused_quickly() -> None:
    huge = ("r1 " * 3_500_000).encode()  # over 10 MB of tiles
    result = CliRunner().invoke(main, ["solve", "-"], input=huge)
    assert result.exit_code == 2 and "larger than any legal position" in result.stderr
    with pytest.raises(RummikubError, match="copies of r1"):
        position_from_text("rack: " + "r1 " * 100_000)
