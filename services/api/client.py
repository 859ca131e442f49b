"""A minimal ``graphql-transport-ws`` client: what bots, the benchmark and the tests use to
watch a game live. (Browsers use any GraphQL client that speaks the protocol.)

The protocol in four messages: the client sends ``connection_init`` (payload: connection
params, here the bearer token), the server answers ``connection_ack``; the client sends
``subscribe`` with an operation id, the server sends ``next`` per result and ``complete`` at
the end. The server may send ``ping``; the client answers ``pong``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

PROTOCOL = "graphql-transport-ws"
OPERATIONS = Path(__file__).resolve().parents[2] / "graphql" / "operations"


def operation(name: str) -> str:
    """The text of a named operation in ``graphql/operations/<name>.graphql``."""
    return (OPERATIONS / f"{name}.graphql").read_text()


class SubscriptionError(RuntimeError):
    pass


class GraphQLSubscription:
    """One subscription on its own WebSocket: ``async with`` opens and acknowledges it,
    iterating yields each result's ``data``."""

    def __init__(
        self,
        url: str,
        query: str,
        variables: dict[str, Any] | None = None,
        *,
        token: str | None = None,
        open_timeout: float = 10,
    ) -> None:
        self.url = url
        self.query = query
        self.variables = variables or {}
        self.token = token
        self.open_timeout = open_timeout
        self._socket: ClientConnection | None = None

    async def __aenter__(self) -> GraphQLSubscription:
        self._socket = await connect(self.url, subprotocols=[PROTOCOL], open_timeout=self.open_timeout)  # type: ignore[list-item]
        params = {} if self.token is None else {"Authorization": f"Bearer {self.token}"}
        await self._socket.send(json.dumps({"type": "connection_init", "payload": params}))
        ack = json.loads(await self._socket.recv())
        if ack.get("type") != "connection_ack":
            raise SubscriptionError(f"the server did not acknowledge the connection: {ack}")
        message = {
            "id": "1",
            "type": "subscribe",
            "payload": {"query": self.query, "variables": self.variables},
        }
        await self._socket.send(json.dumps(message))
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._socket is not None:
            await self._socket.close()

    def __aiter__(self) -> AsyncIterator[dict[str, Any]]:
        return self._results()

    async def _results(self) -> AsyncIterator[dict[str, Any]]:
        assert self._socket is not None, "use `async with`"
        while True:
            message = json.loads(await self._socket.recv())
            kind = message.get("type")
            if kind == "ping":
                await self._socket.send(json.dumps({"type": "pong"}))
            elif kind == "next":
                payload = message["payload"]
                if payload.get("errors"):
                    raise SubscriptionError(json.dumps(payload["errors"]))
                yield payload["data"]
            elif kind == "error":
                raise SubscriptionError(json.dumps(message.get("payload")))
            elif kind == "complete":
                return
