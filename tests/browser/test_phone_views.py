"""A phone's screen (390×844): keeping score of a dice turn and playing a seat, in the browser.

Each page is measured the way a thumb meets it: scrolled to the top, the awaited entry (the
dice, the reroll choice, the decision's buttons) lies inside the first 844 px, nothing is wider
than the screen, and on a seat every die, card and button is a 44×44 px target at least.
Screenshots at the phone's size and at a laptop's (1280×800) are saved next to the other
browser tests' (test-artifacts/screenshots/)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx
from playwright.async_api import Browser, Locator, Page, expect

from tests.browser.conftest import PAGE_TIMEOUT_MS, Person, refused_by_the_policy, screenshot, sign_in
from tests.browser.playing import (
    HTTP_TIMEOUT,
    click_first_option,
    create_friendly_game,
    open_play,
    version_of,
    wait_for_version,
)

People = Callable[[str, str], Awaitable[Person]]
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
MAX_STEPS = 120
"""Moves of every seat a seat test may wait through (a guard: a few rounds of the table)."""
TOUCH = 44
"""The smallest target a finger hits (CSS px), WCAG 2.5.5's size."""

SEATS = [
    ("sheriff", "jourdonnais"),
    ("outlaw", "willy_the_kid"),
    ("outlaw", "paul_regret"),
    ("renegade", "lucky_duke"),
]


@asynccontextmanager
async def phone_page(chromium: Browser, base_url: str) -> AsyncIterator[Page]:
    """A phone's page (390×844, touch, a phone's user agent): a script error, or anything the
    Content-Security-Policy refused, fails the test."""
    context = await chromium.new_context(base_url=base_url, viewport=PHONE, is_mobile=True, has_touch=True)
    context.set_default_timeout(PAGE_TIMEOUT_MS)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.extend(refused_by_the_policy(message.text)))
    try:
        yield page
    except Exception:
        await screenshot(page, "failed-phone")  # CI keeps it: what the phone showed
        raise
    finally:
        await context.close()
    assert not errors, f"JavaScript errors on the phone's page: {errors}"


async def overflow(page: Page) -> int:
    """How much wider than the screen the page is (0: not at all). A phone's browser widens its
    layout to the page's content (``innerWidth`` grows with it), so the screen's own width counts."""
    size = page.viewport_size
    assert size is not None
    width: int = await page.evaluate("() => document.scrollingElement.scrollWidth")
    return width - size["width"]


async def within_the_first_screen(page: Page, *parts: Locator) -> None:
    """Scrolled to the top, each of ``parts`` is wholly on the first screen, and nothing is wider
    than the screen."""
    for part in parts:
        await expect(part).to_be_visible()  # the page may still be reading the game
    await page.evaluate("() => window.scrollTo(0, 0)")
    assert await overflow(page) <= 0, f"the page is {await overflow(page)} px wider than the phone"
    size = page.viewport_size
    assert size is not None
    for part in parts:
        box = await part.bounding_box()
        assert box is not None, f"{part} is not shown"
        where = f"{part}: {box}"
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (
            f"below the first screen: {where}"
        )
        assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], f"wider than the screen: {where}"


async def touch_targets(targets: Locator) -> int:
    """Every visible one of ``targets`` is at least 44×44 px; answers how many there were."""
    seen = 0
    for target in await targets.all():
        if not await target.is_visible():
            continue
        box = await target.bounding_box()
        assert box is not None
        label = (await target.get_attribute("data-testid")) or (await target.inner_text())[:40]
        size = f"{box['width']}×{box['height']} px"
        assert box["width"] >= TOUCH and box["height"] >= TOUCH, f"{label!r} is {size}"
        seen += 1
    return seen


async def both_sizes(page: Page, name: str) -> None:
    """A screenshot at the phone's size and one at a laptop's, then back to the phone."""
    await page.evaluate("() => window.scrollTo(0, 0)")
    await screenshot(page, f"{name}-phone")
    await page.set_viewport_size(LAPTOP)
    await screenshot(page, f"{name}-laptop")
    await page.set_viewport_size(PHONE)


# --- keeping score of a dice turn -------------------------------------------------------------


async def entered(page: Page, action: Callable[[], Awaitable[Any]]) -> None:
    entry = page.get_by_test_id("table-entry")
    before = await entry.get_attribute("data-version")
    await action()
    await expect(entry).not_to_have_attribute("data-version", before or "")
    await expect(page.get_by_test_id("form-error")).to_have_count(0)


async def test_a_keeper_enters_a_whole_old_saloon_dice_turn_on_a_phone(
    chromium: Browser, base_url: str, people: People
) -> None:
    keeper = await people("phone.keeper", "Keeper Phone")
    players = [await people(f"phone.p{n}", f"Phone Seat{n}") for n in range(1, 5)]
    body = {
        "command_id": "phone-table-create",
        "mode": "table",
        "player_count": 4,
        "ruleset": {"modules": ["OS1", "OS2"]},
        "seats": [
            {"member_id": p.account_id, "name": p.display_name, "role": role, "character": character}
            for p, (role, character) in zip(players, SEATS, strict=True)
        ],
    }
    async with httpx.AsyncClient(base_url=base_url, timeout=HTTP_TIMEOUT) as client:
        created = await client.post("/games", json=body, headers=keeper.auth)
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]

    async with phone_page(chromium, base_url) as page:
        await sign_in(page, keeper)
        await page.goto(f"/#/game/{game_id}/table")
        whose = page.get_by_test_id("whose-turn")
        await expect(whose).to_contain_text("Phone Seat1")

        # OS1: which Saloon die the Sheriff takes, the three choices on the first screen
        choices = page.get_by_test_id("choices")
        await expect(choices.get_by_role("button")).to_have_count(3)
        await within_the_first_screen(page, whose, choices)
        await both_sizes(page, "phone-table-saloon-choice")
        await entered(page, lambda: choices.get_by_role("button", name="Roll the Loudmouth die").click())

        # the five dice, face by face: every die and the button that enters them on the first screen
        dice = page.get_by_test_id("dice-entry")
        await expect(page.get_by_test_id("die-entry-4")).to_have_attribute("data-kind", "loudmouth")
        await within_the_first_screen(page, whose, dice, page.get_by_role("button", name="Enter the roll"))
        await both_sizes(page, "phone-table-dice")
        # the keyboard entry is kept (a tablet's or a laptop's keeper): one key a die, then Enter
        await expect(page.get_by_test_id("die-entry-0").get_by_role("radio").first).to_be_focused()
        await page.keyboard.type("a11d1")
        await expect(page.get_by_test_id("dice-set")).to_have_text("5 of 5 dice set")
        await entered(page, lambda: page.keyboard.press("Enter"))

        # OS2: the first arrow is the Chief's, or a plain one
        await expect(page.get_by_test_id("entering")).to_contain_text("p1 decides")
        arrow = page.get_by_test_id("choices")
        await within_the_first_screen(page, whose, arrow)
        await both_sizes(page, "phone-table-chief-arrow")
        await entered(page, lambda: arrow.get_by_role("button").first.click())

        # the reroll choice: the dice as toggles, Reroll and Stop on the first screen
        reroll = page.get_by_test_id("reroll-choice")
        await expect(reroll).to_contain_text("2 rolls left")
        await within_the_first_screen(page, whose, reroll)
        await both_sizes(page, "phone-table-reroll")
        await page.get_by_test_id("reroll-die-0").click()
        await page.get_by_test_id("reroll-die-4").click()
        await entered(page, lambda: page.get_by_role("button", name="Reroll 2 dice").click())

        # only the two dice rerolled are entered, by touch this time
        await expect(page.get_by_test_id("entering")).to_have_text("Enter the 2 dice p1 rolled")
        await within_the_first_screen(page, whose, page.get_by_test_id("dice-entry"))
        await page.get_by_test_id("die-entry-0").get_by_label("1", exact=True).check()
        await page.get_by_test_id("die-entry-4").get_by_label("1 ×2", exact=True).check()
        await entered(page, lambda: page.get_by_role("button", name="Enter the roll").click())
        await entered(page, lambda: page.get_by_test_id("stop").click())

        # the shots: a row per die, each living player a button, the rows on the first screen
        aiming = page.get_by_test_id("target-choice")
        await expect(aiming).to_be_visible()
        await within_the_first_screen(page, whose, aiming)
        await both_sizes(page, "phone-table-aim")
        for _ in range(6):
            if not await aiming.count():
                break
            await entered(page, lambda: aiming.locator("button.legal").first.click())
        # the turn passed on: the next player's entry is on the first screen again
        await expect(whose).to_contain_text("Phone Seat2")
        entry = page.get_by_test_id("table-entry").locator(".decision, .dice-entry").first
        await within_the_first_screen(page, whose, entry)


# --- playing a seat ----------------------------------------------------------------------------


async def state_of(base_url: str, game_id: str, who: Person | None = None) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base_url, timeout=HTTP_TIMEOUT) as client:
        answer = await client.get(f"/games/{game_id}", headers=who.auth if who else None)
    assert answer.status_code == 200, answer.text
    state: dict[str, Any] = answer.json()
    return state


async def awaited_person(base_url: str, game_id: str, players: list[Person]) -> tuple[Person, str]:
    """Whoever the game waits for first (the server rolled the first dice, or dealt the cards)."""
    state = await state_of(base_url, game_id)
    seat = state["awaiting"]["player"]
    member = next(p["member_id"] for p in state["players"] if p["id"] == seat)
    return next(p for p in players if p.account_id == member), seat


async def another_seat_moves(base_url: str, game_id: str, who: Person, number: int) -> None:
    """The awaited player of another seat makes his first legal move over the API (his own
    session), as his own browser would."""
    async with httpx.AsyncClient(base_url=base_url, timeout=HTTP_TIMEOUT) as client:
        state = (await client.get(f"/games/{game_id}", headers=who.auth)).json()
        legal = state.get("legal_commands") or []
        if not legal:
            return  # the server is rolling for him: read the game again
        body = {
            "command": legal[0],
            "command_id": f"{game_id}-other-{number}",
            "expected_version": state["version"],
        }
        answer = await client.post(f"/games/{game_id}/commands", json=body, headers=who.auth)
    assert answer.status_code == 200, answer.text


async def a_phone_seat_decides(
    page: Page, base_url: str, game_id: str, seat: str, players: list[Person], name: str, moves: int
) -> int:
    """The phone's seat makes ``moves`` moves, the other seats moving over the API in between.
    At each of the phone's: the decision on the first screen, every button of the seat page (the
    decision's, the dice, the seats to aim at, the cards to pick) a finger's size; then the first
    option is clicked, as a player would. Answers how many dice were offered as toggles to reroll
    on the way."""
    root = page.get_by_test_id("play")
    by_member = {p.account_id: p for p in players}
    toggles = mine = 0
    for step in range(MAX_STEPS):
        if mine == moves:
            break
        # the game as the server has it (its own rolls included), and the page showing it
        truth = await state_of(base_url, game_id)
        await wait_for_version(page, truth["version"])
        if truth["status"] != "ongoing":
            break
        awaited = (truth["awaiting"] or {}).get("player")
        if awaited != seat:
            member = next((p["member_id"] for p in truth["players"] if p["id"] == awaited), None)
            if member is None:
                await page.wait_for_timeout(200)  # nobody's decision yet: the server is rolling
            else:
                await another_seat_moves(base_url, game_id, by_member[member], step)
            continue
        await expect(root).to_have_attribute("data-deciding", "true")
        if mine == 0:
            await both_sizes(page, name)
        mine += 1
        # the decision's title and its first option; with the dice to reroll, the dice and the
        # whole decision (a card game's turn lists every card's options: its list goes on below)
        decision = page.get_by_test_id("decision")
        first = [
            page.get_by_test_id("your-decision"),
            decision.locator("h2"),
            decision.locator("[data-option]").first,
        ]
        dice = root.locator("[data-testid^=reroll-die-]")
        if await dice.count():
            first += [decision, page.get_by_test_id("dice")]
            if not toggles:
                await both_sizes(page, f"{name}-reroll")
            # a die's tooltip counts from 1, as the page's words do (reroll-die-<index> from 0)
            index = int((await dice.first.get_attribute("data-testid") or "").rsplit("-", 1)[1])
            title = await dice.first.get_attribute("title") or ""
            assert title.startswith(f"Die {index + 1}: "), title
        await within_the_first_screen(page, *first)
        assert await touch_targets(page.get_by_test_id("decision").get_by_role("button")) >= 1
        await touch_targets(root.get_by_role("button"))
        toggles += await root.locator("[data-testid^=reroll-die-]").count()
        before = await version_of(page)
        await click_first_option(page)
        await page.wait_for_function(
            """(v) => { const p = document.querySelector('[data-testid=play]');
                        return p && p.dataset.busy !== 'true' && Number(p.dataset.version) > v; }""",
            arg=before,
            timeout=PAGE_TIMEOUT_MS,
        )
    assert mine > 0, "the phone's seat was never asked anything"
    await page.evaluate("() => window.scrollTo(0, 0)")
    assert await overflow(page) <= 0
    return toggles


async def test_a_player_plays_his_seat_of_an_online_dice_game_on_a_phone(
    chromium: Browser, base_url: str, people: People
) -> None:
    organiser = await people("phone.dice.org", "Dice Organiser")
    players = [await people(f"phone.dice{n}", f"Dice{n} Phone") for n in range(1, 5)]
    game_id = await create_friendly_game(base_url, organiser, players, "phone-dice-seat", modules=["OS2"])
    player, seat = await awaited_person(base_url, game_id, players)
    async with phone_page(chromium, base_url) as page:
        await sign_in(page, player)
        await open_play(page, game_id)
        await expect(page.get_by_test_id("your-decision")).to_be_visible()
        # the dice were toggles while he might reroll, each a finger's size
        assert (
            await a_phone_seat_decides(page, base_url, game_id, seat, players, "phone-seat-dice", moves=6) > 0
        )


async def test_a_player_plays_his_seat_of_an_online_card_game_on_a_phone(
    chromium: Browser, base_url: str, people: People
) -> None:
    organiser = await people("phone.cards.org", "Cards Organiser")
    players = [await people(f"phone.cards{n}", f"Cards{n} Phone") for n in range(1, 5)]
    body = {
        "command_id": "phone-cards-seat",
        "mode": "online",
        "player_count": 4,
        "members": [{"member_id": p.account_id, "name": p.display_name} for p in players],
        "ruleset": {"game_type": "cards"},
    }
    async with httpx.AsyncClient(base_url=base_url, timeout=HTTP_TIMEOUT) as client:
        created = await client.post("/games", json=body, headers=organiser.auth)
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    player, seat = await awaited_person(base_url, game_id, players)
    async with phone_page(chromium, base_url) as page:
        await sign_in(page, player)
        await open_play(page, game_id)
        await expect(page.get_by_test_id("my-hand")).to_be_visible()
        await a_phone_seat_decides(page, base_url, game_id, seat, players, "phone-seat-cards", moves=4)


async def test_a_keeper_keeps_score_of_a_card_table_on_a_phone(
    chromium: Browser, base_url: str, people: People
) -> None:
    keeper = await people("phone.cardkeeper", "Card Keeper Phone")
    players = [await people(f"phone.cardtable{n}", f"Table{n} Phone") for n in range(1, 5)]
    seats = [
        ("sheriff", "bart_cassidy"),
        ("outlaw", "el_gringo"),
        ("outlaw", "suzy_lafayette"),
        ("renegade", "kit_carlson"),
    ]
    body = {
        "command_id": "phone-card-table",
        "mode": "table",
        "player_count": 4,
        "ruleset": {"game_type": "cards"},
        "seats": [
            {"member_id": p.account_id, "name": p.display_name, "role": role, "character": character}
            for p, (role, character) in zip(players, seats, strict=True)
        ],
    }
    async with httpx.AsyncClient(base_url=base_url, timeout=HTTP_TIMEOUT) as client:
        created = await client.post("/games", json=body, headers=keeper.auth)
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    async with phone_page(chromium, base_url) as page:
        await sign_in(page, keeper)
        await page.goto(f"/#/game/{game_id}/table")
        entry = page.get_by_test_id("table-entry")
        # the shuffle, then the first card of the deal: each the first thing under the page's title
        await within_the_first_screen(
            page, page.get_by_test_id("turn-head"), entry.get_by_test_id("shuffle-entry")
        )
        await both_sizes(page, "phone-card-table-shuffle")
        await entered(page, lambda: entry.get_by_test_id("shuffle-unknown").click())
        answer = entry.get_by_test_id("table-answer")
        await within_the_first_screen(page, answer, answer.get_by_test_id("table-enter"))
        await both_sizes(page, "phone-card-table-deal")
        # the deal (5+3+4+4 cards named as each player takes them) and the Sheriff's two draws
        for n in range(18):
            options = (
                await answer.get_by_test_id("table-card")
                .locator("option")
                .evaluate_all("os => os.map(o => o.value)")
            )
            await answer.get_by_test_id("table-card").select_option(options[(7 * n) % len(options)])
            await entered(page, lambda: answer.get_by_test_id("table-enter").click())
        # his turn: the decision's title and first card to play right under the turn's line, and
        # every button of the entry a finger's size
        decision = entry.get_by_test_id("decision")
        await expect(decision).to_have_attribute("data-decision", "play")
        await within_the_first_screen(
            page,
            page.get_by_test_id("turn-head"),
            decision.locator("h2"),
            decision.locator("[data-option]").first,
        )
        assert await touch_targets(entry.get_by_role("button")) > 2
        await both_sizes(page, "phone-card-table-play")


async def test_a_keeper_enters_an_undead_or_alive_roll_on_a_phone(
    chromium: Browser, base_url: str, people: People
) -> None:
    keeper = await people("phone.uakeeper", "Undead Keeper Phone")
    players = [await people(f"phone.ua{n}", f"Undead{n} Phone") for n in range(1, 5)]
    body = {
        "command_id": "phone-ua-table",
        "mode": "table",
        "player_count": 4,
        "ruleset": {"modules": ["UA1", "UA2"]},
        "seats": [
            {"member_id": p.account_id, "name": p.display_name, "role": role, "character": character}
            for p, (role, character) in zip(players, SEATS, strict=True)
        ],
    }
    async with httpx.AsyncClient(base_url=base_url, timeout=HTTP_TIMEOUT) as client:
        created = await client.post("/games", json=body, headers=keeper.auth)
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    async with phone_page(chromium, base_url) as page:
        await sign_in(page, keeper)
        await page.goto(f"/#/game/{game_id}/table")
        whose = page.get_by_test_id("whose-turn")
        await expect(page.get_by_test_id("rage-pile")).to_contain_text("face down")
        dice = page.get_by_test_id("dice-entry")
        await within_the_first_screen(page, whose, dice, page.get_by_role("button", name="Enter the roll"))
        await both_sizes(page, "phone-table-undead-dice")
        # each die's first face, by touch; then whatever the engine awaits is on the first screen
        for row in await dice.locator("fieldset.die-entry").all():
            await row.locator("label.face-choice").first.click()
        await entered(page, lambda: page.get_by_role("button", name="Enter the roll").click())
        awaited = page.get_by_test_id("table-entry").locator(".decision, .dice-entry").first
        await within_the_first_screen(page, whose, awaited)
        await both_sizes(page, "phone-table-undead-decision")
