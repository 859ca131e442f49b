"""Navigating by name, and leaderboards that mean what they say (issue 22, items 4 and 5).

An organiser's club has two card leagues, set up over the API: result sheets give its members
card ratings in the club's pool. In the browser the organiser opens his club, its league, a
season, a tournament and a round by clicking names only, and no page he passes asks for an id or
shows one in a heading. A stranger and a signed-out visitor opening the members-only league's
address are told in words why they cannot read it. On the leaderboard a league's board switches
from the dice ratings (none) to the card ratings, and its Sheriff tab lists only who played the
Sheriff in that league (the member who was Sheriff in the other league only is not there), each
with their games as Sheriff; the ruleset filter names the card game.
"""

from __future__ import annotations

import asyncio
import re
import uuid
from typing import Any

import httpx
from playwright.async_api import Browser, Page, expect

from tests.browser.conftest import person_page, screenshot, sign_in
from tests.browser.test_organise_views import People
from tests.integration.league_api.sheets import law_win

READY_TRIES = 60


async def call(client: httpx.AsyncClient, path: str, who: Any, body: dict[str, Any] | None = None) -> Any:
    answer = await client.post(path, json=body or {}, headers=who.auth)
    assert answer.status_code in (200, 201), (path, answer.text)
    return answer.json()


async def card_round(client: httpx.AsyncClient, org: Any, league: str, tournament: str, number: int) -> str:
    """Seat round ``number`` (one table of four), keep its score at the table and record the
    Law's win on its result sheet; its Sheriff's member id."""
    base = f"/leagues/{league}/tournaments/{tournament}/rounds"
    seated = await call(client, base, org)
    assert seated["round"] == number, seated
    table = seated["tables"][0]
    members = [m["member_id"] for m in table["members"]]
    sheriff = table["sheriff"]["member_id"]
    await call(
        client, f"{base}/{number}/tables/1/game", org, {"mode": "table", "scorekeeper": org.account_id}
    )
    await call(client, f"{base}/{number}/tables/1/result-sheet", org, law_win(members, sheriff))
    return str(sheriff)


async def card_league(
    client: httpx.AsyncClient, org: Any, club: str, name: str, members: list[str], visibility: str
) -> dict[str, str]:
    league = await call(
        client, f"/clubs/{club}/leagues", org, {"name": name, "game_type": "cards", "visibility": visibility}
    )
    league_id = league["league_id"]
    season = await call(client, f"/leagues/{league_id}/seasons", org, {"name": "Autumn"})
    await call(
        client, f"/leagues/{league_id}/seasons/{season['season_id']}/entrants", org, {"member_ids": members}
    )
    tournament = await call(
        client,
        f"/leagues/{league_id}/seasons/{season['season_id']}/tournaments",
        org,
        {"name": "Friday Fights"},
    )
    return {"league": league_id, "season": season["season_id"], "tournament": tournament["tournament_id"]}


async def listed_by_the_directory(client: httpx.AsyncClient, who: Any, leagues: list[str]) -> None:
    """Wait (bounded) until the directory's consumer lists the leagues with their tournaments."""
    query = "query($l: ID!) { league(leagueId: $l) { tournaments { rounds } } }"
    for _ in range(READY_TRIES):
        answers = [
            (
                await client.post(
                    "/graphql", json={"query": query, "variables": {"l": league}}, headers=who.auth
                )
            ).json()
            for league in leagues
        ]
        if all(not a.get("errors") and a["data"]["league"]["tournaments"][0]["rounds"] >= 1 for a in answers):
            return
        await asyncio.sleep(0.5)
    raise AssertionError(f"the directory did not list {leagues}: {answers}")


async def no_id_asked_or_shown(page: Page, ids: list[str]) -> None:
    """No field on the page is labelled as an id, and no heading or link shows one of ``ids``.
    (The club page's "Open a legacy series" form has the organiser choose the NEW series' id:
    it names nothing that exists, and is left out.)"""
    labels = await page.locator("main label").evaluate_all(
        "labels => labels.filter(l => !l.closest('[data-testid=open-series]')).map(l => l.textContent)"
    )
    assert not [t for t in labels if re.search(r"\bid\b", t, re.IGNORECASE)], labels
    shown = " ".join(
        await page.locator("main h1, main h2, main h3, main a, main [data-testid=scope]").all_inner_texts()
    )
    assert not [i for i in ids if i in shown], (ids, shown)


async def test_an_organiser_navigates_by_name_and_the_boards_say_what_they_show(
    base_url: str, people: People, chromium: Browser
) -> None:
    tag = uuid.uuid4().hex[:8]
    org = await people(f"nora_{tag}", f"Nora Names {tag}")
    stranger = await people(f"sam_{tag}", f"Sam Stranger {tag}")
    club_name = f"Names Gulch {tag}"
    async with httpx.AsyncClient(base_url=base_url) as client:
        club = (await call(client, "/clubs", org, {"name": club_name}))["club_id"]
        names = {}
        for first in ("Ann", "Bart", "Cal", "Dee"):
            member = await call(client, f"/clubs/{club}/members", org, {"display_name": f"{first} {tag}"})
            names[member["member_id"]] = f"{first} {tag}"
        members = list(names)
        # league B first: its Sheriff; then league A, where someone else is Sheriff (the rotation
        # moves the Sheriff on in round 2 when round 1 gave it to B's): X played the Sheriff in A only
        other = await card_league(client, org, club, f"Open Cards {tag}", members, "public")
        sheriff_b = await card_round(client, org, other["league"], other["tournament"], 1)
        home = await card_league(client, org, club, f"Prairie Cards {tag}", members, "members")
        sheriff_x = await card_round(client, org, home["league"], home["tournament"], 1)
        sheriffs_seen = [sheriff_b, sheriff_x]
        if sheriff_x == sheriff_b:
            await call(
                client, f"/leagues/{home['league']}/tournaments/{home['tournament']}/rounds/1/close", org
            )
            sheriff_x = await card_round(client, org, home["league"], home["tournament"], 2)
            sheriffs_seen.append(sheriff_x)
        assert sheriff_x != sheriff_b
        await listed_by_the_directory(client, org, [home["league"], other["league"]])
    ids = [club, *home.values(), *other.values(), *members]

    async with person_page(chromium, base_url, "nora") as page:
        await sign_in(page, org)
        # his club, from his page; its league by name, from the club's page
        await page.goto("/#/home")
        await page.get_by_test_id("my-clubs").get_by_role("link", name=club_name).click()
        await expect(page.get_by_role("heading", level=1, name=club_name)).to_be_visible()
        await expect(page.get_by_test_id("club-leagues")).to_be_visible()
        await no_id_asked_or_shown(page, ids)  # its forms too: a scorekeeper's game is picked by name
        await page.get_by_test_id("club-leagues").get_by_role("link", name=f"Prairie Cards {tag}").click()
        await expect(page.get_by_role("heading", level=1, name=f"Prairie Cards {tag}")).to_be_visible()
        await no_id_asked_or_shown(page, ids)

        # Standings, from the navigation: the leagues by club, a league, a season, by names
        await page.get_by_role("navigation", name="Main").get_by_role("link", name="Standings").click()
        listed = page.get_by_test_id("league-list")
        await expect(listed.get_by_role("heading", name=club_name)).to_be_visible()
        await no_id_asked_or_shown(page, ids)
        await listed.get_by_role("link", name=f"Prairie Cards {tag}").click()
        await expect(page.get_by_role("heading", level=1)).to_have_text(f"Standings: Prairie Cards {tag}")
        await page.get_by_test_id("scope-links").get_by_role("link", name="Autumn").click()
        await expect(page.get_by_test_id("scope")).to_contain_text(f"Autumn of Prairie Cards {tag}")
        await expect(page.get_by_test_id("standings").locator("tbody tr")).to_have_count(4)
        assert f"season={home['season']}" in page.url
        await no_id_asked_or_shown(page, ids)

        # Tournaments, from the navigation: the league, its tournament, a round, by names
        await page.get_by_role("navigation", name="Main").get_by_role("link", name="Tournaments").click()
        await page.get_by_test_id("league-list").get_by_role("link", name=f"Prairie Cards {tag}").click()
        await expect(page.get_by_role("heading", level=1)).to_have_text(f"Tournaments of Prairie Cards {tag}")
        await page.get_by_test_id("tournament-list").get_by_role("link", name="Friday Fights").click()
        await expect(page.get_by_role("heading", level=1)).to_have_text("Friday Fights")
        await expect(page.get_by_test_id("tournament-game-type")).to_contain_text(
            f"Autumn of Prairie Cards {tag}"
        )
        rounds = await page.get_by_test_id("round").count()
        await page.get_by_test_id("round-links").get_by_role("link", name="Round 1", exact=True).click()
        await expect(page.get_by_test_id("round")).to_have_count(1)
        await expect(page.get_by_role("heading", level=2, name="Round 1")).to_be_visible()
        assert "round=1" in page.url and rounds >= 1
        await no_id_asked_or_shown(page, ids)
        await screenshot(page, "navigation-round")

        # the league's leaderboard: the club's pool named; no dice ratings; the card ratings
        board = page.get_by_test_id("leaderboard")
        for _ in range(READY_TRIES):  # the ratings consumer rates the sheets in the background
            await page.goto(f"/#/leaderboard?league={other['league']}&game=cards")
            await expect(page.get_by_test_id("loading")).to_have_count(0)
            if await board.locator("tbody tr").count() == 4:
                break
            await page.wait_for_timeout(500)
        await page.goto(f"/#/leaderboard?league={other['league']}")
        await expect(page.get_by_test_id("pool-words")).to_have_text(
            f"Ratings of the club {club_name}: its league games only."
        )
        await expect(page.get_by_test_id("board-title")).to_contain_text(f"Dice game · club {club_name}")
        await expect(page.get_by_test_id("empty")).to_have_text("No rated games here yet.")
        await page.get_by_test_id("game-cards").click()
        await expect(page.get_by_test_id("board-title")).to_contain_text(f"Card game · club {club_name}")
        await expect(board.locator("tbody tr")).to_have_count(4)
        shown = await board.locator("tbody tr").evaluate_all("rows => rows.map(r => r.dataset.member)")
        assert sorted(shown) == sorted(members)
        async with httpx.AsyncClient(base_url=base_url) as client:
            rows = (
                await client.post(
                    "/graphql",
                    json={
                        "query": "query($l: String!) { ratingLeaderboard(leagueId: $l, gameType: CARDS) "
                        "{ memberId rating } }",
                        "variables": {"l": other["league"]},
                    },
                    headers=org.auth,
                )
            ).json()["data"]["ratingLeaderboard"]
        ratings = [f"{round(r['rating']):,}" for r in rows]
        assert await board.locator("tbody tr td:nth-child(3)").all_inner_texts() == ratings, (
            "the API's card ratings"
        )

        # the Sheriff tab of league B: its Sheriff only, not the member who was Sheriff in A only
        await page.get_by_test_id("tab-sheriff").click()
        await expect(page.locator("th", has_text="Games as Sheriff")).to_be_visible()
        sheriffs = board.locator("tbody tr")
        await expect(sheriffs).to_have_count(1)
        await expect(sheriffs.first).to_have_attribute("data-member", sheriff_b)
        # their games as Sheriff: every card game they were Sheriff in, in the club's pool
        await expect(sheriffs.first.locator("td").nth(4)).to_have_text(str(sheriffs_seen.count(sheriff_b)))
        await expect(page.locator(f'tr[data-member="{sheriff_x}"]')).to_have_count(0)
        await expect(page.get_by_test_id("narrowed")).to_contain_text(f"as Sheriff in Open Cards {tag}")
        await screenshot(page, "leaderboard-league-sheriff")
        # the club's whole pool: every Sheriff of both leagues
        await page.goto(f"/#/leaderboard?club={club}&game=cards&role=sheriff")
        await expect(board.locator("tbody tr")).to_have_count(len(set(sheriffs_seen)))
        # the ruleset filter names what the store keeps: the card game
        ruleset = page.get_by_test_id("ruleset")
        await expect(ruleset.locator("option", has_text="The card game")).to_have_count(1)
        await ruleset.select_option("cards")
        await page.get_by_test_id("ruleset-pick").click()
        await expect(page).to_have_url(re.compile(r"ruleset=cards"))
        await expect(page.get_by_test_id("narrowed")).to_contain_text("under The card game")
        await expect(board.locator("tbody tr")).to_have_count(len(set(sheriffs_seen)))
        await no_id_asked_or_shown(page, ids)

    # a league the reader may not read is said so in words, not as an error code
    async with person_page(chromium, base_url, "sam") as page:
        await sign_in(page, stranger)
        await page.goto(f"/#/standings?league={home['league']}")
        await expect(page.get_by_test_id("cannot-read")).to_contain_text(
            "This league is for its club's members only, and you are not one of its members."
        )
        await page.goto("/#/tournament")
        listed = page.get_by_test_id("league-list")
        await expect(listed.get_by_role("link", name=f"Open Cards {tag}")).to_be_visible()
        await expect(listed.get_by_role("link", name=f"Prairie Cards {tag}")).to_have_count(0)
    async with person_page(chromium, base_url, "anonymous") as page:
        await page.goto(f"/#/tournament?league={home['league']}&tournament={home['tournament']}")
        await expect(page.get_by_test_id("cannot-read")).to_contain_text("sign in as one of them")
