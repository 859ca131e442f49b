"""Your move (``GET /me/awaiting``): the signed-in player's online games awaiting a decision of
their own seat, and nothing else. Each item says only what the caller's own view of the game
says already (their seat, the decision, the version, the deadline) and the players' names; never
a role, a card or the seed: the answer's bytes are checked for every hidden role of the game.
An anonymous or logged-out caller is refused; another player's turn is not listed."""

from __future__ import annotations

from typing import Any

import httpx
from litestar import Litestar

from tests.integration.clubs.conftest import Person, person
from tests.integration.directory.conftest import catch_up

ROLE_WORDS = ("sheriff", "deputy", "outlaw", "renegade")
FIELDS = {"game_id", "game_type", "seat", "decision", "version", "deadline", "league", "players"}


async def friendly_game(client: httpx.AsyncClient, players: list[Person]) -> str:
    created = await client.post(
        "/games",
        json={
            "command_id": "your-move",
            "mode": "online",
            "player_count": len(players),
            "members": [{"member_id": p.account_id, "name": p.display_name} for p in players],
        },
        headers=players[0].auth,
    )
    assert created.status_code == 201, created.text
    game_id: str = created.json()["game_id"]
    return game_id


async def view(client: httpx.AsyncClient, game_id: str, who: Person) -> dict[str, Any]:
    answer = await client.get(f"/games/{game_id}", headers=who.auth)
    assert answer.status_code == 200, answer.text
    state: dict[str, Any] = answer.json()
    return state


async def test_your_move_lists_the_games_awaiting_your_seat_and_tells_nothing_hidden(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    names = ("Ann Moss", "Bob Hale", "Cat Reyes", "Dan Pike", "Eve Lund")
    players = [await person(app, client, n.split()[0].lower(), n) for n in names]
    game_id = await friendly_game(client, players)
    await catch_up(app)

    for turn in range(6):  # a few decisions, each by whoever is awaited then
        views = {p.account_id: await view(client, game_id, p) for p in players}
        if next(iter(views.values()))["status"] != "ongoing":
            break
        awaited = [p for p in players if views[p.account_id]["legal_commands"]]
        assert awaited, "an online game's decision is somebody's"
        for p in players:
            answer = await client.get("/me/awaiting", headers=p.auth)
            assert answer.status_code == 200, answer.text
            items = answer.json()["items"]
            mine = views[p.account_id]
            if p in awaited:
                [item] = items
                seat = next(s["id"] for s in mine["players"] if s["member_id"] == p.account_id)
                assert set(item) == FIELDS
                assert item["game_id"] == game_id and item["game_type"] == "dice"
                assert item["seat"] == seat
                assert item["decision"] == mine["awaiting"]["decision"]
                assert item["version"] == mine["version"]
                assert sorted(x["display_name"] for x in item["players"]) == sorted(names)
            else:
                assert items == [], f"turn {turn}: {p.display_name} is not awaited"
            # the roles this caller may not see: none of them is in the answer, not even a word
            hidden = [s for s in mine["players"] if s["role"] is None]
            assert hidden, "the test needs hidden roles"
            text = answer.text.lower()
            assert not any(word in text for word in ROLE_WORDS), answer.text
            assert "seed" not in text and "role" not in text
        mover = awaited[0]
        played = await client.post(
            f"/games/{game_id}/commands",
            json={
                "command": views[mover.account_id]["legal_commands"][0],
                "command_id": f"move-{turn}",
                "expected_version": views[mover.account_id]["version"],
            },
            headers=mover.auth,
        )
        assert played.status_code == 200, played.text


async def test_your_move_needs_a_signed_in_caller(app: Litestar, client: httpx.AsyncClient) -> None:
    ann = await person(app, client, "ann", "Ann Moss")
    assert (await client.get("/me/awaiting")).status_code == 401
    assert (await client.get("/me/awaiting", headers=ann.auth)).json() == {"items": []}
    # logged out: the session is gone, and so is the answer
    assert (await client.delete("/sessions/current", headers=ann.auth)).status_code in (200, 204)
    refused = await client.get("/me/awaiting", headers=ann.auth)
    assert refused.status_code == 401, refused.text
