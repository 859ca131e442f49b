"""The game view says when the awaited decision times out (`deadline`), so a player's page can
count down: the latest event + the game's limit, as the service applies its default; null
without a limit, and once the game is over."""

from __future__ import annotations

from datetime import datetime, timedelta

import httpx
from litestar import Litestar

from tests.integration.api.bots import bearer, player_tokens

MEMBERS = [{"member_id": f"d{i}", "name": f"Dee {i}"} for i in range(1, 5)]


async def create(client: httpx.AsyncClient, token: str, command_id: str, options: dict[str, int]) -> dict:
    response = await client.post(
        "/games",
        json={"command_id": command_id, "mode": "online", "player_count": 4, "members": MEMBERS,
              "options": options},
        headers=bearer(token),
    )  # fmt: skip
    assert response.status_code == 201, response.text
    created: dict = response.json()
    return created


async def test_the_deadline_is_the_latest_event_plus_the_limit(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await create(client, organiser_token, "timed", {"decision_timeout_seconds": 90})
    game_id = created["game_id"]
    tokens = await player_tokens(app, created)
    public = (await client.get(f"/games/{game_id}")).json()
    events = (await client.get(f"/games/{game_id}/events")).json()
    latest = datetime.fromisoformat(events[-1]["recorded_at"])
    assert public["awaiting"]["decision"] != "roll"
    assert datetime.fromisoformat(public["deadline"]) == latest + timedelta(seconds=90)
    # a move restarts the clock, and the answer to the move says so too
    awaited = next(p["member_id"] for p in public["players"] if p["id"] == public["awaiting"]["player"])
    mine = (await client.get(f"/games/{game_id}", headers=bearer(tokens[awaited]))).json()
    played = await client.post(
        f"/games/{game_id}/commands",
        json={"command": mine["legal_commands"][0], "command_id": "move-1"},
        headers=bearer(tokens[awaited]),
    )
    assert played.status_code == 200, played.text
    events = (await client.get(f"/games/{game_id}/events")).json()
    moved = datetime.fromisoformat(events[-1]["recorded_at"]) + timedelta(seconds=90)
    state = played.json()["state"]
    if state["status"] == "ongoing":
        # the answer's fold takes the append's time as the process saw it; the stored
        # recorded_at is the database's, a few milliseconds apart
        assert abs(datetime.fromisoformat(state["deadline"]) - moved) < timedelta(seconds=1)
        later = datetime.fromisoformat((await client.get(f"/games/{game_id}")).json()["deadline"])
        assert abs(later - moved) < timedelta(seconds=1)
        assert later > datetime.fromisoformat(public["deadline"])


async def test_no_limit_no_deadline(client: httpx.AsyncClient, organiser_token: str) -> None:
    created = await create(client, organiser_token, "untimed", {})
    public = (await client.get(f"/games/{created['game_id']}")).json()
    assert public["status"] == "ongoing" and public["deadline"] is None
