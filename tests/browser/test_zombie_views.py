"""Undead or Alive's zombies (UA4) in the browser: the Boneyard, the outbreak, the zombies and the
Zombie Master, and the zombies' or the survivors' win, on the seat page, the live and replay
views and the scorekeeper's page.

An online UA4 game of four is played to its end by four people, each clicking their own seat
page (the first option offered, as tests/browser/playing.py does). Its seed is kept in the vault
before the game is created, so the deal, every roll and every Boneyard reveal are the same on
every run: with this seed two players fall on turn 11, their Boneyard cards bring the outbreak on
turn 16 at the start of a dead player's turn, who plays it as a zombie from his seat page and
shoots the Sheriff. The test reads what happened from the game's own events and checks that the
pages show it. A scorekeeper then enters a UA4 table game's Boneyard reveals through the page: a
no-hands card, two hands, and the card that starts the outbreak, then a zombie's three dice."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Any

import asyncpg
import httpx
from playwright.async_api import Browser, Page, expect

from tests.browser.conftest import Person, person_page, screenshot, sign_in
from tests.browser.playing import (
    HTTP_TIMEOUT,
    MAX_MOVES,
    click_first_option,
    deciding_page,
    open_play,
    version_of,
    wait_for_version,
)
from tests.browser.table_setup import SHOWDOWN

People = Callable[[str, str], Awaitable[Person]]

ZOMBIE_GAME = "zombie-views"
ZOMBIE_SEED = hashlib.sha256(b"zombie-views:66").digest()
"""Found by playing the seat pages' policy over the engine in Python: a four-player UA4 game
with no-hands cards, a two-hand and a one-hand card, then the outbreak at a dead player's turn."""


async def _keep_seed(browser_dsn: str) -> None:
    """The vault keeps a game's first seed: kept now, it is the one the create commits to."""
    connection = await asyncpg.connect(browser_dsn)
    try:
        kept = "INSERT INTO game_seeds (game_id, seed) VALUES ($1, $2)"
        await connection.execute(kept, ZOMBIE_GAME, ZOMBIE_SEED)
    finally:
        await connection.close()


async def _all_events(client: httpx.AsyncClient, game_id: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while True:
        page = (await client.get(f"/games/{game_id}/events", params={"from_version": len(events) + 1})).json()
        if not page:
            return events
        events += page


async def _after_click(page: Page, before: int) -> None:
    await page.wait_for_function(
        """(v) => { const p = document.querySelector('[data-testid=play]');
                    return p && p.dataset.busy !== 'true'
                      && (Number(p.dataset.version) > v
                          || document.querySelector('[data-testid=form-error]')); }""",
        arg=before,
        timeout=30_000,
    )
    refused = page.get_by_test_id("form-error")
    assert not await refused.count(), await refused.inner_text()


async def test_an_online_zombie_game_shows_the_boneyard_the_outbreak_the_zombies_and_their_win(
    base_url: str, browser_dsn: str, chromium: Browser, people: People
) -> None:
    organiser = await people("zombie-org", "Gravedigger Organiser")
    players = [await people(f"zombie-{n.lower()}", f"{n} Zombie") for n in ("Abel", "Bea", "Cy", "Dot")]
    await _keep_seed(browser_dsn)
    body = {
        "command_id": "zombie-views-create",
        "mode": "online",
        "player_count": 4,
        "game_id": ZOMBIE_GAME,
        "members": [{"member_id": p.account_id, "name": p.display_name} for p in players],
        "ruleset": {"modules": ["UA4"]},
    }
    async with AsyncExitStack() as stack:
        client = await stack.enter_async_context(httpx.AsyncClient(base_url=base_url, timeout=HTTP_TIMEOUT))
        created = await client.post("/games", json=body, headers=organiser.auth)
        assert created.status_code == 201, created.text
        seat_of = {p["member_id"]: p["id"] for p in created.json()["state"]["players"]}
        pages: dict[str, Page] = {}
        for player in players:
            page = await stack.enter_async_context(person_page(chromium, base_url, player.login))
            await sign_in(page, player)
            await open_play(page, ZOMBIE_GAME)
            pages[seat_of[player.account_id]] = page
        first = pages["p1"]
        await expect(first.get_by_test_id("boneyard")).to_have_attribute("data-pile", "11")
        await expect(first.get_by_test_id("boneyard")).to_contain_text("0 hands showing vs 4 alive")

        face_up_seen: set[str] = set()
        zombie_clicks = 0
        for _ in range(MAX_MOVES):
            versions = [await version_of(page) for page in pages.values()]
            for page in pages.values():
                await wait_for_version(page, max(versions))
            statuses = {await p.get_by_test_id("play").get_attribute("data-status") for p in pages.values()}
            if statuses == {"ended"}:
                break
            public = (await client.get(f"/games/{ZOMBIE_GAME}")).json()
            if public["version"] == await version_of(first):
                face_up = public["boneyard"]["face_up"]
                if face_up and not set(face_up) <= face_up_seen:  # a Boneyard card face up: on every page
                    for page in pages.values():
                        shown = page.get_by_test_id("boneyard")
                        await expect(shown).to_have_attribute("data-face-up", " ".join(face_up))
                    await expect(first.get_by_test_id("boneyard-hands")).to_have_attribute(
                        "data-alive", str(sum(p["alive"] for p in public["players"]))
                    )
                    await screenshot(first, "zombie-play-boneyard")
                    face_up_seen |= set(face_up)
            found = await deciding_page(pages)
            if found is None:
                for page in pages.values():
                    await wait_for_version(page, max(versions) + 1)
                continue
            seat, page = found
            mine = page.get_by_test_id(f"seat-{seat}")
            if await mine.get_by_test_id("zombie").count():
                # a zombie plays his own turn from his seat: three base dice, the outbreak announced
                await expect(page.get_by_test_id("outbreak")).to_contain_text("Zombie outbreak on turn")
                await expect(page.get_by_test_id("my-goal")).to_contain_text("You are a zombie")
                if await page.get_by_test_id("reroll-die-0").count():
                    await expect(page.get_by_test_id("dice").locator("li")).to_have_count(3)
                    await screenshot(page, "zombie-play-zombie-turn")
                zombie_clicks += 1
            before = await version_of(page)
            await click_first_option(page)
            await _after_click(page, before)
        else:
            raise AssertionError(f"game {ZOMBIE_GAME} did not end")

        final = (await client.get(f"/games/{ZOMBIE_GAME}")).json()
        events = await _all_events(client, ZOMBIE_GAME)
        types = [e["type"] for e in events]
        began = next((e for e in events if e["type"] == "OutbreakBegan"), None)
        assert began is not None, f"the seed's game had no outbreak (events: {sorted(set(types))})"
        assert face_up_seen, "no Boneyard card was seen face up on the seat pages"
        assert zombie_clicks, "no zombie played a turn from his seat page"
        zombies, master = began["data"]["zombies"], began["data"]["master"]
        side = final["result"]["winning_side"]
        words = {"zombies": "Zombies and the Zombie Master win", "survivors": "Survivors win"}[side]
        for page in pages.values():
            await expect(page.get_by_test_id("result")).to_contain_text(f"Game over: {words}")
            banner = page.get_by_test_id("outbreak")
            await expect(banner).to_contain_text(f"Zombie outbreak on turn {began['data']['turn']}")
            for zombie in zombies:
                await expect(page.get_by_test_id(f"seat-{zombie}").get_by_test_id("zombie")).to_be_visible()
            if master:
                marked = page.get_by_test_id(f"seat-{master}").get_by_test_id("zombie-master")
                await expect(marked).to_have_text("Zombie Master")
        await screenshot(first, "zombie-play-end")

        # the replay, anonymous: a face-up Boneyard card with its hands at its reveal, the outbreak
        # line standing out in the timeline, and at the end the zombies, the banner and the win
        watcher = await stack.enter_async_context(person_page(chromium, base_url, "zombie-watcher"))
        reveal = next(e for e in events if e["type"] == "BoneyardRevealed" and e["data"]["hands"])
        await watcher.goto(f"/#/game/{ZOMBIE_GAME}/replay?v={reveal['version']}")
        table = watcher.get_by_test_id("replay-table")
        hands = reveal["data"]["hands"]
        card_words = f"{reveal['data']['card']} ({hands} hand{'s' if hands > 1 else ''})"
        await expect(table.get_by_test_id("boneyard")).to_contain_text(card_words)
        timeline = watcher.get_by_test_id("timeline")
        await expect(timeline.locator(f'li[data-version="{reveal["version"]}"]')).to_contain_text(
            f"{reveal['data']['player']} reveals Boneyard card {card_words}"
        )
        outbreak_line = timeline.locator(f'li[data-version="{began["version"]}"]')
        await expect(outbreak_line).to_have_class(re.compile("event-outbreak"))
        await expect(outbreak_line).to_contain_text(f"OUTBREAK! {' '.join(zombies)} rise as zombies")
        if any(e["type"] == "BoneyardRevealed" and not e["data"]["hands"] for e in events):
            await expect(timeline).to_contain_text("no hands: no outbreak this turn")
        await screenshot(watcher, "zombie-replay-boneyard")
        await watcher.get_by_test_id("replay-last").click()
        board = table.get_by_test_id("board")
        await expect(board.get_by_test_id("result")).to_contain_text(f"Game over: {words}")
        await expect(board.get_by_test_id("outcome")).to_have_text(words)
        await expect(board.get_by_test_id("outbreak")).to_be_visible()
        await expect(board.get_by_test_id("outbreak-fact")).to_contain_text("the Boneyard is out of the game")
        for zombie in zombies:
            zombie_seat = board.get_by_test_id(f"seat-{zombie}")
            await expect(zombie_seat.get_by_test_id("zombie")).to_contain_text("3 dice, no arrows")
        ended = next(e for e in events if e["type"] == "GameEnded")
        await expect(timeline.locator(f'li[data-version="{ended["version"]}"]')).to_contain_text(
            f"game over after the outbreak of turn {began['data']['turn']}: {words[0].lower()}{words[1:]}"
        )
        await screenshot(watcher, "zombie-replay-end")

        # the live view of the finished game reads it over REST: the same zombies and result
        await watcher.goto(f"/#/game/{ZOMBIE_GAME}/live")
        live = watcher.get_by_test_id("board")
        await expect(live.get_by_test_id("outcome")).to_have_text(words)
        for zombie in zombies:
            await expect(live.get_by_test_id(f"seat-{zombie}").get_by_test_id("zombie")).to_be_visible()


TO_THE_BONEYARD = (
    "p1 roll shoot1 shoot1 shoot1 shoot1 shoot1", "p1 stop", *(f"p1 target {d} p2" for d in range(5)),
    "p2 roll shoot2 shoot2 shoot2 shoot2 shoot2", "p2 stop", *(f"p2 target {d} p4" for d in range(5)),
    "p3 roll shoot1 shoot1 shoot1 shoot1 arrow", "p3 stop",
    "p3 target 0 p2", "p3 target 1 p2", "p3 target 2 p4", "p3 target 3 p4",
    "p4 roll arrow arrow arrow arrow arrow", "p4 stop",
    "p1 roll gatling gatling gatling arrow arrow", "p1 stop",
)  # fmt: skip
"""Four turns bring p2 and p4 down to 1 life; p1's gatling on turn 5 eliminates both at once,
so each reveals a Boneyard card at the end of that turn (E6), p2 first."""


async def test_a_scorekeeper_enters_boneyard_reveals_up_to_an_outbreak_at_a_ua4_table(
    base_url: str, chromium: Browser, people: People
) -> None:
    keeper = await people("bonekeep.keeper", "Keeper Bonekeep")
    players = [await people(f"bonekeep.p{n}", f"Bonekeep Seat{n}") for n in range(1, 5)]
    body = {
        "command_id": "bonekeep-create",
        "mode": "table",
        "player_count": 4,
        "ruleset": {"modules": ["UA4"]},
        "seats": [
            {"member_id": p.account_id, "name": p.display_name, "role": s.role, "character": s.character}
            for p, s in zip(players, SHOWDOWN, strict=True)
        ],
    }
    async with httpx.AsyncClient(base_url=base_url, timeout=HTTP_TIMEOUT) as client:
        created = await client.post("/games", json=body, headers=keeper.auth)
        assert created.status_code == 201, created.text
        game_id, version = created.json()["game_id"], created.json()["state"]["version"]
        # the turns before are entered as the page would enter them (tests/browser/test_table_views.py
        # enters dice and targets through the page); the reveals are this test's
        for n, command in enumerate(TO_THE_BONEYARD):
            answer = await client.post(
                f"/games/{game_id}/commands",
                json={"command": command, "command_id": f"bonekeep-{n}", "expected_version": version},
                headers=keeper.auth,
            )
            assert answer.status_code < 300, f"{command}: {answer.text}"
            version = answer.json()["version"]
    async with person_page(chromium, base_url, "bonekeeper") as page:
        await sign_in(page, keeper)
        await page.goto(f"/#/game/{game_id}/table")
        board = page.get_by_test_id("board")
        boneyard = board.get_by_test_id("boneyard")
        choices = page.get_by_test_id("choices")

        async def reveal(seat: str, card: str, words: str) -> None:
            entering = page.get_by_test_id("entering")
            await expect(entering).to_have_text(f"{seat} decides: reveal a Boneyard card")
            button = choices.get_by_role(
                "button", name=re.compile(rf"Revealed Boneyard card {re.escape(words)}")
            )
            await expect(button).to_have_count(1)
            before = await page.get_by_test_id("table-entry").get_attribute("data-version")
            await button.click()
            await expect(page.get_by_test_id("table-entry")).not_to_have_attribute(
                "data-version", before or ""
            )
            await expect(page.get_by_test_id("last-entry")).to_contain_text(f"Revealed Boneyard card {words}")

        # both fell in p1's turn: the eleven cards face down, one button each, for p2 first
        await expect(boneyard).to_have_attribute("data-pile", "11")
        await expect(board.get_by_test_id("seat-p4")).to_contain_text("reveals a Boneyard card on his turn")
        await expect(page.get_by_test_id("entering")).to_have_text("p2 decides: reveal a Boneyard card")
        await expect(choices.get_by_role("button")).to_have_count(11)
        await screenshot(page, "zombie-table-boneyard-draw")

        # a no-hands card: face up until the turn ends, and no outbreak may begin in it
        await reveal("p2", "b01", "b01 (no hands)")
        await expect(boneyard).to_have_attribute("data-face-up", "b01")
        await expect(board.get_by_test_id("boneyard-no-hands")).to_contain_text(
            "no hands: no outbreak this turn"
        )
        await expect(page.get_by_test_id("game-log")).to_contain_text(
            "Bonekeep Seat2 reveals Boneyard card b01 (no hands"
        )
        await screenshot(page, "zombie-table-no-hands")
        # p4's two hands: 2 showing vs 2 alive; the turn ends and the no-hands card goes back
        await reveal("p4", "b10", "b10 (2 hands)")
        await expect(boneyard).to_have_attribute("data-face-up", "b10")
        await expect(boneyard).to_contain_text("10 face down · face up: b10 (2 hands)")
        await expect(boneyard).to_contain_text("2 hands showing vs 2 alive")
        await expect(board.get_by_test_id("boneyard-no-hands")).to_have_count(0)

        # p2's own turn starts with a reveal: 3 hands > 2 alive, the outbreak begins at once and
        # p2 plays this turn as a zombie, his three dice entered like anyone's
        await reveal("p2", "b03", "b03 (1 hand)")
        await expect(board.get_by_test_id("outbreak")).to_contain_text(
            "Zombie outbreak on turn 6! p2, p4 are zombies"
        )
        await expect(board.get_by_test_id("outbreak-fact")).to_contain_text("the Boneyard is out of the game")
        await expect(page.locator("[data-testid=game-log] li.event-outbreak")).to_contain_text(
            "OUTBREAK! Bonekeep Seat2 Bonekeep Seat4 rise as zombies with 2 life"
        )
        for zombie in ("p2", "p4"):
            await expect(board.get_by_test_id(f"seat-{zombie}").get_by_test_id("zombie")).to_be_visible()
        await expect(page.get_by_test_id("entering")).to_have_text(
            re.compile(r"^Enter the (3 )?dice p2 rolled$")
        )
        await expect(page.get_by_test_id("die-entry-2")).to_have_count(1)
        await expect(page.get_by_test_id("die-entry-3")).to_have_count(0)
        await screenshot(page, "zombie-table-outbreak")
        # a zombie's arrows take nothing from the pile
        pile = await board.get_by_test_id("arrow-pile").inner_text()
        await expect(page.get_by_test_id("die-entry-0").get_by_role("radio").first).to_be_focused()
        await page.keyboard.type("aaa")
        before = await page.get_by_test_id("table-entry").get_attribute("data-version")
        await page.keyboard.press("Enter")
        await expect(page.get_by_test_id("table-entry")).not_to_have_attribute("data-version", before or "")
        await expect(page.get_by_test_id("last-entry")).to_contain_text("rolled Arrow, Arrow, Arrow")
        await expect(board.get_by_test_id("arrow-pile")).to_have_text(pile)
        await expect(board.get_by_test_id("seat-p2").get_by_test_id("arrows")).to_have_text("0")
