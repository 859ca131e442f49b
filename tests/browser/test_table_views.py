"""Keeping score at a physical table (#/game/<id>/table), in the browser against the real API.

The keeper enters a whole table game through the page alone: the dice face by face (clicks and
the keyboard), each decision from the engine's legal options, a refused entry (the engine's
referee message shown, nothing appended) and a correction (the latest entry taken back, then
entered right). The result is asserted on the page and through the API.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import httpx
from playwright.async_api import Browser, Page, expect

from tests.browser.conftest import Person, person_page, screenshot, sign_in
from tests.browser.table_setup import game_state, make_table_game, schedule_table_game

PHONE = {"width": 390, "height": 844}


async def version_shown(page: Page) -> str:
    version = await page.get_by_test_id("table-entry").get_attribute("data-version")
    assert version is not None
    return version


async def entered(page: Page, action: Callable[[], Awaitable[None]]) -> None:
    """Do ``action`` and wait until the page shows the game at a later version."""
    before = await version_shown(page)
    await action()
    await expect(page.get_by_test_id("table-entry")).not_to_have_attribute("data-version", before)


async def roll_by_clicks(page: Page, faces: dict[int, str]) -> None:
    """Pick each die's face by its name (one click a die), then enter the roll."""
    for index, face in faces.items():
        await page.get_by_test_id(f"die-entry-{index}").get_by_label(face, exact=True).check()
    await entered(page, lambda: page.get_by_role("button", name="Enter the roll").click())


async def roll_by_keys(page: Page, keys: str) -> None:
    """Type one key per die (the first die has the focus), then Enter."""
    await expect(page.get_by_test_id("die-entry-0").get_by_role("radio").first).to_be_focused()
    await page.keyboard.type(keys)
    await expect(page.get_by_test_id("dice-set")).to_have_text(f"{len(keys)} of {len(keys)} dice set")
    await entered(page, lambda: page.keyboard.press("Enter"))


async def aim(page: Page, die: int, seat: str) -> None:
    await entered(page, lambda: page.get_by_test_id(f"aim-{die}-{seat}").click())


async def test_a_keeper_enters_a_whole_table_game_with_a_refusal_and_a_correction(
    chromium: Browser, base_url: str, people: Callable[[str, str], Awaitable[Person]]
) -> None:
    game = await make_table_game(base_url, people, "showdown")
    async with person_page(chromium, base_url, "keeper") as page:
        await sign_in(page, game.keeper)
        await page.goto(f"/#/game/{game.game_id}/table")

        # turn 1, the Sheriff: five dice typed on the keyboard (1 1 a d d)
        whose = page.get_by_test_id("whose-turn")
        await expect(whose).to_contain_text("p1 Showdown Seat1 — Jourdonnais · Sheriff")
        await expect(page.get_by_test_id("entering")).to_have_text("Enter the dice p1 rolled")
        await expect(page.get_by_test_id("die-entry-0").get_by_role("radio")).to_have_count(6)
        await page.keyboard.type("11ad")
        await expect(page.get_by_test_id("dice-set")).to_have_text("4 of 5 dice set")
        await screenshot(page, "table-dice-entry")
        await page.keyboard.type("d")
        await entered(page, lambda: page.keyboard.press("Enter"))
        await expect(page.get_by_test_id("last-entry")).to_have_text(
            "Entered: p1 Showdown Seat1 rolled 1, 1, Arrow, Dynamite, Dynamite"
        )

        # reroll the two shots; the dynamite may not be rerolled (marked, still there)
        await expect(page.get_by_test_id("reroll-choice")).to_contain_text("2 rolls left")
        await expect(page.get_by_test_id("reroll-die-3")).to_have_class("die-toggle not-legal")
        # a dynamite die cannot even be picked: the page offers only what the rules allow
        await expect(page.get_by_test_id("reroll-die-3")).to_be_disabled()
        await expect(page.get_by_test_id("reroll-die-4")).to_be_disabled()
        await expect(page.get_by_test_id("reroll-die-3")).to_have_attribute("aria-pressed", "false")
        await page.get_by_test_id("reroll-die-0").click()
        await page.get_by_test_id("reroll-die-1").click()
        await screenshot(page, "table-decision-reroll")
        await entered(page, lambda: page.get_by_role("button", name="Reroll 2 dice").click())
        # only the two dice rerolled are entered; the kept ones are shown
        await expect(page.get_by_test_id("entering")).to_have_text("Enter the 2 dice p1 rolled")
        await expect(page.get_by_test_id("kept-dice").locator("[data-face]")).to_have_count(3)
        await roll_by_clicks(page, {0: "Dynamite", 1: "Gatling"})  # a third dynamite: 1 life, the turn ends

        # turn 2, an outlaw: a mistaken roll, taken back and entered right
        await expect(whose).to_contain_text("p2 Showdown Seat2 — Willy The Kid")
        await roll_by_clicks(page, {0: "1", 1: "1", 2: "1", 3: "1", 4: "Beer"})
        take_back = page.get_by_test_id("take-back")
        await expect(take_back).to_have_text("Take back: p2 Showdown Seat2 rolled 1, 1, 1, 1, Beer")
        await screenshot(page, "table-correction")
        await entered(page, lambda: take_back.click())
        await expect(page.get_by_test_id("last-entry")).to_have_text(
            "Taken back: p2 Showdown Seat2 rolled 1, 1, 1, 1, Beer"
        )
        # the history keeps the mistaken roll, and the correction after it
        log = page.get_by_test_id("game-log").get_by_role("listitem")
        await expect(log.first).to_contain_text("the scorekeeper took back an entry")
        await expect(log.nth(1)).to_contain_text(
            "Showdown Seat2's roll 1: Shoot 1, Shoot 1, Shoot 1, Shoot 1, Beer"
        )
        await expect(page.get_by_test_id("entering")).to_have_text("Enter the dice p2 rolled")
        await roll_by_keys(page, "11111")
        await entered(page, lambda: page.get_by_test_id("stop").click())

        # aiming: p1 and p3 are in a shoot1's range (marked on the buttons and on the table)
        await expect(page.get_by_test_id("aim-0-p1")).to_have_class("button choice legal")
        await expect(page.get_by_test_id("aim-0-p4")).to_have_class("button choice not-legal")
        await expect(page.get_by_test_id("seat-p3")).to_have_class("seat seat-legal-target")
        # p4 sits at distance 2: the engine refuses, in its words, and nothing is appended
        before = (await game_state(base_url, game.game_id, game.keeper))["version"]
        await page.get_by_test_id("aim-0-p4").click()
        refusal = page.get_by_test_id("form-error")
        await expect(refusal).to_have_text("p4 is at distance 2; a shoot1 reaches distance 1")
        await screenshot(page, "table-refusal")
        assert (await game_state(base_url, game.game_id, game.keeper))["version"] == before
        assert await version_shown(page) == str(before)
        for die in range(5):
            await aim(page, die, "p1")
        await expect(page.get_by_test_id("form-error")).to_have_count(0)
        await expect(page.get_by_test_id("seat-p1").get_by_test_id("life")).to_have_text("3")

        # turn 3, the other outlaw, at a phone's size: five shoot2 at the Sheriff, two away
        await page.set_viewport_size(PHONE)
        await expect(whose).to_contain_text("p3 Showdown Seat3 — Paul Regret")
        await screenshot(page, "table-dice-entry-phone")
        await roll_by_keys(page, "22222")
        await entered(page, lambda: page.get_by_test_id("stop").click())
        # all five at the Sheriff in one click: five entries, one per die
        await expect(page.get_by_test_id("aim-all-p1")).to_have_text("✓ p1 Showdown Seat1 (legal)")
        await screenshot(page, "table-decision-phone")
        await entered(page, lambda: page.get_by_test_id("aim-all-p1").click())

        await expect(page.get_by_test_id("table-result")).to_contain_text(
            "Outlaws win (p2 Showdown Seat2, p3 Showdown Seat3)."
        )
        await expect(page.get_by_test_id("turn-head")).to_have_text("Game over after turn 3")
        await expect(whose).to_have_count(0)
        await expect(page.get_by_test_id("dice-entry")).to_have_count(0)
        await screenshot(page, "table-end-phone")

    async with httpx.AsyncClient(base_url=base_url) as client:
        events = (await client.get(f"/games/{game.game_id}/events")).json()
    kinds = [e["type"] for e in events]
    # the correction is an event of its own; the mistaken roll stays in the history
    assert kinds.count("EntryTakenBack") == 1
    assert kinds.count("TargetChosen") == 10
    final = await game_state(base_url, game.game_id)
    assert final["status"] == "ended"
    assert final["result"]["winning_side"] == "outlaws"
    assert {p["id"]: p["life"] for p in final["players"]}["p1"] == 0
    assert [p["alive"] for p in final["players"]] == [False, True, True, True]


async def test_a_league_scorekeeper_enters_a_saloon_die_by_its_kind_and_a_player_only_watches(
    chromium: Browser, base_url: str, people: Callable[[str, str], Awaitable[Person]]
) -> None:
    game = await schedule_table_game(base_url, people, "saloonkeep", modules=["OS1"])
    before = await game_state(base_url, game.game_id)
    first = before["active_player"]
    # the player who must decide first watches the same page: the game, no form
    sheriff = next(p for p in before["players"] if p["id"] == first)["member_id"]
    async with (
        person_page(chromium, base_url, "scorekeeper") as page,
        person_page(chromium, base_url, "player") as watching,
    ):
        await sign_in(watching, next(p for p in game.players if p.account_id == sheriff))
        await watching.goto(f"/#/game/{game.game_id}/table")
        await expect(watching.get_by_test_id("connection")).to_have_text("live")
        await expect(watching.get_by_test_id("version")).to_have_text(str(before["version"]))

        # the scorekeeper's way in: their page lists the table they keep, by its league's name,
        # round and table (never the game's id)
        await sign_in(page, game.keeper)
        await page.get_by_role("link", name="Keep score: League, round 1, table 1").click()
        assert page.url.endswith(f"#/game/{game.game_id}/table")
        await expect(page.get_by_test_id("entering")).to_have_text(f"{first} decides: saloon die")

        # OS1: which Saloon die the player takes; the engine's three options as buttons
        choices = page.get_by_test_id("choices").get_by_role("button")
        await expect(choices).to_have_count(3)
        await entered(page, lambda: choices.filter(has_text="Roll the Loudmouth die").click())

        # the fifth die is the Loudmouth: its own six faces, set by the state, not typed
        loudmouth = page.get_by_test_id("die-entry-4")
        await expect(loudmouth).to_have_attribute("data-kind", "loudmouth")
        await expect(loudmouth.get_by_role("radio")).to_have_count(6)
        await expect(loudmouth.get_by_label("Bullet", exact=True)).to_have_count(1)
        await expect(page.get_by_test_id("die-entry-0").get_by_label("Beer", exact=True)).to_have_count(1)
        await expect(loudmouth.get_by_label("Beer", exact=True)).to_have_count(0)
        # "1" on the Loudmouth die is its double shot
        await page.keyboard.type("bbab1")
        await expect(loudmouth.get_by_role("radio", name="1 ×2", exact=True)).to_be_checked()
        await screenshot(page, "table-saloon-dice")
        await entered(page, lambda: page.keyboard.press("Enter"))

        state = await game_state(base_url, game.game_id, game.keeper)
        assert state["dice"] == ["beer", "beer", "arrow", "beer", "shoot1x2"]
        assert state["dice_kinds"] == ["base", "base", "base", "base", "loudmouth"]

        # the watching player's page followed, live; it is their decision, still no form for them
        await expect(watching.get_by_test_id("version")).to_have_text(str(state["version"]))
        await expect(watching.get_by_test_id("board").locator("[data-face='shoot1x2']")).to_have_count(1)
        await expect(watching.get_by_test_id("not-keeper")).to_have_text(
            "Only this game's scorekeeper enters its dice and decisions: at a league table, the member named "
            "to keep its score; at a friendly table, whoever created it."
        )
        await expect(watching.get_by_test_id("dice-entry")).to_have_count(0)
        await expect(watching.get_by_test_id("reroll-choice")).to_have_count(0)
        await expect(watching.get_by_test_id("take-back")).to_have_count(0)
