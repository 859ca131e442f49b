"""Twin servers for the non-interference proof (``test_non_interference.py``).

Two API apps, each on its own fresh database and under its own uvicorn (with the production
log level, so access lines are logged), hold the same game: same id, members, names, seats,
characters and inputs, except that two hidden roles are swapped. ``Twin.look`` reads every
channel a viewer can reach and returns the bodies; ``differences`` compares two such readings.

What is normalised, and why it cannot carry a role:
- wall-clock timestamps (``recorded_at``, log times): when the server did something, not what;
- in log lines only, pids, durations, request ids and the client's ephemeral TCP port: the
  operating system's and the clock's numbers;
- in /metrics only, the process-wide readings (CPU seconds, memory, file descriptors, the
  garbage collector: both apps live in this one test process, so those cannot be told apart
  by game) and the time histograms' buckets and sums (their counts are kept). Counters are
  compared as the change they made while one twin was served, as the registry is shared.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import io
import json
import logging
import random
import re
import shutil
import subprocess
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import structlog
import uvicorn
from litestar import Litestar
from prometheus_client.parser import text_string_to_metric_families
from typer.testing import CliRunner
from websockets.asyncio.client import ClientConnection, connect

from bang_cli.main import app as cli
from infra.postgres import ResolvedPostgres, create_database, drop_database
from services.api import ApiSettings, create_app
from services.api.app import Resources
from services.api.client import PROTOCOL, operation
from services.game.bots import HeuristicBot
from services.game.fairness.dice import SeededDice
from services.game.rules.dice import Decision, Game, GameCommand, Role, RollDice, Seat
from services.game.rules.dice.commands import PassWindow, UseRole
from services.game.rules.dice.events import Event, GameEnded, PlayerEliminated
from services.game.rules.dice.modules import BASE_GAME_RULES, Rules
from services.runtime.logging import configure_logging
from tests.integration.api.bots import bearer
from tests.integration.api.conftest import free_port

from .conftest import dashboard_operation

# --- the inputs ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Script:
    """The inputs both twins get: ``moves[:-1]`` keep the swapped roles hidden, the last one
    reveals one of them (an elimination, or the end of the game)."""

    seats: tuple[Seat, ...]
    """Twin A's seats; twin B's are ``swapped_seats()``."""
    swapped: tuple[str, str]
    moves: tuple[GameCommand, ...]

    @property
    def prefix(self) -> tuple[GameCommand, ...]:
        return self.moves[:-1]

    @property
    def reveal(self) -> GameCommand:
        return self.moves[-1]

    def swapped_seats(self) -> tuple[Seat, ...]:
        return swap_roles(self.seats, *self.swapped)


def swap_roles(seats: Sequence[Seat], a: str, b: str) -> tuple[Seat, ...]:
    """The seats with ``a``'s and ``b``'s hidden cards swapped: their roles and their special
    role cards (OS3)."""
    card = {s.player: (s.role, s.special) for s in seats}
    card[a], card[b] = card[b], card[a]  # type: ignore[index]
    return tuple(
        Seat(player=s.player, role=card[s.player][0], character=s.character, special=card[s.player][1])
        for s in seats
    )


def hidden_pair(seats: Sequence[Seat]) -> tuple[str, str]:
    """The Deputy's seat and the first Outlaw's: two hidden roles of different sides."""
    deputy = next(s.player for s in seats if s.role is Role.DEPUTY)
    outlaw = next(s.player for s in seats if s.role is Role.OUTLAW)
    return deputy, outlaw


def _reveals(events: Sequence[Event], swapped: tuple[str, str]) -> bool:
    return any(
        isinstance(e, GameEnded) or (isinstance(e, PlayerEliminated) and e.player in swapped) for e in events
    )


def write_script(
    seats: Sequence[Seat],
    swapped: tuple[str, str],
    *,
    bot_seed: int,
    dice: SeededDice,
    server_rolls: bool,
    rules: Rules = BASE_GAME_RULES,
) -> Script:
    """Play the game in memory (bots decide, ``dice`` answers every roll) until a swapped role
    is revealed. With ``server_rolls`` the rolls are left out of the moves, as the server of
    an online game rolls them from the same face stream in the same order. With OS3 the
    swapped players never use their special role (that use would reveal it): a window the
    bots leave is passed, as the scorekeeper would."""
    game = Game.start(list(seats), rules=rules)
    rng, bot = random.Random(bot_seed), HeuristicBot(0.8)
    moves: list[GameCommand] = []

    def roll() -> list[Event]:
        question = game.awaiting
        assert question is not None
        return game.play(RollDice(player=question.player, faces=dice.roll(len(question.dice))))

    def server_roll() -> list[Event]:
        produced: list[Event] = []
        while server_rolls and game.awaiting is not None and game.awaiting.decision is Decision.ROLL:
            produced += roll()
        return produced

    server_roll()
    while True:
        question = game.awaiting
        assert question is not None
        if question.decision is Decision.ROLL:
            command: GameCommand = RollDice(player=question.player, faces=dice.roll(len(question.dice)))
        else:
            command = bot.choose(game, question, rng)
            if isinstance(command, UseRole) and command.player in swapped:
                command = PassWindow(player=question.player)
        events = game.play(command)
        events += server_roll()
        moves.append(command)
        if _reveals(events, swapped):
            return Script(tuple(seats), swapped, tuple(moves))


def dice_for(label: str) -> SeededDice:
    return SeededDice(hashlib.sha256(label.encode()).digest())


# --- normalising ----------------------------------------------------------------------------------

_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?")
_CLIENT_PORT = re.compile(r"(127\.0\.0\.1(?::|'?, ))\d+")
_PID = re.compile(r"(process \[?|pid[=: ]+)\d+", re.IGNORECASE)
_LOG_NUMBERS = frozenset({"pid", "process_id", "duration", "duration_ms", "elapsed", "request_id"})


GAME_LOG = Path(__file__).with_name("game_log.mjs")


def game_log(state: str, events: str) -> str:
    """The game log the dashboard's pages draw for a viewer from that viewer's own answers (the
    game's state for the players' names, its redacted events): ``js/game-log.js`` under node."""
    node = shutil.which("node") or shutil.which("nodejs")
    assert node, "node is missing: `make setup` installs nodejs (apt-get install nodejs)"
    bodies = {}
    for name, answer in (("state", state), ("events", events)):
        status, _, body = answer.partition(" ")  # Twin.get's "200 {…}"
        assert status == "200", answer[:200]
        bodies[name] = json.loads(body)
    given = json.dumps(bodies)
    done = subprocess.run(
        [node, str(GAME_LOG)], input=given, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout, "the game log is empty"
    return done.stdout


def timeless(text: str) -> str:
    return _TIME.sub("<time>", text)


def log_line(line: str) -> str:
    """One JSON log line with its timestamp, pid, durations, request id and client port
    normalised (nothing else)."""
    record = json.loads(line)
    for key in _LOG_NUMBERS & record.keys():
        record[key] = f"<{key}>"
    text = json.dumps(record, sort_keys=True)
    return _PID.sub(r"\1<pid>", _CLIENT_PORT.sub(r"\1<port>", timeless(text)))


_PROCESS_WIDE = ("process_", "python_gc_", "python_info")


def metric_samples(text: str) -> dict[str, float]:
    """``name{labels}`` → value for what one game can move (see the module docstring)."""
    samples: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        if family.name.startswith(_PROCESS_WIDE):
            continue
        for sample in family.samples:
            if sample.name.endswith("_created"):
                continue  # when a series was first used: a time
            if family.type == "histogram" and sample.name.endswith(("_bucket", "_sum")):
                continue  # how long appends took
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            samples[f"{sample.name}{{{labels}}}"] = sample.value
    return samples


def metric_delta(before: str, after: str) -> dict[str, float]:
    old, new = metric_samples(before), metric_samples(after)
    return {k: v - old.get(k, 0.0) for k, v in sorted(new.items()) if v != old.get(k, 0.0)}


def differences(a: dict[str, str], b: dict[str, str]) -> list[str]:
    """The channels whose bodies differ, each with where they first part."""
    found = []
    for key in sorted(a.keys() | b.keys()):
        left, right = a.get(key) or "", b.get(key) or ""
        if left != right:
            at = next((i for i, (x, y) in enumerate(zip(left, right, strict=False)) if x != y), 0)
            window = slice(max(at - 80, 0), at + 80)
            found.append(f"{key}: A …{left[window]!r} ≠ B …{right[window]!r}")
    return found


_NOW: tuple[tuple[str, str, dict[str, Any], str | None], ...] = (
    ("Game", operation("Game"), {}, None),
    ("DashboardGame", dashboard_operation("Game"), {}, "DashboardGame"),
    ("GameEvents", operation("GameEvents"), {"fromVersion": 1}, None),
    ("DashboardGameEvents", dashboard_operation("GameEvents"), {"fromVersion": 1, "limit": 1000}, None),
    ("Audit", operation("Audit"), {}, None),
    ("DashboardAudit", dashboard_operation("Audit"), {}, None),
)
"""The GraphQL queries about one game now: ours and the dashboard's (name, document, variables
besides the id, operation name)."""

# --- the servers ------------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def serving(app: Litestar) -> AsyncIterator[str]:
    """The app under uvicorn as `bang-league api` runs it (info level, the process's own
    logging), in this event loop; yields host:port."""
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            app, host="127.0.0.1", port=port, log_level="info", log_config=None, ws="websockets-sansio"
        )
    )
    task = asyncio.create_task(server.serve())
    try:
        for _ in range(1000):
            if server.started:
                break
            if task.done():
                task.result()
            await asyncio.sleep(0.01)
        assert server.started, "uvicorn did not start"
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, timeout=10)


def _per_event(messages: list[str]) -> list[str]:
    """The messages with each ``gameUpdates`` batch split into its events: how many events one
    message carries depends on how far the store got before the server looked (timing, the same
    in neither twin), not on anything hidden; every event's bytes are still compared."""
    lines: list[str] = []
    for raw in messages:
        message = json.loads(raw)
        update = (message.get("payload") or {}).get("data", {}) if message.get("type") == "next" else {}
        batch = (update or {}).get("gameUpdates")
        if not isinstance(batch, dict) or not isinstance(batch.get("events"), list):
            lines.append(raw)
            continue
        for event in batch["events"]:
            lines.append(json.dumps({"gameId": batch.get("gameId"), "event": event}, sort_keys=True))
    return lines


class RawSubscription:
    """One graphql-transport-ws subscription whose raw ``next`` messages are kept as sent."""

    def __init__(self, label: str, query: str, variables: dict[str, Any], token: str | None) -> None:
        self.label, self.query, self.variables, self.token = label, query, variables, token
        self.messages: list[str] = []
        self.version = 0
        self.completed = False
        self._socket: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._news = asyncio.Event()

    async def open(self, address: str) -> None:
        socket = await connect(f"ws://{address}/graphql", subprotocols=[PROTOCOL], open_timeout=10)  # type: ignore[list-item]
        self._socket = socket
        params = {} if self.token is None else {"Authorization": f"Bearer {self.token}"}
        await socket.send(json.dumps({"type": "connection_init", "payload": params}))
        assert json.loads(await socket.recv())["type"] == "connection_ack"
        payload = {"query": self.query, "variables": self.variables}
        await socket.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
        self._reader = asyncio.create_task(self._read(socket))

    async def _read(self, socket: ClientConnection) -> None:
        async for raw in socket:
            message = json.loads(raw)
            if message["type"] in ("ping", "pong"):
                continue  # keep-alives come by the clock
            self.messages.append(str(raw))
            if message["type"] == "next":
                data = message["payload"].get("data") or {}
                for value in data.values():
                    self.version = max(self.version, value["version"])
            else:
                self.completed = True
            self._news.set()

    async def reach(self, version: int, timeout: float = 15) -> None:
        async with asyncio.timeout(timeout):
            while self.version < version and not self.completed:
                self._news.clear()
                await self._news.wait()
        assert self.version >= version, (
            f"{self.label} at {self.version} of {version}: {[m[:150] for m in self.messages[-3:]]}"
        )

    async def close(self) -> None:
        if self._socket is not None:
            await self._socket.close()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await self._reader


@dataclass
class Twin:
    label: str
    app: Litestar
    dsn: str
    redis_url: str
    address: str
    client: httpx.AsyncClient
    viewers: dict[str, str | None] = field(default_factory=dict)
    """Who looks (name → token, None for anonymous): each an "other viewer" of the game."""
    subscriptions: list[RawSubscription] = field(default_factory=list)
    created: str = ""
    refusals: list[str] = field(default_factory=list)
    """What a bystander was answered when refused."""
    """The redacted state in the organiser's create answer (its fresh tokens left out)."""

    @property
    def resources(self) -> Resources:
        resources: Resources = self.app.state.resources
        return resources

    async def get(self, url: str, token: str | None) -> str:
        response = await self.client.get(url, headers=bearer(token) if token else {})
        return f"{response.status_code} {response.text}"

    async def graphql(
        self, query: str, variables: dict[str, Any], token: str | None, name: str | None = None
    ) -> str:
        payload: dict[str, Any] = {"query": query, "variables": variables}
        if name is not None:
            payload["operationName"] = name
        response = await self.client.post("/graphql", json=payload, headers=bearer(token) if token else {})
        return f"{response.status_code} {response.text}"

    async def look(self, game_id: str, *, only: int | None = None) -> dict[str, str]:
        """Every read channel about the game now, as every viewer (timestamps normalised).
        ``only``: just the state (REST and GraphQL), as the viewers take turns by this number."""
        g = f"/games/{game_id}"
        viewers = list(self.viewers.items())
        if only is not None:
            viewer, token = viewers[only % len(viewers)]
            seen = {
                f"{viewer} GET {g}": await self.get(g, token),
                f"{viewer} graphql Game": await self.graphql(operation("Game"), {"id": game_id}, token),
            }
            return {k: timeless(v) for k, v in seen.items()}
        seen = {}
        for viewer, token in viewers:
            for url in (g, f"{g}/events?from_version=1", f"{g}/record", f"{g}/audit", f"{g}/chain"):
                seen[f"{viewer} GET {url}"] = await self.get(url, token)
            # the pages' game log, built from this viewer's own state and events
            seen[f"{viewer} game log"] = game_log(
                seen[f"{viewer} GET {g}"], seen[f"{viewer} GET {g}/events?from_version=1"]
            )
            for name, query, variables, op in _NOW:
                seen[f"{viewer} graphql {name}"] = await self.graphql(
                    query, {"id": game_id, **variables}, token, op
                )
        return {k: timeless(v) for k, v in seen.items()}

    async def travel(self, game_id: str, versions: Sequence[int]) -> dict[str, str]:
        """Time travel to each of ``versions``, the viewers taking turns: over REST at every
        version, through both GraphQL documents at every third."""
        g, seen = f"/games/{game_id}", {}
        viewers = list(self.viewers.items())
        for v in versions:
            viewer, token = viewers[v % len(viewers)]
            seen[f"{viewer} GET {g}/versions/{v}"] = await self.get(f"{g}/versions/{v}", token)
            if v % 3 == 0:
                variables = {"id": game_id, "version": v}
                seen[f"{viewer} graphql GameAt {v}"] = await self.graphql(
                    operation("GameAt"), variables, token
                )
                seen[f"{viewer} graphql DashboardGameAt {v}"] = await self.graphql(
                    dashboard_operation("Game"), variables, token, "DashboardGameAt"
                )
        return {k: timeless(v) for k, v in seen.items()}

    async def subscribe(self, game_id: str) -> None:
        """Every viewer watches the game live from version 1 through each subscription."""
        for viewer, token in self.viewers.items():
            variables = {"id": game_id, "fromVersion": 1}
            for sub in (
                RawSubscription(f"{viewer} WatchGame", operation("WatchGame"), variables, token),
                RawSubscription(
                    f"{viewer} WatchGameUpdates",
                    operation("WatchGameUpdates"),
                    {**variables, "token": token},
                    None,
                ),
                RawSubscription(
                    f"{viewer} DashboardLiveGame", dashboard_operation("LiveGame"), variables, token
                ),
            ):
                await sub.open(self.address)
                self.subscriptions.append(sub)

    async def heard(self, version: int) -> dict[str, str]:
        """What every subscription has received once each has reached ``version``."""
        for sub in self.subscriptions:
            await sub.reach(version)
        return {sub.label: timeless("\n".join(_per_event(sub.messages))) for sub in self.subscriptions}

    async def metrics(self) -> str:
        response = await self.client.get("/metrics")
        assert response.status_code == 200
        return response.text

    async def cli(self, *args: str) -> str:
        """A `bang-league` command against this twin's database, as an operator runs it."""
        env = {"BANG_DATABASE_URL": self.dsn, "BANG_REDIS_URL": self.redis_url}
        result = await asyncio.to_thread(CliRunner().invoke, cli, list(args), env=env)
        return timeless(f"exit {result.exit_code}\n{result.output}")


@contextlib.asynccontextmanager
async def twin_servers(
    postgres: ResolvedPostgres, redis_url: str, settings: ApiSettings
) -> AsyncIterator[tuple[Twin, Twin]]:
    """Twins A and B, each with the API tests' ``settings`` on a fresh database of its own."""
    async with contextlib.AsyncExitStack() as stack:
        twins = []
        for label in "AB":
            dsn = await create_database(postgres.dsn, prefix="test")
            stack.push_async_callback(drop_database, postgres.dsn, dsn)
            own = dataclasses.replace(
                settings,
                database=dataclasses.replace(settings.database, url=dsn),
                redis=dataclasses.replace(settings.redis, url=redis_url),
            )
            app = create_app(own)
            address = await stack.enter_async_context(serving(app))
            client = await stack.enter_async_context(
                httpx.AsyncClient(base_url=f"http://{address}", timeout=30)
            )
            twin = Twin(label, app, dsn, redis_url, address, client)
            twins.append(twin)

            async def close_subscriptions(twin: Twin = twin) -> None:
                for sub in twin.subscriptions:
                    await sub.close()

            stack.push_async_callback(close_subscriptions)
        yield twins[0], twins[1]


# --- logs -----------------------------------------------------------------------------------------

_CLIENT_SIDE = ("httpx", "httpcore", "websockets.client", "asyncio")
"""This test's own clients' loggers: what the test does, not what the server says."""
_TOUCHED = ("", "uvicorn", "uvicorn.error", "uvicorn.access", "celery", "celery.task", "litestar")


class _ServerSide(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not record.name.startswith(_CLIENT_SIDE)


@contextlib.contextmanager
def json_logs() -> Iterator[list[str]]:
    """The JSON lines the API process writes while the block runs (``configure_logging`` as
    every bang-league process calls it), normalised by ``log_line`` when the block ends."""
    stream = io.StringIO()
    loggers = [logging.getLogger(name) for name in _TOUCHED]
    saved = [(lg, lg.handlers[:], lg.level, lg.propagate) for lg in loggers]
    configure_logging("api", stream=stream)
    logging.getLogger().handlers[0].addFilter(_ServerSide())
    lines: list[str] = []
    try:
        yield lines
    finally:
        for logger, handlers, level, propagate in saved:
            logger.handlers[:] = handlers
            logger.setLevel(level)
            logger.propagate = propagate
        structlog.reset_defaults()
        lines += [log_line(line) for line in stream.getvalue().splitlines() if line.strip()]
