"""Finding things in a real browser: the games list and its filters and pages, the Find page
(members by name in your clubs, leagues, tournaments, the latest public games for everyone),
and a player's page with their games and their rating by date."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from playwright.async_api import Browser, Page, expect

from tests.browser.conftest import Person, person_page, screenshot, sign_in
from tests.browser.seed import CLUB, Season

PHONE = {"width": 390, "height": 844}


async def api(base_url: str, path: str, headers: dict[str, str] | None = None) -> Any:
    async with httpx.AsyncClient(base_url=base_url) as client:
        response = await client.get(path, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


async def post(base_url: str, path: str, body: dict[str, Any], person: Person) -> Any:
    async with httpx.AsyncClient(base_url=base_url) as client:
        response = await client.post(path, json=body, headers=person.auth)
    assert response.status_code in (200, 201), response.text
    return response.json()


async def shown_games(page: Page, testid: str = "games") -> list[str]:
    rows = page.get_by_test_id(testid).locator("tbody tr")
    await expect(rows.first).to_be_visible()
    return await rows.evaluate_all("rows => rows.map(r => r.dataset.game)")


async def expect_games(page: Page, expected: list[str], testid: str = "games") -> None:
    """The list shows exactly these games in this order, once the page has caught up (a hash
    change redraws the list after its answer arrives)."""
    shown: list[str] = []
    for _ in range(100):
        shown = await shown_games(page, testid)
        if shown == expected:
            return
        await asyncio.sleep(0.1)
    assert shown == expected


def minute(iso: str) -> str:
    """How the pages write an instant: UTC, to the minute."""
    return f"{datetime.fromisoformat(iso).astimezone(UTC):%Y-%m-%d %H:%M} UTC"


async def test_games_list_filters_by_state_league_player_and_date_and_pages_on(
    page: Page, base_url: str, season: Season
) -> None:
    league_games = await api(base_url, f"/games?league={season.league_id}&limit=100")
    assert {g["game_id"] for g in league_games["items"]} == set(season.games)

    await page.goto(f"/#/games?league={season.league_id}")
    newest_first = [g["game_id"] for g in league_games["items"]]
    await expect_games(page, newest_first)  # newest first, as the API lists them
    first = page.get_by_test_id("games").locator("tbody tr").first
    await expect(first).to_contain_text("Saloon League")
    # a finished game links to its replay (and an online one to its verification)
    done = league_games["items"][0]
    row = page.locator(f'tr[data-game="{done["game_id"]}"]')
    replay = row.get_by_role("link", name="Replay")
    await expect(replay).to_have_attribute("href", f"#/game/{done['game_id']}/replay")

    # the form: a state, and a league by its name; the player comes from a link on their name
    # (the address carries the member id the links carry), and no field asks for an id
    member = season.members[2]
    await page.goto(f"/#/games?player={member}")
    await expect(page.get_by_test_id("filter-player-name")).to_have_text(season.names[member])
    await page.get_by_label("State").select_option("finished")
    await page.get_by_label("League").select_option(label="Saloon League (Dry Gulch Saloon)")
    await page.get_by_role("button", name="Show games").click()
    filters = f"state=finished&league={season.league_id}&player={member}"
    await expect(page).to_have_url(f"{base_url}/#/games?{filters}")
    theirs = await api(base_url, f"/games?{filters}")
    assert theirs["items"], "the member played in the seeded season"
    await expect(page.get_by_test_id("filter-player-name")).to_have_text(season.names[member])
    await expect_games(page, [g["game_id"] for g in theirs["items"]])
    for game in theirs["items"]:
        mine = next(p for p in game["players"] if p["member_id"] == member)
        result = page.locator(f'tr[data-game="{game["game_id"]}"] td').nth(5)
        await expect(result).to_have_text("Won" if mine["won"] else "Lost")
        names = page.locator(f'tr[data-game="{game["game_id"]}"] li[data-member="{member}"] a')
        await expect(names).to_have_text(season.names[member])
    await screenshot(page, "find-games-filtered")

    # dates: the API's `to` is exclusive, the page's "until" includes its day
    created = datetime.fromisoformat(league_games["items"][-1]["created_at"]).astimezone(UTC).date()
    day = created.isoformat()
    await page.goto(f"/#/games?league={season.league_id}&from={day}&to={day}")
    api_day = await api(
        base_url, f"/games?league={season.league_id}&from={day}&to={created + timedelta(days=1)}&limit=100"
    )
    await expect_games(page, [g["game_id"] for g in api_day["items"]])
    await expect(page.get_by_label("Created from")).to_have_value(day)
    before = (created - timedelta(days=1)).isoformat()
    await page.goto(f"/#/games?league={season.league_id}&to={before}")
    await expect(page.get_by_test_id("empty")).to_have_text("No game matches these filters.")

    # pages of two, by the API's next_offset, there and back
    await page.goto(f"/#/games?league={season.league_id}&limit=2")
    seen: list[str] = []
    offset: int | None = 0
    last = 0
    while offset is not None:
        expected = await api(base_url, f"/games?league={season.league_id}&limit=2&offset={offset}")
        shown = [g["game_id"] for g in expected["items"]]
        await expect_games(page, shown)
        page_range = page.get_by_test_id("page-range")
        await expect(page_range).to_have_text(f"Games {offset + 1}–{offset + len(shown)}")
        seen += shown
        last, offset = offset, expected["next_offset"]
        older = page.get_by_role("link", name="Older →")
        if offset is None:
            await expect(older).to_have_count(0)
        else:
            await older.click()
            url = f"{base_url}/#/games?league={season.league_id}&limit=2&offset={offset}"
            await expect(page).to_have_url(url)
    assert seen == newest_first, "the pages together are the whole list, each game once"
    await page.get_by_role("link", name="← Newer").click()
    newer = max(0, last - 2)
    await expect_games(page, newest_first[newer : newer + 2])

    # a filter the API refuses is shown in its words
    await page.goto("/#/games?state=won")
    await expect(page.get_by_test_id("error")).to_contain_text("state")

    await page.goto(f"/#/games?league={season.league_id}")
    await shown_games(page)
    await screenshot(page, "find-games")
    await page.set_viewport_size(PHONE)
    await shown_games(page)
    await screenshot(page, "find-games-phone")
    await page.set_viewport_size({"width": 1280, "height": 900})


async def _club_with_a_league(base_url: str, organiser: Person) -> dict[str, str]:
    """A club of the organiser's own, two members whose names hold "Zebulon" and one whose does
    not, and a league with a season and a tournament: all through the API."""
    club = await post(base_url, "/clubs", {"name": "Finders Club"}, organiser)
    club_id = club["club_id"]
    for name in ("Zebulon Quartz", "Ephraim Zebulonsson", "Hattie Moss"):
        await post(base_url, f"/clubs/{club_id}/members", {"display_name": name}, organiser)
    league = await post(base_url, f"/clubs/{club_id}/leagues", {"name": "Zebulon Valley League"}, organiser)
    league_id = league["league_id"]
    season = await post(base_url, f"/leagues/{league_id}/seasons", {"name": "Spring"}, organiser)
    season_id = season["season_id"]
    tournament = await post(
        base_url, f"/leagues/{league_id}/seasons/{season_id}/tournaments", {"name": "Zebulon Cup"}, organiser
    )
    made = {"club": club_id, "league": league_id, "season": season_id}
    return made | {"tournament": tournament["tournament_id"]}


async def _until_listed(base_url: str, made: dict[str, str], organiser: Person) -> dict[str, Any]:
    """The directory is as fresh as its consumer: wait (by asking, not sleeping) until it shows
    the league's tournament."""
    async with httpx.AsyncClient(base_url=base_url) as client:
        for _ in range(300):
            response = await client.get(f"/leagues/{made['league']}", headers=organiser.auth)
            if response.status_code == 200 and response.json()["tournaments"]:
                return response.json()
            await asyncio.sleep(0.1)
    raise AssertionError("the directory never listed the new league's tournament")


async def test_find_searches_your_clubs_members_by_name_and_opens_a_league_and_its_tournament(
    chromium: Browser, base_url: str, people: Callable[[str, str], Awaitable[Person]]
) -> None:
    fiona = await people("fiona.finder", "Fiona Finder")
    gus = await people("gus.elsewhere", "Gus Elsewhere")
    other_club = await post(base_url, "/clubs", {"name": "Elsewhere Club"}, gus)
    made = await _club_with_a_league(base_url, fiona)
    league = await _until_listed(base_url, made, fiona)
    members = await api(base_url, f"/clubs/{made['club']}/members?q=zebulon", fiona.auth)
    assert {m["display_name"] for m in members["items"]} == {"Zebulon Quartz", "Ephraim Zebulonsson"}

    async with person_page(chromium, base_url, "fiona") as page:
        await sign_in(page, fiona)
        await page.get_by_role("link", name="Find", exact=True).click()
        await page.get_by_label("Name contains").fill("zeBUlon")
        await page.get_by_role("button", name="Find").click()
        await expect(page).to_have_url(f"{base_url}/#/find?q=zeBUlon")
        players = page.get_by_test_id("found-players").locator("tbody tr")
        await expect(players).to_have_count(2)
        shown = await players.evaluate_all(
            "rows => rows.map(r => [r.dataset.member, r.cells[0].textContent])"
        )
        assert sorted(shown) == sorted([m["member_id"], m["display_name"]] for m in members["items"])
        await expect(players.first).to_contain_text("Finders Club (Player)")
        leagues = page.get_by_test_id("found-leagues").locator("tbody tr")
        await expect(leagues).to_have_count(1)
        await expect(leagues.first).to_contain_text("Finders Club")
        tournaments = page.get_by_test_id("found-tournaments").locator("tbody tr")
        await expect(tournaments).to_have_count(1)
        await expect(tournaments.first).to_contain_text("Zebulon Cup")
        await expect(tournaments.first).to_contain_text("Spring")
        await screenshot(page, "find-signed-in")
        await page.set_viewport_size(PHONE)
        await screenshot(page, "find-signed-in-phone")
        await page.set_viewport_size({"width": 1280, "height": 900})

        # nobody matches: said plainly
        await page.goto("/#/find?q=nobody-is-called-this")
        await expect(page.get_by_test_id("empty")).to_have_count(3)

        # the league, as GET /leagues/{id} answers it
        await page.goto("/#/find?q=zebulon")
        await page.get_by_test_id("found-leagues").get_by_role("link", name="Zebulon Valley League").click()
        await expect(page).to_have_url(f"{base_url}/#/find?league={made['league']}")
        await expect(page.get_by_test_id("league-name")).to_have_text(league["name"])
        seasons = page.get_by_test_id("league-seasons").locator("tbody tr")
        await expect(seasons).to_have_count(len(league["seasons"]))
        await expect(seasons.first.locator("td").nth(0)).to_have_text("Spring")
        await expect(seasons.first.locator("td").nth(2)).to_have_text(str(league["seasons"][0]["entrants"]))
        await expect(seasons.first.locator("td").nth(3)).to_have_text("Open")
        row = page.get_by_test_id("league-tournaments").locator("tbody tr")
        await expect(row).to_have_count(1)
        await expect(row.locator("td").nth(2)).to_have_text(str(league["tournaments"][0]["rounds"]))
        await screenshot(page, "find-league")

        # and its tournament, from the league
        await row.get_by_role("link", name="Zebulon Cup").click()
        await expect(page).to_have_url(
            f"{base_url}/#/tournament?league={made['league']}&tournament={made['tournament']}"
        )
        await expect(page.get_by_test_id("empty")).to_have_text("No round has been seated yet.")

        # another club's members-only league (a league's default) is refused in the API's words
        closed = await post(base_url, f"/clubs/{other_club['club_id']}/leagues", {"name": "Closed"}, gus)
        async with httpx.AsyncClient(base_url=base_url) as client:
            refused = await client.get(f"/leagues/{closed['league_id']}", headers=fiona.auth)
        assert refused.status_code == 403, refused.text
        await page.goto(f"/#/find?league={closed['league_id']}")
        error = page.get_by_test_id("error")
        await expect(error).to_contain_text("Could not load the league.")
        await expect(error).to_contain_text(refused.json()["detail"])


async def test_find_for_everyone_lists_the_latest_public_games_people_leagues_and_tournaments(
    page: Page, base_url: str, season: Season
) -> None:
    await page.goto("/#/find?q=calamity")
    await expect(page.get_by_test_id("find-public-note")).to_be_visible()
    calamity = next(m for m, name in season.names.items() if name == "Calamity Jane")
    row = page.get_by_test_id("found-players").locator(f'tr[data-member="{calamity}"]')
    await expect(row.locator("td").first).to_have_text("Calamity Jane")
    await expect(row).to_contain_text("latest public games")
    await row.get_by_role("link", name="Games").click()
    await expect(page).to_have_url(f"{base_url}/#/games?player={calamity}")
    await expect(page.get_by_test_id("filter-player-name")).to_have_text("Calamity Jane")

    # the seeded league's tournament, opened from the find page, shows its tables
    await page.goto("/#/find?q=saloon")
    league = page.get_by_test_id("found-leagues").locator(f'tr[data-league="{season.league_id}"]')
    await expect(league.locator("td").first).to_have_text("Saloon League")
    found = page.get_by_test_id("found-tournaments")
    tournament = found.locator(f'tr[data-tournament="{season.tournament_id}"]').and_(
        found.locator(f'tr[data-league="{season.league_id}"]')
    )
    # by its name and its season's, from its public league: never its id
    await expect(tournament.locator("td").first).to_have_text("League nights")
    await expect(tournament.locator("td").nth(2)).to_have_text("Season One")
    await screenshot(page, "find-public")
    await tournament.get_by_role("link").first.click()
    await expect(page).to_have_url(
        f"{base_url}/#/tournament?league={season.league_id}&tournament={season.tournament_id}"
    )
    await expect(page.get_by_test_id("table").first).to_be_visible()


async def test_player_page_shows_their_games_and_their_rating_by_date(
    page: Page, base_url: str, season: Season
) -> None:
    member = season.members[0]
    profile = await api(base_url, f"/members/{member}")
    async with httpx.AsyncClient(base_url=base_url) as client:
        answer = await client.post(
            "/graphql",
            json={
                "query": "query($m: String!, $p: String!) { playerRating(memberId: $m, pool: $p) "
                "{ history { role points { gameId rating endedAt } } } }",
                "variables": {"m": member, "p": f"club:{CLUB}"},  # the seeded league's club
            },
        )
    history = answer.json()["data"]["playerRating"]["history"]
    overall = next(line["points"] for line in history if line["role"] is None)
    assert overall and all(p["endedAt"] for p in overall), "every seeded game is dated"

    await page.goto(f"/#/player/{member}?club={CLUB}")
    await expect(page.get_by_test_id("player-name")).to_have_text(season.names[member])
    await expect_games(page, [g["game_id"] for g in profile["games"]["items"]], "player-games")
    await expect(page.get_by_test_id("all-games")).to_have_attribute("href", f"#/games?player={member}")

    chart = page.get_by_test_id("rating-chart")
    await expect(chart).to_be_visible()
    # every point sits at its game's recorded end, with the API's rating
    drawn = await chart.locator("circle").evaluate_all(
        "cs => cs.map(c => [c.dataset.game, c.dataset.ended, Number(c.dataset.rating)])"
    )
    assert sorted(drawn) == sorted(
        [p["gameId"], p["endedAt"], p["rating"]] for line in history for p in line["points"]
    )
    # the x axis is dates: every tick lies within the drawn span and names the day it falls on
    x_min = datetime.fromisoformat(await chart.get_attribute("data-x-min") or "")
    x_max = datetime.fromisoformat(await chart.get_attribute("data-x-max") or "")
    ended = [datetime.fromisoformat(p["endedAt"]) for p in overall]
    assert x_min <= min(ended) and max(ended) <= x_max
    ticks = await chart.locator("text.x-tick").evaluate_all(
        "ts => ts.map(t => [t.dataset.value, t.textContent])"
    )
    assert ticks, "the x axis has ticks"
    for value, label in ticks:
        at = datetime.fromisoformat(value.replace("Z", "+00:00"))
        assert x_min <= at <= x_max
        assert label.startswith(f"{at.day} {at:%b}"), (value, label)
    await expect(chart.locator("desc")).to_contain_text(minute(overall[0]["endedAt"]))

    # the table twin: one row per rated game, dated as the API dates it
    await page.get_by_text("The rating history as a table").click()
    rows = page.get_by_test_id("rating-history").locator("tbody tr")
    await expect(rows).to_have_count(len(overall))
    dates = await rows.evaluate_all("rs => rs.map(r => [r.dataset.game, r.cells[0].textContent])")
    assert dates == [[p["gameId"], minute(p["endedAt"])] for p in overall]
    await screenshot(page, "find-player")
    await page.set_viewport_size(PHONE)
    await expect(chart).to_be_visible()
    await screenshot(page, "find-player-phone")
    await page.set_viewport_size({"width": 1280, "height": 900})
