"""`bang-league bench health-under-load`: does a client spending its whole rate limit on the
dearest REST routes slow everybody else down?

Issue 20 (finding 3): one 35 KB record import wrote 7,016 events in 22.6 s, charged as one
request, and anonymous time-travel reads of such games refolded 3,500 events each: at 6 reads a
second, other users saw ``/health`` answer in 0.53 s at the median. Since then an import is
bounded and charged by its inputs, and a version read folds from the nearest snapshot and is
charged by the events it folds (docs/api.md, "Limits").

One API server process (uvicorn, one worker) on 127.0.0.1, with the **default rate limits**,
on a fresh database (PostgreSQL and Redis resolved by ``infra``). Set-up, off the clock: two
long card games (8 bots, 3,262 events: the longest of the simulator's first 150) imported
through ``POST /records``, each by a token of its own. Then, in the same run:

1. **anchor**: ``/health`` probed ``HEALTH_PROBES_PER_SECOND`` times a second for
   ``anchor_seconds`` with nothing else running;
2. **under load**, for ``seconds``: the same probes while an anonymous client sends
   ``GET /games/{id}/versions/{v}`` (random versions of both games) at its whole budget
   (``READS_PER_SECOND``, the anonymous limit), and a token sends ``POST /records`` of the long
   game every ``IMPORT_EVERY_SECONDS`` (at most ``IMPORTS_IN_FLIGHT`` under way: each one that
   its budget lets through runs for seconds).

Every request is sent on its schedule (open loop), whatever the answers were; a probe's
latency counts from its scheduled time, so a server that falls behind is charged for the wait
(no coordinated omission). The figures: ``/health`` p50/p99 with and without the load, and
what the loading clients got (answered, refused with 429 or, an import kept waiting for its
turn, 503). And, off the clock, the API process's CPU (``psutil``) per imported input (the
second set-up import) and per version read (``CALIBRATION_READS`` reads one at a time, within
the budget): what ``services/game/edge/cost.py``'s charges are calibrated to. The aim is
``/health`` p99 under ``TARGET_HEALTH_P99_MS`` under the load; it is reported
(``health_p99_met``), never asserted.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
from rich.table import Table

from bang_cli.api import token_vault
from infra.postgres import create_database, drop_database, resolve_postgres
from infra.redis import resolve_redis
from ops.bench import api
from ops.bench.api import LoopbackHTTP, _free_port, _percentile
from services.api.settings import ApiSettings, DatabaseSettings

LOAD_SECONDS = 20.0
ANCHOR_SECONDS = 5.0
HEALTH_PROBES_PER_SECOND = 20
READS_PER_SECOND = 100
"""The default anonymous budget (``LimitSettings.anonymous_rate_limit``: 100/second)."""
READ_CONNECTIONS = 8
IMPORT_EVERY_SECONDS = 0.5
IMPORTS_IN_FLIGHT = 4
GAMES = 2
TARGET_HEALTH_P99_MS = 200.0
START_TIMEOUT_SECONDS = 120.0
"""The server's start (migrations on a fresh database) on a busy 2-core machine."""
CALIBRATION_READS = 20
"""Version reads timed one by one for ``read_cpu_ms``."""
CALIBRATION_PAUSE_SECONDS = 0.3
PLAYERS = 8
GAME_INDEX = 19
"""Game 19 of ``simulate --game cards --players 8 --seed 0``: 3,262 events, 762 inputs."""


@dataclass(slots=True)
class Load:
    reads: Counter[int] = field(default_factory=Counter)
    """Status → version reads answered with it."""
    imports: Counter[int] = field(default_factory=Counter)
    health_ms: list[float] = field(default_factory=list)


def long_record() -> dict[str, Any]:
    from services.game import simulation_cards
    from services.game.bots.cards import CARD_BOTS
    from services.game.records.cards import write_card_record

    players, index = PLAYERS, GAME_INDEX
    rng, table = simulation_cards.game_seeds(0, index, players)
    game = simulation_cards.play_game(
        simulation_cards.deal(players, table), CARD_BOTS["heuristic"](), table, rng
    )
    record: dict[str, Any] = json.loads(write_card_record(game))
    return record


def run(seconds: float = LOAD_SECONDS, anchor_seconds: float | None = None) -> dict[str, Any]:
    """``anchor_seconds``: ``ANCHOR_SECONDS`` unless given."""
    anchor = ANCHOR_SECONDS if anchor_seconds is None else anchor_seconds
    return asyncio.run(_run(seconds, anchor, long_record()))


async def _run(seconds: float, anchor_seconds: float, record: dict[str, Any]) -> dict[str, Any]:
    with resolve_postgres() as postgres, resolve_redis() as redis:
        dsn = await create_database(postgres.dsn, prefix="benchhealth")
        try:
            port = _free_port()
            server = _start_server(dsn, redis.url, port)
            try:
                base = f"127.0.0.1:{port}"
                await _wait_healthy(base, server)
                async with token_vault(ApiSettings(database=DatabaseSettings(url=dsn))) as vault:
                    setup = [await vault.issue_organiser(f"setup-{n}") for n in range(GAMES)]
                    importer = await vault.issue_organiser("importer")
                    http = LoopbackHTTP("127.0.0.1", port)
                    cpu = psutil.Process(server.pid)
                    versions = []
                    for n, token in enumerate(setup):
                        before = _cpu_ms(cpu)
                        versions.append(await _import(http, token, record, f"long-{n}"))
                        import_cpu_ms = _cpu_ms(cpu) - before  # the second: the first warms up
                    read_cpu_ms = await _read_cost(http, cpu, versions)
                    await http.close()
                    anchor = await _probe_health(base, anchor_seconds)
                    load = await _loaded(base, seconds, versions, record, importer)
            finally:
                server.terminate()
                server.wait(timeout=15)
        finally:
            await drop_database(postgres.dsn, dsn)
    p99 = _percentile(load.health_ms, 99)
    inputs = len(record["inputs"]) + (1 if record.get("deck") else 0)
    return {
        "seconds": seconds,
        "anchor_seconds": anchor_seconds,
        "game_versions": versions,
        "health_probes_per_second": HEALTH_PROBES_PER_SECOND,
        "anchor_health_p50_ms": round(_percentile(anchor, 50), 2),
        "anchor_health_p99_ms": round(_percentile(anchor, 99), 2),
        "health_p50_ms": round(_percentile(load.health_ms, 50), 2),
        "health_p99_ms": round(p99, 2),
        "health_probes": len(load.health_ms),
        "target_health_p99_ms": TARGET_HEALTH_P99_MS,
        "health_p99_met": p99 < TARGET_HEALTH_P99_MS,
        "reads_offered_per_second": READS_PER_SECOND,
        "reads": {str(k): v for k, v in sorted(load.reads.items())},
        "imports_offered_per_second": round(1 / IMPORT_EVERY_SECONDS, 2),
        "imports": {str(k): v for k, v in sorted(load.imports.items())},
        "record_inputs": inputs,
        "import_cpu_ms_per_input": round(import_cpu_ms / inputs, 3),
        "read_cpu_ms": round(read_cpu_ms, 3),
        "postgres_source": postgres.source,
        "redis_source": redis.source,
        "cpus": os.cpu_count(),
    }


def _start_server(dsn: str, redis_url: str, port: int) -> subprocess.Popen[bytes]:
    """The API as deployed: its default rate limits (the point of the benchmark)."""
    env = {**os.environ, "BANG_DATABASE_URL": dsn, "BANG_REDIS_URL": redis_url}
    for name in ("BANG_API_RATE_LIMIT", "BANG_API_RATE_LIMIT_ANONYMOUS"):
        env.pop(name, None)
    command = [
        sys.executable, "-m", "uvicorn", "services.api.asgi:app",
        "--host", "127.0.0.1", "--port", str(port),
        "--log-level", "warning", "--no-access-log",
    ]  # fmt: skip
    return subprocess.Popen(command, env=env, cwd=Path(__file__).resolve().parents[2])


async def _wait_healthy(base: str, server: subprocess.Popen[bytes]) -> None:
    started = time.monotonic()
    while True:
        try:
            await api._wait_healthy(base, server)
            return
        except RuntimeError:
            if server.poll() is not None or time.monotonic() - started > START_TIMEOUT_SECONDS:
                raise


def _cpu_ms(process: psutil.Process) -> float:
    times = process.cpu_times()
    return (times.user + times.system) * 1000


async def _read_cost(http: LoopbackHTTP, cpu: psutil.Process, versions: list[int]) -> float:
    """The API's CPU per version read, one at a time, off the clock: random versions of both
    games, after a read of each game's last version (which leaves its snapshots, as under the
    load), each read within the anonymous budget (``CALIBRATION_PAUSE_SECONDS`` apart)."""
    rng = random.Random(7)
    for n, version in enumerate(versions):
        await http.request("GET", f"/games/long-{n}/versions/{version}")
        await asyncio.sleep(2.5)  # its charge was the whole budget: the window passes
    spent = 0.0
    for _ in range(CALIBRATION_READS):
        n = rng.randrange(len(versions))
        before = _cpu_ms(cpu)
        status, _ = await http.request("GET", f"/games/long-{n}/versions/{rng.randint(1, versions[n])}")
        spent += _cpu_ms(cpu) - before
        if status != 200:
            raise RuntimeError(f"calibrating: a version read was answered {status}")
        await asyncio.sleep(CALIBRATION_PAUSE_SECONDS)
    return spent / CALIBRATION_READS


async def _import(http: LoopbackHTTP, token: str, record: dict[str, Any], game_id: str) -> int:
    body = {"command_id": f"import-{game_id}", "record": record, "game_id": game_id}
    status, answer = await http.request("POST", "/records", body, token)
    if status != 201:
        raise RuntimeError(f"setting up: importing {game_id} was answered {status}: {answer}")
    version: int = answer["version"]
    return version


_PROBER = "import sys; from ops.bench.health_under_load import probe_main; probe_main(*sys.argv[1:])"


async def _probe_health(base: str, seconds: float) -> list[float]:
    """``/health`` every 1/HEALTH_PROBES_PER_SECOND s, from a process of its own (this one
    also drives the load, and its own event loop must not delay the probes); ms from each
    probe's scheduled time."""
    prober = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _PROBER, base, str(seconds),
        stdout=asyncio.subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[2],
    )  # fmt: skip
    out, _ = await prober.communicate()
    if prober.returncode != 0:
        raise RuntimeError(f"the /health prober exited with {prober.returncode}")
    latencies: list[float] = json.loads(out)
    return latencies


def probe_main(base: str, seconds: str) -> None:
    """The prober's process: prints the latencies as one JSON list."""
    print(json.dumps(asyncio.run(_probe(base, float(seconds)))))


async def _probe(base: str, seconds: float) -> list[float]:
    host, port = base.split(":")
    http = LoopbackHTTP(host, int(port))
    period = 1 / HEALTH_PROBES_PER_SECOND
    start = time.perf_counter() + 0.05
    latencies: list[float] = []
    try:
        for n in range(max(1, int(seconds * HEALTH_PROBES_PER_SECOND))):
            scheduled = start + n * period
            await asyncio.sleep(max(0.0, scheduled - time.perf_counter()))
            status, _ = await http.request("GET", "/health")
            if status != 200:
                raise RuntimeError(f"/health answered {status}")
            latencies.append((time.perf_counter() - scheduled) * 1000)
    finally:
        await http.close()
    return latencies


async def _loaded(
    base: str, seconds: float, versions: list[int], record: dict[str, Any], importer: str
) -> Load:
    host, port = base.split(":")
    load = Load()
    end = time.perf_counter() + seconds
    pool: asyncio.Queue[LoopbackHTTP] = asyncio.Queue()
    for _ in range(READ_CONNECTIONS):
        pool.put_nowait(LoopbackHTTP(host, int(port)))
    rng = random.Random(20)
    tasks: set[asyncio.Task[None]] = set()

    async def read(path: str) -> None:
        http = await pool.get()
        try:
            status, _ = await http.request("GET", path)
            load.reads[status] += 1
        finally:
            pool.put_nowait(http)

    async def reads() -> None:
        period = 1 / READS_PER_SECOND
        start = time.perf_counter()
        n = 0
        while (scheduled := start + n * period) < end:
            await asyncio.sleep(max(0.0, scheduled - time.perf_counter()))
            game = rng.randrange(len(versions))
            path = f"/games/long-{game}/versions/{rng.randint(1, versions[game])}"
            if pool.empty():
                load.reads[0] += 1  # every connection still waiting: counted as not sent
            else:
                task = asyncio.create_task(read(path))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
            n += 1

    in_flight = 0

    async def one_import(n: int) -> None:
        nonlocal in_flight
        http = LoopbackHTTP(host, int(port))
        try:
            body = {"command_id": f"load-{n}", "record": record, "game_id": f"load-{n}"}
            status, _ = await http.request("POST", "/records", body, importer)
            load.imports[status] += 1
        finally:
            in_flight -= 1
            await http.close()

    async def imports() -> None:
        nonlocal in_flight
        n = 0
        while time.perf_counter() < end:
            if in_flight < IMPORTS_IN_FLIGHT:
                in_flight += 1
                task = asyncio.create_task(one_import(n))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
            else:
                load.imports[0] += 1  # not sent: as many under way as the client keeps
            n += 1
            await asyncio.sleep(IMPORT_EVERY_SECONDS)

    async def health() -> None:
        load.health_ms = await _probe_health(base, seconds)

    try:
        await asyncio.gather(reads(), imports(), health())
        if tasks:  # the imports and reads still under way: waited for, off the clock
            await asyncio.wait(set(tasks), timeout=120)
    finally:
        for task in list(tasks):
            task.cancel()
        while not pool.empty():
            await pool.get_nowait().close()
    return load


def render(result: dict[str, Any]) -> Table:
    table = Table(
        title=f"/health under one client's whole budget of imports and version reads ({result['cpus']} CPUs)"
    )
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_row(
        "/health p50 / p99, no load (anchor)",
        f"{result['anchor_health_p50_ms']} / {result['anchor_health_p99_ms']} ms",
    )
    table.add_row(
        "/health p50 / p99, under load", f"{result['health_p50_ms']} / {result['health_p99_ms']} ms"
    )
    table.add_row(
        f"p99 under {result['target_health_p99_ms']:.0f} ms", "yes" if result["health_p99_met"] else "no"
    )
    table.add_row(
        f"version reads offered ({result['reads_offered_per_second']}/s): by status",
        json.dumps(result["reads"]),
    )
    table.add_row(
        f"imports offered ({result['imports_offered_per_second']}/s): by status",
        json.dumps(result["imports"]),
    )
    table.add_row("games read (versions)", ", ".join(map(str, result["game_versions"])))
    table.add_row(
        "API CPU per imported input / per version read (calibration)",
        f"{result['import_cpu_ms_per_input']} / {result['read_cpu_ms']} ms",
    )
    return table
