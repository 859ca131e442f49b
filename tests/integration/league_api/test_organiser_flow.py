"""Issue 11's whole organiser flow from an empty database, through the public interfaces alone
(REST and GraphQL, each person with their own session). The one step outside them is the
operator's first invite, made by the code of `bang-league accounts invite`.

A club is founded, people are invited (they set their own passwords; one who already has an
account accepts with her session) and one is registered by name; roles are granted; a league, a
season, a tournament; round 1 is seated (Swiss, the Sheriff by rotation); one table's game is
played online by its signed-in players, the other table's game is entered by its scorekeeper
(one refused entry naming the rule, nothing stored); standings and ratings move; the round is
closed and the lists show it, the games finished and everybody by name."""

from __future__ import annotations

import random
from typing import Any

import httpx
from litestar import Litestar

from bang_cli.accounts import create_invite
from services.accounts.settings import AccountSettings
from services.api import ApiSettings
from tests.integration.accounts.conftest import PASSWORD
from tests.integration.api.bots import play_to_the_end
from tests.integration.clubs.conftest import Person
from tests.integration.directory.conftest import catch_up
from tests.integration.league_api.conftest import post, writes
from tests.integration.league_api.test_standings_and_ratings import consume

LEAGUE, SEASON, TOURNAMENT = "thursday", "autumn", "thursday_cup"
ROUND = f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds/1"
FACES = ("arrow", "dynamite", "shoot1", "shoot2", "beer", "gatling")
ROLES = ("sheriff", "renegade", "outlaw", "outlaw")
CHARACTERS = ("paul_regret", "willy_the_kid", "black_jack", "lucky_duke")
STANDINGS = """
query ($league: ID!, $season: ID, $pool: String!) {
  leagueStandings(leagueId: $league, seasonId: $season) { lines { memberId games points wins } }
  ratingLeaderboard(limit: 100, pool: $pool) { memberId games }
}
"""


async def graphql(
    client: httpx.AsyncClient, who: Person | None, query: str, variables: dict[str, Any]
) -> dict[str, Any]:
    headers = {} if who is None else who.auth
    response = await client.post("/graphql", json={"query": query, "variables": variables}, headers=headers)
    assert response.status_code == 200, response.text
    body = response.json()
    assert not body.get("errors"), body["errors"]
    data: dict[str, Any] = body["data"]
    return data


async def mutation(
    client: httpx.AsyncClient, who: Person, field: str, input_type: str, given: dict[str, Any], select: str
) -> dict[str, Any]:
    query = f"mutation($input: {input_type}!) {{ {field}(input: $input) {select} }}"
    answer: dict[str, Any] = (await graphql(client, who, query, {"input": given}))[field]
    return answer


async def accept(client: httpx.AsyncClient, accept_path: str, login: str, name: str) -> Person:
    """An invitee sets their own login name and password, then signs in with them."""
    accepted = await client.post(accept_path, json={"login": login, "password": PASSWORD})
    assert accepted.status_code == 201, accepted.text
    signed_in = await client.post("/sessions", json={"login": login, "password": PASSWORD})
    assert signed_in.status_code == 201, signed_in.text
    return Person(accepted.json()["account"]["account_id"], name, signed_in.json()["token"])


async def invited(client: httpx.AsyncClient, inviter: Person, club: str, login: str, name: str) -> Person:
    issued = await post(client, f"/clubs/{club}/invites", inviter, {"display_name": name})
    return await accept(client, issued["accept_path"], login, name)


async def enter_table_game(
    client: httpx.AsyncClient, game_id: str, keeper: Person, rng: random.Random
) -> dict[str, Any]:
    """The scorekeeper enters what happens at the table: the dice as they fell, each decision
    among the legal ones, until the game ends."""
    state: dict[str, Any] = (await client.get(f"/games/{game_id}", headers=keeper.auth)).json()
    for n in range(3_000):
        if state["status"] != "ongoing":
            return state
        awaiting = state["awaiting"]
        if awaiting["decision"] == "roll":
            faces = [rng.choice(FACES) for _ in awaiting["dice"]]
            command: Any = {"type": "RollDice", "player": awaiting["player"], "faces": faces}
        else:
            command = rng.choice(state["legal_commands"])
        entered = await client.post(
            f"/games/{game_id}/commands",
            json={"command": command, "command_id": f"keeper-{n}", "expected_version": state["version"]},
            headers=keeper.auth,
        )
        assert entered.status_code == 200, entered.text
        state = entered.json()["state"]
    raise AssertionError(f"table game {game_id} did not end")


async def test_a_club_runs_a_round_from_an_empty_database_through_the_public_api(
    app: Litestar, client: httpx.AsyncClient, api_settings: ApiSettings, account_settings: AccountSettings
) -> None:
    assert (await client.get("/games")).json()["items"] == []  # an empty database

    # the operator's one step: an invite for the club's founder, made as the CLI makes it
    first = await create_invite(api_settings, "Rosa Founder", "rosa", account_settings)
    rosa = await accept(client, f"/accounts/invites/{first.token}/accept", "rosa", "Rosa Founder")
    club = (await post(client, "/clubs", rosa, {"name": "Thursday Saloon"}))["club_id"]

    # invites, each accepted with a password of the invitee's own
    olga = await invited(client, rosa, club, "olga", "Olga Organiser")
    await post(client, f"/clubs/{club}/roles", rosa, {"account_id": olga.account_id, "role": "organiser"})
    remy = await invited(client, olga, club, "remy", "Remy Referee")
    await mutation(
        client, rosa, "grantRole", "GrantRoleInput",
        {"clubId": club, "accountId": remy.account_id, "role": "referee"}, "{ role }",
    )  # fmt: skip
    kim = await invited(client, olga, club, "kim", "Kim Keeper")
    players = [
        await invited(client, olga, club, f"player-{name.lower()}", f"Player {name}")
        for name in ("Abe", "Bea", "Cal", "Dot", "Eli", "Fay")
    ]
    # Vera has an account already (she plays at Rosa's Sunday club): she accepts with her session
    sunday = await mutation(
        client, rosa, "foundClub", "FoundClubInput", {"name": "Sunday Saloon"}, "{ clubId }"
    )
    sunday_invite = await mutation(
        client, rosa, "inviteMember", "InviteMemberInput",
        {"clubId": sunday["clubId"], "displayName": "Vera Twoclubs"}, "{ acceptPath }",
    )  # fmt: skip
    vera = await accept(client, sunday_invite["acceptPath"], "vera", "Vera Twoclubs")
    invite = await post(client, f"/clubs/{club}/invites", olga, {"display_name": "Vera Twoclubs"})
    joined = await client.post(invite["accept_path"], json={}, headers=vera.auth)
    assert joined.status_code < 300, joined.text
    assert joined.json()["account"]["account_id"] == vera.account_id  # no second account
    vera_clubs = (await client.get("/me/clubs", headers=vera.auth)).json()
    assert {c["club_id"] for c in vera_clubs} == {club, sunday["clubId"]}
    # Hal plays only at the physical table: registered by name, no login yet
    hal = await post(client, f"/clubs/{club}/members", olga, {"display_name": "Hal Tablesonly"})
    entrants = [*(p.account_id for p in players), vera.account_id, hal["member_id"]]
    names = {
        **{p.account_id: p.display_name for p in (*players, vera)},
        hal["member_id"]: "Hal Tablesonly",
    }
    sessions = {p.account_id: p.token for p in (*players, vera)}

    # the league, by the organiser: REST and GraphQL alike
    await post(client, f"/clubs/{club}/leagues", olga, {"league_id": LEAGUE, "name": "Thursday League"})
    await mutation(
        client, olga, "openSeason", "OpenSeasonInput",
        {"leagueId": LEAGUE, "seasonId": SEASON, "name": "Autumn"}, "{ seasonId }",
    )  # fmt: skip
    enrolled = await post(
        client, f"/leagues/{LEAGUE}/seasons/{SEASON}/entrants", olga, {"member_ids": entrants}
    )
    assert {e["member_id"]: e["display_name"] for e in enrolled["enrolled"]} == names
    await mutation(
        client, olga, "openTournament", "OpenTournamentInput",
        {"leagueId": LEAGUE, "seasonId": SEASON, "tournamentId": TOURNAMENT, "name": "Thursday Cup"},
        "{ tournamentId }",
    )  # fmt: skip
    seated = await post(client, f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds", olga, {})
    assert seated["round"] == 1 and seated["byes"] == [] and len(seated["tables"]) == 2
    for table in seated["tables"]:
        assert len(table["members"]) == 4 and table["sheriff"] in table["members"]
        assert all(m["display_name"] == names[m["member_id"]] for m in table["members"])
    # Hal has no login, so his table plays at the table; the other one online
    at_table = next(t for t in seated["tables"] if hal["member_id"] in [m["member_id"] for m in t["members"]])
    online_table = next(t for t in seated["tables"] if t is not at_table)

    # the online game: created at once; the organiser is handed nobody's token
    online = await post(client, f"{ROUND}/tables/{online_table['table']}/game", olga, {"mode": "online"})
    assert online["game_created"] and "player_tokens" not in online
    assert online["members"] == online_table["members"] and online["sheriff"] == online_table["sheriff"]
    # the table game, scheduled over GraphQL with its scorekeeper
    scheduled = await mutation(
        client, olga, "scheduleGame", "ScheduleGameInput",
        {"leagueId": LEAGUE, "tournamentId": TOURNAMENT, "round": 1, "table": at_table["table"],
         "mode": "table", "scorekeeper": kim.account_id},
        "{ gameId gameCreated scorekeeper { memberId displayName } }",
    )  # fmt: skip
    assert not scheduled["gameCreated"]
    assert scheduled["scorekeeper"] == {"memberId": kim.account_id, "displayName": "Kim Keeper"}
    table_game = scheduled["gameId"]

    # online: each signed-in player plays their own seat with their own session
    ended = await play_to_the_end(
        client, online["game_id"], {m["member_id"]: sessions[m["member_id"]] for m in online["members"]},
        random.Random(11),
    )  # fmt: skip
    assert ended["status"] == "ended"

    # at the table: Kim creates the scheduled game with the cards as dealt, then enters it
    members = [m["member_id"] for m in at_table["members"]]
    sheriff = members.index(at_table["sheriff"]["member_id"])
    roles = list(ROLES[1:])
    roles.insert(sheriff, "sheriff")
    created = await client.post(
        "/games",
        json={
            "command_id": "kim-create", "mode": "table", "player_count": 4, "game_id": table_game,
            "seats": [
                {"member_id": m, "name": names[m], "role": r, "character": c}
                for m, r, c in zip(members, roles, CHARACTERS, strict=True)
            ],
            "context": {"league_id": LEAGUE, "season_id": SEASON, "tournament_id": TOURNAMENT, "round": 1,
                        "table": at_table["table"]},
        },
        headers=kim.auth,
    )  # fmt: skip
    assert created.status_code == 201, created.text
    state = created.json()["state"]
    rolled = await client.post(
        f"/games/{table_game}/commands",
        json={"command": {"type": "RollDice", "player": state["awaiting"]["player"],
                          "faces": ["dynamite", "beer", "shoot1", "arrow", "gatling"]},
              "command_id": "kim-first-roll"},
        headers=kim.auth,
    )  # fmt: skip
    assert rolled.status_code == 200, rolled.text
    state = rolled.json()["state"]
    # a die showing dynamite stays: the entry is refused naming the rule, and nothing is stored
    before = await writes(app)
    player = state["awaiting"]["player"]
    refused = await client.post(
        f"/games/{table_game}/commands",
        json={"command": f"{player} reroll {state['dice'].index('dynamite')}", "command_id": "kim-wrong"},
        headers=kim.auth,
    )
    assert refused.status_code == 422, refused.text
    problem = refused.json()
    assert problem["type"].endswith("/illegal-command") and "dynamite" in problem["detail"]
    assert "cannot be rerolled" in problem["detail"]
    assert await writes(app) == before
    finished = await enter_table_game(client, table_game, kim, random.Random(7))
    assert finished["status"] == "ended"

    # standings and ratings move for every seated player, shown over GraphQL
    await consume(app)
    pool = f"club:{club}"  # a league's games are rated in its club's pool; a member reads
    view = await graphql(client, vera, STANDINGS, {"league": LEAGUE, "season": SEASON, "pool": pool})
    standings = {line["memberId"]: line for line in view["leagueStandings"]["lines"]}
    ratings = {row["memberId"]: row for row in view["ratingLeaderboard"]}
    assert set(standings) == set(entrants)
    assert all(standings[m]["games"] == 1 for m in entrants)
    assert sum(standings[m]["wins"] for m in entrants) >= 2  # each game has its winners
    assert sum(standings[m]["points"] for m in entrants) > 0
    assert set(ratings) == set(entrants) and all(ratings[m]["games"] == 1 for m in entrants)

    # the round is closed; the lists show it, the games finished, everybody by name
    await post(client, f"{ROUND}/close", olga)
    await catch_up(app)
    rounds = (await client.get(f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds", headers=kim.auth)).json()
    [listed] = rounds["items"]
    assert listed["closed"] is True
    tables = {t["table"]: t for t in listed["tables"]}
    for table, game_id, mode in (
        (online_table, online["game_id"], "online"), (at_table, table_game, "table"),
    ):  # fmt: skip
        shown = tables[table["table"]]
        # the game's seat order once the game exists (the seating's before): the same people
        by_id = sorted(shown["members"], key=lambda m: m["member_id"])
        assert by_id == sorted(table["members"], key=lambda m: m["member_id"])
        assert shown["sheriff"] == table["sheriff"]
        assert shown["game"]["game_id"] == game_id and shown["game"]["mode"] == mode
        assert shown["game"]["status"] == "finished" and shown["game"]["winning_side"]
    finished_games = (await client.get(f"/games?league={LEAGUE}&state=finished")).json()["items"]
    assert {g["game_id"] for g in finished_games} == {online["game_id"], table_game}
    for game in finished_games:
        assert all(p["display_name"] == names[p["member_id"]] for p in game["players"])
    found = (await client.get(f"/clubs/{club}/members?q=tablesonly", headers=olga.auth)).json()["items"]
    assert [(m["member_id"], m["display_name"]) for m in found] == [(hal["member_id"], "Hal Tablesonly")]
    everyone = (await client.get(f"/clubs/{club}/members?limit=100", headers=vera.auth)).json()["items"]
    assert {m["display_name"] for m in everyone} >= {
        "Rosa Founder", "Olga Organiser", "Remy Referee", "Kim Keeper", *names.values(),
    }  # fmt: skip
    league = (await client.get(f"/leagues/{LEAGUE}", headers=remy.auth)).json()
    assert [(s["season_id"], s["entrants"]) for s in league["seasons"]] == [(SEASON, len(entrants))]
    mine = (await client.get("/me/games", headers=vera.auth)).json()["items"]
    vera_table = online if vera.account_id in [m["member_id"] for m in online["members"]] else None
    assert [g["game_id"] for g in mine] == [online["game_id"] if vera_table else table_game]
