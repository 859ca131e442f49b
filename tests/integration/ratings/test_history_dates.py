"""A rating history by date: each point of ``playerRating.history`` carries when its game's end
was recorded (the GameEnded event's time), from the live consumer and a rebuild alike."""

from __future__ import annotations

from datetime import datetime

import asyncpg
import strawberry

from event_store import PostgresEventStore
from services.game.application.codec import game_id_of
from services.game.application.service import GameService
from services.ratings.consumer import ratings_subscription
from services.ratings.consumer import rebuild as rebuild_ratings
from services.ratings.graphql_types import RatingsQuery
from services.ratings.store import current_generation
from tests.integration.ratings.games import PlannedGame, enter_games

SCHEMA = strawberry.Schema(query=RatingsQuery)

QUERY = """
query Dated($member: String!) {
  playerRating(pool: "club:club-a", memberId: $member) {
    history { role points { gameNumber gameId rating endedAt } }
  }
}
"""


async def _ended_at(store: PostgresEventStore) -> dict[str, datetime]:
    """When each game's end was recorded, read straight from the store."""
    ended = {}
    async for recorded in store.iter_all(categories=["game"]):
        if recorded.type == "GameEnded":
            ended[game_id_of(recorded.stream)] = recorded.recorded_at
    return ended


async def _history(pool: asyncpg.Pool, member: str) -> list[dict]:
    result = await SCHEMA.execute(QUERY, variable_values={"member": member}, context_value={"pool": pool})
    assert result.errors is None, result.errors
    assert result.data is not None
    return result.data["playerRating"]["history"]


async def test_each_history_point_is_dated_by_its_games_recorded_end(
    game_service: GameService,
    game_store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    planned_games: list[PlannedGame],
) -> None:
    games = planned_games[:6]
    await enter_games(game_service, games)
    await ratings_subscription(game_store).run_until_idle()
    ended = await _ended_at(game_store)
    assert set(ended) == {g.game_id for g in games}
    member = games[0].seats[0].member_id

    history = await _history(pg_pool, member)
    overall = next(line for line in history if line["role"] is None)
    played = [g.game_id for g in games if member in {s.member_id for s in g.seats}]
    assert sorted(p["gameId"] for p in overall["points"]) == sorted(played)
    points = [p for line in history for p in line["points"]]
    assert points, "the member has a rated game"
    for point in points:
        assert datetime.fromisoformat(point["endedAt"]) == ended[point["gameId"]]
    # numbered in the order the games ended, so the dates never go back along a line
    for line in history:
        dates = [datetime.fromisoformat(p["endedAt"]) for p in line["points"]]
        assert dates == sorted(dates)

    # a rebuild reads the same events, so the same dates
    before = await current_generation(pg_pool)
    await rebuild_ratings(pg_pool)
    after = await current_generation(pg_pool)
    assert before is not None and after is not None and after.generation != before.generation
    assert await _history(pg_pool, member) == history


async def test_a_game_rated_before_dates_were_kept_has_no_date_until_a_rebuild(
    game_service: GameService,
    game_store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    planned_games: list[PlannedGame],
) -> None:
    games = planned_games[:2]
    await enter_games(game_service, games)
    await ratings_subscription(game_store).run_until_idle()
    await pg_pool.execute("UPDATE ratings_games SET ended_at = NULL")  # as migration 0005 found them
    member = games[0].seats[0].member_id
    assert {p["endedAt"] for line in await _history(pg_pool, member) for p in line["points"]} == {None}

    await rebuild_ratings(pg_pool)
    ended = await _ended_at(game_store)
    points = [p for line in await _history(pg_pool, member) for p in line["points"]]
    assert points and all(datetime.fromisoformat(p["endedAt"]) == ended[p["gameId"]] for p in points)
