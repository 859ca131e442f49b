"""Clubs, roles, members and API tokens as GraphQL mutations: REST's checks on the other
channel, as the caller's session or API token, refusals with REST's problem details and
nothing stored."""

from __future__ import annotations

from typing import Any

import httpx
from litestar import Litestar

from tests.integration.accounts.conftest import PASSWORD, bearer
from tests.integration.clubs.conftest import Person, found, grant, person, roles_of
from tests.integration.clubs.test_api_tokens import token_snapshot


async def mutate(
    client: httpx.AsyncClient, query: str, given: dict[str, Any], headers: dict[str, str]
) -> dict[str, Any]:
    asked = {"query": query, "variables": {"input": given}}
    answer = await client.post("/graphql", json=asked, headers=headers)
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def problem(body: dict[str, Any]) -> dict[str, Any]:
    assert body.get("data") is None, body
    (error,) = body["errors"]
    found: dict[str, Any] = error["extensions"]["problem"]
    return found


FOUND = """mutation($input: FoundClubInput!) {
  foundClub(input: $input) { clubId name foundedBy { displayName } members { displayName roles { role } } }
}"""
INVITE = """mutation($input: InviteMemberInput!) {
  inviteMember(input: $input) { inviteId token acceptPath expiresAt }
}"""
REGISTER = """mutation($input: RegisterMemberInput!) {
  registerMember(input: $input) { memberId displayName new invite { token acceptPath } }
}"""
GRANT = """mutation($input: GrantRoleInput!) {
  grantRole(input: $input) { clubId accountId role gameId granted }
}"""
REVOKE = "mutation($input: RevokeRoleInput!) { revokeRole(input: $input) { clubId accountId role } }"
TOKEN = """mutation($input: CreateApiTokenInput!) {
  createApiToken(input: $input) { tokenId token label grants { clubId role gameId } expiresAt }
}"""
UNTOKEN = "mutation($input: RevokeApiTokenInput!) { revokeApiToken(input: $input) { tokenId } }"


async def test_an_admin_runs_the_club_through_graphql(app: Litestar, client: httpx.AsyncClient) -> None:
    rosa = await person(app, client, "rosa", "Rosa Admin")
    founded = await mutate(client, FOUND, {"name": " Dodge City "}, rosa.auth)
    club = founded["data"]["foundClub"]
    assert club["name"] == "Dodge City" and club["foundedBy"]["displayName"] == "Rosa Admin"
    assert club["members"] == [{"displayName": "Rosa Admin", "roles": [{"role": "admin"}]}]
    club_id = club["clubId"]

    invited = (await mutate(client, INVITE, {"clubId": club_id, "displayName": "Ivy"}, rosa.auth))["data"]
    assert invited["inviteMember"]["acceptPath"].endswith("/accept")

    given = {"clubId": club_id, "displayName": "Tuco", "commandId": "reg-tuco"}
    registered = (await mutate(client, REGISTER, given, rosa.auth))["data"]["registerMember"]
    assert registered["displayName"] == "Tuco" and registered["new"] is True
    retried = (await mutate(client, REGISTER, given, rosa.auth))["data"]["registerMember"]
    assert retried["memberId"] == registered["memberId"] and retried["new"] is False
    claimed = await client.post(retried["invite"]["acceptPath"], json={"login": "tuco", "password": PASSWORD})
    assert claimed.status_code == 201 and claimed.json()["account"]["account_id"] == registered["memberId"]

    olga = await person(app, client, "olga", "Olga")
    granted = await mutate(
        client, GRANT, {"clubId": club_id, "accountId": olga.account_id, "role": "organiser"}, rosa.auth
    )
    assert granted["data"]["grantRole"]["granted"] is True
    revoked = await mutate(
        client, REVOKE, {"clubId": club_id, "accountId": olga.account_id, "role": "organiser"}, rosa.auth
    )
    ended = {"clubId": club_id, "accountId": olga.account_id, "role": "organiser"}
    assert revoked["data"]["revokeRole"] == ended
    seen = (await client.get(f"/clubs/{club_id}", headers=rosa.auth)).json()
    assert roles_of(seen, Person(olga.account_id, "Olga", olga.token)) == []

    made = (await mutate(
        client, TOKEN, {"label": "cron", "grants": [{"clubId": club_id, "role": "admin"}]}, rosa.auth
    ))["data"]["createApiToken"]  # fmt: skip
    assert made["token"].startswith("blt_")
    assert made["grants"] == [{"clubId": club_id, "role": "admin", "gameId": None}]
    script = bearer(made["token"])
    by_script = await mutate(client, INVITE, {"clubId": club_id, "displayName": "Via Script"}, script)
    assert by_script["data"]["inviteMember"]["token"]
    # a script token cannot make or revoke tokens
    for query, body in ((TOKEN, {"label": "more"}), (UNTOKEN, {"tokenId": made["tokenId"]})):
        refused = problem(await mutate(client, query, body, script))
        assert refused["status"] == 403 and refused["type"].endswith("/session-required")
    gone = await mutate(client, UNTOKEN, {"tokenId": made["tokenId"]}, rosa.auth)
    assert gone["data"]["revokeApiToken"] == {"tokenId": made["tokenId"]}
    after = problem(await mutate(client, INVITE, {"clubId": club_id, "displayName": "Late"}, script))
    assert after["status"] == 401


async def test_graphql_refusals_are_rests_and_change_nothing(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    rosa = await person(app, client, "rosa", "Rosa Admin")
    club_id = await found(client, rosa, "Home")
    pia = await person(app, client, "pia", "Pia Player")
    await grant(client, rosa, club_id, pia, "player")
    mallory = await person(app, client, "mallory", "Mallory Away")
    await found(client, mallory, "Away")

    before = await token_snapshot(app)
    cases: list[tuple[str, dict[str, Any], dict[str, str], int, str]] = [
        (REGISTER, {"clubId": club_id, "displayName": "Eve"}, mallory.auth, 403, "role-required"),
        (REGISTER, {"clubId": club_id, "displayName": "Eve"}, pia.auth, 403, "role-required"),
        (REGISTER, {"clubId": club_id, "displayName": "Eve"}, {}, 401, "unauthenticated"),
        (REGISTER, {"clubId": club_id, "displayName": "Eve\u202e"}, rosa.auth, 400, "invalid-request"),
        (REGISTER, {"clubId": "bad id", "displayName": "Eve"}, rosa.auth, 400, "invalid-request"),
        (REGISTER, {"clubId": club_id, "displayName": "Eve", "login": "rosa"}, rosa.auth, 409, "login-taken"),
        (INVITE, {"clubId": club_id, "displayName": "Eve"}, pia.auth, 403, "role-required"),
        (GRANT, {"clubId": club_id, "accountId": pia.account_id, "role": "admin"}, mallory.auth, 403,
         "role-required"),
        (GRANT, {"clubId": club_id, "accountId": pia.account_id, "role": "emperor"}, rosa.auth, 400,
         "invalid-request"),
        (REVOKE, {"clubId": club_id, "accountId": rosa.account_id, "role": "admin"}, rosa.auth, 409,
         "last-admin"),
        (TOKEN, {"label": "x", "grants": [{"clubId": club_id, "role": "organiser"}]}, pia.auth, 403,
         "grant-not-held"),
        (TOKEN, {"label": "x"}, {}, 401, "unauthenticated"),
        (UNTOKEN, {"tokenId": "nope"}, rosa.auth, 404, "token-not-found"),
        (FOUND, {"name": "   "}, rosa.auth, 422, "invalid-club-input"),
    ]  # fmt: skip
    for query, given, headers, status, slug in cases:
        seen = problem(await mutate(client, query, given, headers))
        assert (seen["status"], seen["type"].rsplit("/", 1)[1]) == (status, slug), (given, seen)
    bad = problem(await mutate(client, REGISTER, {"clubId": club_id, "displayName": "x" * 101}, rosa.auth))
    assert "input.displayName" in bad["detail"]
    assert await token_snapshot(app) == before
