"""What the API process writes to its logs while games are played, watched and refused: no
player or organiser token, no dice seed, no hidden role.

Captured from every logger the app and its server use (the root logger, which strawberry's
``strawberry.execution`` error log reaches, plus uvicorn's access and error loggers), formatted
with tracebacks and stack info as a log handler would print them."""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Iterator

import httpx
import pytest
from litestar import Litestar
from websockets.asyncio.client import connect

from services.api.client import PROTOCOL, operation
from tests.integration.api.bots import bearer, create_online_game, player_tokens
from tests.integration.api.people import people

from .conftest import ROLE_WORD, play_some, secrets_for, seed_hex, truth

_LOGGERS = ("", "uvicorn.access", "uvicorn.error", "strawberry.execution", "litestar")


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def captured_logs() -> Iterator[_Capture]:
    capture = _Capture()
    saved = []
    for name in _LOGGERS:
        logger = logging.getLogger(name)
        saved.append((logger, logger.level))
        logger.addHandler(capture)
        logger.setLevel(logging.INFO)
    try:
        yield capture
    finally:
        for logger, level in saved:
            logger.removeHandler(capture)
            logger.setLevel(level)


async def test_tokens_seed_and_roles_stay_out_of_the_api_logs(
    app: Litestar,
    base_url: str,
    client: httpx.AsyncClient,
    organiser_token: str,
    captured_logs: _Capture,
) -> None:
    created = await create_online_game(client, organiser_token, players=5, command_id="logged")
    game_id, tokens = created["game_id"], await player_tokens(app, created)
    [spectator] = await people(app, client, "Spectator")  # a signed-in account's session token
    await play_some(client, game_id, tokens, random.Random(4), 8)
    some, other = sorted(tokens)[:2]
    url = f"ws://{base_url}/graphql"

    # refusals a client provokes with its token in the header: wrong game, not its turn, bad token
    await client.get("/games/no-such-game", headers=bearer(tokens[some]))
    await client.post(
        f"/games/{game_id}/commands",
        json={"command": "p9 stop", "command_id": "zz"},
        headers=bearer(tokens[other]),
    )
    await client.get(f"/games/{game_id}", headers=bearer("a-token-nobody-issued-4d1c"))
    await client.get(f"/games/{game_id}", headers=spectator.auth)
    await client.post(
        f"/games/{game_id}/commands", json={"command": "p1 stop", "command_id": "zz"}, headers=spectator.auth
    )
    await client.post("/graphql", json={"query": operation("Game"), "variables": {"id": "no-such-game"}},
                      headers=bearer(tokens[some]))  # fmt: skip

    # the documented `token` argument of the subscriptions, as a variable and written inline
    async def subscribe(query: str, variables: dict[str, object]) -> None:
        """One graphql-transport-ws subscription, up to its first answer (data or refusal)."""
        async with connect(url, subprotocols=[PROTOCOL], close_timeout=0.5) as socket:  # type: ignore[list-item]
            await socket.send(json.dumps({"type": "connection_init", "payload": {}}))
            assert json.loads(await socket.recv())["type"] == "connection_ack"
            payload = {"query": query, "variables": variables}
            await socket.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
            answer = json.loads(await socket.recv())
            assert answer["type"] in ("next", "error", "complete"), answer

    await asyncio.wait_for(
        subscribe(operation("WatchGame"), {"id": game_id, "token": tokens[some], "fromVersion": 1}), 10
    )
    inline = f'subscription {{ gameEvents(id: "no-such-game", token: "{tokens[other]}") {{ version }} }}'
    await asyncio.wait_for(subscribe(inline, {}), 10)
    inline_valid_game = (
        f'subscription {{ gameUpdates(id: "{game_id}", token: "{tokens[some]}", fromVersion: 0) '
        "{ version } }"
    )
    await asyncio.wait_for(subscribe(inline_valid_game, {}), 10)
    # a client's typo in a subscription that carries its token inline (a validation error)
    typo = f'subscription {{ gameEvents(id: "{game_id}", token: "{tokens[some]}") {{ version typo }} }}'
    await asyncio.wait_for(subscribe(typo, {}), 10)
    await asyncio.sleep(0.2)  # the server's last log lines

    session = await truth(app, game_id)
    assert session.status.value == "ongoing", "pick another rng seed: the game ended already"
    seed = await seed_hex(app, game_id)
    hidden = secrets_for(session, None, seed).hidden_roles
    logs = "\n".join(captured_logs.lines)
    assert logs, "nothing was captured: the test looks at the wrong loggers"
    for member, token in {**tokens, "organiser": organiser_token, "spectator": spectator.token}.items():
        # in pieces too: strawberry's error log prints the query source wrapped at 80 columns
        piece = next((token[i : i + 12] for i in range(len(token) - 11) if token[i : i + 12] in logs), None)
        assert piece is None, f"{member}'s token is in the API log:\n{_around(logs, piece or '')}"
    assert seed not in logs
    assert not {w.lower() for w in ROLE_WORD.findall(logs)} & hidden, logs[-2000:]


def _around(text: str, needle: str, width: int = 400) -> str:
    at = text.index(needle)
    return text[max(at - width, 0) : at + width]
