"""``gameRatingChange``: what a finished game did to each player's rating, for its result screen,
or why it did nothing. A league table game moves its club's pool: each seat's "after" is the
history point of that game and "before" the member's previous point (the initial rating for a
first game), the same numbers as ``playerRating``; for each member's latest game "after" is
their rating now. A friendly table game is not rated, in the ratings' own words; a game the
ratings have not taken in says so."""

from __future__ import annotations

import dataclasses
from typing import Any

import asyncpg
import strawberry

from event_store import PostgresEventStore
from services.game.application.lifecycle import GameContext
from services.game.application.service import GameService
from services.ratings import RatingConfig
from services.ratings.consumer import ratings_subscription
from services.ratings.graphql_types import RatingsQuery
from services.ratings.store import NOT_RATED_YET
from tests.integration.ratings.games import PlannedGame, enter_games

SCHEMA = strawberry.Schema(query=RatingsQuery)
POOL = "club:club-a"

CHANGE = """
query Change($game: String!) {
  gameRatingChange(gameId: $game) {
    gameId rated reason
    changes { memberId displayName pool gameType before after change }
  }
}
"""
PROFILE = """
query Profile($member: String!) {
  playerRating(pool: "club:club-a", memberId: $member) { rating history { role points { gameId rating } } }
}
"""


async def _ask(pool: asyncpg.Pool, query: str, **variables: str) -> dict[str, Any]:
    result = await SCHEMA.execute(query, variable_values=variables, context_value={"pool": pool})
    assert result.errors is None, result.errors
    assert result.data is not None
    return result.data


async def test_a_rated_game_says_each_players_change_and_an_unrated_one_why_not(
    game_service: GameService,
    game_store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    planned_games: list[PlannedGame],
) -> None:
    league = planned_games[:4]
    friendly = dataclasses.replace(planned_games[4], game_id="friendly-1", context=GameContext())
    await enter_games(game_service, [*league, friendly])
    await ratings_subscription(game_store).run_until_idle()

    initial = RatingConfig().initial
    latest: dict[str, str] = {}  # member -> the last game of theirs entered (games end in any order)
    for game in league:
        answer = (await _ask(pg_pool, CHANGE, game=game.game_id))["gameRatingChange"]
        assert answer["rated"] is True and answer["reason"] is None
        members = sorted(seat.member_id for seat in game.seats)
        assert sorted(c["memberId"] for c in answer["changes"]) == members
        for change in answer["changes"]:
            assert change["pool"] == POOL and change["gameType"] == "DICE"
            assert change["displayName"]  # the one name resolver's (this test's members have no account)
            assert abs(change["change"] - (change["after"] - change["before"])) < 1e-9
            profile = (await _ask(pg_pool, PROFILE, member=change["memberId"]))["playerRating"]
            [overall] = [h["points"] for h in profile["history"] if h["role"] is None]
            ids = [p["gameId"] for p in overall]
            at = ids.index(game.game_id)
            assert change["after"] == overall[at]["rating"]
            assert change["before"] == (overall[at - 1]["rating"] if at else initial)
            if at == len(ids) - 1:
                latest[change["memberId"]] = game.game_id
                assert change["after"] == profile["rating"]  # their latest game: their rating now
    assert latest, "some member's latest game is among these"

    unrated = (await _ask(pg_pool, CHANGE, game="friendly-1"))["gameRatingChange"]
    assert unrated["rated"] is False and unrated["changes"] == []
    assert "friendly" in unrated["reason"], unrated["reason"]

    unknown = (await _ask(pg_pool, CHANGE, game="never-played"))["gameRatingChange"]
    assert unknown == {"gameId": "never-played", "rated": False, "reason": NOT_RATED_YET, "changes": []}
