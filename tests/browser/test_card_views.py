"""BANG! the card game in the browser: the seat, live and replay views, and the scorekeeper's page.

An online card game of four is created over the API (ruleset ``cards``); four people, each
signed in in a browser of their own, play it from their seat pages by clicking the controls the
page builds from the engine's legal commands (a seeded random choice among the offered options;
the cards to discard down to the hand limit are picked card by card). At every step each page
shows its own hand — the very card ids the API sends to that seat — and no card that is hidden in
another player's hand; a spectator's live view shows hand counts only. The replay of the game then
steps through its events in words, the table at each step, and the audit's verdict; the game is
finished over the API and verified in the browser (chain, commitment, every deck re-derived).

A scorekeeper at a physical card table enters the table's first shuffle as "order unknown", then
names each card as it is dealt, from the page.
"""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Any

import httpx
from playwright.async_api import Browser, Page, expect

from tests.browser.conftest import Person, person_page, screenshot, sign_in
from tests.browser.playing import HTTP_TIMEOUT, deciding_page, open_play, version_of, wait_for_version
from tests.integration.api.bots import play_to_the_end

People = Callable[[str, str], Awaitable[Person]]

GAME = "card-views"
MOVES = 400
"""A guard: with the policy below a game of four ends in about 100-200 moves."""
BUDGET_S = 35.0
"""Past this many seconds of clicking the test replays and verifies the game as it stands, then its
players finish it over the API (and the finished game is verified and replayed)."""


async def _state(client: httpx.AsyncClient, game_id: str, who: Person | None) -> dict[str, Any]:
    answer = await client.get(f"/games/{game_id}", headers=who.auth if who else None)
    assert answer.status_code == 200, answer.text
    state: dict[str, Any] = answer.json()
    return state


async def _all_events(
    client: httpx.AsyncClient, game_id: str, who: Person | None = None
) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while True:
        params = {"from_version": len(events) + 1}
        headers = who.auth if who else None
        page = (await client.get(f"/games/{game_id}/events", params=params, headers=headers)).json()
        if not page:
            return events
        events += page


async def _card_ids(page: Page, within: str = "body") -> list[int]:
    """Every card id the page's DOM carries (``data-card-id``) inside ``within``."""
    ids: list[int] = await page.eval_on_selector_all(
        f"{within} [data-card-id]", "nodes => nodes.map(n => Number(n.dataset.cardId))"
    )
    return ids


async def _check_hands(
    pages: dict[str, Page], truths: dict[str, dict[str, Any]], spectator: Page | None
) -> None:
    """Each page shows exactly its own hand and no card hidden in another player's hand."""
    hands = {seat: next(p for p in t["players"] if p["id"] == seat)["hand_ids"] for seat, t in truths.items()}
    for seat, truth in truths.items():
        # the API itself sends this seat its own hand and nobody else's
        assert all((p["hand_ids"] is not None) == (p["id"] == seat) for p in truth["players"]), seat
    for seat, page in pages.items():
        shown = await _card_ids(page, "[data-testid=my-hand]")
        assert sorted(shown) == sorted(hands[seat]), f"{seat}'s page shows {shown}, the API {hands[seat]}"
        hidden = {card for other, hand in hands.items() if other != seat for card in hand}
        leaked = hidden & set(await _card_ids(page))
        assert not leaked, f"{seat}'s page shows cards of another player's hand: {leaked}"
        # and nowhere in the page's markup, not even as an attribute or a command's text
        html = await page.content()
        for other, hand in hands.items():
            if other != seat:
                for card in hand:
                    assert f'data-card-id="{card}"' not in html
    if spectator is not None:
        every = {card for hand in hands.values() for card in hand}
        assert not every & set(await _card_ids(spectator)), "the live view shows a card in a hand"
        assert not await spectator.get_by_test_id("my-hand").count()


async def _click_an_option(page: Page, rng: random.Random) -> str:
    """The policy: the discard picker's first cards, else a random option offered (ending the
    play a third of the time when it may)."""
    decision = page.get_by_test_id("decision")
    if await decision.get_by_test_id("discard-picker").count():
        toggles = decision.locator("[data-testid^=discard-card-]")
        text = await decision.get_by_test_id("discard-picker").inner_text()
        count = int(text.split("Choose ")[1].split(" ")[0])
        for n in range(count):
            await toggles.nth(n).click()
        button = decision.get_by_test_id("discard")
        await expect(button).to_be_enabled()
        command = await button.get_attribute("data-option") or ""
        await button.click()
        return command
    options = decision.locator("[data-option]:enabled")
    texts = [await options.nth(i).get_attribute("data-option") or "" for i in range(await options.count())]
    assert texts, "a deciding page offers no option"
    ends = [i for i, t in enumerate(texts) if t.endswith(" end")]
    plays = [i for i, t in enumerate(texts) if not t.endswith(" end")]
    pick = ends[0] if ends and (not plays or rng.random() < 0.33) else rng.choice(plays)
    await options.nth(pick).click()
    return texts[pick]


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


async def test_four_people_play_a_card_game_each_seeing_only_their_own_hand(
    base_url: str, chromium: Browser, people: People
) -> None:
    organiser = await people("cards-org", "Card Organiser")
    players = [await people(f"cards-{n.lower()}", f"{n} Cards") for n in ("Ada", "Ben", "Cat", "Dan")]
    body = {
        "command_id": "card-views-create",
        "mode": "online",
        "player_count": 4,
        "game_id": GAME,
        "members": [],  # a lobby: each player joins from his seat page
        "ruleset": {"game_type": "cards"},
    }
    rng = random.Random(14)
    async with AsyncExitStack() as stack:
        client = await stack.enter_async_context(httpx.AsyncClient(base_url=base_url, timeout=HTTP_TIMEOUT))
        created = await client.post("/games", json=body, headers=organiser.auth)
        assert created.status_code == 201, created.text
        assert created.json()["state"]["status"] == "lobby"
        joining: dict[str, Page] = {}
        for n, player in enumerate(players):
            page = await stack.enter_async_context(person_page(chromium, base_url, player.login))
            await sign_in(page, player)
            await open_play(page, GAME)
            if n < len(players) - 1:
                await expect(page.get_by_test_id("lobby")).to_contain_text(f"{n} of 4 have joined")
            await page.get_by_test_id("join").click()
            if n < len(players) - 1:
                await expect(page.get_by_test_id("lobby")).to_contain_text("You have joined")
            else:  # the table is full: the cards are dealt
                await expect(page.get_by_test_id("my-hand")).to_be_visible()
            joining[player.account_id] = page
        dealt = await _state(client, GAME, None)
        assert dealt["status"] == "ongoing", dealt["status"]
        seat_of = {p["member_id"]: p["id"] for p in dealt["players"]}
        person_of = {seat_of[p.account_id]: p for p in players}
        pages = {seat_of[member]: page for member, page in joining.items()}
        for page in pages.values():
            await expect(page.get_by_test_id("my-hand")).to_be_visible()
        spectator = await stack.enter_async_context(person_page(chromium, base_url, "spectator"))
        await spectator.goto(f"/#/game/{GAME}/live")
        await spectator.get_by_test_id("board").wait_for()

        # each seat page: the card table, its own role and character, four seats with life and hand counts
        for seat, page in pages.items():
            await expect(page.get_by_test_id("play")).to_have_attribute("data-game-type", "cards")
            await expect(page.get_by_test_id("my-role")).to_contain_text(f"You are {seat}")
            await expect(page.get_by_test_id("seats").locator("> li")).to_have_count(4)
        await screenshot(pages["p1"], "cards-seat-start")

        started = time.monotonic()
        moves = 0
        clicked: list[str] = []
        while moves < MOVES and time.monotonic() - started < BUDGET_S:
            versions = [await version_of(page) for page in pages.values()]
            for page in pages.values():
                await wait_for_version(page, max(versions))
            truths = {seat: await _state(client, GAME, person_of[seat]) for seat in pages}
            if {t["version"] for t in truths.values()} != {max(versions)}:
                continue  # a move landed while we read: look again
            spectating = moves % 8 == 0
            if spectating:
                await spectator.wait_for_function(
                    "(v) => Number(document.querySelector('[data-testid=board]')?.dataset.version) >= v",
                    arg=max(versions),
                )
                public = await _state(client, GAME, None)
                if public["version"] == max(versions):
                    for p in public["players"]:
                        shown = spectator.get_by_test_id(f"seat-{p['id']}")
                        await expect(shown.get_by_test_id("hand-count")).to_have_text(str(p["hand_count"]))
                        await expect(shown.get_by_test_id("life")).to_have_text(str(p["life"]))
            if truths["p1"]["status"] == "ended":
                break  # every hand is public once the game is over
            await _check_hands(pages, truths, spectator if spectating else None)
            found = await deciding_page(pages)
            assert found is not None, "the game waits for nobody's page"
            seat, page = found
            assert truths[seat]["awaiting"]["player"] == seat
            before = await version_of(page)
            if moves in (12, 13):
                await screenshot(page, f"cards-seat-decision-{moves}")
            clicked.append(await _click_an_option(page, rng))
            await _after_click(page, before)
            moves += 1
        truths = {seat: await _state(client, GAME, person_of[seat]) for seat in pages}  # after the last move
        ended = truths["p1"]["status"] == "ended"
        assert moves >= 20, f"only {moves} moves were played"
        kinds = {c.split()[1] for c in clicked}
        assert {"play", "end"} <= kinds, kinds
        await screenshot(pages["p1"], "cards-seat-later")
        await screenshot(spectator, "cards-live")
        if ended:
            for page in pages.values():
                await expect(page.get_by_test_id("result")).to_contain_text("Game over")

        # the replay: every event has a line, a played card reads in words, the table at a step
        events = await _all_events(client, GAME)
        last = events[-1]["version"]
        await spectator.goto(f"/#/game/{GAME}/replay?v={last}")
        timeline = spectator.get_by_test_id("timeline")
        await expect(timeline.locator("li")).to_have_count(len(events))
        await expect(spectator.get_by_test_id("audit-verdict")).not_to_be_empty()
        played = next(e for e in events if e["type"] == "cards.CardPlayed")
        line = timeline.locator(f"li[data-version='{played['version']}']")
        await expect(line).to_contain_text(f"{played['data']['player']} plays ")
        await spectator.get_by_test_id("replay-first").click()
        await expect(spectator.get_by_test_id("replay-position")).to_have_text(f"Event 1 of {len(events)}")
        await line.get_by_role("button").click()
        table = spectator.get_by_test_id("replay-table")
        await expect(table).to_have_attribute("data-version", str(played["version"]))
        await expect(table.get_by_test_id("seats").locator("> li")).to_have_count(4)
        at = (await client.get(f"/games/{GAME}/versions/{played['version']}")).json()
        for p in at["players"]:
            shown = table.get_by_test_id(f"seat-{p['id']}")
            await expect(shown.get_by_test_id("hand-count")).to_have_text(str(p["hand_count"]))
        # the anonymous replay's table at that step shows no card that was in a hand then (each
        # seat's own view of that step says which were)
        hands = set()
        for seat, person in person_of.items():
            then = (
                await client.get(f"/games/{GAME}/versions/{played['version']}", headers=person.auth)
            ).json()
            hands |= set(next(p for p in then["players"] if p["id"] == seat)["hand_ids"])
        assert hands and not hands & set(await _card_ids(spectator, "[data-testid=replay-table]"))
        await screenshot(spectator, "cards-replay")

        # verify it yourself: the chain, the commitment and every deck re-derived in the browser
        await spectator.goto(f"/#/game/{GAME}/verify")
        result = spectator.get_by_test_id("verify-result")
        if not ended:  # nothing to re-derive while it goes on; then its players finish it over the API
            await expect(result).to_have_attribute("data-state", "pending")
            tokens = {p.account_id: p.token for p in players}
            final = await play_to_the_end(client, GAME, tokens, random.Random(3))
            assert final["status"] == "ended"
            for page in pages.values():
                await expect(page.get_by_test_id("result")).to_contain_text("Game over")
            events = await _all_events(client, GAME)
            await spectator.reload()
        await expect(result).to_have_attribute("data-state", "clean")
        decks = sum(1 for e in events if e["type"] == "cards.DeckShuffled")
        finding = spectator.locator("[data-check=decks] [data-testid=verify-finding]")
        await expect(finding).to_contain_text(f"{decks} deck{'s' if decks > 1 else ''} re-derived here")
        await expect(spectator.locator("[data-check='hash chain']")).to_have_attribute("data-state", "ok")
        await screenshot(spectator, "cards-verify")
        # the finished game's replay: the audit re-derived every deck and pick, the last line the result
        await spectator.goto(f"/#/game/{GAME}/replay?v={events[-1]['version']}")
        await expect(spectator.get_by_test_id("audit-verdict")).to_contain_text("clean")
        ended_line = next(e for e in events if e["type"] == "cards.GameEnded")
        await expect(
            spectator.get_by_test_id("timeline").locator(f"li[data-version='{ended_line['version']}']")
        ).to_contain_text("game over on turn")


async def test_a_scorekeeper_enters_a_card_table_shuffled_in_an_unknown_order(
    base_url: str, chromium: Browser, people: People
) -> None:
    keeper = await people("cards-keeper", "Card Keeper")
    seats = [
        ("sheriff", "bart_cassidy"),
        ("outlaw", "el_gringo"),
        ("outlaw", "suzy_lafayette"),
        ("renegade", "kit_carlson"),
    ]
    players = [await people(f"cards-table-{n}", f"Table Seat{n}") for n in range(1, 5)]
    body = {
        "command_id": "card-table-create",
        "mode": "table",
        "player_count": 4,
        "ruleset": {"game_type": "cards"},
        "seats": [
            {"member_id": p.account_id, "name": p.display_name, "role": role, "character": character}
            for p, (role, character) in zip(players, seats, strict=True)
        ],
    }
    async with AsyncExitStack() as stack:
        client = await stack.enter_async_context(httpx.AsyncClient(base_url=base_url, timeout=HTTP_TIMEOUT))
        created = await client.post("/games", json=body, headers=keeper.auth)
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
        page = await stack.enter_async_context(person_page(chromium, base_url, "keeper"))
        await sign_in(page, keeper)
        await page.goto(f"/#/game/{game_id}/table")
        entry = page.get_by_test_id("table-entry")
        await entry.get_by_test_id("shuffle-unknown").click()
        await expect(entry.get_by_test_id("last-entry")).to_have_text(
            "Entered: the table: Shuffled: order unknown (name each card as it is drawn)"
        )
        state = await _state(client, game_id, keeper)
        assert state["awaiting"] == {"player": "table", "decision": "top_card", "from_player": "p1"}
        # the entry is said as soon as it is stored and the game is read again after it: the loop
        # below reads the page's version and its card list one after the other, so it starts once
        # the page shows the shuffled game (read before, the version was the shuffle's own)
        await expect(entry).to_have_attribute("data-version", str(state["version"]))
        # the deal: each card named as its player takes it, from the cards not yet seen (5+3+4+4)
        named: list[int] = []
        for n in range(16):
            version = int(await entry.get_attribute("data-version") or 0)
            choice = entry.get_by_test_id("table-card")
            options = await choice.locator("option").evaluate_all("os => os.map(o => o.value)")
            assert len(options) == 80 - n  # the cards not named yet
            command = options[(7 * n) % len(options)]
            label = await choice.locator(f"option[value='{command}']").inner_text()
            await choice.select_option(command)
            await entry.get_by_test_id("table-enter").click()
            await expect(entry).not_to_have_attribute("data-version", str(version))
            await expect(entry).to_have_attribute("data-busy", "false")
            named.append(int(command.split()[-1]))
        # the last entry in the words of its choice (the card by name, never "table top 53")
        await expect(page.get_by_test_id("last-entry")).to_have_text(f"Entered: the table: {label}")
        after = await _state(client, game_id, keeper)
        assert [p["hand_count"] for p in after["players"]] == [5, 3, 4, 4]
        assert sorted(c for p in after["players"] for c in p["hand_ids"]) == sorted(named)
        assert after["deck"] == 80 - 16
        await expect(page.get_by_test_id("deck-count")).to_have_text("64 cards")
        # the scorekeeper sees every hand on the seats, card by card
        for p in after["players"]:
            shown = (
                page.get_by_test_id(f"seat-{p['id']}").get_by_test_id("seat-hand").locator("[data-card-id]")
            )
            await expect(shown).to_have_count(p["hand_count"])
            assert sorted(
                await _card_ids(page, f"[data-testid=seat-{p['id']}] [data-testid=seat-hand]")
            ) == sorted(p["hand_ids"])
        # the events name each card to the scorekeeper, and to its own player; to nobody else
        dealt = [e for e in await _all_events(client, game_id, keeper) if e["type"] == "cards.TopCardNamed"]
        assert [e["data"]["card"] for e in dealt] == named
        public = [e for e in await _all_events(client, game_id) if e["type"] == "cards.TopCardNamed"]
        assert [e["data"]["card"] for e in public] == [None] * 16
        own = [e for e in await _all_events(client, game_id, players[1]) if e["type"] == "cards.TopCardNamed"]
        assert [e["data"]["card"] for e in own if e["data"]["seen_by"] == "p2"] == after["players"][1][
            "hand_ids"
        ]
        assert all(e["data"]["card"] is None for e in own if e["data"]["seen_by"] != "p2")
        # the first turn's draw is asked next, of the Sheriff
        await expect(entry.get_by_test_id("table-answer")).to_contain_text("Table Seat1 (p1) takes it")
        await screenshot(page, "cards-table-entry")

        async def enter(control: Any) -> None:
            version = int(await entry.get_attribute("data-version") or 0)
            await control.click()
            await expect(entry).not_to_have_attribute("data-version", str(version))
            assert not await page.get_by_test_id("form-error").count(), await page.get_by_test_id(
                "form-error"
            ).inner_text()

        # the Sheriff's two cards of phase 1, then his decisions from the seat page's controls
        for _ in range(2):
            await enter(entry.get_by_test_id("table-enter"))
        await expect(entry.get_by_test_id("decision")).to_have_attribute("data-decision", "play")
        await expect(entry.get_by_test_id("decision")).to_contain_text(
            "Table Seat1 (p1): play a card or end the play"
        )
        await enter(entry.locator("[data-option='p1 end']"))
        sheriff = next(p for p in (await _state(client, game_id, keeper))["players"] if p["id"] == "p1")
        assert sheriff["hand_count"] == 7 and sheriff["life"] == 5
        await expect(entry.get_by_test_id("decision")).to_have_attribute("data-decision", "discard")
        picks = sheriff["hand_ids"][:2]
        for card in picks:
            await entry.get_by_test_id(f"discard-card-{card}").click()
        await enter(entry.get_by_test_id("discard"))
        await expect(page.get_by_test_id("last-entry")).to_contain_text("(p1): Discard ")
        await expect(page.get_by_test_id("last-entry")).not_to_contain_text(f"discard {picks[0]}")
        after = await _state(client, game_id, keeper)
        assert after["active_player"] == "p2" and after["discard"] and after["players"][0]["hand_count"] == 5
        # p2's turn starts with his draw, entered the same way
        await expect(entry.get_by_test_id("table-answer")).to_contain_text("Table Seat2 (p2) takes it")
