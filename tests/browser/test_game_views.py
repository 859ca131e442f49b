"""The replay and live views in a real browser, against the seeded server."""

from __future__ import annotations

import random
import re
from typing import Any

import asyncpg
import httpx
from playwright.async_api import Page, expect

from services.game.edge.tokens import TokenVault
from tests.browser.conftest import screenshot
from tests.browser.seed import Season

ROLES_SHOWN = re.compile(r"^(★ )?(Sheriff|Deputy|Outlaw|Renegade|\?)$")


async def life_totals(page: Page) -> list[str]:
    return await page.get_by_test_id("replay-table").get_by_test_id("life").all_inner_texts()


async def table_version(page: Page) -> int:
    """The version of the state on the table (the end of the shown event's command batch)."""
    return int(await page.get_by_test_id("replay-table").get_by_test_id("version").inner_text())


async def test_replay_steps_event_by_event_and_shows_a_clean_audit(page: Page, season: Season) -> None:
    game_id = season.games[0]
    await page.goto(f"/#/game/{game_id}/replay")

    await expect(page.get_by_test_id("audit-verdict")).to_have_text(re.compile("clean", re.IGNORECASE))
    rules = page.get_by_test_id("replay-table").get_by_test_id("ruleset")
    await expect(rules).to_have_text("dice (base game) · seed: deal-1 dice-1")
    slider = page.get_by_test_id("replay-slider")
    last = int(await slider.get_attribute("max") or 0)
    assert last > 20, "a bot game has many events"

    # Step to the end: the table shows the result and every role (the game is over).
    await page.get_by_test_id("replay-last").click()
    await expect(page.get_by_test_id("replay-position")).to_have_text(f"Event {last} of {last}")
    await expect(page.get_by_test_id("replay-table").get_by_test_id("result")).to_contain_text("Game over")
    roles = await page.get_by_test_id("replay-table").get_by_test_id("role").all_inner_texts()
    assert roles and "?" not in roles
    final_life = await life_totals(page)
    await screenshot(page, "replay-end")

    # Walk back with "previous" from the first LifeLost event to a table from before its
    # command (gameAt answers the state after a command's whole batch of events), then forward
    # with "next" until the table is past it: the life totals shown must drop. A loss in the
    # opening batch (three dynamite on the first roll) has no table before it: take a later one.
    await slider.fill("1")
    await expect(page.get_by_test_id("replay-table")).to_have_attribute("data-version", "1")
    opening = await table_version(page)
    losses = await (
        page.get_by_test_id("timeline")
        .locator("li", has_text=" lost ")
        .evaluate_all("items => items.map(item => Number(item.dataset.version))")
    )
    first_loss = next(v for v in losses if v > opening)
    await slider.fill(str(first_loss))
    await expect(page.get_by_test_id("replay-table")).to_have_attribute("data-version", str(first_loss))
    await expect(page.get_by_test_id("current-event")).to_contain_text(" lost ")
    step = first_loss
    while await table_version(page) >= first_loss:
        step -= 1
        await page.get_by_test_id("replay-previous").click()
        await expect(page.get_by_test_id("replay-table")).to_have_attribute("data-version", str(step))
    before = await life_totals(page)
    while await table_version(page) < first_loss:
        step += 1
        await page.get_by_test_id("replay-next").click()
        await expect(page.get_by_test_id("replay-table")).to_have_attribute("data-version", str(step))
    after = await life_totals(page)
    assert sum(map(int, after)) < sum(map(int, before)), (before, after)
    assert after != final_life
    await screenshot(page, "replay-step")


async def test_replay_of_an_unknown_game_shows_an_error(page: Page, season: Season) -> None:
    await page.goto("/#/game/no-such-game/replay")
    await expect(page.get_by_test_id("error").first).to_be_visible()
    await screenshot(page, "replay-error")


async def _new_online_game(client: httpx.AsyncClient, organiser: str, season: Season) -> dict[str, Any]:
    members = [{"member_id": m, "name": m.upper()} for m in season.members[:5]]
    response = await client.post(
        "/games",
        json={"command_id": "browser-live", "mode": "online", "player_count": 5, "members": members},
        headers={"Authorization": f"Bearer {organiser}"},
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def _play(
    client: httpx.AsyncClient, game: dict[str, Any], tokens: dict[str, str], commands: int, rng: random.Random
) -> int:
    """Play ``commands`` random legal commands over the REST API; the version reached."""
    game_id = game["game_id"]
    state = (await client.get(f"/games/{game_id}")).json()
    for n in range(commands):
        member = next(p["member_id"] for p in state["players"] if p["id"] == state["awaiting"]["player"])
        auth = {"Authorization": f"Bearer {tokens[member]}"}
        mine = (await client.get(f"/games/{game_id}", headers=auth)).json()
        response = await client.post(
            f"/games/{game_id}/commands",
            json={
                "command": rng.choice(mine["legal_commands"]),
                "command_id": f"live-{n}",
                "expected_version": mine["version"],
            },
            headers=auth,
        )
        assert response.status_code == 200, response.text
        state = response.json()["state"]
        if state["status"] != "ongoing":
            break
    version: int = state["version"]
    return version


async def test_live_view_follows_a_game_as_it_is_played(
    page: Page, season: Season, base_url: str, browser_dsn: str
) -> None:
    pool = await asyncpg.create_pool(browser_dsn, min_size=1, max_size=2)
    assert pool is not None
    try:
        vault = TokenVault(pool)
        organiser = await vault.issue_organiser("browser-test")
        async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
            game = await _new_online_game(client, organiser, season)
            # the API hands out no player tokens (issue 11): issued as the server's operator would
            tokens = {m: await vault.issue_player(game["game_id"], m) for m in season.members[:5]}
    finally:
        await pool.close()
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        await page.goto(f"/#/game/{game['game_id']}/live")
        await expect(page.get_by_test_id("connection")).to_have_text("live")
        await expect(page.get_by_test_id("board")).to_be_visible()

        roles = await page.get_by_test_id("role").all_inner_texts()
        assert len(roles) == 5 and all(ROLES_SHOWN.match(r) for r in roles)
        assert roles.count("?") == 4, "an anonymous viewer sees only the Sheriff"
        await expect(page.get_by_test_id("active-player")).not_to_have_text("—")

        version = await _play(client, game, tokens, 12, random.Random(7))
        await expect(page.get_by_test_id("version")).to_have_text(str(version))
        await expect(page.get_by_test_id("feed").locator("li").first).to_be_visible()
        assert (await page.get_by_test_id("dice").locator("li").count()) == 5
        await screenshot(page, "live-game")
