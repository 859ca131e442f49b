"""Members registered by name (issue 11, "register members with names"): an unclaimed account
that is a player at once and cannot log in, claimed through its invite by the person it names,
who keeps the member id; every refusal changes nothing."""

from __future__ import annotations

import asyncio

import asyncpg
import httpx
import pytest
from litestar import Litestar

from tests.integration.accounts.conftest import PASSWORD, bearer
from tests.integration.clubs.conftest import found, grant, join_by_invite, person, roles_of
from tests.integration.clubs.test_clubs import pool_of, snapshot


async def snapshot_accounts(app: Litestar) -> tuple[object, ...]:
    pool = pool_of(app)
    return (
        *await snapshot(app),
        await pool.fetch("SELECT account_id, login, display_name, password_hash FROM accounts ORDER BY 1"),
        await pool.fetch("SELECT invite_id, accepted_at, account_id, claims FROM account_invites ORDER BY 1"),
    )


async def test_a_member_registered_by_name_is_a_player_at_once_and_claims_the_same_id(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    rosa = await person(app, client, "rosa", "Rosa Quick")
    club_id = await found(client, rosa, "Dodge City Dicers")
    made = await client.post(
        f"/clubs/{club_id}/members", json={"display_name": "  Tuco Ramírez "}, headers=rosa.auth
    )
    assert made.status_code == 201, made.text
    body = made.json()
    member_id = body["member_id"]
    assert body["display_name"] == "Tuco Ramírez"
    invite = body["invite"]
    assert invite["accept_path"] == f"/accounts/invites/{invite['token']}/accept"
    club = (await client.get(f"/clubs/{club_id}", headers=rosa.auth)).json()
    assert {m["account_id"]: m["display_name"] for m in club["members"]}[member_id] == "Tuco Ramírez"
    held = [g["role"] for m in club["members"] if m["account_id"] == member_id for g in m["roles"]]
    assert held == ["player"]
    row = await pool_of(app).fetchrow(
        "SELECT login, login_key, password_hash FROM accounts WHERE account_id = $1", member_id
    )
    assert tuple(row) == (None, None, None)

    claimed = await client.post(
        invite["accept_path"], json={"login": "tuco", "password": PASSWORD, "display_name": "Tuco"}
    )
    assert claimed.status_code == 201, claimed.text
    assert claimed.json()["account"] == {"account_id": member_id, "login": "tuco", "display_name": "Tuco"}
    tuco_auth = bearer(claimed.json()["token"])
    mine = (await client.get("/me/clubs", headers=tuco_auth)).json()
    player = [{"role": "player", "game_id": None}]
    assert mine == [{"club_id": club_id, "name": "Dodge City Dicers", "roles": player}]
    login = await client.post("/sessions", json={"login": "TUCO", "password": PASSWORD})
    assert login.status_code == 201 and login.json()["account"]["account_id"] == member_id

    again = await client.post(invite["accept_path"], json={"login": "tuco2", "password": PASSWORD})
    assert again.status_code == 409 and again.json()["type"].endswith("/invite-used")

    pool = pool_of(app)
    clubs = await pool.fetch(
        "SELECT type, data::text AS data FROM events WHERE category = 'clubroles' ORDER BY position"
    )
    assert [e["type"] for e in clubs] == ["ClubFounded", "RoleGranted", "MemberRegistered", "RoleGranted"]
    stream = await pool.fetch(
        "SELECT type FROM events WHERE stream_name = $1 ORDER BY position", f"account-{member_id}"
    )
    assert [e["type"] for e in stream] == ["UnclaimedAccountRegistered", "AccountClaimed"]
    players = await pool.fetchval(
        "SELECT count(*) FROM events WHERE type = 'RoleGranted' AND data->>'account_id' = $1", member_id
    )
    assert players == 1  # the claim settles nothing twice
    every = await pool.fetch("SELECT data::text AS data FROM events")
    assert not any(invite["token"] in e["data"] or "argon2" in e["data"] for e in every)


async def test_a_retried_registration_answers_the_same_member_with_a_new_link(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    rosa = await person(app, client, "rosa", "Rosa Quick")
    club_id = await found(client, rosa, "Tombstone")
    body = {"display_name": "Ada Lane", "login": "ada", "command_id": "register-ada"}
    first = await client.post(f"/clubs/{club_id}/members", json=body, headers=rosa.auth)
    assert first.status_code == 201, first.text
    retried = await client.post(f"/clubs/{club_id}/members", json=body, headers=rosa.auth)
    assert retried.status_code == 200, retried.text
    assert retried.json()["member_id"] == first.json()["member_id"]
    old_token, new_token = first.json()["invite"]["token"], retried.json()["invite"]["token"]
    assert old_token != new_token
    assert retried.json()["invite"]["invite_id"] == first.json()["invite"]["invite_id"]
    stale = await client.post(f"/accounts/invites/{old_token}/accept", json={"password": PASSWORD})
    assert stale.status_code == 404  # the lost answer's link no longer works

    before = await snapshot_accounts(app)
    other = await client.post(
        f"/clubs/{club_id}/members", json={**body, "display_name": "Ada Other"}, headers=rosa.auth
    )
    assert other.status_code == 409 and other.json()["field"] == "command_id", other.text
    assert await snapshot_accounts(app) == before

    # the preset login name is the invite's: the person sends only a password
    claimed = await client.post(f"/accounts/invites/{new_token}/accept", json={"password": PASSWORD})
    assert claimed.status_code == 201, claimed.text
    assert claimed.json()["account"]["login"] == "ada"
    after_claim = await client.post(f"/clubs/{club_id}/members", json=body, headers=rosa.auth)
    assert after_claim.status_code == 200
    member = {"member_id": first.json()["member_id"], "display_name": "Ada Lane", "invite": None}
    assert after_claim.json() == member
    count = await pool_of(app).fetchval("SELECT count(*) FROM accounts WHERE display_name = 'Ada Lane'")
    assert count == 1


async def test_a_registration_retried_by_another_caller_is_refused_and_renews_nothing(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    """A command id is its caller's (services/runtime/idempotency.py): another organiser sending
    the same body under it is 409 ``command-id-reused``, and the first answer's link still works
    (a retry would have renewed it, handing its secret to the other caller)."""
    rosa = await person(app, client, "rosa", "Rosa Quick")
    club_id = await found(client, rosa, "Tombstone")
    olga = await person(app, client, "olga", "Olga Organiser")
    await grant(client, rosa, club_id, olga, "organiser")
    body = {"display_name": "Ada Lane", "command_id": "register-ada"}
    first = await client.post(f"/clubs/{club_id}/members", json=body, headers=rosa.auth)
    assert first.status_code == 201, first.text
    before = await snapshot_accounts(app)
    other = await client.post(f"/clubs/{club_id}/members", json=body, headers=olga.auth)
    assert other.status_code == 409, other.text
    assert other.json()["type"].endswith("/command-id-reused") and other.json()["field"] == "command_id"
    assert await snapshot_accounts(app) == before
    token = first.json()["invite"]["token"]
    claim = {"login": "ada", "password": PASSWORD}
    claimed = await client.post(f"/accounts/invites/{token}/accept", json=claim)
    assert claimed.status_code == 201, claimed.text
    assert claimed.json()["account"]["account_id"] == first.json()["member_id"]


async def test_only_an_admin_or_organiser_registers_and_bad_input_writes_nothing(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    rosa = await person(app, client, "rosa", "Rosa Quick")
    club_id = await found(client, rosa, "Home")
    olga = await person(app, client, "olga", "Olga Organiser")
    await grant(client, rosa, club_id, olga, "organiser")
    referee = await person(app, client, "rita", "Rita Referee")
    await grant(client, rosa, club_id, referee, "referee")
    pia = await join_by_invite(client, rosa, club_id, "pia", "Pia Player")
    mallory = await person(app, client, "mallory", "Mallory Away")
    await found(client, mallory, "Away")
    by_olga = await client.post(f"/clubs/{club_id}/members", json={"display_name": "Bob"}, headers=olga.auth)
    assert by_olga.status_code == 201, by_olga.text

    before = await snapshot_accounts(app)
    for caller in (referee, pia, mallory):
        refused = await client.post(
            f"/clubs/{club_id}/members", json={"display_name": "Eve"}, headers=caller.auth
        )
        assert refused.status_code == 403 and refused.json()["type"].endswith("/role-required"), refused.text
        assert club_id in refused.json()["detail"]
    cases = [
        ({"display_name": "Eve\x1b[31m"}, 400, "display_name"),
        ({"display_name": "   "}, 422, "display_name"),
        ({"display_name": "Eve", "login": "x"}, 422, "login"),
        ({"display_name": "Eve", "login": "rosa"}, 409, "login"),  # taken (case ignored: ROSA too)
        ({"display_name": "Eve", "login": "ROSA"}, 409, "login"),
        ({"display_name": "Eve", "command_id": "bad id"}, 400, "command_id"),
        ({"display_name": "Eve", "extra": 1}, 400, None),
    ]
    for body, status, field in cases:
        answer = await client.post(f"/clubs/{club_id}/members", json=body, headers=rosa.auth)
        assert answer.status_code == status, (body, answer.text)
        if field is not None:
            assert field in answer.text, (body, answer.text)
    missing = await client.post(
        "/clubs/no-such-club/members", json={"display_name": "Eve"}, headers=rosa.auth
    )
    assert missing.status_code == 404
    assert await snapshot_accounts(app) == before
    club = (await client.get(f"/clubs/{club_id}", headers=rosa.auth)).json()
    assert roles_of(club, pia) == ["player"]


async def test_nobody_logs_in_as_an_unclaimed_account(app: Litestar, client: httpx.AsyncClient) -> None:
    rosa = await person(app, client, "rosa", "Rosa Quick")
    club_id = await found(client, rosa, "Home")
    made = await client.post(
        f"/clubs/{club_id}/members", json={"display_name": "Wanda", "login": "wanda"}, headers=rosa.auth
    )
    assert made.status_code == 201
    # the preset login name is the invite's until it is accepted; no account answers to it
    for login in ("wanda", "Wanda", ""):
        refused = await client.post("/sessions", json={"login": login, "password": PASSWORD})
        assert refused.status_code == 401 and refused.json()["type"].endswith("/login-refused"), refused.text
    unknown = await client.post("/sessions", json={"login": "nobody-at-all", "password": PASSWORD})
    assert unknown.json()["detail"] == refused.json()["detail"]
    # the table refuses half a claim: a login name never exists without a password
    pool = pool_of(app)
    forced = await pool.fetchval(
        "SELECT count(*) FROM accounts WHERE login IS NULL AND password_hash IS NULL"
    )
    assert forced == 1
    with pytest.raises(asyncpg.CheckViolationError, match="accounts_claimed_whole"):
        await pool.execute(
            "UPDATE accounts SET login = 'wanda', login_key = 'wanda' WHERE account_id = $1",
            made.json()["member_id"],
        )


async def test_registering_many_at_once_makes_each_once(app: Litestar, client: httpx.AsyncClient) -> None:
    rosa = await person(app, client, "rosa", "Rosa Quick")
    club_id = await found(client, rosa, "Home")
    answers = await asyncio.gather(
        *(
            client.post(
                f"/clubs/{club_id}/members",
                json={"display_name": f"Player {n % 4}", "command_id": f"reg-{n % 4}"},
                headers=rosa.auth,
            )
            for n in range(12)
        )
    )
    assert sorted(a.status_code for a in answers) == [200] * 8 + [201] * 4
    ids = {a.json()["display_name"]: a.json()["member_id"] for a in answers}
    assert all(a.json()["member_id"] == ids[a.json()["display_name"]] for a in answers)
    club = (await client.get(f"/clubs/{club_id}", headers=rosa.auth)).json()
    assert sorted(m["display_name"] for m in club["members"]) == [
        "Player 0", "Player 1", "Player 2", "Player 3", "Rosa Quick",
    ]  # fmt: skip
