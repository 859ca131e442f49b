"""Not collected by the suite (no ``test_`` prefix): the run that test_run_cleanup.py starts as
``python -m pytest`` and stops by a signal. It starts this run's embedded PostgreSQL and Redis,
writes where they live to the file named by ``BANG_CLEANUP_PROBE`` and waits (a minute at most)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from infra.postgres import ResolvedPostgres
from infra.redis import ResolvedRedis


def test_servers_up_then_wait(
    resolved_postgres: ResolvedPostgres, resolved_redis: ResolvedRedis, infra_data_dir: Path
) -> None:
    probe = Path(os.environ["BANG_CLEANUP_PROBE"])
    probe.with_suffix(".tmp").write_text(json.dumps({"run_dir": str(infra_data_dir), "pid": os.getpid()}))
    probe.with_suffix(".tmp").rename(probe)
    time.sleep(60)
