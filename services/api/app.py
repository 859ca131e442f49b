"""``create_app(settings)``: the litestar application, wired once.

Resources (PostgreSQL pool, event store, game service, token vault, Redis client, fan-out)
are opened in the lifespan, kept on ``app.state.resources`` and injected into handlers by
name (``gateway``, ``principal``); nothing is opened at import time, so importing the app
(to export its OpenAPI or GraphQL schema) costs nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib.util
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, cast

import asyncpg
import msgspec
import redis.asyncio as aioredis
from litestar import Litestar, Request, Response, Router, get
from litestar.datastructures import State
from litestar.di import Provide
from strawberry.litestar import make_graphql_controller

from event_store import create_pool
from infra.postgres import database_name, resolve_postgres
from infra.redis import resolve_redis
from services.accounts.http import ACCOUNT_CONTROLLERS, provide_accounts, provide_session
from services.accounts.lifespan import accounts_lifespan
from services.accounts.service import AccountService
from services.accounts.settings import AccountSettings
from services.api.decoding import BoundedJsonRequest, decode_graphql_json
from services.api.docs import bearer_declared, openapi_config, scalar_handler
from services.api.errors import EXCEPTION_HANDLERS, RETRY_AFTER_SECONDS, problem_body
from services.api.explorers import explorer_asset_handlers, graphiql_page
from services.api.graphql_problems import GRAPHQL_PATH, GraphQLRefusals
from services.api.headers import add_security_headers
from services.api.health import OK, DatabaseProbe, check_dependencies
from services.api.rate_limit import (
    UNRESOLVED,
    BudgetCharge,
    RateLimitedGraphQL,
    RateLimitMiddleware,
    caller_of,
    rate_limit_lifespan,
)
from services.api.schema import build_schema
from services.api.settings import ApiSettings
from services.clubs.http import CLUB_CONTROLLERS, provide_caller, provide_clubs
from services.clubs.lifespan import clubs_lifespan
from services.directory.http import DIRECTORY_HANDLERS
from services.game.application.codec import GAME_MAPPER
from services.game.application.service import GameService
from services.game.edge.cost import Charge
from services.game.edge.fanout import GameFanout, fanout_channel, redis_client
from services.game.edge.gateway import GameGateway
from services.game.edge.http import GameController, RecordController
from services.game.edge.http_tokens import TokenController
from services.game.edge.rulesets_http import RulesetController
from services.game.edge.series_http import SeriesController
from services.game.edge.tokens import Principal, TokenVault, revocation_channel
from services.game.fairness.vault import SeedVault
from services.league.edge.http import LEAGUE_CONTROLLERS, provide_organiser
from services.league.schedule_guard import ScheduleGuard
from services.runtime.database import prepare_all
from services.runtime.metrics import MeteredEventStore, metrics_handler
from services.runtime.projections import registered

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Resources:
    """What the lifespan opened (``open_resources`` closes it in reverse order on shutdown)."""

    pool: asyncpg.Pool
    redis: aioredis.Redis
    gateway: GameGateway
    fanout: GameFanout
    database_url: str
    redis_url: str
    probe: DatabaseProbe
    """``/health``'s own database connection."""


@contextlib.asynccontextmanager
async def open_resources(settings: ApiSettings) -> AsyncIterator[Resources]:
    async with contextlib.AsyncExitStack() as stack:
        database_url = settings.database.url
        if database_url is None:
            postgres = await asyncio.to_thread(resolve_postgres, settings.data_dir)
            stack.callback(postgres.close)
            database_url = postgres.dsn
        redis_url = settings.redis.url
        if redis_url is None:
            resolved_redis = await asyncio.to_thread(resolve_redis, settings.data_dir)
            stack.callback(resolved_redis.close)
            redis_url = resolved_redis.url

        # every service's tables and every projection's read model: the GraphQL queries read them.
        # On a pool without the request limits: a migration may take long, or wait for another
        # process's migration to finish.
        migrations = await create_pool(database_url, min_size=1, max_size=2)
        try:
            await prepare_all(migrations, registered().values())
        finally:
            await migrations.close()
        pool = await create_pool(
            database_url,
            min_size=settings.database.pool_min_size,
            max_size=settings.database.pool_max_size,
            timeouts=settings.timeouts.pool(),
        )
        stack.push_async_callback(pool.close)
        probe = DatabaseProbe(database_url, settings.timeouts.health)
        stack.push_async_callback(probe.close)
        redis = redis_client(redis_url, timeout=settings.timeouts.redis)
        stack.push_async_callback(redis.aclose)
        fanout = GameFanout(
            redis,
            fanout_channel(database_name(database_url)),
            poll_interval=settings.server.fanout_poll_seconds,
        )
        await fanout.start()
        stack.push_async_callback(fanout.close)

        store = MeteredEventStore(pool, mapper=GAME_MAPPER)
        service = GameService(store, SeedVault(pool), cache_size=settings.server.game_cache_size)
        tokens = TokenVault(pool, redis=redis, channel=revocation_channel(database_name(database_url)))
        await tokens.start()
        stack.push_async_callback(tokens.close)
        gateway = GameGateway(service, tokens, fanout, store, schedule=ScheduleGuard(pool))
        yield Resources(pool, redis, gateway, fanout, database_url, redis_url, probe)


def _lifespan(settings: ApiSettings) -> Callable[[Litestar], contextlib.AbstractAsyncContextManager[None]]:
    @contextlib.asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        async with open_resources(settings) as resources:
            app.state.resources = resources
            _freeze_startup_objects()
            yield

    return lifespan


@contextlib.asynccontextmanager
async def _games_know_accounts(app: Litestar) -> AsyncIterator[None]:
    """The game gateway resolves sessions and API tokens through the clubs' service, which
    opens after the gateway (its lifespan follows the accounts'); an account's player tokens
    end with all of its sessions (logging out everywhere, a new password)."""
    gateway: GameGateway = app.state.resources.gateway
    accounts: AccountService = app.state.accounts
    gateway.accounts = app.state.clubs
    accounts.ends_with_sessions.append(gateway.tokens.revoke_member)
    try:
        yield
    finally:
        accounts.ends_with_sessions.remove(gateway.tokens.revoke_member)
        gateway.accounts = None


def _freeze_startup_objects() -> None:
    """Move everything alive after start-up (imported modules, the schemas, the routes: some
    hundred thousand objects) out of the cyclic garbage collector's sight. They live as long as
    the process, and otherwise every full collection walks them all again: a pause of tens of
    milliseconds that lands on whichever requests are in flight (the latency tail)."""
    gc.collect()
    gc.freeze()


async def provide_gateway(state: State) -> GameGateway:
    resources: Resources = state.resources
    return resources.gateway


async def provide_principal(request: Request[Any, Any, Any], gateway: GameGateway) -> Principal | None:
    """The caller the rate limiter resolved already for this request, else resolved now."""
    authorization = request.headers.get("authorization")
    known = caller_of(request.scope, authorization)
    if known is not UNRESOLVED:
        return cast("Principal | None", known)
    return await gateway.authenticate(authorization)


async def provide_charge(request: Request[Any, Any, Any]) -> Charge:
    """What a REST handler's costly work is charged through (``services/game/edge/cost.py``)."""
    return BudgetCharge(request.scope)


async def graphql_context(state: State) -> dict[str, Any]:
    """What resolvers read from ``info.context``: the game gateway, the pool and Redis client
    that the league and ratings read models are queried and watched through, and the clubs'
    service (``clubs.principal(authorization)``: the signed-in caller and their roles)."""
    resources: Resources = state.resources
    return {
        "gateway": resources.gateway,
        "pool": resources.pool,
        "redis": resources.redis,
        "clubs": state.get("clubs"),
    }


@get("/health", operation_id="health", tags=["ops"], summary="Database and Redis answer")
async def health(state: State) -> Response[dict[str, Any]]:
    """Within a second whatever PostgreSQL and Redis do (services/api/health.py)."""
    resources: Resources = state.resources
    checks = await check_dependencies(resources.probe, resources.redis)
    if all(v == OK for v in checks.values()):
        return Response({"status": "ok", "checks": checks})
    body = problem_body(
        503, "unhealthy", "A dependency is unavailable", str(checks), "/health", checks=checks
    )
    return Response(
        body,
        status_code=503,
        media_type="application/problem+json",
        headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    )


def extra_routers(graphql_path: str) -> list[Router]:
    """Routers of services that serve their own pages (the dashboard), when present."""
    if importlib.util.find_spec("services.dashboard.router") is None:
        return []
    from services.dashboard.router import dashboard_router

    return [dashboard_router(graphql_path=graphql_path)]


def create_app(settings: ApiSettings | None = None, accounts: AccountSettings | None = None) -> Litestar:
    settings = settings or ApiSettings.from_env()
    graphql_base = make_graphql_controller(
        build_schema(settings.limits),
        path=GRAPHQL_PATH,
        context_getter=graphql_context,
        graphql_ide="graphiql",  # GET /graphql in a browser: GraphiQL (services/api/explorers.py)
        keep_alive=True,
        keep_alive_interval=15,
    )

    class GraphQLController(GraphQLRefusals, RateLimitedGraphQL, graphql_base):  # type: ignore[valid-type, misc]
        def encode_json(self, data: object) -> bytes:
            """Results and subscription messages as compact JSON by msgspec (the same JSON
            values as strawberry's ``json.dumps``, at a fraction of the CPU: every live update
            is one of these)."""
            return msgspec.json.encode(data)

        def decode_json(self, data: str | bytes) -> object:
            return decode_graphql_json(data)

        async def render_graphql_ide(self, request: Request[Any, Any, Any]) -> Response[str]:
            """GraphiQL on the API's own files (strawberry's page loads them from a CDN)."""
            return Response(ide_page, media_type="text/html; charset=utf-8")

    ide_page = graphiql_page()

    return Litestar(
        route_handlers=[
            GameController,
            RecordController,
            RulesetController,
            SeriesController,
            TokenController,
            *ACCOUNT_CONTROLLERS,
            *CLUB_CONTROLLERS,
            *LEAGUE_CONTROLLERS,
            GraphQLController,
            health,
            metrics_handler(),
            *explorer_asset_handlers(),
            scalar_handler(),
            *extra_routers(GRAPHQL_PATH),
            *DIRECTORY_HANDLERS,  # last: they join the routes of the controllers above
        ],
        logging_config=None,  # the process's logging (JSON lines, redacted) is configured once
        dependencies={
            "gateway": Provide(provide_gateway),
            "principal": Provide(provide_principal),
            "charge": Provide(provide_charge),
            "accounts": Provide(provide_accounts),
            "session": Provide(provide_session),
            "clubs": Provide(provide_clubs),
            "caller": Provide(provide_caller),
            "organiser": Provide(provide_organiser),
        },
        lifespan=[
            _lifespan(settings),
            rate_limit_lifespan(settings.limits),
            accounts_lifespan(accounts),
            clubs_lifespan(ScheduleGuard),
            _games_know_accounts,
        ],
        middleware=[RateLimitMiddleware()],
        before_send=[add_security_headers],  # CSP, frame and sniffing headers on every answer
        exception_handlers=EXCEPTION_HANDLERS,
        request_max_body_size=settings.server.request_max_body_size,
        request_class=BoundedJsonRequest,
        openapi_config=openapi_config(),
        guards=[bearer_declared],  # a route declaring the token required: 401 before its body is read
    )
