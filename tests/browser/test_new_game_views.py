"""Starting any game from the browser (#/new-game), against the real API: an online dice game
with Old Saloon modules (a module set the rules refuse at that size shown in the API's words
first), a table card game, and a table dice game started from where it stands ("we are already
playing"), its refused position shown in the API's words with the players' names. Each lands on
its own page (online: the seat and lobby page; a table: the keep-score page) showing the game
as created, and the API holds what the page asked for. The club and its members are made through
the API as their people would; every game is made through the page alone.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from playwright.async_api import Browser, Page, expect

from tests.browser.conftest import Person, person_page, screenshot, sign_in
from tests.browser.table_setup import _post, game_state

People = Callable[[str, str], Awaitable[Person]]


async def club_of(base_url: str, people: People, prefix: str) -> tuple[Person, list[Person]]:
    """An organiser's club with four members who accepted their invites."""
    organiser = await people(f"{prefix}.organiser", f"Organiser {prefix.title()}")
    players = [await people(f"{prefix}.p{n}", f"{prefix.title()} Rider{n}") for n in range(1, 5)]
    async with httpx.AsyncClient(base_url=base_url) as client:
        club = (await _post(client, "/clubs", organiser, {"name": f"{prefix.title()} Saloon"}))["club_id"]
        for person in players:
            invite = await _post(
                client, f"/clubs/{club}/invites", organiser, {"display_name": person.display_name}
            )
            await _post(client, invite["accept_path"], person, {})
    return organiser, players


async def open_new_game(page: Page, who: Person) -> None:
    await sign_in(page, who)
    await page.get_by_test_id("new-game-link").click()
    await expect(page).to_have_url(re.compile(r"#/new-game$"))
    await expect(page.get_by_test_id("ruleset-check")).to_contain_text("the rules allow it")


async def created_id(page: Page, suffix: str) -> str:
    await page.wait_for_url(re.compile(rf"#/game/[^/]+/{suffix}$"))
    return page.url.split("#/game/")[1].split("/")[0]


async def seat_players(page: Page, players: list[Person]) -> None:
    for n, person in enumerate(players, start=1):
        await page.get_by_test_id(f"seat-{n}-player").select_option(label=person.display_name)


async def test_an_online_old_saloon_dice_game_from_the_page(
    chromium: Browser, base_url: str, people: People
) -> None:
    organiser, players = await club_of(base_url, people, "newgame")
    async with person_page(chromium, base_url, "organiser") as page:
        await open_new_game(page, organiser)
        form = page.get_by_test_id("new-game")
        # a set the rules refuse at 4 players: the API's words, before anything is created
        await form.get_by_label("OS5 · The Ghost").check()
        await expect(page.get_by_test_id("ruleset-check")).to_have_text(
            "this ruleset cannot be played: the Ghost (OS5) needs 5 or more players"
        )
        await form.get_by_label("OS5 · The Ghost").uncheck()
        await form.get_by_label("OS1 · The Loudmouth and the Coward").check()
        await form.get_by_label("OS2 · The Arrow of the Indian Chief").check()
        await expect(page.get_by_test_id("ruleset-check")).to_have_text(
            "BANG! The Dice Game with OS1, OS2, 4 players: the rules allow it."
        )
        members = page.get_by_test_id("members")
        await expect(members).to_contain_text(f"{organiser.display_name} (you)")
        await members.get_by_label(players[0].display_name).check()
        await page.get_by_test_id("timer").fill("90")
        await screenshot(page, "new-game-online")
        await page.get_by_test_id("create-game").click()
        game_id = await created_id(page, "play")
        lobby = page.get_by_test_id("lobby")
        await expect(lobby).to_contain_text("2 of 4 have joined")
        await expect(lobby).to_contain_text(players[0].display_name)
    state = await game_state(base_url, game_id)
    assert (state["mode"], state["status"], state["ruleset"]["text"]) == ("online", "lobby", "dice OS1 OS2")
    joined = sorted(j["name"] for j in state["joined"])
    assert joined == sorted([organiser.display_name, players[0].display_name])


async def test_a_table_card_game_from_the_page(chromium: Browser, base_url: str, people: People) -> None:
    keeper, players = await club_of(base_url, people, "newcards")
    async with person_page(chromium, base_url, "keeper") as page:
        await open_new_game(page, keeper)
        await page.get_by_label("At a table").check()
        await page.get_by_label("BANG! (the card game)").check()
        await expect(page.get_by_test_id("ruleset-check")).to_have_text(
            "BANG! (the card game), 4 players: the rules allow it."
        )
        await seat_players(page, players)
        await expect(page.get_by_test_id("seat-1-role")).to_have_value("sheriff")
        await page.get_by_test_id("seat-2-character").select_option(label="El Gringo")
        await screenshot(page, "new-game-cards-table")
        await page.get_by_test_id("create-game").click()
        game_id = await created_id(page, "table")
        await expect(page.get_by_test_id("table-entry")).to_be_visible()
        await expect(page.get_by_test_id("shuffle-unknown")).to_be_visible()
    state = await game_state(base_url, game_id, keeper)
    assert (state["mode"], state["game_type"]) == ("table", "cards")
    assert [(p["name"], p["role"]) for p in state["players"]] == [
        (players[0].display_name, "sheriff"),
        (players[1].display_name, "renegade"),
        (players[2].display_name, "outlaw"),
        (players[3].display_name, "outlaw"),
    ]
    assert state["players"][1]["character"] == "el_gringo"


async def test_a_table_dice_game_started_from_where_it_stands(
    chromium: Browser, base_url: str, people: People
) -> None:
    keeper, players = await club_of(base_url, people, "newpos")
    async with person_page(chromium, base_url, "keeper") as page:
        await open_new_game(page, keeper)
        await page.get_by_label("At a table").check()
        await seat_players(page, players)
        await page.get_by_test_id("seat-2-character").select_option(label="El Gringo")  # 7 life
        await page.get_by_test_id("already-playing").check()
        position = page.get_by_test_id("position-form")
        second = players[1].display_name
        await expect(position.get_by_label(f"{second}: life")).to_have_value("7")
        # a life the character cannot have: the API's words, the player by name
        await position.get_by_label(f"{second}: life").fill("12")
        await page.get_by_test_id("create-game").click()
        await expect(page.get_by_test_id("form-error")).to_have_text(
            f"this position cannot be played: {second} cannot have 12 life (0 to 7)"
        )
        # five dice but one: the page says which die, numbered from 1
        await position.get_by_label(f"{second}: life").fill("3")
        await position.get_by_label(f"{second}: arrows").fill("2")
        await page.get_by_test_id("pos-active").select_option(label=second)
        await page.get_by_test_id("pos-turn").fill("6")
        for die, face in enumerate(["Arrow", "Beer", "Shoot 1", "Gatling"], start=1):
            await page.get_by_test_id(f"pos-die-{die}").select_option(label=face)
        await page.get_by_test_id("create-game").click()
        await expect(page.get_by_test_id("form-error")).to_have_text(
            "Die 5 is not set: set all five dice showing, or none to start the turn from its beginning."
        )
        await page.get_by_test_id("pos-die-5").select_option(label="Dynamite")
        await page.get_by_test_id("pos-rolls-used").select_option("2")
        await screenshot(page, "new-game-position")
        await page.get_by_test_id("create-game").click()
        game_id = await created_id(page, "table")
        await expect(page.get_by_test_id("turn-head")).to_contain_text(f"Turn 6 · p2 {second} — El Gringo")
        await expect(page.get_by_test_id("entering")).to_have_text(
            "p2 decides: choose which dice to reroll, or keep them"
        )
        await screenshot(page, "new-game-position-table")
    state: dict[str, Any] = await game_state(base_url, game_id, keeper)
    bob = next(p for p in state["players"] if p["id"] == "p2")
    assert (bob["life"], bob["arrows"]) == (3, 2)
    assert (state["active_player"], state["turn"]) == ("p2", 6)
    assert state["dice"] == ["arrow", "beer", "shoot1", "gatling", "dynamite"]


async def test_the_new_game_page_and_the_header_fit_a_phone(
    chromium: Browser, base_url: str, people: People
) -> None:
    phone = {"width": 390, "height": 844}
    keeper, players = await club_of(base_url, people, "newphone")
    context = await chromium.new_context(base_url=base_url, viewport=phone, is_mobile=True, has_touch=True)
    try:
        page = await context.new_page()
        await open_new_game(page, keeper)
        await page.get_by_label("At a table").check()
        await seat_players(page, players)
        await page.get_by_test_id("already-playing").check()
        await expect(page.get_by_test_id("position-form")).to_be_visible()
        sizes = await page.evaluate(
            "() => ({scroll: document.documentElement.scrollWidth,"
            " inner: Math.min(innerWidth, screen.width)})"
        )
        await screenshot(page, "phone-new-game")
        assert sizes["scroll"] <= sizes["inner"], sizes
        for link in await page.locator("header a, header button").all():
            box = await link.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= phone["width"], box
    finally:
        await context.close()
