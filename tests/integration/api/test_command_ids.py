"""A command id names one command from one caller in one game. Sent again with the same
command by the same caller it is a retry (the first answer, ``duplicate``); with anything else
it is a 409 ``command-id-reused`` - but only for a caller who may act in the game: anybody else
gets exactly the answer a brand-new id would get, so a guessed id confirms nothing."""

from __future__ import annotations

import copy
from typing import Any

import httpx
from litestar import Litestar

from tests.integration.api.bots import bearer, create_online_game, player_tokens
from tests.integration.api.conftest import resources_of
from tests.integration.api.people import people
from tests.integration.api.test_errors import TABLE_SEATS, problem
from tests.integration.api.test_records import a_finished_table_game


async def _awaited(
    app: Litestar, client: httpx.AsyncClient, created: dict[str, Any]
) -> tuple[str, str, list[str]]:
    """The awaited member's token, another seated member's token, and the awaited one's legal commands."""
    game_id, tokens = created["game_id"], await player_tokens(app, created)
    public = (await client.get(f"/games/{game_id}")).json()
    seat_member = {p["id"]: p["member_id"] for p in public["players"]}
    awaited = seat_member[public["awaiting"]["player"]]
    other = next(m for m in seat_member.values() if m != awaited)
    mine = (await client.get(f"/games/{game_id}", headers=bearer(tokens[awaited]))).json()
    return tokens[awaited], tokens[other], mine["legal_commands"]


async def _version(client: httpx.AsyncClient, game_id: str) -> int:
    version: int = (await client.get(f"/games/{game_id}")).json()["version"]
    return version


async def test_a_players_command_id_is_theirs_for_that_command_only(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await create_online_game(client, organiser_token, players=4, command_id="create-ids")
    game_id = created["game_id"]
    commands = f"/games/{game_id}/commands"
    mine, theirs, legal = await _awaited(app, client, created)
    assert len(legal) >= 2, legal
    move = {"command": legal[0], "command_id": "move"}
    first = await client.post(commands, json=move, headers=bearer(mine))
    assert first.status_code == 200, first.text
    version = first.json()["version"]

    again = await client.post(commands, json=move, headers=bearer(mine))
    assert again.status_code == 200 and again.json()["duplicate"] is True
    assert again.json()["events"] == first.json()["events"]

    # the same player, another command: refused, not answered with the first one's events
    other_command = await client.post(
        commands, json={"command": legal[1], "command_id": "move"}, headers=bearer(mine)
    )
    body = problem(other_command, 409, "command-id-reused")
    assert body["field"] == "command_id"
    # another player of the game, even with the very same command text
    problem(await client.post(commands, json=move, headers=bearer(theirs)), 409, "command-id-reused")
    assert await _version(client, game_id) == version


async def test_a_table_games_command_id_is_its_scorekeepers_and_another_organiser_may_not_act(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await client.post(
        "/games",
        json={"command_id": "table", "mode": "table", "player_count": 4, "seats": TABLE_SEATS},
        headers=bearer(organiser_token),
    )
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    awaiting = created.json()["state"]["awaiting"]
    assert awaiting["decision"] == "roll"
    dice = len(awaiting["dice"])
    commands = f"/games/{game_id}/commands"
    roll = f"{awaiting['player']} roll {' '.join(['beer'] * dice)}"
    other_roll = f"{awaiting['player']} roll {' '.join(['arrow'] * dice)}"
    entered = await client.post(
        commands, json={"command": roll, "command_id": "r1"}, headers=bearer(organiser_token)
    )
    assert entered.status_code == 200, entered.text
    version = entered.json()["version"]
    # the scorekeeper's own typo under a used id
    problem(
        await client.post(
            commands, json={"command": other_roll, "command_id": "r1"}, headers=bearer(organiser_token)
        ),
        409,
        "command-id-reused",
    )
    rival = await resources_of(app).gateway.tokens.issue_organiser("rival-club")
    answers = [
        await client.post(commands, json={"command": command, "command_id": id_}, headers=bearer(rival))
        for command in (roll, other_roll)
        for id_ in ("r1", "never-used")
    ]
    # another organiser keeps no score here (issue 11): refused, and a used id tells them nothing
    assert "only its scorekeeper enters its moves" in problem(answers[0], 403, "forbidden")["detail"]
    assert len({a.content for a in answers}) == 1
    retried = await client.post(
        commands, json={"command": roll, "command_id": "r1"}, headers=bearer(organiser_token)
    )
    assert retried.status_code == 200 and retried.json()["duplicate"] is True
    assert await _version(client, game_id) == version


async def test_a_retried_create_with_another_spec_is_refused_and_changes_nothing(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    members = [{"member_id": f"m{i}", "name": f"M {i}"} for i in range(1, 3)]
    spec = {"command_id": "new-game", "mode": "online", "player_count": 4, "members": members}
    first = await client.post("/games", json=spec, headers=bearer(organiser_token))
    assert first.status_code == 201, first.text
    game_id = first.json()["game_id"]
    retried = await client.post("/games", json=spec, headers=bearer(organiser_token))
    assert retried.status_code == 201 and retried.json()["game_id"] == game_id
    for change in ({"player_count": 5}, {"members": members[:1]}, {"context": {"round": 2}}):
        body = problem(
            await client.post("/games", json={**spec, **change}, headers=bearer(organiser_token)),
            409,
            "command-id-reused",
        )
        assert game_id not in body["detail"]
    state = (await client.get(f"/games/{game_id}")).json()
    assert state["player_count"] == 4 and state["version"] == first.json()["version"]


async def test_another_organiser_learns_nothing_from_a_guessed_command_id_or_game_id(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await create_online_game(client, organiser_token, players=4, command_id="create-1")
    game_id = created["game_id"]
    rival = await resources_of(app).gateway.tokens.issue_organiser("rival-club")
    members = [{"member_id": f"x{i}", "name": f"X {i}"} for i in range(1, 5)]
    spec = {"mode": "online", "player_count": 4, "members": members}

    # a guessed command id: the rival's own game, as with any new id
    guessed = await client.post("/games", json={**spec, "command_id": "create-1"}, headers=bearer(rival))
    assert guessed.status_code == 201, guessed.text
    assert guessed.json()["game_id"] != game_id
    assert set(guessed.json()) == {"game_id", "version", "state"}  # no player tokens, anybody's

    # a taken game id: one answer, whether or not the command id is the one its creator used
    answers = [
        await client.post(
            "/games", json={**spec, "command_id": command_id, "game_id": game_id}, headers=bearer(rival)
        )
        for command_id in ("create-1", "never-used-anywhere")
    ]
    bodies = [problem(a, 409, "game-id-taken") for a in answers]
    assert bodies[0] == bodies[1]
    assert answers[0].content == answers[1].content


async def test_a_caller_who_may_not_act_gets_the_answer_of_a_new_id(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await create_online_game(client, organiser_token, players=4, command_id="create-seen")
    game_id = created["game_id"]
    commands = f"/games/{game_id}/commands"
    mine, _, legal = await _awaited(app, client, created)
    used = {"command": legal[0], "command_id": "used"}
    played = await client.post(commands, json=used, headers=bearer(mine))
    assert played.status_code == 200, played.text
    elsewhere = await create_online_game(client, organiser_token, players=3, command_id="create-elsewhere")
    strangers = {
        "organiser (online games are the players')": organiser_token,
        "a player of another game": next(iter((await player_tokens(app, elsewhere)).values())),
    }
    for who, token in strangers.items():
        answers = [
            await client.post(
                commands, json={"command": legal[0], "command_id": command_id}, headers=bearer(token)
            )
            for command_id in ("used", "create-seen", "never-used")
        ]
        assert answers[0].status_code == 403, (who, answers[0].text)
        assert answers[0].content == answers[1].content == answers[2].content, who


async def test_a_join_under_a_used_id_is_refused_while_the_lobby_is_open(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await client.post(
        "/games",
        json={"command_id": "lobby", "mode": "online", "player_count": 3, "members": []},
        headers=bearer(organiser_token),
    )
    ann, bob = await people(app, client, "Ann Lobby", "Bob Lobby")
    joins = f"/games/{created.json()['game_id']}/players"
    first = await client.post(joins, json={"command_id": "j1"}, headers=ann.auth)
    assert first.status_code == 201, first.text
    for command_id in ("j1", "lobby"):  # another member's join, the creation
        again = await client.post(joins, json={"command_id": command_id}, headers=bob.auth)
        problem(again, 409, "command-id-reused")
    problem(await client.post(joins, json={"command_id": "j1"}, headers=ann.auth), 409, "already-joined")
    joined = (await client.get(f"/games/{created.json()['game_id']}")).json()["joined"]
    assert [(j["member_id"], j["name"]) for j in joined] == [(ann.account_id, "Ann Lobby")]


async def test_a_reimport_of_another_record_under_the_same_id_writes_nothing(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    record = a_finished_table_game(seed=5)
    shorter = {**record, "inputs": record["inputs"][:10]}
    body = {"command_id": "import", "record": shorter, "game_id": "night-1"}
    first = await client.post("/records", json=body, headers=bearer(organiser_token))
    assert first.status_code == 201, first.text
    again = await client.post("/records", json=body, headers=bearer(organiser_token))
    assert again.status_code == 201 and again.json()["version"] == first.json()["version"]

    longer = await client.post("/records", json={**body, "record": record}, headers=bearer(organiser_token))
    problem(longer, 409, "command-id-reused")
    swapped = copy.deepcopy(shorter)
    seats = swapped["seats"]
    seats[1]["role"], seats[2]["role"] = seats[2]["role"], seats[1]["role"]
    assert swapped["seats"][1]["role"] != shorter["seats"][1]["role"]
    swapped_body = {**body, "record": swapped}
    refused = await client.post("/records", json=swapped_body, headers=bearer(organiser_token))
    problem(refused, 409, "command-id-reused")
    assert await _version(client, "night-1") == first.json()["version"]


async def test_the_servers_own_command_ids_are_refused_to_callers(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await create_online_game(client, organiser_token, players=4, command_id="create-reserved")
    game_id = created["game_id"]
    mine, _, legal = await _awaited(app, client, created)
    squat = await client.post(
        f"/games/{game_id}/commands",
        json={"command": legal[0], "command_id": f"timeout/{game_id}/99"},
        headers=bearer(mine),
    )
    assert problem(squat, 422, "command-id-reserved")["field"] == "command_id"
    assert await _version(client, game_id) == created["version"]
