"""Undead or Alive in the browser: duels and wound tokens (UA1) and Rage cards (UA2) on the seat
page, the live and replay views and the scorekeeper's page.

An online UA1+UA2 game is played to the end by four people, each in a browser of their own,
clicking their pages' controls; whenever a face-down Rage card is held, its holder's page names it
on his own seat and no other page's DOM contains its id. The wound tokens and the duel show on
the table. A scorekeeper enters a UA2 table game through the page, a Rage draw included."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack

import httpx
from playwright.async_api import Browser, Page, expect

from tests.browser.conftest import Person, person_page, screenshot, sign_in
from tests.browser.playing import (
    HTTP_TIMEOUT,
    MAX_MOVES,
    click_first_option,
    create_friendly_game,
    deciding_page,
    open_play,
    version_of,
    wait_for_version,
)
from tests.browser.table_setup import SHOWDOWN, game_state

People = Callable[[str, str], Awaitable[Person]]
PHONE = {"width": 390, "height": 844}


def named(card: str, html: str) -> bool:
    """Whether ``html`` names the Rage card ``card`` ("r05") as a word of its own."""
    return re.search(rf"(?<![\w-]){card}(?![\w-])", html) is not None


async def _check_hidden(
    client: httpx.AsyncClient,
    game_id: str,
    pages: dict[str, Page],
    people: dict[str, Person],
    checked: set[str],
) -> tuple[int, bool]:
    """Each face-down card held now: its holder's page names it on his seat, no other page does.
    Answers (cards checked, whether some wound token was held and shown)."""
    public = (await client.get(f"/games/{game_id}")).json()
    count = 0
    wounds = False
    for seat in public["players"]:
        if seat.get("wound_tokens"):
            page = next(iter(pages.values()))
            if await version_of(page) == public["version"]:
                shown = page.get_by_test_id(f"seat-{seat['id']}").get_by_test_id("wound-tokens")
                await expect(shown).to_have_attribute("data-tokens", " ".join(seat["wound_tokens"]))
                wounds = True
        if not seat["rage_count"]:
            continue
        holder = people[seat["member_id"]]
        mine = (await client.get(f"/games/{game_id}", headers=holder.auth)).json()
        cards = next(p for p in mine["players"] if p["id"] == seat["id"])["rage_cards"]
        if mine["version"] != public["version"] or set(cards) <= checked:
            continue  # the game moved on meanwhile, or these cards were checked already
        own_page = pages[seat["member_id"]]
        if await version_of(own_page) != mine["version"]:
            continue
        own = own_page.get_by_test_id(f"seat-{seat['id']}").get_by_test_id("rage-own")
        for card in cards:
            await expect(own).to_contain_text(card)
        for member, page in pages.items():
            if member == seat["member_id"]:
                continue
            badge = page.get_by_test_id(f"seat-{seat['id']}").get_by_test_id("rage-cards")
            await expect(badge).to_have_attribute("data-count", str(len(cards)))
            # the page outside its game log names no face-down card; the log is the game's history,
            # where a card appears only in a public reveal (a card revealed, discarded and
            # reshuffled may be drawn again: the old reveal says nothing of who holds it now)
            html = await page.get_by_test_id("play").inner_html()
            lines = await page.get_by_test_id("game-log").locator("li").all_inner_texts()
            for card in cards:
                assert not named(card, html), f"{card}, face down in {seat['id']}'s hand, is in another page"
                for line in lines:
                    assert not named(card, line) or " reveals " in line, f"{card} in the log: {line}"
        checked |= set(cards)
        count += len(cards)
    return count, wounds


async def test_an_online_duel_and_rage_game_shows_rage_cards_to_their_holder_only(
    base_url: str, chromium: Browser, people: People
) -> None:
    organiser = await people("undead-org", "Undertaker Organiser")
    players = [await people(f"undead-{n.lower()}", f"{n} Undead") for n in ("Amos", "Bess", "Cole", "Dora")]
    game_id = await create_friendly_game(base_url, organiser, players, "undead-play", modules=("UA1", "UA2"))
    by_member = {p.account_id: p for p in players}
    async with AsyncExitStack() as stack:
        pages: dict[str, Page] = {}
        for player in players:
            page = await stack.enter_async_context(person_page(chromium, base_url, player.login))
            await sign_in(page, player)
            await open_play(page, game_id)
            pages[player.account_id] = page
        client = await stack.enter_async_context(httpx.AsyncClient(base_url=base_url, timeout=HTTP_TIMEOUT))
        first = next(iter(pages.values()))
        await expect(first.get_by_test_id("duel")).to_be_visible()
        await expect(first.get_by_test_id("wound-pile")).to_have_text("15 in the pile")
        await expect(first.get_by_test_id("rage-pile")).to_contain_text("18 face down")

        checked: set[str] = set()
        hidden = 0
        wounds = False
        clicked: list[str] = []
        shot = False
        for _ in range(MAX_MOVES):
            versions = [await version_of(page) for page in pages.values()]
            for page in pages.values():
                await wait_for_version(page, max(versions))
            statuses = {await p.get_by_test_id("play").get_attribute("data-status") for p in pages.values()}
            if statuses == {"ended"}:
                break
            found_cards, found_wounds = await _check_hidden(client, game_id, pages, by_member, checked)
            hidden += found_cards
            wounds = wounds or found_wounds
            if found_cards and not shot:
                await screenshot(first, "undead-play-rage")
                shot = True
            found = await deciding_page(pages)
            if found is None:
                for page in pages.values():
                    await wait_for_version(page, max(versions) + 1)
                continue
            _, page = found
            if await page.get_by_test_id("aim-group-ability").count():
                title = await page.get_by_test_id("aim-group-ability").inner_text()
                if "duel" in title.lower():
                    await screenshot(page, "undead-play-duel-target")
            before = await version_of(page)
            clicked.append(await click_first_option(page))
            await page.wait_for_function(
                """(v) => { const p = document.querySelector('[data-testid=play]');
                            return p && p.dataset.busy !== 'true'
                              && (Number(p.dataset.version) > v
                                  || document.querySelector('[data-testid=form-error]')); }""",
                arg=before,
                timeout=30_000,
            )
            assert not await page.get_by_test_id("form-error").count()
        else:
            raise AssertionError(f"game {game_id} did not end")
        assert hidden, "no face-down Rage card was held while the game ran"
        assert wounds, "no wound token was shown while the game ran"
        events = (await client.get(f"/games/{game_id}/events")).json()
        types = {e["type"] for e in events}
        assert {"RageDrawn", "DuelChallenged", "DuelThrown"} <= types
        # the duel's target was a control: the clicks include a duel_target answer
        duel_at = next(e for e in events if e["type"] == "DuelChallenged")["data"]
        assert f"{duel_at['player']} target {duel_at['target']}" in clicked
        for page in pages.values():
            await expect(page.get_by_test_id("result")).to_contain_text("Game over")
        await screenshot(first, "undead-play-end")

        # the replay, anonymous, at a card's draw: the count shows, the card does not, nor its line
        # (a card drawn in the same command that starts its holder's turn is revealed at once:
        # the first draw whose table, after its command, still holds it face down)
        for drawn in (e for e in events if e["type"] == "RageDrawn"):
            at = (await client.get(f"/games/{game_id}/versions/{drawn['version']}")).json()
            holder = next(p for p in at["players"] if p["id"] == drawn["data"]["player"])
            if holder["rage_count"]:
                assert holder["rage_cards"] is None  # hidden at that step, though the game is over
                break
        else:
            raise AssertionError("no Rage card stayed face down after its draw")
        watcher = await stack.enter_async_context(person_page(chromium, base_url, "undead-watcher"))
        await watcher.goto(f"/#/game/{game_id}/replay?v={drawn['version']}")
        table = watcher.get_by_test_id("board")
        seat = table.get_by_test_id(f"seat-{drawn['data']['player']}").get_by_test_id("rage-cards")
        await expect(seat).not_to_have_attribute("data-count", "0")
        await expect(table.get_by_test_id("rage-own")).to_have_count(0)
        line = f"{drawn['data']['player']} draws a Rage card, face down"
        await expect(watcher.get_by_text(line).first).to_be_visible()
        await expect(table.get_by_test_id("wound-pile")).to_be_visible()
        await screenshot(watcher, "undead-replay-rage-drawn")
        await watcher.set_viewport_size(PHONE)
        await screenshot(watcher, "undead-replay-rage-drawn-phone")

        # the live view of the finished game: the Rage pile and the wound tokens' pile, read over REST
        await watcher.goto(f"/#/game/{game_id}/live")
        await expect(watcher.get_by_test_id("rage-pile")).to_contain_text("face down")
        await expect(watcher.get_by_test_id("wound-pile")).to_contain_text("in the pile")
        await expect(watcher.get_by_test_id("seat-p1").get_by_test_id("rage-cards")).to_be_visible()
        await first.set_viewport_size(PHONE)
        await screenshot(first, "undead-play-end-phone")


async def test_a_scorekeeper_enters_a_rage_draw_at_a_ua2_table(
    base_url: str, chromium: Browser, people: People
) -> None:
    keeper = await people("ragekeep.keeper", "Keeper Ragekeep")
    players = [await people(f"ragekeep.p{n}", f"Ragekeep Seat{n}") for n in range(1, 5)]
    body = {
        "command_id": "ragekeep-create",
        "mode": "table",
        "player_count": 4,
        "ruleset": {"modules": ["UA2"]},
        "seats": [
            {"member_id": p.account_id, "name": p.display_name, "role": s.role, "character": s.character}
            for p, s in zip(players, SHOWDOWN, strict=True)
        ],
    }
    async with httpx.AsyncClient(base_url=base_url, timeout=HTTP_TIMEOUT) as client:
        created = await client.post("/games", json=body, headers=keeper.auth)
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    async with (
        person_page(chromium, base_url, "ragekeeper") as page,
        person_page(chromium, base_url, "rageplayer") as watching,
    ):
        await sign_in(page, keeper)
        await page.goto(f"/#/game/{game_id}/table")
        await expect(page.get_by_test_id("entering")).to_have_text("Enter the dice p1 rolled")
        await expect(page.get_by_test_id("rage-pile")).to_contain_text("18 face down")

        async def entered(action: Callable[[], Awaitable[None]]) -> None:
            before = await page.get_by_test_id("table-entry").get_attribute("data-version")
            await action()
            entry = page.get_by_test_id("table-entry")
            await expect(entry).not_to_have_attribute("data-version", before or "")

        # p1 shoots p4 twice: p4 lost 2 life this turn, so he draws a Rage card when it ends
        await expect(page.get_by_test_id("die-entry-0").get_by_role("radio").first).to_be_focused()
        await page.keyboard.type("11aab")
        await entered(lambda: page.keyboard.press("Enter"))
        await entered(lambda: page.get_by_test_id("stop").click())
        choosing = page.locator("[data-testid=target-choice], [data-testid=choices]")
        while await choosing.count():
            entering = await page.get_by_test_id("entering").inner_text()
            if "draw a Rage card" in entering:
                break
            if await page.get_by_test_id("aim-all-p4").count():
                await entered(lambda: page.get_by_test_id("aim-all-p4").click())
            elif await page.get_by_test_id("aim-0-p4").count():
                await entered(lambda: page.get_by_test_id("aim-0-p4").click())
            elif await page.get_by_test_id("aim-1-p4").count():
                await entered(lambda: page.get_by_test_id("aim-1-p4").click())
            else:  # the beer: any legal choice
                await entered(lambda: page.locator("button.choice.legal").first.click())
        await expect(page.get_by_test_id("entering")).to_have_text("p4 decides: draw a Rage card")
        card = re.compile(r"Drew Rage card r05 \(2\)")
        draw = page.get_by_test_id("choices").get_by_role("button", name=card)
        await expect(draw).to_have_count(1)
        await screenshot(page, "undead-table-rage-draw")
        await entered(lambda: draw.click())
        await expect(page.get_by_test_id("last-entry")).to_contain_text(": Drew Rage card r05 (2)")

        # the keeper entered it: his board names it; p4's count is public
        p4 = page.get_by_test_id("board").get_by_test_id("seat-p4")
        await expect(p4.get_by_test_id("rage-cards")).to_have_attribute("data-count", "1")
        await expect(p4.get_by_test_id("rage-own")).to_contain_text("r05 (2)")
        await expect(page.get_by_test_id("game-log")).to_contain_text(
            "Ragekeep Seat4 draws a Rage card, face down"
        )
        await expect(page.get_by_test_id("game-log")).not_to_contain_text("r05")
        await screenshot(page, "undead-table-rage-held")
        await page.set_viewport_size(PHONE)
        await screenshot(page, "undead-table-rage-held-phone")

        # another seated player watching the table page sees the count, never the card
        await sign_in(watching, players[2])
        await watching.goto(f"/#/game/{game_id}/table")
        seen = watching.get_by_test_id("board").get_by_test_id("seat-p4").get_by_test_id("rage-cards")
        await expect(seen).to_have_attribute("data-count", "1")
        assert not named("r05", await watching.content())
        state = await game_state(base_url, game_id, players[2])
        assert next(p for p in state["players"] if p["id"] == "p4")["rage_cards"] is None


async def test_a_scorekeeper_enters_a_duel_its_throws_and_the_wound_token_at_a_ua1_table(
    base_url: str, chromium: Browser, people: People
) -> None:
    keeper = await people("duelkeep.keeper", "Keeper Duelkeep")
    players = [await people(f"duelkeep.p{n}", f"Duelkeep Seat{n}") for n in range(1, 5)]
    body = {
        "command_id": "duelkeep-create",
        "mode": "table",
        "player_count": 4,
        "ruleset": {"modules": ["UA1", "UA2"]},
        "seats": [
            {"member_id": p.account_id, "name": p.display_name, "role": s.role, "character": s.character}
            for p, s in zip(players, SHOWDOWN, strict=True)
        ],
    }
    async with httpx.AsyncClient(base_url=base_url, timeout=HTTP_TIMEOUT) as client:
        created = await client.post("/games", json=body, headers=keeper.auth)
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    async with person_page(chromium, base_url, "duelkeeper") as page:
        await sign_in(page, keeper)
        await page.goto(f"/#/game/{game_id}/table")
        await expect(page.get_by_test_id("entering")).to_have_text("Enter the dice p1 rolled")

        async def entered(action: Callable[[], Awaitable[None]]) -> None:
            before = await page.get_by_test_id("table-entry").get_attribute("data-version")
            await action()
            entry = page.get_by_test_id("table-entry")
            await expect(entry).not_to_have_attribute("data-version", before or "")

        # the two Duel dice have their own faces: duel (v) and whiskey (w) among them
        duel_die = page.get_by_test_id("die-entry-3")
        await expect(duel_die).to_have_attribute("data-kind", "duel")
        await expect(duel_die.get_by_label("Duel", exact=True)).to_have_count(1)
        await expect(duel_die.get_by_label("Whiskey", exact=True)).to_have_count(1)
        await expect(page.get_by_test_id("die-entry-0").get_by_role("radio").first).to_be_focused()
        await page.keyboard.type("aaavd")
        await entered(lambda: page.keyboard.press("Enter"))
        await entered(lambda: page.get_by_test_id("stop").click())

        # p1 names whom to duel; then each throw of the roll-off is entered, p2 first
        await expect(page.get_by_test_id("entering")).to_have_text("p1 decides: choose whom to duel")
        await expect(page.get_by_test_id("target-ability")).to_contain_text("Duel (UA1)")
        await entered(lambda: page.get_by_test_id("aim-x-p2").click())
        await expect(page.get_by_test_id("entering")).to_have_text("p2 decides: throw the Duel die")
        await expect(page.get_by_test_id("duel")).to_contain_text("p1 Duelkeep Seat1 duels p2 Duelkeep Seat2")
        await screenshot(page, "undead-table-duel-throw")
        threw = page.get_by_test_id("choices").get_by_role("button", name="Threw Arrow")
        await entered(lambda: threw.click())

        # p2 lost the duel: he draws a wound token, entered from the table's choice
        await expect(page.get_by_test_id("entering")).to_have_text("p2 decides: draw a wound token")
        token = page.get_by_test_id("choices").get_by_role("button", name="Drew the 1 wound token")
        await entered(lambda: token.click())
        p2 = page.get_by_test_id("board").get_by_test_id("seat-p2")
        await expect(p2.get_by_test_id("wound-tokens")).to_have_attribute("data-tokens", "shoot1")
        log = page.get_by_test_id("game-log")  # the scorekeeper's page: the whole log, in names
        await expect(log).to_contain_text("Duelkeep Seat1 challenges Duelkeep Seat2 to a duel")
        await expect(log).to_contain_text("Duelkeep Seat2 loses the duel to Duelkeep Seat1")
        await expect(log).to_contain_text("Duelkeep Seat2 draws a Shoot 1 wound token")
        await screenshot(page, "undead-table-wound-token")
        state = await game_state(base_url, game_id)
        assert next(p for p in state["players"] if p["id"] == "p2")["wound_tokens"] == ["shoot1"]
