"""The league's Celery tasks on a real worker (a subprocess on the test Redis): a task
delivered twice changes nothing the second time."""

from __future__ import annotations

import subprocess

import asyncpg
from celery import Celery

from event_store import PostgresEventStore
from services.league import read_model
from services.league.service import LeagueService

from .league_setup import CARE, LEAGUE, MEMBERS, SEASON, TOURNAMENT, found_league

TIMEOUT = 60


async def events_in_store(pool: asyncpg.Pool) -> int:
    return int(await pool.fetchval("SELECT count(*) FROM events"))


def run_task(
    celery_client: Celery, celery_queue: str, name: str, *args: object, task_id: str | None = None
) -> object:
    return celery_client.send_task(name, args=list(args), queue=celery_queue, task_id=task_id).get(
        timeout=TIMEOUT
    )


async def test_tasks_run_on_a_real_worker_and_a_duplicate_delivery_changes_nothing(
    league: LeagueService,
    store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    celery_worker: subprocess.Popen[bytes],
    celery_client: Celery,
    celery_queue: str,
) -> None:
    await found_league(league)

    seated = run_task(
        celery_client, celery_queue, "league.seat_round", LEAGUE, TOURNAMENT, 1, "celery", task_id="seat-1"
    )
    assert isinstance(seated, dict) and seated["round"] == 1
    before = await events_in_store(pg_pool)
    # the same message delivered again (same task id, same arguments): the same answer, no event
    assert (
        run_task(
            celery_client,
            celery_queue,
            "league.seat_round",
            LEAGUE,
            TOURNAMENT,
            1,
            "celery",
            task_id="seat-1",
        )
        == seated
    )
    assert await events_in_store(pg_pool) == before

    played = run_task(
        celery_client, celery_queue, "league.play_bot_round", LEAGUE, TOURNAMENT, 1, "celery", CARE
    )
    assert isinstance(played, dict) and len(played["games"]) == 2 and played["moves"] > 0
    after_round = await events_in_store(pg_pool)
    standings = await read_model.standings(pg_pool, LEAGUE, SEASON)
    assert sum(s.games for s in standings) == 10  # the task caught the projection up

    replayed = run_task(
        celery_client, celery_queue, "league.play_bot_round", LEAGUE, TOURNAMENT, 1, "celery", CARE
    )
    assert isinstance(replayed, dict)
    assert replayed["games"] == played["games"] and replayed["winning_sides"] == played["winning_sides"]
    assert replayed["moves"] == 0
    assert await events_in_store(pg_pool) == after_round
    assert await read_model.standings(pg_pool, LEAGUE, SEASON) == standings

    rollover = ("league.season_rollover", LEAGUE, SEASON, "s2026", "2026")
    assert run_task(celery_client, celery_queue, *rollover)["players"] == list(MEMBERS)  # type: ignore[index]
    after_rollover = await events_in_store(pg_pool)
    run_task(celery_client, celery_queue, *rollover)
    assert await events_in_store(pg_pool) == after_rollover
    state = await league.load_league(LEAGUE)
    assert state.seasons[SEASON].closed and state.seasons["s2026"].entrants == list(MEMBERS)

    rebuilt = run_task(celery_client, celery_queue, "league.rebuild_standings")
    assert isinstance(rebuilt, dict) and rebuilt["replayed"] > 0
    assert await read_model.standings(pg_pool, LEAGUE, SEASON) == standings
    assert celery_worker.poll() is None
