"""`bang-league bench api`: bots play many online games at once through the HTTP API.

One API server process (uvicorn, one worker) on 127.0.0.1 with a fresh database on a
PostgreSQL and a Redis resolved by `infra` (env URL, container, or embedded in a temporary
directory). This process runs the bots: GAMES concurrent 5-player online games, each driven
by one task that sends every decision as `POST /games/{id}/commands` with the deciding
player's token (and, when the next decision is someone else's, first reads that player's
view with `GET /games/{id}`). Each game is watched by one anonymous GraphQL subscriber.

Two phases, because one design cannot answer both questions honestly:

1. **Saturated (closed loop)**: every game always has its next request in flight, until all
   games end (or TIME_BUDGET_SECONDS). This measures the most the server can do:
   `commands_per_second`. Its latencies (`saturated_p50_ms`, `saturated_p99_ms`,
   `saturated_live_update_p99_ms`) are Little's law, not speed: with GAMES requests always
   in flight, the mean time in the system is GAMES ÷ throughput (100 ms at 500/s), so a
   closed loop cannot show p99 < 50 ms at 500 commands/s on any server.
2. **At a fixed offered load (open loop)**: GAMES fresh games (each slot moves on to a
   spare game when its game ends) offer OFFERED_COMMANDS_PER_SECOND together for
   OPEN_LOOP_SECONDS: each game decides every GAMES ÷ rate seconds (100 ms at 500/s over 50
   games; a random phase per game and a ±20 % jitter per command, so arrivals do not march
   in step). A command's latency counts from its *scheduled* time, not from when it was
   sent, so a server that falls behind is charged for the wait it causes (no coordinated
   omission). This gives `p50_ms`, `p99_ms`, `live_update_p50_ms`, `live_update_p99_ms`
   (the issue's "p99 at 500 commands/s") and `achieved_commands_per_second` (commands ÷ the
   time until the last answer), which falls short of the offered rate when the server cannot
   keep up. These games' subscribers connect after phase 1, so they do not load it.

Measured in the same run:
- live-update latency: from sending a command to the subscriber receiving its last event;
- the anchor: the saturated phase's games replayed through the engine alone (no HTTP, no
  store);
- CPU milliseconds per command of the API process, PostgreSQL and this client, from /proc,
  over the saturated phase's clock only (game creation and subscription set-up excluded).

History: until the open-loop phase was added, `p50_ms`/`p99_ms`/`live_update_p99_ms` were
the closed loop's (now `saturated_*`), and the CPU figures included setting up the games.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import asyncpg
import httpx
from rich.table import Table

from bang_cli.api import token_vault
from event_store import PostgresEventStore
from infra.postgres import create_database, drop_database, resolve_postgres
from infra.redis import resolve_redis
from services.api.client import GraphQLSubscription, operation
from services.api.settings import ApiSettings, DatabaseSettings
from services.game.application.codec import GAME_MAPPER, game_stream
from services.game.edge.tokens import TokenVault
from services.game.records import inputs_from_events
from services.game.rules.dice import Event, Game, GameStarted, RollDice

GAMES = 50
PLAYERS = 5
TIME_BUDGET_SECONDS = 45.0
"""The bots stop after this long even if games are unfinished (bounded run)."""
MAX_COMMANDS_PER_GAME = 2_000
SERVER_POOL_SIZE = 10
START_TIMEOUT_SECONDS = 30.0
TARGET_COMMANDS_PER_SECOND = 500
TARGET_P99_MS = 50.0
OFFERED_COMMANDS_PER_SECOND = 500
"""The open-loop phase's load, all games together."""
OPEN_LOOP_SECONDS = 7.0
OPEN_LOOP_GAMES_PER_SLOT = 3
_SHED_RETRY_SECONDS = 0.05
"""Games created for each open-loop slot (a slot moves on to the next when one ends)."""
OPEN_LOOP_JITTER = 0.2
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class CommandRefused(RuntimeError):
    """A command answered with anything but 200 (the rules or the server said no)."""


@dataclass(slots=True)
class GameRun:
    game_id: str
    tokens: dict[str, str]
    command_ms: list[float] = field(default_factory=list)
    sent: list[tuple[float, int]] = field(default_factory=list)
    """(when a command was sent, the version its batch ended at)."""
    received: dict[int, float] = field(default_factory=dict)
    """version → when the subscriber got it."""
    reads: int = 0
    shed: int = 0
    """503 answers (the server shed load) that the bench retried under the same command id."""
    finished: bool = False


class LoopbackHTTP:
    """A bare HTTP/1.1 keep-alive connection for the bots: httpx costs ~2-3 ms of CPU per
    request, which on a 2-core machine would be taken from the server being measured.
    JSON bodies, Content-Length framing only (what the API answers)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        payload = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: {len(payload)}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        if token is not None:
            head += f"Authorization: Bearer {token}\r\n"
        request = head.encode() + b"\r\n" + payload
        for attempt in range(2):
            if self._writer is None:
                self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
            assert self._reader is not None
            try:
                self._writer.write(request)
                status_line = await self._reader.readline()
            except ConnectionError:
                if attempt:
                    raise
                status_line = b""
            if status_line or attempt:
                break
            # the server closed this keep-alive connection while it was idle (uvicorn: after
            # 5 s) before reading the request: open a new one and send it again
            await self.close()
        length = 0
        while (line := await self._reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        status = int(status_line.split()[1])
        data = await self._reader.readexactly(length)
        return status, json.loads(data) if data else None

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None


def run(games: int = GAMES, time_budget: float = TIME_BUDGET_SECONDS) -> dict[str, Any]:
    return asyncio.run(_run(games, time_budget))


async def _run(games: int, time_budget: float) -> dict[str, Any]:
    with resolve_postgres() as postgres, resolve_redis() as redis:
        dsn = await create_database(postgres.dsn, prefix="benchapi")
        try:
            port = _free_port()
            server = _start_server(dsn, redis.url, port)
            try:
                base = f"127.0.0.1:{port}"
                await _wait_healthy(base, server)
                settings = ApiSettings(database=DatabaseSettings(url=dsn))
                pid = server.pid
                async with token_vault(settings) as vault:
                    organiser = await vault.issue_organiser("bench")

                    def cpu() -> dict[str, float]:
                        return _cpu_seconds(pid, postgres_pids(dsn))

                    result = await _play(base, organiser, vault, games, time_budget, cpu)
            finally:
                server.terminate()
                server.wait(timeout=15)
            result |= await _engine_anchor(dsn, result.pop("_runs"))
            cpu_before, cpu_after = result.pop("_cpu")
            commands = max(result["commands"], 1)
            result["cpu_ms_per_command"] = {
                k: round((cpu_after[k] - cpu_before[k]) * 1000 / commands, 3) for k in cpu_after
            }
            result["postgres_source"] = postgres.source
            result["redis_source"] = redis.source
            result["cpus"] = os.cpu_count()
            return result
        finally:
            await drop_database(postgres.dsn, dsn)


def _start_server(dsn: str, redis_url: str, port: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "BANG_DATABASE_URL": dsn,
        "BANG_REDIS_URL": redis_url,
        "BANG_DATABASE_POOL_SIZE": str(SERVER_POOL_SIZE),
        # every bot and watcher is on 127.0.0.1: budgets the benchmark never reaches (the
        # limiter still runs, so its cost is measured)
        "BANG_API_RATE_LIMIT": "1000000/second",
        "BANG_API_RATE_LIMIT_ANONYMOUS": "1000000/second",
    }
    command = [
        sys.executable, "-m", "uvicorn", "services.api.asgi:app",
        "--host", "127.0.0.1", "--port", str(port),
        "--ws", "websockets-sansio", "--log-level", "warning", "--no-access-log",
    ]  # fmt: skip
    root = Path(__file__).resolve().parents[2]
    return subprocess.Popen(command, env=env, cwd=root)


async def _wait_healthy(base: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    async with httpx.AsyncClient(base_url=f"http://{base}") as client:
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise RuntimeError(f"the API server exited with {server.returncode}")
            try:
                if (await client.get("/health")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError("the API server did not become healthy")


async def _play(
    base: str,
    organiser: str,
    vault: TokenVault,
    games: int,
    time_budget: float,
    cpu: Callable[[], dict[str, float]],
) -> dict[str, Any]:
    host, port = base.split(":")
    connections = [LoopbackHTTP(host, int(port)) for _ in range(games)]
    watchers: list[asyncio.Task[None]] = []
    try:
        # set-up, off the clock: every game of both phases created and watched
        runs = await _create_all(connections, organiser, vault, 0, games)
        spares = await _create_all(connections, organiser, vault, games, games * OPEN_LOOP_GAMES_PER_SLOT)
        slots = [spares[i::games] for i in range(games)]
        watchers = [asyncio.create_task(_watch(base, r)) for r in runs]
        await asyncio.sleep(0.5)  # let every subscription settle before the clock starts

        # 1. saturated: each game always has its next request in flight
        deadline = time.monotonic() + time_budget
        cpu_before = cpu()
        started = time.perf_counter()
        await asyncio.gather(
            *(_drive(connections[i], r, random.Random(i), deadline) for i, r in enumerate(runs))
        )
        elapsed = time.perf_counter() - started
        cpu_after = cpu()
        await asyncio.sleep(0.5)  # the last live updates
        for connection in connections:  # fresh ones: the server closes keep-alives idle for 5 s
            await connection.close()
        watchers += [asyncio.create_task(_watch(base, r)) for r in spares]
        await asyncio.sleep(1.0)

        # 2. open loop: a fixed offered rate, latency counted from each command's scheduled time
        period = games / OFFERED_COMMANDS_PER_SECOND
        open_start = time.perf_counter() + 0.05
        open_end = open_start + OPEN_LOOP_SECONDS
        await asyncio.gather(
            *(
                _drive_open(connections[i], slot, random.Random(1000 + i), open_start, open_end, period)
                for i, slot in enumerate(slots)
            )
        )
        open_elapsed = time.perf_counter() - open_start
        await asyncio.sleep(0.5)  # the last live updates
    finally:
        for watcher in watchers:
            watcher.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)
        for connection in connections:
            await connection.close()
    saturated = _latencies(runs)
    measured = _latencies(spares)
    commands = len(saturated[0])
    open_commands = len(measured[0])
    return {
        "games": games,
        "players": PLAYERS,
        "games_finished": sum(r.finished for r in runs),
        "commands": commands,
        "state_reads": sum(r.reads for r in runs),
        "shed_503": sum(r.shed for r in runs) + sum(r.shed for r in spares),
        "seconds": round(elapsed, 2),
        "commands_per_second": round(commands / elapsed, 1),
        "requests_per_second": round((commands + sum(r.reads for r in runs)) / elapsed, 1),
        "saturated_p50_ms": round(_percentile(saturated[0], 50), 2),
        "saturated_p99_ms": round(_percentile(saturated[0], 99), 2),
        "saturated_live_update_p50_ms": round(_percentile(saturated[1], 50), 2),
        "saturated_live_update_p99_ms": round(_percentile(saturated[1], 99), 2),
        "offered_commands_per_second": OFFERED_COMMANDS_PER_SECOND,
        "achieved_commands_per_second": round(open_commands / open_elapsed, 1),
        "open_loop_commands": open_commands,
        "open_loop_seconds": round(open_elapsed, 2),
        "p50_ms": round(_percentile(measured[0], 50), 2),
        "p99_ms": round(_percentile(measured[0], 99), 2),
        "live_updates": len(measured[1]),
        "live_update_p50_ms": round(_percentile(measured[1], 50), 2),
        "live_update_p99_ms": round(_percentile(measured[1], 99), 2),
        "client_cpu_seconds": round(cpu_after["bench_client"] - cpu_before["bench_client"], 2),
        "_runs": runs,
        "_cpu": (cpu_before, cpu_after),
    }


def _latencies(runs: list[GameRun]) -> tuple[list[float], list[float]]:
    """(command latencies, live-update latencies) in ms."""
    commands = [ms for r in runs for ms in r.command_ms]
    live = [
        (r.received[version] - sent) * 1000 for r in runs for sent, version in r.sent if version in r.received
    ]
    return commands, live


async def _create_all(
    connections: list[LoopbackHTTP], organiser: str, vault: TokenVault, first: int, count: int
) -> list[GameRun]:
    """Games ``first`` … ``first + count - 1``, created over all connections at once."""
    runs: list[GameRun | None] = [None] * count

    async def create_on(c: int) -> None:
        for n in range(c, count, len(connections)):
            runs[n] = await _create(connections[c], organiser, vault, first + n)

    await asyncio.gather(*(create_on(c) for c in range(min(len(connections), count))))
    return [r for r in runs if r is not None]


async def _create(http: LoopbackHTTP, organiser: str, vault: TokenVault, n: int) -> GameRun:
    members = [{"member_id": f"g{n}-m{i}", "name": f"Bot {i}"} for i in range(PLAYERS)]
    spec = {"command_id": f"bench-{n}", "mode": "online", "player_count": PLAYERS, "members": members}
    status, created = await http.request("POST", "/games", spec, organiser)
    if status != 201:
        raise RuntimeError(f"creating a game failed: {status} {created}")
    # the API hands out no player tokens (issue 11); the bench issues them as an operator
    # would, off the clock, so each command is authenticated exactly as a player's is
    game_id = created["game_id"]
    tokens = {m["member_id"]: await vault.issue_player(game_id, m["member_id"]) for m in members}
    return GameRun(game_id, tokens)


async def _watch(base: str, run: GameRun) -> None:
    # one message per command (gameUpdates), as a client that wants every event would watch
    query = operation("WatchGameUpdates")
    async with GraphQLSubscription(f"ws://{base}/graphql", query, {"id": run.game_id}) as sub:
        async for data in sub:
            now = time.perf_counter()
            for event in data["gameUpdates"]["events"]:  # one read may carry several commands
                run.received[event["version"]] = now


async def ready_awaited(
    http: LoopbackHTTP, run: GameRun, url: str, state: dict[str, Any], member_of: dict[str, str]
) -> tuple[str, dict[str, Any]]:
    """The token of the player the game awaits, and a state that lists their legal commands
    (a state received by somebody else has none: read it again as the awaited player)."""
    token = run.tokens[member_of[state["awaiting"]["player"]]]
    if not state["legal_commands"]:
        _, state = await http.request("GET", url, token=token)
        run.reads += 1
    return token, state


async def send_command(
    http: LoopbackHTTP,
    run: GameRun,
    url: str,
    state: dict[str, Any],
    token: str,
    command_id: str,
    rng: random.Random,
    *,
    latency_from: float | None,
    retry_unavailable: bool = False,
) -> dict[str, Any]:
    """Play a random legal command; its latency counts from ``latency_from`` (the open loop's
    scheduled time) or from the moment it is first sent. Returns the state it answered with.

    With ``retry_unavailable`` a 503 (a saturated server sheds load rather than queue past its
    database timeouts) is counted and the same body resent under the same command id, as a
    client would after ``Retry-After`` (sooner here: the bench measures the server, not the wait)."""
    body = {"command": rng.choice(state["legal_commands"]), "command_id": command_id}
    sent = time.perf_counter()
    status, played = await http.request("POST", f"{url}/commands", body, token)
    while retry_unavailable and status == 503:
        run.shed += 1
        await asyncio.sleep(_SHED_RETRY_SECONDS)
        status, played = await http.request("POST", f"{url}/commands", body, token)
    run.command_ms.append((time.perf_counter() - (sent if latency_from is None else latency_from)) * 1000)
    if status != 200:
        raise CommandRefused(f"command refused: {status} {played}")
    run.sent.append((sent, played["version"]))
    return played["state"]


async def _drive(http: LoopbackHTTP, run: GameRun, rng: random.Random, deadline: float) -> None:
    url = f"/games/{run.game_id}"
    _, state = await http.request("GET", url)
    member_of = {p["id"]: p["member_id"] for p in state["players"]}
    for n in range(MAX_COMMANDS_PER_GAME):
        if state["status"] != "ongoing":
            run.finished = True
            return
        if time.monotonic() > deadline:
            return
        token, state = await ready_awaited(http, run, url, state, member_of)
        state = await send_command(
            http, run, url, state, token, f"c{n}", rng, latency_from=None, retry_unavailable=True
        )


async def _drive_open(
    http: LoopbackHTTP, games: list[GameRun], rng: random.Random, start: float, end: float, period: float
) -> None:
    """One slot of the open loop: its games one after another, a decision every ``period``
    seconds (random phase, ±OPEN_LOOP_JITTER per command); latency from the scheduled time."""
    scheduled = start + rng.uniform(0, period)
    for run in games:
        url = f"/games/{run.game_id}"
        _, state = await http.request("GET", url)
        member_of = {p["id"]: p["member_id"] for p in state["players"]}
        for n in range(MAX_COMMANDS_PER_GAME):
            if state["status"] != "ongoing":
                run.finished = True
                break
            token, state = await ready_awaited(http, run, url, state, member_of)
            if scheduled >= end:
                return
            if (wait := scheduled - time.perf_counter()) > 0:
                await asyncio.sleep(wait)
            state = await send_command(
                http, run, url, state, token, f"c{n}", rng, latency_from=scheduled, retry_unavailable=True
            )
            scheduled += period * rng.uniform(1 - OPEN_LOOP_JITTER, 1 + OPEN_LOOP_JITTER)


async def _engine_anchor(dsn: str, runs: list[GameRun]) -> dict[str, Any]:
    """The same games' inputs through the engine alone: the upper bound for the API."""
    pool = await asyncpg.create_pool(dsn, min_size=1, max_size=2)
    assert pool is not None
    try:
        store = PostgresEventStore(pool, mapper=GAME_MAPPER)
        games = []
        for run in runs:
            events = [GAME_MAPPER.to_domain(r) for r in await store.read_stream(game_stream(run.game_id))]
            started = next(i for i, e in enumerate(events) if isinstance(e, GameStarted))
            engine_events = [e for e in events[started:] if isinstance(e, Event)]
            games.append((engine_events[0], inputs_from_events(engine_events[1:])))
    finally:
        await pool.close()
    decisions = sum(1 for _s, inputs in games for c in inputs if not isinstance(c, RollDice))
    began = time.perf_counter()
    for started_event, inputs in games:
        game = Game.start(started_event.seats, started_event.position)
        for command in inputs:
            game.play(command)
    seconds = time.perf_counter() - began
    return {
        "engine_only_commands_per_second": round(decisions / seconds, 1),
        "engine_only_note": "player decisions replayed with their server rolls, one core, no I/O",
    }


def postgres_pids(dsn: str) -> list[int]:
    """The embedded server's postmaster and its backends (found through the postmaster.pid
    in its socket directory, which is its data directory); [] for a server elsewhere."""
    host = parse_qs(urlsplit(dsn).query).get("host", [None])[0]
    if host is None or not (Path(host) / "postmaster.pid").exists():
        return []
    postmaster = int((Path(host) / "postmaster.pid").read_text().split()[0])
    pids = [postmaster]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == postmaster:
                    pids.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    return pids


def _cpu_seconds(server_pid: int, postgres: list[int]) -> dict[str, float]:
    return {
        "api_server": _process_cpu(server_pid),
        "postgres": sum(_process_cpu(pid) for pid in postgres),
        "bench_client": time.process_time(),
    }


def _process_cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS  # utime + stime


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def render(result: dict[str, Any]) -> Table:
    table = Table(
        title=f"API: {result['games']} concurrent {result['players']}-player online games, one server process"
    )
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("aim / anchor", justify="right")
    table.add_row(
        "commands/s, saturated", f"{result['commands_per_second']:,.0f}", f"≥ {TARGET_COMMANDS_PER_SECOND}"
    )
    table.add_row(
        "  latency p50 / p99 (closed loop: Little's law)",
        f"{result['saturated_p50_ms']:.1f} / {result['saturated_p99_ms']:.1f} ms",
        "",
    )
    table.add_row(
        f"at {result['offered_commands_per_second']} commands/s offered: achieved",
        f"{result['achieved_commands_per_second']:,.0f}",
        "",
    )
    table.add_row("  command latency p50", f"{result['p50_ms']:.1f} ms", "")
    table.add_row("  command latency p99", f"{result['p99_ms']:.1f} ms", f"< {TARGET_P99_MS:.0f} ms")
    table.add_row("  live update p99 (command → subscriber)", f"{result['live_update_p99_ms']:.1f} ms", "")
    table.add_row(
        "engine only (same games)",
        f"{result['engine_only_commands_per_second']:,.0f} commands/s",
        "upper bound",
    )
    cpu = result["cpu_ms_per_command"]
    table.add_row(
        "CPU per command",
        f"api {cpu['api_server']:.2f} · pg {cpu['postgres']:.2f} · bots {cpu['bench_client']:.2f} ms",
        f"{result['cpus']} cores",
    )
    table.caption = (
        f"saturated: {result['commands']} commands + {result['state_reads']} state reads in "
        f"{result['seconds']} s, {result['games_finished']}/{result['games']} games finished; "
        f"open loop: {result['open_loop_commands']} commands in {result['open_loop_seconds']} s"
    )
    return table


__all__ = ["render", "run"]
