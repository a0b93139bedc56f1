"""The JSON API against the command line: ``POST /api/solve`` answers what ``rummikub
solve --json`` prints for the bundled examples (timings aside), ``/api/check`` what
``rummikub check --json`` prints; junk bodies and options get one line and a 4xx."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_harness import Client, served

from rummikub.web.config import WebConfig
from rummikub.web.openapi import SOLVE_PARAMETERS

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
POSITIONS = sorted(p for p in EXAMPLES.iterdir() if p.suffix in (".txt", ".json"))
BATCH = [line for line in (EXAMPLES / "batch.jsonl").read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Client]:
    with served(WebConfig(games_dir=str(tmp_path_factory.mktemp("games")))) as web:
        yield web


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The installed command line, as a user runs it."""
    command = [sys.executable, "-m", "rummikub.cli", *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=120)


def timeless(value: Any) -> Any:
    """``value`` without its timings (``seconds``), which differ between any two runs."""
    if isinstance(value, dict):
        return {k: timeless(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [timeless(v) for v in value]
    return value


@pytest.mark.parametrize("example", POSITIONS, ids=lambda p: p.name)
def test_solve_answers_what_the_command_line_prints(client: Client, example: Path) -> None:
    printed = cli("solve", str(example), "--json")
    assert printed.returncode == 0, printed.stderr
    answer = client.request("POST", "/api/solve", example.read_bytes())
    assert answer.status == 200, answer.text
    assert timeless(answer.json()) == timeless(json.loads(printed.stdout))


@pytest.mark.parametrize("line", [*BATCH, "", "{}"])
def test_solve_of_each_batch_line(client: Client, line: str) -> None:
    printed = cli("solve", "-", "--json", stdin=line)
    answer = client.request("POST", "/api/solve", line.encode())
    assert timeless(answer.json()) == timeless(json.loads(printed.stdout))


@pytest.mark.parametrize(
    ("query", "options"),
    [
        ("?top=3", ["--top", "3"]),
        ("?objective=value&keep_jokers=true", ["--objective", "value", "--keep-jokers"]),
        ("?steps=false", ["--no-steps"]),
        ("?initial=true", ["--initial"]),
        ("?rules=american+joker_rule%3Dstrict", ["--rules", "american joker_rule=strict"]),
    ],
)
def test_solve_options_as_the_command_line_names_them(
    client: Client, query: str, options: list[str]
) -> None:
    example = EXAMPLES / "jokers.txt"
    printed = cli("solve", str(example), "--json", *options)
    assert printed.returncode == 0, printed.stderr
    answer = client.request("POST", "/api/solve" + query, example.read_bytes())
    assert answer.status == 200, answer.text
    assert timeless(answer.json()) == timeless(json.loads(printed.stdout))


@pytest.mark.parametrize("example", POSITIONS, ids=lambda p: p.name)
def test_check_answers_what_the_command_line_prints(client: Client, example: Path) -> None:
    printed = cli("check", str(example), "--json")
    answer = client.request("POST", "/api/check", example.read_bytes())
    assert answer.status == 200 and answer.json() == json.loads(printed.stdout)


def test_check_of_an_illegal_position(client: Client) -> None:
    answer = client.post_json("/api/check", {"table": [["r1", "r2"]], "rack": []})
    assert answer.status == 422
    assert answer.json() == {"legal": False, "error": answer.json()["error"]}
    printed = cli("check", "-", stdin='{"table": [["r1", "r2"]], "rack": []}')
    assert printed.stderr.strip() == f"error: stdin: {answer.json()['error']}"


JUNK: list[tuple[str, bytes, str]] = [
    ("", b"{", "bad JSON"),
    ("", b"[1, 2]", "expected 'table:'"),  # not an object: read as the text format
    ("", b'{"rack": ["r1"], "rack": ["r2"]}', "duplicate key"),
    ("", b'{"rack": 5}', "rack"),
    ("", b'{"table": [["r1", "r2"]]}', "table meld 1"),
    ("", b'{"rack": ["r1"], "extra": 1}', "unknown key"),
    ("", b'{"rack": ["r1"], "rules": "nope"}', "unknown rules preset"),
    ("", b'{"rack": ["r1"], "initial": "maybe"}', "initial"),
    ("", b"\xff\xfe junk", "not UTF-8"),
    ("", b'{"rack": ' + b"[" * 100_000, "nested too deeply"),
    ("", b'{"rack": "k4", "initial": ' + b"1" * 5000 + b"}", "a number too long"),  # review
    ("", b"table: r1 r2 r3\nrack: zz", "not a tile"),
    ("?top=0", b'{"rack": ["r1"]}', "top: a whole number"),
    ("?top=1000", b'{"rack": ["r1"]}', "top: a whole number"),
    ("?time_limit=0", b'{"rack": ["r1"]}', "time_limit: more than 0"),
    ("?time_limit=100000", b'{"rack": ["r1"]}', "at most"),
    ("?objective=fun", b'{"rack": ["r1"]}', "objective: one of"),
    ("?keep_jokers=perhaps", b'{"rack": ["r1"]}', "keep_jokers: true or false"),
    ("?rules=%2Fetc%2Fpasswd", b'{"rack": ["r1"]}', "rules"),
    # Found by review: the command line's spelling was ignored, the answer quietly another.
    ("?keep-jokers=1", b'{"rack": ["r1"]}', "unknown option 'keep-jokers': this endpoint takes"),
]


@pytest.mark.parametrize(("query", "body", "words"), JUNK)
def test_solve_junk_is_one_line_and_a_4xx(
    client: Client, query: str, body: bytes, words: str
) -> None:
    answer = client.request("POST", "/api/solve" + query, body)
    assert 400 <= answer.status < 500, (answer.status, answer.text[:300])
    assert words in answer.json()["error"] and "\n" not in answer.json()["error"]
    if query == "" and body != b"":  # the command line refuses it with the same line
        printed = cli("solve", "-", "--json", stdin=body.decode("utf-8", "replace"))
        assert printed.returncode == 2


def test_a_body_too_large(client: Client) -> None:
    answer = client.request("POST", "/api/solve", b" " * 1_000_001)
    assert answer.status == 413 and "larger than" in answer.json()["error"]


def test_openapi_document(client: Client) -> None:
    document = client.get("/openapi.json").json()
    assert document["openapi"].startswith("3.")
    assert set(document["paths"]) == {"/api/solve", "/api/check"}
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            assert method == "post" and operation["responses"]["200"], path
    page = client.get("/api")
    assert page.status == 200 and "POST /api/solve" in page.text
    # Found by review: the document said the server caps time_limit, which it refuses.
    limit = next(p for p in SOLVE_PARAMETERS if p["name"] == "time_limit")["schema"]
    assert limit["maximum"] == 60
    over = client.request("POST", "/api/solve?time_limit=61", b'{"rack": ["r1"]}')
    assert over.status == 400 and "at most 60" in over.json()["error"]


@pytest.mark.parametrize("parameter", SOLVE_PARAMETERS, ids=lambda p: p["name"])
def test_every_documented_option_is_taken(client: Client, parameter: dict[str, Any]) -> None:
    schema = parameter["schema"]
    value = {"string": "tiles", "boolean": "true", "integer": "2", "number": "5"}[schema["type"]]
    if parameter["name"] == "rules":
        value = "standard"
    answer = client.request(
        "POST", f"/api/solve?{parameter['name']}={value}", b'{"rack": ["r1", "r2", "r3"]}'
    )
    assert answer.status == 200, answer.text
