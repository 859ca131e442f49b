"""An API token does not outlive the logout or the password change meant to shut out whoever
held a session (issue 20, finding 5): both revoke the account's API tokens, in every API
process (another one that had the token's caller cached refuses it within Redis's delivery),
and so do the game's player tokens the account got by joining a game."""

from __future__ import annotations

import asyncio

import httpx
from litestar import Litestar

from services.accounts.settings import AccountSettings
from services.api import ApiSettings, create_app
from tests.integration.accounts.conftest import PASSWORD, bearer, register
from tests.integration.accounts.test_accounts import pool_of
from tests.integration.api.conftest import uvicorn_serving

REDIS_DELIVERY_SECONDS = 3.0
"""Well before the callers' cache TTL (5 s): the change goes through Redis in milliseconds."""


async def make_token(client: httpx.AsyncClient, session: str, label: str = "script") -> tuple[str, str]:
    made = await client.post("/me/tokens", json={"label": label}, headers=bearer(session))
    assert made.status_code == 201, made.text
    return made.json()["token"], made.json()["token_id"]


async def log_in(client: httpx.AsyncClient, login: str = "alice", password: str = PASSWORD) -> str:
    opened = await client.post("/sessions", json={"login": login, "password": password})
    assert opened.status_code == 201, opened.text
    token: str = opened.json()["token"]
    return token


async def refused_as_revoked(client: httpx.AsyncClient, token: str) -> None:
    for path in ("/me", "/me/clubs"):
        answer = await client.get(path, headers=bearer(token))
        assert answer.status_code == 401, (path, answer.text)
        assert answer.json()["detail"] == "the API token was revoked"


async def revoked_events(app: Litestar) -> list[str]:
    rows = await pool_of(app).fetch(
        "SELECT data->>'token_id' AS token_id FROM events WHERE type = 'ApiTokenRevoked' ORDER BY position"
    )
    return [row["token_id"] for row in rows]


async def test_logging_out_everywhere_revokes_the_api_tokens_in_every_process(
    app: Litestar, client: httpx.AsyncClient, api_settings: ApiSettings, account_settings: AccountSettings
) -> None:
    session = str((await register(app, client))["token"])
    stolen = await log_in(client)  # somebody else's copy of a session
    script, script_id = await make_token(client, stolen, "made with a stolen session")
    mine, mine_id = await make_token(client, session, "my own script")
    bob = str((await register(app, client, login="bob"))["token"])
    bobs, _ = await make_token(client, bob)
    other = create_app(api_settings, account_settings)
    async with uvicorn_serving(other) as address, httpx.AsyncClient(base_url=f"http://{address}") as there:
        for token in (script, mine):
            assert (await there.get("/me/clubs", headers=bearer(token))).status_code == 200  # cached there
        assert (await client.delete("/sessions", headers=bearer(session))).status_code == 204

        await refused_as_revoked(client, script)
        await refused_as_revoked(client, mine)
        async with asyncio.timeout(REDIS_DELIVERY_SECONDS):
            while (await there.get("/me/clubs", headers=bearer(script))).status_code != 401:
                await asyncio.sleep(0.05)
        await refused_as_revoked(there, script)
        await refused_as_revoked(there, mine)
    assert (await client.get("/me", headers=bearer(stolen))).status_code == 401
    assert (await client.get("/me/clubs", headers=bearer(bobs))).status_code == 200  # another account's
    assert sorted(await revoked_events(app)) == sorted([script_id, mine_id])
    listed = await client.get("/me/tokens", headers=bearer(await log_in(client)))
    assert listed.status_code == 200 and listed.json() == []
    # a token made after logging in again is good, and a second logout everywhere revokes it alone
    fresh, fresh_id = await make_token(client, await log_in(client))
    assert (await client.get("/me", headers=bearer(fresh))).status_code == 200
    assert (await client.delete("/sessions", headers=bearer(await log_in(client)))).status_code == 204
    await refused_as_revoked(client, fresh)
    assert (await revoked_events(app))[-1:] == [fresh_id]
    assert len(await revoked_events(app)) == 3


async def test_changing_the_password_revokes_the_api_tokens_made_before(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    session = str((await register(app, client))["token"])
    stolen = await log_in(client)
    script, script_id = await make_token(client, stolen)
    new = "a brand new passphrase"
    changed = await client.put(
        "/me/password", json={"old_password": PASSWORD, "new_password": new}, headers=bearer(session)
    )
    assert changed.status_code == 204, changed.text
    await refused_as_revoked(client, script)
    assert (await client.get("/me", headers=bearer(session))).status_code == 200  # the changer's own
    assert await revoked_events(app) == [script_id]
    types = await pool_of(app).fetch("SELECT type FROM events WHERE category = 'account' ORDER BY position")
    assert [t["type"] for t in types][-2:] == ["PasswordChanged", "ApiTokenRevoked"]
    after, _ = await make_token(client, session)
    assert (await client.get("/me", headers=bearer(after))).status_code == 200


async def test_a_refused_password_change_revokes_nothing(app: Litestar, client: httpx.AsyncClient) -> None:
    session = str((await register(app, client))["token"])
    script, _ = await make_token(client, session)
    wrong = await client.put(
        "/me/password",
        json={"old_password": "not it at all", "new_password": "a brand new passphrase"},
        headers=bearer(session),
    )
    assert wrong.status_code == 403, wrong.text
    assert (await client.get("/me", headers=bearer(script))).status_code == 200
    assert await revoked_events(app) == []


async def joined_player_token(app: Litestar, client: httpx.AsyncClient, session: str) -> tuple[str, str]:
    """A friendly online lobby (another account's), joined with ``session``: the game and the
    player token the join answered."""
    host = str((await register(app, client, login="hostess"))["token"])
    lobby = {"command_id": "lobby", "mode": "online", "player_count": 3, "members": []}
    created = await client.post("/games", json=lobby, headers=bearer(host))
    assert created.status_code == 201, created.text
    game_id: str = created.json()["game_id"]
    joined = await client.post(f"/games/{game_id}/players", json={"command_id": "j"}, headers=bearer(session))
    assert joined.status_code == 201, joined.text
    token: str = joined.json()["token"]
    assert (await client.get(f"/games/{game_id}", headers=bearer(token))).status_code == 200
    return game_id, token


async def test_the_game_tokens_a_session_got_by_joining_end_with_logging_out_everywhere(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    session = str((await register(app, client))["token"])
    game_id, token = await joined_player_token(app, client, await log_in(client))
    assert (await client.delete("/sessions", headers=bearer(session))).status_code == 204
    refused = await client.get(f"/games/{game_id}", headers=bearer(token))
    assert refused.status_code == 401, refused.text
    seated = await client.get(f"/games/{game_id}", headers=bearer(await log_in(client)))
    assert seated.status_code == 200  # still seated: a new session plays the seat


async def test_the_game_tokens_a_session_got_by_joining_end_with_a_new_password(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    session = str((await register(app, client))["token"])
    game_id, token = await joined_player_token(app, client, await log_in(client))
    new = {"old_password": PASSWORD, "new_password": "a brand new passphrase"}
    assert (await client.put("/me/password", json=new, headers=bearer(session))).status_code == 204
    refused = await client.get(f"/games/{game_id}", headers=bearer(token))
    assert refused.status_code == 401, refused.text
    assert (await client.get(f"/games/{game_id}", headers=bearer(session))).status_code == 200
