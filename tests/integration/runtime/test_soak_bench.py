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

from event_store import EventMetadata, NewEvent, PostgresEventStore
from ops.bench.soak import FAULT_CYCLE, Ledger, Sent, check_answers
from services.game.application.codec import game_stream

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


async def test_the_store_check_counts_lost_and_duplicated_commands(database_dsn: str) -> None:
    """The soak's verdict is only as good as its check of the answers against the store: here
    a store and a ledger that disagree in every way the check must see."""
    game = "soak-check"
    store = await PostgresEventStore.open(database_dsn, min_size=1, max_size=2)
    async with store:
        version = 0
        for command_id, events in [
            ("soak-create-0", 3),
            ("soak-0", 1),  # answered as stored
            ("soak-1", 2),  # answered as stored
            ("soak-2", 1),
            ("soak-3", 1),  # answered as stored
            ("soak-2", 1),  # soak-2 a second time: duplicated
            (f"timeout/{game}/9", 2),  # the sweeper's: explained
            ("soak-5", 1),  # refused, yet stored: duplicated
            ("by-nobody", 1),  # no command of the soak's: duplicated
            ("soak-6", 1),  # its answer never came: either outcome is right
            ("soak-7", 1),  # answered with one event more than stored: lost
        ]:
            batch = [
                NewEvent(type="Noted", data={"n": i}, metadata=EventMetadata(command_id=command_id))
                for i in range(events)
            ]
            await store.append(game_stream(game), batch, expected_version=version)
            version += events

        ledger = Ledger()
        for command_id, status, answered_version, events in [
            ("soak-0", 200, 4, 1),
            ("soak-1", 200, 6, 2),
            ("soak-2", 200, 7, 1),
            ("soak-3", 200, 8, 1),
            ("soak-4", 200, 15, 1),  # accepted, never stored: lost
            ("soak-5", 409, None, 0),
            ("soak-6", None, None, 0),
            ("soak-7", 200, 15, 2),
        ]:
            ledger.commands[(game, command_id)] = Sent(
                game, command_id, attempts=1, status=status, version=answered_version, events=events
            )
        ledger.commands[(game, "soak-5")].problem = "not-awaited"

        checked = await check_answers(store.pool, ledger, [game])

    assert checked["commands_sent"] == 8
    assert checked["accepted"] == 6
    assert checked["refused"] == 1 and checked["refused_by_type"] == {"not-awaited": 1}
    assert checked["unanswered"] == 1 and checked["unanswered_but_stored"] == 1
    assert checked["decision_timeouts_stored"] == 1
    assert checked["lost"] == 2, checked["store_problems"]
    assert checked["duplicated"] == 3, checked["store_problems"]
