"""Who the web app answers: off loopback only requests carrying the access token; on
loopback only requests that name loopback (no other site can rebind its name to it);
state-changing requests only from its own pages; no body over the limit."""

from __future__ import annotations

import http.client
from collections.abc import Iterator

import pytest
from web_harness import Client, served

from rummikub.web.config import WebConfig

TOKEN = "test-token-1234567890"
POSITION = b'{"rack": ["r1", "r2", "r3"]}'


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Client]:
    """A server as ``--host 0.0.0.0`` runs it: a token, any Host."""
    config = WebConfig(games_dir=str(tmp_path_factory.mktemp("g")), token=TOKEN, loopback=False)
    with served(config) as web:
        yield web


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Client]:
    with served(WebConfig(games_dir=str(tmp_path_factory.mktemp("g")))) as web:
        yield web


def fresh(client: Client) -> Client:
    """Another browser of the same server: no cookies."""
    return Client(client.host, client.port)


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/"),
        ("GET", "/games"),
        ("GET", "/games/new"),
        ("GET", "/solve?rack=r1&go=1"),
        ("GET", "/static/app.css"),
        ("GET", "/static/app.js"),
        ("GET", "/openapi.json"),
        ("GET", "/api"),
        ("GET", "/nowhere"),
        ("POST", "/api/solve"),
        ("POST", "/api/check"),
        ("POST", "/games/new"),
        ("POST", "/games/x/drew"),
        ("GET", "/advice/x.json"),
    ],
)
@pytest.mark.parametrize(
    "credentials",
    [
        {},
        {"query": "wrong"},
        {"Authorization": "Bearer wrong"},
        {"Authorization": f"Basic {TOKEN}"},
        {"Cookie": "rummikub_access=wrong"},
        {"query": TOKEN[:-1]},
    ],
    ids=["none", "wrong-query", "wrong-bearer", "not-bearer", "wrong-cookie", "prefix"],
)
def test_nothing_answers_without_the_token(
    guarded: Client, method: str, path: str, credentials: dict[str, str]
) -> None:
    client = fresh(guarded)
    headers = {k: v for k, v in credentials.items() if k != "query"}
    if "query" in credentials:
        path += ("&" if "?" in path else "?") + f"token={credentials['query']}"
    reply = client.request(method, path, POSITION if method == "POST" else None, headers)
    assert reply.status == 401, (method, path, reply.status)
    assert "access token" in reply.error
    assert "rummikub_access" not in client.cookies


def test_the_token_in_the_address_becomes_a_cookie(guarded: Client) -> None:
    client = fresh(guarded)
    reply = client.get(f"/solve?rack=r1+r2+r3&token={TOKEN}")
    # A page that goes on at once (not a redirect: see test_web_browser's link from another
    # site), to the address without the token (out of sight).
    assert reply.status == 200 and reply.headers["cache-control"] == "no-store"
    assert '<meta http-equiv="refresh" content="0; url=/solve?rack=r1+r2+r3">' in reply.text
    assert TOKEN not in reply.text
    assert client.cookies["rummikub_access"] == TOKEN
    assert client.get("/solve?rack=r1+r2+r3").status == 200
    assert client.get("/static/app.css").status == 200
    form = client.post(
        "/games/new",
        {"name": "by-token", "rack": "r1 r2 r3", "rules": "rack_size=3", "players": "2"},
    )
    assert form.status == 303, form.error


def test_the_token_redirect_stays_on_this_server(guarded: Client) -> None:
    reply = fresh(guarded).get(f"//evil.example/x?token={TOKEN}")
    assert reply.status == 200 and 'content="0; url=/evil.example/x"' in reply.text
    quoted = fresh(guarded).get(f'/x?a="><script>&token={TOKEN}')
    assert "<script>" not in quoted.text  # the address is escaped in the page


def test_a_program_passes_the_token_each_time(guarded: Client) -> None:
    client = fresh(guarded)
    by_query = client.request("POST", f"/api/solve?token={TOKEN}", POSITION)
    assert by_query.status == 200 and by_query.json()["placed_count"] == 3
    by_header = client.request("POST", "/api/solve", POSITION, {"Authorization": f"Bearer {TOKEN}"})
    assert by_header.status == 200
    assert "rummikub_access" not in client.cookies
    document = client.get("/openapi.json", {"Authorization": f"Bearer {TOKEN}"}).json()
    assert document["security"]  # the document says so
    # Found by review: with ?token= the document came as the browser's landing page.
    assert fresh(guarded).get(f"/openapi.json?token={TOKEN}").json() == document


@pytest.mark.parametrize(
    ("host", "status"),
    [
        ("127.0.0.1", 200),
        ("localhost", 200),
        ("[::1]", 200),
        ("127.0.0.2", 200),
        ("evil.example", 400),
        ("192.168.1.5", 400),
        ("localhost.evil.example", 400),
        ("127.evil.example", 400),
        ("", 400),
    ],
)
def test_on_loopback_only_loopback_names(local: Client, host: str, status: int) -> None:
    client = fresh(local)
    client.host_header = f"{host}:{local.port}" if host else ""
    reply = client.get("/games")
    assert reply.status == status, (host, reply.status)
    if status == 400:
        assert "loopback only" in reply.error


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},  # another port of this machine is another site
    ],
)
def test_no_state_change_from_another_site(local: Client, headers: dict[str, str]) -> None:
    client = fresh(local)
    reply = client.post("/games/new", {"name": "from-afar", "rack": "r1 r2 r3"}, headers)
    assert reply.status == 403, reply.status
    assert "another site" in reply.error or "without an origin" in reply.error
    assert client.request("POST", "/api/solve", POSITION, headers).status == 403


def test_own_pages_may_post(local: Client) -> None:
    client = fresh(local)
    origin = f"http://127.0.0.1:{local.port}"
    headers = {"Origin": origin, "Sec-Fetch-Site": "same-origin", "Host": f"127.0.0.1:{local.port}"}
    reply = client.post("/games/new", {"name": "own-page", "rack": "r1"}, headers)
    assert reply.status == 400 and "rack" in reply.error  # past the gate, to the game's rules


def test_a_chunked_body_over_the_limit(local: Client) -> None:
    connection = http.client.HTTPConnection(local.host, local.port, timeout=30)
    chunks = (b"x" * 100_000 for _ in range(12))
    connection.request(
        "POST",
        "/api/solve",
        body=chunks,
        encode_chunked=True,
        headers={"Transfer-Encoding": "chunked"},
    )
    answer = connection.getresponse()
    assert answer.status == 413 and b"larger than" in answer.read()
    connection.close()


def test_every_answer_carries_the_security_headers(local: Client) -> None:
    for path in ("/games", "/solve", "/static/app.js", "/openapi.json", "/nowhere"):
        headers = local.get(path).headers
        assert "script-src 'self'" in headers["content-security-policy"], path
        assert headers["x-content-type-options"] == "nosniff"
