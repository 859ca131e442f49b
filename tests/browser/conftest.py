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

import shutil
import socket
import tempfile
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest
import uvicorn
from playwright.async_api import BrowserContext, Page, async_playwright

from infra.postgres import ResolvedPostgres, create_database, drop_database
from services.api import ApiSettings, create_app
from services.api.settings import DatabaseSettings, LimitSettings, RedisSettings, ServerSettings
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
PAGE_TIMEOUT_MS = 15_000


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
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=15)


@pytest.fixture(scope="session")
async def browser(base_url: str) -> AsyncIterator[BrowserContext]:
    """Chromium with a fresh profile directory (Playwright takes it as ``user_data_dir``, not as a
    ``--user-data-dir`` argument), thrown away at the end of the session."""
    assert CHROMIUM.exists(), (
        "Debian's chromium is missing: `make setup` installs it (apt-get install chromium)"
    )
    profile = Path(tempfile.mkdtemp(prefix="bang-chromium-"))
    try:
        async with async_playwright() as playwright:
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


@pytest.fixture
async def page(browser: BrowserContext) -> AsyncIterator[Page]:
    """A new tab per test; a JavaScript error on the page fails the test."""
    opened = await browser.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    await opened.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


async def screenshot(page: Page, name: str) -> Path:
    """Save a full-page screenshot as a test artefact (test-artifacts/ is gitignored)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    return path
