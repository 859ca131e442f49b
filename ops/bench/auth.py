"""`bang-league bench auth`: what knowing who calls costs a request.

The API app runs in this process (its real lifespan: a fresh database on the PostgreSQL and
the Redis that `infra` resolves, the rate limiter on with a budget no client reaches), driven
through httpx's ASGI transport, so what is measured is the app and its database round trips,
not a socket. The same read, `GET /games/{id}` of one online game, is sent as each kind of
caller:

- `anonymous`: no token (the **anchor**: every other figure is a ratio to it, measured in
  the same run, interleaved with it);
- `vault`: a game-vault player token of that game;
- `session`: a signed-in account's session token;
- `api_token`: a script token (`blt_…`) of that account;
- `session_me_clubs`: the session reading `GET /me/clubs` (a route only accounts reach).

Each kind runs CONCURRENCY clients in a closed loop for SECONDS, ROUNDS times in turn with
the others (a noisy neighbour then hurts every kind alike); its figure is the median round.
`db_queries_per_request` is counted separately, one request at a time after warm-up, with
asyncpg's query logger on the app's pool connections: the number of statements a request of
that kind sends to PostgreSQL (the rate limiter's Redis call is not one of them).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import httpx
from rich.table import Table

from infra.postgres import create_database, drop_database, resolve_postgres
from infra.redis import resolve_redis
from services.accounts.settings import AccountSettings
from services.api import ApiSettings, create_app
from services.api.settings import DatabaseSettings, LimitSettings, RedisSettings

CONCURRENCY = 8
SECONDS = 2.0
ROUNDS = 3
COUNTED_REQUESTS = 20
KINDS = ("anonymous", "vault", "session", "api_token", "session_me_clubs")
ANCHOR = "anonymous"
_UNTHROTTLED = LimitSettings(rate_limit="1000000/second", anonymous_rate_limit="1000000/second")
_CHEAP_ARGON2 = AccountSettings(argon2_time_cost=1, argon2_memory_kib=8 * 1024, argon2_parallelism=1)
_PASSWORD = "correct horse battery staple"


def run(
    seconds: float = SECONDS, rounds: int = ROUNDS, concurrency: int = CONCURRENCY
) -> dict[str, Any]:
    """JSON-ready figures (smaller sizes in the shape test)."""
    return asyncio.run(_run(seconds, rounds, concurrency))


async def _run(seconds: float, rounds: int, concurrency: int) -> dict[str, Any]:
    with resolve_postgres() as postgres, resolve_redis() as redis:
        dsn = await create_database(postgres.dsn, prefix="benchauth")
        try:
            settings = ApiSettings(
                database=DatabaseSettings(url=dsn, pool_min_size=2, pool_max_size=10),
                redis=RedisSettings(url=redis.url),
                limits=_UNTHROTTLED,
            )
            app = create_app(settings, _CHEAP_ARGON2)
            async with app.lifespan():
                transport = httpx.ASGITransport(app=app)
                async with httpx.AsyncClient(transport=transport, base_url="http://b", timeout=30) as http:
                    requests = await _callers(app, http)
                    for send in requests.values():  # warm-up: caches, prepared statements
                        for _ in range(3):
                            await send()
                    per_round: dict[str, list[float]] = {kind: [] for kind in KINDS}
                    for _ in range(rounds):
                        for kind in KINDS:
                            per_round[kind].append(await _throughput(requests[kind], seconds, concurrency))
                    queries = {kind: await _queries(app, requests[kind]) for kind in KINDS}
            rps = {kind: statistics.median(values) for kind, values in per_round.items()}
            return {
                "requests_per_second": {kind: round(v, 1) for kind, v in rps.items()},
                "ratio_to_anonymous": {kind: round(v / rps[ANCHOR], 3) for kind, v in rps.items()},
                "db_queries_per_request": queries,
                "anchor": ANCHOR,
                "rounds": rounds,
                "seconds_per_round": seconds,
                "concurrency": concurrency,
                "postgres_source": postgres.source,
                "redis_source": redis.source,
                "cpus": os.cpu_count(),
            }
        finally:
            await drop_database(postgres.dsn, dsn)


Send = Callable[[], Any]


async def _callers(app: Any, http: httpx.AsyncClient) -> dict[str, Send]:
    """One online game, an account with a session and an API token, a player token: a request
    function for each kind (each checks its answer, so a refusal is never counted as speed)."""
    resources = app.state.resources
    accounts = app.state.accounts
    organiser = await resources.gateway.tokens.issue_organiser("bench")
    members = [{"member_id": f"m{i}", "name": f"Bot {i}"} for i in range(1, 6)]
    created = await http.post(
        "/games",
        json={"command_id": "bench", "mode": "online", "player_count": 5, "members": members},
        headers=_bearer(organiser),
    )
    _ok(created)
    game_id = created.json()["game_id"]
    player = await resources.gateway.tokens.issue_player(game_id, "m1")

    invite = await accounts.issue_invite("Bench Person", login=None, issued_by="bench")
    accepted = await http.post(
        f"/accounts/invites/{invite.token}/accept", json={"login": "bench", "password": _PASSWORD}
    )
    _ok(accepted)
    session = accepted.json()["token"]
    club = await http.post("/clubs", json={"name": "Bench Club"}, headers=_bearer(session))
    _ok(club)
    club_id = club.json()["club_id"]
    made = await http.post(
        "/me/tokens",
        json={"label": "bench", "grants": [{"club_id": club_id, "role": "admin"}]},
        headers=_bearer(session),
    )
    _ok(made)
    api_token = made.json()["token"]

    def reader(path: str, token: str | None) -> Send:
        headers = _bearer(token) if token is not None else {}

        async def send() -> None:
            response = await http.get(path, headers=headers)
            if response.status_code != 200:
                raise RuntimeError(f"GET {path} answered {response.status_code}: {response.text}")

        return send

    game = f"/games/{game_id}"
    return {
        "anonymous": reader(game, None),
        "vault": reader(game, player),
        "session": reader(game, session),
        "api_token": reader(game, api_token),
        "session_me_clubs": reader("/me/clubs", session),
    }


async def _throughput(send: Send, seconds: float, concurrency: int) -> float:
    done = 0
    deadline = time.perf_counter() + seconds

    async def client() -> None:
        nonlocal done
        while time.perf_counter() < deadline:
            await send()
            done += 1

    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(concurrency)))
    return done / (time.perf_counter() - started)


async def _queries(app: Any, send: Send) -> float:
    """Statements sent to PostgreSQL per request, one request at a time (so no connection is
    opened meanwhile: the logger is on every connection the pool has open)."""
    count = 0

    def logged(_: object) -> None:
        nonlocal count
        count += 1

    # the pool's own list of connections: asyncpg has no public one
    connections = [h._con for h in app.state.resources.pool._holders if h._con is not None]
    for connection in connections:
        connection.add_query_logger(logged)
    try:
        for _ in range(COUNTED_REQUESTS):
            await send()
    finally:
        for connection in connections:
            connection.remove_query_logger(logged)
    return round(count / COUNTED_REQUESTS, 2)


def _ok(response: httpx.Response) -> None:
    if response.status_code >= 300:
        raise RuntimeError(f"{response.request.url.path} answered {response.status_code}: {response.text}")


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def render(result: dict[str, Any]) -> Table:
    table = Table(title=f"who calls: GET as each kind of caller (postgres: {result['postgres_source']})")
    table.add_column("caller")
    table.add_column("requests/s", justify="right")
    table.add_column(f"ratio to {result['anchor']}", justify="right")
    table.add_column("DB queries/request", justify="right")
    for kind, rps in result["requests_per_second"].items():
        table.add_row(
            kind,
            f"{rps:,.0f}",
            f"{result['ratio_to_anonymous'][kind]:.2f}",
            f"{result['db_queries_per_request'][kind]:.2f}",
        )
    return table
