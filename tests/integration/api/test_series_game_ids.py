"""A game id of a UA5 series' form (``<series>.g<n>``, services/game/application/series.py) is
the series' own: ``POST /games`` refuses it in words, nothing stored, so nobody blocks a
series' next game by taking its id first."""

from __future__ import annotations

import httpx

from tests.integration.api.bots import bearer
from tests.integration.api.test_errors import problem


async def test_a_series_form_game_id_is_refused_over_http(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    body = {
        "command_id": "squat",
        "mode": "online",
        "player_count": 4,
        "members": [{"member_id": "m1", "name": "Player 1"}],
        "game_id": "club-series.g2",
    }
    refused = problem(
        await client.post("/games", json=body, headers=bearer(organiser_token)), 422, "invalid-game"
    )
    assert "only series club-series creates its games" in refused["detail"], refused
    problem(await client.get("/games/club-series.g2"), 404, "game-not-found")
    fine = await client.post(
        "/games", json={**body, "game_id": "club-series.g2-friendly"}, headers=bearer(organiser_token)
    )
    assert fine.status_code == 201, fine.text
