"""Readable play (issue 22, item 3) in the browser.

A dice game with Old Saloon and Undead or Alive modules is played online by four people who
joined its lobby themselves (so it is rated): the awaited player's home page lists it under "Your
move" and the tab's title says "(1) Your move — …"; the seat page has the game log, in players'
names, newest first, growing live as moves are made over the API; the seat, watch and replay
pages are scanned for engine words (raw command syntax, event type names, snake_case
identifiers); at the end the result screen shows each player's rating change, as the ratings API
says. A table game's scorekeeper page (an entry taken back) and a card game's seat, watch, replay
and scorekeeper pages are scanned the same way; an imported record's result screen says why it is
not rated.
"""

from __future__ import annotations

import random
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import yaml
from playwright.async_api import Browser, Page, expect

import services.game.audit.words  # noqa: F401  (imports every module's events: all their names)
from event_store import PostgresEventStore
from services.game.application.lifecycle import LIFECYCLE_EVENTS
from services.game.edge.tokens import TokenVault
from services.game.rules.cards import events as card_events
from services.game.rules.dice import events as dice_events
from services.ratings.consumer import ratings_subscription
from tests.browser.conftest import Person, person_page, screenshot, sign_in
from tests.browser.playing import HTTP_TIMEOUT, open_play
from tests.browser.table_setup import make_table_game
from tests.integration.api.bots import play_to_the_end

People = Callable[[str, str], Awaitable[Person]]
SCENARIOS = Path(__file__).parents[1] / "scenarios"
RATING_CHANGE = "query($g: String!) { gameRatingChange(gameId: $g) { rated changes { memberId change } } }"


def _subclasses(cls: type) -> set[type]:
    found = set(cls.__subclasses__())
    for sub in list(found):
        found |= _subclasses(sub)
    return found


EVENT_NAMES = sorted(
    {
        c.__name__
        for c in _subclasses(dice_events.Event) | _subclasses(card_events.Event) | set(LIFECYCLE_EVENTS)
        if re.fullmatch(r"(?:[A-Z][a-z0-9]+){2,}", c.__name__)  # CamelCase: two words or more
    }
)
ENGINE_WORDS = {
    "raw command": re.compile(r"\bp\d+ (?:reroll|target|roll|stop|decline|draw|play|discard|respond|pass)\b"),
    "event type": re.compile(r"\b(?:" + "|".join(EVENT_NAMES) + r")\b"),
    "snake_case": re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"),
}


def engine_words(text: str) -> list[str]:
    return [
        f"{kind}: {m.group(0)!r} in …{text[max(m.start() - 60, 0) : m.end() + 20]!r}"
        for kind, rx in ENGINE_WORDS.items()
        for m in rx.finditer(text)
    ]


async def scan(page: Page, where: str) -> None:
    """The page's visible text (what a person reads) has no engine words."""
    text = await page.locator("#main").inner_text()
    found = engine_words(text)
    assert not found, f"{where}: engine words on the page: {found[:10]}\n{text[:1500]}"


def test_the_scan_sees_engine_words() -> None:
    """The scan itself can fail: each kind of leak the issue listed is caught."""
    assert engine_words("p1 reroll 0 4")
    assert engine_words("entry taken back (type EntryTakenBack, from version 13)")
    assert engine_words("Waiting for p4 to shot_target")
    assert engine_words("p2 rolled DiceRolled")
    assert not engine_words("Ann Moss rerolls dice 1, 4 · p2's roll 2: Shoot 1, Beer")
    assert {"DiceRolled", "CardPlayed", "EntryTakenBack", "RageDrawn", "OutbreakBegan"} <= set(EVENT_NAMES)


async def _state(client: httpx.AsyncClient, game_id: str, who: Person | None = None) -> dict[str, Any]:
    answer = await client.get(f"/games/{game_id}", headers=who.auth if who else {})
    assert answer.status_code == 200, answer.text
    state: dict[str, Any] = answer.json()
    return state


async def _awaited(
    client: httpx.AsyncClient, game_id: str, players: list[Person]
) -> tuple[Person, dict[str, Any]]:
    """The player whose seat is awaited now, and his view (the server may be rolling: ask again)."""
    for _ in range(50):
        for p in players:
            state = await _state(client, game_id, p)
            if state["legal_commands"]:
                return p, state
    raise AssertionError("nobody is awaited")


async def _play(
    client: httpx.AsyncClient, game_id: str, players: list[Person], moves: int, rng: random.Random, tag: str
) -> int:
    """``moves`` moves by whoever is awaited (a random legal command); the version after them."""
    version = 0
    for n in range(moves):
        who, state = await _awaited(client, game_id, players)
        if state["status"] != "ongoing":
            break
        played = await client.post(
            f"/games/{game_id}/commands",
            json={"command": rng.choice(state["legal_commands"]), "command_id": f"{tag}-{n}"},
            headers=who.auth,
        )
        assert played.status_code == 200, played.text
        version = played.json()["version"]
    return version


async def _lobby_game(
    client: httpx.AsyncClient, base_url: str, players: list[Person], name: str, body: dict[str, Any]
) -> str:
    """An online game whose seats its players took themselves (so the ratings may rate it)."""
    created = await client.post(
        "/games",
        json={
            "command_id": f"{name}-create",
            "mode": "online",
            "player_count": len(players),
            "members": [],
            **body,
        },
        headers=players[0].auth,
    )
    assert created.status_code == 201, created.text
    game_id: str = created.json()["game_id"]
    for p in players:
        joined = await client.post(
            f"/games/{game_id}/players", json={"command_id": f"{name}-join-{p.login}"}, headers=p.auth
        )
        assert joined.status_code == 201, joined.text
    return game_id


async def _rate(browser_dsn: str) -> None:
    pool = await asyncpg.create_pool(browser_dsn, min_size=1, max_size=2)
    assert pool is not None
    try:
        await ratings_subscription(PostgresEventStore(pool)).run_until_idle()
    finally:
        await pool.close()


async def _log_versions(page: Page) -> list[int]:
    items = page.get_by_test_id("game-log").locator("li")
    return [int(v) for v in await items.evaluate_all("items => items.map(i => i.dataset.version)")]


async def test_a_dice_game_reads_in_names_and_plain_words_and_your_move_is_in_the_title(
    base_url: str, chromium: Browser, people: People, browser_dsn: str
) -> None:
    names = ("Ann", "Bob", "Cat", "Dan")
    players = [await people(f"readable-{n.lower()}", f"{n} Readable") for n in names]
    rng = random.Random(22)
    async with httpx.AsyncClient(base_url=base_url, timeout=HTTP_TIMEOUT) as client:
        game_id = await _lobby_game(
            client, base_url, players, "readable-dice", {"ruleset": {"modules": ["OS1", "OS2", "UA1", "UA2"]}}
        )
        await _play(client, game_id, players, 3, rng, "first")
        mover, state = await _awaited(client, game_id, players)

        async with person_page(chromium, base_url, mover.login) as page:
            await sign_in(page, mover)
            # your move: on the home page and in the tab's title, on every page
            await page.goto("/#/home")
            waiting = page.get_by_test_id("your-move").locator(f"li[data-game='{game_id}']")
            await expect(waiting).to_be_visible()
            await expect(waiting).to_contain_text("Friendly game")
            await expect(page).to_have_title(re.compile(r"^\(1\) Your move — "))
            await screenshot(page, "your-move")

            # the seat page's log: every event so far, newest first, in players' names
            await open_play(page, game_id)
            log = page.get_by_test_id("game-log")
            await expect(log.locator("li").first).to_have_attribute("data-version", str(state["version"]))
            versions = await _log_versions(page)
            assert versions == sorted(versions, reverse=True) and versions[-1] == 1, versions
            assert len(versions) == len({*versions})
            text = await log.inner_text()
            assert any(f"{n} Readable" in text for n in names), text
            assert not re.search(r"\bp\d+\b", text), "the log names players, not seats"
            await expect(page).to_have_title(re.compile(r"^\(1\) Your move — Your seat"))
            await scan(page, "seat page")
            # a character explained where it matters: a hover title and a disclosure
            character = page.get_by_test_id("explain-character").first
            await expect(character.locator("summary")).to_have_attribute("title", re.compile(r".{12,}"))
            await character.locator("summary").focus()
            await page.keyboard.press("Enter")
            await expect(character.locator(".explain-text")).to_be_visible()

            # moves made elsewhere reach the log live
            version = await _play(client, game_id, players, 12, rng, "then")
            await expect(log.locator("li").first).to_have_attribute("data-version", re.compile(r"\d+"))
            await page.wait_for_function(
                "(v) => Number(document.querySelector('[data-testid=game-log] li')?.dataset.version) >= v",
                arg=version,
            )
            versions = await _log_versions(page)
            assert versions == list(range(max(versions), 0, -1)), "whole, newest first"
            await scan(page, "seat page, later")
            await screenshot(page, "seat-game-log")

            await page.goto(f"/#/game/{game_id}/live")
            await expect(page.get_by_test_id("game-log").locator("li").first).to_be_visible()
            await scan(page, "watch page")
            await page.goto(f"/#/game/{game_id}/replay")
            await expect(page.get_by_test_id("timeline").locator("li").first).to_be_visible()
            await scan(page, "replay page")

            # to the end: the result screen shows each player's rating change, as the API says
            await play_to_the_end(client, game_id, {p.account_id: p.token for p in players}, rng)
            await _rate(browser_dsn)
            rated = await client.post(
                "/graphql",
                json={
                    "query": RATING_CHANGE,
                    "variables": {"g": game_id},
                },
            )
            answer = rated.json()["data"]["gameRatingChange"]
            assert answer["rated"] is True and len(answer["changes"]) == len(players), answer
            await open_play(page, game_id)
            ratings = page.get_by_test_id("rating-change")
            await expect(ratings).to_have_attribute("data-rated", "true")
            for change in answer["changes"]:
                row = ratings.locator(f"tr[data-member='{change['memberId']}']")
                await expect(row).to_have_attribute("data-change", re.compile(r"^-?\d"))
                shown = float(await row.get_attribute("data-change") or "nan")
                assert abs(shown - change["change"]) < 1e-9
            await expect(ratings).to_contain_text("Rating change, global ratings")
            await scan(page, "result screen")
            await screenshot(page, "result-rating-change")


async def test_the_scorekeeper_and_card_pages_read_in_words_and_an_import_says_why_it_is_not_rated(
    base_url: str, chromium: Browser, people: People, browser_dsn: str
) -> None:
    table = await make_table_game(base_url, people, "readtable")
    keeper = table.keeper
    cards = [await people(f"readcards-{n.lower()}", f"{n} Cardplayer") for n in ("Eve", "Fay", "Gus", "Hal")]
    rng = random.Random(3)
    async with httpx.AsyncClient(base_url=base_url, timeout=HTTP_TIMEOUT) as client:
        # a table game: some entries, one taken back
        for n in range(8):
            state = await _state(client, table.game_id, keeper)
            q = state["awaiting"]
            command: Any = (
                {
                    "type": "RollDice",
                    "player": q["player"],
                    "faces": ["shoot1", "beer", "arrow", "shoot2", "dynamite"][: len(q["dice"])],
                }
                if q["decision"] == "roll"
                else state["legal_commands"][0]
            )
            entered = await client.post(
                f"/games/{table.game_id}/commands",
                json={"command": command, "command_id": f"rt-{n}"},
                headers=keeper.auth,
            )
            assert entered.status_code == 200, entered.text
        taken = await client.post(
            f"/games/{table.game_id}/commands",
            json={"command": {"type": "TakeBack"}, "command_id": "rt-back"},
            headers=keeper.auth,
        )
        assert taken.status_code == 200, taken.text

        # a card table game, its first shuffle entered as the table knows it
        card_seats = [
            ("sheriff", "bart_cassidy"),
            ("outlaw", "el_gringo"),
            ("outlaw", "suzy_lafayette"),
            ("renegade", "kit_carlson"),
        ]
        card_table = await client.post(
            "/games",
            json={
                "command_id": "readable-card-table", "mode": "table", "player_count": 4,
                "ruleset": {"game_type": "cards"},
                "seats": [
                    {"member_id": p.account_id, "name": p.display_name, "role": role, "character": character}
                    for p, (role, character) in zip(table.players, card_seats, strict=True)
                ],
            },
            headers=keeper.auth,
        )  # fmt: skip
        assert card_table.status_code == 201, card_table.text
        card_table_id = card_table.json()["game_id"]
        shuffled = await client.post(
            f"/games/{card_table_id}/commands",
            json={"command": "table shuffle unknown", "command_id": "rct-0"},
            headers=keeper.auth,
        )
        assert shuffled.status_code == 200, shuffled.text

        # an online card game, some moves in
        card_game = await _lobby_game(
            client, base_url, cards, "readcards", {"ruleset": {"game_type": "cards"}}
        )
        await _play(client, card_game, cards, 15, rng, "cards")

        # an imported record (the law wins in three inputs): never rated
        vault = await asyncpg.create_pool(browser_dsn, min_size=1, max_size=2)
        assert vault is not None
        try:
            organiser = await TokenVault(vault).issue_organiser("browser-readable")
        finally:
            await vault.close()
        record = yaml.safe_load((SCENARIOS / "end" / "law_wins.yaml").read_text())
        record.pop("expect")
        imported = await client.post(
            "/records",
            json={"command_id": "readable-import", "record": record, "game_id": "readable-import"},
            headers={"Authorization": f"Bearer {organiser}"},
        )
        assert imported.status_code == 201, imported.text
        await _rate(browser_dsn)

    async with person_page(chromium, base_url, keeper.login) as page:
        await sign_in(page, keeper)
        await page.goto(f"/#/game/{table.game_id}/table")
        log = page.get_by_test_id("game-log")
        await expect(log.locator("li").first).to_contain_text("the scorekeeper took back an entry")
        await expect(log).to_contain_text("Readtable Seat1")
        await expect(page.get_by_test_id("explain-character").first).to_be_visible()
        await scan(page, "scorekeeper page")
        await screenshot(page, "table-game-log")

        await page.goto("/#/game/readable-import/table")
        await expect(page.get_by_test_id("table-result")).to_be_visible()
        await expect(page.get_by_test_id("not-rated")).to_have_text(
            re.compile(r"^Not rated: an imported record")
        )
        await scan(page, "an import's result screen")

        await page.goto(f"/#/game/{card_table_id}/table")
        await expect(page.get_by_test_id("game-log")).to_contain_text("shuffled")
        await scan(page, "card scorekeeper page")

        await page.goto(f"/#/game/{card_game}/live")
        await expect(page.get_by_test_id("game-log").locator("li").first).to_be_visible()
        await scan(page, "card watch page")
        await page.goto(f"/#/game/{card_game}/replay")
        await expect(page.get_by_test_id("timeline").locator("li").first).to_be_visible()
        await scan(page, "card replay page")

    async with person_page(chromium, base_url, cards[0].login) as page:
        await sign_in(page, cards[0])
        await open_play(page, card_game)
        log = page.get_by_test_id("game-log")
        await expect(log.locator("li").first).to_be_visible()
        await expect(log).to_contain_text("Cardplayer")
        await expect(page.get_by_test_id("explain-card").first).to_be_attached()
        await scan(page, "card seat page")
        await screenshot(page, "card-game-log")
