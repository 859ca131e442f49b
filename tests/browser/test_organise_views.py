"""Organising from the browser: an organiser founds a club, registers and invites members, runs a
league (season, entrants, tournament, a round seated, a table's game scheduled, a forfeit, the
round and the season closed, a game voided) through the organise pages alone; refusals show the
API's own words; another club's organiser is offered nothing and refused everything; and five
players, each in their own browser, play the scheduled online game to its end, after which the
standings and ratings pages show it."""

from __future__ import annotations

import re
import uuid
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack

import httpx
from playwright.async_api import Browser, Locator, Page, expect

from tests.browser.conftest import Person, person_page, screenshot, sign_in
from tests.browser.organise_setup import (
    enrol,
    found_club,
    found_league,
    invite,
    open_season,
    open_tournament,
    register_member,
    schedule,
    seat_round,
)
from tests.browser.playing import play_to_the_end

People = Callable[[str, str], Awaitable[Person]]
PHONE = {"width": 390, "height": 844}


def _suffix() -> str:
    return uuid.uuid4().hex[:8]


async def _api_detail(base_url: str, person: Person, path: str, body: dict[str, object]) -> tuple[int, str]:
    """The same request the page made, sent again: the status and the words the API answers."""
    async with httpx.AsyncClient(base_url=base_url, headers=person.auth) as client:
        response = await client.post(path, json=body)
    return response.status_code, response.json().get("detail", "")


async def _phone_shot(page: Page, name: str) -> None:
    await page.set_viewport_size(PHONE)
    await screenshot(page, f"{name}-phone")
    await page.set_viewport_size({"width": 1280, "height": 900})


async def test_an_organiser_runs_a_league_from_the_browser_and_refusals_show_the_apis_words(
    base_url: str, people: People, chromium: Browser
) -> None:
    tag = _suffix()
    rosa = await people(f"rosa_{tag}", f"Rosa Quick {tag}")
    async with person_page(chromium, base_url, "rosa") as page:
        club_id, league_id = await _run_a_league(page, base_url, rosa, tag)
    await _a_foreign_organiser_is_refused(chromium, base_url, people, tag, club_id, league_id)


async def _run_a_league(page: Page, base_url: str, rosa: Person, tag: str) -> tuple[str, str]:
    await sign_in(page, rosa)

    club_id = await found_club(page, f"Dusty Gulch {tag}")
    # the founder is the club's admin: every form is offered, the grant form too
    tools = page.get_by_test_id("club-tools")
    for summary in ("Register a member by name", "Invite someone", "Found a league", "Grant a role"):
        await expect(tools.locator("summary", has_text=summary)).to_be_visible()
    names = [f"{first} {tag}" for first in ("Ann", "Bart", "Cal", "Dee", "Eli")]
    links = [await register_member(page, name) for name in names]
    for link in links:
        assert link.startswith(f"{base_url}/#/invite/"), link
    assert len(set(links)) == len(links)
    # an invite of someone who is not registered yet: a link, and nobody new in the list
    invited = await invite(page, f"Fay {tag}")
    assert invited.startswith(f"{base_url}/#/invite/")
    await expect(page.get_by_test_id("members").get_by_role("link", name=f"Fay {tag}")).to_have_count(0)
    # the member search narrows by a part of the name, in any case
    await page.get_by_label("Search by name").fill(f"bart {tag}")
    await page.get_by_role("button", name="Search").click()
    members = page.get_by_test_id("members")
    await expect(members.get_by_role("link", name=f"Bart {tag}")).to_be_visible()
    await expect(members.get_by_role("row")).to_have_count(2)  # the header and Bart
    await page.get_by_label("Search by name").fill("")
    await page.get_by_role("button", name="Search").click()
    await expect(members.get_by_role("row")).to_have_count(7)  # Rosa and five members
    # grant Ann the referee role, then revoke it, as the admin
    await page.locator("summary", has_text="Grant a role").click()
    grant = page.get_by_test_id("grant-role")
    await grant.get_by_label("Member").select_option(label=f"Ann {tag}")
    await grant.get_by_label("Role").select_option("referee")
    await grant.get_by_role("button", name="Grant").click()
    await expect(grant.get_by_test_id("form-done")).to_have_text(f"Ann {tag} is now referee.")
    await page.get_by_role("button", name=f"Revoke referee from Ann {tag}").click()
    await expect(page.get_by_test_id("member-status")).to_have_text(f"Ann {tag} is no longer referee.")
    await expect(page.get_by_role("button", name=f"Revoke referee from Ann {tag}")).to_have_count(0)
    await screenshot(page, "organise-club")
    await _phone_shot(page, "organise-club")

    league_id = await found_league(page, f"Gulch League {tag}")
    # members-only by default: nobody signed out reads it, until the organiser opens it to anyone
    async with httpx.AsyncClient(base_url=base_url) as anonymous:
        assert (await anonymous.get(f"/leagues/{league_id}")).status_code == 401
        await page.locator("summary", has_text="Who may see this league: members of the club only").click()
        form = page.get_by_test_id("set-visibility")
        await form.get_by_label("Who may see its standings, rounds and tables").select_option("public")
        await form.get_by_role("button", name="Save").click()
        said = "Who may see this league: anyone, signed in or not."
        await expect(page.get_by_test_id("form-done")).to_contain_text(said)
        assert (await anonymous.get(f"/leagues/{league_id}")).status_code == 200
        # and back to the club's members (a stranger is refused below)
        await page.locator("summary", has_text="Who may see this league: anyone, signed in or not").click()
        form = page.get_by_test_id("set-visibility")
        await form.get_by_label("Who may see its standings, rounds and tables").select_option("members")
        await form.get_by_role("button", name="Save").click()
        said = "Who may see this league: members of the club only."
        await expect(page.get_by_test_id("form-done")).to_contain_text(said)
        assert (await anonymous.get(f"/leagues/{league_id}")).status_code == 401
    season = await open_season(page, "Spring")
    tournament = await open_tournament(page, season, "Tuesday Nights")
    # seating a tournament nobody entered: the API refuses, the page says it in the API's words
    await tournament.get_by_role("button", name="Seat the next round").click()
    refused = tournament.get_by_test_id("form-error")
    await expect(refused).to_be_visible()
    tournament_id = await tournament.get_attribute("data-tournament")
    rounds = f"/leagues/{league_id}/tournaments/{tournament_id}/rounds"
    status, detail = await _api_detail(base_url, rosa, rounds, {})
    assert status in (400, 409, 422), (status, detail)
    await expect(refused).to_have_text(detail)

    await enrol(page, season, names)
    await expect(season).to_contain_text("5 entrants")
    round_one = await seat_round(page, tournament)
    tables = round_one.get_by_test_id("round-table")
    await expect(tables).to_have_count(1)  # five entrants: one table of five, no bye
    table = tables.first
    for name in names:
        await expect(table.get_by_role("link", name=name)).to_be_visible()
    await expect(table.get_by_text("★ Sheriff")).to_have_count(1)

    # the same league page in a second tab, loaded before the game is scheduled
    stale = await page.context.new_page()
    await stale.goto(page.url)
    await expect(stale.get_by_test_id("schedule-game")).to_have_count(1)
    game_id = await schedule(page, table)
    await expect(table.get_by_test_id("game-state")).to_have_text("Online · Ongoing")
    await screenshot(page, "organise-league-scheduled")
    # scheduling the table again from the stale tab: refused, in the API's words
    stale_table = stale.get_by_test_id("round-table").first
    await stale_table.locator("summary", has_text="Schedule table").click()
    await stale_table.get_by_role("button", name="Schedule the game").click()
    twice = stale_table.get_by_test_id("form-error")
    await expect(twice).to_be_visible()
    status, detail = await _api_detail(base_url, rosa, f"{rounds}/1/tables/1/game", {"mode": "online"})
    assert status == 409, (status, detail)
    await expect(twice).to_have_text(detail)
    await stale.close()

    # a forfeit, then the round closed: no more schedule or forfeit forms on it
    await table.locator("summary", has_text="Record a forfeit").click()
    forfeit = table.get_by_test_id("record-forfeit")
    await forfeit.get_by_label("Member").select_option(label=f"Eli {tag}")
    await forfeit.get_by_label("Kind").select_option("no-show")
    await forfeit.get_by_label("Reason (optional)").fill("missed the stagecoach")
    await forfeit.get_by_role("button", name="Record").click()
    await expect(table.get_by_test_id("forfeits")).to_have_text(f"Eli {tag}: no-show (missed the stagecoach)")
    await round_one.get_by_role("button", name="Close round 1").click()
    await expect(round_one.get_by_test_id("round-closed")).to_be_visible()
    await expect(round_one.get_by_test_id("record-forfeit")).to_have_count(0)
    # the game is voided with a reason (still allowed once the round is closed)
    await table.locator("summary", has_text="Void this game").click()
    void = table.get_by_test_id("void-game")
    await void.get_by_label("Reason").fill("Eli never came: the table cannot play as seated")
    await void.get_by_role("button", name="Void the game").click()
    await expect(table.get_by_test_id("table-game")).to_have_attribute("data-state", "voided")
    await expect(table.get_by_test_id("table-game")).to_have_attribute("data-game", game_id)
    await expect(table.get_by_test_id("void-game")).to_have_count(0)
    # Eli's no-show is a lost game without points in the season's standings
    eli = season.get_by_test_id("season-standings").locator("tr", has_text=f"Eli {tag}")
    await expect(eli.locator("td").last).to_have_text("1")
    await screenshot(page, "organise-league")
    await _phone_shot(page, "organise-league")
    # round 2 at a physical table: Rosa keeps score (she plays no seat there: a scorekeeper sees
    # every role), granted for that game alone
    round_two = await seat_round(page, tournament)
    await expect(round_two).to_have_attribute("data-round", "2")
    kept = round_two.get_by_test_id("round-table").first
    kept_id = await schedule(page, kept, "table", scorekeeper=rosa.display_name)
    await expect(kept.get_by_test_id("game-state")).to_have_text("Table · Scheduled")
    # not created yet: "Keep score" opens the table's schedule page, which starts the game
    keep_score = kept.get_by_role("link", name="Keep score")
    await expect(keep_score).to_have_attribute(
        "href", re.compile(rf"^#/league/{league_id}/start\?tournament=.+&round=2&table=1$")
    )
    async with httpx.AsyncClient(base_url=base_url, headers=rosa.auth) as client:
        members = (await client.get(f"/clubs/{club_id}")).json()["members"]
    keeper = next(m for m in members if m["display_name"] == rosa.display_name)
    assert {"role": "scorekeeper", "game_id": kept_id} in keeper["roles"], keeper["roles"]
    # the season closed: no more forms on it
    await season.get_by_role("button", name="Close the season Spring").click()
    await expect(season.get_by_test_id("season-closed")).to_be_visible()
    await expect(season.get_by_test_id("enrol-entrants")).to_have_count(0)
    await expect(season.get_by_role("button", name="Seat the next round")).to_have_count(0)
    return club_id, league_id


async def _a_foreign_organiser_is_refused(
    chromium: Browser, base_url: str, people: People, tag: str, club_id: str, league_id: str
) -> None:
    """Another club's organiser: offered no form, and the API's refusal in its words."""
    tex = await people(f"tex_{tag}", f"Tex Foreign {tag}")
    async with httpx.AsyncClient(base_url=base_url, headers=tex.auth) as client:
        assert (await client.post("/clubs", json={"name": f"Other Saloon {tag}"})).status_code == 201
        refusal = (await client.get(f"/leagues/{league_id}")).json()["detail"]
        club_refusal = (await client.get(f"/clubs/{club_id}")).json()["detail"]
    async with person_page(chromium, base_url, "tex") as foreign:
        await sign_in(foreign, tex)
        await foreign.goto(f"/#/league/{league_id}")
        await expect(foreign.get_by_test_id("error")).to_contain_text(refusal)
        await expect(foreign.locator("form.org-form")).to_have_count(0)
        await foreign.goto(f"/#/club/{club_id}")
        await expect(foreign.get_by_test_id("error")).to_contain_text(club_refusal)
        await expect(foreign.locator("form.org-form")).to_have_count(0)
        await screenshot(foreign, "organise-foreign-refused")


async def test_a_member_without_a_role_reads_the_league_and_a_revoked_organiser_is_refused_in_the_apis_words(
    base_url: str, people: People, chromium: Browser
) -> None:
    tag = _suffix()
    rosa = await people(f"rosa2_{tag}", f"Rosa Admin {tag}")
    olga = await people(f"olga_{tag}", f"Olga Organiser {tag}")
    pete = await people(f"pete_{tag}", f"Pete Player {tag}")
    async with person_page(chromium, base_url, "rosa") as page:
        await _members_and_a_revoked_organiser(page, chromium, base_url, rosa, olga, pete, tag)


async def _members_and_a_revoked_organiser(
    page: Page, chromium: Browser, base_url: str, rosa: Person, olga: Person, pete: Person, tag: str
) -> None:
    await sign_in(page, rosa)
    await page.goto("/#/clubs/new")
    await expect(page.get_by_label("Club name")).to_be_focused()
    await screenshot(page, "organise-club-new")
    await _phone_shot(page, "organise-club-new")
    club_id = await found_club(page, f"Red Rock {tag}")
    links = {person: await invite(page, person.display_name) for person in (olga, pete)}
    for person, link in links.items():
        async with person_page(chromium, base_url, person.login) as theirs:
            await sign_in(theirs, person)
            await theirs.goto(link.removeprefix(base_url))
            await theirs.get_by_role("button", name=f"Join as {person.display_name}").click()
            await theirs.wait_for_url("**/#/home")
            await theirs.reload()  # the invite page keeps the clubs it read at sign-in (signin.js)
            await expect(theirs.get_by_test_id("my-clubs")).to_contain_text(f"Red Rock {tag}")
    await page.reload()
    await page.locator("summary", has_text="Grant a role").click()
    grant = page.get_by_test_id("grant-role")
    await grant.get_by_label("Member").select_option(label=olga.display_name)
    await grant.get_by_label("Role").select_option("organiser")
    await grant.get_by_role("button", name="Grant").click()
    await expect(grant.get_by_test_id("form-done")).to_have_text(f"{olga.display_name} is now organiser.")
    league_id = await found_league(page, f"Rock League {tag}")
    await open_season(page, "Autumn")

    async with person_page(chromium, base_url, "pete") as theirs:
        # a player reads the club and the league, and is offered no form
        await sign_in(theirs, pete)
        await theirs.goto(f"/#/club/{club_id}")
        leagues = theirs.get_by_test_id("club-leagues")
        await expect(leagues.get_by_role("link", name=f"Rock League {tag}")).to_be_visible()
        await expect(theirs.get_by_test_id("club-tools")).to_have_count(0)
        await theirs.goto(f"/#/league/{league_id}")
        await expect(theirs.get_by_test_id("season")).to_contain_text("Autumn")
        await expect(theirs.locator("form.org-form")).to_have_count(0)
        await screenshot(theirs, "organise-league-player")

    async with person_page(chromium, base_url, "olga") as theirs:
        # the organiser's page offers the forms; the role is revoked meanwhile; the API decides
        await sign_in(theirs, olga)
        await theirs.goto(f"/#/league/{league_id}")
        await expect(theirs.get_by_test_id("league-tools")).to_be_visible()
        await page.goto(f"/#/club/{club_id}")
        await page.get_by_role("button", name=f"Revoke organiser from {olga.display_name}").click()
        await expect(page.get_by_test_id("member-status")).to_contain_text("is no longer organiser")
        await theirs.locator("summary", has_text="Open a season").click()
        form = theirs.get_by_test_id("open-season")
        await form.get_by_label("Season name").fill("Winter")
        await form.get_by_role("button", name="Open the season").click()
        seasons = f"/leagues/{league_id}/seasons"
        status, detail = await _api_detail(base_url, olga, seasons, {"name": "Winter"})
        assert status == 403, (status, detail)
        await expect(form.get_by_test_id("form-error")).to_have_text(detail)


async def _reload_until(page: Page, url: str, shown: Locator, *, tries: int = 40) -> None:
    """Open ``url`` again until ``shown`` is there: the consumers take a moment after a game ends
    (the page is read as it is served, nothing on it polls)."""
    for _ in range(tries):
        await page.goto(url)
        await page.reload()  # the same hash again is no navigation: load the page afresh
        await page.get_by_test_id("loading").wait_for(state="detached")
        if await shown.count():
            return
        await page.wait_for_timeout(500)
    await expect(shown).to_be_visible()


async def test_an_online_game_scheduled_in_the_browser_is_played_to_the_end_and_the_league_pages_show_it(
    base_url: str, people: People, chromium: Browser
) -> None:
    tag = _suffix()
    rosa = await people(f"rosa3_{tag}", f"Rosa Boss {tag}")
    firsts = ("Ann", "Bo", "Cy", "Di", "Ed")
    players = [await people(f"{first.lower()}_{tag}", f"{first} {tag}") for first in firsts]
    async with AsyncExitStack() as stack:
        page = await stack.enter_async_context(person_page(chromium, base_url, "rosa"))
        await sign_in(page, rosa)
        await found_club(page, f"High Noon {tag}")
        links = [await invite(page, p.display_name) for p in players]
        pages: dict[str, Page] = {}
        for person, link in zip(players, links, strict=True):
            theirs = await stack.enter_async_context(person_page(chromium, base_url, person.login))
            await sign_in(theirs, person)
            await theirs.goto(link.removeprefix(base_url))
            await theirs.get_by_role("button", name=f"Join as {person.display_name}").click()
            await theirs.wait_for_url("**/#/home")
            await theirs.reload()  # the invite page keeps the clubs it read at sign-in (signin.js)
            await expect(theirs.get_by_test_id("my-clubs")).to_contain_text(f"High Noon {tag}")
            pages[person.login] = theirs
        await page.reload()
        league_id = await found_league(page, f"Noon League {tag}")
        season = await open_season(page, "Summer")
        tournament = await open_tournament(page, season, "Friday Duels")
        await enrol(page, season, [p.display_name for p in players])
        table = (await seat_round(page, tournament)).get_by_test_id("round-table").first
        game_id = await schedule(page, table, "online")
        await expect(table.get_by_test_id("game-state")).to_have_text("Online · Ongoing")

        # every player finds the game on the league page and plays it from there
        for person, theirs in zip(players, pages.values(), strict=True):
            await theirs.goto(f"/#/league/{league_id}")
            seat = theirs.get_by_test_id("round-table").first
            await expect(seat.get_by_role("link", name=person.display_name)).to_be_visible()
            await seat.get_by_role("link", name="Play").click()
            await theirs.get_by_test_id("play").wait_for()
        await screenshot(page, "organise-league-playing")
        await play_to_the_end(pages, game_id)

        # the organiser's league page: the game finished, its winning side, every player one game
        league_url = f"/#/league/{league_id}"
        finished = page.get_by_test_id("table-game").and_(page.locator("[data-state=finished]"))
        await _reload_until(page, league_url, finished)
        await expect(page.get_by_test_id("winning-side")).to_contain_text("won")
        await expect(page.get_by_test_id("table-game").get_by_role("link", name="Verify")).to_be_visible()
        standings = page.get_by_test_id("season-standings")
        for person in players:
            row = standings.locator("tr", has_text=person.display_name)
            await expect(row.locator("td").nth(3)).to_have_text("1")  # games
        points = [int(text) for text in await standings.locator("tbody tr td:nth-child(3)").all_inner_texts()]
        assert sum(points) >= 3, points  # somebody won: 3 points a win
        await screenshot(page, "organise-league-finished")
        await _phone_shot(page, "organise-league-finished")

        # the standings and ratings pages of the league show it too
        season_id = await page.get_by_test_id("season").first.get_attribute("data-season")
        await page.goto(f"/#/standings?league={league_id}&season={season_id}")
        lines = page.get_by_test_id("standings").locator("tbody tr")
        await expect(lines).to_have_count(5)
        for person in players:
            await expect(lines.filter(has_text=person.display_name)).to_be_visible()
        rated = page.get_by_test_id("leaderboard").get_by_role("link", name=players[0].display_name)
        await _reload_until(page, f"/#/leaderboard?league={league_id}", rated)
        for person in players:
            await expect(page.get_by_role("link", name=person.display_name)).to_be_visible()
        await screenshot(page, "organise-league-leaderboard")
