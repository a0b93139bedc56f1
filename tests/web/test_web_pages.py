"""The web app's pages over HTTP: the Solve page, the Games pages, a game's page and every
tap it records, best move, odds, advice; each with the junk a user or a stale page sends
(one readable line with a 4xx, never a 500, nothing recorded, what was typed kept)."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_harness import Client, Reply, seen_of, served

from rummikub.models.presets import PRESETS
from rummikub.models.rules import JOKER_RULES
from rummikub.web.config import WebConfig

RACK = "r3 r4 k9 b9 o9 j k1 k2 b5 b6 o11 o12 r13 k13"
OPENING = "r10 r11 r12 | k7 b7 o7"


@pytest.fixture(scope="module")
def games_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("games")


@pytest.fixture(scope="module")
def client(games_dir: Path) -> Iterator[Client]:
    with served(WebConfig(games_dir=str(games_dir), solve_seconds=10)) as web:
        yield web


def new_game(client: Client, name: str, **fields: str) -> Reply:
    form = {"name": name, "players": "3", "first": "1", "rack": RACK, **fields}
    return client.post("/games/new", form)


def game(client: Client, name: str) -> Reply:
    page = client.get(f"/games/{name}")
    assert page.status == 200, page.text
    return page


def events(games_dir: Path, name: str) -> list[dict[str, Any]]:
    lines = (games_dir / f"{name}.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def tap(client: Client, name: str, action: str, **fields: str) -> Reply:
    """Record ``action`` from the game's page as shown now (its event count sent)."""
    seen = seen_of(game(client, name))
    return client.post(f"/games/{name}/{action}", {"seen": seen, **fields})


def recorded(reply: Reply, name: str) -> None:
    assert reply.status == 303, (reply.status, reply.error, reply.text[:300])
    assert reply.location.startswith(f"/games/{name}")


def refused(reply: Reply, status: int, words: str) -> None:
    assert reply.status == status, (reply.status, reply.text[:500])
    assert words in reply.error, reply.error


# --- the Solve page ---------------------------------------------------------------------------


def test_home_leads_to_the_games(client: Client) -> None:
    reply = client.get("/")
    assert reply.status == 303 and reply.location == "/games"


def test_solve_form_then_the_best_move(client: Client) -> None:
    form = client.get("/solve")
    assert form.status == 200 and 'name="rack"' in form.text
    assert form.text.count('class="key tile') == 53  # 4 colours x 13 and the joker
    query = "table=k1-4+|+o9-13+|+rbk7&rack=o8+k13+j+b2&go=1"
    reply = client.get(f"/solve?{query}")
    assert reply.status == 200, reply.error
    assert "Place 3 tiles (value 21)" in reply.text
    assert "proved optimal" in reply.text
    assert reply.text.count("<svg") == 1 and "<li>Extend o9 o10 o11 o12 o13" in reply.text
    assert 'class="letter"' in reply.text  # the colour letter on the picture's tiles
    assert ">o8 k13 j b2</textarea>" in reply.text  # the position stays in the form


def test_solve_opening_headline_and_going_out(client: Client) -> None:
    reply = client.get("/solve?rack=r10+r11+r12+b3+k3+o3+j&initial=yes&go=1")
    assert "Place 7 tiles" in reply.text and "opening worth" in reply.text
    assert "You go out!" in reply.text


def test_solve_top_alternatives(client: Client) -> None:
    reply = client.get("/solve?table=r3-5&rack=r6+k6+b6+o6+r2&top=3&go=1")
    assert reply.status == 200, reply.error
    assert reply.text.count('class="alternative"') == 2
    assert "unique optimum" in reply.text or "not unique" in reply.text


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("joker_rule", JOKER_RULES)
def test_solve_under_every_preset_and_joker_rule(
    client: Client, preset: str, joker_rule: str
) -> None:
    query = f"table=r5+j+r7&rack=r6+k9+b9&preset={preset}&joker_rule={joker_rule}&go=1"
    reply = client.get(f"/solve?{query}")
    assert reply.status == 200, reply.error
    assert "Place" in reply.text
    assert f'value="{preset}" selected' in reply.text
    assert f'value="{joker_rule}" selected' in reply.text


def test_solve_rules_line_changes_the_keyboard(client: Client) -> None:
    reply = client.get("/solve?rules=colours%3D5+numbers%3D9")
    assert reply.status == 200 and reply.text.count('class="key tile') == 5 * 9 + 1


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("rack=r14&go=1", "rack: "),
        ("rack=x9&go=1", "not a tile"),
        ("table=r1+r2&rack=r5&go=1", "table meld 1"),
        ("rack=r1+r1+r1&go=1", "copies of r1"),
        ("rack=r1&preset=nonsense&go=1", "preset: one of"),
        ("rack=r1&joker_rule=loose&go=1", "joker_rule: one of"),
        ("rack=r1&rules=wrap%3Dmaybe&go=1", "wrap must be yes or no"),
        ("rack=r1&rules=bogus%3D1&go=1", "unknown rule option"),
        ("rack=r1&top=0&go=1", "top: a whole number"),
        ("rack=r1&top=abc&go=1", "top: a whole number"),
        ("rack=r1&seconds=-1&go=1", "seconds: more than 0"),
        ("rack=r1&seconds=nan&go=1", "seconds: more than 0"),
        ("rack=r1&objective=fun&go=1", "objective: one of"),
        ("rack=" + "r1+" * 2000 + "&go=1", "rack: longer than"),
        ("rack=%EF%BC%B2%EF%BC%91%EF%BC%90+r11+r12&go=1", ""),  # full-width R10: read
    ],
)
def test_solve_junk_is_one_line(client: Client, query: str, words: str) -> None:
    reply = client.get(f"/solve?{query}")
    if not words:
        assert reply.status == 200 and "Place 3 tiles" in reply.text
        return
    refused(reply, 400, words)
    assert "Traceback" not in reply.text


def test_solve_an_empty_rack(client: Client) -> None:
    reply = client.get("/solve?table=r1-3&go=1")
    assert reply.status == 200 and "Nothing to place: the rack is empty." in reply.text


# --- the Games pages --------------------------------------------------------------------------


def test_new_game_then_its_page(client: Client, games_dir: Path) -> None:
    form = client.get("/games/new")
    assert form.status == 200 and 'name="csrf"' in form.text
    recorded(new_game(client, "pages-new"), "pages-new")
    page = game(client, "pages-new")
    assert "opponent 1 to play" in page.text
    assert page.text.count('class="tile ink-') == 14  # the rack, drawn as tiles
    listing = client.get("/games")
    assert "pages-new" in listing.text and "opponent 1 to play" in listing.text
    assert events(games_dir, "pages-new")[0]["event"] == "new"


@pytest.mark.parametrize(
    ("fields", "status", "words"),
    [
        ({"name": "../../etc/passwd"}, 400, "bad game name"),
        ({"name": "new"}, 400, "is a command"),
        ({"name": ""}, 400, "bad game name"),
        ({"name": "ok-name", "rack": "r1 r1 r1", "rules": "rack_size=3"}, 400, "copies of r1"),
        ({"name": "ok-name", "rack": ""}, 400, "your rack"),
        ({"name": "ok-name", "rack": "zz"}, 400, "rack: not a tile"),
        ({"name": "ok-name", "players": "7"}, 400, "players: a whole number from 2 to 4"),
        ({"name": "ok-name", "players": "2", "first": "3"}, 400, "first: a whole number"),
        ({"name": "ok-name", "target": "-5"}, 400, "target: a whole number"),
        ({"name": "ok-name", "joker_rule": "x"}, 400, "joker_rule: one of"),
    ],
)
def test_new_game_junk(
    client: Client, games_dir: Path, fields: dict[str, str], status: int, words: str
) -> None:
    reply = new_game(client, **{"name": "x", **fields})
    refused(reply, status, words)
    assert not (games_dir / "ok-name.jsonl").exists()
    if fields.get("rack"):  # what was typed is kept
        assert f">{fields['rack']}</textarea>" in reply.text


def test_a_taken_name_is_refused(client: Client) -> None:
    recorded(new_game(client, "pages-taken"), "pages-taken")
    refused(new_game(client, "pages-taken"), 400, "already exists")


def test_a_form_without_its_token_is_refused(client: Client, games_dir: Path) -> None:
    reply = client.post("/games/new", {"name": "no-token", "rack": RACK}, token=False)
    refused(reply, 403, "security token")
    reply = client.post("/games/new", {"name": "no-token", "rack": RACK, "csrf": "forged"})
    refused(reply, 403, "security token")
    stranger = Client(client.host, client.port)  # another browser: a cookie of its own
    stranger.csrf()
    reply = stranger.post("/games/new", {"name": "no-token", "rack": RACK, "csrf": client.csrf()})
    refused(reply, 403, "security token")
    assert not (games_dir / "no-token.jsonl").exists()


@pytest.mark.parametrize(
    "path",
    [
        "/games/..",
        "/games/.hidden",
        "/games/a%2F..%2F..%2Fetc",
        "/games/%2e%2e",
        "/games/new.",
        "/games/" + "x" * 80,
        "/games/nosuchgame",
        "/games/nosuchgame/best",
    ],
)
def test_game_names_stay_in_the_folder(client: Client, path: str) -> None:
    reply = client.get(path)
    assert reply.status == 404, (path, reply.status)
    assert reply.error and "Traceback" not in reply.text


def test_a_post_to_a_bad_name_is_refused(client: Client) -> None:
    refused(client.post("/games/..%2Fx/drew", {"seat": "1"}), 404, "no page")
    refused(client.post("/games/nosuch/drew", {"seat": "1"}), 404, "no game named 'nosuch'")
    refused(client.post("/games/nosuch/fly", {}), 404, "no such thing to record")


# --- a game's taps ----------------------------------------------------------------------------


def test_a_round_by_taps(client: Client, games_dir: Path) -> None:
    name = "pages-round"
    recorded(new_game(client, name), name)
    recorded(tap(client, name, "table", seat="1", table=OPENING), name)
    recorded(tap(client, name, "drew", seat="2"), name)
    page = game(client, name)
    assert "Your turn" in page.text and page.text.count("<svg") == 1
    assert 'class="meld-number"' in page.text  # melds numbered on the table
    recorded(tap(client, name, "draw", tile="b7"), name)
    recorded(tap(client, name, "undo"), name)
    recorded(tap(client, name, "redo"), name)
    kinds = [e["event"] for e in events(games_dir, name)]
    assert kinds == ["new", "table", "drew", "draw", "undo", "redo"]
    recorded(tap(client, name, "table", seat="1", table="1+ r13 + o1-3"), name)  # edits
    table = events(games_dir, name)[-1]["table"]
    assert table == [["r10", "r11", "r12", "r13"], ["k7", "b7", "o7"], ["o1", "o2", "o3"]]


def test_a_turn_out_of_order_is_refused_not_skipped(client: Client, games_dir: Path) -> None:
    """Found by review: a play on an opponent's turn ("I played it" on the best move's page,
    or a seat further on) recorded that the players before drew, silently (the terminal
    asks, or needs --skip)."""
    name = "pages-out-of-order"
    recorded(new_game(client, name), name)  # opponent 1 plays first
    assert 'id="played"' not in client.get(f"/games/{name}/best").text
    before = events(games_dir, name)
    refused(tap(client, name, "placed", seat="2", placed="k13 k12 k11"), 400,
            "opponent 1 has not played yet")  # fmt: skip
    refused(tap(client, name, "drew", seat="2"), 400, "opponent 1 has not played yet")
    refused(tap(client, name, "play", table="k9 b9 o9 | r13 k13 j"), 400,
            "opponent 1 and opponent 2 have not played yet")  # fmt: skip
    refused(tap(client, name, "draw", tile="r5"), 400, "opponent 1 and opponent 2 have not")
    assert events(games_dir, name) == before
    recorded(tap(client, name, "drew", seat="1"), name)
    recorded(tap(client, name, "drew", seat="2"), name)
    assert 'id="played"' in client.get(f"/games/{name}/best").text  # your turn now


def test_placed_lays_out_an_opponents_tiles(client: Client, games_dir: Path) -> None:
    name = "pages-placed"
    recorded(new_game(client, name), name)
    recorded(tap(client, name, "placed", seat="1", placed="r10 r11 r12 k7 b7 o7"), name)
    last = events(games_dir, name)[-1]
    assert last["event"] == "table" and last["seat"] == 1
    assert sorted(last["placed"]) == sorted(["r10", "r11", "r12", "k7", "b7", "o7"])
    refused(tap(client, name, "placed", seat="2", placed="r1 r2"), 400, "has not opened")
    refused(tap(client, name, "placed", seat="2", placed="j j j"), 400, "cannot have placed")
    refused(tap(client, name, "placed", seat="2", placed=""), 400, "no tiles given")
    reply = tap(client, name, "placed", seat="2", placed="k13 k12")
    assert "k13 k12</textarea>" in reply.text  # kept for another try
    assert len(events(games_dir, name)) == 2


def test_best_move_then_i_played_it(client: Client, games_dir: Path) -> None:
    name = "pages-best"
    recorded(new_game(client, name, first="0"), name)
    best = client.get(f"/games/{name}/best")
    assert best.status == 200 and "opening worth" in best.text and "<svg" in best.text
    table = re.search(r'name="table" value="([^"]+)"', best.text)
    assert table, "the best move's table goes with 'I played it'"
    reply = client.post(f"/games/{name}/play", {"seen": seen_of(best), "table": table.group(1)})
    recorded(reply, name)
    assert events(games_dir, name)[-1]["event"] == "play"
    assert "opponent 1 to play" in game(client, name).text


def test_odds_page(client: Client) -> None:
    name = "pages-odds"
    recorded(new_game(client, name, first="0"), name)
    reply = client.get(f"/games/{name}/odds")
    assert reply.status == 200, reply.error
    assert "Chance to go out next turn" in reply.text


@pytest.mark.parametrize(
    ("action", "fields", "words"),
    [
        ("drew", {"seat": "0"}, "seat: a whole number from 1"),
        ("drew", {"seat": "3"}, "got seat 3"),
        ("drew", {"seat": "x"}, "seat: a whole number"),
        ("table", {"seat": "1", "table": "r1 r2"}, "table meld"),
        ("table", {"seat": "1", "table": "9+ r5"}, "meld"),
        ("table", {"seat": "1", "table": ""}, "laid nothing"),
        ("draw", {"tile": "zz"}, "tile: not a tile"),
        ("draw", {"tile": "r5 r6"}, "one tile drawn"),
        ("play", {"table": "r3 r4 r5"}, ""),
        ("score", {"rack1": "r1"}, "not over"),
        ("round", {"rack": RACK}, "not scored"),
        ("redo", {}, "nothing to redo"),
        ("pass", {}, "the pool still holds"),
        ("placed", {"seat": "1", "placed": "zz"}, "placed: not a tile"),
    ],
)
def test_junk_taps_record_nothing(
    client: Client, games_dir: Path, action: str, fields: dict[str, str], words: str
) -> None:
    name = f"pages-junk-{action}"
    if not (games_dir / f"{name}.jsonl").exists():
        recorded(new_game(client, name), name)
    before = events(games_dir, name)
    reply = tap(client, name, action, **fields)
    assert reply.status == 400, (reply.status, reply.error)
    assert words in reply.error and "Traceback" not in reply.text
    assert events(games_dir, name) == before


def test_a_stale_page_records_nothing(client: Client, games_dir: Path) -> None:
    name = "pages-stale"
    recorded(new_game(client, name), name)
    seen = seen_of(game(client, name))
    recorded(client.post(f"/games/{name}/drew", {"seat": "1", "seen": seen}), name)
    again = client.post(f"/games/{name}/drew", {"seat": "1", "seen": seen})  # a double tap
    refused(again, 409, "changed since this page showed it")
    assert [e["event"] for e in events(games_dir, name)] == ["new", "drew"]


def test_pass_when_the_pool_is_empty(client: Client, games_dir: Path) -> None:
    name = "pages-pass"
    rules = "colours=2 numbers=3 copies=1 jokers=0 rack_size=3"  # 6 tiles, all dealt
    made = new_game(client, name, players="2", first="0", rack="k1 b2 k3", rules=rules)
    recorded(made, name)
    page = game(client, name)
    assert "Pass (the pool is empty)" in page.text
    assert page.text.count('class="key tile') == 6  # the keyboard of these rules
    recorded(tap(client, name, "pass"), name)
    assert events(games_dir, name)[-1] == {"event": "pass"}


def test_undo_at_the_start(client: Client) -> None:
    name = "pages-undo"
    recorded(new_game(client, name), name)
    page = game(client, name)
    assert re.search(r'id="undo"\s+disabled', page.text)
    refused(tap(client, name, "undo"), 400, "nothing to undo")


def test_score_and_next_round(client: Client, games_dir: Path) -> None:
    name = "pages-score"
    rack = "r10 r11 r12 k1 k2 k3"
    recorded(new_game(client, name, players="2", first="0", rack=rack, rules="rack_size=6"), name)
    best = client.get(f"/games/{name}/best")
    assert "You go out!" in best.text
    table = re.search(r'name="table" value="([^"]+)"', best.text)
    assert table
    recorded(
        client.post(f"/games/{name}/play", {"seen": seen_of(best), "table": table.group(1)}), name
    )
    page = game(client, name)
    assert "Score the round" in page.text
    refused(client.get(f"/games/{name}/best"), 400, "no move to look for")
    refused(client.get(f"/games/{name}/odds"), 400, "no odds to work out")
    refused(tap(client, name, "score", rack1="b1 b2"), 400, "holds 6 tiles")
    recorded(tap(client, name, "score", rack1="b1 b2 b3 b4 b5 j"), name)
    page = game(client, name)
    assert "Round 1 scored" in page.text and "+45" in page.text and "-45" in page.text
    # A rack of the wrong size is refused with the form as it was typed (found by review:
    # "Plays first" went back to you, and the corrected deal recorded the wrong seat).
    wrong = tap(client, name, "round", rack="o1 o2 o3", first="1")
    refused(wrong, 400, "your rack holds 3 tiles")
    assert '<option value="1" selected>' in wrong.text and "o1 o2 o3" in wrong.text
    recorded(tap(client, name, "round", rack="o1 o2 o3 o4 o5 o6", first="1"), name)
    assert "round 2" in game(client, name).text
    assert events(games_dir, name)[-1]["first"] == 1


# --- advice -----------------------------------------------------------------------------------


@pytest.mark.slow
def test_advice_runs_off_the_request_path(client: Client) -> None:
    name = "pages-advice"
    recorded(new_game(client, name, first="0"), name)
    started = time.monotonic()
    reply = client.post(f"/games/{name}/advise", {"seconds": "1"})
    assert reply.status == 303 and reply.location.startswith("/advice/")
    assert time.monotonic() - started < 5  # answered before the advice is done
    page = client.get(reply.location)
    assert page.status == 200 and ('id="progress"' in page.text or "Recommended" in page.text)
    state = client.get(reply.location + ".json").json()
    while not state["done"]:
        assert 0 <= state["progress"] <= 1
        assert time.monotonic() - started < 120
        time.sleep(0.2)
        state = client.get(reply.location + ".json").json()
    assert state["error"] is None and state["advice"]["candidates"]
    page = client.get(reply.location)
    assert "Recommended:" in page.text and "<table" in page.text
    assert "it has moved on since" not in page.text
    recorded(tap(client, name, "draw", tile="r5"), name)
    assert "it has moved on since" in client.get(reply.location).text


def test_advice_cancel(client: Client) -> None:
    name = "pages-advice-cancel"
    recorded(new_game(client, name, first="0"), name)
    reply = client.post(f"/games/{name}/advise", {"seconds": "60"})
    job = reply.location
    cancelled = client.post(job + "/cancel", {})
    assert cancelled.status == 303
    deadline = time.monotonic() + 10
    state = client.get(job + ".json").json()
    while not state["done"]:
        assert time.monotonic() < deadline, "a cancel ends the run within seconds"
        time.sleep(0.1)
        state = client.get(job + ".json").json()
    assert state["cancelled"] and state["advice"] is None
    assert "Cancelled." in client.get(job).text


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"seconds": "0"}, "seconds: more than 0"),
        ({"seconds": "9999"}, "at most"),
        ({"model": "nobody"}, "model: one of"),
        ({"seed": "-1"}, "seed: a whole number"),
    ],
)
def test_advice_junk(client: Client, fields: dict[str, str], words: str) -> None:
    name = "pages-advice-junk"
    new_game(client, name, first="0")  # once; later it is refused as taken
    refused(client.post(f"/games/{name}/advise", fields), 400, words)


def test_advice_of_no_game(client: Client) -> None:
    refused(client.post("/games/nosuch/advise", {}), 404, "no game named 'nosuch'")


def test_unknown_advice_run(client: Client) -> None:
    refused(client.get("/advice/nosuchrun"), 404, "no such advice run")
    refused(client.get("/advice/nosuchrun.json"), 404, "no such advice run")


# --- the rest ---------------------------------------------------------------------------------


def test_assets_are_served_by_the_app(client: Client) -> None:
    page = client.get("/solve")
    for asset in re.findall(r'(?:href|src)="(/static/[^"]+)"', page.text):
        assert client.get(asset).status == 200, asset
    assert "http://" not in page.text and "https://" not in page.text  # nothing from a CDN
    assert page.headers["content-security-policy"].startswith("default-src 'self'")


def test_unknown_pages_and_methods(client: Client) -> None:
    refused(client.get("/nowhere"), 404, "no page at /nowhere")
    refused(client.request("DELETE", "/games"), 405, "DELETE is not how /games is used")
    refused(client.request("PUT", "/api/solve", b"{}"), 405, "PUT is not how")


def test_placed_waits_for_a_free_solve_slot(tmp_path: Path) -> None:
    # Laying out an opponent's tiles is a solve: with every core's slot taken by other
    # solves it waits, rather than adding one more solve to the cores.
    from rummikub.game.events import NewGame
    from rummikub.models.notation import parse_tiles
    from rummikub.models.rules import RuleSet
    from rummikub.web.game_page import _maker
    from rummikub.web.state import WebState

    web = WebState.of_config(WebConfig(games_dir=str(tmp_path)))
    web.solves = threading.BoundedSemaphore(1)
    start = NewGame(3, tuple(parse_tiles(RACK)), RuleSet(), first=1)
    state = web.desk.create("slot", start).history.state
    make = _maker("placed", {"seat": "1", "placed": "r10 r11 r12"}, [], web)
    made: list[object] = []
    web.solves.acquire()
    worker = threading.Thread(target=lambda: made.append(make(state)))
    worker.start()
    worker.join(0.5)
    assert worker.is_alive() and not made  # waiting for the slot
    web.solves.release()
    worker.join(30)
    assert made and sorted(map(str, made[0].placed)) == ["r10", "r11", "r12"]  # type: ignore[attr-defined]
