"""Script API tokens (issue 11, "an API token for scripts belongs to an account and carries a
subset of that account's rights") and club invites accepted by an existing account."""

from __future__ import annotations

import hashlib

import httpx
from litestar import Litestar

from tests.integration.accounts.conftest import PASSWORD, bearer
from tests.integration.clubs.conftest import Person, found, grant, join_by_invite, person, roles_of
from tests.integration.clubs.test_clubs import pool_of, snapshot


async def token_snapshot(app: Litestar) -> tuple[object, ...]:
    pool = pool_of(app)
    return (
        *await snapshot(app),
        await pool.fetch(
            "SELECT token_id, account_id, label, grants::text, revoked_at FROM api_tokens ORDER BY 1"
        ),
        await pool.fetch("SELECT invite_id, accepted_at, account_id FROM account_invites ORDER BY 1"),
    )


async def make_token(
    client: httpx.AsyncClient, owner: Person, grants: list[dict[str, object]]
) -> dict[str, str]:
    body = {"label": "league script", "grants": grants}
    made = await client.post("/me/tokens", json=body, headers=owner.auth)
    assert made.status_code == 201, made.text
    body: dict[str, str] = made.json()
    return body


async def test_a_token_carries_only_its_grants_and_loses_a_role_revoked_from_its_account(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    rosa = await person(app, client, "rosa", "Rosa Admin")
    club_id = await found(client, rosa, "Home")
    olga = await person(app, client, "olga", "Olga Organiser")
    await grant(client, rosa, club_id, olga, "organiser")
    made = await make_token(client, olga, [{"club_id": club_id, "role": "organiser"}])
    token = made["token"]
    assert token.startswith("blt_") and len(token) > 40
    assert made["grants"] == [{"club_id": club_id, "role": "organiser", "game_id": None}]
    stored = await pool_of(app).fetchrow(
        "SELECT token_hash FROM api_tokens WHERE token_id = $1", made["token_id"]
    )
    assert bytes(stored["token_hash"]) == hashlib.sha256(token.encode()).digest()
    every = await pool_of(app).fetch("SELECT data::text AS data FROM events")
    assert any('"ApiTokenCreated"' in e["data"] or made["token_id"] in e["data"] for e in every)
    assert not any(token in e["data"] for e in every)

    script = bearer(token)
    mine = (await client.get("/me/clubs", headers=script)).json()
    assert mine == [{"club_id": club_id, "name": "Home", "roles": [{"role": "organiser", "game_id": None}]}]
    newcomer = {"display_name": "Newcomer"}
    invited = await client.post(f"/clubs/{club_id}/invites", json=newcomer, headers=script)
    assert invited.status_code == 201, invited.text
    tuco = {"display_name": "Tuco"}
    registered = await client.post(f"/clubs/{club_id}/members", json=tuco, headers=script)
    assert registered.status_code == 201, registered.text

    # a token with only the player role in the same club cannot do the organiser's work
    narrow = await make_token(client, olga, [])
    refused = await client.post(
        f"/clubs/{club_id}/invites", json={"display_name": "Eve"}, headers=bearer(narrow["token"])
    )
    assert refused.status_code == 403 and refused.json()["type"].endswith("/role-required")
    assert (await client.get("/me/clubs", headers=bearer(narrow["token"]))).json() == []

    revoked = await client.delete(f"/clubs/{club_id}/roles/{olga.account_id}/organiser", headers=rosa.auth)
    assert revoked.status_code == 204
    gone = await client.post(f"/clubs/{club_id}/invites", json={"display_name": "Eve"}, headers=script)
    assert gone.status_code == 403, gone.text
    # granted again, the token's grant counts again: it is a ceiling, not a copy
    await grant(client, rosa, club_id, olga, "organiser")
    back = await client.post(f"/clubs/{club_id}/invites", json={"display_name": "Eve"}, headers=script)
    assert back.status_code == 201, back.text


async def test_a_grant_the_account_does_not_hold_is_refused_naming_it(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    rosa = await person(app, client, "rosa", "Rosa Admin")
    home = await found(client, rosa, "Home")
    kim = await person(app, client, "kim", "Kim Keeper")
    await grant(client, rosa, home, kim, "scorekeeper", game_id="table-1")
    mallory = await person(app, client, "mallory", "Mallory Away")
    away = await found(client, mallory, "Away")

    before = await token_snapshot(app)
    cases = [
        (kim, [{"club_id": home, "role": "organiser"}], 403, "organiser"),
        (kim, [{"club_id": home, "role": "scorekeeper", "game_id": "table-2"}], 403, "table-2"),
        (kim, [{"club_id": home, "role": "scorekeeper"}], 403, "scorekeeper"),  # unscoped: more than held
        (mallory, [{"club_id": home, "role": "admin"}], 403, home),
        (mallory, [{"club_id": away, "role": "admin"}, {"club_id": home, "role": "player"}], 403, home),
        (mallory, [{"club_id": away, "role": "admin", "game_id": "g1"}], 422, "grants"),
        (mallory, [{"club_id": away, "role": "emperor"}], 400, "role"),
        (mallory, [{"club_id": "bad id", "role": "admin"}], 400, "club_id"),
    ]
    for who, grants, status, named in cases:
        answer = await client.post("/me/tokens", json={"label": "x", "grants": grants}, headers=who.auth)
        assert answer.status_code == status, (grants, answer.text)
        assert named in answer.text, (grants, answer.text)
        if status == 403:
            assert answer.json()["type"].endswith("/grant-not-held")
    for body, field in (
        ({"label": "   ", "grants": []}, "label"),
        ({"label": "x\x00", "grants": []}, "label"),
        ({"label": "x", "expires_in_days": 0}, "expires_in_days"),
        ({"label": "x", "expires_in_days": 4000}, "expires_in_days"),
    ):
        answer = await client.post("/me/tokens", json=body, headers=mallory.auth)
        assert answer.status_code in (400, 422) and field in answer.text, (body, answer.text)
    assert await token_snapshot(app) == before

    kept = await make_token(client, kim, [{"club_id": home, "role": "scorekeeper", "game_id": "table-1"}])
    mine = (await client.get("/me/clubs", headers=bearer(kept["token"]))).json()
    assert mine[0]["roles"] == [{"role": "scorekeeper", "game_id": "table-1"}]


async def test_a_token_cannot_make_tokens_change_the_password_or_log_out(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    rosa = await person(app, client, "rosa", "Rosa Admin")
    club_id = await found(client, rosa, "Home")
    token = bearer((await make_token(client, rosa, [{"club_id": club_id, "role": "admin"}]))["token"])
    before = await token_snapshot(app)
    attempts = [
        ("POST", "/me/tokens", {"label": "more", "grants": []}),
        ("GET", "/me/tokens", None),
        ("DELETE", "/me/tokens/whatever", None),
        ("PUT", "/me/password", {"old_password": PASSWORD, "new_password": "another long password"}),
        ("DELETE", "/sessions/current", None),
        ("DELETE", "/sessions", None),
    ]
    for method, path, body in attempts:
        answer = await client.request(method, path, json=body, headers=token)
        assert answer.status_code == 403, (method, path, answer.text)
        assert answer.json()["type"].endswith("/session-required")
    assert await token_snapshot(app) == before
    still = await client.get("/me/clubs", headers=rosa.auth)
    assert still.status_code == 200  # the session was not ended
    # but a script may ask whose it is
    me = await client.get("/me", headers=token)
    assert me.status_code == 200 and me.json()["account_id"] == rosa.account_id


async def test_tokens_are_listed_without_secrets_revoked_and_expire(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    rosa = await person(app, client, "rosa", "Rosa Admin")
    sam = await person(app, client, "sam", "Sam Other")
    first = await make_token(client, rosa, [])
    second = await make_token(client, rosa, [])
    listed = await client.get("/me/tokens", headers=rosa.auth)
    assert [t["token_id"] for t in listed.json()] == [first["token_id"], second["token_id"]]
    assert first["token"] not in listed.text and "token_hash" not in listed.text
    assert (await client.get("/me/tokens", headers=sam.auth)).json() == []

    # another account's token id is not told apart from none
    foreign = await client.delete(f"/me/tokens/{first['token_id']}", headers=sam.auth)
    assert foreign.status_code == 404 and foreign.json()["type"].endswith("/token-not-found")
    assert (await client.get("/me/clubs", headers=bearer(first["token"]))).status_code == 200

    assert (await client.delete(f"/me/tokens/{first['token_id']}", headers=rosa.auth)).status_code == 204
    assert (await client.delete(f"/me/tokens/{first['token_id']}", headers=rosa.auth)).status_code == 204
    refused = await client.get("/me/clubs", headers=bearer(first["token"]))
    assert refused.status_code == 401 and "revoked" in refused.json()["detail"]
    assert [t["token_id"] for t in (await client.get("/me/tokens", headers=rosa.auth)).json()] == [
        second["token_id"]
    ]
    revocations = await pool_of(app).fetchval("SELECT count(*) FROM events WHERE type = 'ApiTokenRevoked'")
    assert revocations == 1

    await pool_of(app).execute(
        "UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE token_id = $1",
        second["token_id"],
    )
    expired = await client.get("/me/clubs", headers=bearer(second["token"]))
    assert expired.status_code == 401 and "expired" in expired.json()["detail"]
    made_up = await client.get("/me/clubs", headers=bearer("blt_made-up"))
    assert made_up.status_code == 401 and "not valid" in made_up.json()["detail"]
    assert (await client.get("/me/tokens", headers=rosa.auth)).json() == []


async def test_an_existing_account_accepts_a_club_invite_signed_in(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    rosa = await person(app, client, "rosa", "Rosa Admin")
    club_id = await found(client, rosa, "Home")
    una = await person(app, client, "una", "Una Elsewhere")
    await found(client, una, "Una's own club")
    issued = await client.post(f"/clubs/{club_id}/invites", json={"display_name": "Una"}, headers=rosa.auth)
    path = issued.json()["accept_path"]

    script = bearer((await make_token(client, una, []))["token"])
    before = await token_snapshot(app)
    with_password = await client.post(path, json={"password": PASSWORD}, headers=una.auth)
    assert with_password.status_code == 422 and with_password.json()["field"] == "password"
    by_token = await client.post(path, headers=script)
    assert by_token.status_code == 403 and by_token.json()["type"].endswith("/session-required")
    bad_session = await client.post(path, headers=bearer("not-a-session"))
    assert bad_session.status_code == 401
    assert await token_snapshot(app) == before
    pool = pool_of(app)

    accounts_before = await pool.fetchval("SELECT count(*) FROM accounts")
    accepted = await client.post(path, headers=una.auth)
    assert accepted.status_code == 200, accepted.text
    account = {"account_id": una.account_id, "login": "una", "display_name": "Una Elsewhere"}
    assert accepted.json() == {"account": account}
    assert await pool.fetchval("SELECT count(*) FROM accounts") == accounts_before
    club = (await client.get(f"/clubs/{club_id}", headers=rosa.auth)).json()
    assert roles_of(club, una) == ["player"]
    mine = (await client.get("/me/clubs", headers=una.auth)).json()
    assert sorted(c["name"] for c in mine) == ["Home", "Una's own club"]
    again = await client.post(path, headers=una.auth)
    assert again.status_code == 409 and again.json()["type"].endswith("/invite-used")


async def test_an_invite_that_claims_a_registered_member_is_not_taken_by_another_account(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    rosa = await person(app, client, "rosa", "Rosa Admin")
    club_id = await found(client, rosa, "Home")
    pia = await join_by_invite(client, rosa, club_id, "pia", "Pia Player")
    made = await client.post(f"/clubs/{club_id}/members", json={"display_name": "Tuco"}, headers=rosa.auth)
    path = made.json()["invite"]["accept_path"]
    before = await token_snapshot(app)
    for caller in (pia, rosa):
        taken = await client.post(path, headers=caller.auth)
        assert taken.status_code == 409, taken.text
        assert taken.json()["type"].endswith("/invite-claims-account")
    assert await token_snapshot(app) == before
    claimed = await client.post(path, json={"login": "tuco", "password": PASSWORD})
    assert claimed.status_code == 201
    assert claimed.json()["account"]["account_id"] == made.json()["member_id"]
