"""Names on the ratings' leaderboards and profiles (issue 11: "Names appear wherever a person
is shown"): the account's display name, else (old data, no account) the name the member's
game was joined with; the member id stays for links."""

from __future__ import annotations

from typing import Any

import asyncpg
import strawberry

from event_store import PostgresEventStore
from services.accounts.schema import prepare_database as prepare_accounts_tables
from services.directory.projection import directory_subscription
from services.directory.projection import prepare_database as prepare_directory_tables
from services.game.application.service import GameService
from services.ratings.consumer import ratings_subscription
from services.ratings.graphql_types import RatingsQuery
from tests.integration.ratings.games import MEMBERS, PlannedGame, enter_games

SCHEMA = strawberry.Schema(query=RatingsQuery)

NAMES = ("Calamity Jane", "Doc Holliday", "Annie Oakley", "Wild Bill", "Belle Starr")
ACCOUNT_NAMES = dict(zip(MEMBERS[: len(NAMES)], NAMES, strict=True))
"""Five members with accounts; the other three are known only by their seats' names."""


async def ask(pool: asyncpg.Pool, query: str, **variables: Any) -> dict[str, Any]:
    result = await SCHEMA.execute(query, variables, context_value={"pool": pool})
    assert result.errors is None, result.errors
    assert result.data is not None
    return result.data


async def test_leaderboards_and_profiles_name_every_member(
    game_service: GameService,
    game_store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    planned_games: list[PlannedGame],
) -> None:
    await prepare_accounts_tables(pg_pool)
    await prepare_directory_tables(pg_pool)
    # accounts whose ids are the planned games' member ids, as a member registered by name is
    # stored (an unclaimed account: a display name, no login, no password)
    await pg_pool.executemany(
        "INSERT INTO accounts (account_id, display_name) VALUES ($1, $2)", list(ACCOUNT_NAMES.items())
    )
    await enter_games(game_service, planned_games[:8])
    await ratings_subscription(game_store).run_until_idle()
    await directory_subscription(PostgresEventStore(pg_pool)).run_until_idle()
    seat_names = {s.member_id: s.name for g in planned_games[:8] for s in g.seats}
    expected = seat_names | ACCOUNT_NAMES

    data = await ask(
        pg_pool,
        """
        query ($member: String!, $old: String!) {
          overall: ratingLeaderboard(pool: "club:club-a", limit: 100) { memberId displayName }
          sheriffs: ratingLeaderboard(pool: "club:club-a", role: SHERIFF) { memberId displayName }
          player: playerRating(pool: "club:club-a", memberId: $member) { memberId displayName }
          old: playerRating(pool: "club:club-a", memberId: $old) { memberId displayName }
        }
        """,
        member=MEMBERS[0],
        old=MEMBERS[-1],
    )
    overall = data["overall"]
    assert {e["memberId"] for e in overall} == set(seat_names)
    assert all(e["displayName"] == expected[e["memberId"]] for e in overall)
    assert any(e["memberId"] in ACCOUNT_NAMES for e in overall)
    assert any(e["memberId"] not in ACCOUNT_NAMES for e in overall)
    assert data["sheriffs"] and all(e["displayName"] == expected[e["memberId"]] for e in data["sheriffs"])
    assert data["player"] == {"memberId": MEMBERS[0], "displayName": "Calamity Jane"}
    assert data["old"] == {"memberId": MEMBERS[-1], "displayName": MEMBERS[-1].title()}
    assert not {e["displayName"] for e in overall} & set(MEMBERS), "a bare id shown as a name"
