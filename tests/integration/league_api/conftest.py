"""League management over HTTP, as each kind of user: a club with an admin, an organiser, a
referee, a scorekeeper and eight players who signed up through the club's invites, and a
second club whose admin and organiser try the first club's league."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import asyncpg
import httpx
from litestar import Litestar

from tests.integration.clubs.conftest import (
    Person,
    account_settings,
    api_settings,
    app,
    client,
    found,
    grant,
    join_by_invite,
    person,
)
from tests.integration.clubs.test_clubs import pool_of

__all__ = ["account_settings", "api_settings", "app", "client"]

LEAGUE = "tuesday"
SEASON = "spring"
TOURNAMENT = "nights"
PLAYERS = 8


@dataclass(frozen=True, slots=True)
class Clubs:
    home: str
    away: str
    admin: Person
    organiser: Person
    referee: Person
    keeper: Person
    """A member who is not enrolled: the table game's scorekeeper."""
    players: tuple[Person, ...]
    foreign_admin: Person
    foreign_organiser: Person

    def by_id(self, member_id: str) -> Person:
        return next(p for p in self.players if p.account_id == member_id)


async def clubs(app: Litestar, client: httpx.AsyncClient) -> Clubs:
    admin = await person(app, client, "rosa", "Rosa Admin")
    home = await found(client, admin, "Home Saloon")
    organiser = await person(app, client, "olga", "Olga Organiser")
    await grant(client, admin, home, organiser, "organiser")
    referee = await person(app, client, "remy", "Remy Referee")
    await grant(client, admin, home, referee, "referee")
    keeper = await join_by_invite(client, organiser, home, "kim", "Kim Keeper")
    players = tuple(
        [await join_by_invite(client, organiser, home, f"player{i}", f"Player {i}") for i in range(PLAYERS)]
    )
    foreign_admin = await person(app, client, "mallory", "Mallory Away")
    away = await found(client, foreign_admin, "Away Saloon")
    foreign_organiser = await person(app, client, "otto", "Otto Away")
    await grant(client, foreign_admin, away, foreign_organiser, "organiser")
    return Clubs(home, away, admin, organiser, referee, keeper, players, foreign_admin, foreign_organiser)


async def post(
    client: httpx.AsyncClient,
    path: str,
    who: Person | None,
    body: dict[str, Any] | None = None,
    status: int = 201,
) -> dict[str, Any]:
    response = await client.post(path, json=body, headers={} if who is None else who.auth)
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    return answer


async def seated_league(client: httpx.AsyncClient, c: Clubs) -> dict[str, Any]:
    """Founded, a season open with every player enrolled, a tournament, round 1 seated: the
    round's answer."""
    founding = {"league_id": LEAGUE, "name": "Tuesday League"}
    await post(client, f"/clubs/{c.home}/leagues", c.organiser, founding)
    await post(client, f"/leagues/{LEAGUE}/seasons", c.organiser, {"season_id": SEASON, "name": "Spring"})
    members = [p.account_id for p in c.players]
    await post(client, f"/leagues/{LEAGUE}/seasons/{SEASON}/entrants", c.organiser, {"member_ids": members})
    await post(
        client,
        f"/leagues/{LEAGUE}/seasons/{SEASON}/tournaments",
        c.organiser,
        {"tournament_id": TOURNAMENT, "name": "Tuesday Nights"},
    )
    rounds = f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds"
    return await post(client, rounds, c.organiser, {"seed": "s1"})


async def league_version(app: Litestar, league_id: str = LEAGUE) -> int:
    pool: asyncpg.Pool = pool_of(app)
    version = await pool.fetchval("SELECT version FROM streams WHERE name = $1", f"league-{league_id}")
    return int(version or 0)


async def writes(app: Litestar) -> tuple[object, ...]:
    """What a refused write must leave as it was: every stream's version, the reservations,
    the club roles."""
    pool: asyncpg.Pool = pool_of(app)
    streams = await pool.fetch("SELECT name, version FROM streams ORDER BY name")
    reservations = await pool.fetch("SELECT game_id FROM league_game_reservations ORDER BY game_id")
    roles = await pool.fetch("SELECT club_id, account_id, role, game_id FROM club_roles ORDER BY 1, 2, 3, 4")
    return tuple(map(tuple, streams)), tuple(map(tuple, reservations)), tuple(map(tuple, roles))
