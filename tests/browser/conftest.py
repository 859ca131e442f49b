"""A real server, a real browser: the fixtures of the dashboard's browser tests.

* one database for the whole session, seeded once with a bot season (``seed.py``);
* the API app (``services.api.create_app``, which mounts the dashboard at ``/``) under uvicorn
  in a thread of its own on a free loopback port, so it keeps serving whatever the test's event
  loop is doing;
* headless Chromium from Debian's ``chromium`` package, driven by Playwright (never Playwright's
  own browser download, which this machine cannot fetch); a fresh profile per session.

Every browser test belongs to the ``browser`` xdist group, so one worker seeds and serves once.
"""

from __future__ import annotations

import asyncio
import shutil
import socket
import tempfile
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import httpx
import pytest
import uvicorn
from playwright.async_api import Browser, BrowserContext, Page, Playwright, async_playwright

from bang_cli.accounts import create_invite
from infra.postgres import ResolvedPostgres, create_database, drop_database
from services.accounts.settings import AccountSettings
from services.api import ApiSettings, create_app
from services.api.settings import DatabaseSettings, LimitSettings, RedisSettings, ServerSettings
from services.game.application.codec import GAME_MAPPER
from services.runtime.consumers import run_consumers
from services.runtime.context import open_context
from services.runtime.projections import registered, select
from tests.browser.seed import Season, seed_season

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
# CI runs two test workers on two cores, and this server shares its process with the browser driver
# and the consumers: a page that answers in well under a second alone was seen to take over 15 s
PAGE_TIMEOUT_MS = 30_000


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # One worker runs them all: the season is seeded and the server started once.
    for item in items:
        if Path(str(item.fspath)).parent == Path(__file__).parent:
            item.add_marker(pytest.mark.xdist_group("browser"))


@pytest.fixture(scope="session")
async def browser_dsn(resolved_postgres: ResolvedPostgres) -> AsyncIterator[str]:
    dsn = await create_database(resolved_postgres.dsn, prefix="browser")
    yield dsn
    await drop_database(resolved_postgres.dsn, dsn)


@pytest.fixture(scope="session")
async def season(browser_dsn: str, redis_url: str) -> Season:
    pool = await asyncpg.create_pool(browser_dsn, min_size=1, max_size=4)
    assert pool is not None
    try:
        return await seed_season(pool, redis_url)
    finally:
        await pool.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def base_url(browser_dsn: str, redis_url: str, season: Season) -> Iterator[str]:
    """The API app with the dashboard, served by uvicorn in its own thread and event loop."""
    settings = ApiSettings(
        database=DatabaseSettings(url=browser_dsn, pool_min_size=1, pool_max_size=6),
        redis=RedisSettings(url=redis_url),
        server=ServerSettings(fanout_poll_seconds=1.0),
        # one browser is one client: a budget no test reaches (the limiter stays on)
        limits=LimitSettings(rate_limit="1000000/second", anonymous_rate_limit="1000000/second"),
    )
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(settings), host="127.0.0.1", port=port, log_level="warning", ws="websockets-sansio"
        )
    )
    thread = threading.Thread(target=server.run, name="dashboard-server", daemon=True)
    thread.start()
    for _ in range(1_000):
        if server.started or not thread.is_alive():
            break
        threading.Event().wait(0.01)
    assert server.started, "uvicorn did not start the API app"
    consumers = _Consumers(browser_dsn, redis_url)
    yield f"http://127.0.0.1:{port}"
    consumers.stop()
    server.should_exit = True
    thread.join(timeout=15)


class _Consumers:
    """The standings, ratings and directory consumers (as `bang-league consume` runs them), following
    the store in a thread of their own for the whole session, so the pages show a game played in
    the browser once it ends (seed.py ran them once, for the seeded season)."""

    NAMES = ("league-standings", "ratings", "directory")

    def __init__(self, dsn: str, redis_url: str) -> None:
        self._loop = asyncio.new_event_loop()
        self._stop = asyncio.Event()
        self._thread = threading.Thread(
            target=self._loop.run_until_complete, args=(self._run(dsn, redis_url),), name="consumers"
        )
        self._thread.daemon = True
        self._thread.start()

    async def _run(self, dsn: str, redis_url: str) -> None:
        async with open_context(dsn, redis_url, mapper=GAME_MAPPER, max_connections=4) as context:
            await run_consumers(context, select(registered(), self.NAMES), self._stop)

    def stop(self) -> None:
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout=15)


@pytest.fixture(scope="session")
async def playwright() -> AsyncIterator[Playwright]:
    async with async_playwright() as running:
        yield running


@pytest.fixture(scope="session")
async def browser(playwright: Playwright, base_url: str) -> AsyncIterator[BrowserContext]:
    """Chromium with a fresh profile directory (Playwright takes it as ``user_data_dir``, not as a
    ``--user-data-dir`` argument), thrown away at the end of the session."""
    assert CHROMIUM.exists(), (
        "Debian's chromium is missing: `make setup` installs it (apt-get install chromium)"
    )
    profile = Path(tempfile.mkdtemp(prefix="bang-chromium-"))
    try:
        context = await playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_ARGS,
            base_url=base_url,
            viewport={"width": 1280, "height": 900},
        )
        context.set_default_timeout(PAGE_TIMEOUT_MS)
        yield context
        await context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="session")
async def chromium(playwright: Playwright, base_url: str) -> AsyncIterator[Browser]:
    """A second Chromium whose contexts share nothing (cookies, storage): one per person when
    several people use the site at once (``person_page``)."""
    assert CHROMIUM.exists(), (
        "Debian's chromium is missing: `make setup` installs it (apt-get install chromium)"
    )
    launched = await playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
    )
    yield launched
    await launched.close()


@pytest.fixture
async def page(browser: BrowserContext) -> AsyncIterator[Page]:
    """A new tab per test; a JavaScript error on the page, or anything the API's
    Content-Security-Policy refused (services/api/headers.py), fails the test."""
    opened = await browser.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on("console", lambda message: errors.extend(refused_by_the_policy(message.text)))
    yield opened
    await opened.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def refused_by_the_policy(console_text: str) -> list[str]:
    """Chromium's console line for whatever the Content-Security-Policy blocked, if this is one."""
    return [console_text] if "Content Security Policy" in console_text else []


async def screenshot(page: Page, name: str) -> Path:
    """Save a full-page screenshot as a test artefact (test-artifacts/ is gitignored)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    return path


PASSWORD = "correct horse battery"
"""Every test person's password: what they type on the sign-in page."""

# argon2id with small parameters: the tests check who may do what, not how slow a guess is
TEST_ARGON2 = AccountSettings(argon2_time_cost=1, argon2_memory_kib=8 * 1024, argon2_parallelism=1)


@dataclass(frozen=True, slots=True)
class Person:
    account_id: str
    login: str
    display_name: str
    token: str
    """A session of their own, for the API calls a test makes on their behalf (not the page's)."""

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


@pytest.fixture(scope="session")
def people(base_url: str, browser_dsn: str) -> Callable[[str, str], Awaitable[Person]]:
    """``await people("rosa", "Rosa Quick")``: an account with ``PASSWORD``, made the way the
    operator makes the first one (``bang-league accounts invite``), then accepted over HTTP."""

    async def make(login: str, display_name: str) -> Person:
        settings = ApiSettings(database=DatabaseSettings(url=browser_dsn))
        issued = await create_invite(settings, display_name, login, TEST_ARGON2)
        async with httpx.AsyncClient(base_url=base_url) as client:
            response = await client.post(
                f"/accounts/invites/{issued.token}/accept", json={"login": login, "password": PASSWORD}
            )
        assert response.status_code == 201, response.text
        body = response.json()
        return Person(body["account"]["account_id"], login, display_name, body["token"])

    return make


@asynccontextmanager
async def person_page(chromium: Browser, base_url: str, name: str) -> AsyncIterator[Page]:
    """A page in a browser context of its own (its own storage, so its own session), phone or
    desktop sized; a JavaScript error on it, or anything the Content-Security-Policy refused,
    fails the test at the end."""
    context = await chromium.new_context(base_url=base_url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(PAGE_TIMEOUT_MS)
    opened = await context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on("console", lambda message: errors.extend(refused_by_the_policy(message.text)))
    requests = _RequestLog(opened)
    try:
        yield opened
    except Exception as failure:
        # CI keeps only the report: say where the page was, what it showed, what it asked of the
        # server and which script errors it met when the test failed
        failure.add_note(await _what_the_page_showed(opened, name))
        failure.add_note(f"{name}'s script errors: {errors or 'none'}")
        failure.add_note(f"{name}'s last requests:\n{requests}")
        raise
    finally:
        await context.close()
    assert not errors, f"JavaScript errors on {name}'s page: {errors}"


class _RequestLog:
    """The last requests a page made and how each ended, for a failed test's report."""

    def __init__(self, page: Page, keep: int = 25) -> None:
        self._lines: deque[str] = deque(maxlen=keep)
        self._started = time.monotonic()
        page.on("request", lambda r: self._add(f"asked {r.method} {r.url}"))
        page.on("requestfinished", lambda r: self._add(f"answered {r.method} {r.url}"))
        page.on("requestfailed", lambda r: self._add(f"failed {r.method} {r.url}: {r.failure}"))

    def _add(self, line: str) -> None:
        self._lines.append(f"{time.monotonic() - self._started:7.2f}s {line}")

    def __str__(self) -> str:
        return "\n".join(self._lines) or "(none)"


async def _what_the_page_showed(page: Page, name: str) -> str:
    try:
        shown = await page.locator("body").inner_text(timeout=2_000)
        await screenshot(page, f"failed-{name}")
    except Exception as unreadable:  # a closed page still leaves its URL
        shown = f"(unreadable: {unreadable})"
    return f"{name}'s page at {page.url} showed:\n{shown[:2_000]}"


async def sign_in(page: Page, person: Person) -> None:
    """Through the sign-in page, as a person would."""
    await page.goto("/#/signin")
    await page.get_by_label("Login name").fill(person.login)
    await page.get_by_label("Password").fill(PASSWORD)
    await page.get_by_role("button", name="Sign in").click()
    await page.get_by_test_id("signed-in-as").filter(has_text=person.display_name).wait_for()
