"""No game stalls, in the browser (issue 22, item 2): an online league game seated with a member
who has no login. The organiser's league page warns (he has no login; the game has waited past
the time for a decision); the organiser sends him a login link and he sets his login through
it; a seat runs out of time (the server plays its default, as the deadlines consumer does) and
the organiser replaces it, by name, with a substitute who then plays it from his own page."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg
import httpx
from playwright.async_api import Browser, Page, expect

from event_store import PostgresEventStore
from services.game.application.codec import GAME_MAPPER
from services.game.application.deadlines import Sweeper, deadlines_subscription
from services.game.application.service import GameService
from services.game.fairness.vault import SeedVault
from tests.browser.conftest import PASSWORD, Person, person_page, sign_in
from tests.browser.playing import HTTP_TIMEOUT, click_first_option, deciding_page, open_play, version_of

PREFIX = "stall"
LEAGUE, SEASON, TOURNAMENT = f"{PREFIX}_league", f"{PREFIX}_season", f"{PREFIX}_cup"
MAX_MOVES = 400


async def _post(client: httpx.AsyncClient, path: str, who: Person, body: dict[str, Any] | None = None) -> Any:
    response = await client.post(path, json=body or {}, headers=who.auth)
    assert response.status_code < 300, f"POST {path}: {response.status_code} {response.text}"
    return response.json()


async def _league_with_tuco(
    base_url: str, organiser: Person, players: list[Person], sub: Person
) -> tuple[str, str]:
    """A club of ``players``, ``sub`` and Tuco (registered by name: no login), a league whose
    decisions have 1 second, Tuco and the players seated at one table, its game online."""
    async with httpx.AsyncClient(base_url=base_url, timeout=HTTP_TIMEOUT) as client:
        club = (await _post(client, "/clubs", organiser, {"name": "Stalled Saloon"}))["club_id"]
        for player in [*players, sub]:
            invite = await _post(
                client, f"/clubs/{club}/invites", organiser, {"display_name": player.display_name}
            )
            await _post(client, invite["accept_path"], player)
        tuco = (await _post(client, f"/clubs/{club}/members", organiser, {"display_name": "Tuco Ramírez"}))[
            "member_id"
        ]
        founding = {"league_id": LEAGUE, "name": "Stalled League", "decision_seconds": 1}
        await _post(client, f"/clubs/{club}/leagues", organiser, founding)
        await _post(client, f"/leagues/{LEAGUE}/seasons", organiser, {"season_id": SEASON, "name": "Season"})
        table = [tuco, *(p.account_id for p in players)]
        await _post(client, f"/leagues/{LEAGUE}/seasons/{SEASON}/entrants", organiser, {"member_ids": table})
        tournament = {"tournament_id": TOURNAMENT, "name": "Cup"}
        await _post(client, f"/leagues/{LEAGUE}/seasons/{SEASON}/tournaments", organiser, tournament)
        await _post(
            client, f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds", organiser, {"tables": [table]}
        )
        rounds = f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds/1/tables/1/game"
        scheduled = await _post(client, rounds, organiser, {"mode": "online"})
    assert [m["display_name"] for m in scheduled["without_login"]] == ["Tuco Ramírez"]
    return scheduled["game_id"], tuco


async def _time_out(dsn: str) -> int:
    """What the deployment's deadlines consumer does: play the defaults that fell due."""
    pool = await asyncpg.create_pool(dsn, min_size=1, max_size=2)
    assert pool is not None
    try:
        store = PostgresEventStore(pool, mapper=GAME_MAPPER)
        await deadlines_subscription(store).run_until_idle()
        report = await Sweeper(pool, GameService(store, SeedVault(pool))).sweep()
        return len(report.applied)
    finally:
        await pool.close()


async def _warnings(page: Page) -> str:
    return await page.get_by_test_id("game-warnings").inner_text()


async def _open_league(page: Page) -> None:
    """The organiser's league page, read afresh (the same address again is loaded again)."""
    if page.url.endswith(f"#/league/{LEAGUE}"):
        await page.reload()
    else:
        await page.goto(f"/#/league/{LEAGUE}")
    await page.get_by_test_id("game-seats").locator("[data-testid=game-seat]").first.wait_for()


async def _league_page_until(page: Page, words: str) -> None:
    """The organiser's league page, reloaded until its game's warnings say ``words``."""
    for _ in range(20):
        await _open_league(page)
        warnings = page.get_by_test_id("game-warnings")
        await warnings.wait_for()
        if words in await warnings.inner_text():
            return
        await page.wait_for_timeout(500)
    raise AssertionError(f"the league page never warned {words!r}: {await _warnings(page)}")


async def test_a_stalled_league_game_is_warned_of_its_member_gets_a_login_and_its_seat_is_replaced(
    chromium: Browser,
    base_url: str,
    browser_dsn: str,
    people: Callable[[str, str], Awaitable[Person]],
) -> None:
    organiser = await people("stall_olive", "Olive Stall")
    players = [
        await people(f"stall_p{i}", name) for i, name in enumerate(("Ada Stall", "Bart Stall", "Cal Stall"))
    ]
    sub = await people("stall_sam", "Sam Sub")
    game_id, tuco = await _league_with_tuco(base_url, organiser, players, sub)

    async with person_page(chromium, base_url, "organiser") as page:
        await sign_in(page, organiser)
        # the warnings: Tuco cannot sign in, and the game has waited past its 1 second
        await _league_page_until(page, "past the time for a decision")
        assert "Tuco Ramírez" in await _warnings(page) and "no login" in await _warnings(page)
        seat_of_tuco = page.locator("[data-testid=game-seat]", has=page.get_by_test_id("no-login"))
        await expect(seat_of_tuco).to_contain_text("Tuco Ramírez")

        # the login link, sent from the page, opened by Tuco, who sets his login through it
        await page.get_by_role("button", name="Send Tuco Ramírez a login link").click()
        link = await page.get_by_test_id("invite-link").input_value()
        assert "#/invite/" in link
        async with person_page(chromium, base_url, "tuco") as tuco_page:
            await tuco_page.goto(link)
            await tuco_page.get_by_label("Login name").fill("stall_tuco")
            await tuco_page.get_by_label("Choose a password").fill(PASSWORD)
            await tuco_page.get_by_role("button", name="Create my account").click()
            await tuco_page.get_by_test_id("signed-in-as").filter(has_text="Tuco Ramírez").wait_for()
        await _open_league(page)
        assert not await page.get_by_test_id("no-login").count()  # Tuco has a login now

        # a seat runs out of time: the server plays its default, and the page says so
        assert await _time_out(browser_dsn) >= 1
        await _league_page_until(page, "ran out of time once")
        said = (await _warnings(page)).split("ran out of time once")[0].rsplit("\n", 1)[-1]
        timed_out = said.rsplit("(seat ", 1)[1].split(")")[0]  # "Ada Stall (seat p4) " -> p4

        # the organiser replaces that seat, picking the substitute by name
        form = page.get_by_test_id("replace-seat")
        await page.get_by_text("Replace this seat", exact=True).first.click()
        seat_choice = form.get_by_label("Seat")
        seat = timed_out
        await seat_choice.select_option(value=seat)
        shown = await seat_choice.locator(f"option[value={seat}]").inner_text()
        replaced_name = shown.split(": ", 1)[1]
        assert replaced_name in said
        await form.get_by_label("Who takes it over").select_option(label="Sam Sub")
        await form.get_by_role("button", name="Replace this seat").click()
        done = page.get_by_test_id("form-done").filter(has_text="Sam Sub plays seat")
        await done.wait_for()
        await expect(done).to_contain_text(f"in place of {replaced_name}")
        await expect(page.get_by_test_id("game-seats")).to_contain_text("Sam Sub")

    # the substitute plays his seat from his own page (the others theirs), until he has moved
    everybody = {p.display_name: p for p in (*players, sub)}
    everybody["Tuco Ramírez"] = Person(tuco, "stall_tuco", "Tuco Ramírez", "")
    holders = [name for name in everybody if name != replaced_name]
    pages: dict[str, Page] = {}
    contexts = [person_page(chromium, base_url, name) for name in holders]
    try:
        for name, context in zip(holders, contexts, strict=True):
            pages[name] = await context.__aenter__()
            await sign_in(pages[name], everybody[name])
            await open_play(pages[name], game_id)
        mine = pages["Sam Sub"].get_by_test_id("play")
        sam_moved = False
        for _ in range(MAX_MOVES):
            found = await deciding_page(pages)
            if found is None:
                await pages["Sam Sub"].wait_for_timeout(300)
                continue
            name, deciding = found
            before = await version_of(deciding)
            await click_first_option(deciding)
            await deciding.wait_for_function(
                "(v) => Number(document.querySelector('[data-testid=play]').dataset.version) > v", arg=before
            )
            if name == "Sam Sub":
                sam_moved = True
                break
            if await mine.get_attribute("data-status") == "ended":
                break
        assert sam_moved, "the substitute was never asked a decision"
    finally:
        for context in contexts[: len(pages)]:
            await context.__aexit__(None, None, None)
