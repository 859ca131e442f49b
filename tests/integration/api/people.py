"""Signed-in people for the game API's tests: accounts made through an invite accepted over
HTTP, each with a session token (the app's argon2 parameters are small here: conftest.py)."""

from __future__ import annotations

import httpx
from litestar import Litestar

from tests.integration.clubs.conftest import Person, found, grant, person

__all__ = ["Person", "found", "grant", "people", "person"]


async def people(app: Litestar, client: httpx.AsyncClient, *names: str) -> list[Person]:
    """One signed-in account per display name; the login is the name, lower-cased."""
    return [await person(app, client, name.lower().replace(" ", "-"), name) for name in names]
