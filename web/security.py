"""Who may ask and what they may send: the access token, the Host check, cross-site
requests, request sizes, and the forms' anti-forgery token.

:class:`Gate` wraps the whole app (every request, assets included) and refuses with one
readable line before any route runs. The anti-forgery token of a form is the
"double-submit" kind: a random value in a cookie that only this site's pages can read and
send back in the form (:func:`read_form`).
"""

from __future__ import annotations

import hmac
import html
import secrets
from collections.abc import Mapping
from urllib.parse import urlencode, urlsplit

from starlette.datastructures import FormData, Headers, QueryParams
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rummikub.models.errors import InternalError
from rummikub.web.config import WebConfig, is_loopback
from rummikub.web.errors import Refused, refusal

ACCESS_COOKIE = "rummikub_access"
CSRF_COOKIE = "rummikub_csrf"
CSRF_FIELD = "csrf"
CSRF_HEADER = "x-csrf-token"
# What programs read, not pages: a ?token= there is answered, not traded for a cookie.
PROGRAM_PATHS = ("/api/", "/openapi.json")
MAX_BODY_BYTES = 1_000_000  # as the command line's input: a legal position is about 1 KB
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
YEAR = 365 * 24 * 3600


def new_token() -> str:
    """A random token (128 bits, URL-safe)."""
    return secrets.token_urlsafe(16)


def _same(given: str | None, expected: str) -> bool:
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())


def _bearer(headers: Headers) -> str | None:
    scheme, _, value = headers.get("authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" else None


def _host_name(host: str) -> str:
    """The name in a ``Host`` header, without its port (``[::1]`` kept in brackets)."""
    if host.startswith("["):
        return host.split("]", 1)[0] + "]"
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class Gate:
    """Refuse, before any route: a body over :data:`MAX_BODY_BYTES` (413), a ``Host`` that
    is not loopback on a loopback server (400), a request without the access token when
    the server has one (401), and a state-changing request from another site (403)."""

    def __init__(self, app: ASGIApp, config: WebConfig) -> None:
        self.app = app
        self.config = config

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            early = self._check(scope)
        except Refused as refused:
            await refusal(scope, refused)(scope, receive, send)
            return
        if early is not None:
            await early(scope, receive, send)
            return
        await self.app(scope, _limited(receive), send)

    def _check(self, scope: Scope) -> Response | None:
        headers = Headers(scope=scope)
        length = headers.get("content-length", "0")
        if not length.isdigit():
            raise Refused(400, f"Content-Length is not a number: {length[:20]!r}")
        if int(length) > MAX_BODY_BYTES:
            raise Refused(413, f"the request is larger than {MAX_BODY_BYTES} bytes")
        if self.config.loopback:
            host = _host_name(headers.get("host", "")).lower()
            if not is_loopback(host):
                raise Refused(400, f"this server answers on loopback only, not as {host[:60]!r}")
        if self.config.token is not None:
            early = self._access(scope, headers)
            if early is not None:
                return early
        if scope["method"] not in SAFE_METHODS:
            _same_site(headers)
        return None

    def _access(self, scope: Scope, headers: Headers) -> Response | None:
        """None when the request carries the token; a redirect that trades a token in the
        address of a page for a cookie (so it leaves the address bar); else refused."""
        token = self.config.token
        if token is None:
            raise InternalError("the token check ran on a server without a token")
        query = QueryParams(scope.get("query_string", b"").decode("latin-1"))
        cookies = Request(scope).cookies
        if _same(cookies.get(ACCESS_COOKIE), token) or _same(_bearer(headers), token):
            return None
        if not _same(query.get("token"), token):
            raise Refused(
                401,
                "this server needs its access token: open the address 'rummikub serve' "
                "printed (it ends in ?token=...)",
            )
        if scope["method"] != "GET" or scope["path"].startswith(PROGRAM_PATHS):
            return None  # a program that passes ?token= each time
        rest = urlencode([(k, v) for k, v in query.multi_items() if k != "token"])
        path = "/" + scope["path"].lstrip("/")  # '//elsewhere' would leave this server
        landing = _landing(path + (f"?{rest}" if rest else ""))
        landing.set_cookie(ACCESS_COOKIE, token, max_age=YEAR, httponly=True, samesite="strict")
        return landing


def _landing(address: str) -> HTMLResponse:
    """A page that goes on to ``address`` at once: not a redirect, since a browser sends no
    SameSite=Strict cookie along a redirect from a link on another site (webmail, a chat),
    nor on reloads of that page; a step this page takes is of this site."""
    target = html.escape(address, quote=True)
    body = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="referrer" content="no-referrer">'
        f'<meta http-equiv="refresh" content="0; url={target}"><title>rummikub</title></head>'
        f'<body><p><a href="{target}">Continue</a></p></body></html>'
    )
    return HTMLResponse(body, headers={"Cache-Control": "no-store"})


def _same_site(headers: Headers) -> None:
    """Refuse a state-changing request that a page of another site sent."""
    if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        raise Refused(403, "a request from another site is refused")
    origin = headers.get("origin")
    if origin is not None and origin != "null":
        if urlsplit(origin).netloc.lower() != headers.get("host", "").lower():
            raise Refused(403, f"a request from another site ({origin[:60]}) is refused")
    elif origin == "null":
        raise Refused(403, "a request from a page without an origin is refused")


def _limited(receive: Receive) -> Receive:
    """``receive`` that refuses a body growing past :data:`MAX_BODY_BYTES` (a body sent
    without its length)."""
    seen = 0

    async def limited() -> Message:
        """The next message, once its body is counted."""
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > MAX_BODY_BYTES:
                raise Refused(413, f"the request is larger than {MAX_BODY_BYTES} bytes")
        return message

    return limited


def csrf_token(request: Request) -> str:
    """This browser's anti-forgery token (a new one when it has none yet; :func:`remember`
    sends it with the page)."""
    token = request.cookies.get(CSRF_COOKIE)
    if token and len(token) < 100:
        return token
    cached: str | None = getattr(request.state, "csrf", None)
    if cached is None:
        cached = new_token()
        request.state.csrf = cached
    return cached


def remember(request: Request, response: Response) -> None:
    """Send the anti-forgery cookie with a page that made a new token."""
    made: str | None = getattr(request.state, "csrf", None)
    if made is not None:
        response.set_cookie(CSRF_COOKIE, made, max_age=YEAR, httponly=True, samesite="strict")


async def read_form(request: Request) -> Mapping[str, str]:
    """The fields of a posted form once its anti-forgery token matches the cookie's
    (403 otherwise); files are refused (no form here takes one)."""
    form: FormData = await request.form(max_files=0, max_fields=100)
    cookie = request.cookies.get(CSRF_COOKIE)
    given = form.get(CSRF_FIELD) or request.headers.get(CSRF_HEADER)
    if cookie is None or not isinstance(given, str) or not _same(given, cookie):
        raise Refused(
            403, "this form's security token is missing or stale: reload the page and send again"
        )
    fields: dict[str, str] = {}
    for key, value in form.multi_items():
        if not isinstance(value, str):
            raise Refused(400, f"field {key[:40]!r}: no file is taken here")
        fields[key] = value
    return fields
