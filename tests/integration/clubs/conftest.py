"""Clubs over HTTP on this test's own PostgreSQL database and the shared Redis: the accounts'
app and client (small argon2 parameters), and people who log in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx
from litestar import Litestar

from tests.integration.accounts.conftest import (
    PASSWORD,
    account_settings,
    api_settings,
    app,
    bearer,
    client,
    invite,
)

__all__ = ["account_settings", "api_settings", "app", "client"]


@dataclass(frozen=True, slots=True)
class Person:
    account_id: str
    display_name: str
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return bearer(self.token)


async def person(app: Litestar, client: httpx.AsyncClient, login: str, display_name: str) -> Person:
    """An account made through a plain (club-less) invite, logged in."""
    token = await invite(app, display_name)
    response = await client.post(
        f"/accounts/invites/{token}/accept", json={"login": login, "password": PASSWORD}
    )
    assert response.status_code == 201, response.text
    body = response.json()
    return Person(body["account"]["account_id"], display_name, body["token"])


async def found(client: httpx.AsyncClient, founder: Person, name: str) -> str:
    response = await client.post("/clubs", json={"name": name}, headers=founder.auth)
    assert response.status_code == 201, response.text
    club_id: str = response.json()["club_id"]
    return club_id


async def grant(
    client: httpx.AsyncClient, admin: Person, club_id: str, who: Person, role: str, **extra: Any
) -> None:
    body = {"account_id": who.account_id, "role": role, **extra}
    response = await client.post(f"/clubs/{club_id}/roles", json=body, headers=admin.auth)
    assert response.status_code == 201, response.text


async def join_by_invite(
    client: httpx.AsyncClient, inviter: Person, club_id: str, login: str, display_name: str
) -> Person:
    """Invited to the club by ``inviter``, accepted with their own password: a player there."""
    issued = await client.post(
        f"/clubs/{club_id}/invites", json={"display_name": display_name}, headers=inviter.auth
    )
    assert issued.status_code == 201, issued.text
    accepted = await client.post(issued.json()["accept_path"], json={"login": login, "password": PASSWORD})
    assert accepted.status_code == 201, accepted.text
    body = accepted.json()
    joined = Person(body["account"]["account_id"], display_name, body["token"])
    # the player role is granted at the invitee's first request (or the club's next read)
    mine = await client.get("/me/clubs", headers=joined.auth)
    assert club_id in [club["club_id"] for club in mine.json()], mine.text
    return joined


def roles_of(club: dict[str, Any], who: Person) -> list[str]:
    return sorted(
        grant["role"] for member in club["members"] if member["account_id"] == who.account_id
        for grant in member["roles"]
    )  # fmt: skip
