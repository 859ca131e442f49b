"""Leaderboards, standings, a player's page and a tournament's tables in a real browser."""

from __future__ import annotations

import re

from playwright.async_api import Locator, Page, expect

from tests.browser.conftest import screenshot
from tests.browser.seed import CLUB, ROUNDS, Season


def ratings_of(texts: list[str]) -> list[float]:
    return [float(t.replace(",", "")) for t in texts]


async def shown_names(items: Locator) -> dict[str, str]:
    """Member id (the element's ``data-member``) → the text of its link to the player page."""
    pairs = await items.evaluate_all(
        "items => items.map(i => [i.dataset.member, i.querySelector('a[href*=\"/player/\"]').textContent])"
    )
    return dict(pairs)


def assert_names_not_ids(shown: dict[str, str], season: Season) -> None:
    assert shown, "nobody shown"
    assert {member: season.names[member] for member in shown} == shown, "a display name per member"
    assert not set(shown.values()) & set(season.members), "a member id shown where a name belongs"


async def test_leaderboards_list_the_seeded_players_by_rating_with_provisional_flags(
    page: Page, season: Season
) -> None:
    # the seeded league's board, in its club's pool (docs/ratings.md, "What is rated: pools"):
    # games other tests finish in the browser are rated too (the consumers run for the whole
    # session), but in other leagues
    await page.goto(f"/#/leaderboard?league={season.league_id}&club={CLUB}")
    await expect(page.get_by_test_id("pool-words")).to_contain_text("Ratings of the club")
    board = page.get_by_test_id("leaderboard")
    await expect(board.locator("tbody tr")).to_have_count(len(season.members))
    members = await board.locator("tbody tr").evaluate_all("rows => rows.map(r => r.dataset.member)")
    assert sorted(members) == sorted(season.members)
    assert_names_not_ids(await shown_names(board.locator("tbody tr")), season)
    ratings = ratings_of(await board.locator("tbody tr td:nth-child(3)").all_inner_texts())
    assert ratings == sorted(ratings, reverse=True), "best first"
    games = [int(g) for g in await board.locator("tbody tr td:nth-child(4)").all_inner_texts()]
    assert all(g >= 1 for g in games)
    # A few rounds are far too few games to settle anybody's rating.
    await expect(board.get_by_test_id("provisional")).to_have_count(len(season.members))
    await screenshot(page, "leaderboard-overall")

    await page.get_by_test_id("tab-sheriff").click()
    await expect(page.get_by_test_id("tab-sheriff")).to_have_attribute("aria-selected", "true")
    await expect(page.locator("th", has_text="Sheriff rating")).to_be_visible()
    sheriffs = page.get_by_test_id("leaderboard").locator("tbody tr")
    await expect(sheriffs.first).to_be_visible()
    # Two tables a round: at most two new Sheriffs a round.
    assert 1 <= await sheriffs.count() <= 2 * ROUNDS
    ratings = ratings_of(await sheriffs.locator("td:nth-child(3)").all_inner_texts())
    assert ratings == sorted(ratings, reverse=True)
    await screenshot(page, "leaderboard-sheriff")


async def test_standings_table_has_the_leagues_players(page: Page, season: Season) -> None:
    # by names only: the league among the leagues the reader may read, then its season
    await page.goto("/#/standings")
    await page.get_by_test_id("league-list").get_by_role("link", name="Saloon League").click()
    await expect(page.get_by_role("heading", level=1)).to_have_text("Standings: Saloon League")
    await page.get_by_test_id("scope-links").get_by_role("link", name="Season One").click()
    await expect(page.get_by_test_id("scope")).to_contain_text("Season One of Saloon League")
    assert page.url.endswith(f"#/standings?league={season.league_id}&season={season.season_id}")

    table = page.get_by_test_id("standings")
    await expect(table.locator("tbody tr")).to_have_count(len(season.members))
    members = await table.locator("tbody tr").evaluate_all("rows => rows.map(r => r.dataset.member)")
    assert sorted(members) == sorted(season.members)
    assert_names_not_ids(await shown_names(table.locator("tbody tr")), season)
    await expect(table.locator("th", has_text="Forfeits")).to_be_visible()
    forfeits = [int(f) for f in await table.locator("tbody tr td:nth-child(12)").all_inner_texts()]
    assert forfeits == [0] * len(season.members), "nobody forfeited in the bot season"
    ranks = [int(r) for r in await table.locator("tbody tr td:nth-child(1)").all_inner_texts()]
    points = [int(p) for p in await table.locator("tbody tr td:nth-child(3)").all_inner_texts()]
    assert ranks == sorted(ranks) and points == sorted(points, reverse=True)
    await expect(table.locator("th", has_text="Buchholz")).to_be_visible()
    await screenshot(page, "standings")


async def test_player_page_charts_one_line_per_role_played_and_head_to_head(
    page: Page, season: Season
) -> None:
    await page.goto(f"/#/standings?league={season.league_id}&season={season.season_id}")
    leader = page.get_by_test_id("standings").locator("tbody tr").first
    member = await leader.get_attribute("data-member")
    await leader.get_by_role("link").click()

    assert member is not None
    await expect(page.get_by_test_id("player-name")).to_have_text(season.names[member])
    await expect(page.get_by_test_id("player-name")).to_have_attribute("data-member", member)
    chart = page.get_by_test_id("rating-chart")
    await expect(chart).to_be_visible()
    played = [
        r.lower()
        for r, games in zip(
            await page.get_by_test_id("roles").locator("tbody tr td:nth-child(1)").all_inner_texts(),
            await page.get_by_test_id("roles").locator("tbody tr td:nth-child(3)").all_inner_texts(),
            strict=True,
        )
        if int(games) > 0
    ]
    lines = await chart.locator("path[data-series]").evaluate_all("paths => paths.map(p => p.dataset.series)")
    assert sorted(lines) == sorted([*played, "overall"]), "one line per role played, over the overall one"
    games = int(await page.get_by_test_id("games").inner_text())
    role_points = chart.locator("g.series:not(.series-overall) circle")
    assert await role_points.count() == games, "one point per rated game, in its role's line"

    h2h = page.get_by_test_id("head-to-head")
    await expect(h2h.locator("tbody tr").first).to_be_visible()
    opponents = await h2h.locator("tbody tr").evaluate_all("rows => rows.map(r => r.dataset.opponent)")
    assert set(opponents) <= set(season.members) - {member}
    opponent_names = await h2h.locator("tbody tr td:nth-child(1)").all_inner_texts()
    assert opponent_names == [season.names[o] for o in opponents]
    await screenshot(page, "player")


async def test_tournament_tables_show_rounds_seats_and_the_sheriff(page: Page, season: Season) -> None:
    await page.goto(f"/#/tournament?league={season.league_id}&tournament={season.tournament_id}")
    rounds = page.get_by_test_id("round")
    await expect(rounds).to_have_count(ROUNDS)
    first = rounds.first
    tables = first.get_by_test_id("table")
    await expect(tables).to_have_count(2)
    for i in range(2):
        seated = tables.nth(i)
        await expect(seated.locator("ol > li")).to_have_count(5)
        await expect(seated.get_by_test_id("sheriff")).to_have_count(1)
        await expect(seated.get_by_test_id("sheriff")).to_contain_text("Sheriff")
        await expect(seated.get_by_test_id("winner")).to_have_text(re.compile(r"(Law|Outlaws|Renegade) won"))
        assert_names_not_ids(await shown_names(seated.locator("ol > li")), season)
    await screenshot(page, "tournament")

    await tables.first.get_by_role("link", name="Replay").click()
    await expect(page.get_by_test_id("audit-verdict")).to_have_text(re.compile("clean", re.IGNORECASE))


async def test_pages_show_an_error_when_the_api_refuses(page: Page, season: Season) -> None:
    # The API's GraphQL endpoint answers but the operation document is missing: an error state.
    await page.route("**/dashboard/operations/dashboard/Standings.graphql", lambda route: route.abort())
    await page.goto(f"/#/standings?league={season.league_id}")
    await expect(page.get_by_test_id("error")).to_contain_text("Could not load the standings")
    await page.unroute("**/dashboard/operations/dashboard/Standings.graphql")
    await page.get_by_role("button", name="Try again").click()
    await expect(page.get_by_test_id("standings")).to_be_visible()
