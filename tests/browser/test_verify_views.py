"""Verify a game yourself, in a real browser: the page recomputes a finished online game's hash
chain from the stored bytes the server publishes (GET /games/{id}/chain) and re-derives its seed
commitment, deal and every roll from those same bytes; it passes on clean games (the base game,
and Old Saloon with the Saloon dice, the OS4 pool and special roles) and, on an answer tampered on
its way to the browser (Playwright's route), fails naming the first broken link (bytes altered),
or, when the forger re-hashed the whole chain, the first bad roll; a tampered record fails naming
its first bad roll. The expected words are computed here from the game's own events, not copied
from the page."""

from __future__ import annotations

import copy
import json
import random
import re
import uuid
from typing import Any

import asyncpg
import httpx
from playwright.async_api import Page, Route, expect

from event_store import PostgresEventStore
from event_store.codec import canonical_json
from event_store.hashing import GENESIS_HASH, event_hash
from services.game.application.lifecycle import GameMode
from services.game.application.service import SYSTEM, Actor, ActorKind, GameService, Member, NewGame
from services.game.bots import HeuristicBot
from services.game.fairness.vault import SeedVault
from services.game.rules.dice.commands import ChooseSaloonDie, PassWindow
from services.game.rules.ruleset import ruleset_of
from tests.browser.conftest import screenshot
from tests.browser.seed import Season

OLD_SALOON = ruleset_of(["OS1", "OS2", "OS3", "OS4"])
OS_GAME = "verify-os"
ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth"}
OTHER_FACE = {"arrow": "beer", "beer": "arrow", "dynamite": "gatling", "gatling": "dynamite"}
"""A face the tampering swaps in (every die kind has arrow and dynamite; shoot and double faces
become arrow)."""


async def _play_old_saloon_online(browser_dsn: str) -> str:
    """An online game with Old Saloon's OS1-OS4, played to its end through the game service by
    bots; every player takes a Saloon die when offered one, so the dice of several kinds roll."""
    pool = await asyncpg.create_pool(browser_dsn, min_size=1, max_size=2)
    assert pool is not None
    try:
        games = GameService(PostgresEventStore(pool), SeedVault(pool))
        members = tuple(Member(member_id=f"vos-{i}", name=f"Verifier {i}") for i in range(1, 6))
        await games.create_game(
            NewGame(
                mode=GameMode.ONLINE, player_count=5, members=members, game_id=OS_GAME, ruleset=OLD_SALOON
            ),
            command_id="create-verify-os",
            actor=Actor(kind=ActorKind.ORGANISER, id="browser-verify"),
        )
        bot, rng = HeuristicBot(0.8), random.Random(12)
        for move in range(4000):
            session = await games.load(OS_GAME)
            game = session.game
            assert game is not None
            if game.is_over:
                return OS_GAME
            assert game.awaiting is not None
            saloon = [c for c in game.legal_commands() if isinstance(c, ChooseSaloonDie) and c.die]
            command = rng.choice(saloon) if saloon else bot.choose(game, game.awaiting, rng)
            seat = Actor(kind=ActorKind.PLAYER, id=session.seat_members[command.player])
            actor = SYSTEM if isinstance(command, PassWindow) else seat
            await games.play(OS_GAME, command, actor=actor, command_id=f"verify-os/{move}")
        raise AssertionError("the Old Saloon game did not end in 4000 moves")
    finally:
        await pool.close()


async def _published(base_url: str, game_id: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        events = (await client.get(f"/games/{game_id}/events", params={"limit": 1000})).json()
        record = (await client.get(f"/games/{game_id}/record")).json()
    return events, record


async def _chain(base_url: str, game_id: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        response = await client.get(f"/games/{game_id}/chain")
    assert response.status_code == 200, response.text
    chain: dict[str, Any] = response.json()
    return chain


def _events_of(chain: dict[str, Any]) -> list[dict[str, Any]]:
    """The chain's events as the feed shows them (data parsed): edit these, then ``_write_back``."""
    return [
        {"version": e["version"], "type": e["type"], "data": json.loads(e["data"])} for e in chain["events"]
    ]


def _write_back(chain: dict[str, Any], events: list[dict[str, Any]], rehash: bool) -> None:
    """Put edited events' data into the chain's bytes; ``rehash``: as a forger who recomputed
    every hash after the edit and the stream head, so that the chain holds."""
    prev = GENESIS_HASH
    for stored, event in zip(chain["events"], events, strict=True):
        stored["data"] = canonical_json(event["data"]).decode()
        if rehash:
            stored["prev_hash"] = prev.hex()
            prev = event_hash(
                prev_hash=prev, stream=chain["stream"], version=stored["version"],
                event_id=uuid.UUID(stored["event_id"]), event_type=stored["type"],
                schema_version=stored["schema_version"], data=stored["data"].encode(),
                metadata=stored["metadata"].encode(),
            )  # fmt: skip
            stored["hash"] = prev.hex()
    if rehash:
        chain["head"] = {"version": chain["events"][-1]["version"], "hash": prev.hex()}


async def _serve(page: Page, game_id: str, chain: dict[str, Any]) -> None:
    """Answer the page's chain request with ``chain`` instead of the server's."""

    async def forged(route: Route) -> None:
        await route.fulfill(status=200, content_type="application/json", body=json.dumps(chain))

    await page.unroute(re.compile(rf"/games/{game_id}/chain\?"))
    await page.route(re.compile(rf"/games/{game_id}/chain\?"), forged)


def _kinds_of_rolls(events: list[dict[str, Any]]) -> list[list[str]]:
    """Each DiceRolled's die kinds, followed as the engine does (five base dice a turn; a Saloon
    die last, in a base die's place unless José Delgado or Tequila Joe adds his own)."""
    characters: dict[str, str] = {}
    hand = ["base"] * 5
    kinds = []
    adds = {"jose_delgado": "loudmouth", "tequila_joe": "coward"}
    for event in events:
        data = event["data"]
        if event["type"] == "GameStarted":
            characters = {s["player"]: s["character"] for s in data["seats"]}
        elif event["type"] == "TurnStarted":
            hand = ["base"] * 5
        elif event["type"] == "SaloonDieChosen" and data["die"]:
            base = 5 if adds.get(characters[data["player"]]) == data["die"] else 4
            hand = ["base"] * base + [data["die"]]
        elif event["type"] == "DiceRolled":
            kinds.append([hand[i] for i in data["dice"]])
    return kinds


def _tamper(events: list[dict[str, Any]], kind: str = "base") -> tuple[int, str]:
    """Change one face of a die of ``kind`` in a roll past the sixth, in place: (the roll's number
    in the game, the words the page must say about that die)."""
    rolls = [e for e in events if e["type"] == "DiceRolled"]
    kinds = _kinds_of_rolls(events)
    turn = 0
    turns = {}
    for event in events:
        if event["type"] == "TurnStarted":
            turn = event["data"]["turn"]
        turns[event["version"]] = turn
    for number, (roll, roll_kinds) in enumerate(zip(rolls, kinds, strict=True), start=1):
        if number < 7:
            continue
        for i, die_kind in enumerate(roll_kinds):
            face = roll["data"]["faces"][i]
            if die_kind == kind:
                new = OTHER_FACE.get(face, "arrow")
                roll["data"]["faces"][i] = new
                data, v = roll["data"], roll["version"]
                where = f"roll {number} ({data['player']}'s {ORDINAL[data['roll']]} roll of turn {turns[v]}"
                die = f"die {data['dice'][i] + 1}" + ("" if kind == "base" else f", the {kind.title()} die,")
                return number, f"{where}, event {v}), {die} shows {new}; the seed gives {face}"
    raise AssertionError(f"no {kind} die rolled after the sixth roll")


async def _verified(page: Page, game_id: str, states: str = "clean|dirty") -> None:
    await page.goto("about:blank")  # a fresh load each time, never the last answer still shown
    await page.goto(f"/#/game/{game_id}/verify")
    result = page.get_by_test_id("verify-result")
    await expect(result).to_have_attribute("data-state", re.compile(states))


async def _expect_clean(page: Page, game_id: str, derivations: str) -> None:
    await _verified(page, game_id)
    verdict = page.get_by_test_id("verify-verdict")
    clean = r"^matches: the hash chain holds, the seed matches its commitment"
    await expect(verdict).to_have_text(re.compile(clean))
    await expect(page.get_by_test_id("verify-versions")).to_contain_text(f"derivations {derivations}")
    checks = page.get_by_test_id("verify-checks").locator("tbody tr")
    states = await checks.evaluate_all("rows => rows.map(r => [r.dataset.check, r.dataset.state])")
    assert states == [
        ["hash chain", "ok"],
        ["event numbers", "ok"],
        ["seed commitment", "ok"],
        ["deal", "ok"],
        ["rolls", "ok"],
        ["record", "ok"],
    ]
    await expect(page.locator("[data-check='hash chain']")).to_contain_text("recomputed here")
    await expect(page.get_by_test_id("verify-divergence")).to_have_count(0)


async def test_a_clean_base_game_verifies_in_the_browser(page: Page, base_url: str, season: Season) -> None:
    game_id = season.games[0]
    chain = await _chain(base_url, game_id)
    rolls = sum(1 for e in chain["events"] if e["type"] == "DiceRolled")
    # reached from the replay's link, as a visitor would
    await page.goto(f"/#/game/{game_id}/replay")
    await page.get_by_test_id("verify-link").click()
    await expect(page).to_have_url(re.compile(rf"#/game/{game_id}/verify$"))
    await _expect_clean(page, game_id, "deal-1 dice-1")
    await expect(page.locator("[data-check=rolls]")).to_contain_text(f"{rolls} rolls (")
    await expect(page.locator("[data-check=deal]")).to_contain_text("re-derived from the seed (deal-1)")
    n, head = len(chain["events"]), chain["head"]["hash"]
    await expect(page.locator("[data-check='hash chain']")).to_contain_text(
        f"each of the {n} events' stored bytes is its stored hash and the next event's link, "
        f"and event {n}'s is the stream head ({head[:16]}…)"
    )
    await screenshot(page, "verify-clean")

    # on a phone each check stacks: every finding wraps inside the screen, none is cut off
    size = page.viewport_size
    await page.set_viewport_size({"width": 390, "height": 844})
    try:
        findings = page.get_by_test_id("verify-finding")
        rights = await findings.evaluate_all("cells => cells.map(c => c.getBoundingClientRect().right)")
        assert len(rights) == 6 and max(rights) <= 390, rights
        assert await page.evaluate("document.documentElement.scrollWidth") <= 390
        await screenshot(page, "verify-clean-phone")
    finally:
        if size is not None:
            await page.set_viewport_size(size)


async def test_altered_bytes_are_named_as_the_first_broken_link(
    page: Page, base_url: str, season: Season
) -> None:
    game_id = season.games[3]
    chain = await _chain(base_url, game_id)
    events = _events_of(chain)
    number, words = _tamper(events)
    version = [e for e in events if e["type"] == "DiceRolled"][number - 1]["version"]
    edited = copy.deepcopy(chain)
    _write_back(edited, events, rehash=False)  # one event's bytes altered, its stored hash kept
    await _serve(page, game_id, edited)
    await _verified(page, game_id)
    await expect(page.get_by_test_id("verify-result")).to_have_attribute("data-state", "dirty")
    broken = f"event {version}'s hash does not match its content (edited after it was stored?)"
    verdict = page.get_by_test_id("verify-verdict")
    await expect(verdict).to_have_text(f"does not match: {broken} (1 more check failed)")
    await expect(page.get_by_test_id("verify-divergence")).to_have_text(f"First divergence: {broken}")
    await expect(page.locator("[data-check='hash chain']")).to_have_attribute("data-state", "failed")
    # the game checked is the bytes as served: the altered face is named by the seed as well
    await expect(page.locator("[data-check=rolls]")).to_contain_text(words)
    await screenshot(page, "verify-broken-link")

    # an event left out of the answer: the chain says which
    gone = copy.deepcopy(chain)
    del gone["events"][9]
    await _serve(page, game_id, gone)
    await _verified(page, game_id)
    missing = r"^does not match: event 10 is missing from the chain \(deleted\?\)"
    await expect(verdict).to_have_text(re.compile(missing))


async def test_a_rehashed_forgery_of_a_roll_is_named_as_the_first_bad_roll(
    page: Page, base_url: str, season: Season
) -> None:
    game_id = season.games[1]
    chain = await _chain(base_url, game_id)
    events = _events_of(chain)
    _, words = _tamper(events)
    _write_back(chain, events, rehash=True)  # every hash after the edit and the head recomputed
    await _serve(page, game_id, chain)
    await _verified(page, game_id)
    await expect(page.get_by_test_id("verify-result")).to_have_attribute("data-state", "dirty")
    # the only failed check: the chain holds, the record still holds the true faces
    verdict = page.get_by_test_id("verify-verdict")
    rolled = r"\(rolled [a-z0-9 ]+, the seed gives [a-z0-9 ]+\)"
    await expect(verdict).to_have_text(re.compile(rf"^does not match: {re.escape(words)} {rolled}$"))
    await expect(page.get_by_test_id("verify-divergence")).to_contain_text(words)
    await expect(page.locator("[data-check='hash chain']")).to_have_attribute("data-state", "ok")
    await expect(page.locator("[data-check=rolls]")).to_have_attribute("data-state", "failed")
    await expect(page.locator("[data-check=record]")).to_have_attribute("data-state", "ok")
    await expect(page.locator("[data-check='seed commitment']")).to_have_attribute("data-state", "ok")
    await screenshot(page, "verify-tampered-events")


async def test_a_tampered_record_or_seed_fails_and_says_where(
    page: Page, base_url: str, season: Season
) -> None:
    game_id = season.games[2]
    _, record = await _published(base_url, game_id)
    roll = next(i for i, entry in enumerate(record["inputs"]) if isinstance(entry, str) and " roll " in entry)
    player, _, first, *rest = record["inputs"][roll].split(" ")
    record["inputs"][roll] = " ".join([player, "roll", OTHER_FACE.get(first, "arrow"), *rest])

    async def forged_record(route: Route) -> None:
        await route.fulfill(status=200, content_type="application/json", body=json.dumps(record))

    await page.route(re.compile(rf"/games/{game_id}/record$"), forged_record)
    await _verified(page, game_id)
    await expect(page.get_by_test_id("verify-result")).to_have_attribute("data-state", "dirty")
    first = rf"the record's roll 1 \({player}'s first roll of turn 1, event \d+\), die 1 "
    await expect(page.get_by_test_id("verify-verdict")).to_have_text(re.compile(rf"^does not match: {first}"))
    await expect(page.locator("[data-check=rolls]")).to_have_attribute("data-state", "ok")
    await expect(page.locator("[data-check='hash chain']")).to_have_attribute("data-state", "ok")
    await screenshot(page, "verify-tampered-record")
    await page.unroute(re.compile(rf"/games/{game_id}/record$"))

    # a revealed seed other than the committed one (chain re-hashed): nothing after it can be trusted
    chain = await _chain(base_url, game_id)
    events = _events_of(chain)
    seed = next(e for e in events if e["type"] == "SeedRevealed")
    seed["data"]["seed"] = "00" * 32
    _write_back(chain, events, rehash=True)
    await _serve(page, game_id, chain)
    await _verified(page, game_id)
    mismatch = f"event {seed['version']}: the revealed seed does not match the commitment"
    verdict = page.get_by_test_id("verify-verdict")
    await expect(verdict).to_have_text(re.compile(rf"^does not match: {mismatch}"))
    await expect(page.locator("[data-check=rolls]")).to_have_attribute("data-state", "failed")
    await screenshot(page, "verify-tampered-seed")


async def test_a_game_in_progress_publishes_no_chain_and_the_page_says_why(
    page: Page, base_url: str, browser_dsn: str
) -> None:
    game_id = "verify-ongoing"
    pool = await asyncpg.create_pool(browser_dsn, min_size=1, max_size=2)
    assert pool is not None
    try:
        games = GameService(PostgresEventStore(pool), SeedVault(pool))
        members = tuple(Member(member_id=f"vog-{i}", name=f"Ongoing {i}") for i in range(1, 5))
        spec = NewGame(mode=GameMode.ONLINE, player_count=4, members=members, game_id=game_id)
        organiser = Actor(kind=ActorKind.ORGANISER, id="browser-verify")
        await games.create_game(spec, command_id="create-ongoing", actor=organiser)
    finally:
        await pool.close()
    await _verified(page, game_id, "pending")
    await expect(page.get_by_test_id("verify-verdict")).to_have_text(
        "nothing to re-derive yet: the seed is revealed when the game ends"
    )
    chain_row = page.locator("[data-check='hash chain']")
    await expect(chain_row).to_have_attribute("data-state", "not checked")
    await expect(chain_row).to_contain_text(
        f"not published: game {game_id} is ongoing: its hash chain is published once the game has ended"
    )
    await screenshot(page, "verify-ongoing")


async def test_an_old_saloon_game_verifies_and_a_tampered_saloon_die_is_named(
    page: Page, base_url: str, browser_dsn: str
) -> None:
    game_id = await _play_old_saloon_online(browser_dsn)
    chain = await _chain(base_url, game_id)
    events = _events_of(chain)
    kinds = {k for roll in _kinds_of_rolls(events) for k in roll}
    assert {"loudmouth", "coward"} <= kinds, kinds  # the game rolled dice of every Saloon kind
    await _expect_clean(page, game_id, "deal-2 dice-2 roles-os3-1")
    await expect(page.locator("[data-check=deal]")).to_contain_text("roles, special roles and characters")
    await expect(page.get_by_test_id("verify-versions")).to_contain_text("ruleset dice OS1 OS2 OS3 OS4")
    await screenshot(page, "verify-old-saloon")

    _, words = _tamper(events, "loudmouth")
    _write_back(chain, events, rehash=True)
    await _serve(page, game_id, chain)
    await _verified(page, game_id)
    await expect(page.get_by_test_id("verify-divergence")).to_contain_text(words)
    await expect(page.get_by_test_id("verify-divergence")).to_contain_text("the Loudmouth die")
    await screenshot(page, "verify-old-saloon-tampered")
