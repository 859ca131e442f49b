"""`bench health-under-load` runs end to end through the command line and reports /health
under load beside its no-load anchor (tiny sizes: a short card game, a one-second load; speed
is never asserted)."""

from __future__ import annotations

import asyncio
import json

import pytest
import typer
from rich.console import Console
from typer.testing import CliRunner

from bang_cli.bench import available, bench
from infra.postgres import ResolvedPostgres
from infra.redis import ResolvedRedis
from ops.bench import health_under_load


async def test_the_benchmark_reports_health_under_load_beside_its_anchor(
    resolved_postgres: ResolvedPostgres, resolved_redis: ResolvedRedis, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(health_under_load, "PLAYERS", 4)
    monkeypatch.setattr(health_under_load, "GAME_INDEX", 0)
    monkeypatch.setattr(health_under_load, "ANCHOR_SECONDS", 0.5)
    assert "health-under-load" in available()
    app = typer.Typer()
    app.command()(bench)
    invoked = await asyncio.to_thread(
        CliRunner().invoke, app, ["health-under-load", "--json", "--seconds", "1"]
    )
    assert invoked.exit_code == 0, invoked.output
    result = json.loads(invoked.output)
    assert result["anchor_health_p99_ms"] > 0 and result["health_p99_ms"] > 0
    assert result["health_probes"] == health_under_load.HEALTH_PROBES_PER_SECOND
    assert sum(result["reads"].values()) > 0 and sum(result["imports"].values()) > 0
    assert set(result["reads"]) <= {"0", "200", "429"}, result["reads"]
    assert set(result["imports"]) <= {"0", "201", "429"}, result["imports"]
    assert len(result["game_versions"]) == health_under_load.GAMES
    Console(file=None, record=True, width=120).print(health_under_load.render(result))
