"""Playing an online game in the browser: several people, each signed in on a page of their own
showing ``#/game/<id>/play``, answer every decision by clicking the page's own controls.

``play_to_the_end(pages, game_id)`` is the driver (the league end-to-end test reuses it);
``schedule_league_game`` sets up, over the public REST API, a club whose organiser seats a
round of the given players and schedules their table's game online (created at once, seated in
the seating's order); ``create_friendly_game`` is an organiser's friendly online game.

The policy is the simplest a person could follow: whoever's page shows a decision clicks the
first highlighted seat when a die is being aimed, else the first option the page offers (the
engine's order: keep the dice, decline an optional ability, the first target)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import httpx
from playwright.async_api import Page

from tests.browser.conftest import Person

MAX_MOVES = 2_000
"""More moves than any game of the dice game takes with this policy (a guard, not a limit)."""
STEP_MS = 30_000
HTTP_TIMEOUT = 30.0
"""Seconds an API call may take: the browser tests share two cores with everything else."""


async def _post(client: httpx.AsyncClient, path: str, who: Person, body: dict[str, Any]) -> dict[str, Any]:
    response = await client.post(path, json=body, headers=who.auth)
    assert response.status_code < 300, f"POST {path}: {response.status_code} {response.text}"
    answer: dict[str, Any] = response.json()
    return answer


async def schedule_league_game(
    base_url: str, organiser: Person, players: Sequence[Person], prefix: str
) -> dict[str, Any]:
    """A club founded by ``organiser``, ``players`` invited (each accepts with their own
    session), a league, season, tournament; round 1 seated as one table of them all and its
    game scheduled online. Answers the schedule's answer (``game_id``, ``members``, ``sheriff``)."""
    league, season, tournament = f"{prefix}_league", f"{prefix}_season", f"{prefix}_cup"
    async with httpx.AsyncClient(base_url=base_url, timeout=HTTP_TIMEOUT) as client:
        club = (await _post(client, "/clubs", organiser, {"name": f"{prefix} saloon"}))["club_id"]
        for player in players:
            named = {"display_name": player.display_name}
            invite = await _post(client, f"/clubs/{club}/invites", organiser, named)
            await _post(client, invite["accept_path"], player, {})
        named = {"league_id": league, "name": f"{prefix} League"}
        await _post(client, f"/clubs/{club}/leagues", organiser, named)
        await _post(client, f"/leagues/{league}/seasons", organiser, {"season_id": season, "name": "Season"})
        await _post(
            client, f"/leagues/{league}/seasons/{season}/entrants", organiser,
            {"member_ids": [p.account_id for p in players]},
        )  # fmt: skip
        await _post(
            client, f"/leagues/{league}/seasons/{season}/tournaments", organiser,
            {"tournament_id": tournament, "name": "Cup"},
        )  # fmt: skip
        seated = await _post(
            client, f"/leagues/{league}/tournaments/{tournament}/rounds", organiser,
            {"tables": [[p.account_id for p in players]]},
        )  # fmt: skip
        table = seated["tables"][0]["table"]
        return await _post(
            client, f"/leagues/{league}/tournaments/{tournament}/rounds/1/tables/{table}/game", organiser,
            {"mode": "online"},
        )  # fmt: skip


async def create_friendly_game(
    base_url: str,
    organiser: Person,
    players: Sequence[Person],
    command_id: str,
    timeout_seconds: int | None = None,
    lobby: bool = False,
    modules: Sequence[str] = (),
) -> str:
    """A friendly online game of ``players``: all known now, so it is dealt and starts at once;
    or, with ``lobby``, a lobby of that many seats that each of them joins."""
    members = [] if lobby else [{"member_id": p.account_id, "name": p.display_name} for p in players]
    body: dict[str, Any] = {
        "command_id": command_id,
        "mode": "online",
        "player_count": len(players),
        "members": members,
    }
    if timeout_seconds is not None:
        body["options"] = {"decision_timeout_seconds": timeout_seconds}
    if modules:
        body["ruleset"] = {"modules": list(modules)}
    async with httpx.AsyncClient(base_url=base_url, timeout=HTTP_TIMEOUT) as client:
        created = await _post(client, "/games", organiser, body)
    game_id: str = created["game_id"]
    return game_id


async def open_play(page: Page, game_id: str) -> None:
    """Show the play page of ``game_id`` and wait until it has read the game."""
    await page.goto(f"/#/game/{game_id}/play")
    await page.locator("[data-testid=play][data-version]").wait_for()


async def version_of(page: Page) -> int:
    return int(await page.get_by_test_id("play").get_attribute("data-version") or 0)


async def wait_for_version(page: Page, version: int) -> None:
    """Until the page shows ``version`` or later (and is not sending a move)."""
    await page.wait_for_function(
        """(v) => { const p = document.querySelector('[data-testid=play]');
                    return p && Number(p.dataset.version) >= v && p.dataset.busy !== 'true'; }""",
        arg=version,
        timeout=STEP_MS,
    )


async def deciding_page(pages: Mapping[str, Page]) -> tuple[str, Page] | None:
    """The page that shows a decision to make (its seat is awaited), if any."""
    for name, page in pages.items():
        root = page.get_by_test_id("play")
        deciding = await root.get_attribute("data-deciding") == "true"
        if deciding and await root.get_attribute("data-busy") != "true":
            return name, page
    return None


async def click_first_option(page: Page) -> str:
    """The policy: a highlighted seat if a die is being aimed, else the first option offered.
    Answers the command the clicked control sends."""
    aim = page.locator("[data-testid^=aim-p]:enabled")
    option = page.locator("[data-testid=decision] [data-option]:enabled")
    control = aim.first if await aim.count() else option.first
    command = await control.get_attribute("data-option") or ""
    await control.click()
    return command


async def _all_at(pages: Mapping[str, Page], version: int) -> None:
    for page in pages.values():
        await wait_for_version(page, version)


async def play_to_the_end(
    pages: Mapping[str, Page], game_id: str, clicked: list[str] | None = None
) -> None:
    """Drive ``pages`` (signed in, each showing ``#/game/<game_id>/play``) until the game is over:
    after every move each page must catch up (over the subscription) before the next one, and
    at the end every page shows the result. ``clicked`` collects the command each click sent."""
    for _ in range(MAX_MOVES):
        versions = [await version_of(page) for page in pages.values()]
        await _all_at(pages, max(versions))
        statuses = {await page.get_by_test_id("play").get_attribute("data-status") for page in pages.values()}
        if statuses == {"ended"}:
            for page in pages.values():
                await page.get_by_test_id("result").wait_for()
            return
        found = await deciding_page(pages)
        if found is None:
            # the server is rolling, or a page has not heard of the last move yet: wait for the next version
            await _all_at(pages, max(versions) + 1)
            continue
        _, page = found
        before = await version_of(page)
        command = await click_first_option(page)
        if clicked is not None:
            clicked.append(command)
        await page.wait_for_function(
            """(v) => { const p = document.querySelector('[data-testid=play]');
                        return p && p.dataset.busy !== 'true'
                          && (Number(p.dataset.version) > v
                              || document.querySelector('[data-testid=form-error]')); }""",
            arg=before,
            timeout=STEP_MS,
        )
        refused = page.get_by_test_id("form-error")
        assert not await refused.count(), f"game {game_id}: a move was refused: {await refused.inner_text()}"
    raise AssertionError(f"game {game_id} did not end within {MAX_MOVES} moves")
