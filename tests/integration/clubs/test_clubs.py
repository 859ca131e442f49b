"""Clubs and club-scoped roles over HTTP on a real PostgreSQL and Redis (issue 11, "Roles, each
scoped to a club"): founding, invites, grants and revocations; every refusal changes nothing."""

from __future__ import annotations

import asyncio

import asyncpg
import httpx
from litestar import Litestar

from services.api.app import Resources
from tests.integration.clubs.conftest import found, grant, join_by_invite, person, roles_of


def pool_of(app: Litestar) -> asyncpg.Pool:
    resources: Resources = app.state.resources
    return resources.pool


async def snapshot(app: Litestar) -> tuple[object, ...]:
    """Everything a club write could change: the read model and the event log."""
    pool = pool_of(app)
    return (
        await pool.fetch("SELECT * FROM clubs ORDER BY club_id"),
        await pool.fetch("SELECT club_id, account_id, role, game_id FROM club_roles ORDER BY 1, 2, 3, 4"),
        await pool.fetch("SELECT invite_id, club_id, settled_at FROM club_invites ORDER BY 1"),
        await pool.fetchval("SELECT count(*) FROM events"),
    )


async def test_a_founder_is_admin_and_an_invited_member_appears_with_their_name(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    rosa = await person(app, client, "rosa", "Rosa Quick")
    founded = await client.post("/clubs", json={"name": "  Dodge City Dicers "}, headers=rosa.auth)
    assert founded.status_code == 201, founded.text
    club = founded.json()
    assert club["name"] == "Dodge City Dicers" and club["founded_by"]["display_name"] == "Rosa Quick"
    assert roles_of(club, rosa) == ["admin"]

    sam = await join_by_invite(client, rosa, club["club_id"], "sam", "Sam Slow")
    seen = (await client.get(f"/clubs/{club['club_id']}", headers=rosa.auth)).json()
    assert {m["display_name"]: [g["role"] for g in m["roles"]] for m in seen["members"]} == {
        "Rosa Quick": ["admin"],
        "Sam Slow": ["player"],
    }
    mine = (await client.get("/me/clubs", headers=sam.auth)).json()
    player = [{"role": "player", "game_id": None}]
    assert mine == [{"club_id": club["club_id"], "name": "Dodge City Dicers", "roles": player}]

    events = await pool_of(app).fetch(
        "SELECT type, data::text AS data FROM events WHERE category = 'clubroles' ORDER BY position"
    )
    assert [e["type"] for e in events] == ["ClubFounded", "RoleGranted", "MemberInvited", "RoleGranted"]
    assert all("token" not in e["data"] for e in events)


async def test_an_invite_accepted_at_the_accounts_route_makes_a_player_the_club_sees(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    rosa = await person(app, client, "rosa", "Rosa Quick")
    club_id = await found(client, rosa, "Tombstone")
    issued = await client.post(
        f"/clubs/{club_id}/invites", json={"display_name": "Ada Lane", "login": "ada"}, headers=rosa.auth
    )
    assert issued.status_code == 201, issued.text
    assert issued.json()["accept_path"].startswith("/accounts/invites/")
    token = issued.json()["token"]
    accepted = await client.post(f"/accounts/invites/{token}/accept", json={"password": "a long password"})
    assert accepted.status_code == 201
    # the invitee has made no club request yet: the club's own read settles the invite
    seen = (await client.get(f"/clubs/{club_id}", headers=rosa.auth)).json()
    assert [m["display_name"] for m in seen["members"]] == ["Ada Lane", "Rosa Quick"]
    granted = await pool_of(app).fetchval(
        "SELECT count(*) FROM events WHERE type = 'RoleGranted' AND data->>'role' = 'player'"
    )
    assert granted == 1
    await client.get("/me/clubs", headers={"Authorization": f"Bearer {accepted.json()['token']}"})
    assert (
        await pool_of(app).fetchval(
            "SELECT count(*) FROM events WHERE type = 'RoleGranted' AND data->>'role' = 'player'"
        )
        == 1
    )  # settled once


async def test_an_admin_grants_organiser_and_the_organiser_invites(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    rosa = await person(app, client, "rosa", "Rosa Quick")
    club_id = await found(client, rosa, "Tombstone")
    olga = await join_by_invite(client, rosa, club_id, "olga", "Olga Organiser")
    await grant(client, rosa, club_id, olga, "organiser")
    organiser = {"account_id": olga.account_id, "role": "organiser"}
    again = await client.post(f"/clubs/{club_id}/roles", json=organiser, headers=rosa.auth)
    assert again.status_code == 200 and again.json()["granted"] is False  # held already: nothing new
    club = (await client.get(f"/clubs/{club_id}", headers=olga.auth)).json()
    assert roles_of(club, olga) == ["organiser", "player"]
    await join_by_invite(client, olga, club_id, "pete", "Pete Player")
    club = (await client.get(f"/clubs/{club_id}", headers=olga.auth)).json()
    assert "Pete Player" in [m["display_name"] for m in club["members"]]


async def test_a_scorekeeper_is_scoped_to_one_game(app: Litestar, client: httpx.AsyncClient) -> None:
    rosa = await person(app, client, "rosa", "Rosa Quick")
    club_id = await found(client, rosa, "Tombstone")
    kim = await person(app, client, "kim", "Kim Keeper")
    await grant(client, rosa, club_id, kim, "scorekeeper", game_id="table-7")
    mine = (await client.get("/me/clubs", headers=kim.auth)).json()
    assert mine[0]["roles"] == [{"role": "scorekeeper", "game_id": "table-7"}]
    wrong = await client.post(
        f"/clubs/{club_id}/roles",
        json={"account_id": kim.account_id, "role": "referee", "game_id": "table-7"},
        headers=rosa.auth,
    )
    assert wrong.status_code == 422 and wrong.json()["field"] == "game_id"


async def test_a_foreign_clubs_admin_and_organiser_are_refused_every_write_and_nothing_changes(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    rosa = await person(app, client, "rosa", "Rosa Quick")
    home = await found(client, rosa, "Home")
    sam = await join_by_invite(client, rosa, home, "sam", "Sam Slow")
    mallory = await person(app, client, "mallory", "Mallory")
    away = await found(client, mallory, "Away")
    olga = await join_by_invite(client, mallory, away, "olga", "Olga")
    await grant(client, mallory, away, olga, "organiser")
    before = await snapshot(app)
    for attacker in (mallory, olga):
        writes = [
            await client.post(f"/clubs/{home}/invites", json={"display_name": "Spy"}, headers=attacker.auth),
            await client.post(
                f"/clubs/{home}/roles", json={"account_id": attacker.account_id, "role": "admin"},
                headers=attacker.auth,
            ),
            await client.delete(f"/clubs/{home}/roles/{rosa.account_id}/admin", headers=attacker.auth),
            await client.delete(f"/clubs/{home}/roles/{sam.account_id}/player", headers=attacker.auth),
        ]  # fmt: skip
        for answer in writes:
            assert answer.status_code == 403, answer.text
            body = answer.json()
            assert body["type"].endswith("/role-required") and home in body["detail"]
            assert "Sam" not in answer.text and "Rosa" not in answer.text
        seen = await client.get(f"/clubs/{home}", headers=attacker.auth)
        assert seen.status_code == 403 and "Sam" not in seen.text
    assert await snapshot(app) == before


async def test_a_player_cannot_grant_roles(app: Litestar, client: httpx.AsyncClient) -> None:
    rosa = await person(app, client, "rosa", "Rosa Quick")
    club_id = await found(client, rosa, "Tombstone")
    sam = await join_by_invite(client, rosa, club_id, "sam", "Sam Slow")
    before = await snapshot(app)
    refused = await client.post(
        f"/clubs/{club_id}/roles", json={"account_id": sam.account_id, "role": "admin"}, headers=sam.auth
    )
    assert refused.status_code == 403
    assert "admin" in refused.json()["detail"] and club_id in refused.json()["detail"]
    assert await snapshot(app) == before


async def test_without_a_session_every_club_route_is_401(app: Litestar, client: httpx.AsyncClient) -> None:
    rosa = await person(app, client, "rosa", "Rosa Quick")
    club_id = await found(client, rosa, "Tombstone")
    before = await snapshot(app)
    for headers in ({}, {"Authorization": "Bearer not-a-session"}):
        answers = [
            await client.post("/clubs", json={"name": "X"}, headers=headers),
            await client.get("/clubs", headers=headers),
            await client.get(f"/clubs/{club_id}", headers=headers),
            await client.get("/me/clubs", headers=headers),
            await client.post(f"/clubs/{club_id}/invites", json={"display_name": "X"}, headers=headers),
            await client.post(
                f"/clubs/{club_id}/roles",
                json={"account_id": rosa.account_id, "role": "player"},
                headers=headers,
            ),
            await client.delete(f"/clubs/{club_id}/roles/{rosa.account_id}/admin", headers=headers),
        ]
        for answer in answers:
            assert answer.status_code == 401, answer.text
            assert answer.headers["www-authenticate"].startswith("Bearer")
    assert await snapshot(app) == before


async def test_the_last_admin_cannot_be_removed_but_one_of_two_can(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    rosa = await person(app, client, "rosa", "Rosa Quick")
    club_id = await found(client, rosa, "Tombstone")
    before = await snapshot(app)
    last = await client.delete(f"/clubs/{club_id}/roles/{rosa.account_id}/admin", headers=rosa.auth)
    assert last.status_code == 409 and last.json()["type"].endswith("/last-admin")
    assert await snapshot(app) == before

    ben = await person(app, client, "ben", "Ben Second")
    await grant(client, rosa, club_id, ben, "admin")
    gone = await client.delete(f"/clubs/{club_id}/roles/{rosa.account_id}/admin", headers=ben.auth)
    assert gone.status_code == 204, gone.text
    assert (await client.get("/me/clubs", headers=rosa.auth)).json() == []
    refused = await client.delete(f"/clubs/{club_id}/roles/{ben.account_id}/admin", headers=ben.auth)
    assert refused.status_code == 409
    not_held = await client.delete(f"/clubs/{club_id}/roles/{ben.account_id}/referee", headers=ben.auth)
    assert not_held.status_code == 404 and not_held.json()["type"].endswith("/role-not-held")


async def test_bad_input_is_refused_naming_the_field(app: Litestar, client: httpx.AsyncClient) -> None:
    rosa = await person(app, client, "rosa", "Rosa Quick")
    club_id = await found(client, rosa, "Tombstone")
    before = await snapshot(app)
    cases: list[tuple[httpx.Response, int, str]] = [
        (await client.post("/clubs", json={"name": "Evil\u202eClub"}, headers=rosa.auth), 400, "name"),
        (await client.post("/clubs", json={"name": "x" * 101}, headers=rosa.auth), 400, "name"),
        (await client.post("/clubs", json={"name": "   "}, headers=rosa.auth), 422, "name"),
        (await client.post("/clubs", json={"name": "A", "extra": 1}, headers=rosa.auth), 400, "data"),
        (
            await client.post(f"/clubs/{club_id}/invites", json={"display_name": "A\nB"}, headers=rosa.auth),
            400, "display_name",
        ),
        (
            await client.post(
                f"/clubs/{club_id}/roles", json={"account_id": rosa.account_id, "role": "sheriff"},
                headers=rosa.auth,
            ),
            400, "role",
        ),
        (
            await client.post(
                f"/clubs/{club_id}/roles", json={"account_id": "a b", "role": "player"}, headers=rosa.auth
            ),
            400, "account_id",
        ),
        (
            await client.post(
                f"/clubs/{club_id}/roles", json={"account_id": "nobody", "role": "player"}, headers=rosa.auth
            ),
            404, "account_id",
        ),
        (
            await client.delete(f"/clubs/{club_id}/roles/{rosa.account_id}/sheriff", headers=rosa.auth),
            400, "role",
        ),
        (await client.get(f"/clubs/{'x' * 101}", headers=rosa.auth), 400, "club_id"),
        (await client.get("/clubs/no-such-club", headers=rosa.auth), 404, "club_id"),
        (await client.get("/clubs?limit=0", headers=rosa.auth), 400, "limit"),
        (await client.get("/clubs?limit=101", headers=rosa.auth), 400, "limit"),
    ]  # fmt: skip
    for answer, status, field in cases:
        assert answer.status_code == status, answer.text
        assert answer.json()["field"] == field, answer.text
    assert await snapshot(app) == before


async def test_roles_in_two_clubs_are_kept_apart(app: Litestar, client: httpx.AsyncClient) -> None:
    rosa = await person(app, client, "rosa", "Rosa Quick")
    mallory = await person(app, client, "mallory", "Mallory")
    home = await found(client, rosa, "Home")
    away = await found(client, mallory, "Away")
    both = await join_by_invite(client, rosa, home, "bea", "Bea Both")
    await grant(client, rosa, home, both, "organiser")
    issued = await client.post(f"/clubs/{away}/invites", json={"display_name": "Bea"}, headers=mallory.auth)
    assert issued.status_code == 201
    # Bea is an organiser at home, only a player away (granted by Mallory directly)
    await grant(client, mallory, away, both, "player")
    clubs = (await client.get("/me/clubs", headers=both.auth)).json()
    mine = {c["name"]: [g["role"] for g in c["roles"]] for c in clubs}
    assert mine == {"Away": ["player"], "Home": ["organiser", "player"]}
    refused = await client.post(f"/clubs/{away}/invites", json={"display_name": "Spy"}, headers=both.auth)
    assert refused.status_code == 403 and away in refused.json()["detail"]
    away_club = (await client.get(f"/clubs/{away}", headers=both.auth)).json()
    assert [m["display_name"] for m in away_club["members"]] == ["Bea Both", "Mallory"]
    assert "Rosa" not in str(away_club)


async def test_clubs_are_listed_by_name_a_page_at_a_time(app: Litestar, client: httpx.AsyncClient) -> None:
    rosa = await person(app, client, "rosa", "Rosa Quick")
    for name in ("Charlie", "alpha", "Bravo"):
        await found(client, rosa, name)
    first = (await client.get("/clubs?limit=2", headers=rosa.auth)).json()
    assert [c["name"] for c in first["clubs"]] == ["alpha", "Bravo"] and first["next_offset"] == 2
    assert first["clubs"][0]["founded_by"]["display_name"] == "Rosa Quick"
    last = (await client.get("/clubs?limit=2&offset=2", headers=rosa.auth)).json()
    assert [c["name"] for c in last["clubs"]] == ["Charlie"] and last["next_offset"] is None


async def test_openapi_declares_bearer_auth_on_every_club_route(client: httpx.AsyncClient) -> None:
    paths = (await client.get("/schema/openapi.json")).json()["paths"]
    club_paths = {p: ops for p, ops in paths.items() if p.startswith(("/clubs", "/me/clubs", "/me/tokens"))}
    assert {
        "/clubs", "/clubs/{club_id}", "/clubs/{club_id}/invites", "/clubs/{club_id}/members",
        "/clubs/{club_id}/roles", "/clubs/{club_id}/roles/{account_id}/{role}", "/me/clubs",
        "/me/tokens", "/me/tokens/{token_id}",
    } <= set(club_paths)  # fmt: skip
    # a club's league list answers anybody (its public leagues) and more to its members: the
    # token is optional there (docs/permissions.md)
    optional = {("get", "/clubs/{club_id}/leagues")}
    for path, operations in club_paths.items():
        for method, operation in operations.items():
            wanted = [{}, {"BearerAuth": []}] if (method, path) in optional else [{"BearerAuth": []}]
            assert operation.get("security") == wanted, (method, path)


async def test_a_request_that_finds_the_invite_being_settled_waits_and_sees_the_club(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    """A browser's first requests after accepting an invite go out together (GET /me and GET
    /me/clubs). One settles the invite; another that finds its row locked must wait for it, not
    answer without the club (SKIP LOCKED did)."""
    rosa = await person(app, client, "rosa", "Rosa Quick")
    club_id = await found(client, rosa, "Tombstone")
    issued = await client.post(
        f"/clubs/{club_id}/invites", json={"display_name": "Ada Lane"}, headers=rosa.auth
    )
    accepted = await client.post(
        issued.json()["accept_path"], json={"login": "ada", "password": "a long password"}
    )
    assert accepted.status_code == 201, accepted.text
    ada = {"Authorization": f"Bearer {accepted.json()['token']}"}
    async with pool_of(app).acquire() as holder:
        settling = holder.transaction()
        await settling.start()  # as a concurrent request settling the invite holds its row
        await holder.execute(
            "SELECT 1 FROM club_invites WHERE invite_id = $1 FOR UPDATE", issued.json()["invite_id"]
        )
        answer = asyncio.create_task(client.get("/me/clubs", headers=ada))
        await asyncio.sleep(0.5)
        await settling.rollback()
    assert [c["club_id"] for c in (await answer).json()] == [club_id]
    assert (
        await pool_of(app).fetchval(
            "SELECT count(*) FROM events WHERE type = 'RoleGranted' AND data->>'role' = 'player'"
        )
        == 1
    )
