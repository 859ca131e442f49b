"""Consumers of game streams read games corrected at the table (``EntryTakenBack``): the ratings
consumer rates each corrected game exactly as its uncorrected twin, and the directory lists it."""

from __future__ import annotations

import asyncpg

from event_store import PostgresEventStore
from services.game.application.corrections import TakeBack
from services.game.application.lifecycle import GameMode
from services.game.application.service import GameService, NewGame
from services.ratings import RatingConfig, rebuild
from services.ratings.consumer import ratings_subscription
from tests.integration.ratings.checks import assert_tables_hold
from tests.integration.ratings.games import SCOREKEEPER, PlannedGame, recorded_outcomes, schedule

EVERY = 5
"""Every fifth entry is taken back at once and entered again."""


async def enter_with_corrections(service: GameService, game: PlannedGame) -> int:
    """``game`` entered as a scorekeeper who takes back and enters again every ``EVERY``-th
    entry (never the last one: it ends the game, and a finished game is voided, not corrected).
    How many entries were taken back."""
    spec = NewGame(
        mode=GameMode.TABLE, player_count=len(game.seats), seats=game.seats, context=game.context,
        game_id=game.game_id,
    )  # fmt: skip
    assert isinstance(service.store, PostgresEventStore)
    await schedule(service.store, [game])  # its league scheduled it: rated in the club's pool
    await service.create_game(spec, command_id=f"create-{game.game_id}", actor=SCOREKEEPER)
    taken = 0
    for n, command in enumerate(game.commands):
        await service.play(game.game_id, command, actor=SCOREKEEPER, command_id=f"{game.game_id}/{n}")
        if n % EVERY == 1 and n < len(game.commands) - 1:
            await service.play(game.game_id, TakeBack(), actor=SCOREKEEPER, command_id=f"{game.game_id}/u{n}")
            await service.play(game.game_id, command, actor=SCOREKEEPER, command_id=f"{game.game_id}/{n}b")
            taken += 1
    return taken


async def test_the_ratings_consumer_rates_corrected_games_as_if_never_corrected(
    game_service: GameService,
    game_store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    planned_games: list[PlannedGame],
) -> None:
    games = planned_games[:3]
    assert all([await enter_with_corrections(game_service, g) for g in games])
    types = await pg_pool.fetch("SELECT DISTINCT type FROM events WHERE category = 'game'")
    assert "EntryTakenBack" in {r["type"] for r in types}

    await ratings_subscription(game_store).run_until_idle()
    outcomes = await recorded_outcomes(game_store)
    assert sorted(o.game_id for o in outcomes) == sorted(g.game_id for g in games)
    await assert_tables_hold(pg_pool, rebuild(outcomes, RatingConfig()))
    for game in games:
        session = await game_service.load(game.game_id)
        assert session.status.value == "ended" and session.entries.taken_back > 0
