"""Accounts over HTTP on a real PostgreSQL and Redis (issue 11, "Who is who"): invites,
login, sessions, passwords; refusals name the field and rule and store nothing."""

from __future__ import annotations

import dataclasses
import logging

import asyncpg
import httpx
import pytest
from litestar import Litestar

from services.accounts.settings import AccountSettings
from services.api.app import Resources
from tests.integration.accounts.conftest import PASSWORD, accounts_of, bearer, invite, register


def accept_path(token: str) -> str:
    return f"/accounts/invites/{token}/accept"


def pool_of(app: Litestar) -> asyncpg.Pool:
    resources: Resources = app.state.resources
    return resources.pool


async def count(app: Litestar, table: str) -> int:
    value: int = await pool_of(app).fetchval(f"SELECT count(*) FROM {table}")
    return value


async def test_an_invitee_registers_logs_in_and_sees_their_account(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    token = await invite(app, "Alice Example")
    accepted = await client.post(accept_path(token), json={"login": "Alice", "password": PASSWORD})
    assert accepted.status_code == 201, accepted.text
    body = accepted.json()
    assert body["account"]["login"] == "Alice" and body["account"]["display_name"] == "Alice Example"
    me = await client.get("/me", headers=bearer(body["token"]))
    assert me.status_code == 200 and me.json() == body["account"]

    login = await client.post("/sessions", json={"login": "alice", "password": PASSWORD})  # case ignored
    assert login.status_code == 201, login.text
    assert login.json()["token"] != body["token"]
    assert (await client.get("/me", headers=bearer(login.json()["token"]))).json()["account_id"] == (
        body["account"]["account_id"]
    )
    stored = await pool_of(app).fetchval("SELECT password_hash FROM accounts")
    assert stored.startswith("$argon2id$")
    events = await pool_of(app).fetch("SELECT type, data::text AS data FROM events ORDER BY position")
    assert [e["type"] for e in events] == ["InviteIssued", "AccountRegistered", "InviteAccepted"]
    assert all("argon2" not in e["data"] and PASSWORD not in e["data"] for e in events)


async def test_a_wrong_password_and_an_unknown_login_are_refused_in_the_same_words(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    await register(app, client)
    wrong = await client.post("/sessions", json={"login": "alice", "password": "not the password"})
    unknown = await client.post("/sessions", json={"login": "nobody", "password": "not the password"})
    assert wrong.status_code == unknown.status_code == 401
    assert {k: v for k, v in wrong.json().items() if k != "instance"} == {
        k: v for k, v in unknown.json().items() if k != "instance"
    }
    assert "wrong" in wrong.json()["detail"]
    # a name no account can have (a NUL, a control character) is refused the same way, never
    # looked up (PostgreSQL refuses a NUL in text: it must not become a 500)
    for impossible in ("ali\x00ce", "ali\x1bce"):
        odd = await client.post("/sessions", json={"login": impossible, "password": "not the password"})
        assert odd.status_code == 401, odd.text
        assert {k: v for k, v in odd.json().items() if k != "instance"} == {
            k: v for k, v in unknown.json().items() if k != "instance"
        }
    assert await count(app, "account_sessions") == 1  # the registration's only


async def test_an_invite_is_used_once_and_not_after_it_expires(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    token = await invite(app)
    first = await client.post(accept_path(token), json={"login": "alice", "password": PASSWORD})
    assert first.status_code == 201
    again = await client.post(accept_path(token), json={"login": "bob", "password": PASSWORD})
    assert again.status_code == 409 and again.json()["type"].endswith("/invite-used")

    late = await invite(app, "Carol")
    await pool_of(app).execute("UPDATE account_invites SET expires_at = now() - interval '1 second'")
    expired = await client.post(accept_path(late), json={"login": "carol", "password": PASSWORD})
    assert expired.status_code == 410 and "expired" in expired.json()["detail"]
    unknown = await client.post(accept_path("no-such-token"), json={"login": "dora", "password": PASSWORD})
    assert unknown.status_code == 404
    assert await count(app, "accounts") == 1


async def test_a_preset_login_name_is_the_invitees_and_cannot_be_swapped(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    token = await invite(app, "Bob Builder", login="bob")
    other = await client.post(accept_path(token), json={"login": "mallory", "password": PASSWORD})
    assert other.status_code == 422 and other.json()["field"] == "login"
    accepted = await client.post(accept_path(token), json={"password": PASSWORD})
    assert accepted.status_code == 201
    account = accepted.json()["account"]
    assert (account["login"], account["display_name"]) == ("bob", "Bob Builder")


async def test_a_login_name_is_taken_whatever_its_case(app: Litestar, client: httpx.AsyncClient) -> None:
    await register(app, client, login="alice")
    token = await invite(app, "Other Alice")
    taken = await client.post(accept_path(token), json={"login": "ALICE", "password": PASSWORD})
    assert taken.status_code == 409 and taken.json()["field"] == "login"
    assert await count(app, "accounts") == 1
    assert await pool_of(app).fetchval("SELECT accepted_at FROM account_invites WHERE login IS NULL AND "
                                       "display_name = 'Other Alice'") is None  # fmt: skip
    assert await count(app, "account_sessions") == 1


@pytest.mark.parametrize(
    ("body", "field", "rule"),
    [
        ({"login": "alice", "password": "short"}, "password", "at least 10"),
        ({"login": "alice", "password": "x" * 201}, "password", "at most 200"),
        ({"login": "alice", "password": "ten chars\x00 and a NUL"}, "password", "control characters"),
        ({"login": "al\x1bice", "password": PASSWORD}, "login", "control characters"),
        ({"login": "a" * 41, "password": PASSWORD}, "login", "3 to 40"),
        ({"login": "al ice", "password": PASSWORD}, "login", "letters, digits"),
        ({"login": "alice", "display_name": "Al\u202eice", "password": PASSWORD}, "display_name", "control"),
        ({"login": "alice", "display_name": "x" * 101, "password": PASSWORD}, "display_name", "1 to 100"),
    ],
)
async def test_bad_names_and_passwords_are_refused_naming_field_and_rule_and_nothing_is_stored(
    app: Litestar, client: httpx.AsyncClient, body: dict[str, str], field: str, rule: str
) -> None:
    token = await invite(app)
    refused = await client.post(accept_path(token), json=body)
    assert refused.status_code == 422, refused.text
    problem = refused.json()
    assert problem["field"] == field and rule in problem["detail"] and rule in problem["rule"]
    assert await count(app, "accounts") == 0 and await count(app, "account_sessions") == 0
    assert await pool_of(app).fetchval("SELECT count(*) FROM events WHERE category = 'account'") == 0
    # the invite is still good
    ok = await client.post(accept_path(token), json={"login": "alice", "password": PASSWORD})
    assert ok.status_code == 201


async def test_a_body_far_beyond_any_rule_is_refused_as_not_fitting_the_schema(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    token = await invite(app)
    refused = await client.post(accept_path(token), json={"login": "a", "password": "x" * 1001})
    assert refused.status_code == 400 and refused.json()["field"] == "password"


async def test_logout_ends_this_session_and_logout_everywhere_ends_all(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    first = str((await register(app, client))["token"])
    second = (await client.post("/sessions", json={"login": "alice", "password": PASSWORD})).json()["token"]
    third = (await client.post("/sessions", json={"login": "alice", "password": PASSWORD})).json()["token"]
    assert (await client.delete("/sessions/current", headers=bearer(first))).status_code == 204
    refused = await client.get("/me", headers=bearer(first))
    assert refused.status_code == 401 and "ended" in refused.json()["detail"]
    assert refused.headers["www-authenticate"].startswith("Bearer")
    assert (await client.get("/me", headers=bearer(second))).status_code == 200

    assert (await client.delete("/sessions", headers=bearer(second))).status_code == 204
    for token in (second, third):
        assert (await client.get("/me", headers=bearer(token))).status_code == 401


async def test_an_expired_or_unknown_or_missing_token_is_refused_saying_why(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    token = str((await register(app, client))["token"])
    await pool_of(app).execute("UPDATE account_sessions SET expires_at = now() - interval '1 second'")
    expired = await client.get("/me", headers=bearer(token))
    assert expired.status_code == 401 and "expired" in expired.json()["detail"]
    unknown = await client.get("/me", headers=bearer("made-up"))
    assert unknown.status_code == 401 and "not valid" in unknown.json()["detail"]
    missing = await client.get("/me")
    # the app's guard answers a missing header before the route (services/api/docs.py)
    assert missing.status_code == 401 and "Authorization: Bearer" in missing.json()["detail"]


async def test_a_session_lasts_as_configured(app: Litestar, client: httpx.AsyncClient) -> None:
    await register(app, client)
    days = await pool_of(app).fetchval(
        "SELECT extract(epoch FROM expires_at - created_at) / 86400 FROM account_sessions"
    )
    assert round(days) == accounts_of(app).settings.session_lifetime.days == 30


async def test_changing_the_password_needs_the_old_one_and_ends_other_sessions(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    current = str((await register(app, client))["token"])
    other = (await client.post("/sessions", json={"login": "alice", "password": PASSWORD})).json()["token"]
    new = "a brand new passphrase"
    wrong = await client.put(
        "/me/password", json={"old_password": "not it at all", "new_password": new}, headers=bearer(current)
    )
    assert wrong.status_code == 403 and wrong.json()["field"] == "old_password"
    short = await client.put(
        "/me/password", json={"old_password": PASSWORD, "new_password": "short"}, headers=bearer(current)
    )
    assert short.status_code == 422 and short.json()["field"] == "new_password"
    changed = await client.put(
        "/me/password", json={"old_password": PASSWORD, "new_password": new}, headers=bearer(current)
    )
    assert changed.status_code == 204, changed.text
    assert (await client.get("/me", headers=bearer(current))).status_code == 200
    assert (await client.get("/me", headers=bearer(other))).status_code == 401
    old = await client.post("/sessions", json={"login": "alice", "password": PASSWORD})
    assert old.status_code == 401
    assert (await client.post("/sessions", json={"login": "alice", "password": new})).status_code == 201
    types = await pool_of(app).fetch("SELECT type FROM events WHERE category = 'account' ORDER BY position")
    assert [t["type"] for t in types] == ["AccountRegistered", "PasswordChanged"]


async def test_a_login_rehashes_a_password_hashed_with_older_parameters(
    app: Litestar, client: httpx.AsyncClient, account_settings: AccountSettings
) -> None:
    await register(app, client)
    before = await pool_of(app).fetchval("SELECT password_hash FROM accounts")
    assert "m=8192,t=1,p=1" in before
    service = accounts_of(app)
    raised = dataclasses.replace(account_settings, argon2_time_cost=2)
    service.passwords = type(service.passwords)(raised)
    assert (await client.post("/sessions", json={"login": "alice", "password": PASSWORD})).status_code == 201
    after = await pool_of(app).fetchval("SELECT password_hash FROM accounts")
    assert after.startswith("$argon2id$") and "m=8192,t=2,p=1" in after
    assert (await client.post("/sessions", json={"login": "alice", "password": PASSWORD})).status_code == 201
    assert await pool_of(app).fetchval("SELECT password_hash FROM accounts") == after  # once


async def test_no_response_or_server_log_line_shows_the_hash_the_password_or_a_token(
    app: Litestar,
    client: httpx.AsyncClient,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the test client's own lines are not the server's; the last set_level sets the handler's
    caplog.set_level(logging.WARNING, logger="httpx")
    caplog.set_level(logging.INFO, logger="uvicorn.access")  # the access log, as served in production
    monkeypatch.setattr(logging.getLogger("uvicorn.access"), "propagate", True)
    caplog.set_level(logging.DEBUG)
    answers: list[str] = []
    token = await invite(app)
    refused = await client.post(accept_path(token), json={"login": "alice", "password": "short"})
    accepted = await client.post(accept_path(token), json={"login": "alice", "password": PASSWORD})
    session = accepted.json()["token"]
    answers += [refused.text, accepted.text]
    answers.append((await client.post("/sessions", json={"login": "alice", "password": PASSWORD})).text)
    wrong = await client.post("/sessions", json={"login": "alice", "password": "wrong password"})
    answers.append(wrong.text)
    answers.append((await client.get("/me", headers=bearer(session))).text)
    answers.append((await client.get("/schema/openapi.json")).text)
    stored = await pool_of(app).fetchval("SELECT password_hash FROM accounts")
    salt_and_hash = stored.rsplit("$", 2)[-2:]
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "/accounts/invites/[redacted]/accept" in logged  # the access log was captured
    for text in [*answers, logged]:
        assert "argon2" not in text and PASSWORD not in text and "wrong password" not in text
        assert all(part not in text for part in salt_and_hash)
    assert token not in logged and session not in logged


class TestThrottling:
    @pytest.fixture
    def account_settings(self, account_settings: AccountSettings) -> AccountSettings:
        return dataclasses.replace(
            account_settings,
            failed_logins_per_name="3 per 30 seconds",
            failed_logins_per_address="6 per 30 seconds",
        )

    async def test_repeated_failures_for_one_name_are_refused_with_429_even_with_the_right_password(
        self, app: Litestar, client: httpx.AsyncClient
    ) -> None:
        await register(app, client)
        for _ in range(3):
            guess = await client.post("/sessions", json={"login": "alice", "password": "guess guess"})
            assert guess.status_code == 401
        refused = await client.post("/sessions", json={"login": "ALICE", "password": PASSWORD})
        assert refused.status_code == 429, refused.text
        assert 1 <= int(refused.headers["Retry-After"]) <= 30
        assert "this login name" in refused.json()["detail"]
        assert await count(app, "account_sessions") == 1

    async def test_repeated_failures_from_one_address_over_many_names_are_refused(
        self, app: Litestar, client: httpx.AsyncClient
    ) -> None:
        for n in range(6):
            answer = await client.post("/sessions", json={"login": f"user{n}", "password": "guess guess"})
            assert answer.status_code == 401
        refused = await client.post("/sessions", json={"login": "someone", "password": "guess guess"})
        assert refused.status_code == 429 and "this address" in refused.json()["detail"]
