"""Steps of an organiser's work done through the organise pages (#/clubs/new, #/club/<id>,
#/league/<id>), as a person clicks them: reused by the organise tests and by any browser test
that needs a league table scheduled from the browser."""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.async_api import Locator, Page, expect


@dataclass(frozen=True, slots=True)
class LeagueIds:
    club_id: str
    league_id: str


def _hash_id(page: Page, prefix: str) -> str:
    match = re.search(rf"#/{prefix}/([^/?]+)", page.url)
    assert match, f"not on a {prefix} page: {page.url}"
    return match.group(1)


async def found_club(page: Page, name: str) -> str:
    """From the signed-in person's home: "Found a club", then the club's page; its id."""
    await page.goto("/#/home")
    await page.get_by_role("link", name="Found a club").click()
    await page.get_by_label("Club name").fill(name)
    await page.get_by_role("button", name="Found the club").click()
    await expect(page.get_by_role("heading", level=1, name=name)).to_be_visible()
    return _hash_id(page, "club")


async def register_member(page: Page, display_name: str) -> str:
    """On the club's page: register a member by name; the invite link the page shows."""
    form = page.get_by_test_id("register-member")
    if not await form.is_visible():
        await page.locator("summary", has_text="Register a member by name").click()
    await form.get_by_label("Display name").fill(display_name)
    await form.get_by_role("button", name="Register").click()
    link = form.get_by_test_id("invite-link")
    await expect(form.get_by_test_id("form-done")).to_contain_text(display_name)
    await expect(page.get_by_test_id("members").get_by_role("link", name=display_name)).to_be_visible()
    return await link.input_value()


async def invite(page: Page, display_name: str) -> str:
    """On the club's page: invite someone; the dashboard link the page shows."""
    form = page.get_by_test_id("invite-member")
    if not await form.is_visible():
        await page.locator("summary", has_text="Invite someone").click()
    await form.get_by_label("Display name").fill(display_name)
    await form.get_by_role("button", name="Make an invite link").click()
    await expect(form.get_by_test_id("form-done")).to_contain_text(display_name)
    return await form.get_by_test_id("invite-link").input_value()


async def found_league(page: Page, name: str, game_type: str | None = None) -> str:
    """On the club's page: found a league (of ``game_type``, ``dice`` or ``cards``; left out:
    the form's default); lands on the league's page; its id."""
    form = page.get_by_test_id("found-league")
    if not await form.is_visible():
        await page.locator("summary", has_text="Found a league").click()
    await form.get_by_label("League name").fill(name)
    if game_type is not None:
        await form.get_by_label("Game").select_option(game_type)
    await form.get_by_role("button", name="Found the league").click()
    await expect(page.get_by_role("heading", level=1, name=name)).to_be_visible()
    return _hash_id(page, "league")


async def open_season(page: Page, name: str) -> Locator:
    await page.locator("summary", has_text="Open a season").click()
    form = page.get_by_test_id("open-season")
    await form.get_by_label("Season name").fill(name)
    await form.get_by_role("button", name="Open the season").click()
    await expect(page.get_by_test_id("form-done")).to_contain_text(f"Season {name} is open")
    season = page.get_by_test_id("season").filter(has=page.get_by_role("heading", name=name))
    await expect(season).to_be_visible()
    return season


async def open_tournament(page: Page, season: Locator, name: str) -> Locator:
    await season.locator("summary", has_text="Open a tournament").click()
    form = season.get_by_test_id("open-tournament")
    await form.get_by_label("Tournament name").fill(name)
    await form.get_by_role("button", name="Open the tournament").click()
    await expect(page.get_by_test_id("form-done")).to_contain_text(f"Tournament {name} is open")
    tournament = page.get_by_test_id("tournament").filter(has=page.get_by_role("heading", name=name))
    await expect(tournament).to_be_visible()
    return tournament


async def enrol(page: Page, season: Locator, names: list[str]) -> None:
    await season.locator("summary", has_text="Enrol entrants").click()
    form = season.get_by_test_id("enrol-entrants")
    for name in names:
        await form.get_by_label(name, exact=True).check()
    await form.get_by_role("button", name="Enrol the selected members").click()
    await expect(page.get_by_test_id("form-done")).to_contain_text("Enrolled:")
    standings = season.get_by_test_id("season-standings")
    for name in names:
        await expect(standings.get_by_role("link", name=name, exact=True)).to_be_visible()


async def seat_round(page: Page, tournament: Locator) -> Locator:
    await tournament.get_by_role("button", name="Seat the next round").click()
    await expect(page.get_by_test_id("form-done")).to_contain_text("is seated")
    return tournament.get_by_test_id("round").first


async def schedule(page: Page, table: Locator, mode: str = "online", scorekeeper: str | None = None) -> str:
    """Schedule a seated table's game; its game id, as the page shows it."""
    await table.locator("summary", has_text="Schedule table").click()
    form = table.get_by_test_id("schedule-game")
    await form.get_by_label("Mode").select_option(mode)
    if scorekeeper is not None:
        await form.get_by_label("Scorekeeper").select_option(label=scorekeeper)
    await form.get_by_role("button", name="Schedule the game").click()
    await expect(page.get_by_test_id("form-done")).to_contain_text("is scheduled")
    game = table.get_by_test_id("table-game")
    await expect(game).to_be_visible()
    game_id = await game.get_attribute("data-game")
    assert game_id
    return game_id
