"""Compare the ratings tables with a book computed from scratch, exactly (floats included)."""

from __future__ import annotations

from typing import Any

import asyncpg
import msgspec

from services.ratings import RatingBook
from services.ratings import store as ratings_store
from tests.integration.ratings.games import POOL

Rows = dict[str, dict[tuple[Any, ...], tuple[Any, ...]]]


def expected_rows(book: RatingBook) -> Rows:
    """What the tables must hold for ``book`` (a book that keeps history)."""
    players: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    roles: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    history: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    for member, record in book.players.items():
        rating = book.rating(member)
        players[(member,)] = (rating.rating, rating.games, rating.wins, rating.provisional)
        for rr in rating.roles:
            roles[(member, rr.role.value)] = (rr.rating, rr.games, rr.wins, rr.provisional)
        for point in record.history:
            history[(member, ratings_store.OVERALL, point.game)] = (point.game_id, point.rating)
        for role, role_record in record.roles.items():
            for point in role_record.history:
                history[(member, role.value, point.game)] = (point.game_id, point.rating)
    offsets: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    normalised = book.offsets.normalised()
    for ruleset, by_size in book.offsets.cells.items():
        for players_at_table, cells in by_size.items():
            for kind, cell in cells.items():
                offsets[(ruleset, players_at_table, kind.value)] = (
                    cell.value,
                    cell.information,
                    cell.games,
                    normalised[ruleset][players_at_table][kind],
                )
    return {"players": players, "roles": roles, "history": history, "offsets": offsets}


async def table_rows(
    pool: asyncpg.Pool, generation: int, game_type: str = "dice", in_pool: str = POOL
) -> Rows:
    """The tables' rows of one generation, game type and pool, in ``expected_rows``' shape."""
    players = {
        (r["member_id"],): (r["rating"], r["games"], r["wins"], r["provisional"])
        for r in await pool.fetch(
            "SELECT * FROM ratings_players WHERE generation = $1 AND game_type = $2 AND pool = $3",
            generation,
            game_type,
            in_pool,
        )
    }
    roles = {
        (r["member_id"], r["role"]): (r["rating"], r["games"], r["wins"], r["provisional"])
        for r in await pool.fetch(
            "SELECT * FROM ratings_roles WHERE generation = $1 AND game_type = $2 AND pool = $3",
            generation,
            game_type,
            in_pool,
        )
    }
    history = {
        (r["member_id"], r["role"], r["game_number"]): (r["game_id"], r["rating"])
        for r in await pool.fetch(
            "SELECT * FROM ratings_history WHERE generation = $1 AND game_type = $2 AND pool = $3",
            generation,
            game_type,
            in_pool,
        )
    }
    offsets = {
        (r["ruleset"], r["players"], r["faction"]): (
            r["value"],
            r["information"],
            r["games"],
            r["normalised"],
        )
        for r in await pool.fetch(
            "SELECT * FROM ratings_offsets WHERE generation = $1 AND split_part(ruleset, ' ', 1) = $2 "
            "AND pool = $3",
            generation,
            game_type,
            in_pool,
        )
    }
    return {"players": players, "roles": roles, "history": history, "offsets": offsets}


async def current(pool: asyncpg.Pool) -> ratings_store.Generation:
    found = await ratings_store.current_generation(pool)
    assert found is not None, "no current ratings generation"
    return found


async def assert_tables_hold(
    pool: asyncpg.Pool, book: RatingBook, generation: int | None = None, in_pool: str = POOL
) -> None:
    """The generation (default: the current one) holds exactly ``book`` in ``in_pool`` (the
    test leagues' club pool unless given): its rows, and the book assembled back from its
    stored state, which is what the consumer resumes from."""
    gen = await current(pool) if generation is None else await ratings_store.generation(pool, generation)
    assert gen is not None
    rows = await table_rows(pool, gen.generation, in_pool=in_pool)
    want = expected_rows(book)
    for table in want:
        assert rows[table] == want[table], f"ratings_{table} differs from the book computed from scratch"
    assert gen.games == book.games
    async with pool.acquire() as connection:
        stored = await ratings_store.load_book(connection, gen, pool=in_pool)
    without_history = msgspec.structs.replace(book.config, keep_history=False)
    assert stored.config == without_history
    # the stored state is the book itself, less the history the tables keep instead
    book = RatingBook.from_json(book.to_json())  # a copy: the caller's book keeps its history
    for record in book.players.values():
        record.history = []
        for role_record in record.roles.values():
            role_record.history = []
    assert msgspec.to_builtins(stored.players) == msgspec.to_builtins(book.players)
    assert msgspec.to_builtins(stored.offsets) == msgspec.to_builtins(book.offsets)
