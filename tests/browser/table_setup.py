"""Table games for the scorekeeping tests, made through the public API as a person would.

An account creates a friendly table game with ``POST /games`` (seats clockwise, each with the
role and character dealt at the table): the creator keeps its score. Nothing here plays it; the
tests enter every die and decision through the page.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from tests.browser.conftest import Person


@dataclass(frozen=True, slots=True)
class Seat:
    role: str
    character: str


@dataclass(frozen=True, slots=True)
class TableGame:
    game_id: str
    keeper: Person
    players: tuple[Person, ...]


SHOWDOWN: tuple[Seat, ...] = (
    Seat("sheriff", "jourdonnais"),  # 7 + 2 = 9 life
    Seat("outlaw", "willy_the_kid"),
    Seat("outlaw", "paul_regret"),
    Seat("renegade", "lucky_duke"),
)
"""A four-seat table whose outlaws can shoot the Sheriff down in three turns (no ability asks
anything on the way)."""


async def make_table_game(
    base_url: str,
    people: Callable[[str, str], Awaitable[Person]],
    prefix: str,
    seats: Sequence[Seat] = SHOWDOWN,
) -> TableGame:
    """A keeper account and one account per seat (logins ``<prefix>.keeper``, ``<prefix>.p1`` …);
    the keeper creates the table game with those seats."""
    keeper = await people(f"{prefix}.keeper", f"Keeper {prefix.title()}")
    players = tuple(
        [await people(f"{prefix}.p{n}", f"{prefix.title()} Seat{n}") for n in range(1, len(seats) + 1)]
    )
    body: dict[str, Any] = {
        "command_id": f"{prefix}-create",
        "mode": "table",
        "player_count": len(seats),
        "seats": [
            {"member_id": p.account_id, "name": p.display_name, "role": s.role, "character": s.character}
            for p, s in zip(players, seats, strict=True)
        ],
    }
    async with httpx.AsyncClient(base_url=base_url) as client:
        created = await client.post("/games", json=body, headers=keeper.auth)
    assert created.status_code == 201, created.text
    return TableGame(created.json()["game_id"], keeper, players)


async def game_state(base_url: str, game_id: str, who: Person | None = None) -> dict[str, Any]:
    """``GET /games/{id}`` as ``who`` (the keeper sees every role), or anonymously."""
    async with httpx.AsyncClient(base_url=base_url) as client:
        answer = await client.get(f"/games/{game_id}", headers=who.auth if who else None)
    assert answer.status_code == 200, answer.text
    state: dict[str, Any] = answer.json()
    return state


async def _post(client: httpx.AsyncClient, path: str, who: Person, body: dict[str, Any]) -> dict[str, Any]:
    response = await client.post(path, json=body, headers=who.auth)
    assert response.status_code < 300, f"POST {path}: {response.status_code} {response.text}"
    answer: dict[str, Any] = response.json()
    return answer


async def schedule_table_game(
    base_url: str,
    people: Callable[[str, str], Awaitable[Person]],
    prefix: str,
    seats: Sequence[Seat] = SHOWDOWN,
    modules: Sequence[str] = (),
) -> TableGame:
    """A league's table game: an organiser founds a club, invites a scorekeeper and the players
    (each accepts with their own session), seats round 1 as one table of the players and
    schedules it at a physical table kept by the scorekeeper (granted ``scorekeeper`` for that
    game alone). The scorekeeper then creates the game as the table starts: the scheduled id and
    league context, the seats in the seating's order, the Sheriff as the rotation named (the
    other roles and the characters as ``seats`` deal them, in order)."""
    organiser = await people(f"{prefix}.organiser", f"Organiser {prefix.title()}")
    keeper = await people(f"{prefix}.keeper", f"Keeper {prefix.title()}")
    players = tuple(
        [await people(f"{prefix}.p{n}", f"{prefix.title()} Seat{n}") for n in range(1, len(seats) + 1)]
    )
    league, season, tournament = f"{prefix}_league", f"{prefix}_season", f"{prefix}_cup"
    ruleset = {"modules": list(modules)}
    async with httpx.AsyncClient(base_url=base_url) as client:
        club = (await _post(client, "/clubs", organiser, {"name": f"{prefix.title()} Saloon"}))["club_id"]
        for person in (keeper, *players):
            named = {"display_name": person.display_name}
            invite = await _post(client, f"/clubs/{club}/invites", organiser, named)
            await _post(client, invite["accept_path"], person, {})
        await _post(client, f"/clubs/{club}/leagues", organiser, {"league_id": league, "name": "League"})
        await _post(client, f"/leagues/{league}/seasons", organiser, {"season_id": season, "name": "Season"})
        await _post(
            client, f"/leagues/{league}/seasons/{season}/entrants", organiser,
            {"member_ids": [p.account_id for p in players]},
        )  # fmt: skip
        await _post(
            client, f"/leagues/{league}/seasons/{season}/tournaments", organiser,
            {"tournament_id": tournament, "name": "Cup"},
        )  # fmt: skip
        seated = await _post(
            client, f"/leagues/{league}/tournaments/{tournament}/rounds", organiser,
            {"tables": [[p.account_id for p in players]]},
        )  # fmt: skip
        table = seated["tables"][0]
        scheduled = await _post(
            client, f"/leagues/{league}/tournaments/{tournament}/rounds/1/tables/{table['table']}/game",
            organiser, {"mode": "table", "scorekeeper": keeper.account_id, "ruleset": ruleset},
        )  # fmt: skip
        members = [m["member_id"] for m in table["members"]]
        sheriff = members.index(table["sheriff"]["member_id"])
        others = [s for s in seats if s.role != "sheriff"]
        dealt = [*others[:sheriff], next(s for s in seats if s.role == "sheriff"), *others[sheriff:]]
        by_id = {p.account_id: p for p in players}
        await _post(
            client, "/games", keeper,
            {
                "command_id": f"{prefix}-create", "mode": "table", "player_count": len(seats),
                "game_id": scheduled["game_id"], "ruleset": ruleset,
                "context": {"league_id": league, "season_id": season, "tournament_id": tournament,
                            "round": 1, "table": table["table"]},
                "seats": [
                    {"member_id": m, "name": by_id[m].display_name, "role": s.role, "character": s.character}
                    for m, s in zip(members, dealt, strict=True)
                ],
            },
        )  # fmt: skip
    seated_players = tuple(by_id[m] for m in members)
    return TableGame(scheduled["game_id"], keeper, seated_players)
