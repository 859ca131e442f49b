"""The demo (`bang-league serve --demo`): a club with named members, its organiser's account
whose login and password serve prints, and a league whose first round the bots played. The
organiser signs in over the public API with what was printed and finds their club and league."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from services.game.application.codec import GAME_MAPPER
from services.league.demo import (
    DEMO_CARD_LEAGUE,
    DEMO_CARD_TOURNAMENT,
    DEMO_CLUB_NAME,
    DEMO_LEAGUE,
    DEMO_LEAGUE_TABLE_GAME,
    DEMO_LOGIN,
    DEMO_ONLINE_GAME,
    DEMO_ORGANISER_NAME,
    DEMO_PLAYER_LOGINS,
    DEMO_SEASON,
    DEMO_TABLE_GAME,
    DEMO_TOURNAMENT,
    demo_pages,
    seed_demo,
)
from services.league.service import LeagueService
from services.runtime.context import RuntimeContext, open_context
from services.runtime.infra import Endpoints
from services.runtime.serve import DEMO_PASSWORD_ENV, ServeOptions, plan_children

PLAYERS = 4


@pytest.fixture
async def context(
    client: httpx.AsyncClient, database_dsn: str, redis_url: str
) -> AsyncIterator[RuntimeContext]:
    # after `client`: the API's lifespan has brought the schema up to date
    async with open_context(database_dsn, redis_url, mapper=GAME_MAPPER, listen=False) as opened:
        yield opened


async def sign_in(client: httpx.AsyncClient, password: str, login: str = DEMO_LOGIN) -> httpx.Response:
    return await client.post("/sessions", json={"login": login, "password": password})


async def bearer_of(client: httpx.AsyncClient, password: str, login: str) -> dict[str, str]:
    signed_in = await sign_in(client, password, login)
    assert signed_in.status_code == 201, signed_in.text
    return {"Authorization": f"Bearer {signed_in.json()['token']}"}


async def test_the_demo_seeds_a_club_with_named_members_that_its_organiser_signs_in_to(
    client: httpx.AsyncClient, context: RuntimeContext
) -> None:
    report = await seed_demo(context, players=PLAYERS, rounds=1, password="first-demo-password")
    assert report.login == DEMO_LOGIN and report.password == "first-demo-password"
    assert [name for _, name in report.members] == ["Ada", "Bart", "Calamity", "Doc"]
    assert report.games >= 1

    signed_in = await sign_in(client, report.password)
    assert signed_in.status_code == 201, signed_in.text
    assert signed_in.json()["account"]["display_name"] == DEMO_ORGANISER_NAME
    headers = {"Authorization": f"Bearer {signed_in.json()['token']}"}

    mine = (await client.get("/me/clubs", headers=headers)).json()
    assert [c["name"] for c in mine] == [DEMO_CLUB_NAME]
    assert mine[0]["club_id"] == report.club_id
    # and keeper of the open round's table game (test_the_demo_leaves_an_open_round_…)
    assert {g["role"] for g in mine[0]["roles"]} == {"admin", "organiser", "scorekeeper"}

    club = (await client.get(f"/clubs/{report.club_id}", headers=headers)).json()
    named = {m["account_id"]: m["display_name"] for m in club["members"]}
    assert {member_id: name for member_id, name in report.members}.items() <= named.items()
    assert DEMO_ORGANISER_NAME in named.values()

    # the league is the club's, its members are the club's accounts, and a round was played
    league = await LeagueService(context.store).load_league(DEMO_LEAGUE)
    assert league.exists and league.club_id == report.club_id
    members = (await LeagueService(context.store).load_club(report.club_id)).members
    assert members == dict(report.members)
    game = (await client.get("/games/demo.opening_cup.r1.t1", headers=headers)).json()
    assert game["status"] == "ended"
    assert {p["name"] for p in game["players"]} <= {name for _, name in report.members}
    # and the card league's one round, played by the card bots, counts in its standings
    cards = await LeagueService(context.store).load_league(DEMO_CARD_LEAGUE)
    assert cards.exists and cards.club_id == report.club_id and cards.game_type == "cards"
    assert report.card_games == 1  # four members: one table of four
    card_game = (await client.get(f"/games/{DEMO_CARD_LEAGUE}.{DEMO_CARD_TOURNAMENT}.r1.t1")).json()
    assert card_game["status"] == "ended" and card_game["ruleset"]["text"] == "cards"
    query = "query ($l: ID!, $s: ID) { leagueStandings(leagueId: $l, seasonId: $s) { lines { games } } }"
    variables = {"l": DEMO_CARD_LEAGUE, "s": DEMO_SEASON}
    answer = (await client.post("/graphql", json={"query": query, "variables": variables})).json()
    assert [line["games"] for line in answer["data"]["leagueStandings"]["lines"]] == [1, 1, 1, 1], answer


async def test_seeding_again_changes_nothing_but_the_password(
    client: httpx.AsyncClient, context: RuntimeContext
) -> None:
    first = await seed_demo(context, players=PLAYERS, rounds=1, password="first-demo-password")
    again = await seed_demo(context, players=PLAYERS, rounds=1, password="second-demo-password")
    assert (again.club_id, again.members) == (first.club_id, first.members)
    assert (await sign_in(client, "first-demo-password")).status_code == 401
    signed_in = await sign_in(client, "second-demo-password")
    assert signed_in.status_code == 201, signed_in.text
    headers = {"Authorization": f"Bearer {signed_in.json()['token']}"}
    club = (await client.get(f"/clubs/{first.club_id}", headers=headers)).json()
    assert len(club["members"]) == PLAYERS + 1


async def test_the_demo_seats_its_players_at_an_online_game_and_its_organiser_keeps_score_of_a_table(
    client: httpx.AsyncClient, context: RuntimeContext
) -> None:
    """What a new user needs to play and keep score from the browser alone: demo players who
    sign in with the printed password, seated with the organiser at an online game, and a table
    game whose scorekeeper is the organiser."""
    report = await seed_demo(context, players=9, rounds=1, password="first-demo-password")
    assert report.player_logins == DEMO_PLAYER_LOGINS
    organiser = await bearer_of(client, report.password, DEMO_LOGIN)

    online = (await client.get(f"/games/{DEMO_ONLINE_GAME}", headers=organiser)).json()
    assert online["mode"] == "online" and online["status"] == "ongoing"
    seated = {p["member_id"] for p in online["players"]}
    assert seated == {(await client.get("/me", headers=organiser)).json()["account_id"]} | {
        member_id for member_id, _ in report.members[: len(DEMO_PLAYER_LOGINS)]
    }
    # each demo player signs in and sees their own role there, and nobody else's hidden one
    for login, (member_id, _) in zip(DEMO_PLAYER_LOGINS, report.members, strict=False):
        player = await bearer_of(client, report.password, login)
        mine = (await client.get(f"/games/{DEMO_ONLINE_GAME}", headers=player)).json()
        roles = {p["member_id"]: p["role"] for p in mine["players"]}
        assert roles[member_id] is not None
        assert all(role in (None, "sheriff") for who, role in roles.items() if who != member_id)

    clubs = (await client.get("/me/clubs", headers=organiser)).json()
    assert {"role": "scorekeeper", "game_id": DEMO_TABLE_GAME} in clubs[0]["roles"]
    table = (await client.get(f"/games/{DEMO_TABLE_GAME}", headers=organiser)).json()
    # the scorekeeper enters the first roll: the page asks them for the dice
    assert table["mode"] == "table" and table["awaiting"]["decision"] == "roll"

    # a second start: the same games, every demo password replaced
    await seed_demo(context, players=9, rounds=1, password="second-demo-password")
    assert (await sign_in(client, "first-demo-password", "ada")).status_code == 401
    assert (await sign_in(client, "second-demo-password", "ada")).status_code == 201


async def test_the_demo_leaves_an_open_round_whose_table_game_its_organiser_starts(
    client: httpx.AsyncClient, context: RuntimeContext
) -> None:
    """A new organiser's evening: the round after the bots' is seated, its first table scheduled
    at a table with the organiser keeping score and not started; he starts it (the server deals)
    and keeps score of it."""
    report = await seed_demo(context, players=PLAYERS, rounds=1, password="open-round-password")
    organiser = await bearer_of(client, report.password, DEMO_LOGIN)
    assert (await client.get(f"/games/{DEMO_LEAGUE_TABLE_GAME}", headers=organiser)).status_code == 404
    where = await client.get(f"/games/{DEMO_LEAGUE_TABLE_GAME}/schedule", headers=organiser)
    assert where.status_code == 200, where.text
    assert {k: where.json()[k] for k in ("league_id", "tournament_id", "round", "table", "mode")} == {
        "league_id": DEMO_LEAGUE, "tournament_id": DEMO_TOURNAMENT, "round": 2, "table": 1, "mode": "table",
    }  # fmt: skip
    start = f"/leagues/{DEMO_LEAGUE}/tournaments/{DEMO_TOURNAMENT}/rounds/2/tables/1/game/start"
    started = await client.post(start, json={"command_id": "demo-start"}, headers=organiser)
    assert started.status_code == 201, started.text
    table = (await client.get(f"/games/{DEMO_LEAGUE_TABLE_GAME}", headers=organiser)).json()
    assert table["mode"] == "table" and table["awaiting"]["decision"] == "roll"


def test_serve_makes_a_password_prints_it_and_hands_it_to_the_seeding(tmp_path: Path) -> None:
    endpoints = Endpoints("postgresql://x/y", "redis://x", "embedded", "embedded", tmp_path)
    options = ServeOptions(host="127.0.0.1", port=8123, data_dir=tmp_path, demo=True, worker=False)
    children, urls = plan_children(options, endpoints)
    demo = next(c for c in children if c.name == "demo")
    assert urls.demo_password and demo.env[DEMO_PASSWORD_ENV] == urls.demo_password
    assert urls.demo_password not in " ".join(demo.argv)
    assert all(DEMO_PASSWORD_ENV not in c.env for c in children if c.name != "demo")
    assert plan_children(options, endpoints)[1].demo_password != urls.demo_password  # new every start
    base = "http://127.0.0.1:8123"
    assert (urls.graphql, urls.swagger, urls.scalar, urls.openapi) == (
        f"{base}/graphql", f"{base}/schema/swagger", f"{base}/schema/scalar", f"{base}/schema/openapi.json",
    )  # fmt: skip
    pages = dict(demo_pages(base))
    assert pages["Standings"] == f"{base}/#/standings?league=demo&season=season_1"
    no_demo = plan_children(ServeOptions("127.0.0.1", 8123, tmp_path, demo=False, worker=False), endpoints)
    assert no_demo[1].demo_password is None
