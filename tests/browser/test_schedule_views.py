"""A league's schedule from the browser (issue 22): the organiser schedules a table game with an
Old Saloon ruleset and a date, and an online game with a decision timer, from the league page's
form; the scorekeeper opens the scheduled table game's page from "Keep score" (the game does not
exist yet: the page used to say "no game") and starts it, once with the seats as dealt at the
table and once dealt by the server, where each player reads only his own role on his seat page.
Then a roll is entered, and the small things a club noticed hold: the tournament page lists a
table's seats in its game's order (8a), the verify page of a table game says the seed check
does not apply (8b), and a dynamite die cannot be picked for a reroll (8c)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from playwright.async_api import Browser, Locator, Page, expect

from tests.browser.conftest import Person, person_page, screenshot, sign_in
from tests.browser.table_setup import game_state

People = Callable[[str, str], Awaitable[Person]]
PREFIX = "sched"
LEAGUE, SEASON, TOURNAMENT = f"{PREFIX}_league", f"{PREFIX}_season", f"{PREFIX}_cup"
CHARACTERS = ("jourdonnais", "willy_the_kid", "paul_regret", "lucky_duke")


async def _post(client: httpx.AsyncClient, path: str, who: Person, body: dict[str, Any]) -> dict[str, Any]:
    response = await client.post(path, json=body, headers=who.auth)
    assert response.status_code < 300, f"POST {path}: {response.status_code} {response.text}"
    answer: dict[str, Any] = response.json()
    return answer


async def _seated_league(
    base_url: str, people: People
) -> tuple[Person, Person, dict[str, Person], list[dict[str, Any]]]:
    """An organiser's club with a scorekeeper and twelve players, a league whose round 1 seats
    three tables of four: (organiser, keeper, players by id, the round's tables)."""
    organiser = await people(f"{PREFIX}.organiser", "Olive Organiser")
    keeper = await people(f"{PREFIX}.keeper", "Kit Keeper")
    players = [await people(f"{PREFIX}.p{n}", f"Player {n:02d}") for n in range(1, 13)]
    async with httpx.AsyncClient(base_url=base_url) as client:
        club = (await _post(client, "/clubs", organiser, {"name": "Schedule Saloon"}))["club_id"]
        for person in (keeper, *players):
            invite = await _post(
                client, f"/clubs/{club}/invites", organiser, {"display_name": person.display_name}
            )
            await _post(client, invite["accept_path"], person, {})
        await _post(
            client, f"/clubs/{club}/leagues", organiser, {"league_id": LEAGUE, "name": "Schedule League"}
        )
        await _post(client, f"/leagues/{LEAGUE}/seasons", organiser, {"season_id": SEASON, "name": "Winter"})
        ids = [p.account_id for p in players]
        await _post(client, f"/leagues/{LEAGUE}/seasons/{SEASON}/entrants", organiser, {"member_ids": ids})
        await _post(
            client, f"/leagues/{LEAGUE}/seasons/{SEASON}/tournaments", organiser,
            {"tournament_id": TOURNAMENT, "name": "Cup"},
        )  # fmt: skip
        seated = await _post(
            client, f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds", organiser,
            {"tables": [ids[0:4], ids[4:8], ids[8:12]]},
        )  # fmt: skip
    return organiser, keeper, {p.account_id: p for p in players}, seated["tables"]


def _table(page: Page, number: int) -> Locator:
    return page.locator(f"[data-testid=round-table][data-table='{number}']")


async def _schedule(
    page: Page, number: int, mode: str, *, when: str, modules: tuple[str, ...] = (), timer: str = "",
    keeper: str | None = None,
) -> str:  # fmt: skip
    table = _table(page, number)
    await table.locator("summary", has_text="Schedule table").click()
    form = table.get_by_test_id("schedule-game")
    await form.get_by_label("Date and time").fill(when)
    await form.get_by_label("Mode").select_option(mode)
    if keeper is not None:
        await form.get_by_label("Scorekeeper").select_option(label=keeper)
    for module in modules:
        await form.get_by_label(re.compile(rf"^{module}:")).check()
    if timer:
        await form.get_by_label("Decision timer").select_option(timer)
    await form.get_by_role("button", name="Schedule the game").click()
    await expect(page.get_by_test_id("form-done")).to_contain_text("is scheduled")
    game = _table(page, number).get_by_test_id("table-game")
    await expect(game).to_be_visible()
    game_id = await game.get_attribute("data-game")
    assert game_id
    return game_id


async def _start_from_the_schedule(page: Page, number: int) -> None:
    """From the league page, the scheduled table game's "Keep score": its schedule page."""
    await page.goto(f"/#/league/{LEAGUE}")
    await _table(page, number).get_by_role("link", name="Keep score").click()
    await expect(page.get_by_test_id("scheduled-game")).to_be_visible()


async def _shown_after_reloads(page: Page, url: str, ready: Callable[[], Awaitable[bool]]) -> None:
    """The read models catch up in the background: reload ``url`` until ``ready`` (bounded)."""
    for _ in range(40):
        await page.goto(url)
        await page.wait_for_load_state("networkidle")
        if await ready():
            return
        await page.wait_for_timeout(250)
    raise AssertionError(f"{url} never showed what was expected")


async def test_a_league_schedule_made_and_started_in_the_browser(
    chromium: Browser, base_url: str, people: People
) -> None:
    organiser, keeper, players, tables = await _seated_league(base_url, people)

    # the organiser schedules: an Old Saloon table game, a timed online game, a base table game
    async with person_page(chromium, base_url, "organiser") as page:
        await sign_in(page, organiser)
        await page.goto(f"/#/league/{LEAGUE}")
        kept = await _schedule(
            page,
            1,
            "table",
            when="2026-12-01T19:30",
            modules=("OS2",),
            timer="120",
            keeper=keeper.display_name,
        )
        online = await _schedule(page, 2, "online", when="2026-12-01T20:00", timer="60")
        dealt = await _schedule(page, 3, "table", when="2026-12-02T19:30", keeper=keeper.display_name)
        said = _table(page, 1).get_by_test_id("game-schedule")
        await expect(said).to_contain_text("OS2 (The Arrow of the Indian Chief)")
        await expect(said).to_contain_text("2 minutes per decision")
        await expect(said).to_contain_text("2026")
        await expect(_table(page, 2).get_by_test_id("game-schedule")).to_contain_text("1 minute per decision")
        await screenshot(page, "schedule-form")
    async with httpx.AsyncClient(base_url=base_url) as client:
        created = (await client.get(f"/games/{online}/events?limit=1", headers=organiser.auth)).json()[0]
    assert created["data"]["options"] == {"decision_timeout_seconds": 60}, created

    async with person_page(chromium, base_url, "keeper") as page:
        await sign_in(page, keeper)
        # table 1: the seats as dealt at the physical table, clockwise from the last seated
        await _start_from_the_schedule(page, 1)
        await expect(page.get_by_test_id("schedule-rules")).to_contain_text("OS2")
        await expect(page.get_by_test_id("schedule-timer")).to_have_text("2 minutes per decision")
        table = tables[0]
        sat = [m["member_id"] for m in table["members"]][::-1]
        others = iter(["renegade", "outlaw", "outlaw"])
        form = page.get_by_test_id("start-game")
        await form.get_by_label("Who deals the roles and characters?").select_option("table")
        for seat, member in enumerate(sat, start=1):
            await form.get_by_label(f"Seat {seat}: player").select_option(member)
            role = "sheriff" if member == table["sheriff"]["member_id"] else next(others)
            await form.get_by_label(f"Seat {seat}: role").select_option(role)
            # nobody who may reroll dynamite (Black Jack): the rules then keep it for everyone
            await form.get_by_label(f"Seat {seat}: character").select_option(CHARACTERS[seat - 1])
        await screenshot(page, "schedule-start-seats")
        await form.get_by_role("button", name="Start this game").click()
        await expect(page).to_have_url(re.compile(rf"#/game/{kept}/table$"))
        # the keep-score page opens on the game: a roll entered on the keyboard
        await expect(page.get_by_test_id("entering")).to_contain_text("Enter the dice")
        await page.keyboard.type("11add")
        await page.keyboard.press("Enter")
        await expect(page.get_by_test_id("last-entry")).to_contain_text(
            "rolled 1, 1, Arrow, Dynamite, Dynamite"
        )
        # OS2 asks which arrow the arrow rolled takes: the Old Saloon rules are the game's
        await page.get_by_role("button", name="Take a regular arrow").click()
        # 8c: a dynamite die cannot be picked for a reroll, the others can
        await expect(page.get_by_test_id("reroll-choice")).to_be_visible()
        await expect(page.get_by_test_id("reroll-die-3")).to_be_disabled()
        await expect(page.get_by_test_id("reroll-die-4")).to_be_disabled()
        await expect(page.get_by_test_id("reroll-die-0")).to_be_enabled()

        # 8a: the tournament page lists table 1's seats in the game's order
        async def in_seat_order() -> bool:
            shown = page.get_by_test_id("table").first.locator("li[data-member]")
            return [await li.get_attribute("data-member") for li in await shown.all()] == sat

        await _shown_after_reloads(
            page, f"/#/tournament?league={LEAGUE}&tournament={TOURNAMENT}", in_seat_order
        )

        # 8b: its verify page says the seed check does not apply, in words
        await page.goto(f"/#/game/{kept}/verify")
        commitment = page.locator("[data-check='seed commitment']")
        await expect(commitment).to_have_attribute("data-state", "not applicable")
        await expect(commitment).to_contain_text("not applicable")
        await expect(commitment).to_contain_text("dice entered at the table")
        await expect(commitment).not_to_contain_text("passed")

        # table 3 from the keeper's own page: "Keep score of" a game not started yet opens its
        # table's schedule page (it said "no game" with a Try again that never worked)
        await page.goto("/#/home")
        await page.get_by_role("link", name="Keep score: Schedule League, round 1, table 3").click()
        await expect(page.get_by_test_id("scheduled-game")).to_be_visible()
        await expect(page).to_have_url(
            re.compile(rf"#/league/{LEAGUE}/start\?tournament={TOURNAMENT}&round=1&table=3$")
        )
        # dealt by the server
        form = page.get_by_test_id("start-game")
        await form.get_by_label("Who deals the roles and characters?").select_option("server")
        await expect(page.get_by_test_id("start-seats")).to_be_hidden()
        await form.get_by_role("button", name="Start this game").click()
        await expect(page).to_have_url(re.compile(rf"#/game/{dealt}/table$"))
        await expect(page.get_by_test_id("entering")).to_contain_text("Enter the dice")

    # a player of table 3 reads his own role on his seat page, and nobody else's but the Sheriff's
    sheriff = tables[2]["sheriff"]["member_id"]
    player = players[next(m["member_id"] for m in tables[2]["members"] if m["member_id"] != sheriff)]
    own = next(
        p
        for p in (await game_state(base_url, dealt, player))["players"]
        if p["member_id"] == player.account_id
    )
    async with person_page(chromium, base_url, "player") as page:
        await sign_in(page, player)
        await page.goto(f"/#/game/{dealt}/play")
        await expect(page.get_by_test_id("my-role-name")).to_have_text(own["role"].title())
        roles = page.get_by_test_id("seats").get_by_test_id("seat-role")
        await expect(roles).to_have_count(4)
        await expect(roles.filter(has_text="?")).to_have_count(2)  # the two others; the Sheriff is public
        await screenshot(page, "schedule-dealt-seat")
