"""End to end in a real browser: Debian's headless Chromium, phone-sized (390x844), driven
by Playwright against ``rummikub serve`` as a user starts it. A short game is played by
taps only: a new game with its rack from the tile keyboard, an opponent's tiles put down
(``placed``), the best move, "I played it", undo and redo, the score; then advice (with
its cancel), the odds, the Solve page and the API page. A screenshot of each page goes to
``build/screenshots/`` (``RUMMIKUB_SCREENSHOTS`` names another folder: ``docs/screenshots``
refreshes the ones the docs page shows)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="pip install playwright")
from playwright.sync_api import Page, ViewportSize, sync_playwright

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(
        "Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True
    )

# The screenshots of a run go to build/screenshots/ (not kept by git); the docs' copies
# are refreshed with RUMMIKUB_SCREENSHOTS=docs/screenshots (a run's timings and folders
# would change them on every run).
ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(os.environ.get("RUMMIKUB_SCREENSHOTS") or ROOT / "build" / "screenshots")
PHONE = ViewportSize(width=390, height=844)
# As the machine notes say: no sandbox as root, no GPU, and no background connections
# (this machine's network refuses them).
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# A rack that goes out in one move; an opponent's opening; what the opponent keeps.
RACK = ["r1", "r2", "r3", "r4", "r5", "b6", "b7", "b8", "k9", "k10", "k11", "o11", "b11", "r11"]
OPPONENT_OPENS = ["k13", "b13", "o13"]
THINKING = ["r3", "r4", "k9", "b9", "o9", "j", "k1", "k2", "b5", "b6", "o11", "o12", "r13", "k13"]
OPPONENT_KEEPS = ["k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "b1", "b2", "b3"]


@contextmanager
def serving(tmp_path: Path, *options: str) -> Iterator[str]:
    """``rummikub serve`` on a free port, with a games folder of its own: the address it
    prints (with ``?token=...`` off loopback); Ctrl-C at the end."""
    process = subprocess.Popen(
        [sys.executable, "-m", "rummikub.cli", "serve", "--port", "0", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "RUMMIKUB_GAMES_DIR": str(tmp_path / "games")},
    )
    assert process.stdout is not None
    found = re.search(r"Serving on (http://\S+)", process.stdout.readline())
    try:
        assert found, process.stderr.read() if process.stderr else ""
        yield found.group(1)
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=20)


@pytest.fixture
def address(tmp_path: Path) -> Iterator[str]:
    """``rummikub serve`` on loopback (no token)."""
    with serving(tmp_path) as printed:
        yield printed.rstrip("/")


@pytest.mark.slow
def test_the_token_address_opened_from_a_link_on_another_site(tmp_path: Path) -> None:
    """The address 'rummikub serve --host 0.0.0.0' prints, sent to oneself and tapped in
    webmail or a chat: found by review, a redirect there lost the SameSite=Strict cookie
    it set (the browser sends none along a redirect from another site, nor on reload), and
    the phone landed on 401."""
    with serving(tmp_path, "--host", "0.0.0.0") as printed:
        token = re.search(r"/(\?token=\S+)$", printed)
        assert token, printed
        address = f"http://127.0.0.1:{printed.split(':')[2].split('/')[0]}/{token.group(1)}"
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            page = browser.new_page(viewport=PHONE)
            page.set_default_timeout(30_000)
            try:
                link = f'<a id="go" href="{address}">my rummikub</a>'
                page.route("http://mail.example/**", lambda route: route.fulfill(body=link))
                page.goto("http://mail.example/inbox")
                page.click("#go")
                page.wait_for_url("**/games")
                assert "token" not in page.url and page.locator("text=New game").count()
                page.reload()
                assert page.locator("text=New game").count()
            finally:
                browser.close()


def tap_tiles(page: Page, keyboard: str, tiles: list[str]) -> None:
    for tile in tiles:
        page.locator(f'{keyboard} button[data-tile="{tile}"]').click()


def shot(page: Page, name: str, at: str | None = None) -> None:
    """A phone-screen screenshot, scrolled to ``at`` when given."""
    if at is not None:  # at the top of the screen, under the page's bar
        page.locator(at).first.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(200)  # the last taps' flash fades
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def _left(page: Page, tile: str) -> str:
    """The copies left that a key of the Solve page's keyboard shows."""
    return page.locator(f'#solve-form button[data-tile="{tile}"] .left').inner_text()


@pytest.mark.slow
def test_a_short_game_by_taps_on_a_phone(address: str) -> None:
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport=PHONE, device_scale_factor=1)
        page.set_default_timeout(30_000)
        try:
            _play(page, address)
            _the_other_pages(page, address)
        finally:
            browser.close()


def _play(page: Page, address: str) -> None:
    page.goto(address)
    assert page.url.endswith("/games")
    page.click("text=New game")
    page.select_option("select[name=players]", "2")
    page.select_option("select[name=first]", "1")
    tap_tiles(page, "#new-game", RACK)
    assert page.input_value("#rack") == " ".join(RACK)
    assert page.locator('#new-game button[data-tile="r11"] .left').inner_text() == "1"
    shot(page, "new-game", at="#new-game")
    page.click("#start")
    page.wait_for_url("**/games/game-1")
    assert page.locator(".status").inner_text().startswith("opponent 1 to play")
    tap_tiles(page, "form[action$='/placed']", OPPONENT_OPENS)
    assert page.input_value("#placed") == "k13 b13 o13"
    shot(page, "game-opponent", at="section.actions")
    page.click("#placed-button")
    page.wait_for_selector("text=Your turn")
    assert page.locator("svg.picture .meld-number").count() == 1  # their set is on the table
    shot(page, "game-your-turn")
    page.click("#best")
    page.wait_for_selector("#played")
    assert "You go out!" in page.locator(".headline").inner_text()
    shot(page, "best-move")
    page.click("#played")
    page.wait_for_selector("text=Score the round")
    page.click("#undo")
    page.wait_for_selector("text=Your turn")
    page.click("#redo")
    page.wait_for_selector("text=Score the round")
    tap_tiles(page, "form[action$='/score']", OPPONENT_KEEPS)
    shot(page, "score", at="section.actions")
    page.click("#score")
    page.wait_for_selector("text=Round 1 scored")
    assert "+" in page.locator("ul.scores").inner_text()
    shot(page, "scored", at="section.actions")


def _the_other_pages(page: Page, address: str) -> None:
    page.goto(f"{address}/games/new")
    tap_tiles(page, "#new-game", THINKING)  # not out in one move: advice has to think
    page.click("#start")
    page.wait_for_url("**/games/game-2")
    page.click("#advise")
    page.wait_for_timeout(1500)  # the bar follows the run
    assert float(page.locator("#progress").evaluate("bar => bar.value")) > 0.05
    shot(page, "advice")
    page.click("#cancel")
    page.wait_for_selector("text=Cancelled.")
    page.goto(f"{address}/games/game-2/odds")
    assert "Chance to go out" in page.content()
    shot(page, "odds")
    page.goto(f"{address}/games")
    assert page.locator("ul.games li").count() == 2
    shot(page, "games")
    page.goto(f"{address}/solve")
    page.click("#table")
    tap_tiles(page, "#solve-form", ["k1", "k2", "k3", "k4"])
    page.click('#solve-form [data-key="meld"]')
    page.locator("#table").press("End")
    page.keyboard.type(" o9-11")  # typed notation, counted on the keys too
    assert page.input_value("#table") == "k1 k2 k3 k4 | o9-11"
    assert _left(page, "k2") == "1" and _left(page, "o10") == "1"
    page.click("#rack")
    tap_tiles(page, "#solve-form", ["o8", "k5", "j", "b2", "j"])
    assert page.locator('#solve-form button[data-tile="j"]').is_disabled()  # both jokers used
    page.click("button[name=go]")
    page.wait_for_selector(".move .headline")
    assert "You go out!" in page.locator(".move .headline").inner_text()
    shot(page, "solve", at=".move")
    page.goto(f"{address}/api")
    shot(page, "api")
