"""Junk into every form and endpoint: random text in each field (notation-like words, other
scripts, control characters, huge numbers, empty), and random bodies for the API. Never a
server error: a page or an answer, or one line with a 4xx."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_harness import Client, served

from rummikub.web.config import WebConfig

RACK = "r3 r4 k9 b9 o9 j k1 k2 b5 b6 o11 o12 r13 k13"
WORDS = [
    "r1",
    "k13",
    "j",
    "o9-13",
    "rbk7",
    "|",
    "j=r4",
    "y5",
    "1+",
    "2,3=",
    "+",
    "-",
    "0",
    "99",
    "-1",
    "1e9",
    "nan",
    "yes",
    "standard",
    "american",
    "strict",
    "x",
    "\u0000",
    "\uff52\uff15",  # a full-width r5
    "é",
]
FIELD = st.one_of(
    st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join),
    st.text(max_size=40),
    st.integers(-(10**12), 10**12).map(str),
)

# Each form a page posts, and the fields it sends.
FORMS: list[tuple[str, list[str]]] = [
    ("/games/new", ["name", "players", "first", "target", "rack", "preset", "joker_rule", "rules"]),
    ("/games/fuzz/drew", ["seat", "seen"]),
    ("/games/fuzz/draw", ["tile", "seen"]),
    ("/games/fuzz/placed", ["seat", "placed", "seen"]),
    ("/games/fuzz/table", ["seat", "table", "seen"]),
    ("/games/fuzz/play", ["table", "seen"]),
    ("/games/fuzz/pass", ["seen"]),
    ("/games/fuzz/undo", ["seen"]),
    ("/games/fuzz/redo", ["seen"]),
    ("/games/fuzz/score", ["rack1", "rack2", "rack3", "seen"]),
    ("/games/fuzz/round", ["rack", "first", "seen"]),
]
SOLVE_FIELDS = [
    "table",
    "rack",
    "initial",
    "preset",
    "joker_rule",
    "rules",
    "objective",
    "keep_jokers",
    "top",
    "seconds",
]
API_OPTIONS = ["objective", "keep_jokers", "top", "time_limit", "steps", "initial", "rules"]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Client]:
    games: Path = tmp_path_factory.mktemp("games")
    with served(WebConfig(games_dir=str(games), solve_seconds=2, max_seconds=2)) as web:
        made = web.post("/games/new", {"name": "fuzz", "players": "3", "rack": RACK})
        assert made.status == 303, made.error
        yield web


def no_server_error(reply_status: int, error: str, text: str) -> None:
    assert reply_status < 500, text[:500]
    assert "Traceback" not in text
    if reply_status >= 400:
        assert error and "\n" not in error, (reply_status, text[:300])


FUZZ = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FUZZ
@given(form=st.sampled_from(FORMS), data=st.data())
def test_forms(client: Client, form: tuple[str, list[str]], data: st.DataObject) -> None:
    path, names = form
    fields = {name: data.draw(FIELD, label=name) for name in names}
    reply = client.post(path, fields)
    no_server_error(reply.status, reply.error, reply.text)


@FUZZ
@given(data=st.data())
def test_solve_page(client: Client, data: st.DataObject) -> None:
    fields = {name: data.draw(FIELD, label=name) for name in SOLVE_FIELDS}
    query = "&".join(f"{k}={quote(v)}" for k, v in fields.items())
    reply = client.get(f"/solve?{query}&go=1")
    no_server_error(reply.status, reply.error, reply.text)


@FUZZ
@given(body=st.one_of(st.binary(max_size=200), FIELD.map(str.encode)), data=st.data())
def test_api(client: Client, body: bytes, data: st.DataObject) -> None:
    names = data.draw(st.lists(st.sampled_from(API_OPTIONS), max_size=3, unique=True))
    query = "&".join(f"{n}={quote(data.draw(FIELD, label=n))}" for n in names)
    for path in ("/api/solve", "/api/check"):
        reply = client.request("POST", f"{path}?{query}", body)
        no_server_error(reply.status, reply.error if reply.status >= 400 else "", reply.text)
