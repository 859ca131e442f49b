"""The vault of online games' dice seeds (PostgreSQL table ``game_seeds``)."""

from __future__ import annotations

import asyncpg


class SeedVault:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        self._cache: dict[str, bytes] = {}

    async def keep(self, game_id: str, seed: bytes) -> bytes:
        """Store ``seed`` for ``game_id`` unless one is stored already; return the stored one
        (so that a retried create uses the seed whose commitment was published)."""
        stored = await self._pool.fetchval(
            """
            INSERT INTO game_seeds (game_id, seed) VALUES ($1, $2)
            ON CONFLICT (game_id) DO UPDATE SET game_id = EXCLUDED.game_id
            RETURNING seed
            """,
            game_id,
            seed,
        )
        self._cache[game_id] = bytes(stored)
        return self._cache[game_id]

    async def seed_of(self, game_id: str) -> bytes:
        seed = self._cache.get(game_id)
        if seed is None:
            row = await self._pool.fetchval("SELECT seed FROM game_seeds WHERE game_id = $1", game_id)
            if row is None:
                raise LookupError(f"no dice seed is kept for game {game_id}")
            seed = self._cache[game_id] = bytes(row)
        return seed
