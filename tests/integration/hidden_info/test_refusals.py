"""Refusals are a channel too: every refused command a player can think of (aiming at every
seat with every die, acting for another seat, rolling their own dice, returning arrows of
anybody) and every GraphQL error answers without a hidden role or the seed."""

from __future__ import annotations

import hashlib
import random

import httpx
import pytest
from litestar import Litestar

from services.api.client import operation
from services.game.application import service as service_module
from tests.integration.api.bots import bearer, create_online_game, player_tokens

from .conftest import check_body, secrets_for, seed_hex, truth


def _probes(me: str, seats: list[str]) -> list[str]:
    """Likely refusals first; the few that may be legal now (stop, decline…) last."""
    probes = [f"{me} roll arrow arrow arrow arrow arrow", "p9 stop"]
    for seat in seats:
        probes += [f"{me} target {die} {seat}" for die in range(6)]
        probes += [f"{me} target {die} {seat} as shoot2" for die in (0, 3)]
        probes += [f"{me} remove {seat}", f"{seat} stop", f"{seat} decline", f"{me} target {seat}"]
    return [*probes, f"{me} discard 1", f"{me} arrows-instead 1", f"{me} double 0 1", f"{me} reroll 0"]


async def test_refused_commands_name_no_hidden_role(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a seed of its own: with a fresh one, a game that ended in a few turns once left too few
    # turns to probe (the probes and the legal moves are drawn from a fixed stream already)
    seed_bytes = hashlib.sha256(b"refused commands name no hidden role").digest()
    monkeypatch.setattr(service_module, "new_seed", lambda: seed_bytes)
    created = await create_online_game(client, organiser_token, players=5, command_id="refusals")
    game_id, tokens = created["game_id"], await player_tokens(app, created)
    rng = random.Random(12)
    seed = await seed_hex(app, game_id)
    refused = 0
    for step in range(12):
        session = await truth(app, game_id)
        if session.status.value != "ongoing":
            break
        assert session.game is not None and session.game.awaiting is not None
        seats = [p.id for p in session.game.state.players]
        awaited = session.seat_members[session.game.awaiting.player]
        bystander = next(m for m in sorted(tokens) if m != awaited)
        for member in (awaited, bystander):
            secrets = secrets_for(session, member, seed)
            me = session.seat_of(member)
            assert me is not None
            for n, text in enumerate(_probes(me, seats)):
                response = await client.post(
                    f"/games/{game_id}/commands",
                    json={
                        "command": text,
                        "command_id": f"probe-{step}-{member}-{n}",
                        "expected_version": session.version,
                    },
                    headers=bearer(tokens[member]),
                )
                if response.status_code == 200:
                    session = await truth(app, game_id)
                    break  # a probe that happened to be legal was played: look again
                check_body(response.text, secrets, f"{member} refused {text!r}")
                refused += 1
            else:
                continue
            break
        current = await truth(app, game_id)
        if current.status.value != "ongoing":
            break
        assert current.game is not None and current.game.awaiting is not None
        awaited = current.seat_members[current.game.awaiting.player]
        mine = (await client.get(f"/games/{game_id}", headers=bearer(tokens[awaited]))).json()
        if mine["legal_commands"]:
            played = await client.post(
                f"/games/{game_id}/commands",
                json={"command": rng.choice(mine["legal_commands"]), "command_id": f"legal-{step}"},
                headers=bearer(tokens[awaited]),
            )
            assert played.status_code == 200, played.text
    assert refused > 200


async def test_graphql_errors_name_no_hidden_role_nor_the_seed(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await create_online_game(client, organiser_token, players=5, command_id="gql-errors")
    game_id = created["game_id"]
    session = await truth(app, game_id)
    secrets = secrets_for(session, None, await seed_hex(app, game_id))
    cases = [
        (operation("Game"), {"id": "no-such-game"}),
        (operation("GameAt"), {"id": game_id, "version": 0}),
        (operation("GameAt"), {"id": game_id, "version": 10_000}),
        (operation("GameEvents"), {"id": game_id, "fromVersion": 0}),
        (operation("GameEvents"), {"id": game_id, "limit": 0}),
        (operation("Audit"), {"id": "bad id with spaces"}),
        (f'{{ game(id: "{game_id}") {{ players {{ role secretRole }} }} }}', {}),
        (f'{{ game(id: "{game_id}") {{ seed seedCommitment players {{ id role }} }} }}', {}),
        ('{ __type(name: "GamePlayer") { fields { name description } } }', {}),
    ]
    for headers in ({}, bearer("not-a-token"), bearer(organiser_token)):
        for query, variables in cases:
            response = await client.post(
                "/graphql", json={"query": query, "variables": variables}, headers=headers
            )
            check_body(response.text, secrets, f"graphql {query[:40]} {variables} {headers}")
