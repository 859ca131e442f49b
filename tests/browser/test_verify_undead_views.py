"""Verify a game yourself, for Undead or Alive: in a real browser, a finished online game with
duels, Rage cards, the UA3 posse and the zombies' Boneyard (UA1-UA4) passes every check, its
draws re-derived card by card from the seed (``draws-1``, each among the cards the page follows
from the game's own events); a forger who changed one Rage card and re-hashed the whole chain is
named at that draw, in words computed here from the game's own events."""

from __future__ import annotations

import hashlib
import json
import random
import re

import asyncpg
from playwright.async_api import Page, Route, expect

from event_store import PostgresEventStore
from services.game.application.lifecycle import GameMode
from services.game.application.service import SYSTEM, Actor, ActorKind, GameService, Member, NewGame
from services.game.bots import HeuristicBot
from services.game.fairness.vault import SeedVault
from services.game.rules.dice import Game
from services.game.rules.dice.commands import PassWindow
from services.game.rules.ruleset import ruleset_of
from tests.browser.conftest import screenshot
from tests.browser.test_verify_views import _chain, _events_of, _published, _serve, _verified, _write_back

UNDEAD = ruleset_of(["UA1", "UA2", "UA3", "UA4"])
UA_GAME = "verify-undead"


async def _play_undead_online(browser_dsn: str) -> str:
    """An online UA1-UA4 game of six, played to its end through the game service by bots; its
    seed is fixed (kept before the service asks), so the game is the same every run."""
    pool = await asyncpg.create_pool(browser_dsn, min_size=1, max_size=2)
    assert pool is not None
    try:
        vault = SeedVault(pool)
        await vault.keep(UA_GAME, hashlib.sha256(b"verify-undead:1").digest())
        games = GameService(PostgresEventStore(pool), vault)
        members = tuple(Member(member_id=f"vua-{i}", name=f"Undead Verifier {i}") for i in range(1, 7))
        await games.create_game(
            NewGame(mode=GameMode.ONLINE, player_count=6, members=members, game_id=UA_GAME, ruleset=UNDEAD),
            command_id="create-verify-undead",
            actor=Actor(kind=ActorKind.ORGANISER, id="browser-verify"),
        )
        bot, rng = HeuristicBot(0.8), random.Random(21)
        for move in range(6000):
            session = await games.load(UA_GAME)
            game = session.game
            assert isinstance(game, Game)
            if game.is_over:
                return UA_GAME
            assert game.awaiting is not None
            command = bot.choose(game, game.awaiting, rng)
            seat = Actor(kind=ActorKind.PLAYER, id=session.seat_members[command.player])
            actor = SYSTEM if isinstance(command, PassWindow) else seat
            await games.play(UA_GAME, command, actor=actor, command_id=f"verify-undead/{move}")
        raise AssertionError("the Undead or Alive game did not end in 6000 moves")
    finally:
        await pool.close()


async def test_an_undead_game_s_draws_verify_and_a_forged_rage_card_is_named(
    page: Page, base_url: str, browser_dsn: str
) -> None:
    game_id = await _play_undead_online(browser_dsn)
    chain = await _chain(base_url, game_id)
    events = _events_of(chain)
    drawn = {
        kind: sum(e["type"] == kind for e in events)
        for kind in ("RageDrawn", "WoundDrawn", "DuelThrown", "BoneyardRevealed")
    }
    assert drawn["RageDrawn"] and drawn["DuelThrown"], drawn  # the game drew Rage cards and threw duels
    total = sum(drawn.values())

    await _verified(page, game_id)
    verdict = page.get_by_test_id("verify-verdict")
    await expect(verdict).to_have_text(
        re.compile(r"^matches: the hash chain holds, the seed matches its commitment")
    )
    await expect(page.get_by_test_id("verify-versions")).to_contain_text("derivations deal-3 dice-2 draws-1")
    checks = page.get_by_test_id("verify-checks").locator("tbody tr")
    states = await checks.evaluate_all("rows => rows.map(r => [r.dataset.check, r.dataset.state])")
    names = ["hash chain", "event numbers", "seed commitment", "deal", "rolls", "draws", "record"]
    assert states == [[name, "ok"] for name in names]
    draws = page.locator("[data-check=draws]")
    await expect(draws).to_contain_text(
        f"{total} draw{'s' if total != 1 else ''} re-derived from the seed (draws-1)"
    )
    await expect(draws).to_contain_text(f"{drawn['RageDrawn']} from rage-1")
    if drawn["BoneyardRevealed"]:
        await expect(draws).to_contain_text(f"{drawn['BoneyardRevealed']} from boneyard-1")
    await expect(verdict).to_contain_text(f"rolls and {total} draws are the ones it gives")
    await expect(page.get_by_test_id("verify-versions")).to_contain_text("ruleset dice UA1 UA2 UA3 UA4")
    await expect(page.locator("[data-check=record]")).to_contain_text(
        f"and {total} draws are the ones the seed gives"
    )
    await screenshot(page, "verify-undead")

    # a record whose first draw names another card than the events': the record check says which
    _, record = await _published(base_url, game_id)
    at = next(i for i, entry in enumerate(record["inputs"]) if isinstance(entry, str) and " draw " in entry)
    player, _, card = record["inputs"][at].split(" ")
    other = "arrow" if card != "arrow" else "gatling"
    record["inputs"][at] = f"{player} draw {other}"

    async def forged_record(route: Route) -> None:
        await route.fulfill(status=200, content_type="application/json", body=json.dumps(record))

    await page.route(re.compile(rf"/games/{game_id}/record$"), forged_record)
    await _verified(page, game_id)
    said = f"^does not match: the record's draw 1 is {player} {other}, but event "
    await expect(verdict).to_have_text(re.compile(said))
    await expect(page.locator("[data-check=record]")).to_have_attribute("data-state", "failed")
    await expect(draws).to_have_attribute("data-state", "ok")
    await page.unroute(re.compile(rf"/games/{game_id}/record$"))

    # the game's first Rage draw is among all 18 cards: change it to another, re-hash everything
    first = next(e for e in events if e["type"] == "RageDrawn")
    true_card = first["data"]["card"]
    forged = "r01" if true_card != "r01" else "r02"
    first["data"]["card"] = forged
    _write_back(chain, events, rehash=True)
    await _serve(page, game_id, chain)
    await _verified(page, game_id)
    words = (
        f"event {first['version']}: {first['data']['player']} drew the Rage card {forged} "
        f"(draw 0 of rage-1, among 18 cards), but the seed gives {true_card} (draws-1)"
    )
    await expect(page.get_by_test_id("verify-result")).to_have_attribute("data-state", "dirty")
    await expect(verdict).to_have_text(f"does not match: {words}")
    await expect(page.get_by_test_id("verify-divergence")).to_have_text(f"First divergence: {words}")
    await expect(page.locator("[data-check='hash chain']")).to_have_attribute("data-state", "ok")
    await expect(page.locator("[data-check=rolls]")).to_have_attribute("data-state", "ok")
    await expect(draws).to_have_attribute("data-state", "failed")
    await screenshot(page, "verify-undead-forged-rage")
    assert re.match(r"^r\d\d$", true_card)
