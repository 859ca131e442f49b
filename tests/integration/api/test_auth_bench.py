"""`bench auth` runs end to end and reports every figure beside its anchor (tiny sizes; speed
is never asserted)."""

from __future__ import annotations

import asyncio

from rich.console import Console

from infra.postgres import ResolvedPostgres
from infra.redis import ResolvedRedis
from ops.bench import auth as auth_bench


async def test_the_auth_benchmark_reports_each_caller_beside_the_anonymous_anchor(
    resolved_postgres: ResolvedPostgres, resolved_redis: ResolvedRedis
) -> None:
    result = await asyncio.to_thread(auth_bench.run, seconds=0.2, rounds=1, concurrency=2)
    assert result["anchor"] == "anonymous"
    for figures in ("requests_per_second", "ratio_to_anonymous", "db_queries_per_request"):
        assert set(result[figures]) == set(auth_bench.KINDS), figures
        assert all(isinstance(v, float | int) and v > 0 for v in result[figures].values()), result[figures]
    assert result["ratio_to_anonymous"]["anonymous"] == 1.0
    # a cached caller costs no query of its own: no more than the anonymous read's
    assert result["db_queries_per_request"]["session"] <= result["db_queries_per_request"]["anonymous"] + 1
    Console(file=None, record=True, width=120).print(auth_bench.render(result))
