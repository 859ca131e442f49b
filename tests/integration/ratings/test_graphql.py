"""RatingsQuery against a populated database: leaderboards, a profile, the offsets."""

from __future__ import annotations

from typing import Any

import asyncpg
import strawberry

from event_store import PostgresEventStore
from services.game.application.service import GameService
from services.game.results import Role
from services.ratings import RatingBook, RatingConfig, rebuild
from services.ratings.consumer import ratings_subscription
from services.ratings.graphql_types import RatingsQuery
from tests.integration.ratings.games import PlannedGame, enter_games, plan_games, recorded_outcomes

SCHEMA = strawberry.Schema(query=RatingsQuery)

QUERY = """
query Ratings($member: String!) {
  ratingsStatus { generation games }
  overall: ratingLeaderboard(pool: "club:club-a", limit: 100) {
    rank memberId role rating games wins provisional overallRating
  }
  sheriffs: ratingLeaderboard(pool: "club:club-a", role: SHERIFF) {
    rank memberId role rating games wins provisional
  }
  established: ratingLeaderboard(pool: "club:club-a", includeProvisional: false) { memberId }
  page: ratingLeaderboard(pool: "club:club-a", limit: 2, offset: 1) { rank memberId }
  leagueB: ratingLeaderboard(pool: "club:club-a", leagueId: "league-b") { rank memberId games }
  spring: ratingLeaderboard(pool: "club:club-a", leagueId: "league-a", seasonId: "spring") { memberId }
  ratingOffsets(pool: "club:club-a") { ruleset players faction offset raw games }
  fives: ratingOffsets(pool: "club:club-a", players: 5) { players }
  player: playerRating(pool: "club:club-a", memberId: $member) {
    memberId rating games wins provisional
    roles { role rating games wins provisional }
    history { role points { gameNumber gameId rating } }
  }
  nobody: playerRating(pool: "club:club-a", memberId: "nobody") { memberId }
}
"""


async def _ask(pool: asyncpg.Pool, member: str) -> dict[str, Any]:
    result = await SCHEMA.execute(QUERY, variable_values={"member": member}, context_value={"pool": pool})
    assert result.errors is None, result.errors
    assert result.data is not None
    return result.data


def _members_of(games: list[PlannedGame]) -> set[str]:
    return {seat.member_id for game in games for seat in game.seats}


async def test_the_queries_answer_from_the_ratings_tables(
    game_service: GameService,
    game_store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    planned_games: list[PlannedGame],
) -> None:
    empty = await SCHEMA.execute(
        '{ ratingsStatus { generation } ratingLeaderboard(pool: "club:club-a") { memberId } }',
        context_value={"pool": pg_pool},
    )
    assert empty.data == {"ratingsStatus": None, "ratingLeaderboard": []}

    league_a = planned_games[:8]
    league_b = plan_games(2, seed=9, prefix="b", league_id="league-b")
    await enter_games(game_service, league_a + league_b)
    await ratings_subscription(game_store).run_until_idle()
    book: RatingBook = rebuild(await recorded_outcomes(game_store), RatingConfig())
    member = book.leaderboard()[2].player
    data = await _ask(pg_pool, member)

    assert data["ratingsStatus"]["games"] == 10
    assert data["overall"] == [
        {
            "rank": i + 1,
            "memberId": r.player,
            "role": None,
            "rating": r.rating,
            "games": r.games,
            "wins": r.wins,
            "provisional": r.provisional,
            "overallRating": r.rating,
        }
        for i, r in enumerate(book.leaderboard())
    ]
    sheriffs = sorted(
        (
            (book.rating(p), rr)
            for p in book.players
            for rr in book.rating(p).roles
            if rr.role is Role.SHERIFF and rr.games > 0
        ),
        key=lambda pair: (-pair[1].rating, pair[0].player),
    )
    assert data["sheriffs"] == [
        {
            "rank": i + 1,
            "memberId": r.player,
            "role": "SHERIFF",
            "rating": rr.rating,
            "games": rr.games,
            "wins": rr.wins,
            "provisional": rr.provisional,
        }
        for i, (r, rr) in enumerate(sheriffs)
    ]
    assert data["established"] == []  # nobody has 30 games yet
    assert data["page"] == [
        {"rank": 2, "memberId": book.leaderboard()[1].player},
        {"rank": 3, "memberId": book.leaderboard()[2].player},
    ]
    assert {e["memberId"] for e in data["leagueB"]} == _members_of(league_b)
    assert [e["rank"] for e in data["leagueB"]] == list(range(1, len(data["leagueB"]) + 1))
    spring = [g for g in league_a if g.context.season_id == "spring"]
    assert {e["memberId"] for e in data["spring"]} == _members_of(spring)

    normalised = book.offsets.normalised()
    assert {
        (o["ruleset"], o["players"], o["faction"]): (o["offset"], o["raw"], o["games"])
        for o in data["ratingOffsets"]
    } == {
        (ruleset, n, kind.value): (normalised[ruleset][n][kind], cell.value, cell.games)
        for ruleset, by_size in book.offsets.cells.items()
        for n, cells in by_size.items()
        for kind, cell in cells.items()
    }
    assert {o["ruleset"] for o in data["ratingOffsets"]} == {"dice"}
    assert all(o["players"] == 5 for o in data["fives"])

    rating = book.rating(member)
    record = book.players[member]
    player = data["player"]
    assert (player["memberId"], player["rating"], player["games"], player["wins"], player["provisional"]) == (
        member,
        rating.rating,
        rating.games,
        rating.wins,
        rating.provisional,
    )
    assert player["roles"] == [
        {
            "role": rr.role.name,
            "rating": rr.rating,
            "games": rr.games,
            "wins": rr.wins,
            "provisional": rr.provisional,
        }
        for rr in rating.roles
    ]
    expected_history = [
        {
            "role": None,
            "points": [
                {"gameNumber": p.game, "gameId": p.game_id, "rating": p.rating} for p in record.history
            ],
        }
    ] + [
        {
            "role": role.name,
            "points": [
                {"gameNumber": p.game, "gameId": p.game_id, "rating": p.rating}
                for p in (record.roles[role].history if role in record.roles else [])
            ],
        }
        for role in Role
    ]
    assert player["history"] == expected_history
    assert data["nobody"] is None
