"""`bang-league bench soak`, short: bot games over HTTP against a `serve` of its own while every
kind of fault is injected once; nothing acknowledged may be lost, nothing applied twice, every
game must audit clean and every projection must equal its rebuild from position 0."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ops.bench.soak import FAULT_CYCLE

pytestmark = pytest.mark.slow

LOAD_SECONDS = 35
RUN_TIMEOUT_SECONDS = 600  # a bound against a hang, not a speed check


def test_a_short_soak_with_every_fault_loses_nothing_and_applies_nothing_twice() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("BANG_DATABASE_URL", "BANG_REDIS_URL")}
    done = subprocess.run(
        [sys.executable, "-m", "bang_cli.main", "bench", "soak", "--json", "--seconds", str(LOAD_SECONDS)],
        capture_output=True,
        timeout=RUN_TIMEOUT_SECONDS,
        cwd=Path(__file__).parents[3],
        env=env,
    )
    assert done.stdout, done.stderr.decode(errors="replace")[-4000:]
    result = json.loads(done.stdout)
    summary = json.dumps(
        {k: result[k] for k in ("faults", "store_problems", "retries", "refused_by_type", "unanswered")}
    )

    assert set(result["faults_injected"]) == set(FAULT_CYCLE), summary
    assert all(f["recovered"] for f in result["faults"]), summary
    assert result["recovery_seconds_max"] is not None

    assert result["accepted"] > 0
    assert result["commands_sent"] == result["accepted"] + result["refused"] + result["unanswered"]
    assert result["unanswered"] == 0, summary
    assert result["lost"] == 0, summary
    assert result["duplicated"] == 0, summary

    assert result["audit"]["clean"], result["audit"]
    assert result["audit"]["games"] >= result["games_played"]
    assert result["projections_equal_rebuild"], result["projections"]
    # each comparison covered real rows: the demo season, the bot games, the ongoing ones' deadlines
    assert all(p["rows"] > 0 for p in result["projections"].values()), result["projections"]

    assert result["accepted_per_second_fault_free"] > 0
    assert result["ok"] is True
    assert done.returncode == 0
