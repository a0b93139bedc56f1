"""The web app's tests' harness: the app served for real (uvicorn on a free loopback port,
in a thread), and a small HTTP client that keeps cookies and reads the form token, as a
browser would; nothing is mocked."""

from __future__ import annotations

import contextlib
import html
import http.client
import json
import re
import socket
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlencode

import uvicorn

from rummikub.web.app import create_app
from rummikub.web.config import WebConfig

CSRF = re.compile(r'name="csrf" value="([^"]+)"')
SEEN = re.compile(r'name="seen" value="([0-9a-f-]+)"')


@dataclass
class Reply:
    """One HTTP answer."""

    status: int
    headers: dict[str, str]
    text: str

    def json(self) -> Any:
        return json.loads(self.text)

    @property
    def location(self) -> str:
        return self.headers.get("location", "")

    @property
    def error(self) -> str:
        """The one line a refusal says (the page's alert, or the JSON's "error")."""
        if self.headers.get("content-type", "").startswith("application/json"):
            return str(self.json().get("error", ""))
        found = re.search(r'<p class="error" role="alert">(.*?)</p>', self.text, re.S)
        return html.unescape(found.group(1)) if found else ""


@dataclass
class Client:
    """An HTTP/1.1 client of one server that keeps its cookies (one browser)."""

    host: str
    port: int
    cookies: dict[str, str] = field(default_factory=dict)
    host_header: str | None = None

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Reply:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=120)
        sent = dict(headers or {})
        if self.host_header is not None:
            sent.setdefault("Host", self.host_header)
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            connection.request(method, path, body=body, headers=sent)
            answer = connection.getresponse()
            text = answer.read().decode("utf-8", errors="replace")
            for raw in answer.headers.get_all("set-cookie") or []:
                cookie = SimpleCookie(raw)
                self.cookies.update({k: m.value for k, m in cookie.items()})
            return Reply(answer.status, {k.lower(): v for k, v in answer.getheaders()}, text)
        finally:
            connection.close()

    def get(self, path: str, headers: Mapping[str, str] | None = None) -> Reply:
        return self.request("GET", path, headers=headers)

    def post(
        self,
        path: str,
        fields: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        token: bool = True,
    ) -> Reply:
        """A form POST; with ``token`` the form token of this client's cookie is sent."""
        data = dict(fields or {})
        if token and "csrf" not in data:
            data["csrf"] = self.csrf()
        sent = {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})}
        return self.request("POST", path, urlencode(data).encode(), sent)

    def post_json(self, path: str, body: object, headers: Mapping[str, str] | None = None) -> Reply:
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        sent = {"Content-Type": "application/json", **(headers or {})}
        return self.request("POST", path, raw, sent)

    def csrf(self) -> str:
        """The form token (read from a page first if this client has none yet)."""
        if "rummikub_csrf" not in self.cookies:
            page = self.get("/games")
            assert page.status == 200, page.text
        return self.cookies["rummikub_csrf"]


def seen_of(page: Reply) -> str:
    """The version of the game a game page's forms send."""
    found = SEEN.search(page.text)
    assert found, "a game page holds its game's version"
    return found.group(1)


def free_listener() -> socket.socket:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    return listener


@contextlib.contextmanager
def served(config: WebConfig) -> Iterator[Client]:
    """The app with ``config`` served on a free loopback port until the block ends; a
    client of it."""
    listener = free_listener()
    port = listener.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(create_app(config), log_level="warning", access_log=False, lifespan="on")
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield Client("127.0.0.1", port)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        listener.close()
