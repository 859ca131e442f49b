"""The store benchmark runs end to end (tiny sizes; speed is never asserted)."""

from __future__ import annotations

import asyncio

from rich.console import Console

from ops.bench import store as store_bench

KEYS = {
    "single_append_events_per_second", "raw_single_insert_per_second", "single_append_ratio",
    "batch_append_events_per_second", "raw_batch_insert_events_per_second", "batch_append_ratio",
    "read_events_per_second", "raw_read_per_second", "read_ratio", "lag_p50_ms", "lag_p99_ms",
}  # fmt: skip


async def test_the_benchmark_reports_every_figure(resolved_postgres: object) -> None:
    sizes = {"single_events": 8, "turns": 4, "turn_size": 3, "lag_events": 20, "lag_rate": 200.0}
    result = await asyncio.to_thread(store_bench.run, **sizes)
    assert result.keys() >= KEYS
    assert result["lag_events_missed"] == 0
    Console(file=None, record=True, width=120).print(store_bench.render(result))
