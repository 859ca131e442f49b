"""Knowing who calls, cheaply and exactly: an account's caller is cached per process (by its
token's hash), resolved once per request, and forgotten at once when the account changes;
account tokens never cost the game vault a query; an account's sessions and API tokens share
one rate budget."""

from __future__ import annotations

import asyncio
import dataclasses
import secrets

import asyncpg
import httpx
import pytest
from litestar import Litestar

from services.accounts.errors import SessionRefused
from services.accounts.service import AccountService
from services.accounts.sessions import SESSION_PREFIX, token_hash
from services.api import ApiSettings, create_app
from services.api.settings import LimitSettings
from services.clubs.service import ClubService
from services.game.edge.tokens import TokenVault, is_account_token
from tests.integration.accounts.conftest import PASSWORD
from tests.integration.api.bots import bearer
from tests.integration.api.conftest import CHEAP_ARGON2, resources_of, uvicorn_serving
from tests.integration.api.people import Person, found, grant, person

REDIS_DELIVERY_SECONDS = 3.0
"""A logout made in one process is refused by another well before the cache's 5 s TTL (the
message goes through Redis in milliseconds; 3 s is the slack of a loaded machine)."""


async def me_clubs(client: httpx.AsyncClient, who: Person | str) -> httpx.Response:
    token = who if isinstance(who, str) else who.token
    return await client.get("/me/clubs", headers=bearer(token))


async def log_in(client: httpx.AsyncClient, login: str) -> str:
    response = await client.post("/sessions", json={"login": login, "password": PASSWORD})
    assert response.status_code == 201, response.text
    token: str = response.json()["token"]
    return token


async def test_a_logged_out_session_is_refused_at_its_next_request(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    ann = await person(app, client, "ann", "Ann")
    game_id = "no-such-game"
    assert (await me_clubs(client, ann)).status_code == 200  # cached now
    assert (await client.get(f"/games/{game_id}", headers=ann.auth)).status_code == 404
    logout = await client.delete("/sessions/current", headers=ann.auth)
    assert logout.status_code == 204, logout.text
    refused = await me_clubs(client, ann)
    assert refused.status_code == 401, refused.text
    assert "logged out" in refused.json()["detail"]
    assert (await client.get(f"/games/{game_id}", headers=ann.auth)).status_code == 401


async def test_log_out_everywhere_ends_every_cached_session_at_once(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    ann = await person(app, client, "ann", "Ann")
    other = await log_in(client, "ann")
    assert (await me_clubs(client, other)).status_code == 200
    assert (await client.delete("/sessions", headers=ann.auth)).status_code == 204
    assert (await me_clubs(client, other)).status_code == 401


async def test_a_revoked_role_is_refused_at_the_next_request_for_sessions_and_api_tokens(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    admin = await person(app, client, "admin", "Ada Admin")
    olga = await person(app, client, "olga", "Olga Organiser")
    club_id = await found(client, admin, "Cached Club")
    await grant(client, admin, club_id, olga, "player")
    await grant(client, admin, club_id, olga, "organiser")
    made = await client.post(
        "/me/tokens",
        json={"label": "script", "grants": [{"club_id": club_id, "role": "organiser"}]},
        headers=olga.auth,
    )
    assert made.status_code == 201, made.text
    script = made.json()["token"]

    async def invite(token: str, name: str) -> httpx.Response:
        return await client.post(
            f"/clubs/{club_id}/invites", json={"display_name": name}, headers=bearer(token)
        )

    assert (await invite(olga.token, "First")).status_code == 201
    assert (await invite(script, "Second")).status_code == 201
    revoked = await client.delete(f"/clubs/{club_id}/roles/{olga.account_id}/organiser", headers=admin.auth)
    assert revoked.status_code == 204, revoked.text
    for token in (olga.token, script):
        refused = await invite(token, "Third")
        assert refused.status_code == 403, refused.text
        assert refused.json()["type"].endswith("/role-required")
        mine = (await me_clubs(client, token)).json()
        roles = [g["role"] for c in mine for g in c["roles"]]
        assert "organiser" not in roles, mine
    # and a role granted shows at the next request too
    await grant(client, admin, club_id, olga, "referee")
    roles = [g["role"] for c in (await me_clubs(client, olga)).json() for g in c["roles"]]
    assert "referee" in roles


async def test_a_revoked_api_token_is_refused_at_its_next_request(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    ann = await person(app, client, "ann", "Ann")
    made = await client.post("/me/tokens", json={"label": "script"}, headers=ann.auth)
    assert made.status_code == 201, made.text
    script, token_id = made.json()["token"], made.json()["token_id"]
    assert (await me_clubs(client, script)).status_code == 200
    assert (await client.delete(f"/me/tokens/{token_id}", headers=ann.auth)).status_code == 204
    assert (await me_clubs(client, script)).status_code == 401


async def test_a_logout_in_one_process_reaches_another_through_redis(
    app: Litestar, client: httpx.AsyncClient, api_settings: ApiSettings
) -> None:
    ann = await person(app, client, "ann", "Ann")
    other = create_app(api_settings, CHEAP_ARGON2)
    async with uvicorn_serving(other) as address, httpx.AsyncClient(base_url=f"http://{address}") as there:
        assert (await me_clubs(there, ann)).status_code == 200  # cached over there
        assert (await client.delete("/sessions/current", headers=ann.auth)).status_code == 204
        async with asyncio.timeout(REDIS_DELIVERY_SECONDS):
            while (await me_clubs(there, ann)).status_code != 401:
                await asyncio.sleep(0.05)


async def test_without_redis_another_process_trusts_a_logged_out_session_no_longer_than_the_ttl(
    app: Litestar, client: httpx.AsyncClient, database_dsn: str
) -> None:
    ann = await person(app, client, "ann", "Ann")
    pool = await asyncpg.create_pool(database_dsn, min_size=1, max_size=2)
    try:
        elsewhere = AccountService(pool, CHEAP_ARGON2)  # no Redis: it hears of nothing
        elsewhere.callers.ttl = 1.0
        clubs = ClubService(pool, elsewhere)
        assert (await clubs.principal(f"Bearer {ann.token}")).account_id == ann.account_id
        assert (await client.delete("/sessions/current", headers=ann.auth)).status_code == 204
        # still trusted from its cache (the TTL is what bounds it) ...
        assert (await clubs.principal(f"Bearer {ann.token}")).account_id == ann.account_id
        await asyncio.sleep(1.1)
        # ... and refused once the TTL has passed
        with pytest.raises(SessionRefused, match="logged out"):
            await clubs.principal(f"Bearer {ann.token}")
    finally:
        await pool.close()


async def test_sessions_are_recognisable_and_old_unprefixed_ones_still_work(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    ann = await person(app, client, "ann", "Ann")
    assert ann.token.startswith(SESSION_PREFIX) and is_account_token(ann.token)
    old = secrets.token_urlsafe(32)  # a session opened before sessions had a prefix
    assert not is_account_token(old)
    await resources_of(app).pool.execute(
        """
        INSERT INTO account_sessions (token_hash, account_id, expires_at)
        VALUES ($1, $2, now() + interval '1 hour')
        """,
        token_hash(old),
        ann.account_id,
    )
    for _ in range(2):  # the second time the vault remembers it does not know it
        answer = await me_clubs(client, old)
        assert answer.status_code == 200, answer.text
        assert (await client.get("/games/no-such-game", headers=bearer(old))).status_code == 404


async def test_the_vault_answers_account_tokens_and_known_misses_without_the_database(
    app: Litestar, client: httpx.AsyncClient, database_dsn: str
) -> None:
    pool = await asyncpg.create_pool(database_dsn, min_size=1, max_size=1)
    vault = TokenVault(pool)
    player = await vault.issue_player("some-game", "m1")
    missed = secrets.token_urlsafe(32)
    assert await vault.resolve(missed) is None
    assert await vault.resolve(player) is not None
    await pool.close()  # from here on, any query fails
    assert await vault.resolve("blt_" + secrets.token_urlsafe(32)) is None
    assert await vault.resolve(SESSION_PREFIX + secrets.token_urlsafe(32)) is None
    assert await vault.resolve(missed) is None
    with pytest.raises(asyncpg.InterfaceError):
        await vault.resolve(secrets.token_urlsafe(32))  # a token never seen is asked for


WINDOW_SECONDS = 20
PER_TOKEN = 8


@pytest.fixture
def limited_settings(api_settings: ApiSettings) -> ApiSettings:
    limits = LimitSettings(
        rate_limit=f"{PER_TOKEN} per {WINDOW_SECONDS} seconds",
        anonymous_rate_limit=f"{PER_TOKEN * 10} per {WINDOW_SECONDS} seconds",
    )
    return dataclasses.replace(api_settings, limits=limits)


async def test_an_accounts_sessions_and_api_tokens_share_one_rate_budget(
    app: Litestar, client: httpx.AsyncClient, limited_settings: ApiSettings
) -> None:
    ann = await person(app, client, "ann", "Ann")
    bob = await person(app, client, "bob", "Bob")
    limited = create_app(limited_settings, CHEAP_ARGON2)
    async with uvicorn_serving(limited) as address, httpx.AsyncClient(base_url=f"http://{address}") as there:
        second = await log_in(there, "ann")
        made = await there.post("/me/tokens", json={"label": "script"}, headers=bearer(second))
        assert made.status_code == 201, made.text
        script = made.json()["token"]
        spent = 1  # the login was the address's; the token's creation is the account's
        while spent < PER_TOKEN:
            response = await me_clubs(there, ann if spent % 2 else script)
            assert response.status_code == 200, response.text
            spent += 1
        for token in (second, ann.token, script):
            refused = await me_clubs(there, token)
            assert refused.status_code == 429, refused.text
            assert "this account may make 8 requests per 20 seconds" in refused.json()["detail"]
        assert (await me_clubs(there, bob)).status_code == 200  # another account's budget is its own
