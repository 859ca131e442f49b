"""The vault of online games' dice seeds in memory: with event_store.MemoryEventStore, the game
service runs without PostgreSQL (engine and service tests, tools). Same answers as SeedVault:
the first seed kept for a game stays its seed."""

from __future__ import annotations


class MemorySeedVault:
    def __init__(self) -> None:
        self._seeds: dict[str, bytes] = {}

    async def keep(self, game_id: str, seed: bytes) -> bytes:
        """Keep ``seed`` for ``game_id`` unless one is kept already; return the kept one (so
        that a retried create uses the seed whose commitment was published)."""
        return self._seeds.setdefault(game_id, bytes(seed))

    async def seed_of(self, game_id: str) -> bytes:
        seed = self._seeds.get(game_id)
        if seed is None:
            raise LookupError(f"no dice seed is kept for game {game_id}")
        return seed
