"""A role's board lists only who has a rated game in that role, each with their games in it;
filtered to a league, a season or a ruleset, only who played the role THERE (issue 22: the
Sheriff tab of a league's board put first a member with no Sheriff game in that league, since
the filter asked for any rated game there). And the rulesets a pool has rated games of, which
the leaderboard's ruleset filter answers for."""

from __future__ import annotations

from collections import Counter, defaultdict

import asyncpg
import strawberry

from event_store import PostgresEventStore
from services.game.application.service import GameService
from services.game.results import Role
from services.ratings import RatingBook, RatingConfig, rebuild
from services.ratings.consumer import ratings_subscription
from services.ratings.graphql_types import RatingsQuery
from tests.integration.ratings.games import POOL, PlannedGame, enter_games, plan_games, recorded_outcomes

SCHEMA = strawberry.Schema(query=RatingsQuery)
BOARD = """
query($role: RatingRole, $league: String, $season: String, $ruleset: String) {
  ratingLeaderboard(pool: "club:club-a", role: $role, leagueId: $league, seasonId: $season,
                    ruleset: $ruleset, limit: 100) { rank memberId role games wins }
}
"""


def role_games(games: list[PlannedGame]) -> dict[Role, Counter[str]]:
    """Per role, each member's games in it (a seat's dealt role: these games have no outbreak)."""
    counts: dict[Role, Counter[str]] = defaultdict(Counter)
    for game in games:
        for seat in game.seats:
            counts[Role(seat.role.value)][seat.member_id] += 1
    return counts


async def board(pool: asyncpg.Pool, **variables: str | None) -> list[dict[str, object]]:
    answer = await SCHEMA.execute(BOARD, variable_values=variables, context_value={"pool": pool})
    assert answer.errors is None, answer.errors
    assert answer.data is not None
    rows: list[dict[str, object]] = answer.data["ratingLeaderboard"]
    return rows


async def test_a_roles_board_lists_only_who_played_the_role_there(
    game_service: GameService,
    game_store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    planned_games: list[PlannedGame],
) -> None:
    league_a = planned_games[:8]
    league_b = plan_games(3, seed=9, prefix="b", league_id="league-b")
    await enter_games(game_service, league_a + league_b)
    await ratings_subscription(game_store).run_until_idle()
    book: RatingBook = rebuild(await recorded_outcomes(game_store), RatingConfig())
    everywhere = role_games(league_a + league_b)
    checked = 0
    for role in Role:
        # the whole pool: who played the role, with their games in it (the book's count)
        rows = await board(pg_pool, role=role.name)
        assert {r["memberId"]: r["games"] for r in rows} == dict(everywhere[role]), role
        for r in rows:
            rated = next(rr for rr in book.rating(str(r["memberId"])).roles if rr.role is role)
            assert (r["games"], r["wins"], r["role"]) == (rated.games, rated.wins, role.name)
        # one league, one season of it, one ruleset: who played the role there, and nobody else
        scopes: dict[str, tuple[dict[str, str], list[PlannedGame]]] = {
            "league-b": ({"league": "league-b"}, league_b),
            "league-a autumn": (
                {"league": "league-a", "season": "autumn"},
                [g for g in league_a if g.context.season_id == "autumn"],
            ),
        }
        for name, (variables, games) in scopes.items():
            rows = await board(pg_pool, role=role.name, **variables)
            played_there = set(role_games(games)[role])
            assert {r["memberId"] for r in rows} == played_there, (role, name)
            # still their rating and count in the role across the pool, ranked from 1
            assert {r["memberId"]: r["games"] for r in rows} == {m: everywhere[role][m] for m in played_there}
            assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
            members_there = {s.member_id for g in games for s in g.seats}
            checked += len(members_there - played_there)
        rows = await board(pg_pool, role=role.name, ruleset="dice")
        assert {r["memberId"] for r in rows} == set(everywhere[role])
        assert await board(pg_pool, role=role.name, ruleset="dice OS1") == []
    # the filters left somebody out: members who played there, but not in that role
    assert checked > 0


async def test_the_rulesets_a_pool_rated_are_listed_with_their_games(
    game_service: GameService,
    game_store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    planned_games: list[PlannedGame],
) -> None:
    games = planned_games[:5]
    await enter_games(game_service, games)
    await ratings_subscription(game_store).run_until_idle()
    query = (
        "{ dice: ratingRulesets(pool: $pool) { ruleset games players } "
        "cards: ratingRulesets(pool: $pool, gameType: CARDS) { ruleset } "
        "global: ratingRulesets { ruleset } }"
    ).replace("$pool", f'"{POOL}"')
    answer = await SCHEMA.execute(query, context_value={"pool": pg_pool})
    assert answer.errors is None, answer.errors
    assert answer.data == {
        "dice": [
            {"ruleset": "dice", "games": 5, "players": len({s.member_id for g in games for s in g.seats})}
        ],
        "cards": [],
        "global": [],  # table games are rated in their club's pool only
    }
    refused = await SCHEMA.execute(
        '{ ratingRulesets(pool: "everyone") { ruleset } }', context_value={"pool": pg_pool}
    )
    assert refused.errors is not None and "pool" in str(refused.errors[0]), refused.errors
