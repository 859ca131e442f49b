"""Every game write and read is checked against the caller's account, role and club (issue 11,
"Who is who"): each attack of the issue on games, refused with 403 or 409 and nothing changed,
and the rightful callers let through.

Clubs and accounts are made over HTTP as their own tests do; a league's scheduled table is a
reservation written straight into ``league_game_reservations`` (what the league's scheduling
route writes before it records ``GameScheduled``), and roles are granted by the club's admin.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

import asyncpg
import httpx
import pytest
from litestar import Litestar

from services.api.client import GraphQLSubscription, SubscriptionError, operation
from services.league.reservations import Reservation, reserve
from tests.integration.api.bots import bearer
from tests.integration.api.conftest import resources_of
from tests.integration.api.people import Person, found, grant, people
from tests.integration.api.test_bounds import stored
from tests.integration.api.test_errors import problem
from tests.integration.api.test_records import a_finished_table_game

LEAGUE = {"league_id": "saloon-league", "season_id": "s1", "tournament_id": "cup", "round": 1}
TABLE_GAME, OTHER_TABLE_GAME, ONLINE_GAME = "saloon.r1.t1", "saloon.r1.t2", "saloon.r1.t3"
ROLES = ("sheriff", "renegade", "outlaw", "outlaw")
CHARACTERS = ("paul_regret", "willy_the_kid", "black_jack", "lucky_duke")


@dataclass(frozen=True, slots=True)
class Clubs:
    """Club A runs the league; club B is somebody else's."""

    club_a: str
    club_b: str
    admin: Person
    """Club A's admin."""
    organiser: Person
    """Club A's organiser: schedules and creates the league's games."""
    scorekeeper: Person
    """Keeps the score of TABLE_GAME only."""
    other_scorekeeper: Person
    """Keeps the score of OTHER_TABLE_GAME."""
    players: list[Person]
    """Club A's players, seated at every scheduled table in this order (the first is Sheriff)."""
    foreign: Person
    """Club B's admin and organiser."""
    foreign_scorekeeper: Person
    """Holds ``scorekeeper`` for TABLE_GAME's id, but in club B."""
    pool: asyncpg.Pool


@pytest.fixture
async def clubs(app: Litestar, client: httpx.AsyncClient) -> Clubs:
    admin, organiser, scorekeeper, other_scorekeeper, foreign, foreign_scorekeeper, *players = await people(
        app, client, "Ada Admin", "Olga Organiser", "Sam Score", "Kim Keeper", "Fred Foreign", "Mal Keeper",
        "Pia One", "Pat Two", "Pem Three", "Pol Four",
    )  # fmt: skip
    club_a, club_b = await found(client, admin, "Saloon A"), await found(client, foreign, "Saloon B")
    await grant(client, admin, club_a, organiser, "organiser")
    for player in players:
        await grant(client, admin, club_a, player, "player")
    await grant(client, admin, club_a, scorekeeper, "scorekeeper", game_id=TABLE_GAME)
    await grant(client, admin, club_a, other_scorekeeper, "scorekeeper", game_id=OTHER_TABLE_GAME)
    await grant(client, foreign, club_b, foreign, "organiser")
    await grant(client, foreign, club_b, foreign_scorekeeper, "scorekeeper", game_id=TABLE_GAME)
    pool = resources_of(app).pool
    for table, (game_id, mode, keeper) in enumerate(
        ((TABLE_GAME, "table", scorekeeper), (OTHER_TABLE_GAME, "table", other_scorekeeper),
         (ONLINE_GAME, "online", None)),
        start=1,
    ):  # fmt: skip
        await reserve(
            pool,
            Reservation(
                game_id=game_id, club_id=club_a, table=table, mode=mode,
                members=tuple(p.account_id for p in players), sheriff=players[0].account_id,
                scorekeeper=None if keeper is None else keeper.account_id, scheduled_by=organiser.account_id,
                **LEAGUE,
            ),
        )  # fmt: skip
    return Clubs(
        club_a,
        club_b,
        admin,
        organiser,
        scorekeeper,
        other_scorekeeper,
        players,
        foreign,
        foreign_scorekeeper,
        pool,
    )


def seats(players: list[Person]) -> list[dict[str, str]]:
    return [
        {"member_id": p.account_id, "name": p.display_name, "role": role, "character": character}
        for p, role, character in zip(players, ROLES, CHARACTERS, strict=True)
    ]


def table_game(clubs: Clubs, game_id: str, table: int, command_id: str = "create") -> dict[str, Any]:
    return {
        "command_id": command_id,
        "mode": "table",
        "player_count": 4,
        "seats": seats(clubs.players),
        "game_id": game_id,
        "context": {**LEAGUE, "table": table},
    }


def online_game(clubs: Clubs, command_id: str = "create-online") -> dict[str, Any]:
    return {
        "command_id": command_id,
        "mode": "online",
        "player_count": 4,
        "members": [{"member_id": p.account_id, "name": p.display_name} for p in clubs.players],
        "sheriff_member": clubs.players[0].account_id,
        "game_id": ONLINE_GAME,
        "context": {**LEAGUE, "table": 3},
    }


async def version_of(client: httpx.AsyncClient, game_id: str) -> int:
    response = await client.get(f"/games/{game_id}")
    assert response.status_code == 200, response.text
    version: int = response.json()["version"]
    return version


def roles_shown(state: dict[str, Any]) -> list[str | None]:
    return [p["role"] for p in state["players"]]


async def first_roll(
    client: httpx.AsyncClient, game_id: str, who: dict[str, str], command_id: str
) -> httpx.Response:
    state = (await client.get(f"/games/{game_id}")).json()
    awaiting = state["awaiting"]
    roll = f"{awaiting['player']} roll {' '.join(['beer'] * len(awaiting['dice']))}"
    return await client.post(
        f"/games/{game_id}/commands", json={"command": roll, "command_id": command_id}, headers=who
    )


# -- a foreign organiser forging a league game ------------------------------------------------


async def test_a_foreign_organiser_cannot_forge_a_league_game_and_nothing_is_stored(
    app: Litestar, client: httpx.AsyncClient, clubs: Clubs
) -> None:
    operator = await resources_of(app).gateway.tokens.issue_organiser("Saloon A")
    before = await stored(clubs.pool)
    forged = table_game(clubs, TABLE_GAME, 1)
    # the scheduled id with the schedule's very seats: not theirs to create
    body = problem(await client.post("/games", json=forged, headers=clubs.foreign.auth), 403, "role-required")
    assert clubs.club_a in body["detail"]
    # an id of their own, or none, claiming club A's league: no such game was scheduled
    for game_id in ("forged-1", None):
        claim = (
            {**forged, "game_id": game_id} if game_id else {k: v for k, v in forged.items() if k != "game_id"}
        )
        body = problem(
            await client.post("/games", json=claim, headers=clubs.foreign.auth), 409, "not-scheduled"
        )
        assert "saloon-league" in body["detail"]
    # an operator's organiser token named like club A creates friendly games only
    problem(await client.post("/games", json=forged, headers=bearer(operator)), 403, "role-required")
    problem(
        await client.post("/games", json={**forged, "game_id": "forged-2"}, headers=bearer(operator)),
        409,
        "not-scheduled",
    )
    # the same through GraphQL and a record import
    mutation = "mutation($input: CreateGameInput!) { createGame(input: $input) { gameId } }"
    context = {"leagueId": "saloon-league", "seasonId": "s1", "tournamentId": "cup", "round": 1, "table": 1}
    given = {
        "commandId": "gql",
        "mode": "table",
        "playerCount": 4,
        "gameId": TABLE_GAME,
        "seats": [
            {"memberId": s["member_id"], "name": s["name"], "role": s["role"], "character": s["character"]}
            for s in seats(clubs.players)
        ],
        "context": context,
    }
    answer = await client.post(
        "/graphql", json={"query": mutation, "variables": {"input": given}}, headers=clubs.foreign.auth
    )
    assert answer.json()["errors"][0]["extensions"]["problem"]["status"] == 403, answer.text
    imported = {
        "command_id": "imp",
        "record": a_finished_table_game(seed=3),
        "context": {**LEAGUE, "table": 1},
    }
    problem(
        await client.post("/records", json={**imported, "game_id": TABLE_GAME}, headers=clubs.foreign.auth),
        403,
        "role-required",
    )
    problem(await client.post("/records", json=imported, headers=clubs.foreign.auth), 409, "not-scheduled")

    problem(await client.get(f"/games/{TABLE_GAME}"), 404, "game-not-found")
    assert await stored(clubs.pool) == before


async def test_an_unscheduled_or_mismatched_game_cannot_claim_the_league(
    client: httpx.AsyncClient, clubs: Clubs
) -> None:
    """Even the league's own organiser: a league game is the schedule's, or none."""
    before = await stored(clubs.pool)
    unscheduled = {**table_game(clubs, "not-reserved", 9), "command_id": "u"}
    body = problem(
        await client.post("/games", json=unscheduled, headers=clubs.organiser.auth), 409, "not-scheduled"
    )
    assert "table 9" in body["detail"]
    wrong_seats = table_game(clubs, TABLE_GAME, 1)
    wrong_seats["seats"] = [
        {**s, "role": r} for s, r in zip(wrong_seats["seats"], reversed(ROLES), strict=True)
    ]
    wrong_seats["context"] = {**wrong_seats["context"], "round": 2}
    body = problem(
        await client.post("/games", json=wrong_seats, headers=clubs.organiser.auth), 409, "schedule-mismatch"
    )
    assert "round is 2, scheduled 1" in body["detail"] and "Sheriff's card" in body["detail"]
    online = {**online_game(clubs), "sheriff_member": clubs.players[1].account_id}
    body = problem(
        await client.post("/games", json=online, headers=clubs.organiser.auth), 409, "schedule-mismatch"
    )
    assert "the Sheriff is" in body["detail"]
    assert await stored(clubs.pool) == before


async def test_a_reserved_id_cannot_be_taken_without_its_context(
    app: Litestar, client: httpx.AsyncClient, clubs: Clubs
) -> None:
    friendly = {k: v for k, v in table_game(clubs, TABLE_GAME, 1).items() if k != "context"}
    operator = await resources_of(app).gateway.tokens.issue_organiser("early bird")
    before = await stored(clubs.pool)
    for auth in (clubs.organiser.auth, clubs.foreign.auth, bearer(operator)):
        body = problem(await client.post("/games", json=friendly, headers=auth), 409, "not-scheduled")
        assert "reserved for league 'saloon-league'" in body["detail"]
    record = {"command_id": "imp", "record": a_finished_table_game(seed=4), "game_id": OTHER_TABLE_GAME}
    problem(await client.post("/records", json=record, headers=clubs.organiser.auth), 409, "not-scheduled")
    assert await stored(clubs.pool) == before


# -- table games: their creator and their scorekeeper, nobody else ---------------------------


async def test_the_scorekeeper_enters_their_table_game_and_sees_every_role(
    client: httpx.AsyncClient, clubs: Clubs
) -> None:
    created = await client.post("/games", json=table_game(clubs, TABLE_GAME, 1), headers=clubs.organiser.auth)
    assert created.status_code == 201, created.text
    entered = await first_roll(client, TABLE_GAME, clubs.scorekeeper.auth, "sam-1")
    assert entered.status_code == 200, entered.text
    assert roles_shown(entered.json()["state"]) == list(ROLES)
    mine = (await client.get(f"/games/{TABLE_GAME}", headers=clubs.scorekeeper.auth)).json()
    assert roles_shown(mine) == list(ROLES)
    # the league's admin keeps no score here: the public view of a game in progress
    admin_view = (await client.get(f"/games/{TABLE_GAME}", headers=clubs.admin.auth)).json()
    assert roles_shown(admin_view) == ["sheriff", None, None, None]
    problem(await client.get(f"/games/{TABLE_GAME}/record", headers=clubs.admin.auth), 409, "export-refused")
    assert (
        await client.get(f"/games/{TABLE_GAME}/record", headers=clubs.scorekeeper.auth)
    ).status_code == 200


async def test_a_scorekeeper_acts_only_at_their_own_table(client: httpx.AsyncClient, clubs: Clubs) -> None:
    for game_id, table in ((TABLE_GAME, 1), (OTHER_TABLE_GAME, 2)):
        created = await client.post(
            "/games", json=table_game(clubs, game_id, table, f"c{table}"), headers=clubs.organiser.auth
        )
        assert created.status_code == 201, created.text
    before = {g: await version_of(client, g) for g in (TABLE_GAME, OTHER_TABLE_GAME)}
    # a club-wide scorekeeper role (no game named) assigns no table: Kim holds one in club A
    club_wide = clubs.other_scorekeeper
    await grant(client, clubs.admin, clubs.club_a, club_wide, "scorekeeper")
    # Sam keeps TABLE_GAME's score, not the next table's; Mal holds the grant for TABLE_GAME's
    # id, but in club B, whose league scheduled nothing of the kind; a player keeps no score
    for who, game_id in (
        (clubs.scorekeeper, OTHER_TABLE_GAME),
        (clubs.foreign_scorekeeper, TABLE_GAME),
        (clubs.foreign, TABLE_GAME),
        (clubs.players[0], TABLE_GAME),
        (club_wide, TABLE_GAME),
    ):
        body = problem(await first_roll(client, game_id, who.auth, "intruder"), 403, "forbidden")
        assert "only its scorekeeper enters its moves" in body["detail"]
        view = (await client.get(f"/games/{game_id}", headers=who.auth)).json()
        assert roles_shown(view).count(None) == 3, who.display_name
    # nor may a scorekeeper create another table's game
    problem(
        await client.post(
            "/games", json=table_game(clubs, OTHER_TABLE_GAME, 2, "sam"), headers=clubs.scorekeeper.auth
        ),
        403,
        "role-required",
    )
    assert {g: await version_of(client, g) for g in before} == before
    ok = await first_roll(client, OTHER_TABLE_GAME, clubs.other_scorekeeper.auth, "kim-1")
    assert ok.status_code == 200, ok.text


async def test_a_scorekeeper_may_create_their_scheduled_table_game_only(
    client: httpx.AsyncClient, clubs: Clubs
) -> None:
    before = await stored(clubs.pool)
    refused = await client.post(
        "/games", json=table_game(clubs, OTHER_TABLE_GAME, 2), headers=clubs.scorekeeper.auth
    )
    assert clubs.club_a in problem(refused, 403, "role-required")["detail"]
    assert await stored(clubs.pool) == before
    created = await client.post(
        "/games", json=table_game(clubs, TABLE_GAME, 1), headers=clubs.scorekeeper.auth
    )
    assert created.status_code == 201, created.text
    assert roles_shown(created.json()["state"]) == list(ROLES)


async def test_nobody_moves_in_another_organisers_table_game(
    app: Litestar, client: httpx.AsyncClient, clubs: Clubs
) -> None:
    vault = resources_of(app).gateway.tokens
    operator, rival = await vault.issue_organiser("Saloon A"), await vault.issue_organiser("Saloon B")
    friendly = {k: v for k, v in table_game(clubs, "friendly-table", 1).items() if k != "context"}
    by_account = await client.post("/games", json=friendly, headers=clubs.organiser.auth)
    by_token = await client.post(
        "/games", json={**friendly, "game_id": "operator-table"}, headers=bearer(operator)
    )
    assert by_account.status_code == by_token.status_code == 201, (by_account.text, by_token.text)
    for game_id, intruders in (
        ("friendly-table", [clubs.foreign.auth, clubs.admin.auth, bearer(operator)]),
        ("operator-table", [bearer(rival), clubs.organiser.auth]),
    ):
        version = await version_of(client, game_id)
        for intruder in intruders:
            problem(await first_roll(client, game_id, intruder, "intrude"), 403, "forbidden")
        assert await version_of(client, game_id) == version
    for game_id, creator in (("friendly-table", clubs.organiser.auth), ("operator-table", bearer(operator))):
        assert (await first_roll(client, game_id, creator, "mine")).status_code == 200


# -- online games: each plays their own seat; the creator sees no role ------------------------


async def test_the_creator_of_an_online_game_reads_no_role_and_each_player_acts_for_their_seat(
    client: httpx.AsyncClient, clubs: Clubs
) -> None:
    created = await client.post("/games", json=online_game(clubs), headers=clubs.organiser.auth)
    assert created.status_code == 201, created.text
    assert set(created.json()) == {"game_id", "version", "state"}  # nobody's token
    assert roles_shown(created.json()["state"]).count(None) == 3
    for viewer in (clubs.organiser, clubs.admin):
        view = (await client.get(f"/games/{ONLINE_GAME}", headers=viewer.auth)).json()
        assert roles_shown(view).count(None) == 3 and view["legal_commands"] == []
        problem(await client.get(f"/games/{ONLINE_GAME}/record", headers=viewer.auth), 409, "export-refused")
    tokens_field = "mutation($i: CreateGameInput!) { createGame(input: $i) { gameId playerTokens } }"
    asked = await client.post("/graphql", json={"query": tokens_field, "variables": {"i": {}}})
    assert "playerTokens" in asked.json()["errors"][0]["message"]

    public = (await client.get(f"/games/{ONLINE_GAME}")).json()
    member_of = {p["id"]: p["member_id"] for p in public["players"]}
    awaited_seat = public["awaiting"]["player"]
    by_id = {p.account_id: p for p in clubs.players}
    awaited = by_id[member_of[awaited_seat]]
    other = next(p for p in clubs.players if p is not awaited)
    mine = (await client.get(f"/games/{ONLINE_GAME}", headers=awaited.auth)).json()
    own = next(p for p in mine["players"] if p["member_id"] == awaited.account_id)
    assert own["role"] is not None and mine["legal_commands"], mine
    version = mine["version"]
    command = {"command": mine["legal_commands"][0], "command_id": "not-mine"}
    for intruder in (other, clubs.organiser, clubs.admin):
        refused = await client.post(f"/games/{ONLINE_GAME}/commands", json=command, headers=intruder.auth)
        problem(refused, 403, "forbidden")
    assert await version_of(client, ONLINE_GAME) == version
    played = await client.post(
        f"/games/{ONLINE_GAME}/commands", json={**command, "command_id": "mine"}, headers=awaited.auth
    )
    assert played.status_code == 200, played.text
    assert played.json()["version"] > version


async def test_a_friendly_lobby_is_joined_only_as_yourself(client: httpx.AsyncClient, clubs: Clubs) -> None:
    lobby = {"command_id": "lobby", "mode": "online", "player_count": 3, "members": []}
    created = await client.post("/games", json=lobby, headers=clubs.players[0].auth)
    assert created.status_code == 201, created.text
    joins = f"/games/{created.json()['game_id']}/players"
    me, someone_else = clubs.players[1], clubs.players[2]
    before = await stored(clubs.pool)
    problem(await client.post(joins, json={"command_id": "j"}), 401, "unauthenticated")
    body = problem(
        await client.post(
            joins, json={"command_id": "j", "member_id": someone_else.account_id}, headers=me.auth
        ),
        403,
        "not-yourself",
    )
    assert body["field"] == "member_id"
    assert await stored(clubs.pool) == before
    joined = await client.post(joins, json={"command_id": "j", "member_id": me.account_id}, headers=me.auth)
    assert joined.status_code == 201, joined.text
    assert joined.json()["state"]["joined"] == [{"member_id": me.account_id, "name": me.display_name}]


# -- organiser tokens are told apart by what they are, not by their name ---------------------


async def test_a_look_alike_organiser_token_gets_nothing_of_the_first_ones_games(
    app: Litestar, client: httpx.AsyncClient, clubs: Clubs
) -> None:
    vault = resources_of(app).gateway.tokens
    first = await vault.issue_organiser("ClubA")
    table = {
        "command_id": "t",
        "mode": "table",
        "player_count": 4,
        "seats": seats(clubs.players),
        "game_id": "club-a-night",
    }
    assert (await client.post("/games", json=table, headers=bearer(first))).status_code == 201
    lobby = {"command_id": "l", "mode": "online", "player_count": 3, "members": [], "game_id": "club-a-lobby"}
    assert (await client.post("/games", json=lobby, headers=bearer(first))).status_code == 201
    player = clubs.players[0]
    joined = await client.post("/games/club-a-lobby/players", json={"command_id": "j"}, headers=player.auth)
    player_token = joined.json()["token"]

    look_alike = await vault.issue_organiser("ClubA")  # while the first is still valid
    assert await vault.revoke_organiser("ClubA") == 2  # the name is a label: both go
    successor = await vault.issue_organiser("ClubA")
    version = await version_of(client, "club-a-night")
    for token in (look_alike, successor):
        refused = await first_roll(client, "club-a-night", bearer(token), "take-over")
        assert refused.status_code in (401, 403), refused.text
    problem(await first_roll(client, "club-a-night", bearer(successor), "again"), 403, "forbidden")
    view = (await client.get("/games/club-a-night", headers=bearer(successor))).json()
    assert roles_shown(view) == ["sheriff", None, None, None]
    problem(await client.get("/games/club-a-night/record", headers=bearer(successor)), 409, "export-refused")
    revoke = {"game_id": "club-a-lobby"}
    problem(await client.post("/tokens/revoke", json=revoke, headers=bearer(successor)), 403, "forbidden")
    assert (await client.get("/games/club-a-lobby", headers=bearer(player_token))).status_code == 200
    assert await version_of(client, "club-a-night") == version


# -- accounts' other tokens -----------------------------------------------------------------------


async def test_a_scripts_api_token_keeps_score_only_with_the_scorekeepers_grant(
    client: httpx.AsyncClient, clubs: Clubs
) -> None:
    created = await client.post("/games", json=table_game(clubs, TABLE_GAME, 1), headers=clubs.organiser.auth)
    assert created.status_code == 201, created.text
    tokens = {}
    for label, grants in (
        ("score script", [{"club_id": clubs.club_a, "role": "scorekeeper", "game_id": TABLE_GAME}]),
        ("reader", []),
    ):
        made = await client.post(
            "/me/tokens", json={"label": label, "grants": grants}, headers=clubs.scorekeeper.auth
        )
        assert made.status_code == 201, made.text
        tokens[label] = made.json()["token"]
    version = await version_of(client, TABLE_GAME)
    problem(await first_roll(client, TABLE_GAME, bearer(tokens["reader"]), "by-reader"), 403, "forbidden")
    reader_view = (await client.get(f"/games/{TABLE_GAME}", headers=bearer(tokens["reader"]))).json()
    assert roles_shown(reader_view).count(None) == 3
    assert await version_of(client, TABLE_GAME) == version
    entered = await first_roll(client, TABLE_GAME, bearer(tokens["score script"]), "by-script")
    assert entered.status_code == 200, entered.text
    # an account's token is ended where it was made, not as a game's token
    problem(await client.delete("/tokens/current", headers=clubs.scorekeeper.auth), 403, "forbidden")
    # a session that ended is refused by the game routes as by every other
    assert (await client.delete("/sessions/current", headers=clubs.scorekeeper.auth)).status_code < 300
    problem(await client.get(f"/games/{TABLE_GAME}", headers=clubs.scorekeeper.auth), 401, "unauthenticated")
    problem(
        await first_roll(client, TABLE_GAME, clubs.scorekeeper.auth, "after-logout"), 401, "unauthenticated"
    )


# -- a league game goes by the caller's current grant, never by who created it (issue 20) -------

GAME_ROLES = "query($id: ID!) { game(id: $id) { version players { role } legalCommands } }"


async def graphql_view(client: httpx.AsyncClient, game_id: str, who: dict[str, str]) -> dict[str, Any]:
    answer = await client.post(
        "/graphql", json={"query": GAME_ROLES, "variables": {"id": game_id}}, headers=who
    )
    body: dict[str, Any] = answer.json()
    assert "errors" not in body, body
    game: dict[str, Any] = body["data"]["game"]
    return game


async def shows_no_hidden_role(client: httpx.AsyncClient, game_id: str, who: dict[str, str]) -> None:
    """REST and GraphQL show ``who`` the public view (the Sheriff only), offer no entry, export nothing."""
    view = (await client.get(f"/games/{game_id}", headers=who)).json()
    assert roles_shown(view) == ["sheriff", None, None, None], view["players"]
    assert view["may_enter"] is False and view["take_back"] is None and view["legal_commands"] == []
    problem(await client.get(f"/games/{game_id}/record", headers=who), 409, "export-refused")
    game = await graphql_view(client, game_id, who)
    assert [p["role"] for p in game["players"]] == ["sheriff", None, None, None]


async def enters_nothing(client: httpx.AsyncClient, game_id: str, who: dict[str, str], seat: str) -> None:
    """A roll and a take-back from ``who`` are 403 ``forbidden``, and the game does not move."""
    version = await version_of(client, game_id)
    commands = f"/games/{game_id}/commands"
    roll = {"command": f"{seat} roll beer beer beer beer beer", "command_id": f"roll-{version}"}
    body = problem(await client.post(commands, json=roll, headers=who), 403, "forbidden")
    assert "only its scorekeeper enters its moves" in body["detail"]
    take_back = {"command": "takeback", "command_id": f"undo-{version}"}
    problem(await client.post(commands, json=take_back, headers=who), 403, "forbidden")
    assert await version_of(client, game_id) == version


async def revoke_role(client: httpx.AsyncClient, clubs: Clubs, who: Person, role: str) -> None:
    revoked = await client.delete(
        f"/clubs/{clubs.club_a}/roles/{who.account_id}/{role}", headers=clubs.admin.auth
    )
    assert revoked.status_code == 204, revoked.text


async def test_a_revoked_scorekeeper_who_created_the_table_game_enters_and_sees_nothing_more(
    client: httpx.AsyncClient, clubs: Clubs
) -> None:
    sam = clubs.scorekeeper
    created = await client.post("/games", json=table_game(clubs, TABLE_GAME, 1), headers=sam.auth)
    assert created.status_code == 201, created.text
    entered = await first_roll(client, TABLE_GAME, sam.auth, "sam-1")
    assert entered.status_code == 200, entered.text
    assert roles_shown(entered.json()["state"]) == list(ROLES)
    assert [p["role"] for p in (await graphql_view(client, TABLE_GAME, sam.auth))["players"]] == list(ROLES)
    seat = entered.json()["state"]["awaiting"]["player"]

    await revoke_role(client, clubs, sam, "scorekeeper")
    await enters_nothing(client, TABLE_GAME, sam.auth, seat)
    await shows_no_hidden_role(client, TABLE_GAME, sam.auth)


async def test_a_scorekeepers_live_subscription_ends_when_his_role_is_revoked(
    base_url: str, client: httpx.AsyncClient, clubs: Clubs
) -> None:
    """Subscribed as the table's scorekeeper (every role shown), Sam hears nothing after the
    revocation: the next entry, by the scorekeeper granted after him, ends his subscription."""
    sam, kim = clubs.scorekeeper, clubs.other_scorekeeper
    created = await client.post("/games", json=table_game(clubs, TABLE_GAME, 1), headers=sam.auth)
    assert created.status_code == 201, created.text
    heard: list[dict[str, Any]] = []
    caught_up = asyncio.Event()
    start = created.json()["version"]

    async def subscribe() -> None:
        variables = {"id": TABLE_GAME, "fromVersion": 1}
        url = f"ws://{base_url}/graphql"
        async with GraphQLSubscription(url, operation("WatchGame"), variables, token=sam.token) as live:
            async for data in live:
                heard.append(data["gameEvents"])
                if data["gameEvents"]["version"] == start:
                    caught_up.set()

    watching = asyncio.create_task(subscribe())
    await asyncio.wait_for(caught_up.wait(), timeout=10)
    # the catch-up was shown as to the scorekeeper: every role dealt
    assert set(roles_in(heard)) == set(ROLES), heard
    await revoke_role(client, clubs, sam, "scorekeeper")
    await grant(client, clubs.admin, clubs.club_a, kim, "scorekeeper", game_id=TABLE_GAME)
    assert (await first_roll(client, TABLE_GAME, kim.auth, "kim-1")).status_code == 200
    with pytest.raises(SubscriptionError, match="no longer keep the score"):
        await asyncio.wait_for(watching, timeout=10)
    assert max(e["version"] for e in heard) == start


def roles_in(events: list[dict[str, Any]]) -> list[str]:
    """Every role named in the events' data (a seat's ``role``), hidden ones left out."""
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            role = value.get("role")
            if isinstance(role, str):
                found.append(role)
            for inner in value.values():
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    for event in events:
        data = event["data"]
        walk(json.loads(data) if isinstance(data, str) else data)
    return found


async def test_a_league_table_games_creator_keeps_no_score_without_the_grant_nor_does_its_token(
    client: httpx.AsyncClient, clubs: Clubs
) -> None:
    """The league's organiser creates the table game Kim keeps: creating it gives her nothing; Sam
    creates his own, and his API token without the scorekeeper's grant enters and sees nothing."""
    olga, sam = clubs.organiser, clubs.scorekeeper
    made = await client.post("/me/tokens", json={"label": "reader", "grants": []}, headers=sam.auth)
    assert made.status_code == 201, made.text
    reader = bearer(made.json()["token"])
    before = await stored(clubs.pool)
    # the scheduled scorekeeper's token without his grant does not create his table's game either
    refused = await client.post("/games", json=table_game(clubs, TABLE_GAME, 1), headers=reader)
    assert clubs.club_a in problem(refused, 403, "role-required")["detail"]
    assert await stored(clubs.pool) == before

    for game_id, table, creator in ((TABLE_GAME, 1, sam), (OTHER_TABLE_GAME, 2, olga)):
        created = await client.post(
            "/games", json=table_game(clubs, game_id, table, f"c{table}"), headers=creator.auth
        )
        assert created.status_code == 201, created.text
    seat = (await client.get(f"/games/{TABLE_GAME}")).json()["awaiting"]["player"]
    for game_id, who in ((TABLE_GAME, reader), (OTHER_TABLE_GAME, olga.auth)):
        await enters_nothing(client, game_id, who, seat)
        await shows_no_hidden_role(client, game_id, who)
    for game_id, keeper in ((TABLE_GAME, sam), (OTHER_TABLE_GAME, clubs.other_scorekeeper)):
        assert (await first_roll(client, game_id, keeper.auth, "keeper")).status_code == 200


async def test_a_revoked_scheduled_scorekeeper_cannot_create_the_table_game(
    client: httpx.AsyncClient, clubs: Clubs
) -> None:
    await revoke_role(client, clubs, clubs.scorekeeper, "scorekeeper")
    before = await stored(clubs.pool)
    refused = await client.post(
        "/games", json=table_game(clubs, TABLE_GAME, 1), headers=clubs.scorekeeper.auth
    )
    assert clubs.club_a in problem(refused, 403, "role-required")["detail"]
    assert await stored(clubs.pool) == before


async def test_a_friendly_table_game_is_kept_by_its_creators_session_not_by_an_api_token(
    client: httpx.AsyncClient, clubs: Clubs
) -> None:
    olga = clubs.organiser
    friendly = {k: v for k, v in table_game(clubs, "olgas-table", 1).items() if k != "context"}
    created = await client.post("/games", json=friendly, headers=olga.auth)
    assert created.status_code == 201, created.text
    made = await client.post(
        "/me/tokens",
        json={"label": "script", "grants": [{"club_id": clubs.club_a, "role": "organiser"}]},
        headers=olga.auth,
    )
    assert made.status_code == 201, made.text
    script = bearer(made.json()["token"])
    seat = (await client.get("/games/olgas-table")).json()["awaiting"]["player"]
    await enters_nothing(client, "olgas-table", script, seat)
    await shows_no_hidden_role(client, "olgas-table", script)
    entered = await first_roll(client, "olgas-table", olga.auth, "olga-1")
    assert entered.status_code == 200, entered.text
    assert roles_shown(entered.json()["state"]) == list(ROLES)


async def test_a_league_games_player_tokens_are_revoked_by_the_clubs_current_organisers(
    client: httpx.AsyncClient, clubs: Clubs
) -> None:
    created = await client.post("/games", json=online_game(clubs), headers=clubs.organiser.auth)
    assert created.status_code == 201, created.text
    await revoke_role(client, clubs, clubs.organiser, "organiser")
    revoke = {"game_id": ONLINE_GAME}
    body = problem(
        await client.post("/tokens/revoke", json=revoke, headers=clubs.organiser.auth), 403, "forbidden"
    )
    assert "organiser or admin of its club" in body["detail"]
    for intruder in (clubs.foreign, clubs.players[0]):
        problem(await client.post("/tokens/revoke", json=revoke, headers=intruder.auth), 403, "forbidden")
    done = await client.post("/tokens/revoke", json=revoke, headers=clubs.admin.auth)
    assert done.status_code == 200, done.text


# -- nobody seated at a table keeps its score (issue 20) -----------------------------------------


async def test_a_seated_player_is_refused_the_scorekeeper_role_for_his_own_table(
    client: httpx.AsyncClient, clubs: Clubs
) -> None:
    pat = clubs.players[1]
    roles = "SELECT account_id, role, game_id FROM club_roles ORDER BY 1, 2, 3"
    before = (await stored(clubs.pool), await clubs.pool.fetch(roles))
    body = {"account_id": pat.account_id, "role": "scorekeeper", "game_id": TABLE_GAME}
    refused = await client.post(f"/clubs/{clubs.club_a}/roles", json=body, headers=clubs.admin.auth)
    answer = problem(refused, 422, "scorekeeper-seated")
    assert answer["field"] == "account_id"
    assert "Pat Two (seat 2 at league 'saloon-league'" in answer["detail"], answer
    assert "sees every role" in answer["detail"]
    mutation = "mutation($input: GrantRoleInput!) { grantRole(input: $input) { granted } }"
    given = {"clubId": clubs.club_a, "accountId": pat.account_id, "role": "scorekeeper", "gameId": TABLE_GAME}
    answered = await client.post(
        "/graphql", json={"query": mutation, "variables": {"input": given}}, headers=clubs.admin.auth
    )
    assert answered.json()["errors"][0]["extensions"]["problem"]["status"] == 422, answered.text
    assert (await stored(clubs.pool), await clubs.pool.fetch(roles)) == before
    # somebody who plays no seat there may keep it
    await grant(client, clubs.admin, clubs.club_a, clubs.other_scorekeeper, "scorekeeper", game_id=TABLE_GAME)


async def test_a_table_game_whose_seated_player_holds_its_scorekeeper_role_is_not_created(
    client: httpx.AsyncClient, clubs: Clubs
) -> None:
    """Pat was made the scorekeeper of table 4's game before it was scheduled with him seated: the
    game is refused at its creation, by the organiser as by Pat, and nothing is stored."""
    pat, game_id = clubs.players[1], "saloon.r1.t4"
    await grant(client, clubs.admin, clubs.club_a, pat, "scorekeeper", game_id=game_id)
    await reserve(
        clubs.pool,
        Reservation(
            game_id=game_id, club_id=clubs.club_a, table=4, mode="table",
            members=tuple(p.account_id for p in clubs.players), sheriff=clubs.players[0].account_id,
            scorekeeper=None, scheduled_by=clubs.organiser.account_id, **LEAGUE,
        ),
    )  # fmt: skip
    before = await stored(clubs.pool)
    for who in (clubs.organiser, pat):
        refused = await client.post("/games", json=table_game(clubs, game_id, 4), headers=who.auth)
        answer = problem(refused, 422, "scorekeeper-seated")
        assert answer["field"] == "seats" and "Pat Two (seat p2)" in answer["detail"], answer
    assert await stored(clubs.pool) == before
    problem(await client.get(f"/games/{game_id}"), 404, "game-not-found")


async def test_a_friendly_table_game_is_not_created_by_one_of_its_players(
    client: httpx.AsyncClient, clubs: Clubs
) -> None:
    """Its creator keeps its score, so sees every role: Pia cannot create the game she sits at (a
    finished game's record she may import: every role is public once a game has ended)."""
    pia = clubs.players[0]
    friendly = {k: v for k, v in table_game(clubs, "pias-table", 1).items() if k != "context"}
    before = await stored(clubs.pool)
    body = problem(await client.post("/games", json=friendly, headers=pia.auth), 422, "scorekeeper-seated")
    assert body["field"] == "seats" and "Pia One (seat p1)" in body["detail"], body
    mutation = "mutation($input: CreateGameInput!) { createGame(input: $input) { gameId } }"
    given = {
        "commandId": "gql", "mode": "table", "playerCount": 4, "gameId": "pias-table",
        "seats": [
            {"memberId": s["member_id"], "name": s["name"], "role": s["role"], "character": s["character"]}
            for s in seats(clubs.players)
        ],
    }  # fmt: skip
    answer = await client.post(
        "/graphql", json={"query": mutation, "variables": {"input": given}}, headers=pia.auth
    )
    assert answer.json()["errors"][0]["extensions"]["problem"]["status"] == 422, answer.text
    assert await stored(clubs.pool) == before
    problem(await client.get("/games/pias-table"), 404, "game-not-found")
    members = [{"member_id": p.account_id, "name": p.display_name} for p in (*clubs.players, clubs.admin)]
    record = {"command_id": "imp", "record": a_finished_table_game(seed=6), "members": members}
    imported = await client.post("/records", json={**record, "game_id": "pias-record"}, headers=pia.auth)
    assert imported.status_code == 201, imported.text
