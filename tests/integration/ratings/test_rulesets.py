"""Old Saloon games in the ratings read model: offsets kept per ruleset, special roles rated
as their base roles, a module set never seen before cold-started, and migration 0003 on a
database the ratings had already filled."""

from __future__ import annotations

from typing import Any

import asyncpg
import msgspec
import strawberry

from event_store import NewEvent, PostgresEventStore, migrate
from event_store.migrator import load_migrations
from services.game.application.codec import game_stream
from services.game.application.lifecycle import GameContext, GameCreated, GameMode, SeatsDealt
from services.game.application.service import GameService
from services.game.results import ROLES_BY_PLAYER_COUNT, Role
from services.game.rules.dice import CharacterId, GameEnded, PlayerId, PlayerResult
from services.game.rules.dice import Role as DiceRole
from services.game.rules.dice import Side as DiceSide
from services.game.rules.ruleset import ruleset_of
from services.game.schema import prepare_database as prepare_game_tables
from services.ratings import RatingConfig, rebuild
from services.ratings import store as ratings_store
from services.ratings.consumer import ratings_subscription
from services.ratings.consumer import rebuild as rebuild_generation
from services.ratings.graphql_types import RatingsQuery
from services.ratings.outcome import side_of
from services.ratings.store import prepare_database as prepare_ratings_tables
from tests.integration.ratings.checks import assert_tables_hold, current
from tests.integration.ratings.games import SCOREKEEPER, PlannedGame, enter_games, recorded_outcomes, schedule

SCHEMA = strawberry.Schema(query=RatingsQuery)
OLD_SALOON = ruleset_of(["OS1", "OS3", "OS5"])
SALOON_MEMBERS = ("member-1", "member-2", "member-3", "member-4", "member-5")
SPECIAL = {
    Role.SHERIFF: "l_ours",
    Role.DEPUTY: "le_doc",
    Role.OUTLAW: "le_joueur",
    Role.RENEGADE: "main_gauche",
}


def _old_saloon_end(size: int) -> dict[str, Any]:
    """A game of ``size`` (4+) the Outlaws won, as an engine with Old Saloon records its end:
    every line names its special role, and the first Outlaw, out first, is the Ghost."""
    roles = ROLES_BY_PLAYER_COUNT[size]
    ended = GameEnded(
        winning_side=DiceSide.OUTLAWS,
        winners=tuple(PlayerId(f"p{i + 1}") for i, r in enumerate(roles) if r is Role.OUTLAW),
        results=tuple(
            PlayerResult(
                player=PlayerId(f"p{i + 1}"),
                role=DiceRole(role.value),
                character=CharacterId.BART_CASSIDY,
                side=DiceSide(side_of(role, size).value),
                won=role is Role.OUTLAW,
                alive=role is Role.OUTLAW,
                eliminated_turn=None if role is Role.OUTLAW else 3,
            )
            for i, role in enumerate(roles)
        ),
        turn=8,
    )
    data: dict[str, Any] = msgspec.to_builtins(ended)
    for line, role in zip(data["results"], roles, strict=True):
        line["special"] = SPECIAL[role]
    first_outlaw = roles.index(Role.OUTLAW)
    data["results"][first_outlaw].update(alive=False, eliminated_turn=2, ghost=True)
    return data


async def _enter_old_saloon_game(store: PostgresEventStore, game_id: str, members: tuple[str, ...]) -> None:
    """Written straight to the store: the service does not create Old Saloon games yet, but a
    stream that records one must be rated under its own rules. Its league scheduled it, and
    its scheduled scorekeeper created it, so it is rated in the club's pool."""
    context = GameContext(league_id="league-a", season_id="summer")
    await schedule(store, [PlannedGame(game_id=game_id, seats=(), commands=(), context=context)])
    created = GameCreated(
        game_id=game_id,
        mode=GameMode.TABLE,
        player_count=len(members),
        ruleset=OLD_SALOON,
        context=context,
        created_by=SCOREKEEPER.id,
    )
    data = _old_saloon_end(len(members))
    end = NewEvent(type=GameEnded.__name__, data=data, schema_version=GameEnded.VERSION)
    await store.append(game_stream(game_id), [created, SeatsDealt(members=members), end], expected_version=0)


async def _offset_rows(pool: asyncpg.Pool, ruleset: str) -> dict[tuple[int, str], tuple[Any, ...]]:
    rows = await pool.fetch(
        "SELECT players, faction, value, information, games, normalised FROM ratings_offsets "
        "WHERE ruleset = $1",
        ruleset,
    )
    return {(r["players"], r["faction"]): tuple(r)[2:] for r in rows}


async def _ask(pool: asyncpg.Pool, query: str) -> Any:
    return await SCHEMA.execute(query, context_value={"pool": pool})


async def test_an_old_saloon_game_is_rated_under_its_own_offsets_and_base_roles(
    game_service: GameService,
    game_store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    planned_games: list[PlannedGame],
) -> None:
    base_games = [g for g in planned_games if len(g.seats) >= 4][:5]
    await enter_games(game_service, base_games)
    await ratings_subscription(game_store).run_until_idle()
    base_before = await _offset_rows(pg_pool, "dice")
    # the Old Saloon table has the size of a base game already rated: its new cells start there
    members = tuple(seat.member_id for seat in base_games[0].seats)
    size = len(members)
    deputy_before = await pg_pool.fetchval(
        "SELECT coalesce(sum(games), 0) FROM ratings_roles WHERE role = 'deputy' AND member_id = ANY($1)",
        list(members),
    )
    await _enter_old_saloon_game(game_store, "saloon-1", members)
    await ratings_subscription(game_store).run_until_idle()

    rated = await pg_pool.fetchrow("SELECT * FROM ratings_games WHERE game_id = 'saloon-1'")
    assert rated["unrated"] is None and rated["game_number"] == len(base_games) + 1
    assert rated["ruleset"] == "dice OS1 OS3 OS5"
    # the base game's offsets did not move; the module set has its own, one game each
    assert await _offset_rows(pg_pool, "dice") == base_before
    saloon = await _offset_rows(pg_pool, "dice OS1 OS3 OS5")
    assert {key: row[2] for key, row in saloon.items()} == {
        (size, "law"): 1,
        (size, "outlaws"): 1,
        (size, "renegade"): 1,
    }
    # the tables hold exactly a book computed from scratch with the rulesets as recorded
    outcomes = await recorded_outcomes(game_store)
    assert [o.ruleset for o in outcomes] == ["dice"] * len(base_games) + ["dice OS1 OS3 OS5"]
    book = rebuild(outcomes, RatingConfig())
    await assert_tables_hold(pg_pool, book)
    # the new cells started from the base game's values at that size (then took one step)
    for kind, cell in book.offsets.cells["dice OS1 OS3 OS5"][size].items():
        assert (size, kind.value) in base_before
        assert cell.information < 1.0
    # Le Doc, Le Joueur and the Ghost were rated as Deputies and Outlaws: no other role exists
    roles = {r["role"] for r in await pg_pool.fetch("SELECT DISTINCT role FROM ratings_history")}
    assert roles <= {"overall", *(r.value for r in Role)}
    deputies = sum(1 for r in ROLES_BY_PLAYER_COUNT[size] if r is Role.DEPUTY)
    deputy_after = await pg_pool.fetchval(
        "SELECT coalesce(sum(games), 0) FROM ratings_roles WHERE role = 'deputy' AND member_id = ANY($1)",
        list(members),
    )
    assert deputy_after == deputy_before + deputies
    ghost = members[ROLES_BY_PLAYER_COUNT[size].index(Role.OUTLAW)]
    ghost_change = await pg_pool.fetchrow(
        "SELECT role, rating FROM ratings_history WHERE game_id = 'saloon-1' AND member_id = $1 "
        "AND role <> 'overall'",
        ghost,
    )
    assert ghost_change["role"] == "outlaw"

    # a rebuild reads the same events the same way
    await rebuild_generation(pg_pool)
    await assert_tables_hold(pg_pool, book)


async def test_the_queries_filter_by_ruleset(
    game_service: GameService,
    game_store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    planned_games: list[PlannedGame],
) -> None:
    base_games = [g for g in planned_games if len(g.seats) >= 4][:3]
    await enter_games(game_service, base_games)
    saloon_members = SALOON_MEMBERS
    await _enter_old_saloon_game(game_store, "saloon-2", saloon_members)
    await ratings_subscription(game_store).run_until_idle()

    answer = await _ask(
        pg_pool,
        '{ saloon: ratingOffsets(pool: "club:club-a", ruleset: "dice OS1 OS3 OS5") '
        "{ ruleset players faction games } "
        'base: ratingOffsets(pool: "club:club-a", ruleset: "dice") { ruleset } '
        'board: ratingLeaderboard(pool: "club:club-a", ruleset: "dice OS1 OS3 OS5") { memberId rating } '
        'outlaws: ratingLeaderboard(pool: "club:club-a", ruleset: "dice OS1 OS3 OS5", role: OUTLAW) '
        "{ memberId } "
        'everyone: ratingLeaderboard(pool: "club:club-a") { memberId rating } '
        'unseen: ratingLeaderboard(pool: "club:club-a", ruleset: "dice OS2") { memberId } }',
    )
    assert answer.errors is None, answer.errors
    data = answer.data
    assert sorted((o["players"], o["faction"], o["games"]) for o in data["saloon"]) == [
        (5, "law", 1),
        (5, "outlaws", 1),
        (5, "renegade", 1),
    ]
    assert {o["ruleset"] for o in data["saloon"]} == {"dice OS1 OS3 OS5"}
    assert data["base"] and {o["ruleset"] for o in data["base"]} == {"dice"}
    assert {e["memberId"] for e in data["board"]} == set(saloon_members)
    # one rating across rulesets: the filtered board shows the same ratings as the overall one
    overall = {e["memberId"]: e["rating"] for e in data["everyone"]}
    assert all(overall[e["memberId"]] == e["rating"] for e in data["board"])
    # a role's board under a ruleset: only players with a rated game IN THAT ROLE under it (this
    # game's Outlaws), not whoever played the role in another ruleset (docs/ratings.md)
    assert {e["memberId"] for e in data["outlaws"]} == {"member-3", "member-4"}
    assert data["unseen"] == []

    refused = await _ask(
        pg_pool, '{ ratingOffsets(pool: "club:club-a", ruleset: "dice; DROP TABLE") { ruleset } }'
    )
    assert refused.errors is not None
    assert refused.errors[0].extensions is not None
    assert refused.errors[0].extensions["field"] == "ruleset"
    assert "e.g. 'dice' or 'dice OS1 OS3'" in refused.errors[0].message


async def test_migration_0003_keeps_the_offsets_of_an_existing_database(
    pg_pool: asyncpg.Pool, game_store: PostgresEventStore
) -> None:
    # game_store prepared the latest schema on this database: start over at 0002 instead
    await pg_pool.execute(
        "DROP TABLE ratings_history, ratings_roles, ratings_players, ratings_offsets, ratings_games, "
        "ratings_voided, ratings_rebuild_requests, ratings_leagues, ratings_scheduled, ratings_generations; "
        "DELETE FROM schema_migrations WHERE component = 'ratings'"
    )
    async with pg_pool.acquire() as connection:
        before = load_migrations(ratings_store.MIGRATIONS)[:2]
        applied = await migrate(connection, before, component="ratings")
        assert applied == ["0001_ratings", "0002_ratings_game_rules"]
        # what the consumer wrote before offsets had a ruleset: a generation, offsets of 5 players
        # (by hand: today's create_generation reads the voids table, which 0002 does not have)
        generation = await connection.fetchval(
            "INSERT INTO ratings_generations (status, config, activated_at) "
            "VALUES ('current', $1::json, clock_timestamp()) RETURNING generation",
            msgspec.json.encode(ratings_store.storage_config(RatingConfig())).decode(),
        )
        await connection.executemany(
            "INSERT INTO ratings_offsets "
            "(generation, players, faction, value, information, games, normalised) "
            "VALUES ($1, 5, $2, $3, $4, 7, $5)",
            [
                (generation, "law", 21.5, 1.25, 10.0),
                (generation, "outlaws", 40.25, 1.5, 28.75),
                (generation, "renegade", -27.0, 1.0, -38.75),
            ],
        )
    await prepare_game_tables(pg_pool)
    await prepare_ratings_tables(pg_pool)
    migrations = await pg_pool.fetch(
        "SELECT name FROM schema_migrations WHERE component = 'ratings' ORDER BY number"
    )
    assert [m["name"] for m in migrations][2:4] == ["ratings_offsets_per_ruleset", "ratings_voids"]
    # every existing offset was fitted on base games: it is the base ruleset's now
    assert await _offset_rows(pg_pool, "dice") == {
        (5, "law"): (21.5, 1.25, 7, 10.0),
        (5, "outlaws"): (40.25, 1.5, 7, 28.75),
        (5, "renegade"): (-27.0, 1.0, 7, -38.75),
    }
    async with pg_pool.acquire() as connection:
        book = await ratings_store.load_book(connection, await current(pg_pool))
    loaded = book.offsets.cells["dice"]
    assert {n: {k.value: c.value for k, c in cells.items()} for n, cells in loaded.items()} == {
        5: {"law": 21.5, "outlaws": 40.25, "renegade": -27.0}
    }
    assert book.offsets.cells.keys() == {"dice"}
    # migration 0007 put those rows in the global pool (where load_book found them) and asked
    # for a rebuild, which the consumer runs after its next batch: every pool recomputed from
    # the events alone, so offsets no game fitted are gone and the Old Saloon game, a club's
    # league game, is rated in its club's pool from the base game's starting values
    assert await pg_pool.fetchval("SELECT count(*) FROM ratings_offsets WHERE pool = 'global'") == 3
    requested = "SELECT done_at IS NOT NULL FROM ratings_rebuild_requests WHERE request_id = 'pools:0007'"
    assert await pg_pool.fetchval(requested) is False
    await _enter_old_saloon_game(game_store, "saloon-3", SALOON_MEMBERS)
    await ratings_subscription(game_store).run_until_idle()
    assert await pg_pool.fetchval(requested) is True
    saloon = await _offset_rows(pg_pool, "dice OS1 OS3 OS5")
    assert saloon.keys() == {(5, "law"), (5, "outlaws"), (5, "renegade")}
    assert saloon[(5, "outlaws")][0] > 0 and saloon[(5, "law")][0] < 0  # the Outlaws won
    assert await _offset_rows(pg_pool, "dice") == {}
    assert await pg_pool.fetchval("SELECT DISTINCT pool FROM ratings_offsets") == "club:club-a"
