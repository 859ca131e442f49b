"""Getting somebody else's player token is getting their role: every way a stranger might be
handed one.

A join hands out a player token, and the service accepts a command id already in the game's
stream as "this join, retried". So every publicly known or guessable command id of a game (its
creation, a timed-out decision ``timeout/<game>/<version>``, a league game's
``league-game/<game>``, a bot move ``bot/<game>/<version>``) would let a stranger mint a token
for a seated member and read that member's secret role, if a join could name anybody. A join
needs a signed-in account and is always its own (issue 11): an anonymous caller is refused 401,
a stranger naming a seated member 403, and neither gets a token.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from litestar import Litestar

from services.game.application.lifecycle import GameContext, GameMode
from services.game.application.service import Actor, ActorKind, Member, NewGame
from services.game.rules.dice import Role
from tests.integration.api.bots import bearer, create_online_game, player_tokens
from tests.integration.api.people import Person, people

from .conftest import resources_of, truth


async def _hidden_member(app: Litestar, game_id: str) -> tuple[str, str]:
    """A member whose role is secret (not the Sheriff, alive), and that role."""
    session = await truth(app, game_id)
    assert session.game is not None
    player = next(p for p in session.game.state.players if p.role is not Role.SHERIFF and p.alive)
    return session.seat_members[player.id], player.role.value


async def _join(
    client: httpx.AsyncClient, game_id: str, command_id: str, member_id: str | None, who: Person | None
) -> httpx.Response:
    body = {"command_id": command_id}
    if member_id is not None:
        body["member_id"] = member_id
    return await client.post(f"/games/{game_id}/players", json=body, headers={} if who is None else who.auth)


async def _assert_no_token_for_a_stranger(
    app: Litestar, client: httpx.AsyncClient, game_id: str, command_id: str, member_id: str, role: str
) -> None:
    [stranger] = await people(app, client, "Stranger")
    for who, expected in ((None, (401,)), (stranger, (403, 409, 422))):
        response = await _join(client, game_id, command_id, member_id, who)
        leaked: dict[str, Any] = {}
        if response.status_code == 201:
            token = response.json()["token"]
            seen = (await client.get(f"/games/{game_id}", headers=bearer(token))).json()
            leaked = {p["member_id"]: p["role"] for p in seen["players"] if p["role"] is not None}
        caller = "an anonymous join" if who is None else "a signed-in stranger's join"
        assert response.status_code in expected, (
            f"{caller} replaying command {command_id!r} was answered {response.status_code} with a "
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
    await _assert_no_token_for_a_stranger(app, client, game_id, "create", member, role)


async def test_a_played_command_id_is_not_a_join_that_hands_out_tokens(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await create_online_game(client, organiser_token, players=5, command_id="create-2")
    game_id, tokens = created["game_id"], await player_tokens(app, created)
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
    await _assert_no_token_for_a_stranger(app, client, game_id, "move-1", member, role)


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
    await _assert_no_token_for_a_stranger(app, client, game_id, command_id, member, role)


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
    await _assert_no_token_for_a_stranger(app, client, game_id, f"league-game/{game_id}", member, role)


async def test_a_fresh_join_of_a_started_game_is_refused_without_a_token(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await create_online_game(client, organiser_token, players=4, command_id="create-3")
    game_id = created["game_id"]
    member, role = await _hidden_member(app, game_id)
    await _assert_no_token_for_a_stranger(app, client, game_id, "a-brand-new-join", member, role)


async def test_a_join_replayed_for_another_member_gets_no_token(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    """A lobby: Ben joins with his command id; a stranger replays it naming Ada (who joined
    first, so Ada is in the game): refused, not being Ada; Ada herself replaying it is refused
    as any join of a started game."""
    response = await client.post(
        "/games",
        json={"command_id": "lobby", "mode": "online", "player_count": 3, "members": []},
        headers=bearer(organiser_token),
    )
    game_id = response.json()["game_id"]
    ada, ben, cid, stranger = await people(app, client, "Ada", "Ben", "Cid", "Stranger")
    for n, who in enumerate((ada, ben, cid), start=1):
        joined = await _join(client, game_id, f"join-secret-{n}-7f3a9c", None, who)
        assert joined.status_code == 201, joined.text
    replay = await _join(client, game_id, "join-secret-2-7f3a9c", ada.account_id, stranger)
    assert replay.status_code == 403 and replay.json()["type"].endswith("/not-yourself"), replay.text
    # the game has started: refused as any new join would be, the used id not even mentioned
    own = await _join(client, game_id, "join-secret-2-7f3a9c", None, ada)
    assert own.status_code == 422, own.text
    for answer in (replay, own):
        assert "token" not in answer.json() or answer.json().get("token") is None


async def test_another_organiser_replaying_a_create_gets_no_player_tokens(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    """Whoever creates an online game gets no player's token (each plays as themselves), and a
    second organiser who replays the very same create request gets none either."""
    created = await create_online_game(client, organiser_token, players=5, command_id="create-4")
    assert set(created) == {"game_id", "version", "state"}
    tokens = await player_tokens(app, created)
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
    assert set(replay.json()) == {"game_id", "version", "state"}
    for token in tokens.values():
        assert token not in replay.text
