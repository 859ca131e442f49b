"""Per-client rate limits on REST and GraphQL, shared by every API process through Redis.

Who a client is: a signed-in account, when the token it sends is one of the account's (a
session or an API token: all of them share the account's one budget, keyed by the account id);
else the token, when the vault knows it (keyed by the token's hash, never the token); else its
address (``scope["client"]``: behind a reverse proxy, run uvicorn with
``--forwarded-allow-ips`` so the address is the caller's, not the proxy's). A made-up token is
no way around the address's budget: only a valid one gets a budget of its own.

The caller the middleware resolves is left in the ASGI scope (``caller_of``), so the handler's
``principal`` dependency does not resolve the same token a second time.

What a request costs: one, charged by ``RateLimitMiddleware`` before routing to the handler;
a GraphQL operation then pays the rest of its cost (``services/api/graphql_cost.py``) just
before it executes, and a subscription over the WebSocket pays its cost when it starts. A REST
route whose work grows with a game (an import, a time-travel read) pays the rest of its cost
(``services/game/edge/cost.py``) through ``BudgetCharge``: before doing that work (a cost above
the whole budget is charged the whole budget: such a request passes only on an untouched
budget), or, for an import's later inputs, as it goes, waiting for the budget to refill. Over
budget: 429 with ``Retry-After`` and a problem-details body (``rate-limited``). ``/health`` and
``/metrics`` are never limited.

The budgets live in Redis (the ``limits`` package's sliding window counter: one atomic Lua call
per check, whatever the request's cost), under a prefix per database, so every process of one
deployment shares them. When Redis does not answer within ``STORAGE_TIMEOUT_SECONDS`` the
request is let through (and a warning logged): a limiter must never be what stops the API.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import msgspec
import redis.asyncio as aioredis
from limits import RateLimitItem, parse
from limits.aio.storage import RedisStorage
from limits.aio.strategies import SlidingWindowCounterRateLimiter
from litestar import Litestar, Response
from litestar.exceptions import TooManyRequestsException
from litestar.middleware import ASGIMiddleware
from litestar.types import ASGIApp, Receive, Scope, Send

from graphql import GraphQLError
from infra.postgres import database_name
from services.api.errors import _HTTP_TITLES as HTTP_TITLES
from services.api.errors import PROBLEM_JSON, problem_body
from services.api.settings import LimitSettings
from services.game.edge.cost import Charge
from services.game.edge.tokens import Principal, TokenKind, token_hash

log = logging.getLogger(__name__)

EXEMPT_PATHS = frozenset({"/health", "/metrics"})
STORAGE_TIMEOUT_SECONDS = 0.5
RATE_LIMITED, RATE_LIMITED_TITLE = HTTP_TITLES[429]
_CLIENT = "bang.rate_limit_client"
"""Where the middleware leaves the request's ``Client`` in the ASGI scope (for GraphQL)."""
_CALLER = "bang.caller"
"""Where the middleware leaves ``(authorization, Principal | None)``: the caller it resolved."""
UNRESOLVED = object()
"""``caller_of``'s answer when the middleware did not resolve this request's caller."""
_WARN_EVERY_SECONDS = 30.0
MAX_PACING_WAITS = 600
"""``BudgetCharge.pace`` waits at most this many times (each ``Retry-After`` seconds, the
window's time at most) before going on: work that must not stop half-way always ends."""


@dataclass(frozen=True, slots=True)
class Client:
    key: str
    """``account:<id>``, ``token:<hash prefix>`` or ``address:<ip>``: the budget's name in Redis."""
    limit: RateLimitItem
    anonymous: bool
    account: bool = False

    def describe(self) -> str:
        per = _per(self.limit)
        if self.anonymous:
            return f"this address may make {self.limit.amount} requests per {per} without a token"
        if self.account:
            return (
                f"this account may make {self.limit.amount} requests per {per} "
                "(all its sessions and API tokens together)"
            )
        return f"this token may make {self.limit.amount} requests per {per}"


class ClientBudgets:
    """Each client's budget in Redis; ``charge`` answers None (go on) or the seconds to wait."""

    def __init__(
        self,
        redis: aioredis.Redis,
        namespace: str,
        limits: LimitSettings,
        authenticate: Callable[[str | None], Awaitable[Principal | None]],
    ) -> None:
        storage = RedisStorage(
            "async+redis://",
            implementation="redispy",
            connection_pool=redis.connection_pool,
            key_prefix=f"bang:rate:{namespace}",
        )
        self.limiter = SlidingWindowCounterRateLimiter(storage)
        self.per_token = parse(limits.rate_limit)
        self.per_address = parse(limits.anonymous_rate_limit)
        self.authenticate = authenticate
        self._warned_at = -math.inf

    async def client_of(self, scope: Scope) -> Client:
        authorization = _header(scope, b"authorization")
        if authorization is not None:
            with contextlib.suppress(Exception):  # refused later, by the handler, in its words
                principal = await self.authenticate(authorization)
                scope[_CALLER] = (authorization, principal)  # type: ignore[literal-required]
                if principal is not None and principal.kind is TokenKind.ACCOUNT:
                    key = f"account:{principal.subject}"
                    return Client(key, self.per_token, anonymous=False, account=True)
                if principal is not None:
                    token = authorization.strip().partition(" ")[2].strip()
                    return Client(f"token:{token_hash(token).hex()[:32]}", self.per_token, anonymous=False)
        address = scope.get("client")
        return Client(f"address:{address[0] if address else 'unknown'}", self.per_address, anonymous=True)

    async def charge(self, client: Client, requests: int) -> int | None:
        # a request dearer than the whole budget is charged the whole budget, not refused forever
        amount = max(1, min(requests, client.limit.amount))
        try:
            async with asyncio.timeout(STORAGE_TIMEOUT_SECONDS):
                if await self.limiter.hit(client.limit, client.key, cost=amount):
                    return None
                stats = await self.limiter.get_window_stats(client.limit, client.key)
        except (aioredis.RedisError, OSError, TimeoutError) as error:
            self._storage_failed(error)
            return None
        return max(1, math.ceil(stats.reset_time - time.time()))

    def _storage_failed(self, error: BaseException) -> None:
        now = time.monotonic()
        if now - self._warned_at >= _WARN_EVERY_SECONDS:
            self._warned_at = now
            log.warning("rate limits not checked (Redis: %s); requests are let through", type(error).__name__)


def caller_of(scope: Scope, authorization: str | None) -> Principal | object | None:
    """The caller the middleware resolved for this request's ``authorization``, or
    ``UNRESOLVED`` (no middleware, no header, or a token it could not resolve: the handler
    resolves it then, and refuses it in its own words)."""
    resolved = scope.get(_CALLER)
    if resolved is None or authorization is None or resolved[0] != authorization:
        return UNRESOLVED
    return resolved[1]


def refusal(client: Client, wait: int) -> str:
    return f"rate limit exceeded: {client.describe()}; retry in {wait} s"


class RateLimitMiddleware(ASGIMiddleware):
    """Charges one request to the caller's budget before the handler runs."""

    should_bypass_for_scope = staticmethod(lambda scope: scope["path"] in EXEMPT_PATHS)

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        budgets: ClientBudgets | None = getattr(scope["litestar_app"].state, "rate_limits", None)
        if budgets is not None:
            client = await budgets.client_of(scope)
            scope[_CLIENT] = client  # type: ignore[literal-required]
            wait = await budgets.charge(client, 1)
            if wait is not None:
                headers = {"Retry-After": str(wait)}
                raise TooManyRequestsException(detail=refusal(client, wait), headers=headers)
        await next_app(scope, receive, send)


async def charge_graphql(context: Any, requests: int) -> None:
    """Charge a GraphQL operation's cost (in requests) to its caller, before it executes. Over
    HTTP the middleware has charged one already; over a WebSocket each operation pays whole."""
    if not isinstance(context, dict):
        return
    connection = context.get("request") or context.get("socket")
    if connection is None:
        return
    budgets: ClientBudgets | None = getattr(connection.app.state, "rate_limits", None)
    client: Client | None = connection.scope.get(_CLIENT)
    if budgets is None or client is None:
        return
    response = context.get("response")
    due = requests - 1 if response is not None else requests
    if due <= 0:
        return
    wait = await budgets.charge(client, due)
    if wait is None:
        return
    if response is not None:
        response.status_code = 429
        response.headers["Retry-After"] = str(wait)
    raise GraphQLError(
        f"{refusal(client, wait)}; this operation counts as {requests} requests",
        extensions={"code": "RATE_LIMITED", "retryAfter": wait},
    )


class BudgetCharge(Charge):
    """A REST request's cost beyond the one request the middleware charged, debited from the
    same budget: refused with 429 and ``Retry-After`` (``__call__``, before the work is done),
    or waited for (``pace``, in the middle of work that must not stop half-way)."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope

    def _budget(self) -> tuple[ClientBudgets, Client] | None:
        budgets: ClientBudgets | None = getattr(self.scope["litestar_app"].state, "rate_limits", None)
        client: Client | None = self.scope.get(_CLIENT)
        return None if budgets is None or client is None else (budgets, client)

    async def __call__(self, requests: int, what: str) -> None:
        found = self._budget()
        if found is None:
            return
        budgets, client = found
        # dearer than the whole budget: the whole budget (the middleware took one of it already)
        due = min(requests, client.limit.amount) - 1
        if due <= 0:
            return
        wait = await budgets.charge(client, due)
        if wait is not None:
            raise TooManyRequestsException(
                detail=f"{refusal(client, wait)}; {what}, which counts as {requests} requests",
                headers={"Retry-After": str(wait)},
            )

    async def pace(self, requests: int, what: str) -> None:
        found = self._budget()
        if found is None:
            return
        budgets, client = found
        for _ in range(MAX_PACING_WAITS):
            wait = await budgets.charge(client, requests)
            if wait is None:
                return
            await asyncio.sleep(wait)
        log.warning("%s: still over %s's budget after %d waits; going on", what, client.key, MAX_PACING_WAITS)


class RateLimitedGraphQL:
    """Mixed into the GraphQL controller: an operation refused for its cost is answered like
    every other 429, as problem details."""

    def create_response(self, response_data: Any, sub_response: Response[bytes]) -> Response[bytes]:
        if sub_response.status_code == 429:
            errors = response_data.get("errors") if isinstance(response_data, dict) else None
            detail = errors[0].get("message") if errors else RATE_LIMITED_TITLE
            body = problem_body(429, RATE_LIMITED, RATE_LIMITED_TITLE, detail, "/graphql")
            return Response(
                msgspec.json.encode(body),
                status_code=429,
                media_type=PROBLEM_JSON,
                headers=dict(sub_response.headers),
            )
        return super().create_response(response_data, sub_response)  # type: ignore[misc, no-any-return]


def rate_limit_lifespan(
    limits: LimitSettings,
) -> Callable[[Litestar], contextlib.AbstractAsyncContextManager[None]]:
    """Opens the budgets on the lifespan's Redis client (after ``open_resources``)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        resources = app.state.resources
        app.state.rate_limits = ClientBudgets(
            resources.redis,
            database_name(resources.database_url),
            limits,
            resources.gateway.authenticate,
        )
        try:
            yield
        finally:
            app.state.rate_limits = None

    return lifespan


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


def _per(limit: RateLimitItem) -> str:
    unit = limit.GRANULARITY.name
    return f"{limit.multiples} {unit}s" if limit.multiples != 1 else unit
