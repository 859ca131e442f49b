"""Poison events against a real `consume --all` process: the projection that cannot apply an
event is held there and reported (status, /health, metrics), the other projections keep up,
the process never exits, and the operator's `projections retry` (after a fix) and `skip`
(with a reason) move it on without a restart.

The events are written straight into the store, as the edge now refuses such input: the
consumers must survive whatever is stored already."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import asyncpg
import httpx
import pytest
from typer.testing import CliRunner

from bang_cli.projections import app as projections_cli
from bang_cli.serve import app as serve_cli
from event_store import NO_STREAM
from services.game.application.codec import GAME_MAPPER, game_stream
from services.game.application.lifecycle import GameContext, GameCreated, GameMode
from services.runtime.context import open_context
from services.runtime.database import prepare_all
from services.runtime.projections import registered
from services.runtime.serve import free_port

pytestmark = pytest.mark.slow

WAIT_SECONDS = 60.0  # generous: a shared 2-core machine; each step normally takes a second or two
INT4_OVERFLOW = 3_000_000_000  # fits a bigint, not the read model's integer columns
STANDINGS = "league-standings"


def _created(game_id: str, **context: object) -> GameCreated:
    return GameCreated(game_id=game_id, mode=GameMode.TABLE, player_count=4, context=GameContext(**context))  # type: ignore[arg-type]


async def _append_games(dsn: str, redis_url: str, games: list[GameCreated]) -> list[int]:
    async with open_context(dsn, redis_url, mapper=GAME_MAPPER, listen=False) as context:
        await prepare_all(context.pool, registered().values())
        positions = []
        for game in games:
            result = await context.store.append(game_stream(game.game_id), [game], expected_version=NO_STREAM)
            positions.append(result.positions[-1])
        return positions


async def _sql(dsn: str, sql: str) -> object:
    connection = await asyncpg.connect(dsn)
    try:
        return await connection.fetchval(sql)
    finally:
        await connection.close()


@pytest.fixture
def consumer(
    database_dsn: str, redis_url: str, tmp_path: Path
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    port = free_port()
    env = {**os.environ, "BANG_DATABASE_URL": database_dsn, "BANG_REDIS_URL": redis_url}
    log = tmp_path / "consume.log"
    with log.open("ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "bang_cli.serve", "consume", "--all", "--health-port", str(port)],
            stdout=out, stderr=subprocess.STDOUT, env=env, cwd=Path(__file__).parents[3],
        )  # fmt: skip
    try:
        yield process, f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        assert process.wait(timeout=30) == 0, log.read_text()[-4000:]


def _until(check: Callable[[], object], what: str, process: subprocess.Popen[bytes]) -> object:
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        assert process.poll() is None, "consume --all exited"
        try:
            if found := check():
                return found
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.25)


def _health(base: str) -> tuple[int, dict[str, object]]:
    answer = httpx.get(f"{base}/health", timeout=3)
    return answer.status_code, answer.json()


def _metric(base: str, line_start: str) -> float | None:
    for line in httpx.get(f"{base}/metrics", timeout=3).text.splitlines():
        if line.startswith(line_start):
            return float(line.rsplit(" ", 1)[1])
    return None


def test_a_poison_event_holds_one_projection_and_the_operator_moves_it_on(
    database_dsn: str, redis_url: str, consumer: tuple[subprocess.Popen[bytes], str]
) -> None:
    process, base = consumer
    env = {"BANG_DATABASE_URL": database_dsn, "BANG_REDIS_URL": redis_url}
    cli = CliRunner()
    positions = asyncio.run(_append_games(database_dsn, redis_url, [
        _created("fine-1", league_id="demo", round=1, table=1),
        _created("poison-round", league_id="demo", round=INT4_OVERFLOW, table=2),
        _created("fine-2", league_id="demo", round=1, table=3),
        _created("poison-table", league_id="demo", round=2, table=INT4_OVERFLOW),
        _created("fine-3", league_id="demo", round=3, table=1),
    ]))  # fmt: skip
    first_poison, second_poison, head = positions[1], positions[3], positions[-1]

    # held at the first poison; the other projections (ratings reads GameCreated too) keep up
    _until(lambda: _health(base)[1].get("held"), "the hold", process)
    status, body = _health(base)
    assert status == 503 and body["status"] == "degraded"
    held = body["held"][STANDINGS]  # type: ignore[index]
    assert held["position"] == first_poison and held["event_type"] == "GameCreated"
    assert held["error"].startswith("asyncpg.exceptions.DataError")
    assert str(INT4_OVERFLOW) not in json.dumps(body)
    lag = body["projections"]
    assert lag[STANDINGS]["checkpoint"] == first_poison - 1  # type: ignore[index]
    assert all(v["checkpoint"] == head for k, v in lag.items() if k != STANDINGS)  # type: ignore[union-attr]
    assert _metric(base, f'bang_projection_held{{projection="{STANDINGS}"}}') == 1.0
    assert _metric(base, f'bang_projection_held_position{{projection="{STANDINGS}"}}') == first_poison
    assert (_metric(base, f'bang_projection_failures_total{{projection="{STANDINGS}"}}') or 0) >= 3
    assert _metric(base, 'bang_projection_held{projection="ratings"}') == 0.0

    shown = cli.invoke(serve_cli, ["status", "--json"], env=env)
    assert shown.exit_code == 0, shown.output
    report = {p["name"]: p for p in json.loads(shown.output)["projections"]}
    assert report[STANDINGS]["held"]["position"] == first_poison
    assert report["ratings"]["held"] is None

    # a skip must name the held event and nothing else
    wrong = cli.invoke(projections_cli, ["skip", STANDINGS, "--position", str(head), "--reason", "x"],
                       env=env)  # fmt: skip
    assert wrong.exit_code == 1 and f"held at position {first_poison}" in wrong.output
    checkpoint = f"SELECT position FROM checkpoints WHERE name = '{STANDINGS}'"
    assert asyncio.run(_sql(database_dsn, checkpoint)) == first_poison - 1

    # the fix: the read model's column widened; retry picks it up without a restart
    asyncio.run(_sql(database_dsn, "ALTER TABLE league_games ALTER COLUMN round TYPE bigint"))
    retried = cli.invoke(projections_cli, ["retry", STANDINGS, "--reason", "round is a bigint now"], env=env)
    assert retried.exit_code == 0, retried.output
    _until(
        lambda: (_health(base)[1].get("held") or {}).get(STANDINGS, {}).get("position") == second_poison,
        "the retry to pass the first poison and hold at the second",
        process,
    )
    stored = "SELECT round FROM league_games WHERE game_id = 'poison-round'"
    assert asyncio.run(_sql(database_dsn, stored)) == INT4_OVERFLOW

    # the second one is skipped, with a reason: the checkpoint moves past exactly that event
    skipped = cli.invoke(projections_cli, ["skip", STANDINGS, "--position", str(second_poison), "--reason",
                                           "table number out of range; game never played", "--by", "ops"],
                         env=env)  # fmt: skip
    assert skipped.exit_code == 0, skipped.output
    _until(lambda: _health(base)[0] == 200, "green health after the skip", process)
    games = "SELECT string_agg(game_id, ',' ORDER BY game_id) FROM league_games"
    assert asyncio.run(_sql(database_dsn, games)) == "fine-1,fine-2,fine-3,poison-round"
    assert _metric(base, f'bang_projection_held{{projection="{STANDINGS}"}}') == 0.0

    history = cli.invoke(projections_cli, ["holds", STANDINGS, "--json"], env=env)
    assert history.exit_code == 0, history.output
    rows = [json.loads(line) for line in history.output.splitlines() if line.startswith("{")]
    resolved = [(r["position"], r["status"]) for r in rows]
    assert resolved == [(second_poison, "skipped"), (first_poison, "retried")]
    assert rows[0]["resolved_by"] == "ops" and rows[0]["reason"].startswith("table number out of range")
    assert process.poll() is None  # never exited, never restarted
