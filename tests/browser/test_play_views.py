"""Playing an online game from your seat (#/game/<id>/play), each player in a browser of their
own: a league's scheduled game played to the end by clicking the pages' controls, each page
showing its own role and nobody else's hidden one, a refused move in the referee's words, the
time left before a timeout, and a page that went offline catching up."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack

import httpx
from playwright.async_api import Browser, Page, Route, expect

from tests.browser.conftest import Person, person_page, screenshot, sign_in
from tests.browser.playing import (
    HTTP_TIMEOUT,
    click_first_option,
    create_friendly_game,
    deciding_page,
    open_play,
    play_to_the_end,
    schedule_league_game,
    version_of,
    wait_for_version,
)

ROLE_WORDS = ("sheriff", "deputy", "outlaw", "renegade")
People = Callable[[str, str], Awaitable[Person]]


async def state_of(base_url: str, game_id: str, who: Person | None = None) -> dict:
    async with httpx.AsyncClient(base_url=base_url, timeout=HTTP_TIMEOUT) as client:
        response = await client.get(f"/games/{game_id}", headers={} if who is None else who.auth)
    assert response.status_code == 200, response.text
    state: dict = response.json()
    return state


async def faces(page: Page) -> list[str | None]:
    return [await d.get_attribute("data-face") for d in await page.locator("[data-testid=dice] .die").all()]


async def seat_texts(page: Page, seats: list[str]) -> dict[str, str]:
    return {seat: (await page.get_by_test_id(f"seat-{seat}").inner_text()).lower() for seat in seats}


async def test_five_players_play_a_league_game_to_the_end_each_in_their_own_browser(
    base_url: str, chromium: Browser, people: People
) -> None:
    organiser = await people("play-olga", "Olga Organiser")
    players = [await people(f"play-{n.lower()}", f"{n} Player") for n in ("Abe", "Bea", "Cal", "Dot", "Eli")]
    by_id = {p.account_id: p for p in players}
    scheduled = await schedule_league_game(base_url, organiser, players, "playfive")
    game_id = scheduled["game_id"]
    public = await state_of(base_url, game_id)
    assert public["status"] == "ongoing" and len(public["players"]) == 5
    seat_of = {p["member_id"]: p["id"] for p in public["players"]}
    hidden = {p["id"] for p in public["players"] if p["role"] is None}
    assert len(hidden) == 4  # only the Sheriff's is public

    async with AsyncExitStack() as stack:
        pages: dict[str, Page] = {}
        for player in players:
            page = await stack.enter_async_context(person_page(chromium, base_url, player.login))
            await sign_in(page, player)
            await open_play(page, game_id)
            pages[player.account_id] = page

        # each page: its own role, prominently; every other hidden role a "?"
        shown_roles: dict[str, str] = {}
        others_seen: dict[str, dict[str, str]] = {}
        for member, page in pages.items():
            seat = seat_of[member]
            shown_roles[seat] = (await page.get_by_test_id("my-role-name").inner_text()).lower()
            assert shown_roles[seat] in ROLE_WORDS
            others = sorted(hidden - {seat})
            for other in others:
                role = page.get_by_test_id(f"seat-{other}").get_by_test_id("seat-role")
                await expect(role).to_have_text("?")
            others_seen[seat] = await seat_texts(page, others)

        # the first decision: the awaited page offers it, the others say whose turn it is
        found = await deciding_page(pages)
        assert found is not None
        member, deciding = found
        await expect(deciding.get_by_test_id("your-decision")).to_be_visible()
        await screenshot(deciding, "play-your-turn")
        active = public["active_player"]
        active_name = next(p["name"] for p in public["players"] if p["id"] == active)
        watcher = next(page for m, page in pages.items() if m != member)
        await expect(watcher.get_by_test_id("whose-turn")).to_contain_text(active_name)
        await expect(watcher.get_by_test_id("turn-message")).to_contain_text("Waiting for")
        assert await watcher.get_by_test_id("decision").count() == 0
        await screenshot(watcher, "play-someone-elses-turn")

        # a reroll through the dice toggles, when the decision is one
        if await deciding.get_by_test_id("reroll").count():
            before = await version_of(deciding)
            die = deciding.locator("[data-testid^=reroll-die-]").first
            await die.click()
            await expect(die).to_have_attribute("aria-pressed", "true")
            await expect(deciding.get_by_test_id("reroll")).to_be_enabled()
            await deciding.get_by_test_id("reroll").click()
            await wait_for_version(deciding, before + 1)

        # a refusal: the same player moves from another device while this page has not heard
        # of it yet (its reads are held), then clicks: the referee's words, and it catches up
        for page in pages.values():
            await wait_for_version(page, max([await version_of(p) for p in pages.values()]))
        found = await deciding_page(pages)
        assert found is not None
        member, deciding = found
        release = asyncio.Event()

        async def hold(route: Route) -> None:
            await release.wait()
            await route.continue_()

        await deciding.route(f"**/games/{game_id}", hold)
        mine = await state_of(base_url, game_id, by_id[member])
        async with httpx.AsyncClient(base_url=base_url, timeout=HTTP_TIMEOUT) as client:
            moved = await client.post(
                f"/games/{game_id}/commands",
                json={"command": mine["legal_commands"][0], "command_id": "elsewhere-1",
                      "expected_version": mine["version"]},
                headers=by_id[member].auth,
            )  # fmt: skip
        assert moved.status_code == 200, moved.text
        await click_first_option(deciding)
        refusal = deciding.get_by_test_id("form-error")
        await expect(refusal).to_contain_text(f"is at version {moved.json()['state']['version']}")
        await expect(refusal).to_contain_text("reload the game and decide again")
        await screenshot(deciding, "play-refusal")
        release.set()
        await wait_for_version(deciding, moved.json()["state"]["version"])
        await deciding.unroute(f"**/games/{game_id}")

        await play_to_the_end(pages, game_id)

        ended = await state_of(base_url, game_id)
        assert ended["status"] == "ended" and ended["result"]["winning_side"]
        roles = {p["id"]: p["role"] for p in ended["players"]}
        for member, page in pages.items():
            seat = seat_of[member]
            assert shown_roles[seat] == roles[seat]  # the page showed its holder the real role
            for other, text in others_seen[seat].items():
                assert roles[other] not in text, f"{seat}'s page showed {other}'s hidden role"
            await expect(page.get_by_test_id("result")).to_contain_text("Game over")
            await expect(page.get_by_test_id("result")).to_contain_text(
                "You won" if seat in ended["result"]["winners"] else "You lost"
            )
            assert await page.get_by_text("Whose turn").count() == 0
            assert await page.get_by_test_id("decision").count() == 0
        await screenshot(pages[players[0].account_id], "play-the-end")


async def test_the_time_left_shows_and_a_page_back_online_catches_up(
    base_url: str, chromium: Browser, people: People
) -> None:
    organiser = await people("play-tess", "Tess Organiser")
    players = [await people(f"play-t{n.lower()}", f"{n} Timer") for n in ("Ada", "Ben", "Cy", "Di")]
    game_id = await create_friendly_game(
        base_url, organiser, players, "timed-play", timeout_seconds=600, lobby=True
    )
    assert (await state_of(base_url, game_id))["status"] == "lobby"

    async with AsyncExitStack() as stack:
        pages: dict[str, Page] = {}
        for player in players:  # each joins the lobby from the page; the last one fills the table
            page = await stack.enter_async_context(person_page(chromium, base_url, player.login))
            await sign_in(page, player)
            await open_play(page, game_id)
            await page.get_by_test_id("join").click()
            await expect(page.get_by_test_id("join")).to_have_count(0)
            pages[player.account_id] = page
        public = await state_of(base_url, game_id)
        assert public["status"] == "ongoing" and public["deadline"]
        for page in pages.values():
            await wait_for_version(page, public["version"])
        found = await deciding_page(pages)
        assert found is not None
        member, deciding = found
        await expect(deciding.get_by_test_id("time-left")).to_contain_text("left before the default answer")
        watcher_id, watcher = next((m, page) for m, page in pages.items() if m != member)
        left = re.compile(r"^ (9|10):\d\d left before")
        await expect(watcher.get_by_test_id("time-left")).to_have_text(left)
        await expect(watcher.get_by_test_id("connection")).to_have_attribute("data-connection", "live")

        # the watcher drops off the network; moves are made meanwhile; back online, it catches up
        await watcher.context.set_offline(True)
        await expect(watcher.get_by_test_id("connection")).to_have_attribute("data-connection", "offline")
        before = await version_of(deciding)
        # by keyboard: the first option, Enter; the page keeps the keyboard on its controls
        await deciding.locator("[data-testid=decision] [data-option]:enabled").first.focus()
        await deciding.keyboard.press("Enter")
        await wait_for_version(deciding, before + 1)
        after = await version_of(deciding)
        if await deciding.get_by_test_id("play").get_attribute("data-deciding") == "true":
            await expect(deciding.locator("[data-testid=play] button:focus")).to_have_count(1)
        assert await version_of(watcher) == before  # it heard nothing while offline
        await watcher.context.set_offline(False)
        await wait_for_version(watcher, after)
        await expect(watcher.get_by_test_id("connection")).to_have_attribute("data-connection", "live")
        assert await faces(watcher) == await faces(deciding)

        # a phone-sized screen
        await watcher.set_viewport_size({"width": 390, "height": 844})
        await screenshot(watcher, "play-phone-watching")
        now = await deciding_page(pages)
        assert now is not None
        await now[1].set_viewport_size({"width": 390, "height": 844})
        await screenshot(now[1], "play-phone-deciding")
        assert watcher_id in pages


async def test_an_old_saloon_game_is_played_to_the_end_with_the_buttons_its_modules_add(
    base_url: str, chromium: Browser, people: People
) -> None:
    """Saloon dice (OS1), the Chief's Arrow (OS2), new characters (OS4) and the Ghost (OS5): the
    page builds every control from legal_commands, so a game with all of them is played to the
    end by the same clicks. (OS3's role windows are closed online by the deadline sweeper after
    their pause, a process this server does not run.)"""
    organiser = await people("play-saul", "Saul Organiser")
    players = [await people(f"play-s{n.lower()}", f"{n} Saloon") for n in ("Ann", "Bo", "Cid", "Dee", "Ed")]
    modules = ("OS1", "OS2", "OS4", "OS5")
    game_id = await create_friendly_game(base_url, organiser, players, "saloon-play", modules=modules)
    async with AsyncExitStack() as stack:
        pages: dict[str, Page] = {}
        for player in players:
            page = await stack.enter_async_context(person_page(chromium, base_url, player.login))
            await sign_in(page, player)
            await open_play(page, game_id)
            pages[player.account_id] = page
        mine = (await stack.enter_async_context(httpx.AsyncClient(base_url=base_url, timeout=HTTP_TIMEOUT)))
        state = (await mine.get(f"/games/{game_id}")).json()
        assert state["ruleset"]["modules"] == list(modules)
        clicked: list[str] = []
        await play_to_the_end(pages, game_id, clicked)
        verbs = {command.split()[1] for command in clicked}
        assert "saloon" in verbs  # OS1's choice of a Saloon die, offered as a button
        assert verbs - {"stop", "reroll", "target"}, verbs
        ended = (await mine.get(f"/games/{game_id}")).json()
        assert ended["status"] == "ended"
        for page in pages.values():
            await expect(page.get_by_test_id("result")).to_contain_text("Game over")
        await screenshot(next(iter(pages.values())), "play-old-saloon-end")
