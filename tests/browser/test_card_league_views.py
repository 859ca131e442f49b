"""A card league from the browser: an organiser founds it choosing the card game, seats a round,
schedules its table for cardboard play and enters the table's result sheet; a sheet with a
mistake is refused in the API's words, the fixed one counts: the league and tournament pages mark
the game "result sheet — not replayable" and the standings move."""

from __future__ import annotations

import uuid

import httpx
from playwright.async_api import Browser, expect

from tests.browser.conftest import person_page, sign_in
from tests.browser.organise_setup import (
    enrol,
    found_club,
    found_league,
    open_season,
    open_tournament,
    register_member,
    schedule,
    seat_round,
)
from tests.browser.test_organise_views import People


async def test_a_card_leagues_result_sheet_entered_in_the_browser_refused_then_counted(
    base_url: str, people: People, chromium: Browser
) -> None:
    tag = uuid.uuid4().hex[:8]
    rosa = await people(f"rosa_{tag}", f"Rosa Cards {tag}")
    async with person_page(chromium, base_url, "rosa") as page:
        await sign_in(page, rosa)
        await found_club(page, f"Card Gulch {tag}")
        names = [f"{first} {tag}" for first in ("Ann", "Bart", "Cal", "Dee")]
        for name in names:
            await register_member(page, name)
        league_id = await found_league(page, f"Card Night {tag}", game_type="cards")
        async with httpx.AsyncClient(base_url=base_url) as client:
            league = (await client.get(f"/leagues/{league_id}", headers=rosa.auth)).json()
        assert league["game_type"] == "cards", league
        season = await open_season(page, "Spring")
        tournament = await open_tournament(page, season, "Fridays")
        await enrol(page, season, names)
        round_one = await seat_round(page, tournament)
        table = round_one.get_by_test_id("round-table").first
        # the organiser keeps the table's score: a seated player may not (he would see every role)
        await schedule(page, table, "table", scorekeeper=rosa.display_name)

        await table.locator("summary", has_text="result sheet").click()
        sheet = table.get_by_test_id("result-sheet")
        roles = sheet.get_by_test_id("sheet-role")
        await expect(roles).to_have_count(4)
        seated = [await roles.nth(i).get_attribute("data-member") for i in range(4)]
        sheriff = [m for i, m in enumerate(seated) if await roles.nth(i).input_value() == "sheriff"]
        assert len(sheriff) == 1, "the rotation's Sheriff is filled in"
        others = [m for m in seated if m != sheriff[0]]
        assert all(others)
        await sheet.locator(f'[data-testid="sheet-role"][data-member="{others[0]}"]').select_option(
            "renegade"
        )
        # the Sheriff shoots the two Outlaws, then the Renegade: the Law has won
        for n, out in enumerate([others[1], others[2], others[0]], start=1):
            await sheet.locator(f'[data-testid="sheet-out"][data-n="{n}"]').select_option(out)
            await sheet.locator(f'[data-testid="sheet-by"][data-n="{n}"]').select_option(sheriff[0])
            await sheet.locator(f'[data-testid="sheet-turn"][data-n="{n}"]').fill(str(n))
        await sheet.locator(f'[data-testid="sheet-winner"][data-member="{sheriff[0]}"]').check()
        # the mistake: the Outlaws named as the winners while the Sheriff is alive
        await sheet.get_by_test_id("sheet-side").select_option("outlaws")
        async with page.expect_response(lambda r: r.url.endswith("/result-sheet")) as refused_info:
            await sheet.get_by_role("button", name="Record the result sheet").click()
        refused = await refused_info.value
        assert refused.status == 422, await refused.text()
        detail = (await refused.json())["detail"]
        assert "by who was left" in detail, detail
        await expect(sheet.get_by_test_id("form-error")).to_have_text(detail)
        await expect(table.get_by_test_id("not-replayable")).to_have_count(0)

        await sheet.get_by_test_id("sheet-side").select_option("law")
        await sheet.get_by_role("button", name="Record the result sheet").click()
        await expect(page.get_by_test_id("form-done")).to_contain_text("result sheet — not replayable")
        table = page.get_by_test_id("round-table").first
        await expect(table.get_by_test_id("not-replayable")).to_have_text("result sheet — not replayable")
        await expect(table.get_by_test_id("winning-side")).to_have_text("Law won")
        await expect(table.get_by_role("link", name="Replay")).to_have_count(0)
        await expect(table.get_by_test_id("result-sheet")).to_have_count(0)
        # the standings moved: the Sheriff's win is worth 3 points, everyone played one game
        standings = page.get_by_test_id("season-standings")
        await expect(standings.locator(f'tr[data-member="{sheriff[0]}"] strong')).to_have_text("3")
        for member in others:
            await expect(standings.locator(f'tr[data-member="{member}"] strong')).to_have_text("0")
        # the tournament's page says it too, and that the league plays the card game
        tournament_id = await tournament.get_attribute("data-tournament")
        await page.goto(f"/#/tournament?league={league_id}&tournament={tournament_id}")
        await expect(page.get_by_test_id("tournament-game-type")).to_contain_text("BANG! the card game")
        listed = page.get_by_test_id("table").first
        await expect(listed.get_by_test_id("not-replayable")).to_have_text("result sheet — not replayable")
        await expect(listed.get_by_role("link", name="Replay")).to_have_count(0)
