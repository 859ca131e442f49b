"""Getting somebody else's player token is getting their role: every way a stranger might be
handed one.

``POST /games/{id}/players`` needs no token (anybody may join a lobby), and a retried join
(same ``command_id``) answers with a fresh player token for the member. The gateway only checks
that the member has joined the game *somehow*; the service accepts *any* command id already in
the game's stream as "this join, retried". So every publicly known or guessable command id of a
game (its creation, a timed-out decision ``timeout/<game>/<version>``, a league game's
``league-game/<game>``, a bot move ``bot/<game>/<version>``) lets an anonymous caller mint a
token for any seated member and read that member's secret role.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from litestar import Litestar

from services.game.application.lifecycle import GameContext, GameMode
from services.game.application.service import Actor, ActorKind, Member, NewGame
from services.game.rules.dice import Role
from tests.integration.api.bots import bearer, create_online_game

from .conftest import resources_of, truth


async def _hidden_member(app: Litestar, game_id: str) -> tuple[str, str]:
    """A member whose role is secret (not the Sheriff, alive), and that role."""
    session = await truth(app, game_id)
    assert session.game is not None
    player = next(p for p in session.game.state.players if p.role is not Role.SHERIFF and p.alive)
    return session.seat_members[player.id], player.role.value


async def _join(client: httpx.AsyncClient, game_id: str, command_id: str, member_id: str) -> httpx.Response:
    return await client.post(
        f"/games/{game_id}/players",
        json={"command_id": command_id, "member_id": member_id, "name": "Not Really"},
    )


async def _assert_no_token_for_a_stranger(
    client: httpx.AsyncClient, game_id: str, command_id: str, member_id: str, role: str
) -> None:
    response = await _join(client, game_id, command_id, member_id)
    leaked: dict[str, Any] = {}
    if response.status_code == 201:
        token = response.json()["token"]
        seen = (await client.get(f"/games/{game_id}", headers=bearer(token))).json()
        leaked = {p["member_id"]: p["role"] for p in seen["players"] if p["role"] is not None}
    assert response.status_code in (403, 409, 422), (
        f"an anonymous join replaying command {command_id!r} was answered {response.status_code} with a "
        f"player token for {member_id}; with it the stranger reads {member_id}'s secret role "
        f"({leaked.get(member_id)!r}, truly {role!r}): {response.text[:300]}"
    )
    assert "token" not in response.text or response.json().get("token") is None


async def test_the_creation_command_id_is_not_a_join_that_hands_out_tokens(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await create_online_game(client, organiser_token, players=5, command_id="create")
    game_id = created["game_id"]
    member, role = await _hidden_member(app, game_id)
    await _assert_no_token_for_a_stranger(client, game_id, "create", member, role)


async def test_a_played_command_id_is_not_a_join_that_hands_out_tokens(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await create_online_game(client, organiser_token, players=5, command_id="create-2")
    game_id, tokens = created["game_id"], created["player_tokens"]
    state = (await client.get(f"/games/{game_id}")).json()
    awaited = next(p["member_id"] for p in state["players"] if p["id"] == state["awaiting"]["player"])
    mine = (await client.get(f"/games/{game_id}", headers=bearer(tokens[awaited]))).json()
    played = await client.post(
        f"/games/{game_id}/commands",
        json={"command": mine["legal_commands"][0], "command_id": "move-1"},
        headers=bearer(tokens[awaited]),
    )
    assert played.status_code == 200, played.text
    member, role = await _hidden_member(app, game_id)
    await _assert_no_token_for_a_stranger(client, game_id, "move-1", member, role)


async def test_a_timed_out_decision_id_is_public_and_is_not_a_join(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    """``timeout/<game>/<version>``: the version is the DecisionTimedOut event's minus one,
    readable by anybody from the event feed."""
    members = [{"member_id": f"t{i}", "name": f"T {i}"} for i in range(1, 6)]
    response = await client.post(
        "/games",
        json={
            "command_id": "create-timed",
            "mode": "online",
            "player_count": 5,
            "members": members,
            "options": {"decision_timeout_seconds": 5},
        },
        headers=bearer(organiser_token),
    )
    assert response.status_code == 201, response.text
    game_id = response.json()["game_id"]
    service = resources_of(app).gateway.service
    outcome = await service.apply_timeout(game_id, now=datetime.now(UTC) + timedelta(minutes=5))
    assert outcome is not None
    events = (await client.get(f"/games/{game_id}/events")).json()
    timed_out = next(e for e in events if e["type"] == "DecisionTimedOut")
    command_id = f"timeout/{game_id}/{timed_out['version'] - 1}"  # from public data only
    member, role = await _hidden_member(app, game_id)
    await _assert_no_token_for_a_stranger(client, game_id, command_id, member, role)


async def test_a_league_games_creation_id_is_derivable_and_is_not_a_join(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    """The league creates each table's game with ``command_id=f"league-game/{game_id}"`` and a
    game id derived from (league, tournament, round, table) (services/league/bot_league.py):
    both public, so every league game in progress is open to this."""
    game_id = "saloon.nights.r1.t1"
    members = tuple(Member(member_id=f"m{i:02d}", name=f"M{i}") for i in range(5))
    await resources_of(app).gateway.service.create_game(
        NewGame(
            mode=GameMode.ONLINE,
            player_count=5,
            members=members,
            sheriff_member="m00",
            context=GameContext(league_id="saloon", tournament_id="nights", round=1, table=1),
            game_id=game_id,
        ),
        command_id=f"league-game/{game_id}",
        actor=Actor(kind=ActorKind.ORGANISER, id="league:saloon"),
    )
    member, role = await _hidden_member(app, game_id)
    await _assert_no_token_for_a_stranger(client, game_id, f"league-game/{game_id}", member, role)


async def test_a_fresh_join_of_a_started_game_is_refused_without_a_token(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await create_online_game(client, organiser_token, players=4, command_id="create-3")
    game_id = created["game_id"]
    member, role = await _hidden_member(app, game_id)
    await _assert_no_token_for_a_stranger(client, game_id, "a-brand-new-join", member, role)


async def test_a_join_replayed_for_another_member_gets_no_token(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    """A lobby: m2 joins with their command id; a stranger replays it naming m1 (who joined
    first, so m1 is in the game): refused, as the gateway promises."""
    response = await client.post(
        "/games",
        json={"command_id": "lobby", "mode": "online", "player_count": 3, "members": []},
        headers=bearer(organiser_token),
    )
    game_id = response.json()["game_id"]
    for n in (1, 2, 3):
        joined = await _join(client, game_id, f"join-secret-{n}-7f3a9c", f"m{n}")
        assert joined.status_code == 201, joined.text
    replay = await _join(client, game_id, "join-secret-2-7f3a9c", "m1")
    # the game has started: refused as any new join would be, the used id not even mentioned
    assert replay.status_code == 422, replay.text
    assert "token" not in replay.json() or replay.json().get("token") is None


async def test_another_organiser_replaying_a_create_gets_no_player_tokens(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    """An online game's organiser is handed every player token (to pass on); a second
    organiser who replays the very same create request must not be."""
    created = await create_online_game(client, organiser_token, players=5, command_id="create-4")
    assert created["player_tokens"]
    rival = await resources_of(app).gateway.tokens.issue_organiser("rival-club")
    members = [{"member_id": f"m{i}", "name": f"Bot {i}"} for i in range(1, 6)]
    replay = await client.post(
        "/games",
        json={"command_id": "create-4", "mode": "online", "player_count": 5, "members": members},
        headers=bearer(rival),
    )
    # command ids are per organiser: the rival's create is a game of its own, never the first
    assert replay.status_code == 201, replay.text[:300]
    assert replay.json()["game_id"] != created["game_id"]
    for token in created["player_tokens"].values():
        assert token not in replay.text
